package unicast

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestSwarmMinimisesTheSquare: on mesh:8x8 under minimal adaptive routing, the four
// worms that turn round one square deadlock among three free worms; the swarm finds it,
// minimises it to the four, and the shortest trace of their instance (4 steps) replays
// on the full instance and ends in a local deadlock of exactly those four.
func TestSwarmMinimisesTheSquare(t *testing.T) {
	g, sp, m := routedInstance(t, "mesh:8x8", "adaptive", "(0,0)->(7,7),(3,3)->(4,4),(7,0)->(0,7),(4,3)->(3,4),(4,4)->(3,3),(0,7)->(7,0),(3,4)->(4,3)")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := Swarm(ctx, g, sp, m, checker.SwarmOptions[flit.State]{Walkers: 2, Seed: 3, CheckLocalDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.Violated || !res.Minimised || res.Involved != 4 || res.Of != 7 {
		t.Fatalf("verdict %v minimised %v involved %d of %d: %s", res.Verdict, res.Minimised, res.Involved, res.Of, res.Violation)
	}
	if len(res.Actions()) != 4 || !slices.Equal(res.Stuck, []int{1, 3, 4, 6}) {
		t.Errorf("trace of %d steps, stuck %v; want the square's 4 steps and worms 1, 3, 4, 6", len(res.Actions()), res.Stuck)
	}
	s, err := Replay(m, res.Actions())
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Stuck(s); !slices.Equal(got, res.Stuck) {
		t.Errorf("the lifted trace ends with stuck %v, the result says %v", got, res.Stuck)
	}
}

// TestSwarmFindsTheNonminimalLivelock: one worm under nonminimal routing on mesh:3x2
// can circle for ever (RT6); the swarm reports the livelock as a lasso that
// checker.ReplayLasso confirms on the instance.
func TestSwarmFindsTheNonminimalLivelock(t *testing.T) {
	g, sp, m := routedInstance(t, "mesh:3x2", "nonminimal", "0->2")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := Swarm(ctx, g, sp, m, checker.SwarmOptions[flit.State]{Walkers: 2, Seed: 1, MaxDepth: 200, CheckLocalDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.Violated || res.Kind != checker.KindLivelock {
		t.Fatalf("verdict %v kind %v: %s", res.Verdict, res.Kind, res.Violation)
	}
	if _, f, err := checker.ReplayLasso[flit.State](m, 0, res.Actions(), res.CycleStart); err != nil || f.Kind != checker.KindLivelock {
		t.Fatalf("the lasso does not replay: %v %+v", err, f)
	}
}

// routedInstance builds worms msgs of L=2, B=1, all-port, under the built-in relation
// name on topology topo: the swarm tests' and benchmark's instances.
func routedInstance(tb testing.TB, topo, name, msgs string) (*topology.Network, Spec, *flit.Model) {
	tb.Helper()
	g, err := topology.Parse(topo)
	if err != nil {
		tb.Fatal(err)
	}
	rel, err := routing.ByName(g, name)
	if err != nil {
		tb.Fatal(err)
	}
	pairs, err := ParsePairs(g, msgs)
	if err != nil {
		tb.Fatal(err)
	}
	sp := Spec{Topology: g.Spec(), Pairs: pairs, Length: 2, Buffer: 1, Routing: rel, Ports: model.AllPort}
	m, err := BuildOn(g, sp)
	if err != nil {
		tb.Fatal(err)
	}
	return g, sp, m
}

// TestSwarmFindsTheMisroutedSquare: on mesh:4x4 under nonminimal:1 with one injection
// port, four worms (6->11, 7->10, 10->7, 11->6; L=1, B=2) deadlock only after each has
// spent its misroute going out and turning back, so that its header is offered nothing
// but the held channel ahead (exhaustive search: depth 12). The swarm's varied walks
// (restarts at random depths of the previous walk, bounded depths, novel and uniform
// walks beside the greedy ones) find it; with one walker and a walk bound the run is
// reproducible, walk for walk, and the witness (every worm is involved, so it is the
// walk's own trace with its loops cut) is as short as the exhaustive search's, 12 steps.
func TestSwarmFindsTheMisroutedSquare(t *testing.T) {
	g, sp, _ := routedInstance(t, "mesh:4x4", "nonminimal:1", "6->11,7->10,10->7,11->6")
	sp.Length, sp.Buffer, sp.Ports = 1, 2, model.OnePort
	m, err := BuildOn(g, sp)
	if err != nil {
		t.Fatal(err)
	}
	run := func() *SwarmResult {
		res, err := Swarm(t.Context(), g, sp, m, checker.SwarmOptions[flit.State]{Walkers: 1, Seed: 1, MaxWalks: 50_000, CheckLocalDeadlock: true})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != checker.Violated || !res.Kind.IsDeadlock() {
			t.Fatalf("verdict %v kind %v after %d walks: %s", res.Verdict, res.Kind, res.Swarm.Walks, res.Violation)
		}
		return res
	}
	a, b := run(), run()
	if a.Swarm.Walk != b.Swarm.Walk || a.Swarm.FoundBy != b.Swarm.FoundBy || a.WalkSteps != b.WalkSteps {
		t.Errorf("not reproducible: walk %d (%s, %d steps) then walk %d (%s, %d steps)", a.Swarm.Walk, a.Swarm.FoundBy, a.WalkSteps, b.Swarm.Walk, b.Swarm.FoundBy, b.WalkSteps)
	}
	if a.Involved != 4 || len(a.Actions()) != 12 {
		t.Errorf("%d worms involved, a trace of %d steps; want the four worms' shortest trace of 12", a.Involved, len(a.Actions()))
	}
	t.Logf("found in walk %d by a %s, %d steps before minimisation", a.Swarm.Walk, a.Swarm.FoundBy, a.WalkSteps)
}

// TestSwarmMinimisationIsBounded: sixteen worms chasing each other round torus:16 under
// dor-1vc, each five hops, beside one worm the other way: their deadlock involves the
// sixteen, and the exhaustive search
// of the involved worms has far more than MinimiseStates states before it (even on the
// lean model, whose states do not grow with packet length), so the swarm answers with
// the walk's own trace (loops cut) as soon as that search reaches the bound, instead of
// spending the check's time on a shortest trace; the trace replays on the instance and
// ends in a deadlock of the sixteen.
func TestSwarmMinimisationIsBounded(t *testing.T) {
	var pairs []string
	for i := range 16 {
		pairs = append(pairs, fmt.Sprintf("%d->%d", i, (i+5)%16))
	}
	g, sp, m := routedInstance(t, "torus:16", "dor-1vc", strings.Join(append(pairs, "3->2"), ","))
	res, err := Swarm(t.Context(), g, sp, m, checker.SwarmOptions[flit.State]{Walkers: 1, Seed: 1, MaxWalks: 10_000, CheckLocalDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.Violated || res.Minimised || res.SubStates < MinimiseStates || res.Involved != 16 {
		t.Fatalf("verdict %v, minimised %v after %d states, %d involved: %s", res.Verdict, res.Minimised, res.SubStates, res.Involved, res.Violation)
	}
	s, err := Replay(m, res.Actions())
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Stuck(s); len(got) != 16 || slices.Contains(got, 16) {
		t.Errorf("the walk's trace ends with stuck %v; want the sixteen round the ring", got)
	}
	t.Logf("found in walk %d, %d steps; the involved worms' search stopped at %d states", res.Swarm.Walk, len(res.Actions()), res.SubStates)
}
