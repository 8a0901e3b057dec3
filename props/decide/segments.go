package decide

import (
	"container/heap"
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
	return sp.wormBoundsOf(alive, header, capCycle, nil)
}

// wormBoundsOf is wormBounds, with the segment arcs of cb when it has them (then
// without the strongly connected components, and each shortest cycle found from the
// least vertex of its orbit only: bound is invariant under cb's automorphisms).
func (sp *space) wormBoundsOf(alive, header []bool, capCycle int, cb *cycleBounds) []int32 {
	nv := sp.vertices()
	words := (nv + 63) / 64
	if cb != nil && cb.segments() && int64(nv)*int64(words) <= maxBoundWords {
		seg := make([]uint64, nv*words)
		for u, ws := range cb.tgt {
			for _, w := range ws {
				seg[u*words+int(w)/64] |= 1 << (w % 64)
			}
		}
		return sp.boundsFromSegments(seg, words, capCycle, cb.sym)
	}
	if int64(nv)*int64(words) > maxBoundWords {
		return nil
	}
	// seg[u]: the segment graph's arcs out of vertex u, built destination by destination
	// (no arc leads from one destination's states to another's): in each, out[c] is the
	// outputs offered to header-capable states reachable from component c, components
	// numbered in the order Tarjan completes them, every one after those it reaches.
	seg := make([]uint64, nv*words)
	var out []uint64
	var byComp [][]int32
	for d := range sp.g.Nodes() {
		if stopped(sp.ctx) != nil {
			return nil
		}
		lo, hi := sp.dstFirst[d], sp.dstFirst[d+1]
		if lo == hi {
			continue
		}
		comp, ncomp := scc.Components(int(hi-lo), func(v int32) bool { return alive[lo+v] }, func(v int32, i int) (int32, bool) {
			to, _ := sp.arcs(lo + v)
			if i >= len(to) {
				return 0, false
			}
			if to[i] < 0 {
				return -1, true // delivered: no state
			}
			return to[i] - lo, true
		})
		if int64(ncomp)*int64(words) > maxBoundWords {
			return nil
		}
		out = append(out[:0], make([]uint64, ncomp*words)...)
		byComp = byComp[:0]
		for range ncomp {
			byComp = append(byComp, nil)
		}
		for i := lo; i < hi; i++ {
			if alive[i] {
				byComp[comp[i-lo]] = append(byComp[comp[i-lo]], i)
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
					if t >= 0 && alive[t] && comp[t-lo] != int32(c) {
						k := int(comp[t-lo])
						or(row, out[k*words:(k+1)*words])
					}
				}
			}
		}
		for i := lo; i < hi; i++ {
			if alive[i] {
				u, k := int(sp.vtx[i]), int(comp[i-lo])
				or(seg[u*words:(u+1)*words], out[k*words:(k+1)*words])
			}
		}
	}
	var sy *symmetry
	if cb != nil {
		sy = cb.sym
	}
	return sp.boundsFromSegments(seg, words, capCycle, sy)
}

// boundsFromSegments computes bound from the segment graph's rows of bits (seg[u]: the
// arcs out of u); with sy, the shortest cycles are searched from orbit
// representatives only and copied to their orbits. nil when the context stops it, or
// when the searches for cycles pass maxCycleWork words.
func (sp *space) boundsFromSegments(seg []uint64, words, capCycle int, sy *symmetry) []int32 {
	nv := sp.vertices()
	row := func(u int) []uint64 { return seg[u*words : (u+1)*words] }
	// cyc[v]: fewest arcs of a cycle through v, breadth first over bit sets.
	cyc := make([]int32, nv)
	seen := make([]uint64, words)
	front := make([]uint64, words)
	next := make([]uint64, words)
	work := int64(0) // words or-ed
	for v := range nv {
		if v%64 == 0 && stopped(sp.ctx) != nil || work > maxCycleWork {
			return nil // Decide stops, or the bounds cost too much: none
		}
		cyc[v] = noBound
		if sy != nil && sy.rep[sy.orb[v]] != int32(v) {
			continue // copied from the representative below
		}
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
				work += int64(words)
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
	if sy != nil {
		for v := range nv {
			cyc[v] = cyc[sy.rep[sy.orb[v]]]
		}
	}
	// bound: the fixed point of the formula above, from cyc down.
	bound := make([]int32, nv)
	copy(bound, cyc)
	for changed := true; changed; {
		if stopped(sp.ctx) != nil {
			return nil
		}
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

// Cycle bounds: a lower bound on the channels of a deadlock configuration of at most k
// worms, for the deepening on channels (Decide).
//
// Take the cycle of the worm bounds above: outputs o_i, ..., o_j, each held by a worm
// of the cycle, worm W_{m+1} holding o_m and every vertex from o_m on to its header,
// which is offered o_{m+1} (W_i closes it: it holds o_j and its header is offered
// o_i). The worms of the cycle are distinct, so they hold disjoint vertices, and
// W_{m+1} holds at least len(o_m, o_{m+1}) of them: the fewest states of a path of
// survivor arcs from a survivor state at o_m to a header-capable state offered
// o_{m+1}. A configuration of at most k worms therefore holds at least
//
//	least(k) = min over segment cycles of at most k arcs of the sum of their lengths
//
// channels (a closed walk splits into simple cycles of fewer arcs, none longer, so
// simple cycles suffice). On a torus with minimal adaptive routing three worms close
// no cycle that does not wrap around a ring, while four close a square of four
// channels: least(3) is the ring's length (12 on torus:12x12), and the deepening for
// three worms starts there instead of refuting every level below.

// cycleBounds computes least(k) on demand and keeps it per k.
type cycleBounds struct {
	sp      *space
	sym     *symmetry // the space's automorphisms (nil: none)
	alive   []bool
	header  []bool
	built   bool
	tgt, wt [][]int32 // the segment arcs out of each vertex, with their lengths (nil: unknown)
	in      [][]int32 // in[v]: the vertices with a segment arc into v
	inWt    [][]int32 // the lengths of those arcs
	least   []int32   // least[k] once computed (0: not yet)
	any     int32     // leastAny once computed (0: not yet)
	work    int64     // states visited and arcs relaxed so far
	// empty: a header-capable state has no outputs, a configuration of one worm on
	// one channel, so there is no bound.
	empty bool
}

// noCycle is least(k) when no segment cycle has at most k arcs.
const noCycle = int32(1 << 30)

// maxCycleWork bounds the states visited and arcs relaxed for the cycle bounds; past
// it bound returns 1 (no bound), and the decision runs as it would without them.
const maxCycleWork = 1 << 28

func newCycleBounds(sp *space, alive, header []bool) *cycleBounds {
	return &cycleBounds{sp: sp, alive: alive, header: header}
}

// lengths builds the segment arcs with their lengths: one breadth-first search of
// the survivors' states from the states at each vertex, or, with automorphisms (sym),
// at each orbit's least vertex only, the other vertices' arcs mapped from it along the
// orbit's tree. Cost O(V x (reachable states
// + arcs)), bounded by maxCycleWork and, on average over the vertices searched, by 64
// times the states and arcs per vertex (a minimal relation's searches stay within it:
// 36 times on torus:16x16 adaptive; a non-minimal relation's reach nearly every state,
// 230 times on torus:16x16, and there least(k) is small anyway); false when a bound or
// the context stops it.
func (cb *cycleBounds) lengths() bool {
	sp := cb.sp
	nv := sp.vertices()
	cb.tgt, cb.wt = make([][]int32, nv), make([][]int32, nv)
	dist := make([]int32, sp.states())
	stamp := make([]int32, sp.states())
	seen := make([]int32, nv)
	var queue []int32
	perVertex := 64 + 64*int64(sp.states()+len(sp.arcTo))/int64(max(1, reps(cb.sym, nv)))
	sy := cb.sym
	if sy == nil {
		sy = trivialSymmetry(nv)
	}
	searched := 0
	for n, u32 := range sy.order {
		u := int(u32)
		if cb.work > maxCycleWork || (n%64 == 0 && stopped(sp.ctx) != nil) {
			return false
		}
		if via := sy.via[u]; via >= 0 {
			// An automorphism maps the segments of from[u] onto u's, lengths kept.
			gen, src := sy.gens[via], sy.from[u]
			cb.tgt[u] = make([]int32, len(cb.tgt[src]))
			for i, w := range cb.tgt[src] {
				cb.tgt[u][i] = gen[w]
			}
			cb.wt[u] = cb.wt[src]
			cb.work += int64(len(cb.tgt[src]))
			continue
		}
		if searched > 0 && cb.work > int64(searched)*perVertex {
			return false // a permissive relation: segments run almost everywhere
		}
		searched++
		gen := int32(u + 1)
		queue = queue[:0]
		for _, st := range sp.at(int32(u)) {
			if cb.alive[st] {
				stamp[st], dist[st] = gen, 1
				queue = append(queue, st)
			}
		}
		// Breadth first: an output is first met at its least length.
		for i := 0; i < len(queue); i++ {
			st := queue[i]
			to, vs := sp.arcs(st)
			cb.work += int64(len(to)) + 1
			if cb.header[st] {
				cb.empty = cb.empty || len(vs) == 0
				for _, w := range vs {
					if seen[w] != gen {
						seen[w] = gen
						cb.tgt[u] = append(cb.tgt[u], w)
						cb.wt[u] = append(cb.wt[u], dist[st])
					}
				}
			}
			for _, t := range to {
				if t >= 0 && cb.alive[t] && stamp[t] != gen {
					stamp[t], dist[t] = gen, dist[st]+1
					queue = append(queue, t)
				}
			}
		}
	}
	cb.in, cb.inWt = make([][]int32, nv), make([][]int32, nv)
	for u := range nv {
		for i, w := range cb.tgt[u] {
			cb.in[w] = append(cb.in[w], int32(u))
			cb.inWt[w] = append(cb.inWt[w], cb.wt[u][i])
		}
	}
	return true
}

// segments builds the segment arcs once (lengths) and reports whether they are known.
func (cb *cycleBounds) segments() bool {
	if !cb.built {
		cb.built = true
		if !cb.lengths() {
			cb.tgt = nil
		}
	}
	return cb.tgt != nil
}

// bound returns least(k) (noCycle when no segment cycle has at most k arcs), or 1
// when it is not known (the work bound, the context, a header with no outputs).
// Each cycle is found from its least vertex u through greater vertices only: the
// least lengths of walks from u of 1, ..., k-1 arcs, layer by layer, each closed by
// one arc back into u; a walk that cannot beat the best cycle so far is dropped.
// Cost, for a k not asked before, O(V x (k-2) x segment arcs) at most, bounded by
// maxCycleWork.
func (cb *cycleBounds) bound(k int) int32 {
	if k <= 0 {
		return 1
	}
	if !cb.segments() || cb.empty {
		return 1
	}
	for len(cb.least) <= k {
		cb.least = append(cb.least, 0)
	}
	if cb.least[k] != 0 {
		return cb.least[k]
	}
	best := noCycle
	if k > 1 {
		best = cb.bound(k - 1) // a cycle of fewer arcs has at most k
		if cb.tgt == nil {
			return 1
		}
	}
	nv := cb.sp.vertices()
	cur, next := make([]int32, nv), make([]int32, nv)
	// after(x, u): x may lie on a cycle found from u, besides u itself — a greater
	// vertex without symmetry, a vertex of u's orbit or a later one with it (every
	// cycle is mapped onto one through the least vertex of its least orbit).
	after := func(x, u int) bool { return x > u }
	if sy := cb.sym; sy != nil {
		after = func(x, u int) bool { return x != u && sy.orb[x] >= sy.orb[u] }
	}
	for u := range nv {
		if cb.work > maxCycleWork || (u%64 == 0 && stopped(cb.sp.ctx) != nil) {
			cb.tgt = nil // unknown from here on
			return 1
		}
		if cb.sym != nil && cb.sym.rep[cb.sym.orb[u]] != int32(u) {
			continue
		}
		for i := range cur {
			cur[i] = noCycle
		}
		for i, w := range cb.tgt[u] {
			if int(w) == u || after(int(w), u) {
				cur[w] = cb.wt[u][i]
			}
		}
		// cur: the least lengths of walks of j arcs from u through greater vertices.
		for j := 1; ; j++ {
			if j == 1 {
				best = min(best, cur[u]) // one arc from u to u
			}
			if j+1 > k {
				break
			}
			// Walks of j arcs closed by one arc into u: cycles of j+1 arcs.
			for i, y := range cb.in[u] {
				if after(int(y), u) && cur[y] < noCycle {
					best = min(best, cur[y]+cb.inWt[u][i])
				}
			}
			if j+2 > k {
				break
			}
			for i := range next {
				next[i] = noCycle
			}
			for y := range nv {
				d := cur[y]
				if d+2 >= best || !after(y, u) { // one more arc and the closing one add at least 2
					continue
				}
				cb.work += int64(len(cb.tgt[y]))
				for i, x := range cb.tgt[y] {
					if e := d + cb.wt[y][i]; after(int(x), u) && e < next[x] {
						next[x] = e
					}
				}
			}
			cur, next = next, cur
		}
	}
	cb.least[k] = best
	return best
}

// leastAny returns the least total length of a segment cycle of any number of arcs, a
// lower bound on the channels of every configuration (least(k) for k unbounded); 1
// when it is not known. Each cycle is found from the least vertex of its least orbit
// (symmetry) by Dijkstra's algorithm over the vertices after it. Cost O(orbits x
// segment arcs x log V), bounded by maxCycleWork.
func (cb *cycleBounds) leastAny() int32 {
	if !cb.segments() || cb.empty {
		return 1
	}
	if cb.any != 0 {
		return cb.any
	}
	nv := cb.sp.vertices()
	after := func(x, u int) bool { return x > u }
	if sy := cb.sym; sy != nil {
		after = func(x, u int) bool { return x != u && sy.orb[x] >= sy.orb[u] }
	}
	dist := make([]int32, nv)
	best := noCycle
	var h distHeap
	for u := range nv {
		if cb.work > maxCycleWork || (u%64 == 0 && stopped(cb.sp.ctx) != nil) {
			return 1
		}
		if cb.sym != nil && cb.sym.rep[cb.sym.orb[u]] != int32(u) {
			continue
		}
		for i := range dist {
			dist[i] = noCycle
		}
		h = h[:0]
		for i, w := range cb.tgt[u] {
			switch {
			case int(w) == u:
				best = min(best, cb.wt[u][i])
			case after(int(w), u) && cb.wt[u][i] < dist[w]:
				dist[w] = cb.wt[u][i]
				heap.Push(&h, distItem{w, dist[w]})
			}
		}
		for h.Len() > 0 {
			it := heap.Pop(&h).(distItem)
			if it.d != dist[it.v] || it.d+1 >= best {
				continue
			}
			cb.work += int64(len(cb.tgt[it.v]))
			for i, w := range cb.tgt[it.v] {
				e := it.d + cb.wt[it.v][i]
				if int(w) == u {
					best = min(best, e)
				} else if after(int(w), u) && e < dist[w] && e < best {
					dist[w] = e
					heap.Push(&h, distItem{w, e})
				}
			}
		}
	}
	cb.any = best
	return best
}

// distItem and distHeap are Dijkstra's queue of leastAny.
type distItem struct{ v, d int32 }
type distHeap []distItem

func (h distHeap) Len() int           { return len(h) }
func (h distHeap) Less(i, j int) bool { return h[i].d < h[j].d }
func (h distHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *distHeap) Push(x any)        { *h = append(*h, x.(distItem)) }
func (h *distHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// reps returns how many vertices the segment searches start from: the orbits of sy, or
// every vertex without symmetry.
func reps(sy *symmetry, nv int) int {
	if sy == nil {
		return nv
	}
	return sy.orbits()
}
