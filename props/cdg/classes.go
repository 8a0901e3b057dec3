package cdg

import (
	"math/bits"
	"slices"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// The class-based graph: for a relation that keeps routing.DestClassed's promise, the
// outputs of a header at router u toward d, as ports, are a function out(σ) of the
// tuple σ of per-dimension classes of (u, d). A header of such a relation is a node
// state (Positional, one class), so every (u, d) with u != d is reachable (a header
// injected at u), and the CDG has the dependency (c1, a) -> (c2, b), c1 from v into u
// and c2 leaving u, exactly when some destination d, d != u and d != v, has (c1, a) in
// out(σ(v, d)) and (c2, b) in out(σ(u, d)). Since v and u differ only in the
// coordinate of c1's dimension k, the pairs (σ(v, d), σ(u, d)) over all d are the
// product of the classes each other dimension j can show at u's coordinate and the
// pairs of classes dimension k can show at v's and u's: a few dozen combinations per
// channel instead of one per destination. Routers whose dimensions show the same
// classes and pairs (a "signature") get the same port-level dependencies, so each
// signature is routed once.
//
// A relation that reads the source through a source class (odd-even) also promises
// routing.SourceReached: which source classes reach a router depends only on the router
// and its classes, and the class after a hop only on the class before it and the hop.
// Then the dependency (c1, a) -> (c2, b) exists exactly when, for some pair of class
// tuples (σ(v, d), σ(u, d)) and some source class sc reachable at v (ReachedFrom gives
// a source), (c1, a) is in out(σ(v, d), sc) and (c2, b) in out(σ(u, d), sc'), sc' the
// class after crossing c1: the same enumeration with the source classes added, for
// every router (reachability differs at the mesh's borders, so no merging by
// signature). The header states the search would count are summed from how many
// destinations show each tuple at each router, plus the classes headers arrive at
// their destination in.
//
// The search per destination stays the reference: classResult uses the graph when it
// is acyclic, or, for a relation with escape channels, when every reachable header is
// offered an escape output and escapesFollow shows the hint order holds (then the
// result is the one the search would give: all destinations, nodes x (nodes-1) header
// states, the same vertices, edges and witness cycle, and Duato's verdict after one
// pass); otherwise the search decides. TestClassGraphMatchesSearch compares the graphs
// edge for edge and TestClassResultMatchesSearch the verdicts' JSON byte for byte.

// dimClasses is what one dimension shows of the classes: per coordinate x, the classes
// some y gives (with whether a y != x does), and per (x_v, x_u) of neighbouring
// coordinates the pairs of classes one y gives both.
type dimClasses struct {
	k     int
	n     int     // dense classes
	cls   []int32 // cls[x*k+y]: dense class of (x, y)
	rep   []int32 // rep[x*n+c]: a y with class c at x, preferring y != x (-1: none)
	other []bool  // other[x*n+c]: some y != x has class c at x
	count []int32 // count[x*n+c]: how many y have class c at x
	at    [][]int32
	pairs map[int][]pairEntry // x_v*k+x_u -> pairs (lookup only)
}

// pairEntry is one pair of classes (at v, at u) that one coordinate y shows; apart
// is true when a y different from both x_v and x_u shows it, and y is such a y when
// there is one.
type pairEntry struct {
	cv, cu int32
	y      int32
	apart  bool
}

func newDimClasses(dc routing.DestClassed, dim, k int) *dimClasses {
	m := &dimClasses{k: k, cls: make([]int32, k*k), pairs: map[int][]pairEntry{}}
	dense := map[int]int32{} // lookup only
	for x := 0; x < k; x++ {
		for y := 0; y < k; y++ {
			c := dc.DestClass(dim, x, y)
			id, ok := dense[c]
			if !ok {
				id = int32(len(dense))
				dense[c] = id
			}
			m.cls[x*k+y] = id
		}
	}
	m.n = len(dense)
	m.rep = make([]int32, k*m.n)
	m.other = make([]bool, k*m.n)
	m.count = make([]int32, k*m.n)
	m.at = make([][]int32, k)
	for i := range m.rep {
		m.rep[i] = -1
	}
	for x := 0; x < k; x++ {
		for y := 0; y < k; y++ {
			i := x*m.n + int(m.cls[x*k+y])
			if m.rep[i] < 0 {
				m.at[x] = append(m.at[x], m.cls[x*k+y])
			}
			if m.rep[i] < 0 || (y != x && !m.other[i]) {
				m.rep[i] = int32(y)
			}
			m.other[i] = m.other[i] || y != x
			m.count[i]++
		}
	}
	return m
}

// pairsAt returns the pairs of classes (at xv, at xu) one coordinate shows.
func (m *dimClasses) pairsAt(xv, xu int) []pairEntry {
	key := xv*m.k + xu
	if p, ok := m.pairs[key]; ok {
		return p
	}
	var p []pairEntry
	for y := 0; y < m.k; y++ {
		cv, cu := m.cls[xv*m.k+y], m.cls[xu*m.k+y]
		apart := y != xv && y != xu
		found := false
		for i := range p {
			if p[i].cv == cv && p[i].cu == cu {
				if apart && !p[i].apart {
					p[i].apart, p[i].y = true, int32(y)
				}
				found = true
				break
			}
		}
		if !found {
			p = append(p, pairEntry{cv: cv, cu: cu, y: int32(y), apart: apart})
		}
	}
	m.pairs[key] = p
	return p
}

// classRouter routes class tuples once each: out[σ*classes+sc] is the mask of port
// slots (port*vcs + VC) the relation offers a header whose classes are σ and whose
// source class is sc (always 0 without source classes).
type classRouter struct {
	s      *searcher
	sr     routing.SourceReached // nil: no source classes, every (u, d) header is reachable
	dims   []*dimClasses
	radix  []int
	out    []uint64
	esc    []uint64 // esc[σ]: the slots of out[σ] the escape subfunction offers
	done   []bool
	coords []int
	err    bool // a route offered a channel not leaving its router, or nothing
}

// route returns out(σ, sc) for the class tuple index sigma and source class sc,
// routing a header at node at from src toward the destination with coordinates ys
// (whose classes at at are σ; the header's source class is sc).
func (cr *classRouter) route(sigma, sc int, at, src topology.NodeID, ys []int) uint64 {
	sigma = sigma*cr.s.classes + sc
	if cr.done[sigma] {
		return cr.out[sigma]
	}
	s := cr.s
	dst := s.g.Node(ys...)
	h := routing.Header{At: at, In: routing.Input{Channel: routing.Injection}, Src: src, Dst: dst}
	s.buf = s.rel.Route(h, s.buf[:0])
	var m, e uint64
	if len(s.buf) == 0 {
		cr.err = true
	}
	for _, o := range s.buf {
		if s.checkOutput(at, dst, o) != nil || o.Misroute {
			cr.err = true
			continue
		}
		bit := uint64(1) << (int(s.chPort[o.Channel])*s.vcs + o.VC)
		m |= bit
		if s.esc != nil && s.esc.Escape(h, o) {
			e |= bit
		}
	}
	if s.esc != nil && e == 0 {
		cr.err = true // not connected: the search names the header
	}
	cr.out[sigma], cr.esc[sigma], cr.done[sigma] = m, e, true
	return m
}

// classGraph returns the dependency graph of s's relation by classes, or nil when the
// relation does not promise routing.DestClassed, does not fit the method (source
// classes without routing.SourceReached or with escape channels, a misroute budget,
// not positional, port slots beyond
// one word, or more combinations to route than a search per destination costs), or a
// route breaks the relation's contract (then the search reports it).
//
// With force the cost estimate is skipped (tests compare the graphs on small grids,
// where a search per destination is cheaper).
func classGraph(s *searcher, force bool) *recorder {
	rec, _ := classGraphRouter(s, force)
	return rec
}

// classGraphRouter is classGraph that also returns its class router (for Duato's
// check by classes).
func classGraphRouter(s *searcher, force bool) (*recorder, *classRouter) {
	dc, ok := s.rel.(routing.DestClassed)
	if !ok || !s.positional || s.mis != 1 {
		return nil, nil
	}
	sr, _ := s.rel.(routing.SourceReached)
	if s.classes != 1 && (sr == nil || s.sc == nil || s.esc != nil) {
		return nil, nil
	}
	if s.classes == 1 {
		sr = nil
	}
	width := s.ports * s.vcs
	if width > 64 {
		return nil, nil
	}
	g := s.g
	cr := &classRouter{s: s, sr: sr, radix: make([]int, s.dims), coords: make([]int, s.dims)}
	tuples, combos := 1, 1
	for d := 0; d < s.dims; d++ {
		m := newDimClasses(dc, d, s.sizes[d])
		cr.dims = append(cr.dims, m)
		cr.radix[d] = tuples
		tuples *= m.n
		combos *= m.n
		if tuples > 1<<20 {
			return nil, nil
		}
	}
	// The work is about (distinct signatures) x ports x combinations; give up when that
	// is not clearly below one route per (node, destination).
	n := g.Nodes()
	cr.out = make([]uint64, tuples*s.classes)
	cr.esc = make([]uint64, tuples*s.classes)
	cr.done = make([]bool, tuples*s.classes)

	// Signature of coordinate x in dimension d: a dense id of (x's classes, the pairs
	// with each neighbouring coordinate) — here simply x itself unless the classes and
	// pairs equal those of an earlier coordinate.
	sig := make([][]int32, s.dims)
	for d, m := range cr.dims {
		sig[d] = make([]int32, m.k)
		var keys []string
		for x := 0; x < m.k; x++ {
			key := m.signature(x, s.wraps[d])
			id := int32(-1)
			for i, k := range keys {
				if k == key {
					id = int32(i)
					break
				}
			}
			if id < 0 {
				id = int32(len(keys))
				keys = append(keys, key)
			}
			sig[d][x] = id
		}
	}

	// The work is about (distinct signatures) x ports x combinations of classes; give
	// up when that is not clearly below one route per (node, destination).
	sigs := 1
	for d := range sig {
		sigs *= int(slices.Max(sig[d])) + 1
	}
	if sr != nil {
		// Which source classes are reachable depends on the router, not only on its
		// signature (odd-even: the first and last columns): no merging by signature.
		sigs = n
	}
	if !force && int64(sigs)*int64(combos)*int64(s.ports)*int64(s.classes) > int64(n)*int64(n)/4 {
		return nil, nil
	}
	rec := newRecorder(s)
	type nodeDeps struct {
		in   []uint64 // in[port*vcs+a]: out slots a header arriving on (port, a) depends on
		used uint64   // out slots offered to some header here
		esc  uint64   // out slots the escape subfunction offers some header here
	}
	memo := map[string]*nodeDeps{} // node signature -> dependencies (lookup only)
	keyBuf := make([]byte, 0, 4*s.dims)
	for u := topology.NodeID(0); int(u) < n; u++ {
		keyBuf = keyBuf[:0]
		for d := 0; d < s.dims; d++ {
			id := sig[d][s.coord[int(u)*s.dims+d]]
			keyBuf = append(keyBuf, byte(id), byte(id>>8), byte(id>>16), byte(id>>24))
		}
		if sr != nil {
			keyBuf = append(keyBuf[:0], byte(u), byte(u>>8), byte(u>>16), byte(u>>24))
		}
		nd, ok := memo[string(keyBuf)]
		if !ok {
			nd = &nodeDeps{in: make([]uint64, width)}
			cr.nodeDeps(u, nd.in, &nd.used, &nd.esc)
			if cr.err {
				return nil, nil
			}
			memo[string(keyBuf)] = nd
		}
		for p := 0; p < s.ports; p++ {
			for b := 0; b < s.vcs; b++ {
				if nd.used&(1<<(p*s.vcs+b)) != 0 {
					c := g.PortChannel(u, p)
					rec.used[int(c)*s.vcs+b] = true
					rec.escUsed[int(c)*s.vcs+b] = nd.esc&(1<<(p*s.vcs+b)) != 0
				}
			}
		}
		for p := 0; p < s.ports; p++ {
			// The channel into u travelling in port p's direction leaves u's neighbour
			// on the opposite side.
			c1 := s.inChannel(u, p)
			if c1 == topology.None {
				continue
			}
			for a := 0; a < s.vcs; a++ {
				m := nd.in[p*s.vcs+a]
				base := (int(c1)*s.vcs + a) * width
				for ; m != 0; m &= m - 1 {
					slot := base + bits.TrailingZeros64(m)
					rec.edges[slot/64] |= 1 << (slot % 64)
				}
			}
		}
	}
	return rec, cr
}

// inChannel returns the channel entering u that travels in port p's direction (from
// u's neighbour on the opposite side), or topology.None.
func (s *searcher) inChannel(u topology.NodeID, p int) topology.ChannelID {
	dim, dir := p/2, topology.Direction(p%2)
	back, v := s.g.Neighbor(u, dim, 1-dir)
	if back == topology.None {
		return topology.None
	}
	return s.g.ChannelOut(v, dim, dir)
}

// signature describes what coordinate x of the dimension shows: its classes with
// whether a y != x shows them, and the pairs with the coordinates x-1 and x+1 (around
// the ring when the dimension wraps).
func (m *dimClasses) signature(x int, wraps bool) string {
	var b []byte
	for _, c := range m.at[x] {
		o := byte(0)
		if m.other[x*m.n+int(c)] {
			o = 1
		}
		b = append(b, byte(c), o)
	}
	for _, xv := range [2]int{x - 1, x + 1} {
		b = append(b, 0xff)
		if xv < 0 || xv >= m.k {
			if !wraps {
				continue
			}
			xv = (xv + m.k) % m.k
		}
		for _, p := range m.pairsAt(xv, x) {
			a := byte(0)
			if p.apart {
				a = 1
			}
			b = append(b, byte(p.cv), byte(p.cu), a)
		}
	}
	return string(b)
}

// nodeDeps fills in[port*vcs+a] with the out slots at u that a header arriving on
// (port, a) depends on, and used with the out slots u offers some header, by routing
// every combination of classes u and its neighbours show.
func (cr *classRouter) nodeDeps(u topology.NodeID, in []uint64, used, esc *uint64) {
	s := cr.s
	dims := s.dims
	x := make([]int, dims)
	for d := 0; d < dims; d++ {
		x[d] = int(s.coord[int(u)*dims+d])
	}
	ys := make([]int, dims)
	// Used: every class tuple at u shown by a destination other than u.
	var walk func(d, sigma int, other bool)
	walk = func(d, sigma int, other bool) {
		if d == dims {
			if !other {
				return
			}
			for sc := 0; sc < s.classes; sc++ {
				src, ok := cr.reached(u, ys, sc)
				if ok {
					*used |= cr.route(sigma, sc, u, src, ys)
					*esc |= cr.esc[sigma*s.classes+sc]
				}
			}
			return
		}
		m := cr.dims[d]
		for _, c := range m.at[x[d]] {
			i := x[d]*m.n + int(c)
			ys[d] = int(m.rep[i])
			walk(d+1, sigma+int(c)*cr.radix[d], other || m.other[i])
		}
	}
	walk(0, 0, false)
	// Dependencies: for each channel c1 into u from v, every pair of tuples
	// (σ(v, d), σ(u, d)) some d other than u and v shows.
	cr.combos(u, func(c1 topology.ChannelID, v topology.NodeID, sv, su int, ys []int) {
		pv := int(s.chPort[c1])
		for scv := 0; scv < s.classes; scv++ {
			src, ok := cr.reached(v, ys, scv)
			if !ok {
				continue
			}
			offered := cr.route(sv, scv, v, src, ys) >> (pv * s.vcs) & (1<<s.vcs - 1)
			if offered == 0 {
				continue
			}
			for a := 0; a < s.vcs; a++ {
				if offered&(1<<a) == 0 {
					continue
				}
				scu, ok := cr.classAfter(c1, a, src, ys)
				if !ok {
					return
				}
				in[pv*s.vcs+a] |= cr.route(su, scu, u, src, ys)
			}
		}
	})
}

// reached returns a source of a header at at toward the destination with coordinates
// ys (not at) that has source class sc: at itself without source classes, else what
// the relation's routing.SourceReached promise says.
func (cr *classRouter) reached(at topology.NodeID, ys []int, sc int) (topology.NodeID, bool) {
	if cr.sr == nil {
		return at, true
	}
	return cr.sr.ReachedFrom(at, cr.s.g.Node(ys...), sc)
}

// classAfter returns the source class of a header from src toward the destination with
// coordinates ys once it has crossed channel c on virtual channel vc (false, and the
// router marked broken, when the relation names a class it does not have).
func (cr *classRouter) classAfter(c topology.ChannelID, vc int, src topology.NodeID, ys []int) (int, bool) {
	s := cr.s
	if cr.sr == nil {
		return 0, true
	}
	h := routing.Header{At: s.chTo[c], In: routing.Input{Channel: c, VC: vc}, Src: src, Dst: s.g.Node(ys...)}
	sc, err := s.class(h)
	if err != nil {
		cr.err = true
		return 0, false
	}
	return sc, true
}

// states returns the header states the search per destination reaches, summed over
// the destinations: for every router u and class tuple σ at u, the destinations other
// than u that show σ times the source classes reachable there, and for every
// destination the classes in which headers arrive at it. Without source classes that
// is nodes x (nodes-1).
func (cr *classRouter) states() int64 {
	s := cr.s
	n := s.g.Nodes()
	if cr.sr == nil {
		return int64(n) * int64(n-1)
	}
	dims := s.dims
	var total int64
	x := make([]int, dims)
	ys := make([]int, dims)
	for u := topology.NodeID(0); int(u) < n; u++ {
		for d := 0; d < dims; d++ {
			x[d] = int(s.coord[int(u)*dims+d])
		}
		var walk func(d int, count int64, self, other bool)
		walk = func(d int, count int64, self, other bool) {
			if d == dims {
				if self {
					count-- // u itself shows the tuple
				}
				if !other || count == 0 {
					return
				}
				for sc := 0; sc < s.classes; sc++ {
					if _, ok := cr.reached(u, ys, sc); ok {
						total += count
					}
				}
				return
			}
			m := cr.dims[d]
			for _, c := range m.at[x[d]] {
				i := x[d]*m.n + int(c)
				ys[d] = int(m.rep[i])
				walk(d+1, count*int64(m.count[i]), self && m.cls[x[d]*m.k+x[d]] == c, other || m.other[i])
			}
		}
		walk(0, 1, true, false)
	}
	// Headers arriving at their destination: one state per class they arrive in.
	for dst := topology.NodeID(0); int(dst) < n; dst++ {
		for d := 0; d < dims; d++ {
			ys[d] = int(s.coord[int(dst)*dims+d])
		}
		var arrived uint64
		for p := 0; p < s.ports; p++ {
			c1 := s.inChannel(dst, p)
			if c1 == topology.None {
				continue
			}
			v := s.chFrom[c1]
			for sc := 0; sc < s.classes; sc++ {
				src, ok := cr.sr.ReachedFrom(v, dst, sc)
				if !ok {
					continue
				}
				h := routing.Header{At: v, In: routing.Input{Channel: routing.Injection}, Src: src, Dst: dst}
				for _, o := range s.rel.Route(h, nil) {
					if o.Channel != c1 {
						continue
					}
					if a, ok := cr.classAfter(c1, o.VC, src, ys); ok {
						arrived |= 1 << a
					}
				}
			}
		}
		total += int64(bits.OnesCount64(arrived))
	}
	return total
}

// combos calls fn for every channel c1 into u (from v) and every pair of class tuples
// (σv at v, σu at u) that some destination other than u and v shows, with ys the
// coordinates of such a destination.
func (cr *classRouter) combos(u topology.NodeID, fn func(c1 topology.ChannelID, v topology.NodeID, sv, su int, ys []int)) {
	s := cr.s
	dims := s.dims
	x := make([]int, dims)
	for d := 0; d < dims; d++ {
		x[d] = int(s.coord[int(u)*dims+d])
	}
	ys := make([]int, dims)
	for p := 0; p < s.ports; p++ {
		c1 := s.inChannel(u, p)
		if c1 == topology.None {
			continue
		}
		k := p / 2
		v := s.chFrom[c1]
		xv := int(s.coord[int(v)*dims+k])
		var walk func(d, su, sv int, other bool)
		walk = func(d, su, sv int, other bool) {
			if d == dims {
				if other {
					fn(c1, v, sv, su, ys)
				}
				return
			}
			m := cr.dims[d]
			if d == k {
				for _, pe := range m.pairsAt(xv, x[d]) {
					ys[d] = int(pe.y)
					walk(d+1, su+int(pe.cu)*cr.radix[d], sv+int(pe.cv)*cr.radix[d], other || pe.apart)
				}
				return
			}
			for _, c := range m.at[x[d]] {
				i := x[d]*m.n + int(c)
				ys[d] = int(m.rep[i])
				walk(d+1, su+int(c)*cr.radix[d], sv+int(c)*cr.radix[d], other || m.other[i])
			}
		}
		walk(0, 0, 0, false)
	}
}

// escapesFollow decides Duato's first pass by classes for a relation whose escape
// channels the EscapeRank hint names, with levels that coarsen its order
// (routing.EscapeLeveled; rank here is the level, -1 off C1):
// it reports whether every extended dependency follows the order, i.e. no header that
// last held escape vertex e1 (directly, or before non-escape channels, or as an
// ordinary channel) is offered an escape vertex e2 ranked no later. Two local
// conditions imply it, for every arc a from (v, d) into (u, d), u != d:
//
//	(A) a in C1: level(a) < the least level of the escape outputs offered at (u, d);
//	(B) a not in C1: the least escape level offered at (v, d) is at most that at (u, d).
//
// Along any path, after its last C1 arc a into (w, d), the least offered escape level
// does not decrease through the non-C1 arcs that follow (B) and starts above level(a)
// (A), so every escape output offered later has a higher level than a, hence a later
// rank. When they hold the search's
// first pass records no dependency (its Edges is 0, one refinement); when they fail
// the search decides (false).
func (cr *classRouter) escapesFollow(rank []int32, isC1 []bool) bool {
	s := cr.s
	g := s.g
	minEsc := func(at topology.NodeID, esc uint64) int32 {
		best := int32(-1)
		for ; esc != 0; esc &= esc - 1 {
			slot := bits.TrailingZeros64(esc)
			p := slot / s.vcs
			c := g.PortChannel(at, p)
			r := rank[int(c)*s.vcs+slot%s.vcs]
			if r < 0 {
				return -2 // an escape output the hint does not rank
			}
			if best < 0 || r < best {
				best = r
			}
		}
		return best
	}
	ok := true
	for u := topology.NodeID(0); ok && int(u) < g.Nodes(); u++ {
		cr.combos(u, func(c1 topology.ChannelID, v topology.NodeID, sv, su int, ys []int) {
			if !ok {
				return
			}
			pv := int(s.chPort[c1])
			offered := cr.route(sv, 0, v, v, ys) >> (pv * s.vcs) & (1<<s.vcs - 1)
			if offered == 0 {
				return
			}
			cr.route(su, 0, u, u, ys)
			mu := minEsc(u, cr.esc[su])
			if mu < 0 {
				ok = false
				return
			}
			for a := 0; a < s.vcs; a++ {
				if offered&(1<<a) == 0 {
					continue
				}
				vtx := int(c1)*s.vcs + a
				if isC1[vtx] {
					ok = ok && rank[vtx] >= 0 && rank[vtx] < mu
				} else {
					mv := minEsc(v, cr.esc[sv])
					ok = ok && mv >= 0 && mv <= mu
				}
			}
		})
		if cr.err {
			return false
		}
	}
	return ok
}

// firstDest returns the first destination, in node order, toward which a header at
// the node c's From leaves is offered (c, a) and then, at the node c enters, (c2, b):
// the destination the search per destination records for the dependency (its source
// is the node itself: every node state is a header at its source).
func (s *searcher) firstDest(from, to Vertex) (topology.NodeID, bool) {
	v, u := s.chFrom[from.Channel], s.chTo[from.Channel]
	for d := topology.NodeID(0); int(d) < s.g.Nodes(); d++ {
		if d == u || d == v {
			continue
		}
		h := routing.Header{At: v, In: routing.Input{Channel: routing.Injection}, Src: v, Dst: d}
		if !slices.Contains(s.rel.Route(h, nil), routing.Output{Channel: from.Channel, VC: from.VC}) {
			continue
		}
		h = routing.Header{At: u, In: routing.Input{Channel: routing.Injection}, Src: u, Dst: d}
		if slices.Contains(s.rel.Route(h, nil), routing.Output{Channel: to.Channel, VC: to.VC}) {
			return d, true
		}
	}
	return 0, false
}
