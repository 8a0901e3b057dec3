package unicast

import (
	"slices"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// clockwise routes every header of the 6-router ring with a chord
// (topology/testdata/topo/ring6_chord.anynet) clockwise round the ring, never over the
// chord: routes up to five hops where the chord gives two, so hop distance is no
// progress measure, yet no header comes back to a channel it left.
const clockwise = `{"format": "wormcheck-routing/1", "name": "ring-clockwise",
 "table": [
   {"router": "r0", "dst": "n0", "out": ["n0"]}, {"router": "r0", "out": ["r1"]},
   {"router": "r1", "dst": "n1", "out": ["n1"]}, {"router": "r1", "out": ["r2"]},
   {"router": "r2", "dst": "n2", "out": ["n2"]}, {"router": "r2", "out": ["r3"]},
   {"router": "r3", "dst": "n3", "out": ["n3"]}, {"router": "r3", "out": ["r4"]},
   {"router": "r4", "dst": "n4", "out": ["n4"]}, {"router": "r4", "out": ["r5"]},
   {"router": "r5", "dst": "n5", "out": ["n5"]}, {"router": "r5", "out": ["r0"]}
 ]}`

// TestReducedFindsDeadlockOnIrregularNetwork: on an irregular network, a routing file
// whose routes are not shortest paths but whose header graph is acyclic gets
// partial-order reduction (it did not while reduction needed minimal hops), and the
// stubborn-set search alone (no unreduced first pass) finds the deadlock that three worms
// chasing each other round the ring close, among three short ones; the witness replays
// on the flit model into that deadlock.
func TestReducedFindsDeadlockOnIrregularNetwork(t *testing.T) {
	g, err := topology.Parse("file:../../model/topology/testdata/topo/ring6_chord.anynet")
	if err != nil {
		t.Fatal(err)
	}
	rel, err := routing.ParseFile([]byte(clockwise), g)
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := ParsePairs(g, "n1->n2,n0->n3,n3->n4,n2->n5,n5->n0,n4->n1")
	if err != nil {
		t.Fatal(err)
	}
	// Some route is longer than the shortest path: the old criterion refused it.
	longer := false
	for _, p := range pairs {
		path, err := routing.FirstPath(rel, p.Src, p.Dst)
		if err != nil {
			t.Fatal(err)
		}
		longer = longer || len(path) > g.HopDistances(p.Src)[p.Dst]
	}
	m, err := BuildOn(g, Spec{Topology: g.Spec(), Pairs: pairs, Length: 2, Buffer: 1, Routing: rel})
	if err != nil {
		t.Fatal(err)
	}
	if !longer || !m.Acyclic() {
		t.Fatalf("routes longer than shortest %v, acyclic %v: the instance no longer tests what it says", longer, m.Acyclic())
	}
	res := SearchReducedFirstPass(m, checker.Options[flit.State]{CheckLocalDeadlock: true}, 0)
	if res.Verdict != checker.Violated || res.Reduction != "stubborn" || !res.Kind.IsDeadlock() {
		t.Fatalf("%v (reduction %q, %v): %s; want a deadlock found by the reduced search", res.Verdict, res.Reduction, res.Kind, res.Violation)
	}
	for _, w := range []int{1, 3, 5} { // the three worms round the ring
		if !slices.Contains(res.Stuck, w) {
			t.Fatalf("stuck %v, want m1, m3 and m5 among them", res.Stuck)
		}
	}
	tr, err := checker.Replay[flit.State](m, 0, res.Actions())
	if err != nil {
		t.Fatalf("the witness does not replay: %v", err)
	}
	if st := m.Stuck(tr.Steps[len(tr.Steps)-1].State); !slices.Equal(st, res.Stuck) {
		t.Fatalf("replayed: stuck %v, want %v", st, res.Stuck)
	}
	full := SearchFull(m, checker.Options[flit.State]{CheckLocalDeadlock: true})
	t.Logf("%s; %d reduced lean states, %d states of the flit model unreduced", res.Violation, res.States, full.States)
	if full.Verdict != checker.Violated || full.States <= res.States {
		t.Fatalf("unreduced: %v with %d states", full.Verdict, full.States)
	}
}
