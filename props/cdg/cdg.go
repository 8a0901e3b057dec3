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
// for the explorer (`wormcheck check --routing`) to decide on small instances.
//
// Cost: one breadth-first search of header states per destination, so O(nodes x
// reachable states per destination); the extended graph is decided by propagating, in
// each destination's state graph, the last escape channel a header held and checking
// it against a topological order of the escape channels, refined until no dependency
// contradicts it (each refinement adds only real dependencies, so a cycle found is
// real and an order that survives proves acyclicity).
//
// Reference: Dally & Seitz, IEEE TC 36(5), 1987, Theorem 1; Duato, IEEE TPDS 4(12),
// 1993, Definitions 5-8 and Theorem 1, and IEEE TPDS 6(10), 1995 (cross dependencies).
package cdg

import (
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/routing"
)

// Vertex is one (physical channel, virtual channel) pair, a vertex of the graphs.
type Vertex struct {
	Channel model.ChannelID
	VC      int
}

// Dep is one dependency of a cycle: a header holding From toward Dst (injected at Src)
// is offered To. Via lists the non-escape channels it crosses in between (an indirect
// dependency of Duato's extended graph); empty for a direct dependency.
type Dep struct {
	From, To Vertex
	Src, Dst model.NodeID
	Via      []Vertex
}

// Options bound the analysis.
type Options struct {
	// MaxRefinements bounds the refinements of the order of escape channels in Duato's
	// check (0: 64). Reaching it makes Duato's verdict inconclusive.
	MaxRefinements int
}

// Result is the static verdict of one relation on one topology.
type Result struct {
	Relation string `json:"routing"`
	Topology string `json:"topology"`
	VCs      int    `json:"vcs"`
	// States counts the reachable header states summed over destinations.
	States int64 `json:"header_states"`
	// Vertices counts the (channel, VC) pairs some header can hold; Edges the
	// dependencies between them.
	Vertices int `json:"vertices"`
	Edges    int `json:"edges"`
	// Acyclic is the Dally & Seitz verdict: the CDG has no cycle.
	Acyclic bool `json:"acyclic"`
	// Cycle is a shortest cycle through some vertex of a cyclic CDG.
	Cycle []Dep `json:"cycle,omitempty"`
	// Stranded is a reachable header the relation offers nothing: a certain deadlock
	// (the header waits for ever).
	Stranded *routing.Header `json:"stranded,omitempty"`
	// Duato is the verdict of Duato's condition, nil when the relation has no escape
	// subfunction.
	Duato *Duato `json:"duato,omitempty"`

	g *model.Grid
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
func Analyze(rel routing.Relation, opt Options) (*Result, error) {
	if opt.MaxRefinements <= 0 {
		opt.MaxRefinements = 64
	}
	s, err := newSearcher(rel)
	if err != nil {
		return nil, err
	}
	g := s.g
	nv := s.vertices()
	rec := newRecorder(s)
	s.rec = rec
	// With an EscapeRank hint, Duato's first pass rides on the CDG's sweep.
	var du *duatoState
	hintC1, hint := hintOrder(s)
	if s.esc != nil && hint != nil {
		du = newDuatoState(s)
		du.isC1, du.rank = hintC1, make([]int32, nv)
		du.setOrder(hint)
	}
	var unescaped *routing.Header
	for dst := model.NodeID(0); int(dst) < g.Nodes(); dst++ {
		if err := s.search(dst); err != nil {
			return nil, err
		}
		if s.esc != nil && unescaped == nil {
			unescaped = s.firstUnescaped(dst)
		}
		if du != nil {
			du.propagate(s, dst)
		}
	}
	s.rec = nil
	res := &Result{Relation: rel.Name(), Topology: g.Spec(), VCs: s.vcs, States: s.states, Stranded: s.stranded, g: g}
	adj := make([][]int32, nv)
	for v := 0; v < nv; v++ {
		if rec.used[v] {
			res.Vertices++
		}
		for k := 0; k < rec.width; k++ {
			slot := v*rec.width + k
			if rec.edges[slot/64]&(1<<(slot%64)) == 0 {
				continue
			}
			at := s.chTo[v/s.vcs]
			oc := g.ChannelOut(at, k/s.vcs/2, model.Direction(k/s.vcs%2))
			adj[v] = append(adj[v], int32(int(oc)*s.vcs+k%s.vcs))
			res.Edges++
		}
	}
	if cyc := shortestCycle(adj); cyc == nil {
		res.Acyclic = true
	} else {
		for i, v := range cyc {
			w := cyc[(i+1)%len(cyc)]
			slot := s.slot(v, w)
			res.Cycle = append(res.Cycle, Dep{From: s.vertex(v), To: s.vertex(w), Src: model.NodeID(rec.edgeSrc[slot]), Dst: model.NodeID(rec.edgeDst[slot])})
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
		for dst := model.NodeID(0); int(dst) < g.Nodes(); dst++ {
			if err := s.search(dst); err != nil {
				return nil, err
			}
			du.propagate(s, dst)
		}
	}
	if err := du.refine(s, d, opt.MaxRefinements); err != nil {
		return nil, err
	}
	return res, nil
}

// vertex returns the (channel, VC) of vertex index v.
func (s *searcher) vertex(v int32) Vertex {
	return Vertex{Channel: model.ChannelID(int(v) / s.vcs), VC: int(v) % s.vcs}
}

// slot returns the edge slot of the dependency v -> w between adjacent channels.
func (s *searcher) slot(v, w int32) int {
	ch := s.g.Channel(model.ChannelID(int(w) / s.vcs))
	return int(v)*s.ports*s.vcs + (ch.Dim*2+int(ch.Dir))*s.vcs + int(w)%s.vcs
}

// firstUnescaped returns the first reached header (toward dst, in search order) that is
// not at dst and is offered no escape output, or nil.
func (s *searcher) firstUnescaped(dst model.NodeID) *routing.Header {
	if s.positional {
		for u := 0; u < s.g.Nodes(); u++ {
			arcs := s.nodeArcs[s.nodeFirst[u]:s.nodeFirst[u+1]]
			ok := len(arcs) == 0 // stranded: reported apart
			for _, a := range arcs {
				ok = ok || a.esc
			}
			if !ok {
				return &routing.Header{At: model.NodeID(u), In: routing.Input{Channel: routing.Injection}, Src: model.NodeID(u), Dst: dst}
			}
		}
		return nil
	}
	for i, st := range s.order {
		if s.first[i] == s.first[i+1] {
			continue // at its destination, or stranded (reported apart)
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
	// Headers at their sources: route them again (they are not in s.order).
	for src := model.NodeID(0); int(src) < s.g.Nodes(); src++ {
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
