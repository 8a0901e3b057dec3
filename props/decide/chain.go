package decide

// Chain bounds: a lower bound on the channels a partial configuration still needs once a
// new worm W starts, for pruning W's forward walk (find.go).
//
// Let H be the vertices the placed worms hold when W starts. Complete the configuration
// in any way and walk from a vertex x that is not in H: x is held by some worm X; if X
// is a placed worm grown backwards, follow it forward to its old tail (in H); if X is new,
// follow it forward to its header and jump to any output of the header; stop at a
// vertex of H or at a vertex already walked. The walk's vertices before it stops are
// held in the completion and not in H. When it stops on a vertex walked before, it has
// closed a cycle of segments (find.go, segments.go) of new worms only, at most J of
// them (J: the worms that may still start, W included), so at least least(J) vertices
// not in H are held. Otherwise, since the walk may jump to whichever output it likes,
// at least val(x) are, where, with the least over a worm's choices and the most over a
// header's outputs,
//
//	val(x)  = min(hops from x to a placed worm's tail in the survivors' vertex graph,
//	              min over survivor states s at x of sval(s))
//	sval(s) = min(1 + max over outputs o of s of (0 if o in H else val(o)), when s may be a header,
//	              1 + min over arcs s -> t of sval(t))
//
// over states and vertices outside H. So a worm W at the end of path, in states last,
// with left channels still allowed, can be completed only if
//
//	min(min over s in last of sval(s) - 1, least(J) - len(path)) <= left.
//
// The values are a least fixed point of min and max, computed in increasing order as
// Knuth's generalisation of Dijkstra's algorithm does: a header's value is known once
// each of its outputs' is. Only values up to the channels left are computed, so the cost
// is that of the states and arcs within them.

// maxChainLeft bounds the channels left for which a new worm gets a chain table: a
// search without a bound on the channels (Decide's probe) goes without.
const maxChainLeft = 256

// maxChainArcs bounds the k of least(k) the chain bounds ask for; past it they take
// the least cycle of any number of arcs, which is never more.
const maxChainArcs = 8

// chainTable is the values sval for one new worm; valid while that worm is placed.
type chainTable struct {
	gen   int32
	stamp []int32 // stamp[s] == gen: sval[s] is final
	sval  []int32
}

// chainIndex is what every chain table reads: the survivor header states of each output
// set and the output sets each vertex belongs to, and the survivors' vertex graph reversed.
type chainIndex struct {
	setFirst, setStates []int32 // the header-capable survivors with output set id: setStates[setFirst[id]:setFirst[id+1]]
	vtxFirst, vtxSets   []int32 // the output sets that contain vertex v: vtxSets[vtxFirst[v]:vtxFirst[v+1]]
	radj                [][]int32
	// scratch per computation
	cnt               []int32 // outputs of a set not yet final (-1: not yet counted)
	touched           []int32
	vval, vstamp      []int32 // per vertex: value and the computation that made it final
	dt, dtStamp       []int32 // per vertex: hops to a tail
	vgen              int32
	buckets           [][]int32 // items by value: a state s as s, a vertex v as -(v+1)
	pushStamp, pushed []int32   // per state: the least value pushed in this computation
}

// newChainIndex indexes the survivors of f.
func (f *finder) newChainIndex() *chainIndex {
	sp := f.sp
	nSets := len(sp.outSets)
	ci := &chainIndex{setFirst: make([]int32, nSets+1)}
	for st, ok := range f.header {
		if ok && f.alive[st] {
			ci.setFirst[sp.outID[st]+1]++
		}
	}
	for i := range nSets {
		ci.setFirst[i+1] += ci.setFirst[i]
	}
	ci.setStates = make([]int32, ci.setFirst[nSets])
	fill := append([]int32(nil), ci.setFirst[:nSets]...)
	used := make([]bool, nSets)
	for st, ok := range f.header {
		if ok && f.alive[st] {
			id := sp.outID[st]
			ci.setStates[fill[id]] = int32(st)
			fill[id]++
			used[id] = true
		}
	}
	nv := sp.vertices()
	ci.vtxFirst = make([]int32, nv+1)
	for id, set := range sp.outSets {
		if used[id] {
			for _, v := range set {
				ci.vtxFirst[v+1]++
			}
		}
	}
	for v := range nv {
		ci.vtxFirst[v+1] += ci.vtxFirst[v]
	}
	ci.vtxSets = make([]int32, ci.vtxFirst[nv])
	vfill := append([]int32(nil), ci.vtxFirst[:nv]...)
	for id, set := range sp.outSets {
		if used[id] {
			for _, v := range set {
				ci.vtxSets[vfill[v]] = int32(id)
				vfill[v]++
			}
		}
	}
	ci.radj = make([][]int32, nv)
	for v, out := range f.adj {
		for _, w := range out {
			ci.radj[w] = append(ci.radj[w], int32(v))
		}
	}
	ci.cnt = make([]int32, nSets)
	for i := range ci.cnt {
		ci.cnt[i] = -1
	}
	ci.vval, ci.vstamp = make([]int32, nv), make([]int32, nv)
	ci.dt, ci.dtStamp = make([]int32, nv), make([]int32, nv)
	ci.pushStamp, ci.pushed = make([]int32, sp.states()), make([]int32, sp.states())
	return ci
}

// chainTable returns the table for a worm starting while depth worms are placed,
// computed for the placed worms (f.occ, f.worms) up to values of left.
func (f *finder) chainTable(depth, left int) *chainTable {
	if f.chainIdx == nil {
		f.chainIdx = f.newChainIndex()
	}
	for len(f.chains) <= depth {
		f.chains = append(f.chains, nil)
	}
	t := f.chains[depth]
	if t == nil {
		n := f.sp.states()
		t = &chainTable{stamp: make([]int32, n), sval: make([]int32, n)}
		f.chains[depth] = t
	}
	f.fillChain(t, left)
	return t
}

// fillChain computes t's values up to left (the comment at the top of this file).
func (f *finder) fillChain(t *chainTable, left int) {
	sp, ci := f.sp, f.chainIdx
	t.gen++
	ci.vgen++
	gen, vgen := t.gen, ci.vgen
	if cap(ci.buckets) < left+2 {
		ci.buckets = make([][]int32, left+2)
	}
	ci.buckets = ci.buckets[:left+2]
	for i := range ci.buckets {
		ci.buckets[i] = ci.buckets[i][:0]
	}
	for _, id := range ci.touched {
		ci.cnt[id] = -1
	}
	ci.touched = ci.touched[:0]
	push := func(item int32, d int32) {
		if int(d) <= left {
			ci.buckets[d] = append(ci.buckets[d], item)
		}
	}
	pushState := func(s int32, d int32) {
		if f.occ[sp.vtx[s]] != 0 || t.stamp[s] == gen || int(d) > left {
			return
		}
		if ci.pushStamp[s] == vgen && ci.pushed[s] <= d {
			return
		}
		ci.pushStamp[s], ci.pushed[s] = vgen, d
		push(s, d)
	}
	// count starts a set's count of outputs not in H; a set all of whose outputs are
	// held offers its states at 1.
	count := func(id int32) {
		if ci.cnt[id] >= 0 {
			return
		}
		n := int32(0)
		for _, o := range sp.outSets[id] {
			if f.occ[o] <= 0 {
				n++
			}
		}
		ci.cnt[id] = n
		ci.touched = append(ci.touched, id)
		if n == 0 {
			for _, s := range ci.setStates[ci.setFirst[id]:ci.setFirst[id+1]] {
				pushState(s, 1)
			}
		}
	}
	// Hops to the placed worms' tails, breadth first over free vertices.
	queue := f.queue[:0]
	for _, w := range f.worms {
		queue = append(queue, w.path[0])
	}
	for _, v := range queue {
		ci.dtStamp[v], ci.dt[v] = vgen, 0
	}
	for d := int32(1); int(d) <= left && len(queue) > 0; d++ {
		end := len(queue)
		for _, u := range queue[:end] {
			for _, x := range ci.radj[u] {
				if f.occ[x] != 0 || ci.dtStamp[x] == vgen {
					continue
				}
				ci.dtStamp[x], ci.dt[x] = vgen, d
				queue = append(queue, x)
				push(-(x + 1), d)
			}
		}
		queue = queue[end:]
	}
	f.queue = queue[:0]
	// The sets with a held output.
	for v := range f.occ {
		if f.occ[v] > 0 {
			for _, id := range ci.vtxSets[ci.vtxFirst[v]:ci.vtxFirst[v+1]] {
				count(id)
			}
		}
	}
	for d := int32(0); int(d) <= left; d++ {
		for i := 0; i < len(ci.buckets[d]); i++ {
			item := ci.buckets[d][i]
			if item < 0 {
				v := -item - 1
				if ci.vstamp[v] == vgen {
					continue
				}
				ci.vstamp[v], ci.vval[v] = vgen, d
				for _, id := range ci.vtxSets[ci.vtxFirst[v]:ci.vtxFirst[v+1]] {
					count(id)
					if ci.cnt[id] > 0 {
						ci.cnt[id]--
						if ci.cnt[id] == 0 {
							for _, s := range ci.setStates[ci.setFirst[id]:ci.setFirst[id+1]] {
								pushState(s, d+1)
							}
						}
					}
				}
				continue
			}
			s := item
			if t.stamp[s] == gen {
				continue
			}
			t.stamp[s], t.sval[s] = gen, d
			if v := sp.vtx[s]; ci.vstamp[v] != vgen {
				push(-(v + 1), d)
			}
			for _, p := range sp.pred[sp.predFirst[s]:sp.predFirst[s+1]] {
				if f.alive[p] {
					pushState(p, d+1)
				}
			}
		}
	}
}

// chainNeed returns the lower bound on the channels still needed by a new worm at the end
// of path in states last (the comment at the top of this file), J worms allowed from its
// start; at most left+1 when the bound exceeds left.
func (f *finder) chainNeed(t *chainTable, last []int32, pathLen, j, left int) int {
	best := left + 2
	for _, s := range last {
		if t.stamp[s] == t.gen {
			best = min(best, int(t.sval[s]))
		}
	}
	need := best - 1
	if f.cb != nil {
		// least(J) for few worms, else the least cycle of any number of arcs (no more).
		l := f.cb.leastAny()
		if j <= maxChainArcs {
			l = f.cb.bound(j)
		}
		if l < noCycle {
			need = min(need, int(l)-pathLen)
		}
	} else {
		need = min(need, 0)
	}
	return need
}
