package flit

import (
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// minimalAdaptive is the test relations' minimal fully adaptive routing: every
// direction that brings the header closer to its destination (on a torus the shortest
// way round, a tie going Plus as topology.Network.Offset says), on every one of its vcs
// virtual channels, lowest dimension first. With one virtual channel it deadlocks on a
// 2-D mesh (Dally & Seitz; claim RT2).
type minimalAdaptive struct {
	g   *topology.Network
	vcs int
}

func (r minimalAdaptive) Name() string            { return "test-minimal-adaptive" }
func (r minimalAdaptive) Grid() *topology.Network { return r.g }
func (r minimalAdaptive) VCs() int                { return r.vcs }

func (r minimalAdaptive) Route(h routing.Header, out []routing.Output) []routing.Output {
	for d := 0; d < r.g.Dims(); d++ {
		if n, dir := r.g.Offset(h.At, h.Dst, d); n != 0 {
			c, _ := r.g.Neighbor(h.At, d, dir)
			for v := 0; v < r.vcs; v++ {
				out = append(out, routing.Output{Channel: c, VC: v})
			}
		}
	}
	return out
}

// misrouting permits the minimal outputs first and then, while the header has misrouted
// fewer than limit times (always, when limit < 0), every other channel leaving the
// router but the U-turn as a misroute. It is the test relations' non-minimal routing; budgeted wraps it
// as a routing.Budgeted relation.
type misrouting struct {
	g     *topology.Network
	limit int
}

func (r misrouting) Name() string            { return "test-misrouting" }
func (r misrouting) Grid() *topology.Network { return r.g }
func (r misrouting) VCs() int                { return 1 }

func (r misrouting) Route(h routing.Header, out []routing.Output) []routing.Output {
	n0 := len(out)
	out = minimalAdaptive{r.g, 1}.Route(h, out)
	if r.limit >= 0 && h.Misroutes >= r.limit {
		return out
	}
	min := out[n0:]
	for d := 0; d < r.g.Dims(); d++ {
		for _, dir := range []topology.Direction{topology.Plus, topology.Minus} {
			c, to := r.g.Neighbor(h.At, d, dir)
			if c == topology.None || h.In.Channel != routing.Injection && r.g.Channel(h.In.Channel).From == to {
				continue
			}
			dup := false
			for _, o := range min {
				dup = dup || o.Channel == c
			}
			if !dup {
				out = append(out, routing.Output{Channel: c, Misroute: true})
			}
		}
	}
	return out
}

type budgeted struct{ misrouting }

func (b budgeted) MisrouteBudget() int { return b.limit }

// explore runs the explorer with the deadlock check and every invariant.
func explore(t *testing.T, m *Model) *checker.Result[State] {
	t.Helper()
	res, err := checker.Explore[State](m, checker.Options[State]{CheckDeadlock: true, Invariants: m.Invariants()})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Err(); err != nil {
		t.Fatal(err)
	}
	return res
}

// square is four one-flit worms on mesh:2x2, each two hops diagonally: under minimal
// adaptive routing they can each take the channel clockwise ahead of them and wait for
// the next one, which the next worm holds.
func square(t *testing.T) (*topology.Network, []Message) {
	g := grid(t, "mesh:2x2")
	return g, unicasts(1, 0, 3, 1, 2, 3, 0, 2, 1)
}

// TestAdaptiveRelationDeadlocks: minimal fully adaptive routing with one virtual channel
// deadlocks on mesh:2x2 (the explorer finds the clockwise cycle and Waits names it),
// where dimension-order routing on the same worms is deadlock-free; branching on every
// permitted output explores more states than DOR's single output.
func TestAdaptiveRelationDeadlocks(t *testing.T) {
	g, msgs := square(t)
	dor := explore(t, mustNew(t, NewGridConfig(g, false, 1, 1, AllPort, msgs)))
	if dor.Verdict != checker.Holds {
		t.Fatalf("DOR: %v %s", dor.Verdict, dor.Reason)
	}
	m := mustNew(t, NewRelationConfig(minimalAdaptive{g, 1}, 0, 1, AllPort, msgs))
	ad := explore(t, m)
	if ad.Verdict != checker.Violated || ad.Violation.Kind != checker.KindDeadlock {
		t.Fatalf("adaptive: %v, want a deadlock", ad.Verdict)
	}
	last := ad.Violation.Trace.Steps[len(ad.Violation.Trace.Steps)-1].State
	if w := m.Waits(last); !strings.HasPrefix(w, "wait-for cycle m0 -> ") {
		t.Fatalf("Waits = %q\n%s", w, m.Format(last))
	}
	if ad.Stats.States <= dor.Stats.States {
		t.Fatalf("adaptive explored %d states, DOR %d; branching should add states", ad.Stats.States, dor.Stats.States)
	}
	t.Logf("DOR %d states holds; adaptive %d states, deadlock after %d steps", dor.Stats.States, ad.Stats.States, len(ad.Violation.Trace.Steps)-1)
}

// TestEveryFreePermittedOutputIsASuccessor: a header at (0,0) bound for (1,1) with two
// virtual channels per class has four allocations under minimal adaptive routing (two
// channels x two VCs) and two under DOR; once one VC of the x channel is taken, three.
func TestEveryFreePermittedOutputIsASuccessor(t *testing.T) {
	g := grid(t, "mesh:2x2")
	msgs := unicasts(1, 0, 3)
	count := func(m *Model, s State) int { return len(m.Successors(s, nil)) }
	dorM := mustNew(t, NewGridConfig(g, false, 2, 1, AllPort, msgs))
	adM := mustNew(t, NewRelationConfig(minimalAdaptive{g, 1}, 2, 1, AllPort, msgs))
	if n := count(dorM, dorM.Init()[0]); n != 2 {
		t.Fatalf("DOR: %d successors, want 2", n)
	}
	s := adM.Init()[0]
	if n := count(adM, s); n != 4 {
		t.Fatalf("adaptive: %d successors, want 4", n)
	}
	s = s.shallow()
	s.VCs[adM.vcIndex(t, g, 0, 1, 0)] = VC{Owner: 0, Closed: true, In: Input{Cur: -1}} // held, as if by another worm
	if n := count(adM, s); n != 3 {
		t.Fatalf("adaptive with one VC taken: %d successors, want 3", n)
	}
}

// TestMisrouteBudget: under a Budgeted non-minimal relation the misroute counter is in
// the state, never exceeds the budget, is reached, and every run delivers; without a
// budget the same relation's state graph is finite (Misroutes is always 0) and has a
// cycle (a livelock the liveness check must judge).
func TestMisrouteBudget(t *testing.T) {
	g := grid(t, "mesh:2x3")
	msgs := unicasts(2, 0, 5)
	m := mustNew(t, NewRelationConfig(budgeted{misrouting{g, 1}}, 0, 1, AllPort, msgs))
	res := explore(t, m)
	if res.Verdict != checker.Holds {
		t.Fatalf("budget 1: %v", res.Verdict)
	}
	maxMis := 0
	walkAll(m, func(s State) {
		maxMis = max(maxMis, int(s.Msgs[0].Mis))
	})
	if maxMis != 1 {
		t.Fatalf("largest misroute count %d; want the budget, 1", maxMis)
	}
	free := mustNew(t, NewRelationConfig(misrouting{g, -1}, 0, 1, AllPort, msgs))
	if r := explore(t, free); r.Verdict != checker.Holds {
		t.Fatalf("no budget: %v", r.Verdict)
	}
	if !hasCycle(free) {
		t.Fatal("no budget: the state graph has no cycle")
	}
	if hasCycle(m) {
		t.Fatal("budget 1: the state graph has a cycle")
	}
}

// walkAll calls f on every reachable state of m.
func walkAll(m *Model, f func(State)) {
	seen := map[string]bool{}
	queue := m.Init()
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		f(s)
		for _, tr := range m.Successors(s, nil) {
			if k := string(m.Encode(tr.Next, nil)); !seen[k] {
				seen[k] = true
				queue = append(queue, tr.Next)
			}
		}
	}
}

// hasCycle reports whether m's reachable state graph has a cycle (depth-first search).
func hasCycle(m *Model) bool {
	color := map[string]uint8{} // 1 on the stack, 2 done
	var dfs func(s State) bool
	dfs = func(s State) bool {
		k := string(m.Encode(s, nil))
		color[k] = 1
		for _, tr := range m.Successors(s, nil) {
			switch color[string(m.Encode(tr.Next, nil))] {
			case 1:
				return true
			case 0:
				if dfs(tr.Next) {
					return true
				}
			}
		}
		color[k] = 2
		return false
	}
	return dfs(m.Init()[0])
}

// badRelation offers channel 0 on VC 5 to every header: a channel that leaves only one
// router, on a virtual channel the relation does not have.
type badRelation struct{ g *topology.Network }

func (r badRelation) Name() string            { return "test-bad" }
func (r badRelation) Grid() *topology.Network { return r.g }
func (r badRelation) VCs() int                { return 1 }
func (r badRelation) Route(h routing.Header, out []routing.Output) []routing.Output {
	return append(out, routing.Output{Channel: 0, VC: 5})
}

// TestRelationBreachIsAnError: outputs that break the relation's contract are dropped,
// never indexed, and Err names the relation and the header, so a runner reports an
// error instead of a verdict.
func TestRelationBreachIsAnError(t *testing.T) {
	m := mustNew(t, NewRelationConfig(badRelation{grid(t, "mesh:3x3")}, 0, 1, AllPort, unicasts(1, 4, 8)))
	res, err := checker.Explore[State](m, checker.Options[State]{CheckDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.Violated || m.Err() == nil || !strings.Contains(m.Err().Error(), `routing "test-bad"`) {
		t.Fatalf("verdict %v, Err %v", res.Verdict, m.Err())
	}
}
