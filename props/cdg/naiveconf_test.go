package cdg

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/routing"
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
	src, dst     model.NodeID
	path         []int
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
	vin := func(v int) routing.Input { return routing.Input{Channel: model.ChannelID(v / vcs), VC: v % vcs} }
	to := func(v int) model.NodeID { return g.Channel(model.ChannelID(v / vcs)).To }
	var buf []routing.Output
	outs := func(h routing.Header) []int {
		buf = rel.Route(h, buf[:0])
		vs := make([]int, len(buf))
		for i, o := range buf {
			vs[i] = int(o.Channel)*vcs + o.VC
		}
		return vs
	}
	res := &naiveResult{}
	seen := map[[2]vset]bool{}
	var worms []naiveWorm
	for s := model.NodeID(0); int(s) < g.Nodes(); s++ {
		for d := model.NodeID(0); int(d) < g.Nodes(); d++ {
			if s == d || !g.Endpoint(s) || !g.Endpoint(d) {
				continue
			}
			first := outs(routing.Header{At: s, In: routing.Input{Channel: routing.Injection}, Src: s, Dst: d})
			if len(first) == 0 {
				// A header its source cannot inject: one worm holding nothing.
				res.Found, res.Best = true, []naiveWorm{{src: s, dst: d, low: naiveMaxVertices}}
				return res
			}
			// next[v]: the outputs of the header that has just entered v (v not into d).
			next := map[int][]int{}
			reached := map[int]bool{}
			queue := slices.Clone(first)
			for len(queue) > 0 {
				v := queue[0]
				queue = queue[1:]
				if reached[v] || to(v) == d {
					continue
				}
				reached[v] = true
				next[v] = outs(routing.Header{At: to(v), In: vin(v), Src: s, Dst: d})
				queue = append(queue, next[v]...)
			}
			starts := make([]int, 0, len(reached))
			for v := range reached {
				starts = append(starts, v)
			}
			slices.Sort(starts)
			// Every simple path along permitted hops from a reached vertex, none into d,
			// is the held part of a worm (the route before it reaches its first vertex).
			var path []int
			var holds vset
			var walk func(v int) bool
			walk = func(v int) bool {
				path = append(path, v)
				holds.add(v)
				defer func() { path = path[:len(path)-1]; holds[v>>6] &^= 1 << (v & 63) }()
				var needs vset
				for _, o := range next[v] {
					needs.add(o)
				}
				if key := [2]vset{holds, needs}; !seen[key] {
					seen[key] = true
					worms = append(worms, naiveWorm{src: s, dst: d, path: slices.Clone(path), holds: holds, needs: needs, low: holds.lowest()})
					if len(worms) > maxWorms {
						return false
					}
				}
				for _, o := range next[v] {
					if to(o) != d && !holds.has(o) && !walk(o) {
						return false
					}
				}
				return true
			}
			for _, v := range starts {
				if !walk(v) {
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

// naiveCheck checks configuration c against the definition, with rel itself: some
// worm; every route a legal route from its worm's source (each hop permitted to the
// header that takes it, the header never at its destination on the way or at the end);
// a worm with an empty route (which holds nothing) only where its source cannot inject
// it; held suffixes non-empty otherwise and disjoint (within and across worms); Waits
// exactly the outputs of each header; every one of them held; Channels the sum of the
// held counts. The error names the first broken rule.
func naiveCheck(rel routing.Relation, c *Configuration) error {
	if c == nil || len(c.Worms) == 0 {
		return fmt.Errorf("no worms")
	}
	g := rel.Grid()
	held := map[Vertex]int{}
	total := 0
	var permitted [][]Vertex
	for i, w := range c.Worms {
		if w.Src == w.Dst {
			return fmt.Errorf("worm %d goes from %d to itself", i, w.Src)
		}
		h := routing.Header{At: w.Src, In: routing.Input{Channel: routing.Injection}, Src: w.Src, Dst: w.Dst}
		for j, v := range w.Route {
			outs := rel.Route(h, nil)
			if !slices.ContainsFunc(outs, func(o routing.Output) bool { return o.Channel == v.Channel && o.VC == v.VC }) {
				return fmt.Errorf("worm %d: hop %d to %v is not permitted to its header at %d (in %v) toward %d", i, j, v, h.At, h.In, w.Dst)
			}
			h = routing.Header{At: g.Channel(v.Channel).To, In: routing.Input{Channel: v.Channel, VC: v.VC}, Src: w.Src, Dst: w.Dst}
			if h.At == w.Dst {
				return fmt.Errorf("worm %d: its header reaches its destination after hop %d (it would be delivered)", i, j)
			}
		}
		var outs []Vertex
		for _, o := range rel.Route(h, nil) {
			outs = append(outs, Vertex{Channel: o.Channel, VC: o.VC})
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
		total += w.Held
		a, b := slices.Clone(w.Waits), slices.Clone(outs)
		cmp := func(x, y Vertex) int { return int(x.Channel)*64 + x.VC - int(y.Channel)*64 - y.VC }
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
// sources found by a breadth-first search of the header's reachable vertices), so that
// naiveCheck and the flit model can judge them too.
func naiveConfiguration(rel routing.Relation, ws []naiveWorm) *Configuration {
	g := rel.Grid()
	vcs := rel.VCs()
	vx := func(v int) Vertex { return Vertex{Channel: model.ChannelID(v / vcs), VC: v % vcs} }
	c := &Configuration{}
	for _, w := range ws {
		cw := ConfWorm{Src: w.src, Dst: w.dst, Held: len(w.path)}
		if len(w.path) > 0 {
			// The shortest route prefix to the path's first vertex.
			parent := map[int]int{}
			var queue []int
			for _, o := range rel.Route(routing.Header{At: w.src, In: routing.Input{Channel: routing.Injection}, Src: w.src, Dst: w.dst}, nil) {
				v := int(o.Channel)*vcs + o.VC
				if _, ok := parent[v]; !ok {
					parent[v] = -1
					queue = append(queue, v)
				}
			}
			for len(queue) > 0 && func() bool { _, ok := parent[w.path[0]]; return !ok }() {
				v := queue[0]
				queue = queue[1:]
				at := g.Channel(model.ChannelID(v / vcs)).To
				if at == w.dst {
					continue
				}
				for _, o := range rel.Route(routing.Header{At: at, In: routing.Input{Channel: model.ChannelID(v / vcs), VC: v % vcs}, Src: w.src, Dst: w.dst}, nil) {
					u := int(o.Channel)*vcs + o.VC
					if _, ok := parent[u]; !ok {
						parent[u] = v
						queue = append(queue, u)
					}
				}
			}
			var prefix []int
			for v := parent[w.path[0]]; v >= 0; v = parent[v] {
				prefix = append(prefix, v)
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
// breadth-first search of the vertices each (source, destination) reaches.
func strands(rel routing.Relation) (atSource, deadEnd bool) {
	g := rel.Grid()
	for s := model.NodeID(0); int(s) < g.Nodes(); s++ {
		for d := model.NodeID(0); int(d) < g.Nodes(); d++ {
			if s == d || !g.Endpoint(s) || !g.Endpoint(d) {
				continue
			}
			seen := map[Vertex]bool{}
			h := routing.Header{At: s, In: routing.Input{Channel: routing.Injection}, Src: s, Dst: d}
			var queue []Vertex
			for _, o := range rel.Route(h, nil) {
				queue = append(queue, Vertex{Channel: o.Channel, VC: o.VC})
			}
			atSource = atSource || len(queue) == 0
			for len(queue) > 0 {
				v := queue[0]
				queue = queue[1:]
				at := g.Channel(v.Channel).To
				if seen[v] || at == d {
					continue
				}
				seen[v] = true
				outs := rel.Route(routing.Header{At: at, In: routing.Input{Channel: v.Channel, VC: v.VC}, Src: s, Dst: d}, nil)
				deadEnd = deadEnd || len(outs) == 0
				for _, o := range outs {
					queue = append(queue, Vertex{Channel: o.Channel, VC: o.VC})
				}
			}
		}
	}
	return atSource, deadEnd
}
