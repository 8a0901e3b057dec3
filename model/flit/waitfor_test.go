package flit

import (
	"slices"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// reachableFrom returns every state reachable from the states from, each once, by a naive BFS over
// Successors and Encode (the twin of the explorer).
func reachableFrom(m *Model, from []State) []State {
	seen := map[string]bool{}
	var out []State
	queue := append([]State(nil), from...)
	for _, s := range queue {
		seen[string(m.Encode(s, nil))] = true
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		out = append(out, s)
		for _, tr := range m.Successors(s, nil) {
			k := string(m.Encode(tr.Next, nil))
			if !seen[k] {
				seen[k] = true
				queue = append(queue, tr.Next)
			}
		}
	}
	return out
}

// movers returns the messages with an enabled transition in s, from the actions'
// inputs: a source input is its message, a virtual channel input its owner.
func movers(m *Model, s State) map[int]bool {
	out := map[int]bool{}
	for _, tr := range m.Successors(s, nil) {
		_, input, _ := SplitAction(tr.Action)
		if input < len(s.Msgs) {
			out[input] = true
		} else {
			out[int(s.VCs[input-len(s.Msgs)].Owner)] = true
		}
	}
	return out
}

// localDeadlockModels are small instances with local deadlocks beside messages that
// can still move (and some without any): RT2's adaptive square with a fifth worm, a
// torus ring without dateline classes with a worm outside the ring, tree multicasts
// under every pruning policy, and worms under a budgeted misrouting relation.
func localDeadlockModels(t testing.TB) map[string]*Model {
	g22 := grid(t, "mesh:2x2")
	g32 := grid(t, "mesh:3x2")
	tor := grid(t, "torus:4x2")
	out := map[string]*Model{
		"adaptive-square+1": mustNew(t, NewRelationConfig(minimalAdaptive{g32, 1}, 0, 1, AllPort, unicasts(2, 0, 4, 1, 3, 4, 0, 3, 1, 2, 5))),
		"adaptive-2x2":      mustNew(t, NewRelationConfig(minimalAdaptive{g22, 1}, 0, 1, AllPort, unicasts(2, 0, 3, 1, 2, 3, 0, 2, 1))),
		"ring+free":         mustNew(t, NewGridConfig(tor, false, 1, 1, AllPort, unicasts(2, 0, 2, 1, 3, 2, 0, 3, 1, 4, 5))),
		"ring-oneport":      mustNew(t, NewGridConfig(tor, false, 1, 1, OnePort, unicasts(2, 0, 2, 1, 3, 2, 0, 3, 1, 0, 3))),
		"budgeted":          mustNew(t, NewRelationConfig(budgeted{misrouting{g22, 1}}, 0, 1, AllPort, unicasts(2, 0, 1, 3, 2))),
	}
	for _, p := range []Prune{PruneNone, PruneOnNoFree, PruneOnStop, PrunePartial} {
		cfg := upstreamStop(p, OnePort)
		out["upstream-stop/"+p.String()] = mustNew(t, cfg)
		out["line/"+p.String()] = mustNew(t, lineDeadlock(p, AllPort))
	}
	return out
}

// TestLocalDeadlockIsPermanent is the brute-force twin of Stuck: on every reachable
// state of the small instances it explores everything reachable from each state where
// Stuck reports a set S and checks that no member of S ever has an enabled transition
// again; it checks that every global deadlock has a non-empty S (every undelivered
// message), and that on these acyclic instances a local deadlock is reachable exactly
// when a global one is.
func TestLocalDeadlockIsPermanent(t *testing.T) {
	found := 0
	for name, m := range localDeadlockModels(t) {
		all := reachableFrom(m, m.Init())
		local, global := false, false
		for _, s := range all {
			stuck := m.Stuck(s)
			if len(m.Successors(s, nil)) == 0 && !m.Terminal(s) {
				global = true
				und := m.undelivered(&s)
				var want []int
				for i, u := range und {
					if u {
						want = append(want, i)
					}
				}
				if !slices.Equal(stuck, want) {
					t.Fatalf("%s: global deadlock with Stuck %v; want every undelivered message %v\n%s", name, stuck, want, m.Format(s))
				}
			}
			if len(stuck) == 0 {
				continue
			}
			local = true
			found++
			for _, r := range reachableFrom(m, []State{s}) {
				mv := movers(m, r)
				for _, i := range stuck {
					if mv[i] {
						t.Fatalf("%s: Stuck %v, but m%d moves again in\n%s\nfrom\n%s", name, stuck, i, m.Format(r), m.Format(s))
					}
				}
			}
		}
		if local != global {
			t.Errorf("%s: local deadlock reachable %v, global %v; on an acyclic graph they agree", name, local, global)
		}
	}
	if found == 0 {
		t.Fatal("no local deadlock in any instance: the twin checked nothing")
	}
}

// TestLocalDeadlockFoundEarly: on RT2's adaptive square plus a fifth worm that can
// always move, the explorer with CheckLocalDeadlock reports the four worms at depth 4
// (where the square closes), while the global check must first run the free worm out;
// the local witness is never longer, and it names exactly the square.
func TestLocalDeadlockFoundEarly(t *testing.T) {
	g := grid(t, "mesh:3x3")
	// The square (0,0),(1,0),(1,1),(0,1) = nodes 0,1,4,3 with each worm turning, and
	// a free worm 2->8 far from it.
	m := mustNew(t, NewRelationConfig(minimalAdaptive{g, 1}, 0, 1, AllPort, unicasts(2, 0, 4, 1, 3, 4, 0, 3, 1, 2, 8)))
	loc, err := checker.Explore[State](m, checker.Options[State]{CheckDeadlock: true, CheckLocalDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	glob, err := checker.Explore[State](m, checker.Options[State]{CheckDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	if loc.Verdict != checker.Violated || loc.Violation.Kind != checker.KindLocalDeadlock || !slices.Equal(loc.Violation.Stuck, []int{0, 1, 2, 3}) {
		t.Fatalf("local: %v %+v", loc.Verdict, loc.Violation)
	}
	if loc.Violation.Trace.Len() != 4 {
		t.Errorf("local witness has %d steps; the square closes in 4", loc.Violation.Trace.Len())
	}
	if glob.Verdict != checker.Violated || glob.Violation.Kind != checker.KindDeadlock {
		t.Fatalf("global: %v %+v", glob.Verdict, glob.Violation)
	}
	if glob.Violation.Trace.Len() <= loc.Violation.Trace.Len() {
		t.Errorf("global witness %d steps, local %d: the free worm must delay the global one", glob.Violation.Trace.Len(), loc.Violation.Trace.Len())
	}
	g2 := m.WaitFor(loc.Violation.Trace.Steps[loc.Violation.Trace.Len()].State)
	cyc := g2.Cycle(loc.Violation.Stuck)
	if len(cyc) != 4 {
		t.Fatalf("wait-for cycle %+v; want the four worms", cyc)
	}
	for k, e := range cyc {
		if next := cyc[(k+1)%len(cyc)]; e.Holder != next.Waiter {
			t.Errorf("cycle edge %d %+v does not lead to edge %d %+v", k, e, k+1, next)
		}
		w := g2.Waits[e.Wait]
		if w.Kind != WaitOutput || w.Needs[e.Need].Holder != e.Holder {
			t.Errorf("cycle edge %+v: wait %+v", e, w)
		}
	}
	_ = topology.None
}

// TestRelationSymmetries: the automorphisms GridSymmetries keeps for relations other
// than DOR are exactly those the relation is invariant under — the four reflections of
// the square for minimal adaptive routing (not the transpositions: its outputs come
// dimension 0 first, and that preference order decides which reserved branch a
// multicast's address follows), the north-south reflection alone for west-first, the
// identity for a relation that reads the header's source — and a search reduced by them
// gives the unreduced verdict with fewer states.
func TestRelationSymmetries(t *testing.T) {
	g := grid(t, "mesh:4x4")
	names := func(ss []Symmetry) []string {
		var out []string
		for _, s := range ss {
			out = append(out, s.Name)
		}
		return out
	}
	ad := GridSymmetries(g, minimalAdaptive{g, 1})
	if got := names(ad); !slices.Equal(got, []string{"identity", "reflect 0", "reflect 1", "reflect 0 reflect 1"}) {
		t.Errorf("minimal adaptive on mesh:4x4 keeps %v; want the four reflections", got)
	}
	wf, err := routing.ByName(g, "west-first")
	if err != nil {
		t.Fatal(err)
	}
	if got := names(GridSymmetries(g, wf)); !slices.Equal(got, []string{"identity", "reflect 1"}) {
		t.Errorf("west-first keeps %v; want identity and the north-south reflection", got)
	}
	if got := names(GridSymmetries(g, srcSkewed{minimalAdaptive{g, 1}})); !slices.Equal(got, []string{"identity"}) {
		t.Errorf("a relation that reads the source keeps %v; want the identity alone", got)
	}
	g3 := grid(t, "mesh:3x3")
	m := mustNew(t, NewRelationConfig(minimalAdaptive{g3, 1}, 0, 1, AllPort, unicasts(2, 0, 8, 8, 0)))
	plain, err := checker.Explore[State](m, checker.Options[State]{CheckDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	sm := NewSymmetric(m, GridSymmetries(g3, minimalAdaptive{g3, 1}))
	if sm.Group() != 2 {
		t.Errorf("worms 0->8 and 8->0 on mesh:3x3 are kept by %v; want the identity and the half turn", sm.SymmetryNames())
	}
	sym, err := checker.Explore[State](sm, checker.Options[State]{CheckDeadlock: true, Symmetry: true})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Verdict != sym.Verdict || sym.Stats.States >= plain.Stats.States {
		t.Errorf("plain %v %d states, symmetric %v %d states", plain.Verdict, plain.Stats.States, sym.Verdict, sym.Stats.States)
	}
}

// srcSkewed is minimal adaptive routing that offers only its first output to headers
// from node 0: not invariant under any non-trivial automorphism that moves node 0.
type srcSkewed struct{ minimalAdaptive }

func (r srcSkewed) Name() string { return "test-src-skewed" }

func (r srcSkewed) Route(h routing.Header, out []routing.Output) []routing.Output {
	n0 := len(out)
	out = r.minimalAdaptive.Route(h, out)
	if h.Src == 0 && len(out) > n0+1 {
		out = out[:n0+1]
	}
	return out
}

// TestDeliveredWormForgetsMisroutes: under a budgeted misrouting relation a worm can be
// delivered after different numbers of misroutes; once delivered its count is
// forgotten, so the network has one end state, not one per count.
func TestDeliveredWormForgetsMisroutes(t *testing.T) {
	g := grid(t, "mesh:3x2")
	m := mustNew(t, NewRelationConfig(budgeted{misrouting{g, 2}}, 0, 1, AllPort, unicasts(2, 0, 2)))
	terminal := 0
	misrouted := false
	for _, s := range reachableFrom(m, m.Init()) {
		if m.Terminal(s) {
			terminal++
			if s.Msgs[0].Mis != 0 {
				t.Errorf("delivered worm keeps %d misroutes", s.Msgs[0].Mis)
			}
		}
		misrouted = misrouted || s.Msgs[0].Mis > 0
	}
	if terminal != 1 || !misrouted {
		t.Fatalf("%d terminal states (want 1), some worm misrouted: %v", terminal, misrouted)
	}
}
