package banyan

import (
	"fmt"
	"math/bits"

	"github.com/wormcheck/wormcheck/model/topology"
)

// maxFastPackets bounds the packets of one FastLockstep instance.
const maxFastPackets = 40

// FastLockstep decides deadlock freedom of the lockstep, atomic-acquisition System with
// instant release (Options.Flits = 0) by
// direct simulation: it follows every run depth first, branching only where an arbiter
// has a choice (node injection links always; SEs too under Free), and stores no states.
// It needs N <= 16, where the channel set of the whole network fits two machine words
// and every packet tree 32 links. It is the optimised twin of exploring the System
// with checker.Explore (TestFastLockstepAgreesWithExplorer cross-checks the verdicts); the
// proofs use it for the hundreds of thousands of instances of MN6.
type FastLockstep struct {
	b   *topology.Banyan
	arb Arbitration
	pk  []*fastPkt
	// uni[src*N+dst] and region[(src*N+min)*N+max] are the precomputed packet shapes.
	uni, region []*fastPkt
	// copies[p] = (first, end) packet range that becomes ready when phase-1 packet p
	// drains; end = first when p is not a phase-1 packet.
	first, end []int
	msgOf      []uint8
	// Cycles counts the simulated cycles over all runs (the "states" of the search,
	// without deduplication); Runs counts the complete runs.
	Cycles, Runs int64
	bufs         [][]fastReq
}

// chmask is a set of channels (N <= 16: at most 80 channels).
type chmask [2]uint64

func (a chmask) and(b chmask) bool { return a[0]&b[0] != 0 || a[1]&b[1] != 0 }

func bit(c topology.ChannelID) chmask {
	var m chmask
	m[c/64] = 1 << (uint(c) % 64)
	return m
}

type fastPkt struct {
	n        int
	chanBit  [32]chmask
	childCh  [32]chmask
	childIdx [32]uint32
	key      [32]int16
	lower    [32]bool
	leaves   uint32
	node     int
}

type fastState struct {
	held   [maxFastPackets]uint32
	status [maxFastPackets]uint8
	busy   chmask
}

// NewFastLockstep prepares the packets of msgs with the given phase-1 starts (one per
// message) under policy arb.
func NewFastLockstep(b *topology.Banyan, msgs []Multicast, starts []int, arb Arbitration) (*FastLockstep, error) {
	if b.Nodes() > 16 {
		return nil, fmt.Errorf("banyan:%d: the fast simulator is limited to N <= 16", b.Nodes())
	}
	f := &FastLockstep{b: b, arb: arb}
	n := b.Nodes()
	f.uni = make([]*fastPkt, n*n)
	f.region = make([]*fastPkt, n*n*n)
	for src := 0; src < n; src++ {
		for lo := 0; lo < n; lo++ {
			for hi := lo; hi < n; hi++ {
				fp, err := f.shape(src, topology.Region{Min: lo, Max: hi})
				if err != nil {
					return nil, err
				}
				f.region[(src*n+lo)*n+hi] = fp
				if lo == hi {
					f.uni[src*n+lo] = fp
				}
			}
		}
	}
	if err := f.Reset(msgs, starts); err != nil {
		return nil, err
	}
	return f, nil
}

// Reset reuses f for another instance (same banyan and policy): msgs with the given
// phase-1 starts, one per message. Cost O(packets): shapes are precomputed.
func (f *FastLockstep) Reset(msgs []Multicast, starts []int) error {
	f.pk, f.first, f.end, f.msgOf = f.pk[:0], f.first[:0], f.end[:0], f.msgOf[:0]
	n := f.b.Nodes()
	if len(msgs) > 64 {
		return fmt.Errorf("fast simulator: more than 64 messages")
	}
	for m, msg := range msgs {
		s, k := starts[m], len(msg.Dests)
		if msg.Source < 0 || msg.Source >= n || k == 0 || s < 0 || s+k > n {
			return fmt.Errorf("fast simulator: message %d (%v) with start %d does not fit banyan:%d", m+1, msg, s, n)
		}
		base := len(f.pk)
		if base+1+k > maxFastPackets {
			return fmt.Errorf("fast simulator: more than %d packets", maxFastPackets)
		}
		f.pk = append(f.pk, f.region[(msg.Source*n+s)*n+s+k-1])
		f.first, f.end = append(f.first, base+1), append(f.end, base+1+k)
		f.msgOf = append(f.msgOf, uint8(m))
		for l, d := range msg.Dests {
			if d < 0 || d >= n {
				return fmt.Errorf("fast simulator: message %d destination %d is not a node", m+1, d)
			}
			f.pk = append(f.pk, f.uni[((s+l)%n)*n+d])
			f.first, f.end = append(f.first, 0), append(f.end, 0)
			f.msgOf = append(f.msgOf, uint8(m))
		}
	}
	return nil
}

func (f *FastLockstep) shape(src int, r topology.Region) (*fastPkt, error) {
	tree, err := f.b.RegionTree(src, r)
	if err != nil {
		return nil, err
	}
	if len(tree) > 32 {
		return nil, fmt.Errorf("fast simulator: tree of %d->%v has %d links", src, r, len(tree))
	}
	fp := &fastPkt{n: len(tree), node: src}
	for i, l := range tree {
		fp.chanBit[i] = bit(l.Channel)
		for c := 0; c < l.NumChildren; c++ {
			cb := bit(tree[l.Children[c]].Channel)
			fp.childCh[i][0] |= cb[0]
			fp.childCh[i][1] |= cb[1]
			fp.childIdx[i] |= 1 << uint(l.Children[c])
		}
		if l.NumChildren == 0 {
			fp.leaves |= 1 << uint(i)
		}
		st, lb := f.b.Link(l.Channel)
		fp.key[i] = int16(st*f.b.Nodes()/2 + lb>>1)
		fp.lower[i] = lb&1 == 1
	}
	return fp, nil
}

type fastReq struct {
	p, k  int8 // k = -1: injection
	lower bool
	key   int16
	ch    chmask
	idx   uint32
}

// Deadlocks reports whether some run of the instance deadlocks; it stops at the first.
func (f *FastLockstep) Deadlocks() bool {
	var s fastState
	for p := range f.pk {
		if f.end[p] > 0 {
			s.status[p] = active
		}
	}
	return f.run(&s, 0)
}

func (f *FastLockstep) run(s *fastState, depth int) bool {
	for len(f.bufs) <= depth {
		f.bufs = append(f.bufs, make([]fastReq, 0, 64))
	}
	reqs := f.bufs[depth][:0]
	f.Cycles++
	var live uint64 // messages with a packet not done
	for p := range f.pk {
		switch s.status[p] {
		case done:
			continue
		case waiting:
			live |= 1 << f.msgOf[p]
			continue
		}
		live |= 1 << f.msgOf[p]
		fp := f.pk[p]
		if s.held[p] == 0 {
			if !s.busy.and(fp.chanBit[0]) {
				reqs = append(reqs, fastReq{p: int8(p), k: -1, key: int16(-1 - fp.node), ch: fp.chanBit[0], idx: 1})
			}
			continue
		}
		for h := s.held[p]; h != 0; h &= h - 1 {
			k := bits.TrailingZeros32(h)
			if fp.childIdx[k] == 0 || s.held[p]&fp.childIdx[k] != 0 {
				continue
			}
			if !s.busy.and(fp.childCh[k]) {
				reqs = append(reqs, fastReq{p: int8(p), k: int8(k), lower: fp.lower[k], key: fp.key[k], ch: fp.childCh[k], idx: fp.childIdx[k]})
			}
		}
	}
	f.bufs[depth] = reqs
	// One message left alone cannot deadlock: its phase-1 packet is a tree and its
	// phase-2 copies share no link (002 Theorem 1, checked exhaustively for N <= 16 by
	// CheckTheorem1), and nobody else holds a link. Stopping here is exact.
	if live&(live-1) == 0 {
		f.Runs++
		return false
	}
	if len(reqs) == 0 {
		f.Runs++
		return true
	}
	return f.branch(s, reqs, depth)
}

// branch resolves the choice points of a cycle whose grantable requests are reqs: two
// requests of one arbiter that overlap and that the policy does not order (injection
// links always; SEs under Free). Each choice drops one of the two and recurses; with no
// choice left it applies the grants and runs the next cycle.
func (f *FastLockstep) branch(s *fastState, reqs []fastReq, depth int) bool {
	for i := range reqs {
		if reqs[i].k >= 0 && f.arb == UpperFirst {
			continue // SEs order their requests; only node injections choose
		}
		for j := i + 1; j < len(reqs); j++ {
			if reqs[i].key != reqs[j].key || !reqs[i].ch.and(reqs[j].ch) {
				continue
			}
			for _, drop := range [2]int{j, i} {
				t := *s
				rest := make([]fastReq, 0, len(reqs)-1)
				rest = append(rest, reqs[:drop]...)
				rest = append(rest, reqs[drop+1:]...)
				if f.branch(&t, rest, depth) {
					return true
				}
			}
			return false
		}
	}
	f.apply(s, reqs)
	return f.run(s, depth+1)
}

// apply grants reqs to s under the policy: upper-input requests first, then lower ones,
// then injections, each granted if its links are still unclaimed this cycle; then
// packets whose every branch arrived drain and release their links, and a drained
// phase-1 packet readies its copies.
func (f *FastLockstep) apply(s *fastState, reqs []fastReq) {
	var claimed chmask
	for pass := 0; pass < 2; pass++ {
		for i := range reqs {
			r := &reqs[i]
			if upper := r.k >= 0 && !r.lower; upper != (pass == 0) || claimed.and(r.ch) {
				continue
			}
			claimed[0] |= r.ch[0]
			claimed[1] |= r.ch[1]
			s.held[r.p] |= r.idx
		}
	}
	s.busy[0] |= claimed[0]
	s.busy[1] |= claimed[1]
	for i := range reqs {
		p := int(reqs[i].p)
		fp := f.pk[p]
		if s.status[p] != active || s.held[p]&fp.leaves != fp.leaves {
			continue
		}
		for h := s.held[p]; h != 0; h &= h - 1 {
			cb := fp.chanBit[bits.TrailingZeros32(h)]
			s.busy[0] &^= cb[0]
			s.busy[1] &^= cb[1]
		}
		s.status[p], s.held[p] = done, 0
		for q := f.first[p]; q < f.end[p]; q++ {
			s.status[q] = active
		}
	}
}
