package flit

import (
	"fmt"
	"strings"
)

// Out is an output reserved by an input channel: a network virtual channel (its index
// c*VCs+v, >= 0) or Eject, the ejection (delivery) channel of the router itself.
type Out int32

// Eject is the output that delivers flits to the local node.
const Eject Out = -1

// Input is the routing state of one input channel of a router (a network virtual channel
// at its receiving end, or a message's source): the table of reserved outputs of 000 §4,
// the output the switch currently connects it to, and the auxiliary data buffer.
//
// Invariants: Outs is sorted ascending and holds no duplicate; Cur is -1 or an index into
// Outs; Aux <= the message's data flits; Reinj > 0 only with Cur >= 0. A unicast worm
// never uses Aux or Reinj and has at most one output.
type Input struct {
	Outs  Outs  // reserved outputs, ascending
	Cur   int8  // index into Outs of the output the next flit goes to; -1 = none yet
	Aux   uint8 // data flits copied into the auxiliary buffer so far (000 §2.1)
	Reinj uint8 // data flits still to re-inject from the auxiliary buffer into Outs[Cur]
}

func (in Input) active() bool { return in.Outs != 0 || in.Aux > 0 || in.Reinj > 0 }

// VC is one network virtual channel: the worm holding it (Owner, -1 when free), the flits
// in its buffer at the receiving end (positions in the owner's format, oldest first, at
// most Config.Buffer), whether the upstream has finished sending into it (Closed: the
// tail has entered, or the branch was released or pruned upstream), and its routing state
// as an input channel of the receiving router.
type VC struct {
	Owner  int8
	Closed bool
	Flits  Bytes
	In     Input
}

// Msg is a message's state at its source: how many flits of its format have left the
// source (Sent), whether the source has finished (Done: every flit and re-injection sent
// and its outputs released), the source's routing state, per destination the number of
// flits delivered there (its address flit and its data; Length flits for a unicast), and
// for a routing.Budgeted relation the misroutes its headers have taken (Mis, at most the
// budget; always 0 for other relations).
//
// Mis is per worm: a unicast's header count exactly; a tree multicast's counter is
// bumped by a misroute of any of its address flits, so it bounds every destination's own
// count from above and the relation, reading it, never lets one exceed the budget.
type Msg struct {
	Sent uint8
	Done bool
	Mis  uint8
	In   Input
	Got  Bytes
}

// State is an explicit flit-level network state. States are values: the model never
// mutates a state it has handed out (successors copy what they change), so states can be
// shared freely. Its messages and virtual channels hold no pointers: flit buffers,
// delivery counts and output tables are Bytes and Outs handles (build them with
// MakeBytes and MakeOuts; read them with Slice, Len and At), so copying a state costs a
// memmove and the garbage collector does not scan states' channel arrays.
//
// A state the model builds (Init, Successors, Successor) also carries its Progress sums,
// so that ranking it costs O(1) and a successor's sums are its parent's updated by what
// the step wrote; a state built elsewhere (a literal, Decode, a symmetry image) has none
// and Progress computes them. This is one more reason never to write a state's slices.
//
// A state EncodeSuccessorsBuild keeps also carries its encoding when it is one word (the
// indices of its worms' local states in its model's table: Encode), so that expanding
// it interns no worm again.
//
// A state DecodeInto returns lives in the caller's scratch memory (front is set), which
// the next DecodeInto overwrites: the model copies, never shares, its slices in the
// states it builds from it.
type State struct {
	Msgs  []Msg
	VCs   []VC
	sums  sums
	worms worms
	front *frontier
}

// worms is a state's encoding (Encode) of one word, little-endian, when tab is the
// table of the model expanding the state (a state built elsewhere has none).
type worms struct {
	tab *Table
	enc uint64
}

// sums are a state's Progress sums (progressSums) when ok.
type sums struct {
	pot, outs uint64
	ok        bool
}

// String renders s without its configuration (raw virtual-channel indices, interned
// sequences by their index); use Model.Format for names and contents.
func (s State) String() string {
	var b strings.Builder
	for i, g := range s.Msgs {
		fmt.Fprintf(&b, "m%d sent %d done %v in %+v got %v\n", i, g.Sent, g.Done, g.In, g.Got)
	}
	for o, v := range s.VCs {
		if v.Owner >= 0 {
			fmt.Fprintf(&b, "vc%d m%d %v closed %v in %+v\n", o, v.Owner, v.Flits, v.Closed, v.In)
		}
	}
	return b.String()
}

// shallow copies the top-level slices; inner slices stay shared and must be replaced,
// never written, by the caller.
func (s State) shallow() State {
	return State{Msgs: append([]Msg(nil), s.Msgs...), VCs: append([]VC(nil), s.VCs...)}
}

// Encode appends the canonical byte encoding of s to buf: per message, in order, a
// uvarint index into the model's table of that worm's local states (padded with zeros
// to 8 bytes when shorter: padWord) (Table; SPIN's
// COLLAPSE compression, Holzmann 1997, with a worm as the component). A worm's local
// state is its message's section, then per virtual channel it holds, in index order, the
// channel's index as a uvarint and the channel's section. Every transition writes only
// the worm it moves (its source, its channels, a free channel it takes), so a state is
// the tuple of its worms' local states, and a successor differs from its parent in one
// index: EncodeSuccessors builds and looks up only that worm's local state.
//
// Why COLLAPSE: the worms of a state combine freely (the states are about the product
// of the worms' local states), so a worm's few hundred or thousand local states are
// stored once each in the table and a state costs one or two bytes per worm: the three
// worms of WH1 take 3 bytes where a field-by-field layout of the same sections takes 42
// (and the layout before it 83). Indices are given in the order worms' local states are
// first met, which may differ between runs with several workers: encodings are
// canonical within one Model (equal states, equal encodings), not across models, and the
// table is part of the model's memory (Model.AuxBytes).
//
// A message's section: a byte that is 0 when it is Done and Sent+1 otherwise (Sent is at
// most MaxFlits, and Done implies every flit sent), Mis (only for a routing.Budgeted
// relation), Got[0..n-1], then (if not Done) its Input. A channel's section:
// Owner<<1|Closed, its flits (0 when empty; 0x80|n and the first flit when they are a
// run first, first+1, ...; else n and the flits), its Input. An Input is a uvarint of
// (number of outputs)<<1 | (Aux or Reinj non-zero), each output as a uvarint of out+1,
// Cur+1 when there is an output, and Aux and Reinj when the flag is set. Every field is
// canonical (outputs are kept sorted, a flit sequence is written as a run exactly when
// it is one), so equal worms have equal local states and different worms different ones.
func (m *Model) Encode(s State, buf []byte) []byte {
	sc := scratchPool.Get().(*scratch)
	m.holders(sc, &s)
	m.encodeParent(sc, &s)
	base := len(buf)
	for _, x := range sc.idx {
		buf = appendUvarint(buf, x)
	}
	sc.release()
	return padWord(buf, base)
}

// padWord pads the indices appended to buf from base with zero bytes to 8 bytes when
// they are fewer: an explorer can key a state of one machine word by its fingerprint
// alone (XXH64 is a bijection on 8-byte inputs), with no copy of the encoding. The
// padding keeps encodings canonical: the indices are self-delimiting uvarints, as many
// as the messages, so the padded bytes still name one tuple of worm states.
func padWord(buf []byte, base int) []byte {
	for len(buf)-base < 8 {
		buf = append(buf, 0)
	}
	return buf
}

// wormLocal appends worm i's local state in s (see Encode) to buf; held lists the
// channels it holds, ascending.
func (m *Model) wormLocal(buf []byte, s *State, i int, held []int32) []byte {
	buf = m.encodeMsg(buf, &s.Msgs[i])
	for _, o := range held {
		buf = appendUvarint(buf, uint32(o))
		buf = m.encodeVC(buf, &s.VCs[o])
	}
	return buf
}

// internWorm returns the index of worm i's local state local in the model's table,
// adding it if it is new.
func (m *Model) internWorm(i int, local []byte) uint32 {
	return m.tab.worms[i].add(local)
}

// encodeMsg appends the encoding of one message (see Encode).
func (m *Model) encodeMsg(buf []byte, g *Msg) []byte {
	if g.Done {
		buf = append(buf, 0)
	} else {
		buf = append(buf, g.Sent+1)
	}
	if m.budget >= 0 {
		buf = append(buf, g.Mis)
	}
	if f := g.Got; f&interned == 0 && byte(f) == 1 { // one destination: no slice
		buf = append(buf, byte(f>>8))
	} else {
		buf = append(buf, g.Got.Slice(m.tab)...)
	}
	if !g.Done {
		buf = m.encodeInput(buf, &g.In)
	}
	return buf
}

// encodeVC appends the encoding of one virtual channel: nothing when it is free (the
// bitmap says so; see Encode).
func (m *Model) encodeVC(buf []byte, v *VC) []byte {
	if v.Owner < 0 {
		return buf
	}
	closed := byte(0)
	if v.Closed {
		closed = 1
	}
	buf = append(buf, byte(v.Owner)<<1|closed)
	switch f := v.Flits; {
	case f == 0:
		buf = append(buf, 0)
	case f&interned == 0: // a packed run
		buf = append(buf, 0x80|byte(f), byte(f>>8))
	default:
		fl := f.Slice(m.tab)
		buf = append(buf, byte(len(fl)))
		buf = append(buf, fl...)
	}
	return m.encodeInput(buf, &v.In)
}

func (m *Model) encodeInput(buf []byte, in *Input) []byte {
	flag := byte(0)
	if in.Aux != 0 || in.Reinj != 0 {
		flag = 1
	}
	if in.Outs == 0 {
		buf = append(buf, flag)
	} else if in.Outs&interned == 0 && in.Outs < 0x80-1 { // one output, one-byte uvarints
		buf = append(buf, 2|flag, byte(in.Outs-1), byte(in.Cur+1))
	} else {
		outs := in.Outs.Slice(m.tab)
		buf = appendUvarint(buf, uint32(len(outs))<<1|uint32(flag))
		for _, o := range outs {
			buf = appendUvarint(buf, uint32(o+1))
		}
		buf = append(buf, byte(in.Cur+1))
	}
	if flag != 0 {
		buf = append(buf, in.Aux, in.Reinj)
	}
	return buf
}

func appendUvarint(buf []byte, x uint32) []byte {
	for x >= 0x80 {
		buf = append(buf, byte(x)|0x80)
		x >>= 7
	}
	return append(buf, byte(x))
}

// orderKey appends the key Symmetric.Canonical orders the images of a state by: the
// byte layout Encode had before it was made compact (per message Sent, Done, Mis, Got,
// Input; per virtual channel Owner+1 and, if held, Closed, the flit count, the flits, its
// Input; an Input as the output count, the outputs as uvarints of out+1, Cur+1, Aux,
// Reinj). Keeping this order keeps the representative of every symmetry class, and so
// the states of symmetry-reduced traces, what they were.
func (m *Model) orderKey(s State, buf []byte) []byte {
	input := func(buf []byte, in *Input) []byte {
		outs := in.Outs.Slice(m.tab)
		buf = append(buf, byte(len(outs)))
		for _, o := range outs {
			buf = appendUvarint(buf, uint32(o+1))
		}
		return append(buf, byte(in.Cur+1), in.Aux, in.Reinj)
	}
	for i := range s.Msgs {
		g := &s.Msgs[i]
		done := byte(0)
		if g.Done {
			done = 1
		}
		buf = append(buf, g.Sent, done)
		if m.budget >= 0 {
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
		closed := byte(0)
		if v.Closed {
			closed = 1
		}
		fl := v.Flits.Slice(m.tab)
		buf = append(buf, closed, byte(len(fl)))
		buf = append(buf, fl...)
		buf = input(buf, &v.In)
	}
	return buf
}

// Decode is the inverse of Encode: it rebuilds the state from the worms' local states
// its indices name, and checks that every index is in the table, every field is within
// the configuration's bounds and written canonically, and no channel is held by two
// worms, so that it returns an error, never a state, for bytes Encode never produces.
// It never panics. It implements system.Decoder, which a search that spills its frontier
// to disk needs (the table stays in memory).
func (m *Model) Decode(data []byte) (State, error) {
	d := decoder{data: data}
	var s State
	s.Msgs = make([]Msg, len(m.cfg.Messages))
	s.VCs = make([]VC, m.nvc)
	for i := range s.VCs {
		s.VCs[i] = VC{Owner: -1, In: Input{Cur: -1}}
	}
	for i := range s.Msgs {
		x := d.uvarint()
		if d.err != nil {
			break
		}
		if n := m.tab.worms[i].n.Load(); x >= n {
			d.fail("message %d: local state %d is not in the table (%d)", i, x, n)
			break
		}
		w := decoder{data: m.tab.worms[i].get(x)}
		m.decodeWorm(&w, &s, i)
		if w.err != nil {
			d.fail("message %d: local state %d: %v", i, x, w.err)
			break
		}
	}
	if d.err == nil && len(d.data) < 8 {
		d.fail("%d bytes; an encoding has at least 8", len(d.data))
	}
	if d.err == nil && d.pos < 8 && len(d.data) == 8 { // padWord's padding
		for d.pos < 8 && d.data[d.pos] == 0 {
			d.pos++
		}
	}
	if d.err == nil && d.pos != len(d.data) {
		d.fail("%d trailing bytes", len(d.data)-d.pos)
	}
	if d.err != nil {
		return State{}, d.err
	}
	return s, nil
}

// decodeWorm decodes worm i's local state from d into s.
func (m *Model) decodeWorm(d *decoder, s *State, i int) {
	m.decodeMsg(d, &s.Msgs[i], i)
	last := -1
	for d.err == nil && d.pos < len(d.data) {
		o := int(d.uvarint())
		switch {
		case o >= m.nvc:
			d.fail("vc %d is not a virtual channel", o)
			return
		case o <= last:
			d.fail("vc %d: channels are not strictly ascending", o)
			return
		case s.VCs[o].Owner >= 0:
			d.fail("vc %d is held by messages %d and %d", o, s.VCs[o].Owner, i)
			return
		}
		last = o
		m.decodeVC(d, &s.VCs[o], o, i)
	}
}

// decodeMsg decodes message i's section (see Encode) from d into g.
func (m *Model) decodeMsg(d *decoder, g *Msg, i int) {
	switch h := int(d.byte()); {
	case h == 0:
		g.Done, g.Sent = true, uint8(m.flits[i])
	case h-1 > m.flits[i]:
		d.fail("message %d: Sent %d exceeds its %d flits", i, h-1, m.flits[i])
	default:
		g.Sent = uint8(h - 1)
	}
	if m.budget >= 0 {
		g.Mis = d.byte()
		if int(g.Mis) > m.budget {
			d.fail("message %d: %d misroutes exceed the budget %d", i, g.Mis, m.budget)
		}
	}
	got := d.bytes(len(m.cfg.Messages[i].Dests))
	for _, c := range got {
		if int(c) > m.expect[i] {
			d.fail("message %d: %d flits delivered; it has %d", i, c, m.expect[i])
		}
	}
	g.Got = m.tab.MakeBytes(got)
	g.In.Cur = -1
	if !g.Done {
		g.In = m.decodeInput(d, i)
	}
}

// decodeVC decodes channel o's section, which must name owner i, into v.
func (m *Model) decodeVC(d *decoder, v *VC, o, i int) {
	b := d.byte()
	if int(b>>1) != i {
		d.fail("vc %d: owner %d in message %d's local state", o, b>>1, i)
		return
	}
	v.Owner = int8(i)
	v.Closed = b&1 != 0
	var fl []byte
	switch n := int(d.byte()); {
	case n&0x80 != 0:
		n &^= 0x80
		first := int(d.byte())
		if n == 0 || first+n > 256 {
			d.fail("vc %d: bad run of %d flits from %d", o, n, first)
			return
		}
		fl = seq[first : first+n]
	default:
		fl = d.bytes(n)
		if b := m.tab.MakeBytes(fl); b != 0 && b&interned == 0 && d.err == nil {
			d.fail("vc %d: a run of flits written as a list", o)
		}
	}
	if len(fl) > m.cfg.Buffer {
		d.fail("vc %d holds %d flits; the buffer has %d", o, len(fl), m.cfg.Buffer)
	}
	for _, f := range fl {
		if int(f) >= m.flits[i] {
			d.fail("vc %d: flit %d is beyond message %d's %d flits", o, f, i, m.flits[i])
		}
	}
	if d.err == nil {
		v.Flits = m.tab.MakeBytes(fl)
	}
	v.In = m.decodeInput(d, i)
}

func (m *Model) decodeInput(d *decoder, msg int) Input {
	in := Input{Cur: -1}
	h := d.uvarint()
	n, flag := int(h>>1), h&1 != 0
	if n > m.nvc+1 {
		d.fail("%d outputs; there are %d", n, m.nvc+1)
		return in
	}
	var tmp [16]Out
	outs := tmp[:0]
	for j := 0; j < n; j++ {
		o := Out(int64(d.uvarint()) - 1)
		if o < Eject || int(o) >= m.nvc {
			d.fail("output %d is not a virtual channel", o)
		}
		if j > 0 && o <= outs[j-1] {
			d.fail("outputs are not strictly ascending")
		}
		outs = append(outs, o)
	}
	if d.err == nil {
		in.Outs = m.tab.MakeOuts(outs)
	}
	if n > 0 {
		in.Cur = int8(int(d.byte()) - 1)
		if int(in.Cur) >= n {
			d.fail("Cur %d is not an output index (%d outputs)", in.Cur, n)
		}
	}
	if flag {
		in.Aux = d.byte()
		in.Reinj = d.byte()
		if in.Aux == 0 && in.Reinj == 0 {
			d.fail("aux flag set with no aux or re-injected flit")
		}
	}
	data := m.cfg.Messages[msg].Length
	if !m.cfg.Messages[msg].Multicast {
		data = 0
	}
	if int(in.Aux) > data || int(in.Reinj) > data {
		d.fail("aux %d / reinjection %d exceed message %d's %d data flits", in.Aux, in.Reinj, msg, data)
	}
	if in.Reinj > 0 && in.Cur < 0 {
		d.fail("re-injection without a current output")
	}
	return in
}

type decoder struct {
	data []byte
	pos  int
	err  error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("flit state decode at byte %d: %s", d.pos, fmt.Sprintf(format, args...))
	}
}

func (d *decoder) byte() byte {
	if d.pos >= len(d.data) {
		d.fail("truncated")
		return 0
	}
	b := d.data[d.pos]
	d.pos++
	return b
}

func (d *decoder) uvarint() uint32 {
	var x uint32
	for shift := 0; ; shift += 7 {
		b := d.byte()
		if shift > 28 {
			d.fail("varint too long")
			return 0
		}
		if shift == 28 && b&0x7f > 0x0f {
			d.fail("varint overflows 32 bits")
			return 0
		}
		x |= uint32(b&0x7f) << shift
		if b < 0x80 {
			if b == 0 && shift > 0 && d.err == nil {
				// appendUvarint never ends a number with a zero byte: accepting one
				// would give a second encoding of the same state.
				d.fail("varint is not minimal")
				return 0
			}
			return x
		}
	}
}

func (d *decoder) bytes(n int) []byte {
	if d.pos+n > len(d.data) {
		d.fail("truncated")
		d.pos = len(d.data)
		return make([]byte, n)
	}
	b := d.data[d.pos : d.pos+n]
	d.pos += n
	return b
}

// Format renders s for traces: one line per active message source and per held virtual
// channel, e.g. "vc (0,0)->(1,0).0 m0 [1 2] closed -> (1,0)->(2,0).0".
func (m *Model) Format(s State) string {
	var b strings.Builder
	for i, g := range s.Msgs {
		fmt.Fprintf(&b, "m%d src %s sent %d/%d", i, m.cfg.Net.NodeName(m.cfg.Messages[i].Source), g.Sent, m.flits[i])
		if m.budget >= 0 {
			fmt.Fprintf(&b, " misroutes %d", g.Mis)
		}
		if g.Done {
			b.WriteString(" done")
		} else {
			m.formatInput(&b, g.In)
		}
		fmt.Fprintf(&b, " got %v\n", g.Got)
	}
	for i, v := range s.VCs {
		if v.Owner < 0 {
			continue
		}
		fmt.Fprintf(&b, "vc %s m%d %v", m.VCName(Out(i)), v.Owner, v.Flits.Slice(m.tab))
		if v.Closed {
			b.WriteString(" closed")
		}
		m.formatInput(&b, v.In)
		b.WriteByte('\n')
	}
	return b.String()
}

func (m *Model) formatInput(b *strings.Builder, in Input) {
	if in.Outs != 0 {
		b.WriteString(" ->")
		for j, o := range in.Outs.Slice(m.tab) {
			b.WriteByte(' ')
			if int8(j) == in.Cur {
				b.WriteByte('*')
			}
			b.WriteString(m.VCName(o))
		}
	}
	if in.Aux > 0 {
		fmt.Fprintf(b, " aux %d", in.Aux)
	}
	if in.Reinj > 0 {
		fmt.Fprintf(b, " reinject %d", in.Reinj)
	}
}

// VCName renders an output for people: "(0,0)->(1,0).vc1", or "eject".
func (m *Model) VCName(o Out) string {
	if o == Eject {
		return "eject"
	}
	c := int(o) / m.cfg.VCs
	return fmt.Sprintf("%s.vc%d", m.cfg.Net.ChannelName(chanID(c)), int(o)%m.cfg.VCs)
}
