package checker_test

import (
	"encoding/binary"
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
)

// naiveLiveness is the brute-force twin of CheckLiveness on a Graph, where message 0 is
// pending in every non-final node and a transition's fairness class is its action (the
// edge's index at its node). It shares nothing with the component search: a weakly fair
// infinite run that never delivers exists if and only if some set W of reachable non-final
// nodes induces a strongly connected subgraph with an edge in which every class enabled
// at all nodes of W is taken by an edge inside W (the run eventually visits exactly W; a
// walk through every edge of W is fair). It tries every subset. It returns whether the
// property is violated and why.
func naiveLiveness(g checkertest.Graph) (bool, string) {
	reach := make([]bool, g.Nodes)
	var visit func(v int)
	visit = func(v int) {
		if reach[v] {
			return
		}
		reach[v] = true
		for _, w := range g.Edges[v] {
			visit(w)
		}
	}
	for _, v := range g.Inits {
		visit(v)
	}
	for v := range g.Nodes {
		if reach[v] && !g.Final[v] && len(g.Edges[v]) == 0 {
			return true, fmt.Sprintf("deadlock at %d", v)
		}
	}
	for set := 1; set < 1<<g.Nodes; set++ {
		in := func(v int) bool { return set>>v&1 == 1 }
		ok, edge := true, false
		for v := range g.Nodes {
			if in(v) && (!reach[v] || g.Final[v]) {
				ok = false
			}
		}
		if !ok {
			continue
		}
		// Strongly connected: every node of W reaches every other inside W.
		for v := range g.Nodes {
			if !in(v) {
				continue
			}
			seen := 0
			var walk func(u int)
			walk = func(u int) {
				for _, w := range g.Edges[u] {
					if in(w) {
						edge = true
						if seen>>w&1 == 0 {
							seen |= 1 << w
							walk(w)
						}
					}
				}
			}
			walk(v)
			if seen|1<<v != set|1<<v || seen&set != set {
				ok = false
			}
		}
		if !ok || !edge {
			continue
		}
		fair := true
		for j := range 3 {
			always, taken := true, false
			for v := range g.Nodes {
				if !in(v) {
					continue
				}
				if j >= len(g.Edges[v]) {
					always = false
				} else if in(g.Edges[v][j]) {
					taken = true
				}
			}
			if always && !taken {
				fair = false
			}
		}
		if fair {
			return true, fmt.Sprintf("fair cycle through node set %b", set)
		}
	}
	return false, ""
}

// TestLivenessMatchesNaive cross-checks CheckLiveness with the brute force on random
// small graphs, and checks that each counterexample it returns replays.
func TestLivenessMatchesNaive(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261124)
	params.MinSuccessfulTests = 2000
	props := gopter.NewProperties(params)
	violations := 0
	props.Property("CheckLiveness agrees with the subset brute force", prop.ForAll(
		func(g checkertest.Graph) (bool, error) {
			want, why := naiveLiveness(g)
			res, err := checker.CheckLiveness[int](g, checker.LivenessOptions{})
			if err != nil {
				return false, err
			}
			if got := res.Verdict == checker.Violated; got != want {
				return false, fmt.Errorf("CheckLiveness says %v; brute force violated=%v (%s)", res.Verdict, want, why)
			}
			// The graph's index keeps word-keyed states (8-byte encodings) by fingerprint
			// alone and the others with their encodings; a model that mixes both must give
			// the same graph and the same witness.
			mixed, err := checker.CheckLiveness[int](mixedGraph{g}, checker.LivenessOptions{})
			if err != nil {
				return false, err
			}
			if mixed.Verdict != res.Verdict || mixed.States != res.States || mixed.Transitions != res.Transitions ||
				want && mixed.Violation.Trace.String() != res.Violation.Trace.String() {
				return false, fmt.Errorf("with mixed encodings: %v, %d states, %d transitions; plain: %v, %d, %d", mixed.Verdict, mixed.States, mixed.Transitions, res.Verdict, res.States, res.Transitions)
			}
			if !want {
				return true, nil
			}
			violations++
			v := res.Violation
			switch v.Kind {
			case checker.KindDeadlock:
				last := v.Trace.Steps[len(v.Trace.Steps)-1].State
				if g.Final[last] || len(g.Edges[last]) != 0 {
					return false, fmt.Errorf("deadlock trace ends at %d, which is not a deadlock", last)
				}
			case checker.KindLivelock:
				if _, _, err := checker.ReplayLasso[int](g, initIndex(g, v.Trace.Steps[0].State), v.Trace.Actions(), v.CycleStart); err != nil {
					return false, fmt.Errorf("lasso does not replay: %v", err)
				}
			default:
				return false, fmt.Errorf("kind %q; a graph has one message, so only deadlock or livelock", v.Kind)
			}
			return true, nil
		},
		checkertest.GenGraph(7),
	))
	props.TestingRun(t)
	if violations == 0 {
		t.Fatal("no random graph violated liveness; the generator does not exercise the check")
	}
}

// initIndex returns the index in g.Inits of initial node v.
func initIndex(g checkertest.Graph, v int) int {
	for i, u := range g.Inits {
		if u == v {
			return i
		}
	}
	return -1
}

// mixedGraph is a Graph whose even nodes have 8-byte encodings and odd nodes 1-byte
// ones.
type mixedGraph struct{ checkertest.Graph }

func (m mixedGraph) Encode(v int, buf []byte) []byte {
	if v%2 == 0 {
		return binary.LittleEndian.AppendUint64(buf, uint64(v))
	}
	return append(buf, byte(v))
}
