// Package vct is the InfiniBand semantics: virtual cut-through switching with
// credit-based flow control per (port, virtual lane), as a transition system for
// wormcheck's explorer (model/system).
//
// A channel is a port of a node and a VL (fabric.Hop); its buffer sits at the far end
// of the link and holds Buffer credits. Every packet is Packet credits long (an MTU),
// so a buffer holds K = Buffer/Packet packets. A packet moves whole: the sender needs
// credits for all of it (IB link-level flow control), so a blocked packet lies in one
// buffer, never across a link. A buffer is one FIFO shared by every packet on that
// (port, VL): only its head packet leaves, and it leaves as soon as the next buffer on
// its route has room, so a VL is never held by one packet until its tail passes (the
// difference from model/flit's wormhole virtual channels). Routing is the fabric's:
// destination-based through the LFTs, VL per hop from SL2VL (fabric.Route).
//
// The packets are those of Flows: a flow sends Packets packets, in order, from one
// port to one destination LID on one SL, along one route. Transitions: a flow injects
// its next packet into its first buffer (when it has room); the head packet of a buffer
// moves to its next buffer (when it has room), or is delivered when the buffer is its
// last (an end node always accepts). Moving packets whole is exact for deadlock: a
// transfer that has started ends (the credits were there), so every state where
// packets wait is one of these.
//
// Deadlock: a set S of undelivered packets none of which can ever move again (the
// local deadlock of model/system, computed by WaitFor and LocalDeadlock). A head packet
// waits for room in its next buffer, which only the departure of that buffer's head
// can make; a packet behind a head waits for the one ahead of it; an uninjected packet
// waits for room in its first buffer, or for its flow's previous packet. When every
// such holder is in S nothing in S ever moves: credits return only when a packet
// leaves a buffer, a buffer's packets leave in FIFO order, and arrivals only take
// credits. docs/semantics.md states it; the package tests pin it against a naive twin.
package vct

import (
	"encoding/binary"
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/system"
)

// Flow is a stream of packets along one route.
type Flow struct {
	Src  fabric.PortRef
	DLID uint16
	SL   uint8
	// Route is the channels the packets take, in order (fabric.Route's hops): after the
	// last one a packet leaves the network (delivered, or dropped where the tables
	// drop it), unless Loop says the tables send it on round a forwarding loop, to
	// Route[Again] and on forever.
	Route []fabric.Hop
	Loop  bool
	Again int
	// Packets is how many packets the flow sends (at least 1).
	Packets int
}

// Config is one instance of the semantics.
type Config struct {
	Fabric *fabric.Fabric
	Flows  []Flow
	// Buffer is the credits of each (port, VL) buffer, Packet the credits of a packet
	// (an IB credit is 64 bytes: a 2048-byte MTU is 32 credits).
	Buffer, Packet int
}

// Model is the transition system of a Config.
type Model struct {
	cfg   Config
	k     int          // packets per buffer
	chans []fabric.Hop // the channels some route uses, in first-use order
	route [][]int32    // per flow, its channels as indices into chans
	first []int        // per flow, its first packet's message id
	total int          // packets
	nf    int          // flows
}

// State is the content of every buffer and how many packets each flow has injected.
// Its layout: inj[f] for each flow, then K slots per channel holding flow+1 of the
// packets in FIFO order (0: empty), packed at the front.
type State struct {
	w []uint16
}

// MaxPackets bounds the packets of one instance (message ids and flow counts are
// 16-bit).
const MaxPackets = 1 << 15

// New checks a configuration and builds its model.
func New(cfg Config) (*Model, error) {
	if cfg.Packet < 1 || cfg.Buffer < cfg.Packet {
		return nil, fmt.Errorf("a buffer of %d credits holds no packet of %d credits; the buffer must be at least one packet", cfg.Buffer, cfg.Packet)
	}
	m := &Model{cfg: cfg, k: cfg.Buffer / cfg.Packet, nf: len(cfg.Flows)}
	if m.k > 255 {
		m.k = 255 // more packets than any route can bring never matter (see Capacity)
	}
	index := map[fabric.Hop]int32{}
	for i, f := range cfg.Flows {
		if f.Packets < 1 {
			return nil, fmt.Errorf("flow %d sends %d packets; at least 1", i, f.Packets)
		}
		if len(f.Route) == 0 {
			return nil, fmt.Errorf("flow %d has no route", i)
		}
		r := make([]int32, len(f.Route))
		for j, h := range f.Route {
			c, ok := index[h]
			if !ok {
				c = int32(len(m.chans))
				index[h] = c
				m.chans = append(m.chans, h)
			}
			if slices.Contains(r[:j], c) {
				return nil, fmt.Errorf("flow %d passes %s twice (a routing loop)", i, cfg.Fabric.HopName(h))
			}
			r[j] = c
		}
		if f.Loop && (f.Again < 0 || f.Again >= len(r)) {
			return nil, fmt.Errorf("flow %d loops back to channel %d of a route of %d", i, f.Again, len(r))
		}
		m.route = append(m.route, r)
		m.first = append(m.first, m.total)
		m.total += f.Packets
		if m.total > MaxPackets {
			return nil, fmt.Errorf("more than %d packets", MaxPackets)
		}
	}
	return m, nil
}

// Config returns the instance.
func (m *Model) Config() Config { return m.cfg }

// Capacity is K, the packets one buffer holds.
func (m *Model) Capacity() int { return m.k }

// Channels returns the channels the routes use, in first-use order (the model's
// channel numbering: Channel(i)).
func (m *Model) Channels() []fabric.Hop { return slices.Clone(m.chans) }

// Packets is the number of packets (message ids 0..Packets-1: flow by flow, in order).
func (m *Model) Packets() int { return m.total }

// PacketFlow returns the flow and sequence number of message id p.
func (m *Model) PacketFlow(p int) (flow, seq int) {
	f, _ := slices.BinarySearch(m.first, p+1)
	return f - 1, p - m.first[f-1]
}

// Actions: the low bit says inject (1, flow in the rest) or move (0, channel in the
// rest).
func injectAction(f int) system.Action   { return system.Action(f<<1 | 1) }
func moveAction(c int32) system.Action   { return system.Action(int(c) << 1) }
func decode(a system.Action) (bool, int) { return a&1 == 1, int(a >> 1) }

// Inject and Move are the actions of the model, for callers that build traces:
// Inject(f) injects flow f's next packet, Move(c) moves (or delivers) the head of
// channel c (an index into Channels).
func Inject(f int) system.Action { return injectAction(f) }
func Move(c int) system.Action   { return moveAction(int32(c)) }
func (m *Model) slots() int      { return m.nf + len(m.chans)*m.k }
func (s State) queue(m *Model, c int32) []uint16 {
	o := m.nf + int(c)*m.k
	return s.w[o : o+m.k]
}

// count is the number of packets in a queue.
func count(q []uint16) int {
	for i, v := range q {
		if v == 0 {
			return i
		}
	}
	return len(q)
}

// Init returns the empty network.
func (m *Model) Init() []State { return []State{{w: make([]uint16, m.slots())}} }

// enabled calls yield for every enabled action of s, injections by flow, then moves
// by channel.
func (m *Model) enabled(s State, yield func(system.Action)) {
	for f := range m.nf {
		if int(s.w[f]) < m.cfg.Flows[f].Packets && count(s.queue(m, m.route[f][0])) < m.k {
			yield(injectAction(f))
		}
	}
	for c := range int32(len(m.chans)) {
		q := s.queue(m, c)
		if q[0] == 0 {
			continue
		}
		if next := m.next(int(q[0]-1), c); next < 0 || count(s.queue(m, next)) < m.k {
			yield(moveAction(c))
		}
	}
}

// next is the channel after c on flow f's route, -1 when c is its last.
func (m *Model) next(f int, c int32) int32 {
	r := m.route[f]
	for j, x := range r {
		if x == c {
			switch {
			case j+1 < len(r):
				return r[j+1]
			case m.cfg.Flows[f].Loop:
				return r[m.cfg.Flows[f].Again]
			}
			return -1
		}
	}
	panic("vct: a packet on a channel off its route")
}

// apply returns the successor of s under an enabled action.
func (m *Model) apply(s State, a system.Action) State {
	t := State{w: slices.Clone(s.w)}
	inj, x := decode(a)
	if inj {
		t.w[x]++
		q := t.queue(m, m.route[x][0])
		q[count(q)] = uint16(x + 1)
		return t
	}
	c := int32(x)
	q := t.queue(m, c)
	f := int(q[0] - 1)
	copy(q, q[1:])
	q[len(q)-1] = 0
	if next := m.next(f, c); next >= 0 {
		nq := t.queue(m, next)
		nq[count(nq)] = uint16(f + 1)
	}
	return t
}

// Successors appends the enabled transitions of s.
func (m *Model) Successors(s State, dst []system.Transition[State]) []system.Transition[State] {
	m.enabled(s, func(a system.Action) {
		dst = append(dst, system.Transition[State]{Action: a, Next: m.apply(s, a)})
	})
	return dst
}

// Encode appends the state's words.
func (m *Model) Encode(s State, buf []byte) []byte {
	for _, v := range s.w {
		buf = binary.AppendUvarint(buf, uint64(v))
	}
	return buf
}

// Terminal: every packet injected and delivered.
func (m *Model) Terminal(s State) bool {
	for f := range m.nf {
		if int(s.w[f]) < m.cfg.Flows[f].Packets {
			return false
		}
	}
	for _, v := range s.w[m.nf:] {
		if v != 0 {
			return false
		}
	}
	return true
}

// Progress is the sum of the packets' positions along their routes (injected packets
// count one per channel reached, delivered ones one more): every transition adds one.
func (m *Model) Progress(s State, buf []uint32) []uint32 {
	var sum uint32
	for f := range m.nf {
		sum += uint32(s.w[f]) * uint32(len(m.route[f])+1)
	}
	for c := range int32(len(m.chans)) {
		for _, v := range s.queue(m, c) {
			if v == 0 {
				break
			}
			r := m.route[v-1]
			j := slices.Index(r, c)
			sum -= uint32(len(r) - j)
		}
	}
	return append(buf[:0], sum)
}

// Pending lists the undelivered packets (message ids).
func (m *Model) Pending(s State, dst []int) []int {
	pos := m.Positions(s)
	for p, x := range pos {
		if x.Delivered {
			continue
		}
		dst = append(dst, p)
	}
	return dst
}

// Position is where one packet is: not yet injected (Channel -1, not Delivered), in a
// buffer (Channel, Index in its FIFO from the head), or delivered.
type Position struct {
	Channel   int32
	Index     int
	Delivered bool
}

// Positions returns where every packet is (by message id). Packets of a flow keep their
// order: the one furthest along is the earliest.
func (m *Model) Positions(s State) []Position {
	pos := make([]Position, m.total)
	for p := range pos {
		pos[p].Channel = -1
	}
	// in[f] lists flow f's packets in the network as (route index, FIFO index), to be
	// ordered furthest first.
	type at struct {
		j, idx int
		c      int32
	}
	in := make([][]at, m.nf)
	for c := range int32(len(m.chans)) {
		for i, v := range s.queue(m, c) {
			if v == 0 {
				break
			}
			f := int(v - 1)
			in[f] = append(in[f], at{slices.Index(m.route[f], c), i, c})
		}
	}
	for f := range m.nf {
		slices.SortFunc(in[f], func(a, b at) int {
			if a.j != b.j {
				return b.j - a.j
			}
			return a.idx - b.idx
		})
		inj := int(s.w[f])
		delivered := inj - len(in[f])
		for seq := 0; seq < delivered; seq++ {
			pos[m.first[f]+seq].Delivered = true
		}
		for k, x := range in[f] {
			pos[m.first[f]+delivered+k] = Position{Channel: x.c, Index: x.idx}
		}
	}
	return pos
}

// WaitFor returns the wait-for relation of s: every undelivered packet without an
// enabled move, and what would let it move, held by which packet (Resource.ID is the
// channel index; -1 for a flow's previous packet).
func (m *Model) WaitFor(s State) system.WaitGraph {
	pos := m.Positions(s)
	g := system.WaitGraph{Undelivered: make([]bool, m.total), Blocked: make([]bool, m.total)}
	// inBuf[c][i]: the message id at FIFO index i of channel c.
	inBuf := make([][]int, len(m.chans))
	for c := range inBuf {
		inBuf[c] = make([]int, count(s.queue(m, int32(c))))
	}
	for p, x := range pos {
		if x.Channel >= 0 {
			inBuf[x.Channel][x.Index] = p
		}
	}
	head := func(c int32) int { return inBuf[c][0] }
	ahead := func(c int32, idx int) int { return inBuf[c][idx-1] }
	for p, x := range pos {
		if x.Delivered {
			continue
		}
		g.Undelivered[p] = true
		f, seq := m.PacketFlow(p)
		switch {
		case x.Channel < 0 && seq > int(s.w[f]):
			// Waits for its flow's previous packet to be injected.
			g.Blocked[p] = true
			g.Waits = append(g.Waits, system.Wait{Waiter: p, Kind: system.WaitInject, Input: f, At: -1, Needs: []system.Resource{{ID: -1, Holder: p - 1}}})
		case x.Channel < 0:
			c0 := m.route[f][0]
			if count(s.queue(m, c0)) < m.k {
				continue
			}
			g.Blocked[p] = true
			g.Waits = append(g.Waits, system.Wait{Waiter: p, Kind: system.WaitInject, Input: f, At: int(c0), Needs: []system.Resource{{ID: int(c0), Holder: head(c0)}}})
		case x.Index > 0:
			g.Blocked[p] = true
			g.Waits = append(g.Waits, system.Wait{Waiter: p, Kind: system.WaitRoom, Input: f, At: int(x.Channel), Needs: []system.Resource{{ID: int(x.Channel), Holder: ahead(x.Channel, x.Index)}}})
		default:
			next := m.next(f, x.Channel)
			if next < 0 || count(s.queue(m, next)) < m.k {
				continue
			}
			g.Blocked[p] = true
			g.Waits = append(g.Waits, system.Wait{Waiter: p, Kind: system.WaitRoom, Input: f, At: int(x.Channel), Needs: []system.Resource{{ID: int(next), Holder: head(next)}}})
		}
	}
	return g
}

// LocalDeadlock returns the packets of s that can never move again (WaitFor's greatest
// fixed point), nil when none. Every such set contains a cycle of full buffers each of
// whose head packets goes next to the following one (a head waits only for the head of
// a full buffer, and the chain of waits must close), so a state without one answers
// nil at once (FullCycle); enabled is not needed.
func (m *Model) LocalDeadlock(s State, enabled []system.Action) []int {
	if m.FullCycle(s) == nil {
		return nil
	}
	g := m.WaitFor(s)
	return g.LocalDeadlock()
}

// FullCycle returns a cycle of full buffers (channel indices, in order) in which the
// head packet of each buffer goes next to the following buffer, or nil: the core of
// every deadlock. Cost O(channels).
func (m *Model) FullCycle(s State) []int32 {
	n := int32(len(m.chans))
	// next[c]: the buffer the head of full buffer c goes to, if that one is full too.
	mark := make([]int32, n) // 0 unvisited, k+1 visited from start k
	for start := range n {
		if mark[start] != 0 {
			continue
		}
		var path []int32
		c := start
		for {
			if mark[c] != 0 {
				if mark[c] == start+1 {
					i := 0
					for path[i] != c {
						i++
					}
					return path[i:]
				}
				break
			}
			mark[c] = start + 1
			q := s.queue(m, c)
			if count(q) < m.k {
				break
			}
			nx := m.next(int(q[0]-1), c)
			if nx < 0 {
				break
			}
			path = append(path, c)
			c = nx
		}
	}
	return nil
}

// Describe labels an action for people.
func (m *Model) Describe(from State, a system.Action) string {
	fab := m.cfg.Fabric
	inj, x := decode(a)
	if inj {
		f := m.cfg.Flows[x]
		return fmt.Sprintf("flow %d (%s to LID %d, SL %d) injects packet %d into %s", x, fab.PortName(f.Src), f.DLID, f.SL, from.w[x], fab.HopName(m.chans[m.route[x][0]]))
	}
	c := int32(x)
	if int(c) >= len(m.chans) {
		return fmt.Sprintf("move on channel %d (not in the model)", c)
	}
	q := from.queue(m, c)
	if q[0] == 0 {
		return fmt.Sprintf("move on empty %s", fab.HopName(m.chans[c]))
	}
	f := int(q[0] - 1)
	if next := m.next(f, c); next >= 0 {
		return fmt.Sprintf("flow %d's head packet on %s moves to %s", f, fab.HopName(m.chans[c]), fab.HopName(m.chans[next]))
	}
	return fmt.Sprintf("flow %d's head packet on %s is delivered to LID %d", f, fab.HopName(m.chans[c]), m.cfg.Flows[f].DLID)
}

// Step describes one action structurally, for pictures and captures: which packet
// (message id), what it does ("inject", "move", "deliver"), the channel it leaves (-1
// for an injection) and the channel it enters (-1 for a delivery).
type Step struct {
	Packet   int
	What     string
	From, To int32
}

// Explain returns the Step of enabled action a of s.
func (m *Model) Explain(s State, a system.Action) Step {
	inj, x := decode(a)
	pos := m.Positions(s)
	if inj {
		p := m.first[x] + int(s.w[x])
		return Step{Packet: p, What: "inject", From: -1, To: m.route[x][0]}
	}
	c := int32(x)
	p := -1
	for i, q := range pos {
		if q.Channel == c && q.Index == 0 {
			p = i
		}
	}
	f, _ := m.PacketFlow(max(p, 0))
	if next := m.next(f, c); next >= 0 {
		return Step{Packet: p, What: "move", From: c, To: next}
	}
	return Step{Packet: p, What: "deliver", From: c, To: -1}
}
