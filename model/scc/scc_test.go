package scc

import (
	"math/rand/v2"
	"testing"
)

// reachable is the naive twin: the vertices kept that v reaches through kept vertices.
func reachable(out [][]int32, keep []bool, v int32) []bool {
	seen := make([]bool, len(out))
	seen[v] = true
	stack := []int32{v}
	for len(stack) > 0 {
		u := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range out[u] {
			if w >= 0 && keep[w] && !seen[w] {
				seen[w] = true
				stack = append(stack, w)
			}
		}
	}
	return seen
}

// TestComponentsAgreeWithReachability checks Components against mutual reachability
// on random graphs with skipped arcs and dropped vertices: two kept vertices share a
// component iff each reaches the other, a dropped vertex has -1, and a component is
// numbered after every component it reaches.
func TestComponentsAgreeWithReachability(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 500 {
		n := 1 + rng.IntN(24)
		out := make([][]int32, n)
		keep := make([]bool, n)
		for v := range out {
			keep[v] = rng.IntN(6) > 0
			for range rng.IntN(4) {
				w := int32(rng.IntN(n+1)) - 1 // -1: an arc to skip
				out[v] = append(out[v], w)
			}
		}
		comp, count := Components(n, func(v int32) bool { return keep[v] }, Lists(out))
		reach := make([][]bool, n)
		for v := range n {
			if keep[v] {
				reach[v] = reachable(out, keep, int32(v))
			}
		}
		seenComp := make([]bool, count)
		for v := range n {
			if !keep[v] {
				if comp[v] != -1 {
					t.Fatalf("trial %d: dropped vertex %d has component %d", trial, v, comp[v])
				}
				continue
			}
			seenComp[comp[v]] = true
			for w := range n {
				if !keep[w] {
					continue
				}
				same := reach[v][w] && reach[w][v]
				if same != (comp[v] == comp[w]) {
					t.Fatalf("trial %d: %d and %d: mutually reachable %v, components %d and %d", trial, v, w, same, comp[v], comp[w])
				}
				if reach[v][w] && comp[w] > comp[v] {
					t.Fatalf("trial %d: %d reaches %d but its component %d is numbered before %d", trial, v, w, comp[v], comp[w])
				}
			}
		}
		for c, ok := range seenComp {
			if !ok {
				t.Fatalf("trial %d: component %d of %d has no vertex", trial, c, count)
			}
		}
	}
}

// TestCSRAndListsAgree: the two representations of one graph give one numbering, and
// a 100,000-vertex ring (one component) needs no recursion.
func TestCSRAndListsAgree(t *testing.T) {
	const n = 100_000
	out := make([][]int32, n)
	first := make([]uint32, n+1)
	var to []int32
	for v := range n {
		out[v] = []int32{int32((v + 1) % n)}
		to = append(to, int32((v+1)%n))
		first[v+1] = uint32(len(to))
	}
	a, ca := Components(n, nil, Lists(out))
	b, cb := Components(n, nil, CSR(first, to))
	if ca != 1 || cb != 1 {
		t.Fatalf("a ring has %d and %d components, want 1", ca, cb)
	}
	for v := range n {
		if a[v] != b[v] {
			t.Fatalf("vertex %d: %d by lists, %d by CSR", v, a[v], b[v])
		}
	}
}
