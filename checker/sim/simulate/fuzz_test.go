package simulate

import (
	"strings"
	"testing"
)

// FuzzParseDests checks that --dests parses to a valid range or a one-line error.
func FuzzParseDests(f *testing.F) {
	for _, s := range []string{"4..25", "1", "0..3", "5..2", "x", "..", "3..", "-1..4", "99999999999999999999..1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		mn, mx, err := parseDests(s)
		if err == nil && (mn < 1 || mx < mn) {
			t.Fatalf("%q parsed to %d..%d", s, mn, mx)
		}
		if err != nil && strings.Contains(err.Error(), "\n") {
			t.Fatalf("multi-line error %q", err)
		}
	})
}
