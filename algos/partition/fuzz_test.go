package partition

import "testing"

func FuzzParseType(f *testing.F) {
	for _, s := range []string{"I", "ii", "3", "IV", "", "V", " iii "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		typ, err := ParseType(s)
		if err != nil {
			return
		}
		if !typ.Valid() {
			t.Fatalf("%q parsed to invalid %v", s, typ)
		}
		back, err := ParseType(typ.String())
		if err != nil || back != typ {
			t.Fatalf("%q: round trip %v -> %v (%v)", s, typ, back, err)
		}
	})
}
