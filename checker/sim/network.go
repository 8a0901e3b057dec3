package sim

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/wormcheck/wormcheck/model/topology"
)

// flit is one flit in a buffer: the worm it belongs to (index into network.worms) in
// the high bits, flagHead, flagTail and flagTree in the low three. A tree-multicast flit
// (flagTree) carries instead its tree record and code (tree.go).
type flit uint32

const (
	flagHead flit = 1
	flagTail flit = 2
	flagTree flit = 4
)

func (f flit) worm() int32 { return int32(f >> 3) }

// worm is one message in flight along one route. A unicast is one worm; a path-based
// multicast is one worm per path; a unicast-based collective is many worms.
type worm struct {
	hops    []topology.Hop
	drops   []int32 // 1-based hop counts after which the node reached receives a copy (path-based)
	hop     int32   // next hop the header takes; len(hops) means eject
	tailHop int32   // hops the tail has crossed
	sent    int32   // flits injected so far
	length  int32
	src     topology.NodeID
	msg     int32 // index of the message record
	aux     int32 // algorithm data (SBT: the rotated dimension index this copy travelled)
	ready   int64 // cycle the worm joined its injection port
	tree    int32 // tree multicast record + 1 (0: an ordinary worm)
}

// blockEvent is the first time a header found every virtual channel it may use held by other
// worms: the contending pair of the schedule executor.
type blockEvent struct {
	Cycle   int64
	Channel topology.ChannelID // topology.None for a delivery port
	Node    topology.NodeID    // the node whose output is contended
	Waiting int32              // worm id (message index for schedules) that had to wait
	Holding int32              // worm id holding the resource
}

// network is the flit-level state: virtual-channel buffers, allocations and the
// injection and delivery ports. It knows nothing of traffic; the driver feeds worms and
// is called back on deliveries.
//
// Index spaces: input units x are network VCs 0..nvc-1 (the input buffer of VC v of
// channel c is x = c*V+v) followed by injection ports; output units y are network VCs
// 0..nvc-1 (the same VC seen from upstream) followed by delivery ports.
type network struct {
	g        *topology.Network
	V        int
	B        int
	classes  int
	nvc      int
	inPorts  int // injection ports per node
	outPorts int // delivery ports per node
	nodes    int

	// Network VC input buffers: ring buffers of B slots, each a flit (high 32 bits) and
	// the low 32 bits of the cycle it arrived (a flit may not move on in the cycle it
	// arrived; equality of the low bits is enough since it never comes from the future).
	buf []uint64
	// vcs[x] holds buffer x's ring head, flit count and popped, the low 32 bits of the
	// last cycle a flit left it. Credits return at the end of a cycle: the upstream sees
	// B - count - (popped this cycle) free slots. Each buffer loses at most one flit and
	// gains at most one per cycle. One struct per buffer keeps a move's reads on few
	// cache lines.
	vcs []vcBuf

	out []int32 // per input unit: the output unit its head worm is allocated, or -1
	src []int32 // per output unit: the input unit feeding it, or -1
	// holder[y] is the worm last allocated output unit y (valid while src[y] >= 0), so a
	// blocked header can name its rival even when the rival's flits are upstream.
	holder []int32

	mask []uint64 // per physical channel: VCs with an allocated source
	rr   []int32  // per physical channel: last VC served (demand-slotted round robin)

	// Active lists: channels with a nonzero mask and busy delivery ports, so that a
	// cycle costs O(busy resources), not O(network). Entries whose resource went idle
	// are dropped lazily when the cycle loop meets them.
	activeCh []int32
	onCh     []bool
	activeEj []int32
	onEj     []bool

	ports    [][]int32 // per injection port: FIFO of worms waiting (head is injecting)
	portHead []int32   // index of the head in ports[p]

	pending     []int32 // input units whose head flit is a header waiting for allocation
	nextPending []int32

	worms    []worm
	freeWorm []int32

	flitHops int64
	now      int64 // the cycle being simulated
	// firstBlk is the first wait of a header that counts as contention, firstWait the
	// first wait of any header; both are recorded only with recBlk. serialised, if set,
	// tells the waits that are not contention (the schedule executor: a node's own sends
	// through one first channel, which the timed semantics serialises by definition).
	firstBlk   *blockEvent
	firstWait  *blockEvent
	recBlk     bool
	serialised func(waiting, holding int32, c topology.ChannelID) bool

	// delivered is called when the tail of worm w reaches node v, an intermediate
	// destination of a path-based worm or (final) the end of its route; the data is
	// usable at cycle t. The worm record may be released once final is seen.
	delivered func(w int32, v topology.NodeID, t int64, final bool)
	lastMove  int64
	// trace, if set, sees every flit move (Config.Trace).
	trace func(TraceEvent)

	// Tree multicast (tree.go); nil/false unless Config.Tree.
	treeOn bool
	tree   *treeState
}

func newNetwork(g *topology.Network, V, B, inPorts, outPorts, classes int) (*network, error) {
	if V < classes {
		return nil, fmt.Errorf("vcs %d: the routing needs at least %d virtual channels per physical channel", V, classes)
	}
	if V > 64 {
		return nil, fmt.Errorf("vcs %d: at most 64 virtual channels per physical channel are supported", V)
	}
	if B < 1 {
		return nil, fmt.Errorf("buffers %d: every virtual channel needs at least one flit of buffer", B)
	}
	if slots := int64(g.Channels()) * int64(V) * int64(B); slots > maxBufferSlots {
		return nil, fmt.Errorf("buffers %d: %d channels x %d virtual channels x %d flits is %d buffer slots, more than the %d the simulator holds; lower the buffers or the VCs", B, g.Channels(), V, B, slots, maxBufferSlots)
	}
	n := &network{g: g, V: V, B: B, classes: classes, nodes: g.Nodes(), inPorts: inPorts, outPorts: outPorts}
	n.nvc = g.Channels() * V
	n.buf = make([]uint64, n.nvc*B)
	n.vcs = make([]vcBuf, n.nvc)
	for i := range n.vcs {
		n.vcs[i].popped = ^uint32(0)
	}
	np := n.nodes * inPorts
	n.out = make([]int32, n.nvc+np)
	for i := range n.out {
		n.out[i] = -1
	}
	n.src = make([]int32, n.nvc+n.nodes*outPorts)
	n.holder = make([]int32, len(n.src))
	for i := range n.src {
		n.src[i] = -1
	}
	n.mask = make([]uint64, g.Channels())
	n.onCh = make([]bool, g.Channels())
	n.onEj = make([]bool, len(n.src))
	n.rr = make([]int32, g.Channels())
	n.ports = make([][]int32, np)
	n.portHead = make([]int32, np)
	return n, nil
}

// newWorm allocates a worm record.
func (n *network) newWorm() int32 {
	if k := len(n.freeWorm); k > 0 {
		w := n.freeWorm[k-1]
		n.freeWorm = n.freeWorm[:k-1]
		return w
	}
	n.worms = append(n.worms, worm{})
	return int32(len(n.worms) - 1)
}

func (n *network) releaseWorm(w int32) {
	wr := &n.worms[w]
	wr.hops = wr.hops[:0]
	wr.drops = nil
	wr.tree = 0
	n.freeWorm = append(n.freeWorm, w)
}

// inject puts worm w into injection port p of its source at cycle t.
func (n *network) inject(w int32, p int, t int64) {
	n.worms[w].ready = t
	q := n.ports[p]
	if len(q) > 0 && n.portHead[p] == int32(len(q)) {
		q = q[:0]
		n.portHead[p] = 0
	}
	q = append(q, w)
	n.ports[p] = q
	if int(n.portHead[p]) == len(q)-1 {
		n.pending = append(n.pending, int32(n.nvc+p))
	}
}

// headWorm returns the worm whose flit is at the head of input unit x, or -1.
func (n *network) headWorm(x int32) int32 {
	if int(x) < n.nvc {
		if n.vcs[x].count == 0 {
			return -1
		}
		return flit(n.buf[int(x)*n.B+int(n.vcs[x].head)] >> 32).worm()
	}
	p := int(x) - n.nvc
	if int(n.portHead[p]) >= len(n.ports[p]) {
		return -1
	}
	return n.ports[p][n.portHead[p]]
}

// nodeOf returns the node where input unit x sits.
func (n *network) nodeOf(x int32) topology.NodeID {
	if int(x) < n.nvc {
		return n.g.Channel(topology.ChannelID(int(x) / n.V)).To
	}
	return topology.NodeID((int(x) - n.nvc) / n.inPorts)
}

// allocate tries to give the header at the head of each pending input unit an output:
// a free VC of its next channel in its class, or a free delivery port at its destination.
// Headers are served oldest first; those that fail stay pending in order.
func (n *network) allocate(t int64) {
	keep := n.nextPending[:0]
	for _, x := range n.pending {
		if n.treeOn && int(x) >= n.nvc {
			if w := n.headWorm(x); n.worms[w].tree > 0 {
				n.treeStart(x, w)
				continue
			}
		}
		if int(x) < n.nvc {
			// A header that arrived this cycle waits until the next one (one cycle per hop).
			i := int(x)*n.B + int(n.vcs[x].head)
			if uint32(n.buf[i]) == uint32(t) {
				keep = append(keep, x)
				continue
			}
		}
		w := n.headWorm(x)
		wr := &n.worms[w]
		if int(wr.hop) == len(wr.hops) {
			v := n.nodeOf(x)
			base := n.nvc + int(v)*n.outPorts
			got := -1
			for e := 0; e < n.outPorts; e++ {
				if n.src[base+e] < 0 {
					got = base + e
					break
				}
			}
			if got < 0 {
				n.block(t, topology.None, v, w, n.holder[base])
				keep = append(keep, x)
				continue
			}
			n.src[got] = x
			n.holder[got] = w
			n.out[x] = int32(got)
			if !n.onEj[got] {
				n.onEj[got] = true
				n.activeEj = append(n.activeEj, int32(got))
			}
			continue
		}
		h := wr.hops[wr.hop]
		c := int(h.Channel)
		// Class k owns VCs k*V/C .. (k+1)*V/C - 1 (C classes; the dateline classes
		// split the VCs in halves, a schedule's VC classes get V/C each).
		lo, hi := 0, n.V
		if n.classes > 1 {
			k := min(int(h.Class), n.classes-1)
			lo, hi = k*n.V/n.classes, (k+1)*n.V/n.classes
		}
		got := -1
		for v := lo; v < hi; v++ {
			if n.vcFree(c, v) {
				got = v
				break
			}
		}
		if got < 0 {
			n.block(t, h.Channel, n.g.Channel(h.Channel).From, w, n.holder[c*n.V+lo])
			keep = append(keep, x)
			continue
		}
		y := c*n.V + got
		n.src[y] = x
		n.holder[y] = w
		n.out[x] = int32(y)
		n.mask[c] |= 1 << uint(got)
		if !n.onCh[c] {
			n.onCh[c] = true
			n.activeCh = append(n.activeCh, int32(c))
		}
	}
	n.nextPending = n.pending
	n.pending = keep
}

// vcFree reports whether virtual channel v of channel c may be allocated to a new worm:
// no worm is allocated to it and its buffer holds no flit of the previous worm. This is
// atomic VC allocation (Dally & Towles, Principles and Practices of Interconnection
// Networks, virtual-channel flow control; the queue assumption of Duato's deadlock theory), the one flit-level rule of docs/semantics.md: a VC is released when the
// previous worm's tail has left its buffer, not when the tail has crossed the channel,
// exactly as in the explorer's model (model/flit), so a blocked tail keeps its VC.
// Allocation runs at the start of a cycle, so a tail that left in cycle t-1 frees the
// VC for a header in cycle t, which the explorer reaches by the tail move first
// (TestSimulatorRunsAreExplorerPaths).
func (n *network) vcFree(c, v int) bool {
	return n.mask[c]&(1<<uint(v)) == 0 && n.vcs[c*n.V+v].count == 0
}

func (n *network) block(t int64, c topology.ChannelID, v topology.NodeID, waiting int32, holding int32) {
	if !n.recBlk || n.firstBlk != nil {
		return
	}
	b := &blockEvent{Cycle: t, Channel: c, Node: v, Waiting: waiting, Holding: holding}
	if n.firstWait == nil {
		n.firstWait = b
	}
	if n.serialised == nil || !n.serialised(waiting, holding, c) {
		n.firstBlk = b
	}
}

// headReady reports whether input unit x has a flit that may move in cycle t.
func (n *network) headReady(x int32, t int64) bool {
	if int(x) < n.nvc {
		return n.vcs[x].count > 0 && uint32(n.buf[int(x)*n.B+int(n.vcs[x].head)]) != uint32(t)
	}
	return true // an allocated injection port always has its worm's next flit
}

// ready reports whether input unit x may send its next flit to output unit y in cycle t:
// headReady for ordinary worms; for a tree multicast input, whether y is the target the
// tree step chose this cycle.
func (n *network) ready(x, y int32, t int64) bool {
	if n.treeOn && n.treeAt(x) {
		return n.tree.in[x].tgt == y
	}
	return n.headReady(x, t)
}

// take pops the head flit of network VC x (an ordinary worm's) if it may move in cycle
// t, i.e. headReady and pop in one read of the buffer.
func (n *network) take(x int32, t int64) (flit, bool) {
	vx := &n.vcs[x]
	if vx.count == 0 {
		return 0, false
	}
	e := n.buf[int(x)*n.B+int(vx.head)]
	if uint32(e) == uint32(t) {
		return 0, false // arrived this cycle
	}
	vx.head++
	if int(vx.head) == n.B {
		vx.head = 0
	}
	vx.count--
	vx.popped = uint32(t)
	return flit(e >> 32), true
}

// pop removes the head flit of input unit x.
func (n *network) pop(x int32) flit {
	if int(x) < n.nvc {
		i := int(x)*n.B + int(n.vcs[x].head)
		f := flit(n.buf[i] >> 32)
		n.vcs[x].head++
		if int(n.vcs[x].head) == n.B {
			n.vcs[x].head = 0
		}
		n.vcs[x].count--
		n.vcs[x].popped = uint32(n.now)
		return f
	}
	p := int(x) - n.nvc
	w := n.ports[p][n.portHead[p]]
	wr := &n.worms[w]
	f := flit(w) << 3
	if wr.sent == 0 {
		f |= flagHead
	}
	wr.sent++
	if wr.sent == wr.length {
		f |= flagTail
		n.portHead[p]++
	}
	return f
}

// afterTail makes the next worm at input unit x pending if its header is at the head.
func (n *network) afterTail(x int32) {
	n.out[x] = -1
	if int(x) < n.nvc {
		if n.vcs[x].count > 0 && flit(n.buf[int(x)*n.B+int(n.vcs[x].head)]>>32)&flagHead != 0 {
			n.pending = append(n.pending, x)
		}
		return
	}
	p := int(x) - n.nvc
	if int(n.portHead[p]) < len(n.ports[p]) {
		n.pending = append(n.pending, x)
	}
}

// transmit moves one flit from input unit x to output unit y in cycle t.
func (n *network) transmit(x, y int32, t int64) {
	if n.treeOn && n.treeAt(x) {
		n.treeTransmit(x, y, t)
		return
	}
	n.move(n.pop(x), x, y, t)
}

// move completes transmit once flit f has left input unit x: it enters output unit y
// (the buffer of a network virtual channel, or a delivery port) in cycle t.
func (n *network) move(f flit, x, y int32, t int64) {
	n.lastMove = t
	w := f.worm()
	if n.trace != nil {
		n.traceMove(TraceEvent{Cycle: t, Worm: w, Msg: n.worms[w].msg, Head: f&flagHead != 0, Tail: f&flagTail != 0}, int(x), int(y))
	}
	if int(y) < n.nvc {
		vy := &n.vcs[y]
		k := int(vy.head) + int(vy.count)
		if k >= n.B {
			k -= n.B
		}
		n.buf[int(y)*n.B+k] = uint64(f)<<32 | uint64(uint32(t))
		vy.count++
		n.flitHops++
		if f&(flagHead|flagTail) == 0 {
			return // a body flit: nothing else changes
		}
		wr := &n.worms[w]
		if f&flagHead != 0 {
			wr.hop++
			if n.vcs[y].count == 1 {
				n.pending = append(n.pending, y)
			}
		}
		if f&flagTail != 0 {
			wr.tailHop++
			c := int(y) / n.V
			n.mask[c] &^= 1 << uint(int(y)%n.V)
			n.src[y] = -1
			n.afterTail(x)
			if len(wr.drops) > 0 && wr.drops[0] == wr.tailHop {
				wr.drops = wr.drops[1:]
				n.delivered(w, n.g.Channel(topology.ChannelID(c)).To, t+1, false)
			}
		}
		return
	}
	// Delivery port: the flit leaves the network.
	if f&flagTail != 0 {
		n.src[y] = -1
		n.afterTail(x)
		v := topology.NodeID((int(y) - n.nvc) / n.outPorts)
		n.delivered(w, v, t+1, true)
	}
}

// cycle advances the network by one cycle: allocation, then one flit per physical
// channel (demand-slotted round robin among its VCs that have a flit and a free slot
// downstream) and one flit per busy delivery port, then credits return.
func (n *network) cycle(t int64) {
	n.now = t
	if n.treeOn {
		n.treeReleaseDone()
	}
	if len(n.pending) > 0 {
		n.allocate(t)
	}
	kept := len(n.pending)
	if n.treeOn {
		n.treeStep(t)
	}
	V := n.V
	act := n.activeCh
	for i := 0; i < len(act); i++ {
		c := act[i]
		m := n.mask[c]
		if m == 0 {
			n.onCh[c] = false
			act[i] = act[len(act)-1]
			act = act[:len(act)-1]
			i--
			continue
		}
		// A tree's new branch crosses first, in the cycle it was reserved (tree.go).
		if n.treeOn && n.tree.prioT[c] == t {
			if y := n.tree.prioY[c]; n.src[y] >= 0 && int(n.vcs[y].count) < n.B && n.ready(n.src[y], y, t) {
				n.rr[c] = y % int32(V)
				n.transmit(n.src[y], y, t)
				continue
			}
		}
		// Demand-slotted round robin: the VCs after the last one served, in turn.
		r := uint(n.rr[c]) + 1
		rot := m>>r | m<<(uint(V)-r)
		if r >= uint(V) {
			rot = m
			r = 0
		}
		rot &= 1<<uint(V) - 1
		for rot != 0 {
			k := uint(bits.TrailingZeros64(rot))
			rot &= rot - 1
			v := int(r + k)
			if v >= V {
				v -= V
			}
			y := int32(int(c)*V + v)
			if free := n.B - int(n.vcs[y].count); free == 0 || free == 1 && n.vcs[y].popped == uint32(t) {
				continue
			}
			x := n.src[y]
			if x < 0 {
				continue
			}
			if int(x) < n.nvc && !n.treeOn {
				// The common case, a worm's flit moving from one network VC to the
				// next: ready and pop with the source buffer read once.
				f, ok := n.take(x, t)
				if !ok {
					continue
				}
				n.rr[c] = int32(v)
				n.move(f, x, y, t)
				break
			}
			if !n.ready(x, y, t) {
				continue
			}
			n.rr[c] = int32(v)
			n.transmit(x, y, t)
			break
		}
	}
	n.activeCh = act
	ej := n.activeEj
	for i := 0; i < len(ej); i++ {
		e := ej[i]
		x := n.src[e]
		if x < 0 {
			n.onEj[e] = false
			ej[i] = ej[len(ej)-1]
			ej = ej[:len(ej)-1]
			i--
			continue
		}
		if int(x) < n.nvc && !n.treeOn {
			if f, ok := n.take(x, t); ok {
				n.move(f, x, e, t)
			}
		} else if n.ready(x, e, t) {
			n.transmit(x, e, t)
		}
	}
	n.activeEj = ej
	// Headers that reached the head of a buffer this cycle queue for allocation in input
	// unit order, so that priorities do not depend on the order the active lists happen
	// to be in (the naive twin in naive_test.go relies on it).
	if fresh := n.pending[kept:]; len(fresh) > 1 {
		slices.Sort(fresh)
	}
}

// idle reports whether no flit is in the network and no worm waits to be injected.
func (n *network) idle() bool {
	for i := range n.vcs {
		if n.vcs[i].count != 0 {
			return false
		}
	}
	for p, q := range n.ports {
		if int(n.portHead[p]) < len(q) {
			return false
		}
	}
	if n.treeOn {
		for _, x := range n.tree.act {
			if n.tree.in[x].reinj > 0 {
				return false
			}
		}
	}
	return true
}

// TraceEvent is one event of a run: by default (Kind TraceMove) a flit move: in Cycle,
// the flit of worm Worm (message Msg; for a schedule, the unicast index) left its input
// (virtual channel InVC of InChannel, or with InChannel = topology.None its source's
// injection port) and crossed virtual channel VC of Channel into Node, or, with Channel
// = topology.None, was delivered at Node. Tree multicasts (tree.go) also trace TraceReserve,
// an output reserved for an address flit (a new branch, 000 §2.1 case (a); Channel and
// VC name it, or Channel = topology.None the delivery port of Node), and TracePrune, the
// outputs Pruned released at input InChannel/InVC of Node (000 §3). Pruned lists network
// virtual channels as channel*VCs+vc and a delivery port as -1, the numbering of
// model/flit's outputs. Head is set for a worm's header and a tree's address flits.
type TraceEvent struct {
	Cycle      int64
	Kind       TraceKind
	Channel    topology.ChannelID
	VC         int
	Node       topology.NodeID
	InChannel  topology.ChannelID
	InVC       int
	Worm, Msg  int32
	Head, Tail bool
	Pruned     []int32
}

// TraceKind is the kind of a TraceEvent.
type TraceKind uint8

// The trace event kinds.
const (
	TraceMove TraceKind = iota
	TraceReserve
	TracePrune
)

// vcBuf is the bookkeeping of one virtual-channel input buffer.
type vcBuf struct {
	head, count int32
	popped      uint32
}

// traceMove completes ev with where a flit came from (input unit x: a virtual channel, or
// an injection port) and moved to (output unit y: a virtual channel of a network
// channel, or a delivery port of a node) and hands it to the trace hook.
func (n *network) traceMove(ev TraceEvent, x, y int) {
	ev.InChannel = topology.None
	if x < n.nvc {
		ev.InChannel, ev.InVC = topology.ChannelID(x/n.V), x%n.V
	}
	ev.Channel = topology.None
	if y < n.nvc {
		ev.Channel, ev.VC = topology.ChannelID(y/n.V), y%n.V
		ev.Node = n.g.Channel(ev.Channel).To
	} else {
		ev.Node = topology.NodeID((y - n.nvc) / n.outPorts)
	}
	n.trace(ev)
}
