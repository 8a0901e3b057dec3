package props_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestVerdictMisuseIsCaught: string(r.Verdict), which gave "holds" when verdicts were
// strings, compiles now that props.Verdict is an integer; go vet refuses it
// (stringintconv), so a user's CI that runs go vet catches the misuse.
func TestVerdictMisuseIsCaught(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	out, err := exec.Command("go", "vet", "./testdata/verdictmisuse").CombinedOutput()
	if err == nil || !strings.Contains(string(out), "yields a string of one rune") {
		t.Fatalf("go vet accepted string(r.Verdict): %v\n%s", err, out)
	}
}
