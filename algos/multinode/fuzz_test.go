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

func FuzzParseChain(f *testing.F) {
	for _, s := range []string{"u-torus", "spu", "u-mesh", "", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseChain(s)
		if err != nil {
			return
		}
		if back, err := ParseChain(c.String()); err != nil || back != c {
			t.Fatalf("%q: round trip %v -> %v (%v)", s, c, back, err)
		}
	})
}
