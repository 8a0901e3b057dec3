package decide

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/cdg"
)

// A naive twin of the exact decision, written from the definition of a deadlock
// configuration in docs/semantics.md and sharing no code with space.go or find.go: it
// lists every worm a configuration may contain (a source, a destination and a held
// path whose first vertex the header reaches from the source along permitted hops),
// then searches sets of worms with disjoint held vertices in which every output every
// header is permitted is held. It is exponential and meant for networks of at most
// naiveMaxVertices (channel, VC) vertices.

// naiveMaxVertices is the largest vertex count the naive twin takes (its sets are bits).
const naiveMaxVertices = 128

// vset is a set of vertices (channel*VCs + VC), as bits.
type vset [2]uint64

func (s vset) has(v int) bool { return s[v>>6]&(1<<(v&63)) != 0 }

func (s *vset) add(v int) { s[v>>6] |= 1 << (v & 63) }

func (s vset) or(t vset) vset { return vset{s[0] | t[0], s[1] | t[1]} }

func (s vset) andNot(t vset) vset { return vset{s[0] &^ t[0], s[1] &^ t[1]} }

func (s vset) meets(t vset) bool { return s[0]&t[0] != 0 || s[1]&t[1] != 0 }

func (s vset) empty() bool { return s[0] == 0 && s[1] == 0 }

func (s vset) count() int { return bits.OnesCount64(s[0]) + bits.OnesCount64(s[1]) }

// lowest is the least vertex of a non-empty set (128 for the empty one).
func (s vset) lowest() int {
	if s[0] != 0 {
		return bits.TrailingZeros64(s[0])
	}
	return 64 + bits.TrailingZeros64(s[1])
}

// naiveWorm is one worm a configuration may contain: its source and destination, the
// vertices it holds (tail first), and the outputs its header is permitted.
type naiveWorm struct {
	src, dst     topology.NodeID
	path         []int
	mis          int // misroutes of the header as it entered path[0]
	holds, needs vset
	low          int // holds.lowest()
}

// naiveOrder says which minimum the naive search looks for.
type naiveOrder int

const (
	fewestWorms    naiveOrder = iota // fewest worms, then fewest channels
	fewestChannels                   // fewest channels, then fewest worms
)

// naiveResult is the naive twin's answer on one relation.
type naiveResult struct {
	// Skipped says why the twin did not decide (too many vertices or worms, or its node
	// bound); the other fields are then meaningless.
	Skipped string
	// Found is true when a configuration exists; Best is a minimum in the order asked
	// for (a stranded source: one worm, no vertices, no path).
	Found bool
	Best  []naiveWorm
	// Worms counts the distinct candidate worms; Nodes the search nodes.
	Worms int
	Nodes int64
}

// size returns the worms and channels of the best configuration.
func (r *naiveResult) size() (worms, channels int) {
	for _, w := range r.Best {
		channels += len(w.path)
	}
	return len(r.Best), channels
}

// naiveDecide decides rel naively, with at most maxWorms candidate worms and maxNodes
// search nodes (beyond either it is skipped, never a verdict).
func naiveDecide(rel routing.Relation, order naiveOrder, maxWorms int, maxNodes int64) *naiveResult {
	g := rel.Grid()
	vcs := rel.VCs()
	nv := g.Channels() * vcs
	if nv > naiveMaxVertices {
		return &naiveResult{Skipped: fmt.Sprintf("%d vertices", nv)}
	}
	hw := newHeaderWalk(rel)
	res := &naiveResult{}
	seen := map[[2]vset]bool{}
	var worms []naiveWorm
	for s := topology.NodeID(0); int(s) < g.Nodes(); s++ {
		for d := topology.NodeID(0); int(d) < g.Nodes(); d++ {
			if s == d || !g.Endpoint(s) || !g.Endpoint(d) {
				continue
			}
			first, next, reached := hw.reach(s, d)
			if len(first) == 0 {
				// A header its source cannot inject: one worm holding nothing.
				res.Found, res.Best = true, []naiveWorm{{src: s, dst: d, low: naiveMaxVertices}}
				return res
			}
			// Every simple path (distinct vertices) along permitted hops from a reached
			// header state, none into d, is the held part of a worm (the route before
			// it reaches its first state).
			var path []int
			var holds vset
			var root hstate
			simple := hw.simpleRoutes(first, next, d)
			var walk func(st hstate, m0 int) bool
			walk = func(st hstate, m0 int) bool {
				v := st.v
				path = append(path, v)
				holds.add(v)
				defer func() { path = path[:len(path)-1]; holds[v>>6] &^= 1 << (v & 63) }()
				var needs vset
				for _, o := range next[st] {
					needs.add(o.v)
				}
				// A worm that cannot be stuck on any route (its route repeats a vertex
				// within its held length) is no worm of a deadlock.
				if key := [2]vset{holds, needs}; !seen[key] && (simple || hw.stuckable(first, next, d, root, path)) {
					seen[key] = true
					worms = append(worms, naiveWorm{src: s, dst: d, path: slices.Clone(path), mis: m0, holds: holds, needs: needs, low: holds.lowest()})
					if len(worms) > maxWorms {
						return false
					}
				}
				for _, o := range next[st] {
					if hw.to(o.v) != d && !holds.has(o.v) && !walk(o, m0) {
						return false
					}
				}
				return true
			}
			for _, st := range reached {
				root = st
				if !walk(st, st.m) {
					return &naiveResult{Skipped: fmt.Sprintf("more than %d candidate worms", maxWorms)}
				}
			}
		}
	}
	res.Worms = len(worms)
	byVertex := make([][]int, nv)
	for i, w := range worms {
		for _, v := range w.path {
			byVertex[v] = append(byVertex[v], i)
		}
	}
	const inf = 1 << 30
	bestK, bestC := inf, inf
	var best, chosen []int
	// better reports whether (k, c) comes before the best in the order.
	better := func(k, c int) bool {
		if order == fewestWorms {
			return k < bestK || k == bestK && c < bestC
		}
		return c < bestC || c == bestC && k < bestK
	}
	stopped := false
	// grow adds worms until every need is held. A configuration S whose least held
	// vertex is minV and that contains the chosen worms holds the least need u not yet
	// held with exactly one of its other worms, disjoint from the chosen ones and holding
	// nothing below minV: branching over such worms reaches a subset of S that is a
	// configuration, with no more worms or channels than S.
	var grow func(held, needs vset, c, minV int)
	grow = func(held, needs vset, c, minV int) {
		res.Nodes++
		if res.Nodes > maxNodes {
			stopped = true
			return
		}
		k := len(chosen)
		open := needs.andNot(held)
		if open.empty() {
			if better(k, c) {
				bestK, bestC, best = k, c, slices.Clone(chosen)
			}
			return
		}
		if !better(k+1, c+1) {
			return // one more worm of one more channel at least
		}
		u := open.lowest()
		if u < minV {
			return
		}
		for _, i := range byVertex[u] {
			w := &worms[i]
			if w.low <= minV || w.holds.meets(held) || !better(k+1, c+len(w.path)) {
				continue
			}
			chosen = append(chosen, i)
			grow(held.or(w.holds), needs.or(w.needs), c+len(w.path), minV)
			chosen = chosen[:k]
			if stopped {
				return
			}
		}
	}
	for i := range worms {
		w := &worms[i]
		if !better(1, len(w.path)) {
			continue
		}
		chosen = append(chosen[:0], i)
		grow(w.holds, w.needs, len(w.path), w.low)
		if stopped {
			return &naiveResult{Skipped: fmt.Sprintf("more than %d search nodes", maxNodes), Worms: len(worms), Nodes: res.Nodes}
		}
	}
	if best != nil {
		res.Found = true
		for _, i := range best {
			res.Best = append(res.Best, worms[i])
		}
	}
	return res
}

// simpleRoutes reports whether no route from the source toward d can visit a vertex
// twice: the vertices of the header states and their successors form no cycle.
func (hw *headerWalk) simpleRoutes(first []hstate, next map[hstate][]hstate, d topology.NodeID) bool {
	succ := map[int][]int{}
	for st, ns := range next {
		for _, n := range ns {
			if hw.to(n.v) != d {
				succ[st.v] = append(succ[st.v], n.v)
			}
		}
	}
	const (
		white = iota
		grey
		black
	)
	color := map[int]int{}
	var cyclic func(v int) bool
	cyclic = func(v int) bool {
		color[v] = grey
		for _, w := range succ[v] {
			if color[w] == grey || color[w] == white && cyclic(w) {
				return true
			}
		}
		color[v] = black
		return false
	}
	for v := range succ {
		if color[v] == white && cyclic(v) {
			return false
		}
	}
	return true
}

// stuckable reports whether a route from the source toward d reaches state root and
// then follows path (the held path, root's vertex first) with any two visits of a
// vertex at least len(path)+1 hops apart: breadth first backward from root over
// (state, the next len(path) vertices) pairs, until a state the source's header enters
// first. Past naiveGapPairs pairs it gives up and says yes.
func (hw *headerWalk) stuckable(first []hstate, next map[hstate][]hstate, d topology.NodeID, root hstate, path []int) bool {
	h := len(path)
	prev := map[hstate][]hstate{}
	for st, ns := range next {
		for _, n := range ns {
			if hw.to(n.v) != d {
				prev[n] = append(prev[n], st)
			}
		}
	}
	type node struct {
		st    hstate
		ahead []int // the h vertices from st's on
	}
	seen := map[string]bool{}
	queue := []node{{root, slices.Clone(path)}}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		if slices.Contains(first, n.st) {
			return true
		}
		if len(seen) > naiveGapPairs {
			return true
		}
		for _, p := range prev[n.st] {
			if slices.Contains(n.ahead, p.v) {
				continue // a repeat within h hops
			}
			ahead := append([]int{p.v}, n.ahead[:h-1]...)
			if k := fmt.Sprint(p, ahead); !seen[k] {
				seen[k] = true
				queue = append(queue, node{p, ahead})
			}
		}
	}
	return false
}

// naiveGapPairs bounds stuckable's (state, window) pairs.
const naiveGapPairs = 1 << 16

// hstate is a header state as the flit model sees it: the header has just entered
// vertex v (channel*VCs + VC) and has taken m misroutes (counted for a
// routing.Budgeted relation of budget at least one, saturating at the budget, as the
// flit model counts them; 0 otherwise).
type hstate struct{ v, m int }

// headerWalk follows headers of a relation from state to state.
type headerWalk struct {
	rel    routing.Relation
	g      *topology.Network
	vcs    int
	budget int
}

func newHeaderWalk(rel routing.Relation) *headerWalk {
	hw := &headerWalk{rel: rel, g: rel.Grid(), vcs: rel.VCs()}
	if b, ok := rel.(routing.Budgeted); ok {
		hw.budget = b.MisrouteBudget()
	}
	return hw
}

// to is the router vertex v enters.
func (hw *headerWalk) to(v int) topology.NodeID {
	return hw.g.Channel(topology.ChannelID(v / hw.vcs)).To
}

// next returns the states the outputs of h lead to (h has taken m misroutes).
func (hw *headerWalk) next(h routing.Header) []hstate {
	var out []hstate
	for _, o := range hw.rel.Route(h, nil) {
		m := h.Misroutes
		if o.Misroute && m < hw.budget {
			m++
		}
		out = append(out, hstate{v: int(o.Channel)*hw.vcs + o.VC, m: m})
	}
	return out
}

// header is the header of a worm from s to d in state st.
func (hw *headerWalk) header(st hstate, s, d topology.NodeID) routing.Header {
	return routing.Header{At: hw.to(st.v), In: routing.Input{Channel: topology.ChannelID(st.v / hw.vcs), VC: st.v % hw.vcs}, Src: s, Dst: d, Misroutes: st.m}
}

// reach returns the states of the outputs of a header at s toward d, the successors of
// every state its header reaches (none entering d, where it is delivered), and those
// states in breadth-first order.
func (hw *headerWalk) reach(s, d topology.NodeID) (first []hstate, next map[hstate][]hstate, order []hstate) {
	first = hw.next(routing.Header{At: s, In: routing.Input{Channel: routing.Injection}, Src: s, Dst: d})
	next = map[hstate][]hstate{}
	queue := slices.Clone(first)
	for len(queue) > 0 {
		st := queue[0]
		queue = queue[1:]
		if _, ok := next[st]; ok || hw.to(st.v) == d {
			continue
		}
		next[st] = hw.next(hw.header(st, s, d))
		order = append(order, st)
		queue = append(queue, next[st]...)
	}
	return first, next, order
}

// naiveCheck checks configuration c against the definition, with rel itself: some
// worm; every route a legal route from its worm's source (each hop permitted to the
// header that takes it, the header never at its destination on the way or at the end);
// a worm with an empty route (which holds nothing) only where its source cannot inject
// it; held suffixes non-empty otherwise and disjoint (within and across worms); no
// route visiting a vertex twice within its worm's held count of hops; Waits
// exactly the outputs of each header; every one of them held; Channels the sum of the
// held counts. The error names the first broken rule.
func naiveCheck(rel routing.Relation, c *Configuration) error {
	if c == nil || len(c.Worms) == 0 {
		return fmt.Errorf("no worms")
	}
	g := rel.Grid()
	budget := 0
	if b, ok := rel.(routing.Budgeted); ok {
		budget = b.MisrouteBudget()
	}
	held := map[cdg.Vertex]int{}
	total := 0
	var permitted [][]cdg.Vertex
	for i, w := range c.Worms {
		if w.Src == w.Dst {
			return fmt.Errorf("worm %d goes from %d to itself", i, w.Src)
		}
		h := routing.Header{At: w.Src, In: routing.Input{Channel: routing.Injection}, Src: w.Src, Dst: w.Dst}
		for j, v := range w.Route {
			outs := rel.Route(h, nil)
			k := slices.IndexFunc(outs, func(o routing.Output) bool { return o.Channel == v.Channel && o.VC == v.VC })
			if k < 0 {
				return fmt.Errorf("worm %d: hop %d to %v is not permitted to its header at %d (in %v) toward %d", i, j, v, h.At, h.In, w.Dst)
			}
			mis := h.Misroutes
			if outs[k].Misroute && mis < budget {
				mis++
			}
			h = routing.Header{At: g.Channel(v.Channel).To, In: routing.Input{Channel: v.Channel, VC: v.VC}, Src: w.Src, Dst: w.Dst, Misroutes: mis}
			if h.At == w.Dst {
				return fmt.Errorf("worm %d: its header reaches its destination after hop %d (it would be delivered)", i, j)
			}
		}
		var outs []cdg.Vertex
		for _, o := range rel.Route(h, nil) {
			outs = append(outs, cdg.Vertex{Channel: o.Channel, VC: o.VC})
		}
		permitted = append(permitted, outs)
		switch {
		case len(w.Route) == 0 && (w.Held != 0 || len(outs) != 0):
			return fmt.Errorf("worm %d has no route, but holds %d or may be injected (%v)", i, w.Held, outs)
		case len(w.Route) > 0 && (w.Held < 1 || w.Held > len(w.Route)):
			return fmt.Errorf("worm %d holds %d of its %d route vertices", i, w.Held, len(w.Route))
		}
		for _, v := range w.HeldVertices() {
			if j, ok := held[v]; ok {
				return fmt.Errorf("worms %d and %d both hold %v", j, i, v)
			}
			held[v] = i
		}
		for p := range w.Route {
			for q := p + 1; q < len(w.Route) && q-p <= w.Held; q++ {
				if w.Route[p] == w.Route[q] {
					return fmt.Errorf("worm %d: its route visits %v at hops %d and %d, closer than the %d channels it holds (no worm is stuck on it)", i, w.Route[p], p, q, w.Held)
				}
			}
		}
		total += w.Held
		a, b := slices.Clone(w.Waits), slices.Clone(outs)
		cmp := func(x, y cdg.Vertex) int { return int(x.Channel)*64 + x.VC - int(y.Channel)*64 - y.VC }
		slices.SortFunc(a, cmp)
		slices.SortFunc(b, cmp)
		if !slices.Equal(a, b) {
			return fmt.Errorf("worm %d waits for %v, but its header is permitted %v", i, w.Waits, outs)
		}
	}
	for i, outs := range permitted {
		for _, v := range outs {
			if _, ok := held[v]; !ok {
				return fmt.Errorf("worm %d is permitted %v, which no worm holds", i, v)
			}
		}
	}
	if total != c.Channels {
		return fmt.Errorf("the worms hold %d vertices, the configuration says %d", total, c.Channels)
	}
	return nil
}

// naiveConfiguration turns the naive twin's worms into a Configuration (routes from the
// sources found by a breadth-first search of the header's states), so that naiveCheck
// and the flit model can judge them too.
func naiveConfiguration(rel routing.Relation, ws []naiveWorm) *Configuration {
	hw := newHeaderWalk(rel)
	vx := func(v int) cdg.Vertex { return cdg.Vertex{Channel: topology.ChannelID(v / hw.vcs), VC: v % hw.vcs} }
	c := &Configuration{}
	for _, w := range ws {
		cw := ConfWorm{Src: w.src, Dst: w.dst, Held: len(w.path)}
		if len(w.path) > 0 {
			// The shortest route prefix to the path's first state.
			target := hstate{v: w.path[0], m: w.mis}
			first, next, order := hw.reach(w.src, w.dst)
			parent := map[hstate]hstate{}
			root := hstate{v: -1}
			for _, st := range first {
				if _, ok := parent[st]; !ok {
					parent[st] = root
				}
			}
			for _, st := range order {
				for _, o := range next[st] {
					if _, ok := parent[o]; !ok {
						parent[o] = st
					}
				}
			}
			var prefix []int
			for st := parent[target]; st != root; st = parent[st] {
				prefix = append(prefix, st.v)
			}
			slices.Reverse(prefix)
			for _, v := range append(prefix, w.path...) {
				cw.Route = append(cw.Route, vx(v))
			}
		}
		for v := range naiveMaxVertices {
			if w.needs.has(v) {
				cw.Waits = append(cw.Waits, vx(v))
			}
		}
		c.Worms = append(c.Worms, cw)
		c.Channels += len(w.path)
	}
	return c
}

// strands reports whether some header of rel is offered nothing at its source (atSource:
// a one-worm configuration holding nothing) and whether some header that has left its
// source is (deadEnd: a one-worm configuration holding the vertex it is in), by a
// breadth-first search of the header states each (source, destination) reaches.
func strands(rel routing.Relation) (atSource, deadEnd bool) {
	hw := newHeaderWalk(rel)
	g := hw.g
	for s := topology.NodeID(0); int(s) < g.Nodes(); s++ {
		for d := topology.NodeID(0); int(d) < g.Nodes(); d++ {
			if s == d || !g.Endpoint(s) || !g.Endpoint(d) {
				continue
			}
			first, next, order := hw.reach(s, d)
			atSource = atSource || len(first) == 0
			for _, st := range order {
				deadEnd = deadEnd || len(next[st]) == 0
			}
		}
	}
	return atSource, deadEnd
}
