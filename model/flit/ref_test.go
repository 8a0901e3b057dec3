package flit

import (
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// This file keeps the straightforward implementation of the transition rules (every
// successor copies its virtual channels and messages with make+copy and allocates the
// inner slices it changes) as the naive twin that the optimised Successors is checked
// against (TestSuccessorsAgainstReference). It reads and writes the pointer-free Bytes
// and Outs handles only through plain slices (Slice to read, MakeBytes and MakeOuts of a
// freshly built slice to write), so the handles' fast paths (push, pop, bump) are
// checked against it too.

// refSuccessors appends the enabled transitions of s: inputs in order (message sources by
// message, then virtual channels by index), and for each input its moves, then its
// allocations by output index, then its pruning.
func (m *Model) refSuccessors(s State, dst []checker.Transition[State]) []checker.Transition[State] {
	m.cursors(&s, func(c cursor) bool {
		dst = m.refInputSuccessors(&s, c, dst)
		return true
	})
	return dst
}

func (m *Model) refInputSuccessors(s *State, c cursor, dst []checker.Transition[State]) []checker.Transition[State] {
	f, aux, ok := m.nextFlit(s, c)
	if !ok {
		return dst
	}
	if c.vc < 0 && s.Msgs[c.msg].Sent == 0 && !aux && m.injectBusy(s, c.at) {
		return dst
	}
	in := &c.in
	di, isAddr := m.addrDest(c.msg, f)
	if aux || !isAddr {
		o := in.Outs.Slice(m.tab)[in.Cur]
		if m.room(s, o) {
			a := MakeAction(KindMove, c.input, 0)
			return append(dst, checker.Transition[State]{Action: a, Next: m.refApplyTo(s, c, KindMove, 0, false)})
		}
		if m.refStopPrunable(in, int(in.Cur)) {
			return append(dst, m.refPruneTransition(s, c))
		}
		return dst
	}
	eject := m.cfg.Messages[c.msg].Dests[di] == c.at
	if j, mis := m.refReserved(s, c, di); j >= 0 {
		if m.room(s, in.Outs.Slice(m.tab)[j]) {
			a := MakeAction(KindFollow, c.input, 0)
			return append(dst, checker.Transition[State]{Action: a, Next: m.refApplyTo(s, c, KindFollow, j, mis)})
		}
		if m.refStopPrunable(in, j) {
			return append(dst, m.refPruneTransition(s, c))
		}
		return dst
	}
	n0 := len(dst)
	if eject {
		if !m.ejectBusy(s, c.at) {
			a := MakeAction(KindAlloc, c.input, 0)
			dst = append(dst, checker.Transition[State]{Action: a, Next: m.refApplyTo(s, c, KindAlloc, int(Eject), false)})
		}
	} else {
		// Every model virtual channel, in index order: a free one the relation permits
		// is a branch of its own.
		for o := 0; o < len(s.VCs); o++ {
			if ok, mis := m.refPermits(s, c, di, Out(o)); ok && s.VCs[o].Owner < 0 {
				a := MakeAction(KindAlloc, c.input, o+1)
				dst = append(dst, checker.Transition[State]{Action: a, Next: m.refApplyTo(s, c, KindAlloc, o, mis)})
			}
		}
	}
	if len(dst) == n0 && m.refPrunable(in) {
		dst = append(dst, m.refPruneTransition(s, c))
	}
	return dst
}

// refPrunable reports whether an input blocked at an address flit for want of a free output
// has branches its policy would prune.
func (m *Model) refPrunable(in *Input) bool {
	switch m.cfg.Prune {
	case PruneOnNoFree, PruneOnStop:
		return len(in.Outs.Slice(m.tab)) > 0
	case PrunePartial:
		return m.refStopPrunable(in, -1)
	}
	return false
}

// refStopPrunable reports whether an input whose next flit is stopped by the full buffer of
// output index blocked has other branches its policy prunes when flits stop (PruneOnStop:
// any; PrunePartial: any but the local ejection).
func (m *Model) refStopPrunable(in *Input, blocked int) bool {
	switch m.cfg.Prune {
	case PruneOnStop:
		return len(in.Outs.Slice(m.tab)) > 1 || blocked < 0 && len(in.Outs.Slice(m.tab)) > 0
	case PrunePartial:
		for j, o := range in.Outs.Slice(m.tab) {
			if j != blocked && o != Eject {
				return true
			}
		}
	}
	return false
}

func (m *Model) refPruneTransition(s *State, c cursor) checker.Transition[State] {
	return checker.Transition[State]{Action: MakeAction(KindPrune, c.input, 0), Next: m.refApplyTo(s, c, KindPrune, 0, false)}
}

// refHeader builds the relation's header for the address flit of destination di at
// input c from the configuration alone.
func (m *Model) refHeader(s *State, c cursor, di int) routing.Header {
	msg := m.cfg.Messages[c.msg]
	h := routing.Header{At: c.at, Src: msg.Source, Dst: msg.Dests[di]}
	h.In.Channel = routing.Injection
	if c.vc >= 0 {
		h.In.Channel = topology.ChannelID(c.vc / m.cfg.VCs)
		h.In.VC = c.vc % m.cfg.VCs / (m.cfg.VCs / m.cfg.Routing.VCs())
	}
	if _, ok := m.cfg.Routing.(routing.Budgeted); ok {
		h.Misroutes = int(s.Msgs[c.msg].Mis)
	}
	return h
}

// refPermits reports whether the relation permits model virtual channel o to the address
// flit of destination di at input c (and whether the first output that permits it is a
// misroute).
func (m *Model) refPermits(s *State, c cursor, di int, o Out) (bool, bool) {
	if o < 0 {
		return false, false
	}
	from, _ := m.cfg.Net.Ends(topology.ChannelID(int(o) / m.cfg.VCs))
	if from != c.at {
		return false, false
	}
	for _, r := range m.cfg.Routing.Route(m.refHeader(s, c, di), nil) {
		if int(r.Channel) == int(o)/m.cfg.VCs && r.VC == int(o)%m.cfg.VCs/(m.cfg.VCs/m.cfg.Routing.VCs()) {
			return true, r.Misroute
		}
	}
	return false, false
}

// refReserved returns the reserved output the address flit of destination di at input
// c takes first (the ejection at its destination; elsewhere the reserved output of the
// relation's most preferred permitted output), or -1.
func (m *Model) refReserved(s *State, c cursor, di int) (int, bool) {
	outs := c.in.Outs.Slice(m.tab)
	if m.cfg.Messages[c.msg].Dests[di] == c.at {
		for j, o := range outs {
			if o == Eject {
				return j, false
			}
		}
		return -1, false
	}
	for _, r := range m.cfg.Routing.Route(m.refHeader(s, c, di), nil) {
		for j, o := range outs {
			if o >= 0 && int(r.Channel) == int(o)/m.cfg.VCs && r.VC == int(o)%m.cfg.VCs/(m.cfg.VCs/m.cfg.Routing.VCs()) {
				return j, r.Misroute
			}
		}
	}
	return -1, false
}

// refApplyTo builds the successor of s for a transition of kind k at input c. For KindAlloc
// arg is the output taken; for KindFollow the index of the output followed; mis counts a
// misroute of a Budgeted relation.
func (m *Model) refApplyTo(s0 *State, c cursor, k Kind, arg int, mis bool) State {
	// Copy both top-level slices (the optimised code copies the messages only when
	// the step changes one).
	s := State{VCs: make([]VC, len(s0.VCs))}
	copy(s.VCs, s0.VCs)
	s.Msgs = make([]Msg, len(s0.Msgs))
	copy(s.Msgs, s0.Msgs)
	if b, ok := m.cfg.Routing.(routing.Budgeted); ok && mis && int(s.Msgs[c.msg].Mis) < min(b.MisrouteBudget(), 255) {
		s.Msgs[c.msg].Mis++
	}
	var in *Input
	if c.vc < 0 {
		in = &s.Msgs[c.msg].In
	} else {
		in = &s.VCs[c.vc].In
	}
	if k == KindPrune {
		m.refPrune(&s, in, c)
		return s
	}
	f, aux, _ := m.nextFlit(&s, c)
	msg := &m.cfg.Messages[c.msg]
	// Take the flit off the input.
	switch {
	case aux:
		in.Reinj--
	case c.vc < 0:
		s.Msgs[c.msg].Sent++
	default:
		s.VCs[c.vc].Flits = m.tab.MakeBytes(s.VCs[c.vc].Flits.Slice(m.tab)[1:])
	}
	// Choose its output.
	switch k {
	case KindFollow:
		in.Cur = int8(arg)
	case KindAlloc:
		o := Out(arg)
		old := in.Outs.Slice(m.tab)
		outs := make([]Out, 0, len(old)+1)
		j := 0
		for j < len(old) && old[j] < o {
			j++
		}
		outs = append(outs, old[:j]...)
		outs = append(outs, o)
		outs = append(outs, old[j:]...)
		in.Outs = m.tab.MakeOuts(outs)
		in.Cur = int8(j)
		if o != Eject {
			s.VCs[o] = VC{Owner: int8(c.msg), In: Input{Cur: -1}}
		}
	}
	if msg.Multicast && !aux {
		if int(f) >= 1 && int(f) <= msg.Length {
			in.Aux++ // data from the buffer is copied into the auxiliary buffer
		} else if k == KindAlloc && int(in.Aux) == msg.Length {
			// A new branch opened after the data has passed: re-inject the data from
			// the auxiliary buffer behind its address flit (000 §2.1 case (a)). The
			// first address of a stream is followed by the data itself instead.
			in.Reinj = uint8(msg.Length)
		}
	}
	o := in.Outs.Slice(m.tab)[in.Cur]
	if o == Eject {
		g := &s.Msgs[c.msg]
		got := append([]uint8(nil), g.Got.Slice(m.tab)...)
		got[m.destIdx[c.msg][c.at]]++
		g.Got = m.tab.MakeBytes(got)
	} else {
		v := &s.VCs[o]
		v.Flits = m.tab.MakeBytes(append(append([]uint8(nil), v.Flits.Slice(m.tab)...), f))
	}
	m.refFinishInput(&s, c)
	if _, ok := m.cfg.Routing.(routing.Budgeted); ok && o == Eject {
		// A worm that has left its source and holds no channel is delivered: its
		// misroute count is forgotten.
		holds := false
		for _, v := range s.VCs {
			holds = holds || int(v.Owner) == c.msg
		}
		if s.Msgs[c.msg].Done && !holds {
			s.Msgs[c.msg].Mis = 0
		}
	}
	return s
}

// refFinishInput releases an input that has nothing more to send: a source whose every flit
// and re-injection has left, or a closed, empty virtual channel. Its outputs are closed,
// which may release them in turn.
func (m *Model) refFinishInput(s *State, c cursor) {
	if c.vc < 0 {
		g := &s.Msgs[c.msg]
		if int(g.Sent) == m.flits[c.msg] && g.In.Reinj == 0 {
			outs := g.In.Outs.Slice(m.tab)
			g.Done = true
			g.In = Input{Cur: -1}
			for _, o := range outs {
				m.refCloseOut(s, o)
			}
		}
		return
	}
	m.refTryRelease(s, c.vc)
}

func (m *Model) refCloseOut(s *State, o Out) {
	if o == Eject {
		return
	}
	s.VCs[o].Closed = true
	m.refTryRelease(s, int(o))
}

func (m *Model) refTryRelease(s *State, vc int) {
	v := &s.VCs[vc]
	if !v.Closed || len(v.Flits.Slice(m.tab)) > 0 || v.In.Reinj > 0 {
		return
	}
	outs := v.In.Outs.Slice(m.tab)
	s.VCs[vc] = VC{Owner: -1, In: Input{Cur: -1}}
	for _, o := range outs {
		m.refCloseOut(s, o)
	}
}

// refPrune releases the branches the policy cuts at input in: with PruneOnStop every output
// but the one the stopped flit needs (if any); with PrunePartial also keeping the local
// ejection; with PruneOnNoFree every output.
func (m *Model) refPrune(s *State, in *Input, c cursor) {
	blocked := m.refBlockedOut(s, c)
	keep := func(j int, o Out) bool {
		switch m.cfg.Prune {
		case PrunePartial:
			return o == Eject || j == blocked
		case PruneOnStop:
			return j == blocked
		}
		return false
	}
	var kept, cut []Out
	cur := int8(-1)
	for j, o := range in.Outs.Slice(m.tab) {
		if keep(j, o) {
			if int8(j) == in.Cur || j == blocked {
				cur = int8(len(kept))
			}
			kept = append(kept, o)
		} else {
			cut = append(cut, o)
		}
	}
	in.Outs = m.tab.MakeOuts(kept)
	in.Cur = cur
	for _, o := range cut {
		m.refCloseOut(s, o)
	}
}

// refBlockedOut returns the index in the input's outputs of the output its next flit needs
// (the current output for data and re-injected flits, the reserved branch an address flit
// follows), or -1 when the next flit needs a new output.
func (m *Model) refBlockedOut(s *State, c cursor) int {
	f, aux, ok := m.nextFlit(s, c)
	if !ok {
		return -1
	}
	di, isAddr := m.addrDest(c.msg, f)
	if aux || !isAddr {
		return int(c.in.Cur)
	}
	j, _ := m.refReserved(s, c, di)
	return j
}

// refEncode is the straightforward canonical encoding Encode is checked against: the
// layout documented on Encode, each worm's local state built field by field with append
// and interned in the model's table.
func (m *Model) refEncode(s State, buf []byte) []byte {
	uvarint := func(buf []byte, x uint32) []byte {
		for x >= 0x80 {
			buf = append(buf, byte(x)|0x80)
			x >>= 7
		}
		return append(buf, byte(x))
	}
	input := func(buf []byte, in *Input) []byte {
		outs := in.Outs.Slice(m.tab)
		flag := uint32(0)
		if in.Aux != 0 || in.Reinj != 0 {
			flag = 1
		}
		buf = uvarint(buf, uint32(len(outs))<<1|flag)
		for _, o := range outs {
			buf = uvarint(buf, uint32(o+1))
		}
		if len(outs) > 0 {
			buf = append(buf, byte(in.Cur+1))
		}
		if flag == 1 {
			buf = append(buf, in.Aux, in.Reinj)
		}
		return buf
	}
	msgs := make([][]byte, len(s.Msgs))
	for i := range s.Msgs {
		g := &s.Msgs[i]
		var b []byte
		if g.Done {
			b = append(b, 0)
		} else {
			b = append(b, g.Sent+1)
		}
		if _, ok := m.cfg.Routing.(routing.Budgeted); ok {
			b = append(b, g.Mis)
		}
		b = append(b, g.Got.Slice(m.tab)...)
		if !g.Done {
			b = input(b, &g.In)
		}
		msgs[i] = b
	}
	// Each worm's local state: its message's section (above), then its channels.
	var out []byte
	for i := range s.Msgs {
		local := msgs[i]
		for o := range s.VCs {
			v := &s.VCs[o]
			if int(v.Owner) != i {
				continue
			}
			local = uvarint(local, uint32(o))
			closed := byte(0)
			if v.Closed {
				closed = 1
			}
			local = append(local, byte(v.Owner)<<1|closed)
			fl := v.Flits.Slice(m.tab)
			run := len(fl) > 0
			for k := range fl {
				run = run && int(fl[k]) == int(fl[0])+k
			}
			if run {
				local = append(local, 0x80|byte(len(fl)), fl[0])
			} else {
				local = append(local, byte(len(fl)))
				local = append(local, fl...)
			}
			local = input(local, &v.In)
		}
		x := m.tab.worms[i].add(local)
		out = uvarint(out, x)
	}
	for len(out) < 8 {
		out = append(out, 0)
	}
	return append(buf, out...)
}

// refOrderKey is the reference of orderKey: Encode's layout before it was made compact.
func (m *Model) refOrderKey(s State, buf []byte) []byte {
	input := func(buf []byte, in *Input) []byte {
		buf = append(buf, byte(len(in.Outs.Slice(m.tab))))
		for _, o := range in.Outs.Slice(m.tab) {
			x := uint32(o + 1)
			for x >= 0x80 {
				buf = append(buf, byte(x)|0x80)
				x >>= 7
			}
			buf = append(buf, byte(x))
		}
		return append(buf, byte(in.Cur+1), in.Aux, in.Reinj)
	}
	b2 := func(b bool) byte {
		if b {
			return 1
		}
		return 0
	}
	for i := range s.Msgs {
		g := &s.Msgs[i]
		buf = append(buf, g.Sent, b2(g.Done))
		if _, ok := m.cfg.Routing.(routing.Budgeted); ok {
			buf = append(buf, g.Mis)
		}
		buf = append(buf, g.Got.Slice(m.tab)...)
		if !g.Done {
			buf = input(buf, &g.In)
		}
	}
	for i := range s.VCs {
		v := &s.VCs[i]
		buf = append(buf, byte(v.Owner+1))
		if v.Owner < 0 {
			continue
		}
		buf = append(buf, b2(v.Closed), byte(len(v.Flits.Slice(m.tab))))
		buf = append(buf, v.Flits.Slice(m.tab)...)
		buf = input(buf, &v.In)
	}
	return buf
}

// refTerminal is the reference of Terminal.
func (m *Model) refTerminal(s State) bool {
	for _, g := range s.Msgs {
		if !g.Done {
			return false
		}
	}
	for _, v := range s.VCs {
		if v.Owner >= 0 {
			return false
		}
	}
	return true
}
