package flit

import (
	"encoding/binary"
	"slices"
	"sync/atomic"
	"unsafe"

	"github.com/wormcheck/wormcheck/model/topology"
)

// wormDec is the decoded form of one entry of a worm's table of local states (Encode):
// the message's state, the channels the worm holds (ascending) with their contents,
// and the worm's share of the Progress sums (progressSums). It is computed once per
// entry, when DecodeInto first meets it, and never changes: a state is rebuilt by
// copying its worms' entries instead of parsing their bytes.
type wormDec struct {
	msg       Msg
	pot, outs uint64
	held      []int32                   // the channels the worm holds, ascending
	vcs       []VC                      // vcs[k] is channel held[k]
	mask      uint64                    // held as a bit set, when the network has at most 64 channels
	ejects    []topology.NodeID         // the routers where a channel it holds delivers (ownershipAcross)
	moves     atomic.Pointer[wormMoves] // its candidate moves, built on first use (movesOf)
	inv       atomic.Uint32             // its invariant verdicts, decided on first use (wormInv)
}

// frontier is what DecodeInto knows of the state in its scratch when its encoding is one
// word: the word, its worm indices and their table entries. The state carries it
// (State.front), so that expanding it parses and looks up nothing again, and so that
// the next DecodeInto into the same scratch frees the old worms' channels without
// looking them up.
type frontier struct {
	enc  uint64 // the word; 0 when the state's encoding is longer
	idx  [8]uint32
	inv  uint32 // the conjunction of the worms' invariant verdicts when decoded (invOn); else 0
	decs [8]*wormDec
}

// freeVC is a virtual channel no worm holds.
var freeVC = VC{Owner: -1, In: Input{Cur: -1}}

// decoded returns the decoded form of entry x, or nil when no one has built it yet.
// Lock-free: the entry is published by an atomic store after it is complete.
func (t *localSet) decoded(x uint32) *wormDec {
	k, off := locate(x)
	if c := t.decs[k].Load(); c != nil {
		return (*c)[off].Load()
	}
	return nil
}

// setDecoded publishes d as the decoded form of entry x and returns the one published:
// d, or an equal one another goroutine published first.
func (t *localSet) setDecoded(x uint32, d *wormDec) *wormDec {
	k, off := locate(x)
	c := t.decs[k].Load()
	if c == nil {
		s := make([]atomic.Pointer[wormDec], uint64(1)<<(k+firstChunkLog))
		if t.decs[k].CompareAndSwap(nil, &s) {
			c = &s
			t.size.Add(int64(len(s)) * 8)
		} else {
			c = t.decs[k].Load()
		}
	}
	if (*c)[off].CompareAndSwap(nil, d) {
		t.size.Add(int64(unsafe.Sizeof(*d)) + int64(len(d.held))*int64(unsafe.Sizeof(int32(0))+unsafe.Sizeof(VC{})) + int64(cap(d.ejects))*int64(unsafe.Sizeof(topology.NodeID(0))))
		return d
	}
	return (*c)[off].Load()
}

// wormDecoded returns the decoded form of entry x of worm i's table, building it on
// first use.
func (m *Model) wormDecoded(i int, x uint32) *wormDec {
	if d := m.tab.worms[i].decoded(x); d != nil {
		return d
	}
	return m.buildDecoded(i, x)
}

// buildDecoded parses entry x of worm i's table (bytes the model itself wrote, so they
// are well-formed) into its decoded form and publishes it.
func (m *Model) buildDecoded(i int, x uint32) *wormDec {
	m.distOnce.Do(m.computeDist)
	d := decoder{data: m.tab.worms[i].get(x)}
	w := &wormDec{}
	m.decodeMsg(&d, &w.msg, i)
	w.pot, w.outs = m.msgSums(i, &w.msg)
	var heldA [8]int32 // a worm holds a few channels: one allocation each, exact
	var vcsA [8]VC
	held, vcs := heldA[:0], vcsA[:0]
	for d.err == nil && d.pos < len(d.data) {
		o := int(d.uvarint())
		v := freeVC
		m.decodeVC(&d, &v, o, i)
		p, n := m.vcSums(o, &v)
		w.pot, w.outs = w.pot+p, w.outs+n
		held = append(held, int32(o))
		vcs = append(vcs, v)
	}
	if len(held) > 0 {
		w.held, w.vcs = slices.Clone(held), slices.Clone(vcs)
	}
	for k, o := range w.held {
		if m.nvc <= 64 {
			w.mask |= 1 << uint(o)
		}
		if in := &w.vcs[k].In; in.Outs != 0 && in.Outs.At(m.tab, 0) == Eject {
			w.ejects = append(w.ejects, m.vcTo[o])
		}
	}
	if d.err != nil {
		// The table holds only what the model encoded: this is a bug, not bad input.
		panic("flit: a worm table entry does not decode: " + d.err.Error())
	}
	return m.tab.worms[i].setDecoded(x, w)
}

// DecodeInto returns the state whose encoding is enc (an encoding this model produced)
// built in the memory of *scratch, which must start as the zero State and be passed only
// to DecodeInto of this model; the state is valid until the next call with the same
// scratch (system.FrontierDecoder: the explorer keeps its frontier as encodings, one
// word per state, and rebuilds each state here when it expands it).
//
// It parses no worm's bytes: each worm's local state is copied from the decoded form of
// its table entry (wormDec, built once per entry), so a state costs its worms' own
// channels. When the previous state in scratch was a one-word encoding too, only the
// worms whose index changed are rewritten: their old channels are freed and their new
// ones copied (a worm whose index is unchanged has the same channels in both states, and
// no other worm's channels overlap them), and the Progress sums are updated by the
// changed worms' shares. The result carries its encoding and its Progress sums, as a
// state the model builds does, so expanding it re-encodes nothing and ranks it in O(1).
// It does not validate enc (Decode does), and allocates only when scratch is new or a
// table entry is decoded for the first time.
//
// The model never keeps or hands out the memory of a state it did not build (the
// messages of a state built by Successors or Successor are copied from such a parent,
// not shared), so its successors stay valid after scratch is reused.
func (m *Model) DecodeInto(enc []byte, scratch *State) State {
	s := scratch
	n := len(m.cfg.Messages)
	fresh := len(s.Msgs) != n || len(s.VCs) != m.nvc
	if fresh {
		s.Msgs = make([]Msg, n)
		s.VCs = make([]VC, m.nvc)
		for o := range s.VCs {
			s.VCs[o] = freeVC
		}
		s.worms, s.sums = worms{}, sums{}
	}
	if s.front == nil {
		s.front = new(frontier)
	}
	f := s.front
	if len(enc) == 8 && n <= len(f.idx) {
		w := binary.LittleEndian.Uint64(enc)
		var curA [8]uint32
		if cur, ok := wordIndices(w, n, curA[:0]); ok {
			// The previous state's indices are f.idx when it was a one-word state of this
			// model too (the longer path clears s.worms, a fresh scratch has none).
			if s.worms.tab == m.tab && s.sums.ok && f.enc == s.worms.enc {
				m.patchWorms(s, f.idx[:n], cur)
			} else {
				if !fresh {
					freeAll(s)
				}
				m.writeWorms(s, cur)
			}
			f.enc = w
			copy(f.idx[:], cur)
			// The invariants ask for this conjunction once each (wormVerdicts); the
			// verdicts share a cache line with the moves encodeBuild reads anyway.
			f.inv = 0
			if m.invOn.Load() {
				inv := ^uint32(0)
				for _, d := range f.decs[:n] {
					inv &= d.inv.Load()
				}
				f.inv = inv
			}
			if s.worms.tab != m.tab { // a pointer write only the first time
				s.worms.tab = m.tab
			}
			s.worms.enc = w
			return *s
		}
	}
	// An encoding longer than a word: rebuild every worm.
	if !fresh {
		freeAll(s)
	}
	var idx []uint32
	var buf [16]uint32
	idx = buf[:0]
	d := decoder{data: enc}
	for range n {
		idx = append(idx, d.uvarint())
	}
	m.writeWorms(s, idx)
	s.worms = worms{}
	f.enc = 0
	return *s
}

// freeAll frees every virtual channel of s.
func freeAll(s *State) {
	for o := range s.VCs {
		s.VCs[o] = freeVC
	}
}

// writeInto writes worm i's local state d into s: its message and the channels it holds
// (which must be free in s).
func (d *wormDec) writeInto(s *State, i int) {
	s.Msgs[i] = d.msg
	for k, o := range d.held {
		s.VCs[o] = d.vcs[k]
	}
}

// writeWorms writes the worms idx names into s, whose channels are all free, and sets
// its Progress sums.
func (m *Model) writeWorms(s *State, idx []uint32) {
	var pot, outs uint64
	for i, x := range idx {
		d := m.wormDecoded(i, x)
		if i < len(s.front.decs) {
			s.front.decs[i] = d
		}
		d.writeInto(s, i)
		pot, outs = pot+d.pot, outs+d.outs
	}
	s.sums = sums{pot: pot, outs: outs, ok: true}
}

// patchWorms turns s, the state of the worm indices prev with its sums, into the state
// of the indices cur: it frees the channels of every worm whose index changed, then
// writes those worms' new local states (all frees first: a channel one worm released
// may be one another took).
func (m *Model) patchWorms(s *State, prev, cur []uint32) {
	pot, outs := s.sums.pot, s.sums.outs
	f := s.front
	for i, x := range prev {
		if x == cur[i] {
			continue
		}
		d := f.decs[i] // the entry of index x: written by the previous decode
		for _, o := range d.held {
			s.VCs[o] = freeVC
		}
		pot, outs = pot-d.pot, outs-d.outs
	}
	for i, x := range cur {
		if x == prev[i] {
			continue
		}
		d := m.wormDecoded(i, x)
		f.decs[i] = d
		d.writeInto(s, i)
		pot, outs = pot+d.pot, outs+d.outs
	}
	s.sums = sums{pot: pot, outs: outs, ok: true}
}
