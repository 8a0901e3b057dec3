package partition

import (
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

// TestFamily counts the sweep on small grids: on 4x4 h is 1, 2 or 4, so Type III has
// 0 + 1 + 3 deltas; a 2x3 grid admits only h = 1; keep filters sides.
func TestFamily(t *testing.T) {
	if got := len(Family(topology.Torus, 4, 4, nil, []Type{TypeIII})); got != 4 {
		t.Errorf("Type III members on 4x4: %d, want 4", got)
	}
	f := Family(topology.Mesh, 2, 3, func(s, t int) bool { return s == 2 && t == 3 }, Types())
	if len(f) != 3 || f[0].Topology != "mesh:2x3" || f[0].Params.H != 1 {
		t.Errorf("mesh 2x3: %+v, want Types I, II, IV with h = 1", f)
	}
}
