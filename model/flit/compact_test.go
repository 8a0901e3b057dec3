package flit

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
)

// stateKey is a model-independent key of s (its handles resolved by m's table), so that
// states of a compacted and an uncompacted model of one configuration compare.
func stateKey(m *Model, s State) string { return string(m.orderKey(s, nil)) }

// compactAll is the naive compaction of a state of the uncompacted model m: every
// worm's local moves until none is enabled.
func compactAll(m *Model, s State) State {
	t := State{Msgs: slices.Clone(s.Msgs), VCs: slices.Clone(s.VCs)}
	var rb []routing.Output
	for w := range t.Msgs {
		m.compactWorm(&t, w, nil, nil, nil, &rb)
	}
	return t
}

// twinStats are the figures of one twin comparison.
type twinStats struct {
	full, compact int  // reachable states
	global, local bool // a global / local deadlock is reachable (both models agree)
	witness       int  // length of the compacted model's shortest witness, unfolded
}

// naiveGraph is the reachable graph of m by a naive breadth-first search over
// Successors: the states by key, and per key whether it is a global deadlock and the
// messages of its local deadlock.
type naiveGraph struct {
	states map[string]State
	order  []string
	global map[string]bool
	stuck  map[string][]int
}

func naiveExplore(m *Model, limit int) (*naiveGraph, error) {
	g := &naiveGraph{states: map[string]State{}, global: map[string]bool{}, stuck: map[string][]int{}}
	queue := m.Init()
	for _, s := range queue {
		k := stateKey(m, s)
		g.states[k] = s
		g.order = append(g.order, k)
	}
	var succ []checker.Transition[State]
	for len(queue) > 0 {
		if len(g.states) > limit {
			return nil, fmt.Errorf("more than %d states", limit)
		}
		s := queue[0]
		queue = queue[1:]
		k := stateKey(m, s)
		succ = m.Successors(s, succ[:0])
		if len(succ) == 0 && !m.Terminal(s) {
			g.global[k] = true
		}
		if st := m.Stuck(s); len(st) > 0 {
			g.stuck[k] = st
		}
		for _, tr := range succ {
			n := stateKey(m, tr.Next)
			if _, ok := g.states[n]; !ok {
				g.states[n] = tr.Next
				g.order = append(g.order, n)
				queue = append(queue, tr.Next)
			}
		}
	}
	return g, nil
}

// compactTwin compares the compacted model of cfg with the uncompacted one (its naive
// twin): every compacted state is reachable in the full model and has no local move;
// the compaction of every full state is reachable in the compacted model; both have the
// same global deadlock states, and a local deadlock of a full state is one of its
// compaction; the encoded search (checker.Explore) counts the naive search's states; and
// the compacted model's shortest witness of a deadlock, unfolded, replays on the full
// model into a deadlocked state.
func compactTwin(cfg Config, limit int) (twinStats, error) {
	var st twinStats
	cfg.Compact = false
	full, err := New(cfg)
	if err != nil {
		return st, err
	}
	cfg.Compact = true
	cm, err := New(cfg)
	if err != nil {
		return st, err
	}
	fg, err := naiveExplore(full, limit)
	if err != nil {
		return st, err
	}
	cg, err := naiveExplore(cm, limit)
	if err != nil {
		return st, err
	}
	st.full, st.compact = len(fg.states), len(cg.states)
	var rb []routing.Output
	for _, k := range cg.order {
		s := cg.states[k]
		if _, ok := fg.states[k]; !ok {
			return st, fmt.Errorf("compacted state not reachable in the full model:\n%s", cm.Format(s))
		}
		for w := range s.Msgs {
			if _, ok := cm.firstLocal(&s, w, heldBy(&s, w), nil, &rb); ok {
				return st, fmt.Errorf("compacted state has a local move of m%d:\n%s", w, cm.Format(s))
			}
		}
	}
	for _, k := range fg.order {
		s := fg.states[k]
		ck := stateKey(full, compactAll(full, s))
		if _, ok := cg.states[ck]; !ok {
			return st, fmt.Errorf("the compaction of a full state is not reachable compacted:\n%s", full.Format(s))
		}
		if fg.global[k] && ck != k {
			return st, fmt.Errorf("a global deadlock is not compact:\n%s", full.Format(s))
		}
		if fg.global[k] && !cg.global[ck] {
			return st, fmt.Errorf("global deadlock missing from the compacted model:\n%s", full.Format(s))
		}
		if stuck := fg.stuck[k]; len(stuck) > 0 {
			if cs := cg.stuck[ck]; !isSubset(stuck, cs) {
				return st, fmt.Errorf("local deadlock %v of a full state is %v in its compaction:\n%s", stuck, cs, full.Format(s))
			}
		}
		st.global = st.global || fg.global[k]
		st.local = st.local || len(fg.stuck[k]) > 0
	}
	for k := range cg.global {
		if !fg.global[k] {
			return st, fmt.Errorf("compacted global deadlock is not one of the full model:\n%s", cm.Format(cg.states[k]))
		}
	}
	cl := len(cg.stuck) > 0
	if cl != st.local {
		return st, fmt.Errorf("local deadlock reachable: full %v, compacted %v", st.local, cl)
	}
	res, err := checker.Explore[State](cm, checker.Options[State]{CheckDeadlock: true, CheckLocalDeadlock: true})
	if err != nil {
		return st, err
	}
	if st.local {
		if res.Verdict != checker.Violated {
			return st, fmt.Errorf("explorer on the compacted model: %v, want violated", res.Verdict)
		}
		acts, _, err := cm.Unfold(res.Violation.Trace.Actions())
		if err != nil {
			return st, err
		}
		cfg.Compact = false
		rm, err := New(cfg) // a fresh uncompacted model, as replay builds one
		if err != nil {
			return st, err
		}
		tr, err := checker.Replay[State](rm, 0, acts)
		if err != nil {
			return st, fmt.Errorf("unfolded witness does not replay: %v", err)
		}
		st.witness = tr.Len()
		if len(rm.Stuck(tr.Steps[len(tr.Steps)-1].State)) == 0 {
			return st, fmt.Errorf("unfolded witness ends without a local deadlock")
		}
	} else {
		if res.Verdict != checker.Holds || res.Stats.States != int64(st.compact) {
			return st, fmt.Errorf("explorer on the compacted model: %v %d states, want holds %d", res.Verdict, res.Stats.States, st.compact)
		}
	}
	return st, nil
}

func isSubset(a, b []int) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// heldBy lists the channels worm w holds in s, ascending.
func heldBy(s *State, w int) []int32 {
	var out []int32
	for o := range s.VCs {
		if int(s.VCs[o].Owner) == w {
			out = append(out, int32(o))
		}
	}
	return out
}

func TestCompactSanity(t *testing.T) {
	g := grid(t, "mesh:3x3")
	for _, name := range []string{"dor", "adaptive"} {
		rel, err := routing.ByName(g, name)
		if err != nil {
			t.Fatal(err)
		}
		for l := 1; l <= 4; l++ {
			for b := 1; b <= 3; b++ {
				cfg := NewRelationConfig(rel, 0, b, AllPort, unicasts(l, 0, 4, 4, 8, 8, 0))
				st, err := compactTwin(cfg, 2_000_000)
				if err != nil {
					t.Fatalf("%s L%d B%d: %v", name, l, b, err)
				}
				t.Logf("%s L%d B%d: %d -> %d states, global %v local %v witness %d", name, l, b, st.full, st.compact, st.global, st.local, st.witness)
			}
		}
	}
}
