package props_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestVerdictMisuseIsCaught: string(r.Verdict) compiles, since props.Verdict is an
// integer, and yields one rune instead of the verdict's name; go vet refuses it
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
