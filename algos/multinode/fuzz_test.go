package multinode

import "testing"

func FuzzParseSelection(f *testing.F) {
	for _, s := range []string{"centralised", "random", "own", "", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sel, err := ParseSelection(s)
		if err == nil && sel.String() != s {
			t.Fatalf("%q parsed to %v", s, sel)
		}
	})
}
