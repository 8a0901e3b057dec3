package props

import (
	"testing"
)

func TestVerdictExitCodes(t *testing.T) {
	for v, want := range map[Verdict]int{Holds: 0, Violated: 1, Inconclusive: 3} {
		if v.ExitCode() != want {
			t.Errorf("%s exits %d, want %d", v, v.ExitCode(), want)
		}
	}
}
