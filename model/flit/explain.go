package flit

import (
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Move is the structured form of a transition, for pictures and captures (SVG, pcap):
// which message's flit moved, from which input (the message's source when FromVC is
// None, else virtual channel FromVC) at router At, to which output (a virtual channel, or
// Eject = delivered at At). For KindPrune, Flit is -1, To is None and Pruned lists the
// released outputs.
type Move struct {
	Kind    Kind
	Msg     int
	Flit    int  // position in the message's format
	Address bool // the flit is an address flit (a header)
	Dest    int  // for an address flit: the index of its destination in Dests
	FromAux bool // re-injected from the auxiliary buffer
	At      topology.NodeID
	FromVC  Out // None (-2) for the source
	To      Out
	Pruned  []Out
}

// None marks a missing input or output in a Move.
const None Out = -2

// Explain returns the structured form of action a taken from state from. Cost: one
// scan of the inputs.
func (m *Model) Explain(from State, a system.Action) (Move, error) {
	k, input, arg := SplitAction(a)
	var c cursor
	found := false
	m.cursors(&from, func(x cursor) bool {
		if x.input == input {
			c, found = x, true
			return false
		}
		return true
	})
	if !found {
		return Move{}, fmt.Errorf("action %#x: input %d has nothing to do", uint64(a), input)
	}
	mv := Move{Kind: k, Msg: c.msg, At: c.at, FromVC: None, To: None, Flit: -1, Dest: -1}
	if c.vc >= 0 {
		mv.FromVC = Out(c.vc)
	}
	if k == KindPrune {
		next := m.applyStep(&from, m.pruneStep(c, m.blockedOut(&from, c)))
		var in *Input
		if c.vc < 0 {
			in = &next.Msgs[c.msg].In
		} else {
			in = &next.VCs[c.vc].In
		}
		for _, o := range c.in.Outs.Slice(m.tab) {
			kept := false
			for _, q := range in.Outs.Slice(m.tab) {
				kept = kept || q == o
			}
			if !kept {
				mv.Pruned = append(mv.Pruned, o)
			}
		}
		return mv, nil
	}
	f, aux, ok := m.nextFlit(&from, c)
	if !ok {
		return Move{}, fmt.Errorf("action %#x: input %d has no flit", uint64(a), input)
	}
	mv.Flit, mv.FromAux = int(f), aux
	if di, isAddr := m.addrDest(c.msg, f); isAddr && !aux {
		mv.Address, mv.Dest = true, di
	}
	switch k {
	case KindMove:
		if c.in.Cur < 0 {
			return Move{}, fmt.Errorf("action %#x: input %d has no current output", uint64(a), input)
		}
		mv.To = c.in.Outs.At(m.tab, int(c.in.Cur))
	case KindFollow:
		if j := m.blockedOut(&from, c); j >= 0 {
			mv.To = c.in.Outs.At(m.tab, j)
		}
	case KindAlloc:
		mv.To = Out(arg - 1)
	default:
		return Move{}, fmt.Errorf("action %#x: unknown kind %d", uint64(a), k)
	}
	return mv, nil
}

// Channel returns the physical channel of virtual channel o (o >= 0).
func (m *Model) Channel(o Out) topology.ChannelID { return chanID(int(o) / m.cfg.VCs) }

// VCOf returns the index of virtual channel o within its physical channel.
func (m *Model) VCOf(o Out) int { return int(o) % m.cfg.VCs }

// Receiver returns the router at the receiving end of virtual channel o.
func (m *Model) Receiver(o Out) topology.NodeID { return m.vcTo[o] }

// PreferredPath returns the channels the address flit of message i for destination di
// crosses when it always takes the relation's most preferred output: the dimension-order
// path under DOR, one of the permitted paths under an adaptive relation (for pictures).
// It stops where the relation permits nothing, or after as many hops as there are
// channels (a relation that loops). Misroutes are counted as the model counts them.
func (m *Model) PreferredPath(i, di int) []topology.ChannelID {
	s := m.Init()[0]
	c := cursor{input: i, msg: i, vc: -1, at: m.cfg.Messages[i].Source, in: s.Msgs[i].In}
	var path []topology.ChannelID
	var rb []routing.Output
	for !m.isDest(i, di, c.at) && len(path) < len(m.chFrom) {
		outs := m.permitted(&s, c, di, &rb)
		if len(outs) == 0 {
			break
		}
		path = append(path, outs[0].Channel)
		if outs[0].Misroute && m.budget >= 0 && int(s.Msgs[i].Mis) < m.budget {
			s.Msgs[i].Mis++
		}
		o := int(outs[0].Channel)*m.cfg.VCs + outs[0].VC*m.per
		c = cursor{input: len(s.Msgs) + o, msg: i, vc: o, at: m.vcTo[o], in: s.VCs[o].In}
	}
	return path
}

// PreferredOutput returns the channel the relation most prefers for the address flit of
// message i for destination di at input vc of state s (a virtual channel, or -1 for the
// message's source), or topology.None at that destination or when it permits nothing.
func (m *Model) PreferredOutput(s State, i, di, vc int) topology.ChannelID {
	c := cursor{input: i, msg: i, vc: -1, at: m.cfg.Messages[i].Source, in: s.Msgs[i].In}
	if vc >= 0 {
		c = cursor{input: len(s.Msgs) + vc, msg: i, vc: vc, at: m.vcTo[vc], in: s.VCs[vc].In}
	}
	if m.isDest(i, di, c.at) {
		return topology.None
	}
	var rb []routing.Output
	if outs := m.permitted(&s, c, di, &rb); len(outs) > 0 {
		return outs[0].Channel
	}
	return topology.None
}

// PermittedOutputs returns every channel the relation permits the address flit of
// message i for destination di at input vc of state s (as PreferredOutput), most
// preferred first and each channel once, or nil at that destination. A blocked header
// of an adaptive relation waits for all of them: it is stuck only while every one is
// busy.
func (m *Model) PermittedOutputs(s State, i, di, vc int) []topology.ChannelID {
	c := cursor{input: i, msg: i, vc: -1, at: m.cfg.Messages[i].Source, in: s.Msgs[i].In}
	if vc >= 0 {
		c = cursor{input: len(s.Msgs) + vc, msg: i, vc: vc, at: m.vcTo[vc], in: s.VCs[vc].In}
	}
	if m.isDest(i, di, c.at) {
		return nil
	}
	var rb []routing.Output
	var out []topology.ChannelID
	for _, o := range m.permitted(&s, c, di, &rb) {
		if !slices.Contains(out, o.Channel) {
			out = append(out, o.Channel)
		}
	}
	return out
}
