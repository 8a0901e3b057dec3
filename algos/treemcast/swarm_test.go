package treemcast

import (
	"context"
	"slices"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

// swarmInstance is TM1's deadlock (000 Fig. 3, reconstructed: two multicasts without
// pruning whose address flits each wait for a channel the other's first branch holds)
// in one corner of mesh:4x4, among two multicasts far from it.
func swarmInstance(t testing.TB, prune flit.Prune) (Instance, *flit.Model) {
	g, err := topology.Parse("mesh:4x4")
	if err != nil {
		t.Fatal(err)
	}
	msgs, err := ParseMsgs(g, "(3,3)->(2,3),(3,2);(0,0)->(1,0),(0,1);(2,2)->(1,2),(2,1);(1,1)->(0,1),(1,0)")
	if err != nil {
		t.Fatal(err)
	}
	p := DefaultParams()
	p.Prune, p.Buffer = prune, 1
	in := Instance{Grid: g, Msgs: msgs, Params: p}
	m, err := in.Model()
	if err != nil {
		t.Fatal(err)
	}
	return in, m
}

// TestSwarmFindsTreeDeadlock: a swarm of one seeded walker (reproducible: its walks
// depend on the seed only) finds the deadlock without pruning, reports the local
// deadlock of the two corner multicasts, and the minimised witness (their instance
// searched exhaustively, lifted back) is a shortest trace of the full instance that
// replays to a local deadlock of exactly those two; under on-stop pruning (000 Lemma 1)
// the same walks find nothing, and the result says so without claiming it holds.
func TestSwarmFindsTreeDeadlock(t *testing.T) {
	in, m := swarmInstance(t, flit.PruneNone)
	opt := checker.SwarmOptions[flit.State]{Walkers: 1, Seed: 7, MaxWalks: 2000, CheckLocalDeadlock: true}
	res, err := Swarm(context.Background(), in, m, opt)
	if err != nil {
		t.Fatal(err)
	}
	v := res.Violation
	if v == nil || !v.Kind.IsDeadlock() {
		t.Fatalf("swarm found %+v after %d walks; want the corner deadlock", v, res.Swarm.Walks)
	}
	if !res.Minimised || res.Involved != 2 || res.Of != 4 || !slices.Equal(v.Stuck, []int{1, 3}) {
		t.Fatalf("minimised %v, %d of %d involved, stuck %v; want multicasts 1 and 3 of 4", res.Minimised, res.Involved, res.Of, v.Stuck)
	}
	// The shortest local deadlock of the full instance, by exhaustive search, is as long
	// as the minimised witness: the free multicasts never have to move.
	full, err := checker.Explore[flit.State](m, checker.Options[flit.State]{CheckDeadlock: true, CheckLocalDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	if full.Verdict != checker.Violated || full.Violation.Trace.Len() != v.Trace.Len() || v.Trace.Len() > res.WalkSteps {
		t.Fatalf("exhaustive: %v in %d steps; minimised witness %d steps, the walk's %d", full.Verdict, full.Violation.Trace.Len(), v.Trace.Len(), res.WalkSteps)
	}
	tr, err := checker.Replay[flit.State](m, 0, v.Trace.Actions())
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Stuck(tr.Steps[len(tr.Steps)-1].State); !slices.Equal(got, []int{1, 3}) {
		t.Fatalf("the witness replays to a local deadlock of %v", got)
	}
	t.Logf("%s", res.SwarmNote())

	in, m = swarmInstance(t, flit.PruneOnStop)
	res, err = Swarm(context.Background(), in, m, opt)
	if err != nil {
		t.Fatal(err)
	}
	if res.Violation != nil || res.Swarm.Verdict != checker.Inconclusive || res.Swarm.Walks != 2000 {
		t.Fatalf("on-stop: %+v after %d walks; want nothing found in every walk, inconclusive", res.Violation, res.Swarm.Walks)
	}
}
