package unicast

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/props"
)

// Result is the outcome of searching one flit model: the verdict, the figures, and for a
// violation the shortest trace (actions from the initial state, with labels) and what
// its last state shows.
type Result struct {
	Verdict     props.Verdict
	States      int64
	Transitions int64
	Depth       int
	Actions     []checker.Action
	Labels      []string
	Violation   string
	Final       flit.State
}

// Search explores every reachable state of m breadth-first, up to maxStates distinct
// states (0 = no bound), checking for deadlocks (a non-terminal state with no enabled
// transition) and, with invariants, the model's invariants. The first violation found at
// the least depth is returned with its shortest trace; the search order (and so the
// trace) is deterministic. Reaching the bound gives Inconclusive, never Holds.
//
// It is the stand-in for checker.Explore until that lands; it keeps every state's
// parent and action (16 bytes a state) besides its encoding in the visited set.
func Search(ctx context.Context, m *flit.Model, maxStates int64, invariants bool) Result {
	type node struct {
		parent int32
		action checker.Action
	}
	var (
		nodes   []node
		visited = map[string]int32{}
		buf     []byte
		succ    []checker.Transition[flit.State]
		res     Result
	)
	frontier := []flit.State{}
	fidx := []int32{}
	for _, s := range m.Init() {
		buf = m.Encode(s, buf[:0])
		if _, ok := visited[string(buf)]; ok {
			continue
		}
		visited[string(buf)] = int32(len(nodes))
		fidx = append(fidx, int32(len(nodes)))
		nodes = append(nodes, node{parent: -1})
		frontier = append(frontier, s)
	}
	var invs []checker.Invariant[flit.State]
	if invariants {
		invs = m.Invariants()
	}
	trace := func(i int32) {
		var acts []checker.Action
		for ; nodes[i].parent >= 0; i = nodes[i].parent {
			acts = append(acts, nodes[i].action)
		}
		for l, r := 0, len(acts)-1; l < r; l, r = l+1, r-1 {
			acts[l], acts[r] = acts[r], acts[l]
		}
		res.Actions = acts
		res.Labels = Labels(m, acts)
	}
	for depth := 0; len(frontier) > 0; depth++ {
		res.Depth = depth
		var next []flit.State
		var nidx []int32
		for k, s := range frontier {
			if k%1024 == 0 && ctx.Err() != nil {
				res.Verdict, res.Violation = props.Inconclusive, "cancelled"
				res.States = int64(len(nodes))
				return res
			}
			for _, inv := range invs {
				if err := inv.Check(s); err != nil {
					res.Verdict = props.Violated
					res.Violation = fmt.Sprintf("invariant %s: %v", inv.Name, err)
					res.States, res.Final = int64(len(nodes)), s
					trace(fidx[k])
					return res
				}
			}
			succ = m.Successors(s, succ[:0])
			if len(succ) == 0 && !m.Terminal(s) {
				res.Verdict = props.Violated
				res.Violation = "deadlock: " + Blocked(m, s)
				res.States, res.Final = int64(len(nodes)), s
				trace(fidx[k])
				return res
			}
			for _, t := range succ {
				res.Transitions++
				buf = m.Encode(t.Next, buf[:0])
				if _, ok := visited[string(buf)]; ok {
					continue
				}
				if maxStates > 0 && int64(len(nodes)) >= maxStates {
					res.Verdict, res.Violation = props.Inconclusive, fmt.Sprintf("state bound %d reached", maxStates)
					res.States = int64(len(nodes))
					return res
				}
				visited[string(buf)] = int32(len(nodes))
				nidx = append(nidx, int32(len(nodes)))
				nodes = append(nodes, node{parent: fidx[k], action: t.Action})
				next = append(next, t.Next)
			}
		}
		frontier, fidx = next, nidx
	}
	res.Verdict = props.Holds
	res.States = int64(len(nodes))
	return res
}

// Labels renders the actions of a trace from m's initial state.
func Labels(m *flit.Model, acts []checker.Action) []string {
	labels := make([]string, 0, len(acts))
	s := m.Init()[0]
	var succ []checker.Transition[flit.State]
	for _, a := range acts {
		labels = append(labels, m.Describe(s, a))
		succ = m.Successors(s, succ[:0])
		for _, t := range succ {
			if t.Action == a {
				s = t.Next
				break
			}
		}
	}
	return labels
}

// Replay re-executes actions from m's initial state; it fails if an action is not
// enabled. It returns the final state.
func Replay(m *flit.Model, acts []checker.Action) (flit.State, error) {
	s := m.Init()[0]
	var succ []checker.Transition[flit.State]
	for i, a := range acts {
		succ = m.Successors(s, succ[:0])
		found := false
		for _, t := range succ {
			if t.Action == a {
				s, found = t.Next, true
				break
			}
		}
		if !found {
			return s, fmt.Errorf("trace step %d: action %#x is not enabled", i+1, uint64(a))
		}
	}
	return s, nil
}

// Blocked summarises a deadlocked state: which message waits at which router.
func Blocked(m *flit.Model, s flit.State) string {
	return m.Waits(s)
}
