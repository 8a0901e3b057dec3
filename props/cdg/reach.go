package cdg

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// A header state is where a header waits and what of it the relation reads: the
// (channel, VC) it holds, its source class (routing.SourceClasser) and its misroute
// count (routing.Budgeted). Its index is vertex*classes + class, where vertex =
// channel*VCs + VC and class = sourceClass*(budget+1) + misroutes. Headers still at their
// source are the roots of the search and get no index.

// arc is one permitted output of a reachable header state: the state it leads to, the
// (channel, VC) vertex it takes and whether the relation calls it an escape output.
type arc struct {
	to  int32
	vtx int32
	pv  int32 // the vertex's edge slot within a vertex's slots: port*VCs + VC
	esc bool
}

// searcher enumerates, destination by destination, the header states that headers from
// every source can reach under the relation. It owns all scratch memory, so one search
// allocates nothing after the first destination.
type searcher struct {
	ctx     context.Context // nil: never stopped
	rel     routing.Relation
	g       *topology.Network
	esc     routing.Escaping      // nil: no escape subfunction
	sc      routing.SourceClasser // nil: Route does not read Src
	mis     int                   // misroute counts tracked: budget+1, or 1
	vcs     int
	classes int
	ports   int
	coord   []int32 // coord[v*dims+d]
	dims    int
	sizes   []int
	wraps   []bool

	stamp []uint32 // stamp[state] == gen: reached for the current destination
	gen   uint32
	rep   []int32 // a source of a header that reached the state
	order []int32 // reached states, in search order
	first []int32 // arcs of order[i] are arcs[first[i]:first[i+1]]
	arcs  []arc
	buf   []routing.Output

	// positional: the relation does not read In (routing.Positional); search then
	// works on node states (searchNodes).
	positional bool
	posOf      []int32 // node state -> position in order (valid when stamped)

	// rec, if set, receives every arc of every reached state during search.
	rec *recorder
	// chTo, chPort: the node each channel enters and its port (topology.Network.Port) at
	// the node it leaves.
	chTo   []topology.NodeID
	chFrom []topology.NodeID
	chPort []int32
	// stranded is the first reached header, in search order, that the relation gives
	// no output; sourceStranded the first such header at its source (a worm that is
	// never injected), which the exact decision needs even when another was first.
	stranded       *routing.Header
	sourceStranded *routing.Header
	states         int64
	// everyEndpoint: every node sends and receives (topology.Network.Endpoint); otherwise
	// headers start at endpoints only.
	everyEndpoint bool
	// parent, when set, receives the state each reached state was first reached from
	// (-1: from a header at its source), for the routes of exact witnesses.
	parent []int32
}

func newSearcher(rel routing.Relation) (*searcher, error) {
	return newSearcherFor(rel, false)
}

// maxPerSourceStates bounds the header states per destination of a relation searched
// per source (8 bytes each in a searcher's tables, and two searchers run at once).
const maxPerSourceStates = 1 << 24

// perSource is the source classes of a relation whose promises are not trusted: every
// source is its own class, so that no two headers from different sources are merged
// whatever the relation reads.
type perSource int

func (n perSource) SourceClasses() int             { return int(n) }
func (perSource) SourceClass(h routing.Header) int { return int(h.Src) }
func (perSource) everySource()                     {}

// newSearcherFor returns a searcher of rel's header states; with exact set, one that
// keeps a header's input (no node states, whatever routing.Positional says) and, for a
// relation whose promises are not trusted (trusted), one class per source instead of
// the relation's routing.SourceClasser, and that records parents.
func newSearcherFor(rel routing.Relation, exact bool) (*searcher, error) {
	g := rel.Grid()
	if g == nil {
		return nil, fmt.Errorf("routing %q has no topology", rel.Name())
	}
	s := &searcher{rel: rel, g: g, vcs: rel.VCs(), mis: 1, classes: 1, dims: g.Dims(), sizes: g.Sizes()}
	if s.vcs < 1 || s.vcs > 64 {
		return nil, fmt.Errorf("routing %q uses %d virtual channels; it must use 1..64", rel.Name(), s.vcs)
	}
	s.esc, _ = rel.(routing.Escaping)
	if p, ok := rel.(routing.Positional); ok && p.Positional() && !exact {
		s.positional = true
	}
	if sc, ok := rel.(routing.SourceClasser); ok && !(exact && !trusted(rel)) {
		s.sc = sc
		if _, every := sc.(interface{ everySource() }); every {
			s.classes = sc.SourceClasses()
		} else if n := sc.SourceClasses(); n < 1 || n > 64 {
			return nil, fmt.Errorf("routing %q has %d source classes; it must have 1..64", rel.Name(), n)
		}
		s.classes = sc.SourceClasses()
	} else if exact && !trusted(rel) {
		s.sc = perSource(g.Nodes())
		s.classes = g.Nodes()
	}
	if b, ok := rel.(routing.Budgeted); ok {
		n := b.MisrouteBudget()
		if n < 0 || n > routing.MaxMisrouteBudget {
			return nil, fmt.Errorf("routing %q has misroute budget %d; it must be 0..%d", rel.Name(), n, routing.MaxMisrouteBudget)
		}
		s.mis = n + 1
	}
	s.classes *= s.mis
	s.ports = g.Ports()
	s.everyEndpoint = len(g.Endpoints()) == g.Nodes()
	n := int64(g.Channels()) * int64(s.vcs) * int64(s.classes)
	if _, every := s.sc.(interface{ everySource() }); every && n > maxPerSourceStates {
		return nil, fmt.Errorf("routing %q on %s: a relation from outside model/routing is searched with one class per source (its promises are not trusted), %d header states per destination; at most %d are supported (a smaller topology, or a relation of model/routing)", rel.Name(), g.Spec(), n, maxPerSourceStates)
	}
	if n > 1<<28 {
		return nil, fmt.Errorf("routing %q on %s has %d header states per destination; at most %d are supported", rel.Name(), g.Spec(), n, 1<<28)
	}
	if s.positional {
		n = int64(g.Nodes()) * int64(s.classes)
		s.posOf = make([]int32, n)
	}
	s.stamp = make([]uint32, n)
	s.rep = make([]int32, n)
	if exact {
		s.parent = make([]int32, n)
	}
	s.chTo = make([]topology.NodeID, g.Channels())
	s.chFrom = make([]topology.NodeID, g.Channels())
	s.chPort = make([]int32, g.Channels())
	for c := range s.chTo {
		ch := g.Channel(topology.ChannelID(c))
		s.chTo[c], s.chFrom[c], s.chPort[c] = ch.To, ch.From, int32(g.Port(topology.ChannelID(c)))
	}
	s.coord = make([]int32, g.Nodes()*s.dims)
	s.wraps = make([]bool, s.dims)
	for d := range s.wraps {
		s.wraps[d] = g.Wraps(d)
	}
	for v := 0; v < g.Nodes(); v++ {
		for d := 0; d < s.dims; d++ {
			s.coord[v*s.dims+d] = int32(g.Coord(topology.NodeID(v), d))
		}
	}
	return s, nil
}

// vertices is the number of (channel, VC) pairs.
func (s *searcher) vertices() int { return s.g.Channels() * s.vcs }

// header rebuilds the header of state st for destination dst.
func (s *searcher) header(st int32, dst topology.NodeID) routing.Header {
	vtx := int(st) / s.classes
	c := topology.ChannelID(vtx / s.vcs)
	return routing.Header{
		At:        s.chTo[c],
		In:        routing.Input{Channel: c, VC: vtx % s.vcs},
		Src:       topology.NodeID(s.rep[st]),
		Dst:       dst,
		Misroutes: int(st) % s.classes % s.mis,
	}
}

// distance is the minimal hop count from a to b.
func (s *searcher) distance(a, b topology.NodeID) int {
	n := 0
	for d := 0; d < s.dims; d++ {
		x := int(s.coord[int(a)*s.dims+d] - s.coord[int(b)*s.dims+d])
		if x < 0 {
			x = -x
		}
		if s.wraps[d] && 2*x > s.sizes[d] {
			x = s.sizes[d] - x
		}
		n += x
	}
	return n
}

// search finds every header state reachable toward dst from headers injected at every
// other node, breadth first, recording each reached state's arcs. Cost O(reached states
// x outputs) and no allocation once the buffers have grown.
func (s *searcher) search(dst topology.NodeID) error {
	if s.positional {
		return s.searchNodes(dst)
	}
	s.gen++
	if s.gen == 0 { // wrapped: clear once every 2^32 destinations
		clear(s.stamp)
		s.gen = 1
	}
	s.order, s.arcs, s.first = s.order[:0], s.arcs[:0], s.first[:0]
	for src := topology.NodeID(0); int(src) < s.g.Nodes(); src++ {
		if src == dst || !s.g.Endpoint(src) {
			continue
		}
		h := routing.Header{At: src, In: routing.Input{Channel: routing.Injection}, Src: src, Dst: dst}
		if err := s.expand(-1, h); err != nil {
			return err
		}
	}
	for i := 0; i < len(s.order); i++ {
		st := s.order[i]
		s.first = append(s.first, int32(len(s.arcs)))
		h := s.header(st, dst)
		if h.At == dst {
			continue
		}
		if err := s.expand(st, h); err != nil {
			return err
		}
	}
	s.first = append(s.first, int32(len(s.arcs)))
	s.states += int64(len(s.order))
	return nil
}

// expand routes h (held in state from, -1 at its source) and reaches the states of its
// outputs.
func (s *searcher) expand(from int32, h routing.Header) error {
	s.buf = s.rel.Route(h, s.buf[:0])
	if len(s.buf) == 0 {
		s.strand(h)
		return nil
	}
	for _, o := range s.buf {
		if err := s.checkOutput(h.At, h.Dst, o); err != nil {
			return err
		}
		next := routing.Header{At: s.chTo[o.Channel], In: routing.Input{Channel: o.Channel, VC: o.VC}, Src: h.Src, Dst: h.Dst, Misroutes: h.Misroutes}
		if o.Misroute && s.mis > 1 {
			next.Misroutes++
			if next.Misroutes >= s.mis {
				return fmt.Errorf("routing %q misroutes a header at %s toward %s beyond its budget of %d",
					s.rel.Name(), s.g.NodeName(h.At), s.g.NodeName(h.Dst), s.mis-1)
			}
		}
		class := next.Misroutes
		if s.sc != nil {
			sc := s.sc.SourceClass(next)
			if sc < 0 || sc >= s.classes/s.mis {
				return fmt.Errorf("routing %q gives source class %d; it has %d", s.rel.Name(), sc, s.classes/s.mis)
			}
			class += sc * s.mis
		}
		vtx := int32(int(o.Channel)*s.vcs + o.VC)
		to := vtx*int32(s.classes) + int32(class)
		a := arc{to: to, vtx: vtx, pv: s.chPort[o.Channel]*int32(s.vcs) + int32(o.VC), esc: s.esc != nil && s.esc.Escape(h, o)}
		if from >= 0 {
			s.arcs = append(s.arcs, a)
		}
		if s.rec != nil {
			s.rec.record(s, from, &h, o, a)
		}
		if s.stamp[to] != s.gen {
			s.stamp[to] = s.gen
			s.rep[to] = int32(h.Src)
			s.order = append(s.order, to)
			if s.parent != nil {
				s.parent[to] = from
			}
		}
	}
	return nil
}

// recorder accumulates the channel dependency graph while searching: which vertices
// headers hold, which the escape subfunction offers, and one bit per dependency between
// adjacent vertices with a header (source, destination) that makes it.
type recorder struct {
	width   int // edge slots per vertex: ports * VCs
	edges   []uint64
	edgeDst []int32
	edgeSrc []int32
	used    []bool
	escUsed []bool
	// out[v] mirrors v's edge slots as one mask when they fit a word (recordMasks);
	// mask is recordMasks' scratch: the output slots of each reached node state.
	out  []uint64
	mask []uint64
}

// partBytes is what one goroutine of a sweep takes at its peak: its recorder (a bit, a
// destination and a source per edge slot, two flags per vertex) and about as much again
// for its searcher's states and adjacency.
func (s *searcher) partBytes() int64 {
	nv, w := int64(s.vertices()), int64(s.ports*s.vcs)
	return 2 * (nv*w*8 + nv*w/8 + 2*nv)
}

func newRecorder(s *searcher) *recorder {
	nv := s.vertices()
	w := s.ports * s.vcs
	return &recorder{width: w, edges: make([]uint64, (nv*w+63)/64), edgeDst: make([]int32, nv*w),
		edgeSrc: make([]int32, nv*w), used: make([]bool, nv), escUsed: make([]bool, nv)}
}

func (r *recorder) record(s *searcher, from int32, h *routing.Header, o routing.Output, a arc) {
	r.used[a.vtx] = true
	if a.esc {
		r.escUsed[a.vtx] = true
	}
	if from < 0 {
		return
	}
	slot := int(from)/s.classes*r.width + int(s.chPort[o.Channel])*s.vcs + o.VC
	if r.edges[slot/64]&(1<<(slot%64)) == 0 {
		r.edges[slot/64] |= 1 << (slot % 64)
		r.edgeDst[slot], r.edgeSrc[slot] = int32(h.Dst), int32(h.Src)
	}
}

// merge adds o's dependencies to r, keeping r's (source, destination) for those both
// found: r is the earlier destinations' recorder.
func (r *recorder) merge(o *recorder) {
	for v := range r.used {
		r.used[v] = r.used[v] || o.used[v]
		r.escUsed[v] = r.escUsed[v] || o.escUsed[v]
	}
	for i, w := range o.edges {
		fresh := w &^ r.edges[i]
		r.edges[i] |= w
		for ; fresh != 0; fresh &= fresh - 1 {
			slot := i*64 + bits.TrailingZeros64(fresh)
			r.edgeDst[slot], r.edgeSrc[slot] = o.edgeDst[slot], o.edgeSrc[slot]
		}
	}
}

// strand records h as the first stranded header, and as the first stranded at its
// source when it is that (apart, so that expand's header does not escape to the heap).
//
//go:noinline
func (s *searcher) strand(h routing.Header) {
	if s.stranded == nil {
		hh := h
		s.stranded = &hh
	}
	if s.sourceStranded == nil && h.In.Channel == routing.Injection {
		hh := h
		s.sourceStranded = &hh
	}
}

// searchNodes is search for a positional relation (routing.Positional: Route does
// not read In): a header's state is its node and class, index node*classes + class, and
// s.order, s.first and s.arcs hold the reached node states and their outputs (arc.to a
// node state). Without source classes or a budget every node state is a header at its
// source, so no search is needed; otherwise a breadth-first search over node states
// finds the reachable ones. Cost O(nodes x classes x outputs).
func (s *searcher) searchNodes(dst topology.NodeID) error {
	s.gen++
	if s.gen == 0 {
		clear(s.stamp)
		s.gen = 1
	}
	s.order, s.arcs, s.first = s.order[:0], s.arcs[:0], s.first[:0]
	n := s.g.Nodes()
	if s.classes == 1 && s.everyEndpoint {
		return s.searchEveryNode(dst)
	}
	push := func(st int32, src topology.NodeID) {
		if s.stamp[st] != s.gen {
			s.stamp[st] = s.gen
			s.rep[st] = int32(src)
			s.order = append(s.order, st)
		}
	}
	for u := topology.NodeID(0); int(u) < n; u++ {
		if u == dst || !s.g.Endpoint(u) {
			continue
		}
		h := routing.Header{At: u, In: routing.Input{Channel: routing.Injection}, Src: u, Dst: dst}
		c, err := s.class(h)
		if err != nil {
			return err
		}
		push(int32(int(u)*s.classes+c), u)
	}
	for i := 0; i < len(s.order); i++ {
		st := s.order[i]
		s.posOf[st] = int32(i)
		s.first = append(s.first, int32(len(s.arcs)))
		u := topology.NodeID(int(st) / s.classes)
		if u == dst {
			continue
		}
		h := routing.Header{At: u, In: routing.Input{Channel: routing.Injection}, Src: topology.NodeID(s.rep[st]), Dst: dst, Misroutes: int(st) % s.classes % s.mis}
		s.buf = s.rel.Route(h, s.buf[:0])
		if len(s.buf) == 0 {
			s.strand(h)
		}
		for _, o := range s.buf {
			if err := s.checkOutput(u, dst, o); err != nil {
				return err
			}
			next := routing.Header{At: s.chTo[o.Channel], In: routing.Input{Channel: o.Channel, VC: o.VC}, Src: h.Src, Dst: dst, Misroutes: h.Misroutes}
			if o.Misroute && s.mis > 1 {
				next.Misroutes++
				if next.Misroutes >= s.mis {
					return fmt.Errorf("routing %q misroutes a header at %s toward %s beyond its budget of %d",
						s.rel.Name(), s.g.NodeName(u), s.g.NodeName(dst), s.mis-1)
				}
			}
			c, err := s.class(next)
			if err != nil {
				return err
			}
			to := int32(int(next.At)*s.classes + c)
			vtx := int32(int(o.Channel)*s.vcs + o.VC)
			s.arcs = append(s.arcs, arc{to: to, vtx: vtx, pv: s.chPort[o.Channel]*int32(s.vcs) + int32(o.VC), esc: s.esc != nil && s.esc.Escape(h, o)})
			push(to, h.Src)
		}
	}
	s.first = append(s.first, int32(len(s.arcs)))
	s.states += int64(len(s.order))
	if s.rec != nil {
		s.rec.recordNodes(s, dst)
	}
	return nil
}

// searchEveryNode is searchNodes for a relation with one class: every node state is a
// header at its source, reachable without search, and node v's state is v.
func (s *searcher) searchEveryNode(dst topology.NodeID) error {
	n := s.g.Nodes()
	for u := topology.NodeID(0); int(u) < n; u++ {
		s.posOf[u] = int32(u)
		s.rep[u] = int32(u)
		s.first = append(s.first, int32(len(s.arcs)))
		if u == dst {
			continue
		}
		h := routing.Header{At: u, In: routing.Input{Channel: routing.Injection}, Src: u, Dst: dst}
		s.buf = s.rel.Route(h, s.buf[:0])
		if len(s.buf) == 0 {
			s.strand(h)
		}
		for _, o := range s.buf {
			if err := s.checkOutput(u, dst, o); err != nil {
				return err
			}
			if o.Misroute && s.mis > 1 {
				return fmt.Errorf("routing %q misroutes a header at %s toward %s beyond its budget of %d",
					s.rel.Name(), s.g.NodeName(u), s.g.NodeName(dst), s.mis-1)
			}
			vtx := int32(int(o.Channel)*s.vcs + o.VC)
			s.arcs = append(s.arcs, arc{to: int32(s.chTo[o.Channel]), vtx: vtx, pv: s.chPort[o.Channel]*int32(s.vcs) + int32(o.VC), esc: s.esc != nil && s.esc.Escape(h, o)})
		}
	}
	s.first = append(s.first, int32(len(s.arcs)))
	s.order = s.order[:0]
	for u := 0; u < n; u++ {
		s.order = append(s.order, int32(u))
	}
	s.states += int64(n - 1)
	if s.rec != nil {
		s.rec.recordNodes(s, dst)
	}
	return nil
}

// class returns the header's class: source class * (budget+1) + misroutes.
func (s *searcher) class(h routing.Header) (int, error) {
	c := h.Misroutes
	if s.sc != nil {
		sc := s.sc.SourceClass(h)
		if sc < 0 || sc >= s.classes/s.mis {
			return 0, fmt.Errorf("routing %q gives source class %d; it has %d", s.rel.Name(), sc, s.classes/s.mis)
		}
		c += sc * s.mis
	}
	return c, nil
}

// stateNode is the node of a positional search's node state.
func (s *searcher) stateNode(st int32) topology.NodeID { return topology.NodeID(int(st) / s.classes) }

// arcsOf returns the outputs of a reached node state of a positional search.
func (s *searcher) arcsOf(st int32) []arc {
	i := s.posOf[st]
	return s.arcs[s.first[i]:s.first[i+1]]
}

// recordNodes records the dependencies of a positional search toward dst: a header in
// node state t that is offered a (into node state t') is then offered every output of
// t'.
func (r *recorder) recordNodes(s *searcher, dst topology.NodeID) {
	// Node states of dst are dst*classes .. dst*classes+classes-1 (no division per arc).
	dlo, dhi := int32(int(dst)*s.classes), int32(int(dst)*s.classes+s.classes)
	if r.width <= 64 {
		r.recordMasks(s, dst, dlo, dhi)
		return
	}
	for i := range s.order {
		src := s.rep[s.order[i]]
		for _, a := range s.arcs[s.first[i]:s.first[i+1]] {
			r.used[a.vtx] = true
			if a.esc {
				r.escUsed[a.vtx] = true
			}
			if a.to >= dlo && a.to < dhi {
				continue
			}
			base := int(a.vtx) * r.width
			for _, b := range s.arcsOf(a.to) {
				slot := base + int(b.pv)
				if r.edges[slot/64]&(1<<(slot%64)) == 0 {
					r.edges[slot/64] |= 1 << (slot % 64)
					r.edgeDst[slot], r.edgeSrc[slot] = int32(dst), src
				}
			}
		}
	}
}

// recordMasks is recordNodes when a vertex's edge slots fit one word: the outputs of
// each node state become one mask of slots, and a dependency a -> (outputs of a's
// node state) costs one AND against the slots a already has. It sets the same edges
// with the same (source, destination) as the loop over outputs: the first arc, in
// search order, to find a slot new still sets it.
func (r *recorder) recordMasks(s *searcher, dst topology.NodeID, dlo, dhi int32) {
	if r.out == nil {
		r.out = make([]uint64, len(r.used))
	}
	r.mask = r.mask[:0]
	for i := range s.order {
		var m uint64
		for _, b := range s.arcs[s.first[i]:s.first[i+1]] {
			m |= 1 << b.pv
		}
		r.mask = append(r.mask, m)
	}
	for i := range s.order {
		src := s.rep[s.order[i]]
		for _, a := range s.arcs[s.first[i]:s.first[i+1]] {
			r.used[a.vtx] = true
			if a.esc {
				r.escUsed[a.vtx] = true
			}
			if a.to >= dlo && a.to < dhi {
				continue
			}
			fresh := r.mask[s.posOf[a.to]] &^ r.out[a.vtx]
			if fresh == 0 {
				continue
			}
			r.out[a.vtx] |= fresh
			base := int(a.vtx) * r.width
			for ; fresh != 0; fresh &= fresh - 1 {
				slot := base + bits.TrailingZeros64(fresh)
				r.edges[slot/64] |= 1 << (slot % 64)
				r.edgeDst[slot], r.edgeSrc[slot] = int32(dst), src
			}
		}
	}
}

// checkOutput reports a relation that offers a header at u toward dst an output that
// does not leave u, or a virtual channel outside 0..vcs-1: a broken relation, named in
// one line.
func (s *searcher) checkOutput(u, dst topology.NodeID, o routing.Output) error {
	if o.Channel < 0 || int(o.Channel) >= len(s.chTo) || s.chFrom[o.Channel] != u {
		return fmt.Errorf("routing %q offers a header at %s toward %s channel %d, which does not leave %s",
			s.rel.Name(), s.g.NodeName(u), s.g.NodeName(dst), o.Channel, s.g.NodeName(u))
	}
	if o.VC < 0 || o.VC >= s.vcs {
		return fmt.Errorf("routing %q offers a header at %s toward %s virtual channel %d; it uses 0..%d",
			s.rel.Name(), s.g.NodeName(u), s.g.NodeName(dst), o.VC, s.vcs-1)
	}
	return nil
}
