// Package scc numbers the strongly connected components of a directed graph (Tarjan's
// algorithm), for the floors of wormcheck that need them: the liveness check on the
// reachable state graph, the exact routing decision on its header-state space and the
// partition judges on a subnetwork's channels.
//
// A graph is given by its vertex count and a function that returns the arcs of a
// vertex one at a time, so that each caller keeps its own representation (CSR arrays,
// adjacency lists) and no copy is made.
package scc

// Arcs returns the i-th arc of v (i = 0, 1, ...) as its head w, and ok false once v
// has no more arcs. A head w < 0 is an arc to skip (a caller's placeholder).
type Arcs func(v int32, i int) (w int32, ok bool)

// Components numbers the strongly connected components of the subgraph of the n
// vertices for which keep is true (nil: every vertex), arcs leading out of it ignored.
// comp[v] is v's component, -1 for a vertex not kept; components are numbered in the
// order Tarjan's algorithm completes them, so a component is numbered after every
// component it reaches. Roots are taken in increasing vertex order and arcs in the order
// arcs gives them, so the numbering is deterministic.
//
// Iterative (a long ring cannot exhaust the goroutine stack); O(n + arcs) time, about
// 13 bytes per vertex besides comp.
func Components(n int, keep func(v int32) bool, arcs Arcs) (comp []int32, count int) {
	index := make([]int32, n)
	low := make([]int32, n)
	comp = make([]int32, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	kept := func(v int32) bool { return v >= 0 && (keep == nil || keep(v)) }
	var stack []int32
	type frame struct {
		v    int32
		next int // the index of the next arc to follow
	}
	var call []frame
	next := int32(0)
	for root := range int32(n) {
		if index[root] >= 0 || !kept(root) {
			continue
		}
		call = append(call[:0], frame{root, 0})
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if w, ok := arcs(v, f.next); ok {
				f.next++
				if !kept(w) {
					continue
				}
				if index[w] < 0 {
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				} else if onStack[w] {
					low[v] = min(low[v], index[w])
				}
				continue
			}
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = int32(count)
					if w == v {
						break
					}
				}
				count++
			}
		}
	}
	return comp, count
}

// CSR returns the Arcs of a graph in compressed sparse row form: the arcs of v are
// to[first[v]:first[v+1]].
func CSR[I ~int32 | ~uint32 | ~int](first []I, to []int32) Arcs {
	return func(v int32, i int) (int32, bool) {
		e := int(first[v]) + i
		if e >= int(first[v+1]) {
			return 0, false
		}
		return to[e], true
	}
}

// Lists returns the Arcs of a graph given by adjacency lists.
func Lists(out [][]int32) Arcs {
	return func(v int32, i int) (int32, bool) {
		if i >= len(out[v]) {
			return 0, false
		}
		return out[v][i], true
	}
}
