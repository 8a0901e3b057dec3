package treemcast_test

import (
	"fmt"

	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Example checks the two multicasts of 000 Fig. 3 (as found on a 3x2 mesh) under each
// pruning policy: without pruning, and with the §4 trigger alone, they deadlock; pruning
// wherever a branch stops (000 §3) resolves it.
func Example() {
	g, _ := topology.NewMesh(3, 2)
	msgs, _ := treemcast.ParseMsgs(g, "(0,0)->(0,1),(2,1);(1,0)->(2,0),(0,1)")
	for _, pr := range []flit.Prune{flit.PruneNone, flit.PruneOnNoFree, flit.PruneOnStop} {
		p := treemcast.DefaultParams()
		p.Prune, p.Buffer = pr, 1
		res, _, err := treemcast.Check(treemcast.Instance{Grid: g, Msgs: msgs, Params: p}, treemcast.CheckOptions{Prop: checker.PropExactlyOnce})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%-10s %v after %d states\n", pr, res.Verdict, res.Stats.States)
	}
	// Output:
	// none       violated after 84 states
	// on-no-free violated after 84 states
	// on-stop    holds after 303 states
}
