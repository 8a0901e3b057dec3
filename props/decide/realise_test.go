package decide

import (
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
// can be stuck in: a worm toward (1) bounces between (2) and (3) on VC 1, and its
// header at (2) waits for (2)->(3), which its own tail left just before, closer on its
// route than the channels it holds (gap.go). The decision passes them over and says
// holds, for every worm length and buffer depth; the explorer must agree on every
// placement of one or two worms of one to three flits with buffers of one to three.
// Without the gap argument the answer was inconclusive (the flit model reached none of
// them with one-flit buffers, larger ones undecided).
func TestProveUnreachableOnly(t *testing.T) {
	rel := randomPin(t, "unreachable-bounce.json")
	rr, err := ProveRelation(t.Context(), rel, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rr.Verdict != props.Holds || rr.Decision.Excluded == 0 || rr.Decision.Refused != 0 {
		t.Fatalf("%s: %s (excluded %d, refused %d)", rr.Verdict, rr.Reason, rr.Decision.Excluded, rr.Decision.Refused)
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
				for b := 1; b <= 3; b++ {
					m, err := unicast.BuildOn(g, unicast.Spec{Topology: g.Spec(), Pairs: ps, Length: l, Buffer: b, VCs: 2, Ports: model.AllPort, Routing: rel})
					if err != nil {
						t.Fatal(err)
					}
					res, err := checker.Explore[flit.State](m, checker.Options[flit.State]{CheckDeadlock: true, MaxStates: 200_000})
					if err != nil {
						t.Fatal(err)
					}
					if res.Verdict != checker.Holds {
						t.Fatalf("%s, L=%d, B=%d: %v %v", unicast.FormatPairs(nil, ps), l, b, res.Verdict, res.Violation)
					}
					n++
				}
			}
		}
	}
	t.Logf("%s; %d instances without deadlock", rr.Reason, n)
}
