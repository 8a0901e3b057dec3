package pipeline

import (
	"context"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// flitRef is a flit: its packet's index in engine.pkts in the high bits, flagHead and
// flagTail in the low two.
type flitRef uint32

const (
	flagHead flitRef = 1
	flagTail flitRef = 2
)

func (f flitRef) pkt() int32 { return int32(f >> 2) }

// pkt is a packet in the system, from its creation to the delivery of its tail.
type pkt struct {
	src, dst         int32 // terminals
	size             int32
	ctime, itime     int64
	hops             int32
	cls              int32 // the relation's VC of the hop its header took last
	record           bool
	explicit         int32 // index into Traffic.Packets, or -1
	srcNode, dstNode topology.NodeID
}

// link is a channel of the simulated network: a channel of the topology, or the
// injection or ejection channel between a terminal and its router. Flits cross it
// forwards, credits backwards, each lat cycles plus the cycle of the hand-over (a flit
// sent in cycle t is read at the far end in cycle t+lat+1, as in BookSim's channels).
type link struct {
	lat      int32
	from, to int32 // router index, or -1 for a terminal
	outPort  int32 // port at from (router-local output index)
	inPort   int32 // port at to (router-local input index)
	term     int32 // the terminal at the terminal end, or -1
	channel  topology.ChannelID
	flits    fifo[pipeFlit]
	credits  fifo[uint64] // VC masks
}

type pipeFlit struct {
	f  flitRef
	vc int16
}

// VC states of an input virtual channel (BookSim's VC::eVCState).
const (
	vcIdle uint8 = iota
	vcRouting
	vcAlloc
	vcActive
)

// Stall codes of a pipeline stage item's result (a grant is >= 0).
const (
	resNone      int32 = -1
	stallBusy    int32 = -2
	stallFull    int32 = -3
	stallXbar    int32 = -4
	stallConflct int32 = -5
)

// stageItem is an input VC waiting in a stage: time is -1 until the stage evaluates it,
// then the cycle of its update; res is the stage's result.
type stageItem struct {
	time int64
	in   int32
	vc   int32
	res  int32
}

type xbarItem struct {
	time          int64
	f             flitRef
	vc            int32 // output VC
	expIn, expOut int32
}

type credItem struct {
	time int64
	out  int32
	mask uint64
}

type arrival struct {
	in int32
	f  flitRef
	vc int32
}

// routeElem is one element of an input VC's route set: an output port, its VC range and
// the bid's priority, and the relation's VC class of the hop.
type routeElem struct {
	out    int32
	lo, hi int32
	pri    int32
	cls    int32
}

// router is one router: its ports (links), its pipeline stages as BookSim's queues and
// its allocators. Per-port and per-VC state lives in the engine's flat arrays from
// inBase and outBase on.
type router struct {
	node            topology.NodeID
	in, out         []int32 // links
	inBase, outBase int32
	active          bool
	listed          bool
	partial         float64 // internal speedup's fractional cycles

	routeQ, vaQ, saQ, holdQ fifo[stageItem]
	xbarQ                   fifo[xbarItem]
	credQ                   fifo[credItem]
	arrivals                []arrival
	va, sw                  *allocator
	swRR                    []int32 // per expanded input: round-robin offset over its VCs
	holdVC, holdIn          []int32 // per expanded input
	holdOut                 []int32 // per expanded output
	outCred                 []uint64
	pendingOut              int // flits in output queues plus credits in credit queues
}

// terminal is one terminal: its source queue (BookSim keeps at most one packet
// materialised, later packets are created from qtime on as it catches up), the packet
// it is sending and the credits of its router's injection VCs.
type terminal struct {
	node    topology.NodeID
	inj, ej int32 // links
	qtime   int64
	drained bool
	cur     int32 // packet being sent, or -1
	sent    int32 // its flits sent
	curVC   int32
	lastVC  int32
	on      bool // on/off process state
	// state of the router's injection VCs as the terminal sees them
	vcBase int32 // into engine.occ / inUse / tailSent
	// explicit workload: indices into Traffic.Packets, in creation order
	explicit []int32
	next     int
	// statistics of the current measurement
	sentFlits, sentPkts, accFlits, accPkts int64
}

// engine is one simulation.
type engine struct {
	cfg       Config
	g         *topology.Network
	rel       routing.Relation
	V, B      int32
	classes   int32
	is, os    int32
	xbarDelay int64
	rng       *rand.Rand

	links  []link
	rts    []router
	terms  []terminal
	termOf []int32 // node -> terminal index, or -1
	rtrOf  []int32 // node -> router index, or -1

	// input VCs: buffers (ring of B flits each), states, allocated outputs, route sets
	buf      []flitRef
	bufHead  []int32
	bufCount []int32
	state    []uint8
	outPort  []int32
	outVC    []int32
	routes   [][]routeElem
	// output VCs (and, after them, the terminals' injection VCs): credits used, the input
	// VC holding it (-1: free) and whether its holder's tail was sent
	occ      []int32
	inUse    []int32
	tailSent []bool
	outQ     []fifo[pipeFlit] // per output port
	credQ    []fifo[uint64]   // per input port

	// calendar of arrivals: bucket t&calMask lists the links whose flit (credit) is read
	// in cycle t
	flitDue, credDue [][]int32
	calMask          int64
	list             []int32 // routers with work
	next             []int32

	pkts    []pkt
	freePkt []int32
	outBuf  []routing.Output
	chanBuf []topology.ChannelID
	err     error

	now, lastMove int64
	flitHops      int64
	sim           simState
	runState
}

func newEngine(cfg Config) (*engine, error) {
	if cfg.Context == nil {
		cfg.Context = context.Background()
	}
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	g := cfg.Network
	r := cfg.Router
	e := &engine{cfg: cfg, g: g, rel: cfg.Relation, V: int32(r.VCs), B: int32(r.Buffer),
		classes: int32(max(cfg.Relation.VCs(), 1)), is: int32(r.InputSpeedup), os: int32(r.OutputSpeedup),
		xbarDelay: int64(r.STPrepareDelay + r.STFinalDelay), rng: newRand(cfg.Seed), now: -1}
	terms := cfg.Terminals
	if terms == nil {
		terms = g.Endpoints()
	}
	if err := e.build(terms); err != nil {
		return nil, err
	}
	if err := e.prepareTraffic(); err != nil {
		return nil, err
	}
	return e, nil
}

// build creates the routers, terminals and links of the network.
func (e *engine) build(terms []topology.NodeID) error {
	g := e.g
	n := g.Nodes()
	e.termOf, e.rtrOf = filled(n, -1), filled(n, -1)
	for v := 0; v < n; v++ {
		if !g.Terminal(topology.NodeID(v)) {
			e.rtrOf[v] = int32(len(e.rts))
			e.rts = append(e.rts, router{node: topology.NodeID(v)})
		}
	}
	if len(terms) == 0 {
		return fmt.Errorf("topology %s has no terminals", g.Spec())
	}
	for i, v := range terms {
		if int(v) < 0 || int(v) >= n {
			return fmt.Errorf("terminal %d: node %d is not in %s", i, v, g.Spec())
		}
		if e.termOf[v] >= 0 {
			return fmt.Errorf("terminal %d: %s is listed twice", i, g.NodeName(v))
		}
		e.termOf[v] = int32(i)
		e.terms = append(e.terms, terminal{node: v, inj: -1, ej: -1, cur: -1, curVC: -1, lastVC: -1})
	}
	lat := e.cfg.Latency
	if lat == nil {
		lat = func(c topology.ChannelID) int {
			if c == topology.None {
				return 1
			}
			return g.Weight(c)
		}
	}
	tl := int32(lat(topology.None))
	if tl < 0 || tl > 1<<16 {
		return fmt.Errorf("terminal channels: latency %d; want 0..65536 cycles", tl)
	}
	for c := 0; c < g.Channels(); c++ {
		ch := g.Channel(topology.ChannelID(c))
		l := link{channel: topology.ChannelID(c), from: e.rtrOf[ch.From], to: e.rtrOf[ch.To], term: -1, lat: int32(lat(topology.ChannelID(c)))}
		if l.lat < 0 || l.lat > 1<<16 {
			return fmt.Errorf("channel %s: latency %d; want 0..65536 cycles", g.ChannelName(topology.ChannelID(c)), l.lat)
		}
		id := int32(len(e.links))
		switch {
		case l.from < 0 && l.to < 0:
			return fmt.Errorf("channel %s joins two terminals", g.ChannelName(topology.ChannelID(c)))
		case l.from < 0:
			t := e.termOf[ch.From]
			if t < 0 || e.terms[t].inj >= 0 {
				return fmt.Errorf("terminal %s: a terminal must be one of the traffic's terminals and have exactly one channel to a router", g.NodeName(ch.From))
			}
			l.term, e.terms[t].inj = t, id
		case l.to < 0:
			t := e.termOf[ch.To]
			if t < 0 || e.terms[t].ej >= 0 {
				return fmt.Errorf("terminal %s: a terminal must be one of the traffic's terminals and have exactly one channel from a router", g.NodeName(ch.To))
			}
			l.term, e.terms[t].ej = t, id
		}
		e.links = append(e.links, l)
	}
	for t := range e.terms {
		tm := &e.terms[t]
		v := e.rtrOf[tm.node]
		if v >= 0 { // a router's own terminal: injection and ejection channels of 1 cycle
			tm.inj = int32(len(e.links))
			e.links = append(e.links, link{from: -1, to: v, term: int32(t), lat: tl, channel: topology.None})
			tm.ej = int32(len(e.links))
			e.links = append(e.links, link{from: v, to: -1, term: int32(t), lat: tl, channel: topology.None})
		}
		if tm.inj < 0 || tm.ej < 0 {
			return fmt.Errorf("terminal %s has no channel to or from a router", g.NodeName(tm.node))
		}
	}
	e.wirePorts()
	e.allocState()
	return nil
}

// wirePorts gives every router its input and output ports, numbered as BookSim numbers
// them: the numbers decide the allocators' round-robin order and which crossbar port a
// speedup assigns. On a k-ary n-cube (BookSim's kncube.cpp) output 2d is dimension d's
// channel going up (Plus) and 2d+1 going down; input 2d is the channel arriving going
// down and 2d+1 going up; port 2n is the router's own terminal's. A mesh's edge routers
// keep the numbers of the channels they lack (-1: no link). On a graph the outputs are
// the channels in the router's port order and the inputs in channel order, then the
// terminal's.
func (e *engine) wirePorts() {
	for i := range e.rts {
		if !e.g.IsGraph() {
			e.rts[i].out, e.rts[i].in = filled(2*e.g.Dims(), -1), filled(2*e.g.Dims(), -1)
		}
	}
	for i := range e.rts {
		rt := &e.rts[i]
		if e.g.IsGraph() {
			for _, c := range e.g.AppendOut(nil, rt.node) {
				rt.out = append(rt.out, int32(c))
			}
			continue
		}
		n := e.g.Dims()
		for d := 0; d < n; d++ {
			for dir := topology.Plus; dir <= topology.Minus; dir++ {
				if c, to := e.g.Neighbor(rt.node, d, dir); c != topology.None {
					rt.out[2*d+int(dir)] = int32(c)
					// arriving going dir: input 2d+1 going up, 2d going down
					e.rts[e.rtrOf[to]].in[2*d+1-int(dir)] = int32(c)
				}
			}
		}
	}
	for i := range e.rts {
		rt := &e.rts[i]
		for p, l := range rt.out {
			if l >= 0 {
				e.links[l].outPort = int32(p)
			}
		}
		for p, l := range rt.in {
			if l >= 0 {
				e.links[l].inPort = int32(p)
			}
		}
	}
	for id := range e.links {
		l := &e.links[id]
		switch {
		case l.channel != topology.None && !e.g.IsGraph():
		case l.channel != topology.None:
			if l.from >= 0 {
				l.outPort = int32(slices.Index(e.rts[l.from].out, int32(l.channel)))
			}
			if l.to >= 0 {
				rt := &e.rts[l.to]
				l.inPort = int32(len(rt.in))
				rt.in = append(rt.in, int32(id))
			}
		case l.to >= 0:
			rt := &e.rts[l.to]
			l.inPort = int32(len(rt.in))
			rt.in = append(rt.in, int32(id))
		default:
			rt := &e.rts[l.from]
			l.outPort = int32(len(rt.out))
			rt.out = append(rt.out, int32(id))
		}
	}
	// Topology channels are links with the same ids (build makes them first).
}

// allocState sizes the per-port and per-VC arrays and the routers' allocators.
func (e *engine) allocState() {
	V, B := e.V, e.B
	var nin, nout int32
	for i := range e.rts {
		rt := &e.rts[i]
		rt.inBase, rt.outBase = nin, nout
		nin += int32(len(rt.in))
		nout += int32(len(rt.out))
		r := e.cfg.Router
		ni, no := len(rt.in), len(rt.out)
		rt.va = newAllocator(r.VCAllocator, ni*int(V), no*int(V), r.VCAllocIters)
		rt.sw = newAllocator(r.SWAllocator, ni*int(e.is), no*int(e.os), r.SWAllocIters)
		rt.swRR = make([]int32, ni*int(e.is))
		for x := range rt.swRR {
			rt.swRR[x] = int32(x) % e.is
		}
		rt.holdVC, rt.holdIn = filled(ni*int(e.is), -1), filled(ni*int(e.is), -1)
		rt.holdOut = filled(no*int(e.os), -1)
		rt.outCred = make([]uint64, ni)
	}
	nivc := nin * V
	e.buf = make([]flitRef, nivc*B)
	e.bufHead, e.bufCount = make([]int32, nivc), make([]int32, nivc)
	e.state = make([]uint8, nivc)
	e.outPort, e.outVC = filled(int(nivc), -1), filled(int(nivc), -1)
	e.routes = make([][]routeElem, nivc)
	novc := (nout + int32(len(e.terms))) * V
	e.occ, e.inUse, e.tailSent = make([]int32, novc), filled(int(novc), -1), make([]bool, novc)
	for t := range e.terms {
		e.terms[t].vcBase = (nout + int32(t)) * V
	}
	e.outQ = make([]fifo[pipeFlit], nout)
	e.credQ = make([]fifo[uint64], nin)
	maxLat := int32(1)
	for i := range e.links {
		maxLat = max(maxLat, e.links[i].lat)
	}
	size := int64(1)
	for size < int64(maxLat)+2 {
		size <<= 1
	}
	e.calMask = size - 1
	e.flitDue, e.credDue = make([][]int32, size), make([][]int32, size)
}

// sendFlit puts flit f on VC vc of link l in cycle t.
func (e *engine) sendFlit(l int32, f flitRef, vc int32, t int64) {
	lk := &e.links[l]
	lk.flits.push(pipeFlit{f, int16(vc)})
	b := (t + int64(lk.lat) + 1) & e.calMask
	e.flitDue[b] = append(e.flitDue[b], l)
	e.flitHops++
	e.lastMove = t
}

// sendCredit returns the credits of the VCs in mask over link l (backwards) in cycle t.
func (e *engine) sendCredit(l int32, mask uint64, t int64) {
	lk := &e.links[l]
	lk.credits.push(mask)
	b := (t + int64(lk.lat) + 1) & e.calMask
	e.credDue[b] = append(e.credDue[b], l)
}

// available reports whether output VC x may be allocated to a new packet.
func (e *engine) available(x int32) bool { return e.inUse[x] < 0 }

// full reports whether output VC x has no credit left.
func (e *engine) full(x int32) bool { return e.occ[x] >= e.B }

// take allocates output VC x to input VC holder.
func (e *engine) take(x, holder int32) {
	e.inUse[x] = holder
	e.tailSent[x] = false
}

// sending records a flit sent into output VC x: one credit used, and with the tail sent
// the VC is free again unless allocation waits for the tail's credit.
func (e *engine) sending(x int32, tail bool) {
	e.occ[x]++
	if tail {
		e.tailSent[x] = true
		if !e.cfg.Router.WaitForTailCredit {
			e.inUse[x] = -1
		}
	}
}

// credit returns one credit of each output VC base+v for v in mask.
func (e *engine) credit(base int32, mask uint64) {
	for mask != 0 {
		v := int32(bits.TrailingZeros64(mask))
		mask &= mask - 1
		x := base + v
		e.occ[x]--
		if e.cfg.Router.WaitForTailCredit && e.occ[x] == 0 && e.tailSent[x] {
			e.inUse[x] = -1
		}
	}
}

// route computes the route set of the header of packet p at input port in of router rt
// into the input VC's slot: the ejection port at the destination's router, else the
// relation's outputs as Selection chooses among them. It records a stranded header as
// the run's error.
func (e *engine) route(rt *router, in int32, ivc int32, p int32) {
	pk := &e.pkts[p]
	set := e.routes[ivc][:0]
	defer func() { e.routes[ivc] = set }()
	if rt.node == pk.dstNode {
		ej := e.links[e.terms[pk.dst].ej].outPort
		set = append(set, routeElem{out: ej, lo: 0, hi: e.V - 1})
		return
	}
	inCh := e.links[rt.in[in]].channel
	if inCh == topology.None {
		inCh = routing.Injection
	}
	h := routing.Header{At: rt.node, In: routing.Input{Channel: inCh, VC: int(pk.cls)}, Src: pk.srcNode, Dst: pk.dstNode}
	outs := e.rel.Route(h, e.outBuf[:0])
	e.outBuf = outs
	if len(outs) == 0 {
		if e.err == nil {
			e.err = fmt.Errorf("routing %s strands a packet from %s to %s at %s", e.rel.Name(), e.g.NodeName(pk.srcNode), e.g.NodeName(pk.dstNode), e.g.NodeName(rt.node))
		}
		return
	}
	// The channels offered, in order of preference; a selection keeps every VC offered
	// on the channel it picks, and the VCs of one channel bid with one priority.
	chans := e.chanBuf[:0]
	for _, o := range outs {
		if !slices.Contains(chans, o.Channel) {
			chans = append(chans, o.Channel)
		}
	}
	e.chanBuf = chans
	pick := topology.ChannelID(topology.None)
	switch e.cfg.Selection {
	case SelectFirst:
		pick = chans[0]
	case SelectRandom:
		pick = chans[e.rng.IntN(len(chans))]
	}
	for _, o := range outs {
		if pick != topology.None && o.Channel != pick {
			continue
		}
		lk := &e.links[o.Channel]
		el := routeElem{out: lk.outPort, lo: 0, hi: e.V - 1, pri: int32(len(chans) - slices.Index(chans, o.Channel)), cls: int32(o.VC)}
		if lk.to >= 0 { // into a router: the VCs of the hop's class
			k := min(int32(o.VC), e.classes-1)
			el.lo, el.hi = k*e.V/e.classes, (k+1)*e.V/e.classes-1
		}
		set = append(set, el)
	}
}
