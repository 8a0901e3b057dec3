package decide

import (
	"context"
	"slices"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/scc"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/cdg"
)

// space is every reachable header state of a relation, over all destinations at once,
// as one graph for the exact decision: a state is a header holding a (channel, VC)
// vertex toward a destination, with what the relation reads of it (its source class,
// or its source itself for a relation that is not trusted; its misroutes). Headers
// still at their sources hold no vertex and are not states. An arc is one permitted
// output: the vertex it takes and the state it leads to (-1 when that is the
// destination: the worm is then delivered, never blocked).
type space struct {
	ctx context.Context // ends the long loops early (nil: never); Decide then stops
	g   *topology.Network
	vcs int
	vtx []int32 // vertex of each state
	dst []int32
	src []int32 // a source whose header reaches the state
	// cls is the state's class as the searcher numbers it: source class*nmis + misroutes
	// taken (classes of them, nmis misroute counts; sc the source classes, nil: none).
	cls     []int32
	classes int
	nmis    int
	sc      routing.SourceClasser
	// dstFirst: the states toward destination d are dstFirst[d]:dstFirst[d+1].
	dstFirst []int32
	parent   []int32 // the state it was first reached from; -1: from its source
	atDst    []bool  // the header is at its destination (being delivered)
	first    []int32 // arcs of state i are arcTo/arcV[first[i]:first[i+1]]
	arcTo    []int32
	arcV     []int32
	// predFirst/pred: the states with an arc into state i are pred[predFirst[i]:predFirst[i+1]].
	predFirst []int32
	pred      []int32
	// byVtx lists the states at each vertex: byVtx[vtxFirst[v]:vtxFirst[v+1]].
	vtxFirst []int32
	byVtx    []int32
	// stranded is a header at its source that the relation offers nothing (it holds
	// no vertex, so it is no state): a one-worm deadlock of its own.
	stranded *routing.Header
	// outID numbers each state's set of output vertices; outSets[id] is the set, sorted.
	outID   []int32
	outSets [][]int32
}

// buildSpace enumerates the header states of rel toward every destination (or those
// dests holds, nil: all; cdg.ReachableHeadersTo, one breadth-first search per
// destination), up to maxStates states, and indexes them for the search. Cost
// O(states x outputs).
func buildSpace(ctx context.Context, rel routing.Relation, maxStates int64, dests []bool) (*space, error) {
	h, err := cdg.ReachableHeadersTo(ctx, rel, maxStates, dests)
	if err != nil {
		return nil, err
	}
	g := h.Grid
	sp := &space{ctx: ctx, g: g, vcs: h.VCs, classes: h.Classes, nmis: h.Misroutes, sc: h.SourceClasser,
		vtx: h.Vertex, dst: h.Dst, src: h.Src, cls: h.Class, dstFirst: h.DstFirst, parent: h.Parent,
		atDst: h.AtDst, first: h.First, arcTo: h.ArcTo, arcV: h.ArcVertex, stranded: h.Stranded}
	n := len(sp.vtx)
	// Reverse arcs and the states of each vertex, by counting.
	sp.predFirst = make([]int32, n+1)
	for _, t := range sp.arcTo {
		if t >= 0 {
			sp.predFirst[t+1]++
		}
	}
	for i := 0; i < n; i++ {
		sp.predFirst[i+1] += sp.predFirst[i]
	}
	sp.pred = make([]int32, sp.predFirst[n])
	fill := slices.Clone(sp.predFirst[:n])
	for i := 0; i < n; i++ {
		for _, t := range sp.arcTo[sp.first[i]:sp.first[i+1]] {
			if t >= 0 {
				sp.pred[fill[t]] = int32(i)
				fill[t]++
			}
		}
	}
	nv := g.Channels() * sp.vcs
	sp.vtxFirst = make([]int32, nv+1)
	for _, v := range sp.vtx {
		sp.vtxFirst[v+1]++
	}
	for v := 0; v < nv; v++ {
		sp.vtxFirst[v+1] += sp.vtxFirst[v]
	}
	sp.byVtx = make([]int32, n)
	vfill := slices.Clone(sp.vtxFirst[:nv])
	for i, v := range sp.vtx {
		sp.byVtx[vfill[v]] = int32(i)
		vfill[v]++
	}
	if !sp.numberOutputs() {
		return nil, stopped(ctx)
	}
	return sp, nil
}

// numberOutputs numbers the distinct output sets of the states (outID, outSets): the
// search treats header states with the same outputs at the same vertex as one. False
// when the context stopped it.
func (sp *space) numberOutputs() bool {
	ids := map[string]int32{}
	sp.outID = make([]int32, sp.states())
	var key []byte
	var set []int32
	for i := range sp.outID {
		if i%(1<<16) == 0 && stopped(sp.ctx) != nil {
			return false
		}
		_, vs := sp.arcs(int32(i))
		set = append(set[:0], vs...)
		slices.Sort(set)
		key = key[:0]
		for _, v := range set {
			key = append(key, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
		}
		id, ok := ids[string(key)]
		if !ok {
			id = int32(len(sp.outSets))
			ids[string(key)] = id
			sp.outSets = append(sp.outSets, slices.Clone(set))
		}
		sp.outID[i] = id
	}
	return true
}

// misroutes returns the misroutes state i has taken.
func (sp *space) misroutes(i int32) int { return int(sp.cls[i]) % sp.nmis }

// states returns the number of header states.
func (sp *space) states() int { return len(sp.vtx) }

// vertices returns the number of (channel, VC) vertices.
func (sp *space) vertices() int { return len(sp.vtxFirst) - 1 }

// arcs returns the arcs of state i as (successor, vertex) slices.
func (sp *space) arcs(i int32) ([]int32, []int32) {
	return sp.arcTo[sp.first[i]:sp.first[i+1]], sp.arcV[sp.first[i]:sp.first[i+1]]
}

// at returns the states at vertex v.
func (sp *space) at(v int32) []int32 { return sp.byVtx[sp.vtxFirst[v]:sp.vtxFirst[v+1]] }

// survivors computes the greatest set S of states that a deadlock configuration can
// use, and the header-capable ones among them: a state of a configuration is either
// its worm's header, every output of which is a vertex some state of S holds, or a
// body state, whose worm goes on, through a state of S, to such a header. So S is the
// greatest fixed point of "the states of S that reach, along arcs within S, a state
// of S whose outputs all lie on vertices of S"; every configuration's states lie in
// it, and an empty S proves that none exists (an acyclic dependency graph always
// empties it). Cost O(rounds x (states + arcs)).
func (sp *space) survivors() (alive, header []bool) {
	n := sp.states()
	alive = make([]bool, n)
	header = make([]bool, n)
	for i := range alive {
		alive[i] = !sp.atDst[i]
	}
	cnt := make([]int32, sp.vertices())
	var queue []int32
	for stopped(sp.ctx) == nil {
		clear(cnt)
		for i, ok := range alive {
			if ok {
				cnt[sp.vtx[i]]++
			}
		}
		reach := make([]bool, n)
		queue = queue[:0]
		for i := int32(0); int(i) < n; i++ {
			if i%(1<<18) == 0 && stopped(sp.ctx) != nil {
				return alive, header // Decide stops
			}
			header[i] = false
			if !alive[i] {
				continue
			}
			ok := true
			_, vs := sp.arcs(i)
			for _, v := range vs {
				ok = ok && cnt[v] > 0
			}
			if ok {
				header[i], reach[i] = true, true
				queue = append(queue, i)
			}
		}
		for len(queue) > 0 {
			t := queue[len(queue)-1]
			queue = queue[:len(queue)-1]
			for _, p := range sp.pred[sp.predFirst[t]:sp.predFirst[t+1]] {
				if alive[p] && !reach[p] {
					reach[p] = true
					queue = append(queue, p)
				}
			}
		}
		changed := false
		for i := range alive {
			if alive[i] && !reach[i] {
				alive[i], changed = false, true
			}
		}
		if !changed {
			break
		}
	}
	return alive, header
}

// strandedStates returns the states whose header the relation offers no output short
// of its destination (each a one-worm deadlock), shortest route from the source first.
func (sp *space) strandedStates() []int32 {
	var out []int32
	depth := map[int32]int{}
	for i := range sp.states() {
		if !sp.atDst[i] && sp.first[i] == sp.first[i+1] {
			out = append(out, int32(i))
			depth[int32(i)] = len(sp.route(int32(i)))
		}
	}
	slices.SortStableFunc(out, func(a, b int32) int { return depth[a] - depth[b] })
	return out
}

// route returns the vertices a header of state i crossed from its source: its
// parents' vertices, oldest first, then its own.
func (sp *space) route(i int32) []int32 {
	var r []int32
	for ; i >= 0; i = sp.parent[i] {
		r = append(r, sp.vtx[i])
	}
	slices.Reverse(r)
	return r
}

// lassoDepth bounds the breadth-first searches for the shortest cycle through a vertex
// (lassos): a longer one counts as lassoDepth+1, a lower bound.
const lassoDepth = 64

// lassos returns, for every vertex, a lower bound on the vertices of a configuration
// that holds it: from a held vertex, the next vertex of its worm (or an output of its
// header) is held too, so the walk along them goes through distinct held vertices until
// it closes a cycle. lasso[v] is the fewest vertices of such a walk in the graph of the
// survivors' arcs: min(shortest cycle through v, 1 + lasso of a successor), or -1 when
// no cycle is reachable from v (no configuration holds v). It also returns that graph
// (adj[v]: the vertices one hop on). The shortest cycles are searched from the least
// vertex of each orbit of sy (nil: every vertex) and copied along the orbits: an
// automorphism of the space maps the survivors' graph onto itself. Cost O(orbits x (V +
// E)) for the cycles through each vertex.
func (sp *space) lassos(alive []bool, sy *symmetry) ([]int32, [][]int32) {
	nv := sp.vertices()
	live := make([]bool, nv)
	for i, ok := range alive {
		if ok {
			live[sp.vtx[i]] = true
		}
	}
	adj := make([][]int32, nv)
	for i, ok := range alive {
		if i > 0 && i%(1<<16) == 0 && stopped(sp.ctx) != nil {
			return nil, nil // Decide stops
		}
		if !ok {
			continue
		}
		v := sp.vtx[i]
		_, vs := sp.arcs(int32(i))
		for _, w := range vs {
			if live[w] && !slices.Contains(adj[v], w) {
				adj[v] = append(adj[v], w)
			}
		}
	}
	if sy == nil {
		sy = trivialSymmetry(nv)
	}
	// A cycle through v lies in v's strongly connected component: the searches stay in
	// it, and a vertex alone in its component (no loop) is on none.
	comp, _ := scc.Components(nv, nil, func(v int32, i int) (int32, bool) {
		if i < len(adj[v]) {
			return adj[v][i], true
		}
		return 0, false
	})
	single := make([]int32, nv) // vertices per component, counted up to 2
	for v := range nv {
		single[comp[v]] = min(2, single[comp[v]]+1)
	}
	const inf = int32(1 << 30)
	lasso := make([]int32, nv)
	dist := make([]int32, nv)
	stamp := make([]int32, nv) // stamp[w] == v+1: dist[w] is set for the search from v
	var queue []int32
	for v := range lasso {
		lasso[v] = inf
		if v%256 == 0 && stopped(sp.ctx) != nil {
			return nil, nil // Decide stops
		}
		if !live[v] || sy.rep[sy.orb[v]] != int32(v) || single[comp[v]] == 1 && !slices.Contains(adj[v], int32(v)) {
			continue
		}
		// Shortest cycle through v: breadth first from v back to v, within v's
		// component and lassoDepth hops (past them, lassoDepth+1 is a lower bound).
		gen := int32(v + 1)
		stamp[v], dist[v] = gen, 0
		queue = append(queue[:0], int32(v))
		for len(queue) > 0 && lasso[v] == inf {
			u := queue[0]
			queue = queue[1:]
			if dist[u] >= lassoDepth {
				lasso[v] = lassoDepth + 1
				break
			}
			for _, w := range adj[u] {
				if int(w) == v {
					lasso[v] = dist[u] + 1
					break
				}
				if stamp[w] != gen && comp[w] == comp[v] {
					stamp[w], dist[w] = gen, dist[u]+1
					queue = append(queue, w)
				}
			}
		}
	}
	for v := range lasso {
		if live[v] {
			lasso[v] = lasso[sy.rep[sy.orb[v]]]
		}
	}
	// lasso[v] = min(lasso[v], 1 + lasso[w]) over arcs v -> w, to a fixed point.
	for changed := true; changed; {
		if stopped(sp.ctx) != nil {
			return nil, nil
		}
		changed = false
		for v := range adj {
			for _, w := range adj[v] {
				if lasso[w] < inf && lasso[w]+1 < lasso[v] {
					lasso[v], changed = lasso[w]+1, true
				}
			}
		}
	}
	for v := range lasso {
		if lasso[v] == inf {
			lasso[v] = -1
		}
	}
	return lasso, adj
}
