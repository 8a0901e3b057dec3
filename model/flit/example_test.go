package flit_test

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
)

// Example walks one 2-flit worm across a 3-node line, always taking the first enabled
// transition.
func Example() {
	g, _ := model.NewMesh(3)
	cfg := flit.NewGridConfig(g, false, 1, 1, flit.OnePort, []flit.Message{
		{Source: 0, Dests: []model.NodeID{2}, Length: 2},
	})
	m, err := flit.New(cfg)
	if err != nil {
		fmt.Println(err)
		return
	}
	s := m.Init()[0]
	for !m.Terminal(s) {
		succ := m.Successors(s, nil)
		fmt.Println(m.Describe(s, succ[0].Action))
		s = succ[0].Next
	}
	// Output:
	// m0 flit 0 takes (0)->(1).vc0
	// m0 flit 0 takes (1)->(2).vc0
	// m0 flit 1 (0)->(1).vc0
	// m0 flit 0 delivered at (2)
	// m0 flit 1 (1)->(2).vc0
	// m0 flit 1 delivered at (2)
}
