package sim

import (
	"cmp"
	"context"
	"fmt"
	"sort"

	"github.com/emirpasic/gods/v2/trees/binaryheap"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// ScheduleOptions are the timing parameters of the schedule executor.
type ScheduleOptions struct {
	Ts, Tr int // software send and receive latencies (cycles)
	L      int // message length in flits (tc = 1 cycle per flit)
	VCs    int // virtual channels per physical channel (0 = 1: the timed model)
	Buffer int // flits per VC buffer (0 = 2)
	// Limit bounds the simulated cycles (0 = a generous bound from the schedule).
	Limit int64
	// Dateline splits the VCs of a torus into the two dateline classes of topology.DOR
	// (VCs must be even, >= 2) for unicasts that follow the DOR path: worms of different
	// classes then share channels by round robin instead of waiting. Without it (the
	// timed model) one class holds every VC, and a torus ring may deadlock under
	// contention, which ExecuteSchedule reports as an error.
	Dateline bool
	// CPUPerGroup gives every group (multicast) its own processor at each node, so the
	// ts of sends of different groups overlap (package props' timed model); without it
	// a node has one processor for all its sends.
	CPUPerGroup bool
	// A schedule with virtual-channel classes (model.Unicast.VC) gets lanes x
	// max(1, VCs/lanes) VCs per channel, each class its own share.
	//
	// Trace, if set, sees every flit move; TraceEvent.Msg is the unicast's index.
	Trace func(TraceEvent)
	// Context, if set, is checked every 256 cycles; once it is done the run stops there
	// and ExecuteSchedule returns what it measured with ScheduleResult.Stopped set.
	Context context.Context
}

// Contention is the first pair of unicasts that wanted the same resource at the same
// time: Waiting found Channel (or, with Channel = topology.None, every delivery port of
// Node) held by Holding at Cycle. Unicasts are indices into Schedule.Unicasts.
type Contention struct {
	Cycle   int64              `json:"cycle"`
	Channel topology.ChannelID `json:"channel"`
	Name    string             `json:"channel_name"`
	Node    topology.NodeID    `json:"node"`
	Waiting int                `json:"waiting"`
	Holding int                `json:"holding"`
}

// ScheduleResult is the outcome of executing a schedule at flit level.
type ScheduleResult struct {
	// Completion is the cycle at which the last destination has received the message
	// (including tr).
	Completion int64 `json:"completion"`
	// Receive[v] is when node v received the message (0 for sources, -1 if never).
	Receive []int64 `json:"-"`
	// Contention is the first contending pair, nil when no header ever waited for a
	// worm of another node or of another first channel. As in the timed semantics, a
	// node's own sends through one first channel are serialised, not contending: a
	// header that waits for the previous such send is not a contending pair.
	Contention *Contention `json:"contention"`
	// FirstWait is the first time any header waited, those serialised waits included,
	// nil when none did. Under atomic VC allocation a node's next send through the same
	// first channel gets it one cycle after the timed model's a + L·tc (the previous
	// tail must leave the buffer behind the channel), so the completion equals the
	// timed model (all-port) whenever FirstWait is nil, and may exceed it otherwise.
	FirstWait *Contention `json:"-"`
	FlitHops  int64       `json:"flit_hops"`
	// Deliver[i] is when Schedule.Unicasts[i] was received (tail plus tr).
	Deliver []int64 `json:"-"`
	// Stopped is true when ScheduleOptions.Context ended the run at cycle StoppedAt,
	// before every unicast was delivered: the figures cover the cycles simulated.
	Stopped   bool  `json:"stopped,omitempty"`
	StoppedAt int64 `json:"stopped_at,omitempty"`
}

// ExecuteSchedule runs a unicast-based collective at flit level with real channel
// arbitration, at zero background load: a node that holds the message at time R (the
// sources at 0) hands its unicasts to its processor in their Order, the j-th ready at
// R + j*ts (004 §6.1), each joining the injection port of its first channel (all-port)
// or the node's single port (one-port); worms of L flits follow their Path; a receiver
// has the data tr cycles after the tail arrives. When no header waits every time equals
// the timed model of DESIGN.md with tc = 1; with contention, headers wait for channels
// and the first such wait is reported as the contending pair (a node's own sends
// through one first channel are serialised, not contending: see FirstWait).
//
// A schedule with groups (several multicasts, model.Schedule.Group) is executed per
// group as in package props: a node sends its unicasts of group g once it holds group
// g's message (Sources[g] from time 0), while its one processor prepares all its sends,
// of every group, one at a time in the order they become ready (001 §2.3).
//
// Reference: 004 §6.1 (timing model), §6.2 (simulation of DCF and EDN).
func ExecuteSchedule(g *topology.Network, s *model.Schedule, opt ScheduleOptions) (*ScheduleResult, error) {
	if err := checkSchedule(g, s, &opt); err != nil {
		return nil, err
	}
	x, err := newScheduleExec(g, s, opt)
	if err != nil {
		return nil, err
	}
	return x.run()
}

// checkSchedule checks the options and every unicast's path, and sets the options'
// defaults (one VC, buffers of two flits).
func checkSchedule(g *topology.Network, s *model.Schedule, opt *ScheduleOptions) error {
	if g == nil || s == nil {
		return fmt.Errorf("schedule: a grid and a schedule are required")
	}
	if opt.L < 1 || opt.L > 1<<20 {
		return fmt.Errorf("length %d: message length must be 1..%d flits", opt.L, 1<<20)
	}
	if opt.Ts < 0 || opt.Tr < 0 || opt.Ts > MaxLatency || opt.Tr > MaxLatency {
		return fmt.Errorf("ts %d, tr %d: software latencies must be 0..%d cycles", opt.Ts, opt.Tr, MaxLatency)
	}
	if opt.Buffer < 0 || opt.Buffer > 1<<20 {
		return fmt.Errorf("buffers %d: a virtual channel's buffer must be 1..%d flits", opt.Buffer, 1<<20)
	}
	if opt.VCs == 0 {
		opt.VCs = 1
	}
	if opt.Buffer == 0 {
		opt.Buffer = 2
	}
	N := g.Nodes()
	for i, u := range s.Unicasts {
		if int(u.From) < 0 || int(u.From) >= N || int(u.To) < 0 || int(u.To) >= N {
			return fmt.Errorf("unicast %d: node out of range for %s", i, g.Spec())
		}
		if len(u.Path) == 0 {
			return fmt.Errorf("unicast %d (%s to %s): empty path", i, g.NodeName(u.From), g.NodeName(u.To))
		}
		cur := u.From
		for j, c := range u.Path {
			if int(c) < 0 || int(c) >= g.Channels() || g.Channel(c).From != cur {
				return fmt.Errorf("unicast %d (%s to %s): hop %d is not a channel leaving %s", i, g.NodeName(u.From), g.NodeName(u.To), j+1, g.NodeName(cur))
			}
			cur = g.Channel(c).To
		}
		if cur != u.To {
			return fmt.Errorf("unicast %d: its path ends at %s, not at %s", i, g.NodeName(cur), g.NodeName(u.To))
		}
	}
	if s.Group != nil {
		if len(s.Group) != len(s.Unicasts) {
			return fmt.Errorf("schedule: %d groups for %d unicasts", len(s.Group), len(s.Unicasts))
		}
		for i, gi := range s.Group {
			if gi < 0 || gi >= len(s.Sources) {
				return fmt.Errorf("unicast %d: group %d out of range (%d sources)", i, gi, len(s.Sources))
			}
		}
	}
	return nil
}

// scheduleExec is one execution of a schedule: the network, each node's sends per
// group in their stated order (byNode[v*G+g]), which of them were started, each
// processor's next free cycle, the unicast of each worm, and the event queue.
type scheduleExec struct {
	g              *topology.Network
	s              *model.Schedule
	opt            ScheduleOptions
	net            *network
	r              topology.DOR
	in             int // injection ports per node
	classes, lanes int
	G              int
	byNode         [][]int
	holds          []bool
	cpu            []int64
	wormUni        []int
	q              eventQueue
	seq            uint64
	remaining      int
	res            *ScheduleResult
}

func newScheduleExec(g *topology.Network, s *model.Schedule, opt ScheduleOptions) (*scheduleExec, error) {
	x := &scheduleExec{g: g, s: s, opt: opt, r: topology.NewDOR(g), in: 2 * g.Dims(), classes: 1, G: 1, q: newQueue(Calendar),
		remaining: len(s.Unicasts)}
	out := 2 * g.Dims()
	if s.Ports == model.OnePort {
		x.in, out = 1, 1
	}
	if opt.Dateline && g.Kind() == topology.Torus {
		x.classes = 2
	}
	// A schedule whose unicasts carry virtual-channel classes (model.Unicast.VC) is
	// executed with those classes: each owns VCs/lanes VCs (at least one), so worms of
	// different classes share a channel by round robin instead of waiting.
	if x.lanes = s.Lanes(); x.lanes > 1 {
		x.classes = x.lanes
		x.opt.VCs = x.lanes * max(1, opt.VCs/x.lanes)
	}
	net, err := newNetwork(g, x.opt.VCs, opt.Buffer, x.in, out, x.classes)
	if err != nil {
		return nil, err
	}
	net.recBlk = true
	x.net = net
	N := g.Nodes()
	if s.Group != nil {
		x.G = len(s.Sources)
	}
	x.byNode = make([][]int, N*x.G)
	for i, u := range s.Unicasts {
		k := int(u.From)*x.G + s.GroupOf(i)
		x.byNode[k] = append(x.byNode[k], i)
	}
	for _, l := range x.byNode {
		sort.SliceStable(l, func(a, b int) bool { return s.Unicasts[l[a]].Order < s.Unicasts[l[b]].Order })
	}
	x.holds, x.cpu = make([]bool, N*x.G), make([]int64, N*x.G)
	x.res = &ScheduleResult{Receive: make([]int64, N), Deliver: make([]int64, len(s.Unicasts))}
	for v := range x.res.Receive {
		x.res.Receive[v] = -1
	}
	net.serialised = func(w, h int32, c topology.ChannelID) bool {
		if h < 0 || c == topology.None {
			return false
		}
		a, b := s.Unicasts[x.wormUni[w]], s.Unicasts[x.wormUni[h]]
		return a.From == b.From && a.Path[0] == c && b.Path[0] == c
	}
	if opt.Trace != nil {
		net.trace = func(ev TraceEvent) {
			ev.Msg = int32(x.wormUni[ev.Worm])
			opt.Trace(ev)
		}
	}
	net.delivered = func(w int32, v topology.NodeID, t int64, final bool) {
		// The unicast's index, not the worm's: a worm id is reused once released.
		x.push(t+int64(opt.Tr), evReceived, int32(x.wormUni[w]), int32(v))
	}
	return x, nil
}

func (x *scheduleExec) push(t int64, k eventKind, a, b int32) {
	x.seq++
	x.q.push(event{t: t, seq: x.seq, kind: k, a: a, b: b})
}

// start hands node v's sends of group gi, once, to its processor from cycle R: each a
// worm ready ts after the processor's previous send.
func (x *scheduleExec) start(v topology.NodeID, gi int, R int64) {
	if x.holds[int(v)*x.G+gi] {
		return
	}
	x.holds[int(v)*x.G+gi] = true
	for _, i := range x.byNode[int(v)*x.G+gi] {
		u := x.s.Unicasts[i]
		w := x.net.newWorm()
		for len(x.wormUni) <= int(w) {
			x.wormUni = append(x.wormUni, -1)
		}
		x.wormUni[w] = i
		wr := &x.net.worms[w]
		wr.hops = wr.hops[:0]
		switch {
		case x.lanes > 1:
			for k, c := range u.Path {
				var cl uint8
				if u.VC != nil {
					cl = u.VC[k]
				}
				wr.hops = append(wr.hops, topology.Hop{Channel: c, Class: cl})
			}
		case x.classes == 2:
			// Dateline classes of the path as given: a DOR path, a tie going Minus or
			// an explicit subnetwork route (topology.DOR.PathHops).
			wr.hops = append(wr.hops, x.r.PathHops(u.Path)...)
		default:
			for _, c := range u.Path {
				wr.hops = append(wr.hops, topology.Hop{Channel: c})
			}
		}
		wr.length = int32(x.opt.L)
		wr.src = v
		p := int(v)
		if x.opt.CPUPerGroup {
			p = int(v)*x.G + gi
		}
		at := max(R, x.cpu[p]) + int64(x.opt.Ts)
		x.cpu[p] = at
		x.push(at, evReady, w, 0)
	}
}

// handle runs event e at cycle t: a worm joins its injection port, or a unicast is
// received (and its receiver starts its own sends).
func (x *scheduleExec) handle(e event, t int64) {
	switch e.kind {
	case evReady:
		wr := &x.net.worms[e.a]
		p := 0
		if x.in > 1 {
			ch := x.g.Channel(wr.hops[0].Channel)
			p = ch.Dim*2 + int(ch.Dir)
		}
		x.net.inject(e.a, int(wr.src)*x.in+p, t)
	case evReceived:
		x.remaining--
		v := topology.NodeID(e.b)
		i := int(e.a)
		x.res.Deliver[i] = t
		if x.res.Receive[v] < 0 {
			x.res.Receive[v] = t
		}
		x.start(v, x.s.GroupOf(i), t)
		x.res.Completion = max(x.res.Completion, t)
	}
}

// run starts the sources and simulates until every unicast is received, the bound is
// reached, the network is deadlocked or the context ends.
func (x *scheduleExec) run() (*ScheduleResult, error) {
	g, opt, net, res := x.g, x.opt, x.net, x.res
	for gi, v := range x.s.Sources {
		res.Receive[v] = 0
		if x.G == 1 {
			gi = 0
		}
		x.start(v, gi, 0)
	}
	limit := opt.Limit
	if limit == 0 {
		limit = int64(len(x.s.Unicasts)+1)*(int64(opt.Ts)+int64(opt.Tr)+int64(opt.L)+int64(g.Nodes())+8)*4 + 1000
	}
	var t int64
	handle := func(e event) { x.handle(e, t) }
	for ; x.remaining > 0 && t <= limit; t++ {
		if t&255 == 0 && opt.Context != nil && opt.Context.Err() != nil {
			res.Stopped, res.StoppedAt, res.FlitHops = true, t, net.flitHops
			return res, nil
		}
		x.q.popDue(t, handle)
		net.cycle(t)
		// Nothing scheduled and nothing moved for longer than any wait for a channel can
		// last: the worms in the network are deadlocked (possible on torus rings with a
		// single VC under contention).
		if x.q.len() == 0 && t-net.lastMove > int64(2*(opt.L+g.Nodes())+16) && !net.idle() {
			t++
			break
		}
	}
	res.FlitHops = net.flitHops
	if x.remaining > 0 {
		return res, fmt.Errorf("schedule: %d unicasts undelivered after %d cycles (deadlock or bound too small)", x.remaining, limit)
	}
	res.Contention = contention(g, net.firstBlk, x.wormUni)
	res.FirstWait = contention(g, net.firstWait, x.wormUni)
	return res, nil
}

// contention names the wait b with unicast indices (nil for nil).
func contention(g *topology.Network, b *blockEvent, wormUni []int) *Contention {
	if b == nil {
		return nil
	}
	c := &Contention{Cycle: b.Cycle, Channel: b.Channel, Node: b.Node, Waiting: wormUni[b.Waiting], Holding: -1}
	if b.Holding >= 0 {
		c.Holding = wormUni[b.Holding]
	}
	if b.Channel != topology.None {
		c.Name = g.ChannelName(b.Channel)
	} else {
		c.Name = "delivery ports of " + g.NodeName(b.Node)
	}
	return c
}

// TimedCompletion computes the completion time of a schedule in the timed model of
// DESIGN.md (004 §6.1) assuming no contention: the j-th unicast of a node that received
// at R starts at R + j*ts, delivers at start + h + L + tr (tc = 1), and a later unicast
// through the same first channel starts no earlier than the earlier one's tail has left
// it. It is the formula the executor must match to the cycle on contention-free
// all-port schedules (one-port adds the wait for the single injection port, which this
// model does not charge).
func TimedCompletion(s *model.Schedule, N int, ts, tr, L int) (int64, error) {
	byNode := make([][]int, N)
	for i, u := range s.Unicasts {
		if int(u.From) < 0 || int(u.From) >= N {
			return 0, fmt.Errorf("unicast %d: sender out of range", i)
		}
		byNode[u.From] = append(byNode[u.From], i)
	}
	for _, l := range byNode {
		sort.SliceStable(l, func(a, b int) bool { return s.Unicasts[l[a]].Order < s.Unicasts[l[b]].Order })
	}
	recv := make([]int64, N)
	for i := range recv {
		recv[i] = -1
	}
	// The receivers in order of receipt time, ties in order of receipt (seq): a binary
	// heap, O(log N) a node.
	type item struct {
		v   topology.NodeID
		t   int64
		seq int
	}
	queue := binaryheap.NewWith(func(a, b item) int {
		if c := cmp.Compare(a.t, b.t); c != 0 {
			return c
		}
		return cmp.Compare(a.seq, b.seq)
	})
	seq := 0
	for _, v := range s.Sources {
		if recv[v] < 0 {
			recv[v] = 0
			queue.Push(item{v, 0, seq})
			seq++
		}
	}
	var done int64
	count := 0
	for !queue.Empty() {
		it, _ := queue.Pop()
		cpu := it.t
		free := map[topology.ChannelID]int64{}
		for _, i := range byNode[it.v] {
			u := s.Unicasts[i]
			a := cpu + int64(ts)
			cpu = a
			if f, ok := free[u.Path[0]]; ok && f > a {
				a = f
			}
			free[u.Path[0]] = a + int64(L)
			r := a + int64(len(u.Path)) + int64(L) + int64(tr)
			count++
			if r > done {
				done = r
			}
			if int(u.To) >= 0 && int(u.To) < N && recv[u.To] < 0 {
				recv[u.To] = r
				queue.Push(item{u.To, r, seq})
				seq++
			}
		}
	}
	if count != len(s.Unicasts) {
		return done, fmt.Errorf("schedule: %d of %d unicasts are never sent (their senders never receive)", len(s.Unicasts)-count, len(s.Unicasts))
	}
	return done, nil
}
