// Package cdg proves routing relations deadlock-free statically, on the whole
// topology, with the two classical sufficient conditions:
//
//   - Dally & Seitz: the channel dependency graph (CDG) of the relation over (channel,
//     VC) pairs has no cycle. A dependency c -> c' exists when some header that can
//     actually hold c (reachable from some source toward some destination) is offered
//     c'. Acyclic => no cyclic wait => deadlock-free, for deterministic and adaptive
//     relations alike.
//   - Duato: the relation has an escape subfunction R1 (routing.Escaping) that is
//     connected (every reachable header is offered an escape output) and whose extended
//     channel dependency graph — direct, indirect (through non-escape channels of the
//     same header) and cross dependencies (from an escape channel a header holds as an
//     ordinary one) — has no cycle. Then the relation is deadlock-free although its own
//     CDG may be cyclic.
//
// Both are sufficient, not necessary: a cycle is not a deadlock. A cyclic CDG of a
// deterministic relation usually is one (WH2); of an adaptive relation it may not be
// (RT4). A cycle is reported as a witness (its channels and the turns that close it)
// for the exact decision or the explorer (`wormcheck check --routing`) to settle.
//
// The graphs are built from the relation's reachable header states, which this package
// enumerates (ReachableHeaders gives them whole, as data). The exact decision, which
// answers what the conditions leave open (a deadlock configuration exists or not), is
// package props/decide: it tries these conditions first and then searches those states.
//
// Cost: for a relation that promises routing.DestClassed (its outputs depend on the
// destination only through a class per dimension: dor without datelines, the turn
// models, adaptive, duato; odd-even too, with its source class, as it also promises
// routing.SourceReached) the graph comes from one route per combination of classes
// neighbouring routers show (classes.go; milliseconds on 64x64 and 16x16x16), and
// Duato's order is checked by two local conditions on escape levels; the search
// decides whatever that cannot (a cycle of a relation without escape channels, a
// broken route, an order the conditions do not show). Dimension order with dateline
// classes on tori is decided from the product form of its reachable header states
// (dateline.go). Otherwise: one breadth-first
// search of header states per destination, so O(nodes x reachable states per
// destination), the destinations split between two goroutines and merged in
// destination order (Options.Workers); the extended graph is decided by
// propagating, in each destination's state graph, the last escape channel a header
// held and checking it against a topological order of the escape channels, refined
// until no dependency contradicts it (each refinement adds only real dependencies, so
// a cycle found is real and an order that survives proves acyclicity).
//
// Reference: Dally & Seitz, IEEE TC 36(5), 1987, Theorem 1; Duato, IEEE TPDS 4(12),
// 1993, Definitions 5-8 and Theorem 1, and IEEE TPDS 6(10), 1995 (cross dependencies).
package cdg

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Vertex is one (physical channel, virtual channel) pair, a vertex of the graphs.
type Vertex struct {
	Channel topology.ChannelID
	VC      int
}

// Dep is one dependency of a cycle: a header holding From toward Dst (injected at Src)
// is offered To. Via lists the non-escape channels it crosses in between (an indirect
// dependency of Duato's extended graph); empty for a direct dependency.
type Dep struct {
	From, To Vertex
	Src, Dst topology.NodeID
	Via      []Vertex
}

// Options bound the analysis.
type Options struct {
	// MaxRefinements bounds the refinements of the order of escape channels in Duato's
	// check (0: 64). Reaching it makes Duato's verdict inconclusive.
	MaxRefinements int
	// Workers is how many goroutines search destinations (0: two, or one when
	// GOMAXPROCS is 1; more than two count as two). The result does not depend on it.
	Workers int
	// Context, when it ends, stops the analysis between destinations and refinements
	// with an error that wraps its cause (Stopped reports it); nil: never.
	Context context.Context
	// MaxBytes is the memory the analysis may take (0: no bound): its per-destination
	// searches run on one goroutine when two would not fit, and an analysis whose one
	// search would not fit stops before it allocates, with an error Stopped reports.
	MaxBytes int64

	// searchOnly skips the class-based graph and forceClasses takes it even where a
	// search per destination is cheaper: the tests compare the two.
	searchOnly, forceClasses bool
}

// Result is the static verdict of one relation on one topology.
type Result struct {
	Relation string `json:"routing"`
	Topology string `json:"topology"`
	VCs      int    `json:"vcs"`
	// States counts the reachable header states summed over the destinations searched
	// (node states for a positional relation).
	States int64 `json:"header_states"`
	// Destinations is how many destinations were searched; Complete is true when that is
	// all of them. A relation without an escape subfunction stops at the first
	// destinations whose dependencies close a cycle: the graph is cyclic whatever the
	// others add, and Vertices and Edges count what was found until then.
	Destinations int  `json:"destinations"`
	Complete     bool `json:"complete"`
	// Vertices counts the (channel, VC) pairs some header can hold; Edges the
	// dependencies between them.
	Vertices int `json:"vertices"`
	Edges    int `json:"edges"`
	// Acyclic is the Dally & Seitz verdict: the CDG has no cycle.
	Acyclic bool `json:"acyclic"`
	// Cycle is a shortest cycle through some vertex of a cyclic CDG.
	Cycle []Dep `json:"cycle,omitempty"`
	// Stranded is a reachable header the relation offers nothing: a certain deadlock
	// (the header waits for ever). It is looked for in the destinations searched.
	Stranded *routing.Header `json:"stranded,omitempty"`
	// Duato is the verdict of Duato's condition, nil when the relation has no escape
	// subfunction.
	Duato *Duato `json:"duato,omitempty"`

	g *topology.Network
}

// Duato is the verdict of Duato's condition on the escape subfunction.
type Duato struct {
	// Escape counts the (channel, VC) pairs the escape subfunction offers.
	Escape int `json:"escape_vertices"`
	// Connected: every reachable header not at its destination is offered an escape
	// output. Unescaped is the first that is not.
	Connected bool            `json:"connected"`
	Unescaped *routing.Header `json:"unescaped,omitempty"`
	// Acyclic: the extended CDG has no cycle (decided only when Connected).
	Acyclic bool `json:"acyclic"`
	// Decided is false when the refinement bound was reached first.
	Decided bool `json:"decided"`
	// Edges is the number of extended dependencies recorded (direct ones, and the
	// indirect and cross ones that contradicted an earlier order); Refinements the
	// passes over all destinations.
	Edges       int   `json:"edges"`
	Refinements int   `json:"refinements"`
	Cycle       []Dep `json:"cycle,omitempty"`
}

// DeadlockFree reports whether one of the sufficient conditions proves the relation
// deadlock-free.
func (r *Result) DeadlockFree() bool {
	if r.Stranded != nil {
		return false
	}
	return r.Acyclic || (r.Duato != nil && r.Duato.Connected && r.Duato.Decided && r.Duato.Acyclic)
}

// Analyze builds the channel dependency graph of rel on its topology and decides both
// conditions. Errors are one line: a relation that offers a channel not leaving the
// router, a VC out of range, or a topology too large.
//
// A relation whose type is not from package model/routing is not trusted to keep the
// optional promises it implements (routing.Positional, routing.SourceClasser,
// routing.DestClassed, routing.SourceReached, the escape hints): its headers are
// searched one class per source, whatever Route reads (see plain). A Route that reads
// Header.Src without saying so then loses no dependency.
//
// The per-destination searches run on up to two goroutines (Options.Workers), each
// over a contiguous range of destinations, and their findings are merged in
// destination order, so the result is the same as one goroutine's. rel.Route and its
// Escape and SourceClass methods are then called concurrently: every relation of
// model/routing only reads itself there.
func Analyze(rel routing.Relation, opt Options) (*Result, error) {
	if opt.MaxRefinements <= 0 {
		opt.MaxRefinements = 64
	}
	if opt.Workers <= 0 {
		opt.Workers = min(2, runtime.GOMAXPROCS(0))
	}
	rel = plain(rel)
	s, err := newSearcher(rel)
	if err != nil {
		return nil, err
	}
	s.ctx = opt.Context
	g := s.g
	nv := s.vertices()
	if per := s.partBytes(); opt.MaxBytes > 0 {
		if per > opt.MaxBytes {
			return nil, stopErr{fmt.Errorf("memory budget: the dependency graph's search takes about %d MiB, more than the %d MiB allowed", per>>20, opt.MaxBytes>>20)}
		}
		if int64(opt.Workers)*per > opt.MaxBytes {
			opt.Workers = 1
		}
	}
	if !opt.searchOnly {
		if res := classResult(s, opt.forceClasses); res != nil {
			return res, nil
		}
		if res := datelineResult(s); res != nil {
			return res, nil
		}
	}
	// With an EscapeRank hint, Duato's first pass rides on the CDG's sweep.
	var du *duatoState
	hintC1, hint := hintOrder(s)
	if s.esc != nil && hint != nil {
		du = newDuatoState(s)
		du.isC1, du.rank = hintC1, make([]int32, nv)
		du.setOrder(hint)
	}
	res := &Result{Relation: rel.Name(), Topology: g.Spec(), VCs: s.vcs, g: g}
	p, err := sweep(opt.Context, rel, opt.Workers, true, true, du)
	if err != nil {
		return nil, err
	}
	rec, unescaped := p.rec, p.unescaped
	res.Destinations, res.States, res.Stranded = p.dests, p.states, p.stranded
	res.Complete = res.Destinations == g.Nodes()
	adj, vertices, edges := s.adjacency(rec)
	res.Vertices, res.Edges = vertices, edges
	if cyc := shortestCycle(adj); cyc == nil {
		res.Acyclic = true
	} else {
		for i, v := range cyc {
			w := cyc[(i+1)%len(cyc)]
			slot := s.slot(v, w)
			res.Cycle = append(res.Cycle, Dep{From: s.vertex(v), To: s.vertex(w), Src: topology.NodeID(rec.edgeSrc[slot]), Dst: topology.NodeID(rec.edgeDst[slot])})
		}
	}
	if s.esc == nil {
		return res, nil
	}
	d := &Duato{Connected: unescaped == nil, Unescaped: unescaped}
	res.Duato = d
	for _, e := range rec.escUsed {
		if e {
			d.Escape++
		}
	}
	if !d.Connected {
		return res, nil
	}
	d.Refinements = 1
	if du == nil || !sameEscapes(du.isC1, rec.escUsed, rec.used) {
		// No hint, or the hint named other escape channels than the relation offers:
		// start from a topological order of the escape subfunction's own dependencies.
		sub := make([][]int32, nv)
		for v := range adj {
			if rec.escUsed[v] {
				for _, w := range adj[v] {
					if rec.escUsed[w] {
						sub[v] = append(sub[v], w)
					}
				}
			}
		}
		prior := make([]int32, nv)
		for i := range prior {
			prior[i] = int32(i)
		}
		order, _ := topoOrder(sub, rec.escUsed, prior)
		du = newDuatoState(s)
		du.isC1, du.rank = rec.escUsed, make([]int32, nv)
		du.setOrder(order)
		if _, err := sweep(opt.Context, rel, opt.Workers, false, false, du); err != nil {
			return nil, err
		}
	}
	if err := du.refine(s, d, opt.MaxRefinements, opt.Workers); err != nil {
		return nil, err
	}
	return res, nil
}

// classResult is the result of a relation whose graph classGraph finds: what a search
// per destination would give (every destination, every (node, destination) pair a
// header state, the same vertices and edges, and for a cyclic graph the same shortest
// cycle with the same first (source, destination) per dependency), or nil when the
// search must decide: classGraph does not apply or finds a broken route, a relation
// without an escape subfunction has a cycle (the search stops at the first
// destinations that close one and reports those), or Duato's check by classes
// (escapesFollow) cannot show that the hint order holds.
func classResult(s *searcher, force bool) *Result {
	rec, cr := classGraphRouter(s, force)
	if rec == nil {
		return nil
	}
	adj, vertices, edges := s.adjacency(rec)
	cyc := shortestCycle(adj)
	if s.esc == nil && cyc != nil {
		return nil
	}
	n := s.g.Nodes()
	states := cr.states()
	if cr.err {
		return nil
	}
	res := &Result{Relation: s.rel.Name(), Topology: s.g.Spec(), VCs: s.vcs, g: s.g,
		States: states, Destinations: n, Complete: true,
		Vertices: vertices, Edges: edges, Acyclic: cyc == nil}
	if s.esc == nil {
		return res
	}
	hintC1, hint := hintOrder(s)
	if hint == nil || !sameEscapes(hintC1, rec.escUsed, rec.used) {
		return nil
	}
	lv, ok := s.rel.(routing.EscapeLeveled)
	if !ok {
		return nil
	}
	level := make([]int32, s.vertices())
	for v := range level {
		level[v] = int32(lv.EscapeLevel(topology.ChannelID(v/s.vcs), v%s.vcs))
		if (level[v] >= 0) != hintC1[v] {
			return nil
		}
	}
	if !cr.escapesFollow(level, hintC1) {
		return nil
	}
	for i, v := range cyc {
		w := cyc[(i+1)%len(cyc)]
		from, to := s.vertex(v), s.vertex(w)
		dst, ok := s.firstDest(from, to)
		if !ok {
			return nil
		}
		res.Cycle = append(res.Cycle, Dep{From: from, To: to, Src: s.chFrom[from.Channel], Dst: dst})
	}
	d := &Duato{Connected: true, Acyclic: true, Decided: true, Refinements: 1}
	for _, e := range rec.escUsed {
		if e {
			d.Escape++
		}
	}
	res.Duato = d
	return res
}

// part is one goroutine's share of a sweep: the destinations lo..hi-1 searched by its
// own searcher, with what they found.
type part struct {
	s         *searcher
	rec       *recorder   // the dependencies recorded (nil when not recording)
	du        *duatoState // Duato's propagation (nil when not propagating)
	lo, hi    int
	dests     int
	states    int64
	stranded  *routing.Header
	unescaped *routing.Header
	cyclic    bool // stopped early: the dependencies found so far close a cycle
	err       error
}

// sweep searches every destination, on two goroutines when workers > 1, recording the
// dependency graph when record is set and propagating Duato's state into du when du
// is not nil (du then gains the extended dependencies and their count, in destination
// order). It returns the merged part: the same as one goroutine searching every
// destination in order.
//
// Without an escape subfunction a recording sweep with stopAtCycle stops at the first
// prefix of 1, 2, 4, ... destinations whose graph has a cycle. The second goroutine's range starts at
// the largest power of two below the node count, so every such prefix check falls in
// the first goroutine's range and the second's work is dropped when the first stops.
func sweep(ctx context.Context, rel routing.Relation, workers int, record, stopAtCycle bool, du *duatoState) (*part, error) {
	g := rel.Grid()
	n := g.Nodes()
	cuts := []int{0, n}
	if workers > 1 && n >= 2 {
		m := n / 2
		if _, esc := rel.(routing.Escaping); !esc && record && stopAtCycle {
			m = 1
			for 2*m < n {
				m *= 2
			}
		}
		cuts = []int{0, m, n}
	}
	parts := make([]*part, len(cuts)-1)
	for i := range parts {
		s, err := newSearcher(rel)
		if err != nil {
			return nil, err
		}
		s.ctx = ctx
		p := &part{s: s, lo: cuts[i], hi: cuts[i+1]}
		if record {
			p.rec = newRecorder(s)
			s.rec = p.rec
		}
		if du != nil {
			p.du = du.fork(s)
		}
		parts[i] = p
	}
	var stop atomic.Bool
	if len(parts) == 1 {
		parts[0].run(n, record && stopAtCycle, &stop)
	} else {
		var wg sync.WaitGroup
		for i, p := range parts {
			wg.Go(func() { p.run(n, record && stopAtCycle && i == 0, &stop) })
		}
		wg.Wait()
	}
	p := parts[0]
	if p.err != nil {
		return nil, p.err
	}
	if du != nil {
		du.absorb(p.du)
	}
	if p.cyclic || len(parts) == 1 {
		return p, nil
	}
	q := parts[1]
	if q.err != nil {
		return nil, q.err
	}
	if du != nil {
		du.absorb(q.du)
	}
	p.dests += q.dests
	p.states += q.states
	if p.stranded == nil {
		p.stranded = q.stranded
	}
	if p.unescaped == nil {
		p.unescaped = q.unescaped
	}
	if record {
		p.rec.merge(q.rec)
	}
	return p, nil
}

// run searches the part's destinations in order; n is the node count. With
// checkCycles it stops at the first prefix of 1, 2, 4, ... destinations whose
// dependencies close a cycle (relations without an escape subfunction only). It
// stops early when stop is set, and sets it when it stops early itself.
func (p *part) run(n int, checkCycles bool, stop *atomic.Bool) {
	s := p.s
	defer func() { p.states, p.stranded = s.states, s.stranded }()
	next := 1
	for dst := p.lo; dst < p.hi; dst++ {
		if stop.Load() {
			return
		}
		if !s.g.Endpoint(topology.NodeID(dst)) {
			continue // nothing is sent to a router of a network with terminals
		}
		if err := Stop(s.ctx); err != nil {
			p.err = err
			stop.Store(true)
			return
		}
		if err := s.search(topology.NodeID(dst)); err != nil {
			p.err = err
			stop.Store(true)
			return
		}
		p.dests++
		if s.esc != nil && p.unescaped == nil && p.rec != nil {
			p.unescaped = s.firstUnescaped(topology.NodeID(dst))
		}
		if p.du != nil {
			p.du.propagate(s, topology.NodeID(dst))
		}
		if checkCycles && s.esc == nil && s.stranded == nil && p.dests == next && dst < n-1 {
			next *= 2
			if adj, _, _ := s.adjacency(p.rec); shortestCycle(adj) != nil {
				p.cyclic = true
				stop.Store(true)
				return
			}
		}
	}
}

// adjacency returns the dependency graph recorded so far as adjacency lists, with its
// number of held vertices and of edges.
func (s *searcher) adjacency(rec *recorder) (adj [][]int32, vertices, edges int) {
	nv := s.vertices()
	adj = make([][]int32, nv)
	for v := 0; v < nv; v++ {
		if rec.used[v] {
			vertices++
		}
		for k := 0; k < rec.width; k++ {
			slot := v*rec.width + k
			if rec.edges[slot/64]&(1<<(slot%64)) == 0 {
				continue
			}
			at := s.chTo[v/s.vcs]
			oc := s.g.PortChannel(at, k/s.vcs)
			adj[v] = append(adj[v], int32(int(oc)*s.vcs+k%s.vcs))
			edges++
		}
	}
	return adj, vertices, edges
}

// vertex returns the (channel, VC) of vertex index v.
func (s *searcher) vertex(v int32) Vertex {
	return Vertex{Channel: topology.ChannelID(int(v) / s.vcs), VC: int(v) % s.vcs}
}

// slot returns the edge slot of the dependency v -> w between adjacent channels.
func (s *searcher) slot(v, w int32) int {
	return int(v)*s.ports*s.vcs + s.g.Port(topology.ChannelID(int(w)/s.vcs))*s.vcs + int(w)%s.vcs
}

// firstUnescaped returns the first reached header (toward dst, in search order) that is
// not at dst and is offered no escape output, or nil.
func (s *searcher) firstUnescaped(dst topology.NodeID) *routing.Header {
	for i, st := range s.order {
		if s.first[i] == s.first[i+1] {
			continue // at its destination, or stranded (reported apart)
		}
		if s.positional {
			// Node states include headers at their sources.
			ok := false
			for _, a := range s.arcs[s.first[i]:s.first[i+1]] {
				ok = ok || a.esc
			}
			if !ok {
				return &routing.Header{At: s.stateNode(st), In: routing.Input{Channel: routing.Injection}, Src: topology.NodeID(s.rep[st]), Dst: dst, Misroutes: int(st) % s.classes % s.mis}
			}
			continue
		}
		ok := false
		for _, a := range s.arcs[s.first[i]:s.first[i+1]] {
			ok = ok || a.esc
		}
		if !ok {
			h := s.header(st, dst)
			return &h
		}
	}
	if s.positional {
		return nil
	}
	// Headers at their sources: route them again (they are not in s.order).
	for src := topology.NodeID(0); int(src) < s.g.Nodes(); src++ {
		if src == dst {
			continue
		}
		h := routing.Header{At: src, In: routing.Input{Channel: routing.Injection}, Src: src, Dst: dst}
		outs := s.rel.Route(h, nil)
		ok := len(outs) == 0
		for _, o := range outs {
			ok = ok || s.esc.Escape(h, o)
		}
		if !ok {
			return &h
		}
	}
	return nil
}

// shortestCycle returns a shortest cycle through the first vertex (in index order) that
// lies on a cycle of adj, or nil if adj is acyclic. Cost O(V + E).
func shortestCycle(adj [][]int32) []int32 {
	n := len(adj)
	// Iterative three-colour DFS to find a vertex on a cycle.
	colour := make([]uint8, n)
	next := make([]int32, n)
	var stack []int32
	onCycle := int32(-1)
	for root := 0; root < n && onCycle < 0; root++ {
		if colour[root] != 0 {
			continue
		}
		stack = append(stack[:0], int32(root))
		colour[root] = 1
		for len(stack) > 0 && onCycle < 0 {
			v := stack[len(stack)-1]
			if int(next[v]) < len(adj[v]) {
				w := adj[v][next[v]]
				next[v]++
				switch colour[w] {
				case 0:
					colour[w] = 1
					stack = append(stack, w)
				case 1:
					onCycle = w
				}
				continue
			}
			colour[v] = 2
			stack = stack[:len(stack)-1]
		}
	}
	if onCycle < 0 {
		return nil
	}
	// Breadth-first from onCycle back to itself.
	parent := make([]int32, n)
	for i := range parent {
		parent[i] = -1
	}
	queue := []int32{onCycle}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range adj[v] {
			if w == onCycle {
				cyc := []int32{v}
				for u := v; u != onCycle; {
					u = parent[u]
					cyc = append(cyc, u)
				}
				slices.Reverse(cyc)
				return cyc
			}
			if parent[w] < 0 {
				parent[w] = v
				queue = append(queue, w)
			}
		}
	}
	panic(fmt.Sprintf("cdg: vertex %d is on a cycle but no path returns to it", onCycle))
}

// sameEscapes reports whether the hinted escape set agrees with the escape outputs the
// relation offers on every vertex a header can hold (unused vertices do not matter).
func sameEscapes(hinted, offered, used []bool) bool {
	for v := range used {
		if used[v] && hinted[v] != offered[v] {
			return false
		}
	}
	return true
}
