package flit

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/system"
)

// Invariants returns the model's state invariants, each checkable in every reachable
// state:
//
//   - buffers: no virtual channel buffer holds more than Buffer flits, and a free one none;
//   - ownership: every reserved output is a virtual channel held by the same message and
//     reserved by exactly one input (a VC is held by at most one worm);
//   - order: the flits in each buffer are in the message's stream order (a unicast's flits
//     are consecutive and ascending; a branch stream is an address, the data in order,
//     then later addresses ascending), and a unicast's flits are contiguous along its path;
//   - routes: every reserved virtual channel is permitted by the routing relation at the
//     input that reserved it, for some destination of its message and for the
//     destination of every address flit in it;
//   - exactly-once: no destination receives more than its flits, and in a terminal state
//     every destination has received exactly its flits (000 §2, claim TM3).
//
// On a state DecodeInto rebuilt, each is decided from its worms' verdicts, kept per
// table entry, and a check across worms (invmemo.go); elsewhere it walks the state.
// Calling Invariants also has DecodeInto keep the conjunction of those verdicts per
// state from then on (aloneState.invOn), which a search without invariants skips.
func (m *Model) Invariants() []system.Invariant[State] {
	m.invOn.Store(true)
	return []system.Invariant[State]{
		{Name: "buffers", Check: m.memoized(invBuffers, nil)},
		{Name: "ownership", Check: m.memoized(invOwnership, m.ownershipAcross)},
		{Name: "order", Check: m.memoized(invOrder, nil)},
		{Name: "routes", Check: m.memoized(invRoutes, nil)},
		{Name: "exactly-once", Check: m.memoized(invDelivery, m.deliveryAcross)},
	}
}

func (m *Model) checkBuffers(s State) error {
	for o, v := range s.VCs {
		if v.Flits.Len(m.tab) > m.cfg.Buffer {
			return fmt.Errorf("vc %s holds %d flits; the buffer has %d", m.VCName(Out(o)), v.Flits.Len(m.tab), m.cfg.Buffer)
		}
		if v.Owner < 0 && (v.Flits.Len(m.tab) > 0 || v.In.active()) {
			return fmt.Errorf("free vc %s is not empty", m.VCName(Out(o)))
		}
	}
	return nil
}

func (m *Model) checkOwnership(s State) error {
	refs := make([]int, len(s.VCs))
	var err error
	m.cursors(&s, func(c cursor) bool {
		for j, o := range c.in.Outs.Slice(m.tab) {
			if j > 0 && o <= c.in.Outs.At(m.tab, int(j-1)) {
				err = fmt.Errorf("m%d at %s: outputs not ascending", c.msg, m.cfg.Net.NodeName(c.at))
				return false
			}
			if o == Eject {
				continue
			}
			if int(s.VCs[o].Owner) != c.msg {
				err = fmt.Errorf("m%d at %s reserves %s, held by m%d", c.msg, m.cfg.Net.NodeName(c.at), m.VCName(o), s.VCs[o].Owner)
				return false
			}
			from, _ := m.cfg.Net.Ends(chanID(int(o) / m.cfg.VCs))
			if from != c.at {
				err = fmt.Errorf("m%d at %s reserves %s, which does not leave it", c.msg, m.cfg.Net.NodeName(c.at), m.VCName(o))
				return false
			}
			refs[o]++
		}
		if int(c.in.Cur) >= c.in.Outs.Len(m.tab) {
			err = fmt.Errorf("m%d at %s: current output %d of %d", c.msg, m.cfg.Net.NodeName(c.at), c.in.Cur, c.in.Outs.Len(m.tab))
			return false
		}
		return true
	})
	if err != nil {
		return err
	}
	for o, v := range s.VCs {
		if v.Owner >= 0 && !v.Closed && refs[o] != 1 {
			return fmt.Errorf("open vc %s of m%d is reserved by %d inputs", m.VCName(Out(o)), v.Owner, refs[o])
		}
		if refs[o] > 1 {
			return fmt.Errorf("vc %s is reserved by %d inputs", m.VCName(Out(o)), refs[o])
		}
	}
	return m.portsAcross(&s)
}

// portsAcross checks the limits of the ports, which involve several worms: under
// one-port at most one worm injects at a node, and under every port model no more worms
// deliver at a node than it has delivery channels.
func (m *Model) portsAcross(s *State) error {
	if err := m.injectAcross(s); err != nil {
		return err
	}
	for r := range m.into {
		if k := m.ejecting(s, chanNode(r)); k > m.ejects {
			return fmt.Errorf("node %s ejects %d worms at once", m.cfg.Net.NodeName(chanNode(r)), k)
		}
	}
	return nil
}

// injectAcross checks that under one-port at most one worm injects at a node.
func (m *Model) injectAcross(s *State) error {
	if m.cfg.Ports == OnePort {
		for i, g := range s.Msgs {
			if g.Sent == 0 || g.Done {
				continue
			}
			for j := range i {
				if h := s.Msgs[j]; h.Sent > 0 && !h.Done && m.cfg.Messages[j].Source == m.cfg.Messages[i].Source {
					return fmt.Errorf("node %s injects two worms at once", m.cfg.Net.NodeName(m.cfg.Messages[i].Source))
				}
			}
		}
	}
	return nil
}

// streamOK reports whether flits are in stream order for message i.
func (m *Model) streamOK(i int, flits []uint8) bool {
	msg := &m.cfg.Messages[i]
	if !msg.Multicast {
		for j := 1; j < len(flits); j++ {
			if flits[j] != flits[j-1]+1 {
				return false
			}
		}
		return true
	}
	// A window of a branch stream matches A? D* A*: an optional leading address
	// followed by the data from flit 1, consecutive data, then addresses; every address
	// ascending in format order.
	j, lastAddr := 0, -1
	isAddr := func(f uint8) bool { _, a := m.addrDest(i, f); return a }
	if len(flits) > 1 && isAddr(flits[0]) && !isAddr(flits[1]) {
		if flits[1] != 1 {
			return false
		}
		lastAddr = int(flits[0])
		j = 1
	}
	for ; j < len(flits) && !isAddr(flits[j]); j++ {
		if j > 0 && !isAddr(flits[j-1]) && flits[j] != flits[j-1]+1 {
			return false
		}
	}
	for ; j < len(flits); j++ {
		if !isAddr(flits[j]) || int(flits[j]) <= lastAddr {
			return false
		}
		lastAddr = int(flits[j])
	}
	return true
}

func (m *Model) checkOrder(s State) error {
	for o, v := range s.VCs {
		if v.Owner >= 0 && !m.streamOK(int(v.Owner), v.Flits.Slice(m.tab)) {
			return fmt.Errorf("vc %s: m%d flits %v out of stream order", m.VCName(Out(o)), v.Owner, v.Flits)
		}
	}
	// A unicast's flits are contiguous along its path: walking from the source, each
	// held virtual channel's flits continue the previous ones.
	for i, g := range s.Msgs {
		if m.cfg.Messages[i].Multicast {
			continue
		}
		next := int(g.Sent) - 1 // the last flit that left the source
		outs := g.In.Outs.Slice(m.tab)
		for len(outs) == 1 && outs[0] != Eject {
			v := s.VCs[outs[0]]
			for j := v.Flits.Len(m.tab) - 1; j >= 0; j-- {
				if int(v.Flits.At(m.tab, j)) != next {
					return fmt.Errorf("m%d: flit %d in %s breaks contiguity (want %d)", i, v.Flits.At(m.tab, j), m.VCName(outs[0]), next)
				}
				next--
			}
			outs = v.In.Outs.Slice(m.tab)
		}
	}
	return nil
}

// permits reports whether the relation permits model output o to the address flit for
// destination di of message c.msg at input c, with any misroute count up to the
// message's current one (the count it was routed with may have been lower).
func (m *Model) permits(s *State, c cursor, di int, o Out, rb *[]routing.Output) bool {
	if m.isDest(c.msg, di, c.at) {
		return false
	}
	h := m.header(s, c, di)
	for mis := h.Misroutes; mis >= 0; mis-- {
		h.Misroutes = mis
		*rb = m.rel.Route(h, (*rb)[:0])
		for _, r := range *rb {
			if m.matches(o, r) {
				return true
			}
		}
	}
	return false
}

// checkRoutes checks that every reserved virtual channel is permitted by the relation at
// the input that reserved it: for every address flit in it, for that flit's destination;
// and for at least one destination of its message.
func (m *Model) checkRoutes(s State) error {
	var rb []routing.Output
	var err error
	m.cursors(&s, func(c cursor) bool {
		for _, o := range c.in.Outs.Slice(m.tab) {
			if o == Eject {
				continue
			}
			for _, f := range s.VCs[o].Flits.Slice(m.tab) {
				if di, isAddr := m.addrDest(c.msg, f); isAddr && !m.permits(&s, c, di, o, &rb) {
					err = fmt.Errorf("m%d: address flit for %s in %s, not permitted by routing %s at %s", c.msg, m.cfg.Net.NodeName(m.cfg.Messages[c.msg].Dests[di]), m.VCName(o), m.rel.Name(), m.cfg.Net.NodeName(c.at))
					return false
				}
			}
			ok := false
			for di := range m.cfg.Messages[c.msg].Dests {
				if m.permits(&s, c, di, o, &rb) {
					ok = true
					break
				}
			}
			if !ok {
				err = fmt.Errorf("m%d at %s reserves %s, permitted by routing %s for none of its destinations", c.msg, m.cfg.Net.NodeName(c.at), m.VCName(o), m.rel.Name())
				return false
			}
		}
		return true
	})
	return err
}

func (m *Model) checkDelivery(s State) error {
	term := m.Terminal(s)
	for i, g := range s.Msgs {
		for di, n := range g.Got.Slice(m.tab) {
			if int(n) > m.expect[i] || (term && int(n) != m.expect[i]) {
				return fmt.Errorf("m%d: destination %s received %d flits; want exactly %d", i, m.cfg.Net.NodeName(m.cfg.Messages[i].Dests[di]), n, m.expect[i])
			}
		}
	}
	return nil
}

// CheckAll runs every invariant on s and returns the first violation, named.
func (m *Model) CheckAll(s State) error {
	for _, inv := range m.Invariants() {
		if err := inv.Check(s); err != nil {
			return fmt.Errorf("invariant %s: %v", inv.Name, err)
		}
	}
	return nil
}

// Waits explains a deadlock of s from WaitFor's graph: the first wait-for cycle of the
// state's local deadlock (system.WaitGraph.Cycle) with the waits that close it, in
// order, e.g. "wait-for cycle m0 -> m1 -> m0: m0 at (1,0) waits for (1,0)->(2,0) (vc0 by
// m1); m1 at (2,0) waits for ..."; then, after "besides,", the other waits of the stuck
// messages (the members of the local deadlock, or every blocked message when it has
// none) that depend on another message. A body flit waiting for room in its own worm's
// next buffer explains nothing beyond its header's wait and is left out. Without a cycle
// (a stranded worm, a chain ending in a worm with no route) every wait is listed.
func (m *Model) Waits(s State) string {
	g := m.WaitFor(s)
	set := g.Explained()
	cyc := g.Cycle(set)
	inCycle := make(map[int]bool, len(cyc))
	var closing, besides []string
	for _, e := range cyc {
		if !inCycle[e.Wait] {
			inCycle[e.Wait] = true
			closing = append(closing, m.waitText(g.Waits[e.Wait]))
		}
	}
	for k, w := range g.Waits {
		if inCycle[k] || !slices.Contains(set, w.Waiter) || len(cyc) > 0 && onItself(w) {
			continue
		}
		besides = append(besides, m.waitText(w))
	}
	if len(cyc) == 0 {
		if len(besides) == 0 {
			return "no input has a flit to send"
		}
		return strings.Join(besides, "; ")
	}
	var b strings.Builder
	b.WriteString("wait-for cycle ")
	for _, e := range cyc {
		fmt.Fprintf(&b, "m%d -> ", e.Waiter)
	}
	fmt.Fprintf(&b, "m%d: %s", cyc[0].Waiter, strings.Join(closing, "; "))
	if len(besides) > 0 {
		b.WriteString("; besides, " + strings.Join(besides, "; "))
	}
	return b.String()
}

// onItself reports whether every resource w needs is held by its own waiter (a body flit
// waiting for room in its worm's next buffer).
func onItself(w system.Wait) bool {
	for _, n := range w.Needs {
		if n.Holder != w.Waiter {
			return false
		}
	}
	return len(w.Needs) > 0
}

// waitText renders one wait for people.
func (m *Model) waitText(w system.Wait) string {
	who := fmt.Sprintf("m%d at %s", w.Waiter, m.cfg.Net.NodeName(chanNode(w.At)))
	switch w.Kind {
	case WaitRoom:
		if len(w.Needs) == 1 {
			return fmt.Sprintf("%s waits for room in %s", who, m.VCName(Out(w.Needs[0].ID)))
		}
	case WaitEject:
		return who + " waits for the ejection channel"
	case WaitInject:
		return who + " waits for the injection channel"
	case WaitNoRoute:
		return fmt.Sprintf("%s has no output: routing %s permits none", who, m.rel.Name())
	case WaitOutput:
		var wants []string
		for k := 0; k < len(w.Needs); {
			ch := w.Needs[k].ID / m.cfg.VCs
			var holders []string
			for ; k < len(w.Needs) && w.Needs[k].ID/m.cfg.VCs == ch; k++ {
				holders = append(holders, fmt.Sprintf("vc%d by m%d", w.Needs[k].ID%m.cfg.VCs, w.Needs[k].Holder))
			}
			wants = append(wants, fmt.Sprintf("%s (%s)", m.cfg.Net.ChannelName(chanID(ch)), strings.Join(holders, ", ")))
		}
		return fmt.Sprintf("%s waits for %s", who, strings.Join(wants, " or "))
	}
	return fmt.Sprintf("%s waits (%s)", who, w.Kind)
}
