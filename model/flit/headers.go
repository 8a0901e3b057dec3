package flit

import (
	"math"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// The header graph of a message: where its headers can go under the relation. Its
// vertices are the source and the (physical channel, relation VC) pairs, class nodes
// c*R + r for R = Routing.VCs(); it has an edge a -> b when a header of the message,
// arrived on a (or injected at the source) and heading to one of its destinations with
// any misroute count within the budget, may be routed onto b. Every flit of a worm, and
// of a tree multicast's branch, moves along edges of its message's graph: a header
// routed so reserved the channel it moves into.
//
// When every message's graph is acyclic (Acyclic), the level of a class node, its
// longest distance from the source in the graph, strictly increases along every move of
// every flit, whatever the relation's hop distances (up*/down*, fat-tree NCA, dragonfly
// classes, Duato's escape, routing files); Progress weighs flits by it, so every
// transition increases the measure and the reachable graph is acyclic.

// headerWalk calls visit for every header a message i can route under the relation:
// the header h (at its source, or arrived on a class node), from its class node (-1 at
// the source) and the outputs the relation permits it, those that break the relation's
// contract left out (the model records them when it routes a state's header). It
// searches (class node, misroutes) from the source for each destination; a header may
// be visited more than once. Cost O(destinations * reachable class nodes * (budget+1))
// relation calls.
func (m *Model) headerWalk(i int, visit func(h routing.Header, from int, outs []routing.Output)) {
	msg := &m.cfg.Messages[i]
	nR := m.rel.VCs()
	budget := max(m.budget, 0)
	multi := msg.Multicast && m.budget >= 0
	type node struct{ cls, mis int }
	seen := map[node]bool{}
	var outs []routing.Output
	for _, dst := range msg.Dests {
		work := []node{{-1, 0}}
		clear(seen)
		seen[work[0]] = true
		for len(work) > 0 {
			x := work[len(work)-1]
			work = work[:len(work)-1]
			h := routing.Header{At: msg.Source, In: routing.Input{Channel: routing.Injection}, Src: msg.Source, Dst: dst}
			if x.cls >= 0 {
				ch := x.cls / nR
				h.At = m.vcTo[ch*m.cfg.VCs]
				h.In = routing.Input{Channel: chanID(ch), VC: x.cls % nR}
			}
			if h.At == dst {
				continue
			}
			if m.budget >= 0 {
				h.Misroutes = x.mis
			}
			outs = m.rel.Route(h, outs[:0])
			k := 0
			for _, o := range outs {
				if o.Channel < 0 || int(o.Channel) >= len(m.chFrom) || m.chFrom[o.Channel] != h.At || o.VC < 0 || o.VC >= nR {
					continue
				}
				outs[k] = o
				k++
				mis := x.mis
				if o.Misroute && m.budget >= 0 && mis < budget {
					mis++
				}
				if y := (node{int(o.Channel)*nR + o.VC, mis}); !seen[y] {
					seen[y] = true
					work = append(work, y)
				}
			}
			visit(h, x.cls, outs[:k])
			if multi && x.mis < budget {
				// A multicast's count is bumped by any of its address flits' misroutes,
				// so this destination's flit may be here with any larger count.
				if y := (node{x.cls, x.mis + 1}); !seen[y] {
					seen[y] = true
					work = append(work, y)
				}
			}
		}
	}
}

// levels returns the level of every class node in message i's header graph (its
// longest distance from the source; 0 where unreachable) and the largest level, or ok
// false when the graph has a cycle reachable from the source. Cost O(edges).
func (m *Model) levels(i int) (level []uint32, top uint32, ok bool) {
	n := len(m.chFrom) * m.rel.VCs()
	adj := map[int][]int{}
	edges := map[[2]int]bool{}
	nR := m.rel.VCs()
	m.headerWalk(i, func(_ routing.Header, from int, outs []routing.Output) {
		for _, o := range outs {
			to := int(o.Channel)*nR + o.VC
			if e := [2]int{from, to}; !edges[e] {
				edges[e] = true
				adj[from] = append(adj[from], to)
			}
		}
	})
	// Depth-first from the source: postorder, and a cycle on meeting a vertex on the
	// stack (colour 1).
	colour := map[int]uint8{}
	var post []int
	type frame struct{ v, k int }
	stack := []frame{{-1, 0}}
	colour[-1] = 1
	for len(stack) > 0 {
		f := &stack[len(stack)-1]
		if f.k == len(adj[f.v]) {
			colour[f.v] = 2
			post = append(post, f.v)
			stack = stack[:len(stack)-1]
			continue
		}
		w := adj[f.v][f.k]
		f.k++
		switch colour[w] {
		case 1:
			return nil, 0, false
		case 0:
			colour[w] = 1
			stack = append(stack, frame{w, 0})
		}
	}
	level = make([]uint32, n)
	at := func(v int) uint32 {
		if v < 0 {
			return 0
		}
		return level[v]
	}
	for k := len(post) - 1; k >= 0; k-- { // reverse postorder is a topological order
		v := post[k]
		for _, w := range adj[v] {
			level[w] = max(level[w], at(v)+1)
			top = max(top, level[w])
		}
	}
	return level, top, true
}

// Acyclic reports whether every message's header graph is acyclic: then every
// transition of the model increases Progress, the reachable graph has no cycle, every
// run ends delivered or deadlocked, and a local deadlock is reachable exactly when a
// global one is (docs/semantics.md), which is what partial-order reduction (Reduced)
// needs. Minimal relations are acyclic, and so are up*/down*, fat-tree NCA, dragonfly
// with its classes, Duato's relations and most routing files; a relation that lets a
// header come back to a channel class (misrouting) is not.
func (m *Model) Acyclic() bool {
	m.distOnce.Do(m.computeDist)
	return m.acyclic
}

// computeDist fills the weights Progress gives flits: weight[i][o] for a flit of
// message i in virtual channel o, and top[i]+1 for a delivered one. When every header
// graph is acyclic the weight is o's class level (levels); otherwise the hop distance
// from the message's source to o's receiving router over the network's channels
// (breadth-first), which increases on every hop of a minimal relation, and top[i] is
// the largest such distance.
func (m *Model) computeDist() {
	n := len(m.cfg.Messages)
	m.weight = make([][]uint32, n)
	m.top = make([]uint32, n)
	nR := m.rel.VCs()
	m.acyclic = true
	for i := range n {
		level, top, ok := m.levels(i)
		if !ok {
			m.acyclic = false
			break
		}
		w := make([]uint32, m.nvc)
		for o := range w {
			w[o] = level[(o/m.cfg.VCs)*nR+(o%m.cfg.VCs)/m.per]
		}
		m.weight[i], m.top[i] = w, top
	}
	if !m.acyclic {
		m.hopWeights()
	}
}

// hopWeights fills weight and top by hop distances from the sources (computeDist).
func (m *Model) hopWeights() {
	nodes := m.cfg.Net.Nodes()
	out := make([][]topology.ChannelID, nodes)
	for c := range m.chFrom {
		out[m.chFrom[c]] = append(out[m.chFrom[c]], chanID(c))
	}
	bySource := map[topology.NodeID]int{}
	for i, msg := range m.cfg.Messages {
		if j, ok := bySource[msg.Source]; ok {
			m.weight[i], m.top[i] = m.weight[j], m.top[j]
			continue
		}
		bySource[msg.Source] = i
		d := make([]uint32, nodes)
		for v := range d {
			d[v] = math.MaxUint32
		}
		d[msg.Source] = 0
		queue := []topology.NodeID{msg.Source}
		top := uint32(0)
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			top = max(top, d[v])
			for _, c := range out[v] {
				if to := m.vcTo[int(c)*m.cfg.VCs]; d[to] == math.MaxUint32 {
					d[to] = d[v] + 1
					queue = append(queue, to)
				}
			}
		}
		w := make([]uint32, m.nvc)
		for o := range w {
			w[o] = d[m.vcTo[o]]
		}
		m.weight[i], m.top[i] = w, top
	}
}
