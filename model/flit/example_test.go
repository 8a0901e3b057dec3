package flit_test

import (
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Example walks one 2-flit worm across a 3-node line, always taking the first enabled
// transition.
func Example() {
	g, _ := topology.NewMesh(3)
	cfg := flit.NewGridConfig(g, false, 1, 1, flit.OnePort, []flit.Message{
		{Source: 0, Dests: []topology.NodeID{2}, Length: 2},
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

// ExampleNewRelationConfig routes four one-flit worms around mesh:2x2 with minimal fully
// adaptive routing (one virtual channel): the explorer branches on every free permitted
// output and finds the deadlock in which each worm holds the channel the next one needs;
// under dimension order the same worms are deadlock-free.
func ExampleNewRelationConfig() {
	g, _ := topology.NewMesh(2, 2)
	worms := []flit.Message{flit.Unicast(0, 3, 1), flit.Unicast(1, 2, 1), flit.Unicast(3, 0, 1), flit.Unicast(2, 1, 1)}
	for _, name := range []string{"dor", "adaptive"} {
		rel, err := routing.ByName(g, name)
		if err != nil {
			fmt.Println(err)
			return
		}
		m, err := flit.New(flit.NewRelationConfig(rel, 0, 1, flit.AllPort, worms))
		if err != nil {
			fmt.Println(err)
			return
		}
		res, err := checker.Explore[flit.State](m, checker.Options[flit.State]{CheckDeadlock: true})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(name, res.Verdict, res.Stats.States, "states")
		if res.Violation != nil {
			last := res.Violation.Trace.Steps[len(res.Violation.Trace.Steps)-1].State
			fmt.Println(m.Waits(last))
		}
	}
	// Output:
	// dor holds 256 states
	// adaptive violated 413 states
	// wait-for cycle m0 -> m1 -> m2 -> m3 -> m0: m0 at (1,0) waits for (1,0)->(1,1) (vc0 by m1); m1 at (1,1) waits for (1,1)->(0,1) (vc0 by m2); m2 at (0,1) waits for (0,1)->(0,0) (vc0 by m3); m3 at (0,0) waits for (0,0)->(1,0) (vc0 by m0)
}
