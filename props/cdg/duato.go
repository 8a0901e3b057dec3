package cdg

import (
	"cmp"
	"container/heap"
	"slices"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// ecdg is the part of Duato's extended channel dependency graph found so far: real
// dependencies between escape vertices, each with a header that makes it.
type ecdg struct {
	index map[uint64]int // from<<32|to -> position in deps (lookup only, never ranged)
	from  []int32
	to    []int32
	src   []int32
	dst   []int32
}

func (e *ecdg) add(from, to int32, src, dst int32) bool {
	k := uint64(uint32(from))<<32 | uint64(uint32(to))
	if _, ok := e.index[k]; ok {
		return false
	}
	e.index[k] = len(e.from)
	e.from = append(e.from, from)
	e.to = append(e.to, to)
	e.src = append(e.src, src)
	e.dst = append(e.dst, dst)
	return true
}

// duatoState is Duato's check in progress: the escape vertices C1, a candidate order of
// them (rank, and inv from rank back to vertex), and the extended dependencies that
// contradicted an earlier order.
type duatoState struct {
	isC1  []bool
	rank  []int32
	inv   []int32
	e     *ecdg
	added int

	mval  []int32 // per state (or node): the latest-ranked escape vertex a header held last
	mgen  []uint32
	pdone []uint32
	sweep uint32

	sorted, dist, count []int32
}

func newDuatoState(s *searcher) *duatoState {
	n := len(s.stamp)
	return &duatoState{e: &ecdg{index: map[uint64]int{}}, mval: make([]int32, n), mgen: make([]uint32, n), pdone: make([]uint32, n)}
}

// setOrder makes order (escape vertices, first to last) the candidate order.
func (du *duatoState) setOrder(order []int32) {
	for i := range du.rank {
		du.rank[i] = -1
	}
	for i, v := range order {
		du.rank[v] = int32(i)
	}
	du.inv = slices.Clone(order)
}

// hintOrder returns the escape vertices and their order as the relation's EscapeRank
// hint gives them, or nil without a hint.
func hintOrder(s *searcher) (c1 []bool, order []int32) {
	h, ok := s.rel.(routing.EscapeOrdered)
	if !ok {
		return nil, nil
	}
	nv := s.vertices()
	c1 = make([]bool, nv)
	key := make([]int, nv)
	for v := 0; v < nv; v++ {
		r := h.EscapeRank(topology.ChannelID(v/s.vcs), v%s.vcs)
		if r >= 0 {
			c1[v], key[v] = true, r
			order = append(order, int32(v))
		}
	}
	slices.SortStableFunc(order, func(a, b int32) int { return cmp.Compare(key[a], key[b]) })
	return c1, order
}

// sortByDistance fills du.sorted with the indices 0..len(at)-1 ordered by the distance
// of node at[i] to dst, farthest first (counting sort): a topological order of the
// state graph toward dst for minimal relations.
func (du *duatoState) sortByDistance(s *searcher, at func(i int) topology.NodeID, n int, dst topology.NodeID) {
	maxd := 0
	du.dist = du.dist[:0]
	for i := 0; i < n; i++ {
		dd := s.distance(at(i), dst)
		maxd = max(maxd, dd)
		du.dist = append(du.dist, int32(dd))
	}
	du.count = append(du.count[:0], make([]int32, maxd+2)...)
	for _, dd := range du.dist {
		du.count[maxd-int(dd)+1]++
	}
	for k := 1; k < len(du.count); k++ {
		du.count[k] += du.count[k-1]
	}
	du.sorted = append(du.sorted[:0], make([]int32, n)...)
	for i, dd := range du.dist {
		k := maxd - int(dd)
		du.sorted[du.count[k]] = int32(i)
		du.count[k]++
	}
}

// propagate checks the states reached toward dst (the searcher's last search) against
// the candidate order: it carries, along the state graph, the latest-ranked escape
// vertex a header held last — directly before, through non-escape channels, or holding
// it as an ordinary channel — and records a dependency wherever a header is offered an
// escape vertex ranked no later than that one. Each recorded dependency is real. Sweeps
// repeat until no value changes (one suffices for minimal relations).
func (du *duatoState) propagate(s *searcher, dst topology.NodeID) {
	if s.positional {
		du.sortByDistance(s, func(i int) topology.NodeID { return s.stateNode(s.order[i]) }, len(s.order), dst)
		for changed := true; changed; {
			changed = false
			du.sweep++
			for _, i := range du.sorted {
				st := s.order[i]
				du.pdone[st] = du.sweep
				nu := int32(-1)
				if du.mgen[st] == s.gen {
					nu = du.mval[st]
				}
				for _, a := range s.arcs[s.first[i]:s.first[i+1]] {
					if a.esc && nu >= 0 && nu >= du.rank[a.vtx] {
						if du.e.add(du.inv[nu], a.vtx, s.rep[st], int32(dst)) {
							du.added++
						}
					}
					own := nu
					if du.isC1[a.vtx] {
						own = du.rank[a.vtx]
					}
					if own >= 0 && (du.mgen[a.to] != s.gen || du.mval[a.to] < own) {
						du.mgen[a.to], du.mval[a.to] = s.gen, own
						if du.pdone[a.to] == du.sweep {
							changed = true
						}
					}
				}
			}
		}
		return
	}
	du.sortByDistance(s, func(i int) topology.NodeID { return s.chTo[int(s.order[i])/s.classes/s.vcs] }, len(s.order), dst)
	for changed := true; changed; {
		changed = false
		du.sweep++
		for _, i := range du.sorted {
			st := s.order[i]
			du.pdone[st] = du.sweep
			own := int32(-1)
			if du.mgen[st] == s.gen {
				own = du.mval[st]
			}
			if v := int(st) / s.classes; du.isC1[v] {
				own = du.rank[v]
			}
			if own < 0 {
				continue
			}
			for _, a := range s.arcs[s.first[i]:s.first[i+1]] {
				if a.esc && own >= du.rank[a.vtx] {
					if du.e.add(du.inv[own], a.vtx, s.rep[st], int32(dst)) {
						du.added++
					}
				}
				if du.mgen[a.to] != s.gen || du.mval[a.to] < own {
					du.mgen[a.to], du.mval[a.to] = s.gen, own
					if du.pdone[a.to] == du.sweep {
						changed = true
					}
				}
			}
		}
	}
}

// refine runs the refinement passes of Duato's check after the first sweep: while the
// last pass recorded dependencies, it orders the escape vertices topologically by every
// dependency recorded so far (a cycle there is a real cycle of the extended graph, the
// verdict) and checks every destination again.
func (du *duatoState) refine(s *searcher, d *Duato, maxPasses, workers int) error {
	nv := len(du.isC1)
	for {
		d.Edges = len(du.e.from)
		if du.added == 0 {
			d.Acyclic, d.Decided = true, true
			return nil
		}
		if d.Refinements >= maxPasses {
			return nil
		}
		adj := make([][]int32, nv)
		for k := range du.e.from {
			adj[du.e.from[k]] = append(adj[du.e.from[k]], du.e.to[k])
		}
		next, ok := topoOrder(adj, du.isC1, du.rank)
		if !ok {
			cyc := shortestCycle(adj)
			d.Decided = true
			for k, v := range cyc {
				w := cyc[(k+1)%len(cyc)]
				at := du.e.index[uint64(uint32(v))<<32|uint64(uint32(w))]
				dep, err := s.explain(v, w, topology.NodeID(du.e.dst[at]), du.isC1)
				if err != nil {
					return err
				}
				d.Cycle = append(d.Cycle, dep)
			}
			return nil
		}
		du.setOrder(next)
		du.added = 0
		d.Refinements++
		if _, err := sweep(s.ctx, s.rel, workers, false, false, du); err != nil {
			return err
		}
	}
}

// fork returns a duatoState for one goroutine of a sweep with searcher s: it shares
// the escape set and the order (read only during the sweep) and records its extended
// dependencies apart, for absorb.
func (du *duatoState) fork(s *searcher) *duatoState {
	w := newDuatoState(s)
	w.isC1, w.rank, w.inv = du.isC1, du.rank, du.inv
	return w
}

// absorb adds the extended dependencies w recorded, in the order w found them, counting
// the new ones as propagate would have.
func (du *duatoState) absorb(w *duatoState) {
	for k := range w.e.from {
		if du.e.add(w.e.from[k], w.e.to[k], w.e.src[k], w.e.dst[k]) {
			du.added++
		}
	}
}

// explain finds a header toward dst that holds escape vertex a and, through non-escape
// channels only, is offered escape vertex b: the dependency a -> b of the extended graph
// with the channels between.
func (s *searcher) explain(a, b int32, dst topology.NodeID, esc []bool) (Dep, error) {
	dep := Dep{From: s.vertex(a), To: s.vertex(b), Dst: dst, Src: -1}
	if err := s.search(dst); err != nil {
		return dep, err
	}
	// The search walks states of the searcher's kind; for a positional search the
	// state after taking a is a node state, reached by an arc with vtx == a.
	var succ func(st int32) []arc
	pos := map[int32]int{} // state -> search position (lookup only)
	parent := map[int32]int32{}
	via := map[int32]int32{} // positional: the vertex taken into the state
	var queue []int32
	if s.positional {
		for i := range s.order {
			for _, ar := range s.arcs[s.first[i]:s.first[i+1]] {
				if ar.vtx == a {
					if _, seen := parent[ar.to]; !seen {
						parent[ar.to], via[ar.to] = -1, a
						queue = append(queue, ar.to)
					}
				}
			}
		}
		succ = s.arcsOf
	} else {
		for i, st := range s.order {
			pos[st] = i
			if int(st)/s.classes == int(a) {
				parent[st] = -1
				queue = append(queue, st)
			}
		}
		succ = func(st int32) []arc {
			i := pos[st]
			return s.arcs[s.first[i]:s.first[i+1]]
		}
	}
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		for _, ar := range succ(st) {
			if ar.esc && ar.vtx == b {
				root := st
				for u := st; parent[u] >= 0; u = parent[u] {
					if s.positional {
						dep.Via = append(dep.Via, s.vertex(via[u]))
					} else {
						dep.Via = append(dep.Via, s.vertex(int32(int(u)/s.classes)))
					}
					root = parent[u]
				}
				slices.Reverse(dep.Via)
				dep.Src = topology.NodeID(s.rep[root])
				return dep, nil
			}
			if esc[ar.vtx] {
				continue
			}
			if _, seen := parent[ar.to]; !seen {
				parent[ar.to], via[ar.to] = st, ar.vtx
				queue = append(queue, ar.to)
			}
		}
	}
	return dep, nil
}

// topoOrder returns the vertices with keep[v] in a topological order of adj, breaking
// ties by the smaller prior rank (so a refinement moves as little as it must), and
// whether every kept vertex was ordered (false: adj has a cycle; the vertices left are
// appended by rank). Cost O((V + E) log V).
func topoOrder(adj [][]int32, keep []bool, prior []int32) ([]int32, bool) {
	n := len(adj)
	indeg := make([]int32, n)
	for v := range adj {
		for _, w := range adj[v] {
			indeg[w]++
		}
	}
	h := &rankHeap{rank: prior}
	for v := 0; v < n; v++ {
		if keep[v] && indeg[v] == 0 {
			h.items = append(h.items, int32(v))
		}
	}
	heap.Init(h)
	var order []int32
	placed := make([]bool, n)
	for h.Len() > 0 {
		v := heap.Pop(h).(int32)
		placed[v] = true
		order = append(order, v)
		for _, w := range adj[v] {
			indeg[w]--
			if indeg[w] == 0 && keep[w] {
				heap.Push(h, w)
			}
		}
	}
	complete := true
	var rest []int32
	for v := 0; v < n; v++ {
		if keep[v] && !placed[v] {
			complete = false
			rest = append(rest, int32(v))
		}
	}
	slices.SortFunc(rest, func(a, b int32) int { return int(prior[a]) - int(prior[b]) })
	return append(order, rest...), complete
}

type rankHeap struct {
	items []int32
	rank  []int32
}

func (h *rankHeap) Len() int           { return len(h.items) }
func (h *rankHeap) Less(i, j int) bool { return h.rank[h.items[i]] < h.rank[h.items[j]] }
func (h *rankHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *rankHeap) Push(x any)         { h.items = append(h.items, x.(int32)) }
func (h *rankHeap) Pop() any {
	x := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return x
}
