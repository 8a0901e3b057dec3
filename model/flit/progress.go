package flit

import (
	"math"

	"github.com/wormcheck/wormcheck/model"
)

// Progress appends to buf[:0] the progress measure of s and returns it: a vector of two
// numbers, compared lexicographically, that strictly increases on every transition of
// a minimal routing relation (every hop brings the header one hop closer to the
// destination it is routed for: dimension order, with or without dateline classes, and
// minimal adaptive relations), under every pruning policy. The explorer checks it on
// every transition (model/system.Progressive); where it holds on every edge the
// reachable graph is acyclic, so every run ends in a terminal or a deadlocked state and
// "deadlock-free" means "every message is delivered".
//
//  1. The flit potential: the sum over the flits in virtual-channel buffers of the
//     distance from their message's source to the channel's receiving router, plus, for
//     every flit delivered (Msg.Got), the message's eccentricity (the largest distance
//     from its source) + 1; a flit not yet sent counts 0.
//  2. MaxUint32 minus the number of outputs reserved in every input's table (Input.Outs).
//
// Why it increases. Every transition but KindPrune moves exactly one flit and nothing
// else changes the potential (releases move none; Aux only counts). A flit leaving the
// source enters a channel one hop away (0 -> 1). Under a minimal relation the path of a
// worm, or of a multicast branch (every address flit it carries was routed minimally at
// every router on it), is a shortest path from the source, so the channel a flit moves
// into is one hop further from the source than the one it leaves (+1). A delivered flit
// goes from a router at most the eccentricity away to eccentricity + 1. A re-injected
// flit is a new copy in a channel (+distance >= 1) and removes nothing. KindPrune moves no
// flit but cuts at least one reserved output from the pruning input's table and adds
// none anywhere (closing or releasing channels only removes tables), so component 2
// increases. Cost O(virtual channels + flits in buffers).
//
// Under a non-minimal relation a misroute moves a flit to a router no further (or
// nearer) from the source, so the measure may stay or fall on such an edge; the
// explorer's liveness check then decides whether every message is delivered.
//
// Reference: 000 §2-§3 (the tree, pruning), Dally & Seitz (minimal routes).
func (m *Model) Progress(s State, buf []uint32) []uint32 {
	pot, outs := m.stateSums(&s)
	return rank(pot, outs, buf[:0])
}

// stateSums returns s's progress sums: the ones it carries if the model built it, else
// progressSums.
func (m *Model) stateSums(s *State) (pot, outs uint64) {
	if s.sums.ok {
		return s.sums.pot, s.sums.outs
	}
	return m.progressSums(s)
}

// rank appends the measure of the sums pot and outs to buf.
func rank(pot, outs uint64, buf []uint32) []uint32 {
	return append(buf, uint32(min(pot, math.MaxUint32)), uint32(math.MaxUint32-min(outs, math.MaxUint32)))
}

// progressSums returns the flit potential and the number of reserved outputs of s.
func (m *Model) progressSums(s *State) (pot, outs uint64) {
	m.distOnce.Do(m.computeDist)
	for i := range s.Msgs {
		p, o := m.msgSums(i, &s.Msgs[i])
		pot, outs = pot+p, outs+o
	}
	for o := range s.VCs {
		p, n := m.vcSums(o, &s.VCs[o])
		pot, outs = pot+p, outs+n
	}
	return pot, outs
}

// msgSums is message i's share of progressSums: its delivered flits and its source's
// reserved outputs.
func (m *Model) msgSums(i int, g *Msg) (pot, outs uint64) {
	for _, n := range g.Got.Slice(m.tab) {
		pot += uint64(n) * uint64(m.ecc[i]+1)
	}
	if !g.Done {
		outs = uint64(g.In.Outs.Len(m.tab))
	}
	return pot, outs
}

// vcSums is virtual channel o's share of progressSums.
func (m *Model) vcSums(o int, v *VC) (pot, outs uint64) {
	if v.Owner < 0 {
		return 0, 0
	}
	return uint64(v.Flits.Len(m.tab)) * uint64(m.dist[v.Owner][m.vcTo[o]]), uint64(v.In.Outs.Len(m.tab))
}

// stepSums returns the progress sums of t, the parent s after one step that wrote
// message msg and the logged virtual channels, given the parent's sums pot and outs.
func (m *Model) stepSums(s, t *State, log *touched, msg int, pot, outs uint64) (uint64, uint64) {
	if t.Msgs[msg] != s.Msgs[msg] { // most steps move a flit between channels only
		p0, o0 := m.msgSums(msg, &s.Msgs[msg])
		p1, o1 := m.msgSums(msg, &t.Msgs[msg])
		pot, outs = pot-p0+p1, outs-o0+o1
	}
	for _, o := range log.idx[:log.n] { // each channel once (touched.add)
		p0, o0 := m.vcSums(int(o), &s.VCs[o])
		p1, o1 := m.vcSums(int(o), &t.VCs[o])
		pot, outs = pot-p0+p1, outs-o0+o1
	}
	return pot, outs
}

// computeDist fills dist[i][v], the hop distance from message i's source to node v over
// the network's channels (breadth-first), and ecc[i], its largest finite value.
func (m *Model) computeDist() {
	nodes := m.cfg.Net.Nodes()
	out := make([][]model.ChannelID, nodes)
	for c := 0; c < m.cfg.Net.Channels(); c++ {
		from, _ := m.cfg.Net.Ends(chanID(c))
		out[from] = append(out[from], chanID(c))
	}
	bySource := map[model.NodeID]int{}
	m.dist = make([][]uint32, len(m.cfg.Messages))
	m.ecc = make([]uint32, len(m.cfg.Messages))
	for i, msg := range m.cfg.Messages {
		if j, ok := bySource[msg.Source]; ok {
			m.dist[i], m.ecc[i] = m.dist[j], m.ecc[j]
			continue
		}
		bySource[msg.Source] = i
		d := make([]uint32, nodes)
		for v := range d {
			d[v] = math.MaxUint32
		}
		d[msg.Source] = 0
		queue := []model.NodeID{msg.Source}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			m.ecc[i] = max(m.ecc[i], d[v])
			for _, c := range out[v] {
				if _, to := m.cfg.Net.Ends(c); d[to] == math.MaxUint32 {
					d[to] = d[v] + 1
					queue = append(queue, to)
				}
			}
		}
		m.dist[i] = d
	}
}
