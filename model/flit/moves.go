package flit

import (
	"encoding/binary"
	"math"
	"math/bits"
	"sync/atomic"
	"unsafe"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/system"
)

// A worm's moves. Which transitions an input of a worm offers, and what each does to the
// worm, depend on the worm's own local state (Encode: its source, the channels it holds)
// and on the rest of the state only through a few conditions: whether a virtual channel
// it would take is free, whether its router's delivery channels are all held, whether
// its source node is injecting another worm (one-port), and, for pruning when no output
// is free, whether any of the input's allocations was enabled. So each entry of a
// worm's table carries its candidate moves (wormMoves), built once from one state where
// the worm has that local state, each with the condition (gate) that enables it and,
// once computed, what it does (the worm's index after it and the change of the
// Progress sums). Expanding a state then evaluates the gates of its worms' moves
// against the state and writes each successor's encoding as the parent's with one
// index replaced: nothing is applied, encoded or interned unless a move is met for the
// first time. The candidates are built by inputSteps' rules (inputMoves mirrors it), in
// its order, so EncodeSuccessors yields what Successors returns, in the same order.

// gate is the condition under which a candidate move is enabled, given the state.
type gate uint8

const (
	gateNone   gate = iota // always: the worm's own state decides
	gateFree               // the virtual channel the move takes (succStep.arg) is free
	gateEject              // a delivery channel of the input's router is free (ejectBusy)
	gateElse               // no earlier move of the same input is enabled
	gateLowest             // gateFree, and every lower channel of its class is held (Config.LowestVC)
)

// move is one candidate transition of an input and, in res, what it does once known:
// 1<<63 | do (15 bits, two's complement)<<48 | dp (16 bits)<<32 | the moved worm's
// index after the step, where dp and do are the changes of the flit potential and of
// the reserved outputs (progressSums); 0 while unknown (or not representable).
type move struct {
	st   succStep
	gate gate
	res  atomic.Uint64
}

// inputMoves are the candidate moves of one input of a worm, in Successors order;
// inject is set when they wait for the source node's injection channel (one-port: the
// header of a source that has sent nothing waits while another worm of its node is
// being injected).
type inputMoves struct {
	inject bool
	moves  []move
}

// wormMoves are a worm's candidate moves in one local state: its source's (none when
// it is done) and, per channel it holds (wormDec.held, same order), that input's.
type wormMoves struct {
	src   inputMoves
	chans []inputMoves
}

// movesOf returns the candidate moves of worm i in local state d, building them from s
// (a state in which worm i has local state d) on first use.
func (m *Model) movesOf(i int, d *wormDec, s *State, sc *scratch) *wormMoves {
	if w := d.moves.Load(); w != nil {
		return w
	}
	w := &wormMoves{chans: make([]inputMoves, len(d.held))}
	all := sc.moves[:0] // built in the scratch, then copied once into an exact allocation
	rb := &sc.rb
	var spanA [9][2]int
	spans := spanA[:0]
	if len(d.held)+1 > len(spanA) {
		spans = make([][2]int, 0, len(d.held)+1)
	}
	if !s.Msgs[i].Done {
		c := cursor{input: i, msg: i, vc: -1, at: m.cfg.Messages[i].Source, in: s.Msgs[i].In}
		all, w.src.inject = m.inputMoves(s, c, all, rb)
	}
	spans = append(spans, [2]int{0, len(all)})
	for _, o := range d.held {
		v := &s.VCs[o]
		c := cursor{input: len(s.Msgs) + int(o), msg: i, vc: int(o), at: m.vcTo[o], in: v.In}
		from := len(all)
		all, _ = m.inputMoves(s, c, all, rb)
		spans = append(spans, [2]int{from, len(all)})
	}
	moves := make([]move, len(all))
	for j := range all {
		moves[j].st, moves[j].gate = all[j].st, all[j].gate
	}
	sc.moves = all[:0]
	all = moves
	w.src.moves = all[spans[0][0]:spans[0][1]]
	for k := range w.chans {
		w.chans[k].moves = all[spans[k+1][0]:spans[k+1][1]]
	}
	if d.moves.CompareAndSwap(nil, w) {
		m.tab.worms[i].size.Add(int64(len(all))*int64(sizeofMove) + int64(len(w.chans))*32 + 64)
		return w
	}
	return d.moves.Load()
}

// inputMoves appends the candidate moves of input c of s, by inputSteps' rules with the
// conditions on the rest of the state left as gates, and reports whether they wait for
// the source's injection channel.
func (m *Model) inputMoves(s *State, c cursor, dst []move, rb *[]routing.Output) ([]move, bool) {
	f, aux, ok := m.nextFlit(s, c)
	if !ok {
		return dst, false
	}
	inject := c.vc < 0 && s.Msgs[c.msg].Sent == 0 && !aux && m.cfg.Ports == OnePort
	in := &c.in
	di, isAddr := m.addrDest(c.msg, f)
	if aux || !isAddr {
		o := in.Outs.At(m.tab, int(in.Cur))
		if m.room(s, o) { // o is the worm's own channel (or Eject)
			dst = append(dst, move{st: succStep{a: MakeAction(KindMove, c.input, 0), c: c, k: KindMove}, gate: gateNone})
		} else if m.stopPrunable(in, int(in.Cur)) {
			dst = append(dst, move{st: m.pruneStep(c, int(in.Cur)), gate: gateNone})
		}
		return dst, inject
	}
	if m.isDest(c.msg, di, c.at) {
		for j, o := range in.Outs.Slice(m.tab) {
			if o == Eject {
				var stA [1]succStep
				for _, x := range m.followStep(s, c, j, false, stA[:0]) {
					dst = append(dst, move{st: x, gate: gateNone})
				}
				return dst, inject
			}
		}
		dst = append(dst, move{st: succStep{a: MakeAction(KindAlloc, c.input, 0), c: c, k: KindAlloc, arg: int(Eject)}, gate: gateEject})
		if m.prunable(in) {
			dst = append(dst, move{st: m.pruneStep(c, -1), gate: gateElse})
		}
		return dst, inject
	}
	outs := m.permitted(s, c, di, rb)
	if j, mis := m.reserved(in, outs); j >= 0 {
		var stA [1]succStep
		for _, x := range m.followStep(s, c, j, mis, stA[:0]) {
			dst = append(dst, move{st: x, gate: gateNone})
		}
		return dst, inject
	}
	n0 := len(dst)
	for _, r := range outs {
		base := int(r.Channel)*m.cfg.VCs + r.VC*m.per
		for o := base; o < base+m.per; o++ {
			// Insert in ascending output order; a repeated output keeps its first flag.
			k := len(dst)
			for k > n0 && dst[k-1].st.arg > o {
				k--
			}
			if k > n0 && dst[k-1].st.arg == o {
				continue
			}
			dst = append(dst, move{})
			copy(dst[k+1:], dst[k:])
			g := gateFree
			if m.lowest {
				g = gateLowest
			}
			dst[k] = move{st: succStep{a: MakeAction(KindAlloc, c.input, o+1), c: c, k: KindAlloc, arg: o, mis: r.Misroute}, gate: g}
		}
	}
	if m.prunable(in) {
		dst = append(dst, move{st: m.pruneStep(c, -1), gate: gateElse})
	}
	return dst, inject
}

const sizeofMove = unsafe.Sizeof(move{})

// packResult packs a move's result (see move); false when dp or do does not fit.
func packResult(to uint32, dp, do int64) (uint64, bool) {
	if dp < -1<<15 || dp >= 1<<15 || do < -1<<14 || do >= 1<<14 {
		return 0, false
	}
	return 1<<63 | uint64(do&(1<<15-1))<<48 | uint64(uint16(dp))<<32 | uint64(to), true
}

// unpackResult is the inverse of packResult.
func unpackResult(r uint64) (to uint32, dp, do int64) {
	return uint32(r), int64(int16(r >> 32)), int64(r<<1) >> 49
}

// chanRef names a held channel of a parent: its index, its owner and its position in
// the owner's wormDec.held.
type chanRef struct {
	o    int32
	w, k int32
}

// yields is the callback of one encodeBuild call, as its caller was given it (one field
// set), so that no wrapping closure is allocated per call.
type yields struct {
	plain  func(a system.Action, enc []byte)                     // EncodeSuccessors
	ranked func(a system.Action, enc []byte, rank []uint32)      // EncodeSuccessorsProgress
	build  func(a system.Action, enc []byte, rank []uint32) bool // EncodeSuccessorsBuild
}

// call calls the callback; it reports whether the successor is to be built (only
// EncodeSuccessorsBuild's can say so).
func (y *yields) call(a system.Action, enc []byte, rank []uint32) bool {
	switch {
	case y.plain != nil:
		y.plain(a, enc)
	case y.ranked != nil:
		y.ranked(a, enc, rank)
	default:
		return y.build(a, enc, rank)
	}
	return false
}

// expansion is the state of one encodeBuild call. It lives on encodeBuild's stack, and
// the per-move work writes no pointer (a successor's word and rank go to arrays in the
// scratch), so the loop costs no write barrier while the collector runs.
type expansion struct {
	m         *Model
	sc        *scratch
	s         State // the parent
	ranks     bool
	yield     yields
	keep      func(State)
	buf       []byte
	rbuf      []uint32
	pot, outs uint64 // the parent's Progress sums when sumsOK
	sumsOK    bool
	word      uint64   // the parent's encoding when oneWord
	oneWord   bool     // the parent's encoding is one word
	pos       [8]uint8 // pos[i]: the byte of worm i's index in word, 0xff if it has more
	tReady    bool     // sc.state is a copy of the parent
}

// encodeBuild is the loop of EncodeSuccessors, EncodeSuccessorsProgress and
// EncodeSuccessorsBuild (keep nil: yield's answer is ignored): the gates of the
// parent's worms' moves are evaluated in Successors order and every enabled move is
// yielded (see wormMoves).
func (m *Model) encodeBuild(s State, buf []byte, rbuf []uint32, ranks bool, yield yields, keep func(State)) ([]byte, []uint32) {
	sc := scratchPool.Get().(*scratch)
	n := len(s.Msgs)
	x := &expansion{m: m, sc: sc, s: s, ranks: ranks, yield: yield, keep: keep, buf: buf, rbuf: rbuf}
	// The parent's worm indices (sc.idx): from its encoding if it carries one, else
	// interned.
	var decs []*wormDec // the worms' table entries, when DecodeInto knows them
	if f := s.front; f != nil && s.worms.tab == m.tab && m.tab != nil && f.enc == s.worms.enc && n <= len(f.idx) {
		idx := append(sc.idx[:0], f.idx[:n]...)
		if cap(idx) != cap(sc.idx) || len(idx) != len(sc.idx) {
			sc.idx = idx
		}
		decs = f.decs[:n]
		x.word, x.oneWord = s.worms.enc, true
	} else if s.worms.tab == m.tab && m.tab != nil && n <= 8 {
		if idx, ok := wordIndices(s.worms.enc, n, sc.idx[:0]); ok {
			// A pointer write only when it grew or the length changed: a scratch from the
			// pool may last have served a model with more messages, and encodeStep and
			// known read sc.idx whole.
			if cap(idx) != cap(sc.idx) || len(idx) != len(sc.idx) {
				sc.idx = idx
			}
			x.word, x.oneWord = s.worms.enc, true
		}
	}
	if !x.oneWord {
		m.holders(sc, &s)
		m.encodeParent(sc, &s)
		if n <= 8 {
			var b [16]byte
			if e := appendIndices(b[:0], sc.idx, -1, 0); len(e) == 8 {
				x.word, x.oneWord = binary.LittleEndian.Uint64(e), true
			}
		}
	}
	idx := sc.idx[:n]
	if x.oneWord {
		p := 0
		for i, y := range idx {
			x.pos[i] = uint8(p)
			if y >= 0x80 {
				x.pos[i] = 0xff
			}
			p += uvarintLen(y)
		}
	}
	// The worms' candidate moves, and the parent's held channels, ascending, by their
	// owners' table entries. (mvs is local, not in x: x would escape with it.)
	var mvA [8]*wormMoves
	mvs := mvA[:0]
	if n > len(mvA) {
		mvs = make([]*wormMoves, 0, n)
	}
	chans := sc.chans[:0]
	var held uint64 // the held channels as a bit set, when the network has at most 64
	small := m.nvc <= 64 && n <= 8
	for i, y := range idx {
		var d *wormDec
		if decs != nil {
			d = decs[i]
		} else {
			d = m.wormDecoded(i, y)
		}
		mv := d.moves.Load() // movesOf's first line, inline: it builds them once per entry
		if mv == nil {
			mv = m.movesOf(i, d, &s, sc)
		}
		mvs = append(mvs, mv)
		if small {
			held |= d.mask
			continue
		}
		for k, o := range d.held {
			chans = append(chans, chanRef{o: o, w: int32(i), k: int32(k)})
		}
	}
	if small {
		// Ascending channel order from the bit set; a worm's channels come in its
		// held order, so its k-th one met is held[k].
		var seen [8]int32
		for held != 0 {
			o := int32(bits.TrailingZeros64(held))
			held &= held - 1
			w := s.VCs[o].Owner
			chans = append(chans, chanRef{o: o, w: int32(w), k: seen[w]})
			seen[w]++
		}
	}
	if cap(chans) != cap(sc.chans) {
		sc.chans = chans
	}
	if !small {
		for i := 1; i < len(chans); i++ { // insertion sort: a state holds a few channels
			for j := i; j > 0 && chans[j].o < chans[j-1].o; j-- {
				chans[j], chans[j-1] = chans[j-1], chans[j]
			}
		}
	}
	if ranks || keep != nil && s.sums.ok {
		x.pot, x.outs = m.stateSums(&s)
		x.sumsOK = true
	}
	for i, mv := range mvs {
		if !s.Msgs[i].Done {
			x.input(i, &mv.src)
		}
	}
	for _, c := range chans {
		x.input(int(c.w), &mvs[c.w].chans[c.k])
	}
	sc.release()
	return x.buf, x.rbuf
}

// uvarintLen is the length of x's uvarint.
func uvarintLen(x uint32) int {
	n := 1
	for x >= 0x80 {
		x >>= 7
		n++
	}
	return n
}

// input yields the enabled moves of one input of worm w.
func (x *expansion) input(w int, im *inputMoves) {
	m, s := x.m, &x.s
	if len(im.moves) == 0 || im.inject && m.injectBusy(s, im.moves[0].st.c.at) {
		return
	}
	emitted := false
	for j := range im.moves {
		mv := &im.moves[j]
		switch mv.gate {
		case gateFree:
			if s.VCs[mv.st.arg].Owner >= 0 {
				continue
			}
		case gateLowest:
			if !m.lowestFree(s, mv.st.arg) {
				continue
			}
		case gateEject:
			if m.ejectBusy(s, mv.st.c.at) {
				continue
			}
		case gateElse:
			if emitted {
				continue
			}
		}
		emitted = true
		if r := mv.res.Load(); r != 0 {
			x.known(w, mv, r)
		} else {
			x.first(w, mv)
		}
	}
}

// known yields move mv of worm w, whose result r is known. The successor's word and
// rank are written to arrays in the scratch (no pointer is stored).
func (x *expansion) known(w int, mv *move, r uint64) {
	to, dp, do := unpackResult(r)
	sc := x.sc
	var enc []byte
	if x.oneWord && to < 0x80 && x.pos[w] != 0xff {
		sh := 8 * uint(x.pos[w])
		binary.LittleEndian.PutUint64(sc.word[:], x.word&^(0xff<<sh)|uint64(to)<<sh)
		enc = sc.word[:]
	} else {
		x.buf = appendIndices(x.buf[:0], sc.idx, w, to)
		enc = x.buf
	}
	cpot, couts := uint64(int64(x.pot)+dp), uint64(int64(x.outs)+do)
	var rk []uint32
	if x.ranks {
		sc.rank[0], sc.rank[1] = uint32(min(cpot, math.MaxUint32)), uint32(math.MaxUint32-min(couts, math.MaxUint32))
		rk = sc.rank[:]
	}
	if x.yield.call(mv.st.a, enc, rk) && x.keep != nil {
		t := x.scratchState()
		sc.log = touched{}
		x.m.applyInto(&x.s, mv.st, t, &sc.log)
		if x.m.compact {
			x.m.compactWorm(t, w, x.m.wormDecoded(w, sc.idx[w]).held, &sc.log, nil, &sc.rb)
		}
		x.keep(x.m.built(&x.s, t, w, enc, x.sumsOK, cpot, couts))
		x.restore(w)
	}
}

// first yields move mv of worm w met for the first time: it is applied to the scratch
// copy of the parent, the moved worm re-encoded and interned, and its result recorded.
func (x *expansion) first(w int, mv *move) {
	m, s, sc := x.m, &x.s, x.sc
	t := x.scratchState()
	held := sc.held
	for len(held) < len(s.Msgs) {
		held = append(held, nil)
	}
	sc.held = held
	sc.held[w] = append(sc.held[w][:0], m.wormDecoded(w, sc.idx[w]).held...)
	sc.log = touched{}
	m.applyInto(s, mv.st, t, &sc.log)
	if m.compact {
		m.compactWorm(t, w, sc.held[w], &sc.log, nil, &sc.rb)
	}
	x.buf = m.encodeStep(sc, t, w, x.buf[:0])
	m.distOnce.Do(m.computeDist)
	var dp, do uint64
	if sc.log.full { // the log lost channels: the sums of the whole states
		p0, o0 := x.pot, x.outs
		if !x.sumsOK {
			p0, o0 = m.stateSums(s)
		}
		p1, o1 := m.progressSums(t)
		dp, do = p1-p0, o1-o0
	} else {
		dp, do = m.stepSums(s, t, &sc.log, w, 0, 0)
	}
	if r, ok := packResult(sc.moved, int64(dp), int64(do)); ok {
		mv.res.Store(r) // equal values if two workers race: a step is a function of the worm
	}
	cpot, couts := x.pot+dp, x.outs+do
	if x.ranks {
		x.rbuf = rank(cpot, couts, x.rbuf[:0])
	}
	if x.yield.call(mv.st.a, x.buf, x.rbuf) && x.keep != nil {
		x.keep(m.built(s, t, w, x.buf, x.sumsOK, cpot, couts))
	}
	x.restore(w)
}

// scratchState returns the scratch state, a copy of the parent.
func (x *expansion) scratchState() *State {
	t := &x.sc.state
	if !x.tReady {
		s := &x.s
		if len(t.VCs) != len(s.VCs) || len(t.Msgs) != len(s.Msgs) {
			t.VCs = make([]VC, len(s.VCs))
			t.Msgs = make([]Msg, len(s.Msgs))
		}
		copy(t.VCs, s.VCs)
		copy(t.Msgs, s.Msgs)
		x.tReady = true
	}
	return t
}

// restore undoes on the scratch state the step of worm w just applied (sc.log).
func (x *expansion) restore(w int) {
	t, s, log := &x.sc.state, &x.s, &x.sc.log
	if log.full {
		copy(t.VCs, s.VCs)
	} else {
		for _, o := range log.idx[:log.n] {
			t.VCs[o] = s.VCs[o]
		}
	}
	t.Msgs[w] = s.Msgs[w]
}
