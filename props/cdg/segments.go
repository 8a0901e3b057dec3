package cdg

import (
	"math/bits"

	"github.com/wormcheck/wormcheck/model/scc"
)

// Worm bounds: a lower bound, per vertex, on the worms of a deadlock configuration in
// which the vertex is held, for the search by fewest worms (find.go).
//
// In a configuration every header waits for outputs that worms hold. Start at a worm W1
// holding vertex o_0, and let each W_i name one output o_i of its header, held by
// W_{i+1}: the worms W_1, W_2, ... are distinct until one repeats. From a vertex a worm
// holds, the worm's states run forward to its header, so o_{i-1} -> o_i is an arc of the
// segment graph: u -> w when a survivor state at u reaches, along survivor arcs, a
// header-capable state offered w. When W_j's output is held by W_i (i <= j), W_i holds
// o_{i-1} and o_j, so o_j -> o_i is an arc too and o_i, ..., o_j is a cycle of j-i+1
// segment arcs; the chain has j worms, i-1 of them before the cycle. Hence, with cyc(o)
// the fewest arcs of a segment cycle through o, the worms of a configuration holding o
// number at least
//
//	bound(o) = min(cyc(o), min over arcs o -> w of min(cyc(w), 1 + bound(w)))
//
// (the first term when W1 lies on the cycle through o, the second when it lies on the
// cycle through o_1, the third when W1 is before the cycle). A header offered outputs O
// needs at least max over o in O of bound(o) worms in its configuration, itself
// included.

// noBound marks a vertex from which no segment cycle is reachable: no configuration
// holds it.
const noBound = int32(1 << 30)

// maxBoundWords bounds the bit-set words of the worm bounds (per strongly connected
// component of the survivors' state graph, and per vertex squared); beyond it the
// bounds are not computed and the search goes without them.
const maxBoundWords = 1 << 26

// wormBounds returns bound(v) for every vertex (noBound where no segment cycle is
// reachable), with cycles counted up to capCycle arcs (a longer or absent shortest cycle
// through a vertex counts as capCycle+1 when some cycle is reachable from it). It returns
// nil when the bit sets would pass maxBoundWords. Cost O(states + arcs) for the strongly
// connected components (Tarjan), O(arcs x V/64) for each component's reachable outputs,
// and O(V^2 x V/64) for the cycles.
func (sp *space) wormBounds(alive, header []bool, capCycle int) []int32 {
	nv := sp.vertices()
	words := (nv + 63) / 64
	comp, ncomp := sp.components(alive)
	if int64(ncomp)*int64(words) > maxBoundWords || int64(nv)*int64(nv)/64*int64(words) > 64*maxBoundWords {
		return nil
	}
	// out[c]: the outputs offered to header-capable states reachable from component c.
	// Components are numbered in the order Tarjan completes them, every component after
	// the ones it reaches.
	out := make([]uint64, ncomp*words)
	byComp := make([][]int32, ncomp)
	for i, ok := range alive {
		if ok {
			byComp[comp[i]] = append(byComp[comp[i]], int32(i))
		}
	}
	for c := range ncomp {
		row := out[c*words : (c+1)*words]
		for _, st := range byComp[c] {
			to, vs := sp.arcs(st)
			if header[st] {
				for _, v := range vs {
					row[v/64] |= 1 << (v % 64)
				}
			}
			for _, t := range to {
				if t >= 0 && alive[t] && comp[t] != int32(c) {
					or(row, out[int(comp[t])*words:(int(comp[t])+1)*words])
				}
			}
		}
	}
	// seg[u]: the segment graph's arcs out of vertex u.
	seg := make([]uint64, nv*words)
	for i, ok := range alive {
		if ok {
			u := int(sp.vtx[i])
			or(seg[u*words:(u+1)*words], out[int(comp[i])*words:(int(comp[i])+1)*words])
		}
	}
	out = nil
	row := func(u int) []uint64 { return seg[u*words : (u+1)*words] }
	// cyc[v]: fewest arcs of a cycle through v, breadth first over bit sets.
	cyc := make([]int32, nv)
	seen := make([]uint64, words)
	front := make([]uint64, words)
	next := make([]uint64, words)
	for v := range nv {
		if v%64 == 0 && stopped(sp.ctx) != nil {
			return nil // Decide stops
		}
		cyc[v] = noBound
		copy(front, row(v))
		copy(seen, front)
		for d := 1; d <= capCycle && !zero(front); d++ {
			if front[v/64]&(1<<(v%64)) != 0 {
				cyc[v] = int32(d)
				break
			}
			clear(next)
			for w := range ones(front) {
				or(next, row(w))
			}
			for i := range next {
				next[i] &^= seen[i]
				seen[i] |= next[i]
			}
			front, next = next, front
		}
		if cyc[v] == noBound && !zero(front) {
			cyc[v] = int32(capCycle + 1) // not searched beyond the cap
		}
	}
	// bound: the fixed point of the formula above, from cyc down.
	bound := make([]int32, nv)
	copy(bound, cyc)
	for changed := true; changed; {
		changed = false
		for o := range nv {
			for w := range ones(row(o)) {
				if b := min(cyc[w], bound[w]+1); b < bound[o] {
					bound[o], changed = b, true
				}
			}
		}
	}
	return bound
}

// components numbers the strongly connected components of the survivors' state graph
// (arcs between survivors), in the order Tarjan's algorithm completes them: a component
// is numbered after every component it reaches. States that are not survivors get -1.
// Iterative, O(states + arcs).
func (sp *space) components(alive []bool) ([]int32, int) {
	return scc.Components(sp.states(), func(st int32) bool { return alive[st] }, scc.CSR(sp.first, sp.arcTo))
}

// or sets dst to dst | src.
func or(dst, src []uint64) {
	for i, w := range src {
		dst[i] |= w
	}
}

// zero reports whether the bit set is empty.
func zero(set []uint64) bool {
	for _, w := range set {
		if w != 0 {
			return false
		}
	}
	return true
}

// ones yields the members of a bit set in increasing order.
func ones(set []uint64) func(func(int) bool) {
	return func(yield func(int) bool) {
		for i, w := range set {
			for w != 0 {
				b := bits.TrailingZeros64(w)
				if !yield(i*64 + b) {
					return
				}
				w &= w - 1
			}
		}
	}
}
