package treemcast

import (
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

// TestMembersStop: enumeration asks its stop function every enumerateEvery pairs, so a
// stop that says yes at its third question ends it after exactly 3·enumerateEvery of the
// 1844160 pairs of pairs:2 on a 4x4 mesh; one that never says yes gives Members' list.
func TestMembersStop(t *testing.T) {
	g, err := topology.NewMesh(4, 4)
	if err != nil {
		t.Fatal(err)
	}
	f := Family{Grid: g, K: 2, Symmetry: true}
	asked := 0
	if ms, looked := f.MembersUntil(func() bool { asked++; return asked == 3 }); ms != nil || looked != 3*enumerateEvery {
		t.Errorf("stopped at the third question: %d members, %d pairs looked at", len(ms), looked)
	}
	all := f.Members()
	asked = 0
	if ms, looked := f.MembersUntil(func() bool { asked++; return false }); looked != -1 || len(ms) != len(all) || asked != int(f.Pairs())/enumerateEvery {
		t.Errorf("never stopped: %d of %d members, looked %d, asked %d", len(ms), len(all), looked, asked)
	}
}
