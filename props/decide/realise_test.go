package decide

import (
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// TestProveUnreachableOnly: testdata/random/unreachable-bounce.json (a random table on
// the ring torus:4 with two VCs) has deadlock configurations only of the kind no worm
// reaches with one-flit buffers: a worm toward (1) bounces between (2) and (3) on VC 1,
// and its header at (2) waits for (2)->(3), which its own tail entered just before. The
// proof must say so (inconclusive, the search exhausted, every refusal settled) rather
// than name a bound, and the explorer must agree that no placement of one or two worms
// of one to three flits deadlocks with one-flit buffers.
func TestProveUnreachableOnly(t *testing.T) {
	rel := randomPin(t, "unreachable-bounce.json")
	rr, err := ProveRelation(t.Context(), rel, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rr.Verdict != props.Inconclusive || !rr.Decision.Exhausted || !strings.Contains(rr.Reason, "no flit deadlock with buffers of one flit") {
		t.Fatalf("%s: %s (exhausted %v)", rr.Verdict, rr.Reason, rr.Decision.Exhausted)
	}
	g := rel.Grid()
	var pairs []unicast.Pair
	for s := range g.Nodes() {
		for d := range g.Nodes() {
			if s != d {
				pairs = append(pairs, unicast.Pair{Src: topology.NodeID(s), Dst: topology.NodeID(d)})
			}
		}
	}
	n := 0
	for i := range pairs {
		for j := i; j < len(pairs); j++ {
			ps := []unicast.Pair{pairs[i]}
			if j > i {
				ps = append(ps, pairs[j])
			}
			for l := 1; l <= 3; l++ {
				m, err := unicast.BuildOn(g, unicast.Spec{Topology: g.Spec(), Pairs: ps, Length: l, Buffer: 1, VCs: 2, Ports: model.AllPort, Routing: rel})
				if err != nil {
					t.Fatal(err)
				}
				res, err := checker.Explore[flit.State](m, checker.Options[flit.State]{CheckDeadlock: true, MaxStates: 200_000})
				if err != nil {
					t.Fatal(err)
				}
				if res.Verdict != checker.Holds {
					t.Fatalf("%s, L=%d: %v %v", unicast.FormatPairs(nil, ps), l, res.Verdict, res.Violation)
				}
				n++
			}
		}
	}
	t.Logf("%s; %d instances without deadlock", rr.Reason, n)
}
