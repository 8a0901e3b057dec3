package flit

import "math"

// Progress appends to buf[:0] the progress measure of s and returns it: a vector of two
// numbers, compared lexicographically, that strictly increases on every transition when
// every message's header graph is acyclic (Acyclic: minimal relations, up*/down*,
// fat-tree NCA, dragonfly with classes, Duato's, most routing files), under every
// pruning policy. The explorer checks it on every transition (model/system.Progressive);
// where it holds on every edge the reachable graph is acyclic, so every run ends in a
// terminal or a deadlocked state and "deadlock-free" means "every message is delivered".
//
//  1. The flit potential: the sum over the flits in virtual-channel buffers of their
//     weight, the level of the channel's class in their message's header graph (its
//     longest distance from the source, headers.go), plus, for every flit delivered
//     (Msg.Got), the message's largest level + 1; a flit not yet sent counts 0.
//  2. MaxUint32 minus the number of outputs reserved in every input's table (Input.Outs).
//
// Why it increases. Every transition but KindPrune moves exactly one flit and nothing
// else changes the potential (releases move none; Aux only counts). A flit leaving the
// source enters a channel of level >= 1. Every flit of a worm, or of a multicast branch,
// moves along an edge of its message's header graph (the header routed that way
// reserved the channel), so into a channel of a higher level. A delivered flit goes from
// a level at most the largest to the largest + 1. A re-injected flit is a new copy in a
// channel (+level >= 1) and removes nothing. KindPrune moves no flit but cuts at least
// one reserved output from the pruning input's table and adds none anywhere (closing or
// releasing channels only removes tables), so component 2 increases. Cost O(virtual
// channels + flits in buffers).
//
// When some header graph has a cycle (a relation that lets a header come back to a
// channel class), a flit's weight is the hop distance from its source to the channel's
// router instead; a misroute may then keep or lower the measure, and the explorer's
// liveness check decides whether every message is delivered.
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
		pot += uint64(n) * uint64(m.top[i]+1)
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
	return uint64(v.Flits.Len(m.tab)) * uint64(m.weight[v.Owner][o]), uint64(v.In.Outs.Len(m.tab))
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
