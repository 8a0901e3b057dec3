package banyan

import (
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
)

// SearchResult is the outcome of Search: the verdict on deadlock freedom, the figures,
// and for a deadlock the shortest trace to it (initial state index and actions, with
// their labels) and the deadlocked state.
type SearchResult[S any] struct {
	Verdict     checker.Verdict
	States      int64
	Transitions int64
	Depth       int
	Init        int
	Actions     []uint64
	Labels      []string
	Deadlock    S
	Found       bool
}

// Search explores every state of m reachable from its initial states breadth first and
// reports the first deadlock (a non-terminal state without successors) found at the least
// depth, with its shortest trace. maxStates > 0 bounds the visited states; reaching it
// gives Inconclusive. It is the tiny local BFS of this package's tests, an independent
// twin of checker.Explore: state counts and trace lengths must agree; it keeps the same Model contract
// (deterministic successor order, canonical Encode), so verdicts, counts and traces are
// reproducible.
func Search[S any](m checker.Model[S], maxStates int64) SearchResult[S] {
	type node struct {
		parent int32
		init   int32
		action uint64
		depth  int32
	}
	var res SearchResult[S]
	seen := map[string]int32{}
	var nodes []node
	var queue []S
	var buf []byte
	for i, s := range m.Init() {
		buf = m.Encode(s, buf[:0])
		if _, ok := seen[string(buf)]; ok {
			continue
		}
		seen[string(buf)] = int32(len(nodes))
		nodes = append(nodes, node{parent: -1, init: int32(i)})
		queue = append(queue, s)
	}
	var succ []checker.Transition[S]
	for head := 0; head < len(queue); head++ {
		s := queue[head]
		succ = m.Successors(s, succ[:0])
		res.Transitions += int64(len(succ))
		if len(succ) == 0 && !m.Terminal(s) {
			res.Verdict, res.Found, res.Deadlock = checker.Violated, true, s
			var acts []uint64
			k := int32(head)
			for nodes[k].parent >= 0 {
				acts = append(acts, nodes[k].action)
				k = nodes[k].parent
			}
			res.Init = int(nodes[k].init)
			for i, j := 0, len(acts)-1; i < j; i, j = i+1, j-1 {
				acts[i], acts[j] = acts[j], acts[i]
			}
			res.Actions = acts
			res.Labels = labels(m, res.Init, acts)
			res.States, res.Depth = int64(len(nodes)), int(nodes[head].depth)
			return res
		}
		for _, t := range succ {
			buf = m.Encode(t.Next, buf[:0])
			if _, ok := seen[string(buf)]; ok {
				continue
			}
			if maxStates > 0 && int64(len(nodes)) >= maxStates {
				res.Verdict, res.States = checker.Inconclusive, int64(len(nodes))
				return res
			}
			d := nodes[head].depth + 1
			seen[string(buf)] = int32(len(nodes))
			nodes = append(nodes, node{parent: int32(head), init: nodes[head].init, action: uint64(t.Action), depth: d})
			queue = append(queue, t.Next)
			if int(d) > res.Depth {
				res.Depth = int(d)
			}
		}
		var zero S
		queue[head] = zero
	}
	res.Verdict, res.States = checker.Holds, int64(len(nodes))
	return res
}

func labels[S any](m checker.Model[S], init int, acts []uint64) []string {
	out := make([]string, 0, len(acts))
	cur := m.Init()[init]
	for _, a := range acts {
		out = append(out, m.Describe(cur, checker.Action(a)))
		next, ok := step(m, cur, a)
		if !ok {
			break
		}
		cur = next
	}
	return out
}

func step[S any](m checker.Model[S], s S, a uint64) (S, bool) {
	for _, t := range m.Successors(s, nil) {
		if uint64(t.Action) == a {
			return t.Next, true
		}
	}
	var zero S
	return zero, false
}

// ReplayActions re-executes actions from initial state init of m and returns the state
// reached; an action not enabled where it is taken is an error naming its position.
func ReplayActions[S any](m checker.Model[S], init int, acts []uint64) (S, error) {
	inits := m.Init()
	var zero S
	if init < 0 || init >= len(inits) {
		return zero, fmt.Errorf("trace field \"init\" is %d; the model has %d initial states", init, len(inits))
	}
	s := inits[init]
	for i, a := range acts {
		next, ok := step(m, s, a)
		if !ok {
			return zero, fmt.Errorf("trace action %d (%d) is not enabled", i+1, a)
		}
		s = next
	}
	return s, nil
}

// IsDeadlock reports whether s is a deadlock of m: not terminal and without successors.
func IsDeadlock[S any](m checker.Model[S], s S) bool {
	return !m.Terminal(s) && len(m.Successors(s, nil)) == 0
}
