package flit

import (
	"fmt"
	"strings"
	"sync"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/system"
)

func chanID(c int) model.ChannelID { return model.ChannelID(c) }

func chanNode(v int) model.NodeID { return model.NodeID(v) }

// Model is the flit-level wormhole network of a Config as a system.Model[State]. It is
// immutable after New and safe for concurrent use.
type Model struct {
	cfg     Config
	nvc     int            // number of network virtual channels: Channels*VCs
	per     int            // VCs per class
	vcTo    []model.NodeID // receiving router of each virtual channel
	into    [][]int32      // virtual channels entering each node
	flits   []int          // format length per message
	expect  []int          // flits each destination must receive, per message
	destIdx [][]int16      // destIdx[m][node] = index of node in Dests, or -1
	next    [][][]int32    // next[m][di][node] = hop index leaving node towards Dests[di], or -1
	hops    [][][]model.Hop
}

// New validates cfg and builds its model. Cost O(messages*destinations*(nodes+path)).
func New(cfg Config) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m := &Model{cfg: cfg}
	m.cfg.Messages = append([]Message(nil), cfg.Messages...)
	nodes := cfg.Net.Nodes()
	m.nvc = cfg.Net.Channels() * cfg.VCs
	m.per = cfg.VCs / cfg.Routing.Classes()
	m.vcTo = make([]model.NodeID, m.nvc)
	m.into = make([][]int32, nodes)
	for o := 0; o < m.nvc; o++ {
		_, to := cfg.Net.Ends(chanID(o / cfg.VCs))
		m.vcTo[o] = to
		m.into[to] = append(m.into[to], int32(o))
	}
	for i, msg := range m.cfg.Messages {
		m.flits = append(m.flits, msg.Flits())
		exp := msg.Length
		if msg.Multicast {
			exp = 1 + msg.Length
		}
		m.expect = append(m.expect, exp)
		idx := make([]int16, nodes)
		for v := range idx {
			idx[v] = -1
		}
		nx := make([][]int32, len(msg.Dests))
		hs := make([][]model.Hop, len(msg.Dests))
		for di, d := range msg.Dests {
			idx[d] = int16(di)
			h := cfg.Routing.Hops(msg.Source, d)
			if len(h) == 0 {
				return nil, fmt.Errorf("flit config: message %d: the routing has no path from %s to %s", i, cfg.Net.NodeName(msg.Source), cfg.Net.NodeName(d))
			}
			nx[di] = make([]int32, nodes)
			for v := range nx[di] {
				nx[di][v] = -1
			}
			cur := msg.Source
			for k, hop := range h {
				if int(hop.Class) >= cfg.Routing.Classes() || hop.Channel < 0 || int(hop.Channel) >= cfg.Net.Channels() {
					return nil, fmt.Errorf("flit config: message %d: routing returned a bad hop %v", i, hop)
				}
				from, to := cfg.Net.Ends(hop.Channel)
				if from != cur || nx[di][from] != -1 {
					return nil, fmt.Errorf("flit config: message %d: the routing's path to %s is not a simple path", i, cfg.Net.NodeName(d))
				}
				nx[di][from] = int32(k)
				cur = to
			}
			if cur != d {
				return nil, fmt.Errorf("flit config: message %d: the routing's path ends at %s, not %s", i, cfg.Net.NodeName(cur), cfg.Net.NodeName(d))
			}
			hs[di] = h
		}
		m.destIdx = append(m.destIdx, idx)
		m.next = append(m.next, nx)
		m.hops = append(m.hops, hs)
	}
	return m, nil
}

// Config returns the model's configuration (do not modify its slices).
func (m *Model) Config() Config { return m.cfg }

// VCs returns the number of network virtual channels (Channels*VCs); Out values 0..VCs()-1.
func (m *Model) VCs() int { return m.nvc }

// ExpectedFlits returns how many flits each destination of message i must receive: its
// address flit and its data for a multicast, Length for a unicast.
func (m *Model) ExpectedFlits(i int) int { return m.expect[i] }

// Init returns the single initial state: every message waiting at its source, every
// virtual channel free.
func (m *Model) Init() []State {
	s := State{Msgs: make([]Msg, len(m.cfg.Messages)), VCs: make([]VC, m.nvc)}
	for i := range s.Msgs {
		s.Msgs[i].In.Cur = -1
		s.Msgs[i].Got = MakeBytes(make([]uint8, len(m.cfg.Messages[i].Dests)))
	}
	for i := range s.VCs {
		s.VCs[i] = VC{Owner: -1, In: Input{Cur: -1}}
	}
	return []State{s}
}

// Terminal reports whether every message has been fully delivered: every source done and
// every virtual channel free.
func (m *Model) Terminal(s State) bool {
	for i := range s.Msgs {
		if !s.Msgs[i].Done {
			return false
		}
	}
	for i := range s.VCs {
		if s.VCs[i].Owner >= 0 {
			return false
		}
	}
	return true
}

// Kind is the kind of a transition.
type Kind uint8

// The transition kinds. Every transition moves at most one flit.
const (
	// KindMove moves the next flit of an input (from its buffer or, when re-injecting,
	// from its auxiliary buffer) to the output it is connected to; into Eject it is a
	// delivery. When it empties a closed input the input is released (the tail release)
	// and its outputs are closed, in the same transition.
	KindMove Kind = iota + 1
	// KindFollow moves an address flit into an output its message already reserved at
	// this router (000 §2.1 case (b)).
	KindFollow
	// KindAlloc reserves a free output (a virtual channel of the routing's class, or the
	// ejection channel) for the address flit at the head of an input and moves the flit
	// into it: a worm header's VC allocation, or a new branch (000 §2.1 case (a), after
	// which the data is re-injected from the auxiliary buffer).
	KindAlloc
	// KindPrune releases the other branches of a message at a router (000 §3).
	KindPrune
)

var kindNames = [...]string{"?", "move", "follow", "alloc", "prune"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// MakeAction packs a transition: its kind, the input it acts on (message i's source is
// input i; virtual channel o is input Messages+o) and an argument (the output+1 for
// KindAlloc, else 0).
func MakeAction(k Kind, input int, arg int) system.Action {
	return system.Action(uint64(k)<<56 | uint64(uint32(input))<<24 | uint64(uint32(arg)&0xffffff))
}

// SplitAction is the inverse of MakeAction.
func SplitAction(a system.Action) (k Kind, input int, arg int) {
	return Kind(a >> 56), int(uint32(a>>24) & 0xffffffff), int(a & 0xffffff)
}

// cursor names one input channel of a state: a message's source (vc < 0) or a virtual
// channel; msg is the message it carries and at the router it belongs to.
type cursor struct {
	input int
	msg   int
	vc    int
	at    model.NodeID
	in    *Input
}

// nextFlit returns the flit an input would send next and whether it comes from the
// auxiliary buffer; ok is false when the input has nothing to send.
func (m *Model) nextFlit(s *State, c cursor) (f uint8, aux, ok bool) {
	if c.in.Reinj > 0 {
		return uint8(m.cfg.Messages[c.msg].Length - int(c.in.Reinj) + 1), true, true
	}
	if c.vc < 0 {
		g := &s.Msgs[c.msg]
		if int(g.Sent) < m.flits[c.msg] {
			return g.Sent, false, true
		}
		return 0, false, false
	}
	v := &s.VCs[c.vc]
	if v.Flits != 0 {
		return v.Flits.At(0), false, true
	}
	return 0, false, false
}

// addrDest returns the destination index of flit f of message i if it is an address flit.
func (m *Model) addrDest(i int, f uint8) (int, bool) {
	msg := &m.cfg.Messages[i]
	if f == 0 {
		return 0, true
	}
	if msg.Multicast && int(f) > msg.Length {
		return int(f) - msg.Length, true
	}
	return 0, false
}

// want returns the output class an address flit of message i for destination di needs at
// router r: eject, or physical channel ch with class cl.
func (m *Model) want(i, di int, r model.NodeID) (eject bool, ch model.ChannelID, cl uint8) {
	if m.cfg.Messages[i].Dests[di] == r {
		return true, 0, 0
	}
	k := m.next[i][di][r]
	if k < 0 {
		// Unreachable for well-formed routings: the tree reaches r only on the path to di.
		return true, -1, 0
	}
	h := m.hops[i][di][k]
	return false, h.Channel, h.Class
}

func (m *Model) matches(o Out, ch model.ChannelID, cl uint8) bool {
	return o >= 0 && int(o)/m.cfg.VCs == int(ch) && (int(o)%m.cfg.VCs)/m.per == int(cl)
}

func (m *Model) room(s *State, o Out) bool {
	return o == Eject || s.VCs[o].Flits.Len() < m.cfg.Buffer
}

// ejectBusy reports whether router r's ejection channel is held (one-port only).
func (m *Model) ejectBusy(s *State, r model.NodeID) bool {
	if m.cfg.Ports != OnePort {
		return false
	}
	for _, o := range m.into[r] {
		v := &s.VCs[o]
		if v.Owner >= 0 && v.In.Outs != 0 && v.In.Outs.At(0) == Eject {
			return true
		}
	}
	return false
}

// injectBusy reports whether node n's injection channel is held (one-port only).
func (m *Model) injectBusy(s *State, n model.NodeID) bool {
	if m.cfg.Ports != OnePort {
		return false
	}
	for i := range s.Msgs {
		g := &s.Msgs[i]
		if m.cfg.Messages[i].Source == n && g.Sent > 0 && !g.Done {
			return true
		}
	}
	return false
}

func (m *Model) cursors(s *State, yield func(c cursor) bool) {
	for i := range s.Msgs {
		if s.Msgs[i].Done {
			continue
		}
		if !yield(cursor{input: i, msg: i, vc: -1, at: m.cfg.Messages[i].Source, in: &s.Msgs[i].In}) {
			return
		}
	}
	for o := range s.VCs {
		v := &s.VCs[o]
		if v.Owner < 0 {
			continue
		}
		if !yield(cursor{input: len(s.Msgs) + o, msg: int(v.Owner), vc: o, at: m.vcTo[o], in: &v.In}) {
			return
		}
	}
}

// succStep is one enabled transition before it is applied: its action, the input it acts
// on, its kind and applyTo's argument (the output taken for KindAlloc, the index of the
// output followed for KindFollow).
type succStep struct {
	a   system.Action
	c   cursor
	k   Kind
	arg int
}

// steps appends the enabled transitions of s in Successors order, without applying them.
func (m *Model) steps(s *State, dst []succStep) []succStep {
	for i := range s.Msgs {
		if s.Msgs[i].Done {
			continue
		}
		dst = m.inputSteps(s, cursor{input: i, msg: i, vc: -1, at: m.cfg.Messages[i].Source, in: &s.Msgs[i].In}, dst)
	}
	for o := range s.VCs {
		v := &s.VCs[o]
		if v.Owner < 0 {
			continue
		}
		dst = m.inputSteps(s, cursor{input: len(s.Msgs) + o, msg: int(v.Owner), vc: o, at: m.vcTo[o], in: &v.In}, dst)
	}
	return dst
}

// Successors appends the enabled transitions of s: inputs in order (message sources by
// message, then virtual channels by index), and for each input its moves, then its
// allocations by output index, then its pruning. Each successor gets its own copy of
// the virtual channels (and of the messages when the succStep changes one); the inner
// slices it does not change are shared with s.
func (m *Model) Successors(s State, dst []system.Transition[State]) []system.Transition[State] {
	var buf [16]succStep
	for _, st := range m.steps(&s, buf[:0]) {
		dst = append(dst, system.Transition[State]{Action: st.a, Next: m.applyStep(&s, st)})
	}
	return dst
}

// Successor returns the target of the enabled transition a of s: the Next of the
// transition with action a among Successors(s). It panics if a is not enabled in s (the
// explorer only asks for actions EncodeSuccessors reported).
func (m *Model) Successor(s State, a system.Action) State {
	_, input, _ := SplitAction(a)
	var c cursor
	switch {
	case input < len(s.Msgs) && !s.Msgs[input].Done:
		c = cursor{input: input, msg: input, vc: -1, at: m.cfg.Messages[input].Source, in: &s.Msgs[input].In}
	case input >= len(s.Msgs) && input-len(s.Msgs) < len(s.VCs) && s.VCs[input-len(s.Msgs)].Owner >= 0:
		o := input - len(s.Msgs)
		c = cursor{input: input, msg: int(s.VCs[o].Owner), vc: o, at: m.vcTo[o], in: &s.VCs[o].In}
	default:
		panic(fmt.Sprintf("flit: Successor: action %#x acts on an idle input", uint64(a)))
	}
	var buf [8]succStep
	for _, st := range m.inputSteps(&s, c, buf[:0]) {
		if st.a == a {
			return m.applyStep(&s, st)
		}
	}
	panic(fmt.Sprintf("flit: Successor: action %#x is not enabled", uint64(a)))
}

// scratch is the reusable successor buffer of EncodeSuccessors.
type scratch struct {
	st    []succStep
	state State
	log   touched
	enc   []byte // the parent's encoding
	msgAt []int  // msgAt[i]: offset of message i's encoding in enc; msgAt[len(Msgs)] = VCs start
	vcAt  []int  // vcAt[o]: offset of virtual channel o's encoding in enc; vcAt[nvc] = len(enc)
}

// encodeParent encodes s into sc.enc, recording where each message and channel starts.
func (sc *scratch) encodeParent(s *State) {
	sc.enc = sc.enc[:0]
	sc.msgAt = sc.msgAt[:0]
	sc.vcAt = sc.vcAt[:0]
	for i := range s.Msgs {
		sc.msgAt = append(sc.msgAt, len(sc.enc))
		sc.enc = encodeMsg(sc.enc, &s.Msgs[i])
	}
	sc.msgAt = append(sc.msgAt, len(sc.enc))
	for o := range s.VCs {
		sc.vcAt = append(sc.vcAt, len(sc.enc))
		sc.enc = encodeVC(sc.enc, &s.VCs[o])
	}
	sc.vcAt = append(sc.vcAt, len(sc.enc))
}

// encodeStep appends the encoding of t, the parent with the step's writes applied: the
// parent's bytes, with message msg and the logged channels re-encoded from t.
func (sc *scratch) encodeStep(t *State, msg int, buf []byte) []byte {
	buf = append(buf, sc.enc[:sc.msgAt[msg]]...)
	buf = encodeMsg(buf, &t.Msgs[msg])
	pos := sc.msgAt[msg+1]
	idx := sc.log.idx[:sc.log.n]
	for i := 1; i < len(idx); i++ { // insertion sort: a step writes a few channels
		for j := i; j > 0 && idx[j] < idx[j-1]; j-- {
			idx[j], idx[j-1] = idx[j-1], idx[j]
		}
	}
	for k, o := range idx {
		if k > 0 && o == idx[k-1] {
			continue
		}
		buf = append(buf, sc.enc[pos:sc.vcAt[o]]...)
		buf = encodeVC(buf, &t.VCs[o])
		pos = sc.vcAt[o+1]
	}
	return append(buf, sc.enc[pos:]...)
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// touched logs the virtual channels a step writes, so that EncodeSuccessors restores
// only those; a nil log records nothing.
type touched struct {
	idx  [16]int32
	n    int
	full bool // more than len(idx) writes: restore everything
}

func (t *touched) add(vc int) {
	if t == nil || vc < 0 {
		return
	}
	if t.n == len(t.idx) {
		t.full = true
		return
	}
	t.idx[t.n] = int32(vc)
	t.n++
}

// EncodeSuccessors calls yield, for every transition Successors(s) returns and in the
// same order, with its action and the encoding of its target (Encode of Next), without
// building the targets: each is applied to a scratch copy of s, which is then restored
// where the step wrote, and encoded by re-encoding only what the step wrote into s's
// encoding. enc is valid only during the call to yield. buf is scratch
// space for the encodings; the possibly grown buffer is returned for reuse. It
// implements system.SuccessorEncoder.
func (m *Model) EncodeSuccessors(s State, buf []byte, yield func(a system.Action, enc []byte)) []byte {
	sc := scratchPool.Get().(*scratch)
	sc.st = m.steps(&s, sc.st[:0])
	t := &sc.state
	if len(t.VCs) != len(s.VCs) || len(t.Msgs) != len(s.Msgs) {
		t.VCs = make([]VC, len(s.VCs))
		t.Msgs = make([]Msg, len(s.Msgs))
	}
	if len(sc.st) > 0 {
		copy(t.VCs, s.VCs)
		copy(t.Msgs, s.Msgs)
		sc.encodeParent(&s)
	}
	for _, st := range sc.st {
		sc.log = touched{}
		m.applyInto(&s, st.c, st.k, st.arg, t, &sc.log)
		if sc.log.full {
			buf = m.Encode(*t, buf[:0])
		} else {
			buf = sc.encodeStep(t, st.c.msg, buf[:0])
		}
		yield(st.a, buf)
		if sc.log.full {
			copy(t.VCs, s.VCs)
		} else {
			for _, o := range sc.log.idx[:sc.log.n] {
				t.VCs[o] = s.VCs[o]
			}
		}
		t.Msgs[st.c.msg] = s.Msgs[st.c.msg]
	}
	for i := range sc.st {
		sc.st[i].c.in = nil
	}
	scratchPool.Put(sc)
	return buf
}

func (m *Model) inputSteps(s *State, c cursor, dst []succStep) []succStep {
	f, aux, ok := m.nextFlit(s, c)
	if !ok {
		return dst
	}
	if c.vc < 0 && s.Msgs[c.msg].Sent == 0 && !aux && m.injectBusy(s, c.at) {
		return dst
	}
	in := c.in
	di, isAddr := m.addrDest(c.msg, f)
	if aux || !isAddr {
		o := in.Outs.At(int(in.Cur))
		if m.room(s, o) {
			return append(dst, succStep{MakeAction(KindMove, c.input, 0), c, KindMove, 0})
		}
		if m.stopPrunable(in, int(in.Cur)) {
			return append(dst, m.pruneStep(c))
		}
		return dst
	}
	eject, ch, cl := m.want(c.msg, di, c.at)
	for j, o := range in.Outs.Slice() {
		if (eject && o == Eject) || (!eject && m.matches(o, ch, cl)) {
			if m.room(s, o) {
				return append(dst, succStep{MakeAction(KindFollow, c.input, 0), c, KindFollow, j})
			}
			if m.stopPrunable(in, j) {
				return append(dst, m.pruneStep(c))
			}
			return dst
		}
	}
	n0 := len(dst)
	if eject {
		if ch >= 0 && !m.ejectBusy(s, c.at) {
			dst = append(dst, succStep{MakeAction(KindAlloc, c.input, 0), c, KindAlloc, int(Eject)})
		}
	} else {
		base := int(ch)*m.cfg.VCs + int(cl)*m.per
		for o := base; o < base+m.per; o++ {
			if s.VCs[o].Owner < 0 {
				dst = append(dst, succStep{MakeAction(KindAlloc, c.input, o+1), c, KindAlloc, o})
			}
		}
	}
	if len(dst) == n0 && m.prunable(in) {
		dst = append(dst, m.pruneStep(c))
	}
	return dst
}

// prunable reports whether an input blocked at an address flit for want of a free output
// has branches its policy would prune.
func (m *Model) prunable(in *Input) bool {
	switch m.cfg.Prune {
	case PruneOnNoFree, PruneOnStop:
		return in.Outs.Len() > 0
	case PrunePartial:
		return m.stopPrunable(in, -1)
	}
	return false
}

// stopPrunable reports whether an input whose next flit is stopped by the full buffer of
// output index blocked has other branches its policy prunes when flits stop (PruneOnStop:
// any; PrunePartial: any but the local ejection).
func (m *Model) stopPrunable(in *Input, blocked int) bool {
	switch m.cfg.Prune {
	case PruneOnStop:
		return in.Outs.Len() > 1 || blocked < 0 && in.Outs.Len() > 0
	case PrunePartial:
		for j, o := range in.Outs.Slice() {
			if j != blocked && o != Eject {
				return true
			}
		}
	}
	return false
}

func (m *Model) pruneStep(c cursor) succStep {
	return succStep{MakeAction(KindPrune, c.input, 0), c, KindPrune, 0}
}

// apply builds the successor of s for a transition of kind k (not KindFollow) at input
// c, taking output o for KindAlloc.
func (m *Model) apply(s *State, c cursor, k Kind, o Out) State {
	if k == KindAlloc {
		return m.applyTo(s, c, k, int(o))
	}
	return m.applyTo(s, c, k, 0)
}

func (m *Model) applyStep(s *State, st succStep) State { return m.applyTo(s, st.c, st.k, st.arg) }

// applyTo builds the successor of s for a transition of kind k at input c. For KindAlloc
// arg is the output taken; for KindFollow the index of the output followed.
func (m *Model) applyTo(s0 *State, c cursor, k Kind, arg int) State {
	// Copy what the transition changes: the virtual channels always, the messages only
	// when it acts at a source or delivers (states are immutable, so an unchanged Msgs
	// slice is shared with the predecessor).
	s := State{Msgs: s0.Msgs, VCs: make([]VC, len(s0.VCs))}
	copy(s.VCs, s0.VCs)
	var target Out = None
	switch k {
	case KindMove:
		target = c.in.Outs.At(int(c.in.Cur))
	case KindFollow:
		target = c.in.Outs.At(arg)
	case KindAlloc:
		target = Out(arg)
	}
	if c.vc < 0 || target == Eject {
		s.Msgs = make([]Msg, len(s0.Msgs))
		copy(s.Msgs, s0.Msgs)
	}
	m.applyInto(s0, c, k, arg, &s, nil)
	return s
}

// applyInto applies the transition of kind k at input c of s0 to s, a copy of s0 whose
// top-level slices (the messages too when the succStep acts at a source or delivers) it may
// write; inner slices are shared with s0 and replaced, never written.
func (m *Model) applyInto(s0 *State, c cursor, k Kind, arg int, s *State, log *touched) {
	log.add(c.vc)
	var in *Input
	if c.vc < 0 {
		in = &s.Msgs[c.msg].In
	} else {
		in = &s.VCs[c.vc].In
	}
	if k == KindPrune {
		m.prune(s, in, c, log)
		return
	}
	f, aux, _ := m.nextFlit(s0, c)
	msg := &m.cfg.Messages[c.msg]
	// Take the flit off the input.
	switch {
	case aux:
		in.Reinj--
	case c.vc < 0:
		s.Msgs[c.msg].Sent++
	default:
		s.VCs[c.vc].Flits = s.VCs[c.vc].Flits.pop()
	}
	// Choose its output.
	switch k {
	case KindFollow:
		in.Cur = int8(arg)
	case KindAlloc:
		o := Out(arg)
		j := 0
		old := in.Outs.Slice()
		for j < len(old) && old[j] < o {
			j++
		}
		if len(old) == 0 {
			in.Outs = singleOut(o)
		} else {
			var tmp [16]Out
			outs := append(tmp[:0], old[:j]...)
			outs = append(outs, o)
			outs = append(outs, old[j:]...)
			in.Outs = MakeOuts(outs)
		}
		in.Cur = int8(j)
		if o != Eject {
			log.add(int(o))
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
	o := in.Outs.At(int(in.Cur))
	if o == Eject {
		g := &s.Msgs[c.msg]
		g.Got = g.Got.bump(int(m.destIdx[c.msg][c.at]))
	} else {
		log.add(int(o))
		v := &s.VCs[o]
		v.Flits = v.Flits.push(f)
	}
	m.finishInput(s, c, log)
}

// seq holds the bytes 0..255: Bytes.Slice of a packed run is a capacity-clipped slice
// of it.
var seq = func() (a [256]uint8) {
	for i := range a {
		a[i] = uint8(i)
	}
	return
}()

// finishInput releases an input that has nothing more to send: a source whose every flit
// and re-injection has left, or a closed, empty virtual channel. Its outputs are closed,
// which may release them in turn.
func (m *Model) finishInput(s *State, c cursor, log *touched) {
	if c.vc < 0 {
		g := &s.Msgs[c.msg]
		if int(g.Sent) == m.flits[c.msg] && g.In.Reinj == 0 {
			outs := g.In.Outs
			g.Done = true
			g.In = Input{Cur: -1}
			for _, o := range outs.Slice() {
				m.closeOut(s, o, log)
			}
		}
		return
	}
	m.tryRelease(s, c.vc, log)
}

func (m *Model) closeOut(s *State, o Out, log *touched) {
	if o == Eject {
		return
	}
	log.add(int(o))
	s.VCs[o].Closed = true
	m.tryRelease(s, int(o), log)
}

func (m *Model) tryRelease(s *State, vc int, log *touched) {
	v := &s.VCs[vc]
	if !v.Closed || v.Flits != 0 || v.In.Reinj > 0 {
		return
	}
	outs := v.In.Outs
	s.VCs[vc] = VC{Owner: -1, In: Input{Cur: -1}}
	for _, o := range outs.Slice() {
		m.closeOut(s, o, log)
	}
}

// prune releases the branches the policy cuts at input in: with PruneOnStop every output
// but the one the stopped flit needs (if any); with PrunePartial also keeping the local
// ejection; with PruneOnNoFree every output.
func (m *Model) prune(s *State, in *Input, c cursor, log *touched) {
	blocked := m.blockedOut(s, c)
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
	for j, o := range in.Outs.Slice() {
		if keep(j, o) {
			if int8(j) == in.Cur || j == blocked {
				cur = int8(len(kept))
			}
			kept = append(kept, o)
		} else {
			cut = append(cut, o)
		}
	}
	in.Outs = MakeOuts(kept)
	in.Cur = cur
	for _, o := range cut {
		m.closeOut(s, o, log)
	}
}

// blockedOut returns the index in the input's outputs of the output its next flit needs
// (the current output for data and re-injected flits, the reserved branch an address flit
// follows), or -1 when the next flit needs a new output.
func (m *Model) blockedOut(s *State, c cursor) int {
	f, aux, ok := m.nextFlit(s, c)
	if !ok {
		return -1
	}
	di, isAddr := m.addrDest(c.msg, f)
	if aux || !isAddr {
		return int(c.in.Cur)
	}
	eject, ch, cl := m.want(c.msg, di, c.at)
	for j, o := range c.in.Outs.Slice() {
		if (eject && o == Eject) || (!eject && m.matches(o, ch, cl)) {
			return j
		}
	}
	return -1
}

// Describe renders an action of state from, e.g. "m1 flit 2 (0,0)->(1,0).vc0".
func (m *Model) Describe(from State, a system.Action) string {
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
		return fmt.Sprintf("%v on unknown input %d", k, input)
	}
	where := "at " + m.cfg.Net.NodeName(c.at)
	if k == KindPrune {
		return fmt.Sprintf("m%d prunes branches %s (%s)", c.msg, where, m.outList(c.in.Outs.Slice()))
	}
	f, aux, ok := m.nextFlit(&from, c)
	if !ok {
		return fmt.Sprintf("m%d %v with no flit %s", c.msg, k, where)
	}
	what := fmt.Sprintf("m%d flit %d", c.msg, f)
	if di, isAddr := m.addrDest(c.msg, f); isAddr && m.cfg.Messages[c.msg].Multicast {
		what = fmt.Sprintf("m%d addr d%d=%s", c.msg, di+1, m.cfg.Net.NodeName(m.cfg.Messages[c.msg].Dests[di]))
	} else if aux {
		what += " (aux)"
	}
	var o Out
	switch k {
	case KindMove:
		o = c.in.Outs.At(int(c.in.Cur))
	case KindFollow:
		di, _ := m.addrDest(c.msg, f)
		eject, ch, cl := m.want(c.msg, di, c.at)
		for _, x := range c.in.Outs.Slice() {
			if (eject && x == Eject) || (!eject && m.matches(x, ch, cl)) {
				o = x
			}
		}
	case KindAlloc:
		o = Out(arg - 1)
	}
	verb := ""
	switch k {
	case KindFollow:
		verb = "follows "
	case KindAlloc:
		verb = "takes "
	}
	if o == Eject {
		return fmt.Sprintf("%s delivered %s", what, where)
	}
	return fmt.Sprintf("%s %s%s", what, verb, m.VCName(o))
}

func (m *Model) outList(outs []Out) string {
	parts := make([]string, len(outs))
	for i, o := range outs {
		parts[i] = m.VCName(o)
	}
	return strings.Join(parts, ", ")
}

var _ system.Model[State] = (*Model)(nil)
var _ system.SuccessorEncoder[State] = (*Model)(nil)
