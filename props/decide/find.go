package decide

import (
	"context"
	"fmt"
	"slices"
)

// The search for a deadlock configuration (decide.go states what one is).
//
// A configuration is built worm by worm. A worm is a path of vertices, tail first,
// with the header states that can occupy them: sets[i] is the set of states at
// path[i] from which the path leads, along arcs, to a header state of the worm's
// output group (the states at the header vertex offered exactly the outputs outs).
// Working with sets of states rather than single states makes the branching that of
// vertex paths and output sets, not of destinations and sources.
//
// The search starts from a seed, a header alone, and then covers obligations: every
// output of every header must be held. The first uncovered output o is covered in one
// of two ways: an existing worm grows backwards, from its tail to o (its tail moves to
// o), or a new worm starts with its tail at o and runs forward to a header. This is
// complete: take any configuration and cut every worm's tail to its first vertex that
// is an output of some header (or to its header): it is still a configuration, and the
// search, started from the header on the least vertex, reaches it by covering its
// obligations in order — an obligation is held either ahead of a worm's tail (covered
// already), behind it (a backward growth) or by a worm not yet placed (a new worm).
// Every other header lies on a greater vertex than the seed (the symmetry break).
// With automorphisms of the space (symmetry.go) the seeds are the least vertices of
// the orbits only: a configuration whose headers' least orbit is O has a header in O,
// and an automorphism maps it onto one with a header on O's least vertex and every
// header in O or a later orbit, which the search from that seed reaches (headerAllowed).
//
// One run finds a configuration of at most k worms and c channels, or shows there is
// none; Decide orders the runs (fewest worms, then fewest channels). A run prunes by
// what any configuration needs: each seed and each new header only where the worm
// bounds of its outputs (wormBounds) allow k worms; each obligation only when a held
// vertex or a short enough cycle is within the channels left (coverable); a backward
// growth only through the states of its corridor (states between the tail's set and
// the obligation, within the channels left); a new worm's forward walk only while its
// chain bound (chain.go) is within the channels left. It records whether it cut a
// branch for want of channels or of worms, so that Decide knows when more of either
// cannot help.

// wormPart is one worm of a configuration under construction.
type wormPart struct {
	path []int32   // vertices, tail first
	sets [][]int32 // states consistent with the header group, per vertex
	outs []int32   // the header's outputs (vertices), sorted
	// raw: sets before the last are the states reached forward, not yet narrowed to
	// those that lead to the header group (narrowed on first need: most placements are
	// pruned before anything reads them).
	raw bool
	// route, in a configuration found, is a route the worm can be stuck on when its
	// first route is not one (gap.go); nil: the first.
	route *gapRoute
}

// tick counts one search node; false, with stopped set, when the budget is spent or
// (looked at every 64 nodes: a node may cost milliseconds) the context has ended.
func (f *finder) tick() bool {
	f.nodes++
	if f.nodes > f.budget {
		f.stopped = true
		return false
	}
	if f.nodes&63 == 0 {
		if err := stopped(f.ctx); err != nil {
			f.stopped, f.halt = true, err
			return false
		}
	}
	return true
}

// settle narrows w's sets if they are raw.
func (f *finder) settle(w *wormPart) {
	if w.raw {
		w.sets = f.narrow(w.sets[:len(w.sets)-1], w.sets[len(w.sets)-1])
		w.raw = false
	}
}

// finder searches one space for configurations.
type finder struct {
	sp      *space
	alive   []bool // survivors
	header  []bool // header-capable survivors
	occ     []int32
	worms   []*wormPart
	used    int
	kMax    int
	cMax    int
	seedV   int32
	nodes   int64
	budget  int64
	stopped bool // the budget of search nodes was reached, or ctx ended (halt says so)
	// ref asks about every configuration found, unless probing (a probe takes the first
	// it finds, nothing asked); one refused does not end the run, and ref's bound of
	// refusals stops the search.
	ref     *refusals
	probing bool
	// excluded counts the configurations passed over because a worm of theirs has no
	// route it can be stuck on (gap.go).
	excluded int64
	conf     *Configuration // the configuration of found
	ctx      context.Context
	halt     error // the context's stop, when it ended the search
	found    []*wormPart
	mark     []int32 // scratch: stamp per state
	gen      int32
	lasso    []int32      // per vertex: the fewest vertices of a configuration holding it
	bounds   []int32      // per vertex: the fewest worms of a configuration holding it (wormBounds; nil: unknown)
	sym      *symmetry    // the automorphisms of the space (nil: none)
	cb       *cycleBounds // least(k) for the chain bounds (nil: none)
	chainIdx *chainIndex
	chains   []*chainTable // per placed worms: the table of the worm starting then (chain.go)
	active   []*chainTable // the tables of the new worms being walked forward (nil: none)
	// scratch of corridor: distances and stamps per state, and a queue
	distB, stampB, distF, stampF []int32
	cgen                         int32
	cq                           []int32
	// cutC and cutK record that the last run pruned a branch for want of channels
	// (cMax) or of worms (kMax): a run that cut neither way covered every configuration.
	cutC, cutK bool
	adj        [][]int32 // the survivors' graph of vertices (space.lassos)
	seen       []int32   // scratch of reachable: stamp per vertex
	sgen       int32
	queue      []int32
}

func newFinder(sp *space, alive, header []bool, budget int64) *finder {
	return &finder{sp: sp, alive: alive, header: header, occ: make([]int32, sp.vertices()), budget: budget, mark: make([]int32, sp.states())}
}

// run looks for a configuration of at most k worms and c channels; found holds it.
// cutC and cutK say afterwards whether it pruned a branch for want of channels or
// worms.
func (f *finder) run(k, c int) bool {
	f.kMax, f.cMax = k, c
	f.found = nil
	f.cutC, f.cutK = false, false
	sp := f.sp
	for v := int32(0); int(v) < sp.vertices() && !f.stopped; v++ {
		if !f.seedable(v) || f.lasso != nil && f.lasso[v] < 0 {
			continue
		}
		if f.lasso != nil && int(f.lasso[v]) > c {
			f.cutC = true
			continue
		}
		var heads []int32
		for _, st := range sp.at(v) {
			if f.header[st] {
				heads = append(heads, st)
			}
		}
		for _, g := range f.groups(heads) {
			if !f.wormsSuffice(g.outs) {
				continue
			}
			f.seedV = v
			w := &wormPart{path: []int32{v}, sets: [][]int32{g.states}, outs: g.outs}
			f.place(w)
			ok := f.cover()
			f.unplace(w)
			if ok {
				return true
			}
			if f.stopped {
				return false
			}
		}
	}
	return false
}

// seedable reports whether a search starts from vertex v: every vertex without
// symmetry, the least vertex of each orbit with it.
func (f *finder) seedable(v int32) bool {
	return f.sym == nil || f.sym.rep[f.sym.orb[v]] == v
}

// headerAllowed reports whether a header other than the seed's may lie on vertex v
// (free): one on a greater vertex than the seed without symmetry, one in the seed's
// orbit or a later one with it.
func (f *finder) headerAllowed(v int32) bool {
	if f.sym == nil {
		return v > f.seedV
	}
	return f.sym.orb[v] >= f.sym.orb[f.seedV]
}

// wormsSuffice reports whether a header offered outs can be part of a configuration of
// at most kMax worms (its worm bounds, wormBounds); when only more worms would do, it
// records the cut.
func (f *finder) wormsSuffice(outs []int32) bool {
	if f.bounds == nil {
		return true
	}
	need := int32(0)
	for _, o := range outs {
		need = max(need, f.bounds[o])
	}
	switch {
	case need == noBound:
		return false
	case int(need) > f.kMax:
		f.cutK = true
		return false
	}
	return true
}

// group is the header states at one vertex offered one set of outputs.
type group struct {
	outs   []int32
	states []int32
}

// groups splits header states by their output sets (space.outID), in order of first
// appearance.
func (f *finder) groups(heads []int32) []group {
	var out []group
	var ids []int32
	for _, st := range heads {
		id := f.sp.outID[st]
		if i := slices.Index(ids, id); i >= 0 {
			out[i].states = append(out[i].states, st)
			continue
		}
		ids = append(ids, id)
		out = append(out, group{outs: f.sp.outSets[id], states: []int32{st}})
	}
	return out
}

func (f *finder) place(w *wormPart) {
	for _, v := range w.path {
		f.occ[v] = int32(len(f.worms) + 1)
	}
	f.worms = append(f.worms, w)
	f.used += len(w.path)
}

func (f *finder) unplace(w *wormPart) {
	for _, v := range w.path {
		f.occ[v] = 0
	}
	f.worms = f.worms[:len(f.worms)-1]
	f.used -= len(w.path)
}

// obligation returns the first output of a header that no worm holds, how many
// distinct such outputs there are (each needs a channel of its own), and whether each
// can still be covered within left more channels (coverable).
func (f *finder) obligation(left int) (first int32, n int, ok bool) {
	first, ok = -1, true
	var seen [8]int32
	for _, w := range f.worms {
		for _, o := range w.outs {
			if f.occ[o] != 0 || slices.Contains(seen[:min(n, len(seen))], o) {
				continue
			}
			if first < 0 {
				first = o
			}
			if n < len(seen) {
				seen[n] = o
			}
			n++
			ok = ok && f.coverable(o, left)
		}
	}
	return first, n, ok
}

// coverable is a necessary condition for covering vertex o with at most left new
// vertices: the vertices held from o on — the rest of its worm, then an output of its
// header, and so on — are new until the walk meets a vertex already held or closes a
// cycle among new ones; so a held vertex lies at most left hops from o in the
// survivors' graph, or a configuration of lasso[o] <= left vertices starts at o.
// Cost: a breadth-first search of depth left. A failure for want of channels (a cycle
// or a held vertex further on) is recorded as a cut.
func (f *finder) coverable(o int32, left int) bool {
	if f.adj == nil || (f.lasso[o] >= 0 && int(f.lasso[o]) <= left) {
		return true
	}
	if f.seen == nil {
		f.seen = make([]int32, len(f.adj))
	}
	f.sgen++
	f.seen[o] = f.sgen
	f.queue = append(f.queue[:0], o)
	for depth := 1; depth <= left; depth++ {
		end := len(f.queue)
		for _, u := range f.queue {
			for _, w := range f.adj[u] {
				if f.occ[w] > 0 {
					return true
				}
				if f.seen[w] != f.sgen {
					f.seen[w] = f.sgen
					f.queue = append(f.queue, w)
				}
			}
		}
		f.queue = f.queue[end:]
		if len(f.queue) == 0 {
			// No held vertex is reachable; a cycle of lasso[o] vertices may be.
			f.cutC = f.cutC || f.lasso[o] >= 0
			return false
		}
	}
	f.cutC = true // a held vertex may lie further on
	return false
}

// reachesHeld reports whether a held vertex (occ != 0: a worm's, or the new worm's own
// path, v among them) lies within depth hops of v along the survivors' vertex graph.
// The last worm a configuration may start, at v with left vertices to go, needs one
// within left+1: every output of its header is held, or covered by growing a worm
// backwards from its tail, and the vertices before the first held one are new. When
// depth stopped the walk, the cut is recorded. Cost: a breadth-first search of depth
// depth.
func (f *finder) reachesHeld(v int32, depth int) bool {
	if f.adj == nil {
		return true
	}
	if f.seen == nil {
		f.seen = make([]int32, len(f.adj))
	}
	f.sgen++
	f.seen[v] = f.sgen
	f.queue = append(f.queue[:0], v)
	for d := 1; d <= depth && len(f.queue) > 0; d++ {
		end := len(f.queue)
		for _, u := range f.queue[:end] {
			for _, w := range f.adj[u] {
				if f.occ[w] != 0 {
					return true
				}
				if f.seen[w] != f.sgen {
					f.seen[w] = f.sgen
					f.queue = append(f.queue, w)
				}
			}
		}
		f.queue = f.queue[end:]
	}
	if len(f.queue) > 0 {
		f.cutC = true
	}
	return false
}

// cover covers the first uncovered obligation, recursively; true when every
// obligation is covered (f.found then holds the configuration).
func (f *finder) cover() bool {
	if !f.tick() {
		return false
	}
	left := f.cMax - f.used
	o, n, ok := f.obligation(left)
	if n > left {
		f.cutC = true
	}
	if !ok || n > left {
		return false
	}
	if o < 0 {
		found := make([]*wormPart, len(f.worms))
		for i, w := range f.worms {
			f.settle(w)
			found[i] = &wormPart{path: slices.Clone(w.path), sets: slices.Clone(w.sets), outs: w.outs}
			ok, route := f.sp.routeable(found[i])
			if !ok {
				// No route this worm can be stuck on, for any worm length and buffer
				// depth (gap.go): no deadlock; the search goes on.
				f.excluded++
				return false
			}
			found[i].route = route
		}
		conf := f.sp.configuration(found)
		if !f.probing && !f.ref.ask(conf) {
			// Refused (not reached from the empty network), or refused before (a deeper
			// level finds the shallower ones again): the search goes on to the next
			// configuration in its order, up to ref's bound of refusals.
			if err := f.ref.full(); err != nil {
				f.stopped, f.halt = true, err
			}
			return false
		}
		f.found, f.conf = found, conf
		return true
	}
	// An existing worm grows backwards from its tail to o.
	for i := range f.worms {
		// Far from a bound on the channels (Decide's probe), or when the tail's states
		// are reached back from most of the space, the corridor would cost too much at
		// every node: the vertices within reach of o do instead.
		f.settle(f.worms[i])
		var near []uint64
		var nearV []vtxDist
		ok := true
		big := left > maxChainLeft
		if !big {
			near, ok, big = f.corridor(f.worms[i], o, left)
		}
		if big {
			nearV, ok = f.near(o, f.worms[i].path[0], left)
		}
		if !ok {
			continue
		}
		if f.grow(f.worms[i], o, near, nearV, nil, nil, f.worms[i].sets[0], left) {
			return true
		}
		if f.stopped {
			return false
		}
	}
	if len(f.worms) >= f.kMax {
		f.cutK = true
		return false
	}
	// A new worm starts at o.
	var start []int32
	for _, st := range f.sp.at(o) {
		if f.alive[st] {
			start = append(start, st)
		}
	}
	if len(start) == 0 {
		return false
	}
	depth := len(f.worms)
	var t *chainTable
	if f.adj != nil && left <= maxChainLeft {
		t = f.chainTable(depth, left)
		if f.chainNeed(t, start, 0, f.kMax-depth, left) > left {
			f.cutC = true
			return false
		}
	}
	f.active = append(f.active, t)
	f.occ[o] = -1
	ok = f.forward([]int32{o}, [][]int32{start}, left-1)
	f.occ[o] = 0
	f.active = f.active[:len(f.active)-1]
	return ok
}

// grow extends worm w backwards: back lists the vertices added so far (newest last)
// with their sets, tail is the set of states at the current tail end, and the growth
// ends when o is added. left bounds the vertices added; near is the growth's corridor
// (corridor), or nearV the vertices within reach of o (near) when left is too large
// for a corridor.
func (f *finder) grow(w *wormPart, o int32, near []uint64, nearV []vtxDist, back []int32, backSets [][]int32, tail []int32, left int) bool {
	if left <= 0 {
		f.cutC = true
		return false
	}
	if !f.tick() {
		return false
	}
	sp := f.sp
	f.gen++
	var pairs []vtxState
	for _, t := range tail {
		for _, p := range sp.pred[sp.predFirst[t]:sp.predFirst[t+1]] {
			if !f.alive[p] || f.mark[p] == f.gen {
				continue
			}
			f.mark[p] = f.gen
			v := sp.vtx[p]
			if f.occ[v] != 0 {
				continue
			}
			// The growth goes on through p only if a state at o reaches it within the
			// vertices left.
			d := corridorHops(near, p)
			if nearV != nil || near == nil {
				d = hops(nearV, v)
			}
			if d < 0 || int(d) > left-1 {
				f.cutC = f.cutC || d >= 0
				continue
			}
			pairs = append(pairs, vtxState{v, p})
		}
	}
	order, sets := byVertex(pairs)
	for i, v := range order {
		set := sets[i]
		if v != o {
			f.occ[v] = -1
			ok := f.grow(w, o, near, nearV, append(back, v), append(backSets, set), set, left-1)
			f.occ[v] = 0
			if ok || f.stopped {
				return ok
			}
			continue
		}
		// The worm's tail moves back to o: o first, then back in reverse order.
		added := []int32{o}
		sets := [][]int32{set}
		for i := len(back) - 1; i >= 0; i-- {
			added = append(added, back[i])
			sets = append(sets, backSets[i])
		}
		old, oldSets := w.path, w.sets
		idx := int32(slices.Index(f.worms, w) + 1)
		for _, u := range added {
			f.occ[u] = idx
		}
		w.path = append(added, old...)
		w.sets = append(sets, oldSets...)
		f.used += len(added)
		ok := f.cover()
		f.used -= len(added)
		w.path, w.sets = old, oldSets
		for _, u := range added {
			f.occ[u] = 0
		}
		for _, u := range back {
			f.occ[u] = -1
		}
		if ok || f.stopped {
			return ok
		}
	}
	return false
}

// vtxDist is a vertex and its hops from a vertex to be covered.
type vtxDist struct{ v, d int32 }

// near returns the free vertices within left-1 hops of o along the survivors' vertex
// graph (o itself at 0), sorted by vertex, and whether the tail vertex t (held) is within
// left hops: a backward growth from t to o runs through these vertices only. When the
// walk was stopped by left before it reached t, the cut is recorded. Cost: a
// breadth-first search of depth left.
func (f *finder) near(o, t int32, left int) ([]vtxDist, bool) {
	if f.adj == nil {
		return nil, true // no graph: every vertex counts as near (hops returns 0)
	}
	out := []vtxDist{{o, 0}}
	if f.seen == nil {
		f.seen = make([]int32, len(f.adj))
	}
	f.sgen++
	f.seen[o] = f.sgen
	f.queue = append(f.queue[:0], o)
	reached := false
	for depth := int32(1); int(depth) <= left && len(f.queue) > 0; depth++ {
		end := len(f.queue)
		for _, u := range f.queue[:end] {
			for _, w := range f.adj[u] {
				if w == t {
					reached = true
				}
				if f.seen[w] == f.sgen || f.occ[w] != 0 {
					continue
				}
				f.seen[w] = f.sgen
				f.queue = append(f.queue, w)
				if int(depth) <= left-1 {
					out = append(out, vtxDist{w, depth})
				}
			}
		}
		f.queue = f.queue[end:]
	}
	if !reached {
		f.cutC = f.cutC || len(f.queue) > 0
		return nil, false
	}
	slices.SortFunc(out, func(a, b vtxDist) int { return int(a.v - b.v) })
	return out, true
}

// hops returns the hops of v in near (sorted by vertex), or -1 when v is not in it; 0
// for every vertex when near is nil (no graph to measure).
func hops(near []vtxDist, v int32) int32 {
	if near == nil {
		return 0
	}
	i, ok := slices.BinarySearchFunc(near, v, func(a vtxDist, v int32) int { return int(a.v - v) })
	if !ok {
		return -1
	}
	return near[i].d
}

// corridor returns the states a backward growth of worm w from its tail to o may pass
// through, each with the fewest arcs from a state at o to it (state<<32 | arcs, sorted):
// the
// states that reach a state of the tail's set along arcs within left steps, through
// free vertices, and that a state at o reaches, the two distances together at most
// left (vertices may repeat, so this is a relaxation of the growth). False when no
// state at o reaches the tail's set; when left stopped a walk that might have, the cut
// is recorded. Cost: two breadth-first searches of the states within left steps.
func (f *finder) corridor(w *wormPart, o int32, left int) (near []uint64, ok, big bool) {
	sp := f.sp
	if f.distB == nil {
		f.distB, f.stampB = make([]int32, sp.states()), make([]int32, sp.states())
		f.distF, f.stampF = make([]int32, sp.states()), make([]int32, sp.states())
	}
	f.cgen++
	gen := f.cgen
	front := f.cq[:0]
	for _, t := range w.sets[0] {
		f.stampB[t], f.distB[t] = gen, 0
		front = append(front, t)
	}
	var starts []int32
	cut := false
	visited := 0
	for depth := int32(1); len(front) > 0; depth++ {
		if int(depth) > left {
			cut = true
			break
		}
		end := len(front)
		for _, t := range front[:end] {
			for _, p := range sp.pred[sp.predFirst[t]:sp.predFirst[t+1]] {
				if !f.alive[p] || f.stampB[p] == gen || f.occ[sp.vtx[p]] != 0 {
					continue
				}
				f.stampB[p], f.distB[p] = gen, depth
				if visited++; visited > maxCorridor {
					f.cq = front[:0]
					return nil, true, true
				}
				if sp.vtx[p] == o {
					starts = append(starts, p) // the growth ends at o
					continue
				}
				front = append(front, p)
			}
		}
		front = front[end:]
	}
	f.cq = front[:0]
	if len(starts) == 0 {
		f.cutC = f.cutC || cut
		return nil, false, false
	}
	// Forward from the states at o, within the backward cone.
	var out []uint64
	front = append(f.cq[:0], starts...)
	for _, st := range starts {
		f.stampF[st], f.distF[st] = gen, 0
		out = append(out, uint64(st)<<32)
	}
	for depth := int32(1); len(front) > 0; depth++ {
		end := len(front)
		for _, st := range front[:end] {
			to, _ := sp.arcs(st)
			for _, t := range to {
				if t < 0 || f.stampB[t] != gen || f.stampF[t] == gen || f.distB[t]+depth > int32(left) || f.distB[t] == 0 {
					continue
				}
				f.stampF[t], f.distF[t] = gen, depth
				out = append(out, uint64(t)<<32|uint64(depth))
				front = append(front, t)
			}
		}
		front = front[end:]
	}
	f.cq = front[:0]
	slices.Sort(out)
	return out, true, false
}

// maxCorridor bounds the states a corridor's backward search visits; past it (big) the
// growth is bounded by the vertices within reach (near) instead.
const maxCorridor = 1 << 12

// corridorHops returns the hops of state st in a corridor, or -1 when st is not in it.
func corridorHops(near []uint64, st int32) int32 {
	i, _ := slices.BinarySearch(near, uint64(st)<<32)
	if i == len(near) || near[i]>>32 != uint64(st) {
		return -1
	}
	return int32(uint32(near[i]))
}

// forward extends a new worm forward: path and sets so far (the last set the states
// reachable at the last vertex), left the vertices it may still add. At every vertex
// the worm may end, with a header group of the last set.
func (f *finder) forward(path []int32, sets [][]int32, left int) bool {
	if !f.tick() {
		return false
	}
	sp := f.sp
	last := sets[len(sets)-1]
	v := path[len(path)-1]
	if f.headerAllowed(v) {
		var heads []int32
		for _, st := range last {
			if f.header[st] {
				heads = append(heads, st)
			}
		}
		for _, g := range f.groups(heads) {
			if !f.wormsSuffice(g.outs) {
				continue
			}
			ws := make([][]int32, len(sets))
			copy(ws, sets[:len(sets)-1])
			ws[len(sets)-1] = g.states
			w := &wormPart{path: slices.Clone(path), sets: ws, outs: g.outs, raw: len(sets) > 1}
			for _, u := range path {
				f.occ[u] = 0
			}
			f.place(w)
			ok := f.cover()
			f.unplace(w)
			for _, u := range path {
				f.occ[u] = -1
			}
			if ok || f.stopped {
				return ok
			}
		}
	}
	if left <= 0 {
		f.cutC = true
		return false
	}
	if t := f.active[len(f.active)-1]; t != nil {
		if f.chainNeed(t, last, len(path), f.kMax-len(f.worms), left) > left {
			f.cutC = true
			return false
		}
	} else if len(f.worms)+1 >= f.kMax && !f.reachesHeld(v, left+1) {
		return false // the last worm: its header's outputs are held, or grown to
	}
	f.gen++
	var pairs []vtxState
	for _, st := range last {
		to, _ := sp.arcs(st)
		for _, t := range to {
			if t < 0 || !f.alive[t] || f.mark[t] == f.gen {
				continue
			}
			f.mark[t] = f.gen
			if u := sp.vtx[t]; f.occ[u] == 0 {
				pairs = append(pairs, vtxState{u, t})
			}
		}
	}
	order, next := byVertex(pairs)
	for i, u := range order {
		f.occ[u] = -1
		ok := f.forward(append(path, u), append(sets, next[i]), left-1)
		f.occ[u] = 0
		if ok || f.stopped {
			return ok
		}
	}
	return false
}

// narrow filters the forward sets of a worm before its header (sets) to the states
// that lead to heads, the header group; it returns the sets of the whole worm.
func (f *finder) narrow(sets [][]int32, heads []int32) [][]int32 {
	out := make([][]int32, len(sets)+1)
	out[len(sets)] = heads
	for i := len(sets) - 1; i >= 0; i-- {
		f.gen++
		for _, t := range out[i+1] {
			f.mark[t] = f.gen
		}
		for _, st := range sets[i] {
			to, _ := f.sp.arcs(st)
			for _, t := range to {
				if t >= 0 && f.mark[t] == f.gen {
					out[i] = append(out[i], st)
					break
				}
			}
		}
	}
	return out
}

// vtxState is a state and its vertex.
type vtxState struct{ v, st int32 }

// byVertex groups states by vertex: the vertices in increasing order and, for each, its
// states in the order given (one sort of keys vertex<<32|position, one allocation for
// all the states).
func byVertex(pairs []vtxState) ([]int32, [][]int32) {
	keys := make([]uint64, len(pairs))
	for i, p := range pairs {
		keys[i] = uint64(p.v)<<32 | uint64(i)
	}
	slices.Sort(keys)
	var order []int32
	var sets [][]int32
	all := make([]int32, len(pairs))
	for i, k := range keys {
		v := int32(k >> 32)
		all[i] = pairs[uint32(k)].st
		if i == 0 || v != order[len(order)-1] {
			order = append(order, v)
			sets = append(sets, nil)
		}
		start := i - len(sets[len(sets)-1])
		sets[len(sets)-1] = all[start : i+1 : i+1]
	}
	return order, sets
}

// refusals is what the searches of one decision share about the configurations their
// Accept refused: a configuration refused once is refused again without asking (the
// deepening and the sub-spaces of the scout meet it again), and max refusals end the
// decision inconclusive.
type refusals struct {
	accept func(*Configuration) bool // nil: every configuration is accepted
	n, max int
	keys   map[string]bool // Configuration.key of each refused; lookup only
}

// ask reports whether c is accepted: refused before, or refused now by accept, it is
// not (and counted).
func (r *refusals) ask(c *Configuration) bool {
	if r == nil || r.accept == nil {
		return true
	}
	k := c.key()
	if r.keys[k] {
		return false
	}
	if r.accept(c) {
		return true
	}
	if r.keys == nil {
		r.keys = map[string]bool{}
	}
	r.keys[k] = true
	r.n++
	return false
}

// full returns the error that ends a search once the bound of refusals is reached.
func (r *refusals) full() error {
	if r == nil || r.n < r.max {
		return nil
	}
	return fmt.Errorf("%d deadlock configurations were found and the flit model reached none of them from the empty network (the bound is %d)", r.n, r.max)
}
