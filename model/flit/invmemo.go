package flit

import (
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/wormcheck/wormcheck/model/topology"
)

// Invariants by worm. A state DecodeInto rebuilt is, by construction, the tuple of its
// worms' decoded table entries (wormDec): each worm's message and channels are copied
// from its entry and every other channel is free. On such a state each invariant of
// Invariants is the conjunction of a part that reads one worm alone and a part across
// worms:
//
//   - buffers, order, routes: one worm alone (its channels' flits and their order, its
//     reserved outputs and what the routing relation permits for its own headers);
//   - ownership: alone, that the worm's reserved outputs are channels it holds, that
//     leave its router, each reserved by one of its inputs; across (ownershipAcross),
//     that no two worms' entries hold one channel and the limits of the ports (from the
//     channel sets and delivering routers kept in the entries);
//   - exactly-once: alone, that no destination has more than its flits; across
//     (deliveryAcross), that in a terminal state every destination has exactly its flits.
//
// The part alone is decided once per table entry, on the state where that worm is in its
// entry and every other worm at its start (holding nothing, so the checks see the worm
// alone), and kept in the entry (wormInv). A state's invariant then costs reading its
// worms' verdicts and the part across worms, O(worms + held channels + nodes), where the
// direct checks walk every input through the routing relation. When a verdict or the
// part across fails, the direct check runs on the whole state, so a violation and its
// message are the ones it gives.

// The invariants' bits in a worm's verdicts; invKnown marks a decided verdict.
const (
	invBuffers = iota
	invOwnership
	invOrder
	invRoutes
	invDelivery
	invCount
	invKnown = 1 << 31
)

// direct returns invariant k's check of a whole state.
func (m *Model) direct(k int) func(State) error {
	return [invCount]func(State) error{m.checkBuffers, m.checkOwnership, m.checkOrder, m.checkRoutes, m.checkDelivery}[k]
}

// memoized returns invariant k's check: from the worms' verdicts and across (nil when
// the invariant has no part across worms) on a state DecodeInto rebuilt, else direct.
func (m *Model) memoized(k int, across func(State) error) func(State) error {
	direct := m.direct(k)
	return func(s State) error {
		v, ok := m.wormVerdicts(&s)
		if !ok || v&(1<<k) == 0 {
			return direct(s)
		}
		if across == nil {
			return nil
		}
		if err := across(s); err != nil {
			if d := direct(s); d != nil {
				return d
			}
			return err
		}
		return nil
	}
}

// wormVerdicts returns the conjunction of the verdicts of s's worms, and false when s
// is not a state DecodeInto rebuilt from a one-word encoding of this model.
func (m *Model) wormVerdicts(s *State) (uint32, bool) {
	decs, ok := m.frontDecs(s)
	if !ok {
		return 0, false
	}
	if v := s.front.inv; v != 0 { // every worm's verdicts were decided when it was decoded
		return v, true
	}
	all := ^uint32(0)
	for i, d := range decs {
		// The decided verdicts are read here, inline: every invariant asks for every
		// worm's on every state, and wormInv (not inlined) is only for deciding them.
		v := d.inv.Load()
		if v == 0 {
			v = m.wormInv(i, d)
		}
		all &= v
	}
	return all, true
}

// frontDecs returns the table entries of s's worms, which DecodeInto left in s.front,
// and false when s is not a state DecodeInto rebuilt from a one-word encoding of this
// model.
func (m *Model) frontDecs(s *State) ([]*wormDec, bool) {
	if s.front == nil || s.worms.tab != m.tab || s.front.enc != s.worms.enc {
		return nil, false
	}
	return s.front.decs[:len(s.Msgs)], true
}

// wormInv returns the verdicts of worm i's entry d (bit k: invariant k holds on the
// state of d alone), deciding them on first use. Safe for concurrent use: two goroutines
// may both decide an entry, and store the same verdicts.
func (m *Model) wormInv(i int, d *wormDec) uint32 {
	if v := d.inv.Load(); v != 0 {
		return v
	}
	m.aloneOnce.Do(func() { m.alone = m.Init()[0] })
	s := State{Msgs: append([]Msg(nil), m.alone.Msgs...), VCs: append([]VC(nil), m.alone.VCs...)}
	d.writeInto(&s, i)
	v := uint32(invKnown)
	for k := range invCount {
		if m.direct(k)(s) == nil {
			v |= 1 << k
		}
	}
	d.inv.Store(v)
	return v
}

// ownershipAcross is the ownership invariant's part across worms on a state DecodeInto
// rebuilt: no two worms' entries hold one channel (the state would leave it to the one
// written last), and the ports' limits. With at most 64 channels the first is decided
// on the entries' channel sets (wormDec.mask) and the routers where each entry's
// channels deliver are kept in the entry (wormDec.ejects), so that a state costs a few
// words per worm instead of a look at every channel it holds and its input.
func (m *Model) ownershipAcross(s State) error {
	var ejecting [16]topology.NodeID // the routers where a held channel delivers, so far
	k := 0
	decs, _ := m.frontDecs(&s)
	var taken uint64 // the channels of the worms before i, when m.nvc <= 64
	for i, d := range decs {
		if m.nvc <= 64 {
			if both := taken & d.mask; both != 0 {
				return m.heldTwice(decs, i, int32(bits.TrailingZeros64(both)))
			}
			taken |= d.mask
		} else {
			for _, o := range d.held {
				if int(s.VCs[o].Owner) != i {
					return fmt.Errorf("vc %s is held by m%d and by m%d", m.VCName(Out(o)), i, s.VCs[o].Owner)
				}
			}
		}
		for _, r := range d.ejects {
			if k == len(ejecting) {
				return m.portsAcross(&s) // many deliveries at once: count every router's
			}
			ejecting[k] = r
			k++
		}
	}
	// Only routers where a held channel delivers can exceed their delivery channels.
	for a := range k {
		if n := countNode(ejecting[:k], ejecting[a]); n > m.ejects {
			return fmt.Errorf("node %s ejects %d worms at once", m.cfg.Net.NodeName(ejecting[a]), n)
		}
	}
	return m.injectAcross(&s)
}

// heldTwice is ownershipAcross's error for channel o, which worm i's entry holds and an
// earlier worm's entry does too.
func (m *Model) heldTwice(decs []*wormDec, i int, o int32) error {
	j := 0
	for j < i && decs[j].mask&(1<<uint(o)) == 0 {
		j++
	}
	return fmt.Errorf("vc %s is held by m%d and by m%d", m.VCName(Out(o)), i, j)
}

// countNode returns how many of ns are n.
func countNode(ns []topology.NodeID, n topology.NodeID) int {
	c := 0
	for _, x := range ns {
		if x == n {
			c++
		}
	}
	return c
}

// deliveryAcross is the exactly-once invariant's part across worms: in a terminal state
// every destination has received exactly its flits.
func (m *Model) deliveryAcross(s State) error {
	if !m.Terminal(s) {
		return nil
	}
	return m.checkDelivery(s)
}

// aloneState is the start state the verdicts of worms' entries are decided on.
type aloneState struct {
	aloneOnce sync.Once
	alone     State
	// invOn is set once Invariants has been called: from then on DecodeInto keeps the
	// conjunction of a state's worms' verdicts (frontier.inv), which every invariant
	// reads, and a search without invariants does not pay for it.
	invOn atomic.Bool
}
