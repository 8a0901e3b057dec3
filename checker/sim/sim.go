// Package sim is wormcheck's timed flit-level wormhole simulator: one cycle-accurate,
// deterministic execution of the network model the checker explores exhaustively.
//
// The router model (000 §4, 003 §3, 004 §6.1): every directed physical channel carries
// one flit per cycle and is split into V virtual channels (VCs), each with a B-flit input
// buffer at the downstream router; the VCs of a channel share its bandwidth by
// demand-slotted round robin (000 §4: a cycle goes to the next VC in turn that has a flit
// ready and a free downstream slot, so idle VCs cost nothing). A header that reached a
// router at the end of cycle t is routed and may cross the next channel in cycle t+1
// (one cycle per hop); a VC is allocated to a worm when its header is routed, and only
// once the previous worm's tail has left the VC's buffer (atomic VC allocation, the one
// rule of docs/semantics.md, shared with the explorer's model/flit). Routing is topology.DOR; on tori with dateline classes VCs
// 0..V/2-1 are class 0 and V/2..V-1 class 1. On an irregular network (topology.Graph: files,
// dragonflies, fat-trees, grids with failed links) worms follow a routing relation instead
// (Config.Relation, routes.go): each worm the route routing.FirstPath gives it, the
// relation's VC at each hop as the hop's class, and only endpoints (the terminals, when
// the network has them) send and receive. Each node has injection ports (one-port:
// one; all-port: one per output channel, a worm taking the port of its first channel)
// and delivery ports (one-port: one; all-port: one per input channel); a worm's flit is
// delivered by a port in one cycle. Software latencies: a node's processor prepares its
// sends one at a time, ts cycles each (the j-th send of a node that received at R
// starts at R + j*ts), and a receiver spends tr cycles before the data is usable.
// So a lone worm of L flits over h channels, handed over at cycle 0, is received at
// ts + h + L + tr: the timed model of DESIGN.md with tc = 1 (TestLoneWormExact).
//
// Multicasts go by separate addressing (one unicast per destination), path-based worms
// (Config.Multicast), unicast-based collectives (Config.MulticastSchedule) or tree-based
// multicast with pruning (Config.Tree, 000 §2-§4; tree.go). Compare runs 000 §5.3's
// comparison of them.
//
// Buffers return credits at the end of a cycle, so a VC with B = 1 forwards a flit every
// other cycle; B >= 2 (000 §5.1's two-flit queues, the default) pipelines at full rate.
//
// Event queue: message generation, software start-ups and receive completions are
// future events. BenchmarkEventQueue compares the gods v2 binary heap with a calendar
// queue of one-cycle days; the calendar queue won (about 2.6x per event; see the issue notes), so it
// is the default and the heap stays selectable (Config.Queue) and cross-checked.
//
// Everything is deterministic: the only randomness is a PCG stream seeded by
// Config.Seed, and runs with the same configuration give the same results.
package sim

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/wormcheck/wormcheck/model"
	flitmodel "github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Process is the arrival process of message generation at each node.
type Process uint8

// The arrival processes: Poisson (003 assumption b) and Bernoulli (one coin per cycle).
const (
	Poisson Process = iota
	Bernoulli
)

// String returns "poisson" or "bernoulli".
func (p Process) String() string {
	if p == Bernoulli {
		return "bernoulli"
	}
	return "poisson"
}

// Route is one worm of a multicast: the channels it crosses in order and the 1-based hop
// counts after which the node reached receives a copy (path-based multicast delivers
// along the way; the last hop always delivers and need not be listed).
type Route struct {
	Channels []topology.ChannelID
	Drops    []int
}

// MulticastFunc turns a multicast from src to dests into worms. Nil means separate
// addressing: one unicast per destination, in the order given.
type MulticastFunc func(src topology.NodeID, dests []topology.NodeID) ([]Route, error)

// Traffic describes the offered load.
type Traffic struct {
	// Rate is the mean number of messages each node generates per cycle (I_g of 003).
	Rate    float64
	Process Process
	// Broadcast is the fraction b of messages that are broadcasts (003: spanning binomial
	// tree with a random base dimension; hypercubes only).
	Broadcast float64
	// Multicast is the fraction of messages that are multicasts to MinDests..MaxDests
	// distinct uniformly chosen destinations (000 §5.1: 4..25).
	Multicast          float64
	MinDests, MaxDests int
	// HotSpot is the probability p that a unicast goes to HotNode instead of a uniform
	// destination (001 §4.4).
	HotSpot float64
	HotNode topology.NodeID
}

// Config is one simulation.
type Config struct {
	Grid    *topology.Network
	Routing topology.DOR // zero value: topology.NewDOR(Grid)
	// Relation, if set, routes every unicast (and every unicast of separate addressing)
	// on routing.FirstPath: the relation's most preferred output at each hop, its VC as
	// the hop's class (the relation's VCs() classes split the V virtual channels). It is
	// required on an irregular network (topology.Network.IsGraph), where Routing is unused; tree
	// multicast and SBT broadcasts, which branch by dimension, refuse it.
	Relation routing.Relation
	// Selection picks, where the relation permits several outputs, the one a worm's route
	// takes (zero value: the most preferred, routing.FirstPath).
	Selection Selection
	VCs       int // V per physical channel (0 = the routing's class count, at least 1)
	Buffer    int // B flits per VC (0 = 2)
	Ports     model.PortModel
	Length    int // message length M (= L) in flits (0 = 32)
	Ts, Tr    int // software send and receive latencies in cycles
	Traffic   Traffic
	// Multicast routes multicast messages; nil = separate addressing.
	Multicast MulticastFunc
	// Tree, if set, routes multicast messages by tree-based multicast with pruning (000
	// §2-§4; tree.go): one worm of format d1, Length-1 data flits, d2..dn, branching at
	// routers by the base routing and pruned by Prune (model/flit's policies; the zero
	// value never prunes). It takes precedence over Multicast.
	Tree  bool
	Prune flitmodel.Prune
	// MulticastSchedule, if set, realises each multicast as a unicast-based collective
	// (U-torus, U-mesh, SPU...): the source sends its unicasts, and every node sends its
	// own as soon as it has received the message. It takes precedence over Multicast.
	MulticastSchedule func(src topology.NodeID, dests []topology.NodeID) (*model.Schedule, error)
	// BroadcastSchedule, if set, realises broadcasts as a unicast-based collective (DCF,
	// EDN, SBT...) on any topology instead of 003's SBT on hypercubes.
	BroadcastSchedule func(src topology.NodeID) (*model.Schedule, error)
	Seed              uint64
	Warmup            int64 // cycles before statistics are gathered
	Cycles            int64 // measurement window in cycles (0 = 10000)
	// MSER, if set, also discards the initial transient of each latency series by the
	// MSER-5 rule (after the fixed Warmup); Result.Truncated says how many were dropped.
	MSER bool
	// Precision, if > 0, ends the measurement window early once the 95% confidence
	// half-width of the unicast (or, without unicasts, broadcast) mean latency is at most
	// Precision times the mean, with at least 20 batches of 30 messages.
	Precision float64
	// DrainLimit bounds the cycles spent after the window waiting for measured messages
	// (0 = 20*Cycles); messages still undelivered then mark the run saturated.
	DrainLimit int64
	// StopSources stops generation at the end of the window and runs until the network
	// is empty (conservation checks).
	StopSources bool
	Queue       QueueKind
	// Trace, if set, is called for every flit move (for pcap traces); it slows the run.
	Trace func(TraceEvent)
	// Progress, if set, is called every 256 cycles (the caller throttles output).
	Progress func(cycle, flitHops int64)
	// Context, if set, is checked every 16 cycles (a cycle of a large network takes
	// milliseconds); once it is done the run stops there and Result.Stopped says so,
	// with the figures of the cycles simulated.
	Context context.Context
}

// Stat is a latency estimate: the mean over N messages with its 95% confidence
// half-width by batch means (20 batches; NaN with fewer than 40 messages).
type Stat struct {
	N    int     `json:"n"`
	Mean float64 `json:"mean"`
	CI95 float64 `json:"ci95"`
	Max  int64   `json:"max"`
	// Truncated is the number of leading messages MSER-5 discarded (Config.MSER).
	Truncated int `json:"truncated,omitempty"`
}

// Result is what a run measured.
type Result struct {
	Cycles    int64 `json:"cycles"` // cycles simulated in all
	Generated int64 `json:"generated"`
	Completed int64 `json:"completed"`
	FlitHops  int64 `json:"flit_hops"` // flits moved across network channels
	// RouteFlitHops is Σ over injected worms of route length x worm length: what
	// FlitHops must reach once every worm is delivered (conservation).
	RouteFlitHops int64 `json:"route_flit_hops"`
	Unicast       Stat  `json:"unicast"`
	Broadcast     Stat  `json:"broadcast"`
	Multicast     Stat  `json:"multicast"`
	// Accepted is the delivered traffic in flits per node per cycle during the window.
	Accepted float64 `json:"accepted"`
	// Saturated is true when measured messages were still undelivered after the drain
	// limit, or took more than half the window to drain: the offered load exceeds what
	// the network accepts.
	Saturated bool `json:"saturated"`
	// Deadlocked is true when flits stayed in the network without moving for the drain
	// limit.
	Deadlocked bool `json:"deadlocked"`
	// Stopped is true when Config.Context ended the run before it finished: the
	// measurement window or the drain was cut short, so the latencies cover only the
	// messages completed by then.
	Stopped bool `json:"stopped,omitempty"`
	// Undelivered counts flits left in the network at the end (0 after a drained run).
	Undelivered int64 `json:"undelivered"`
	// Prunes counts the tree-multicast branches released early by pruning (Config.Tree).
	Prunes int64 `json:"prunes,omitempty"`
}

// Message kinds.
const (
	kindUnicast uint8 = iota
	kindBroadcast
	kindMulticast
)

// plan is a unicast-based collective in flight: each node's sends in its order.
type plan struct {
	sends   map[topology.NodeID][]int // node -> indices into s.Unicasts, in send order
	s       *model.Schedule
	started map[topology.NodeID]bool
}

type message struct {
	plan     *plan
	created  int64
	pending  int32 // receives still to come
	kind     uint8
	measured bool
	seq      int32 // position among measured messages of its kind
	flits    int32
}

type runner struct {
	cfg     Config
	g       *topology.Network
	r       topology.DOR
	net     *network
	q       eventQueue
	rng     *rand.Rand
	seq     uint64
	L       int32
	cpuFree []int64
	msgs    []message
	next    []float64 // per node: next generation time (continuous)
	hopBuf  []topology.Hop
	dests   []topology.NodeID
	perm    []topology.NodeID
	// ends are the nodes that send and receive (topology.Network.Endpoints: every node of a grid) and
	// endIdx[v] is v's index among them, or -1; routes is the relation's route table
	// (nil under Routing).
	ends   []topology.NodeID
	endIdx []int32
	routes *routeTable

	windowEnd  int64
	measuring  bool
	lat        [3][]int64 // per kind: latency by measured sequence
	done       [3][]bool
	open       int64 // measured messages not yet complete
	generated  int64
	completed  int64
	flitsInWin int64
	routeHops  int64
	err        error // the first error of a user-supplied routing or schedule function

	// treeLog, if set (tests), sees every tree-multicast delivery.
	treeLog func(msg int32, v topology.NodeID, t int64)

	// now and generating are the loop's state for handleFn, a method value made once so
	// that the cycle loop allocates nothing.
	now        int64
	generating bool
	handleFn   func(event)
}

// Bounds on a configuration, so that no time computed from it overflows int64 (a
// window of MaxCycles with its drain limit of 20 windows, a send or receive latency of
// MaxLatency per unicast of every node) and no buffer outgrows memory.
const (
	MaxCycles  = 1 << 40 // warm-up or window, cycles (about 1e12)
	MaxLatency = 1 << 30 // ts or tr, cycles
	// maxBufferSlots bounds the flit slots of all virtual-channel buffers together
	// (8 bytes each: 1 GiB).
	maxBufferSlots = 1 << 27
)

// Run simulates cfg and returns what it measured. Errors name the bad field.
func Run(cfg Config) (*Result, error) {
	rn, err := newRunner(cfg)
	if err != nil {
		return nil, err
	}
	res := rn.run()
	if rn.err != nil {
		return nil, rn.err
	}
	return res, nil
}

func newRunner(cfg Config) (*runner, error) {
	if cfg.Grid == nil {
		return nil, fmt.Errorf("topology: a grid is required")
	}
	classes := 0
	if rel := cfg.Relation; rel != nil {
		if rel.Grid() != cfg.Grid {
			return nil, fmt.Errorf("relation %q does not route on topology %s", rel.Name(), cfg.Grid.Spec())
		}
		classes = max(rel.VCs(), 1)
	} else {
		if cfg.Grid.IsGraph() {
			return nil, fmt.Errorf("relation: %s is an irregular network without dimension order; give a routing relation (Config.Relation), e.g. updown or shortest-path", cfg.Grid.Spec())
		}
		if cfg.Routing.Grid == nil {
			cfg.Routing = topology.NewDOR(cfg.Grid)
		}
		if err := cfg.Routing.CheckOrder(); err != nil {
			return nil, fmt.Errorf("routing: %v", err)
		}
		classes = cfg.Routing.Classes()
	}
	if cfg.VCs == 0 {
		cfg.VCs = classes
	}
	if cfg.Buffer == 0 {
		cfg.Buffer = 2
	}
	if cfg.Length == 0 {
		cfg.Length = 32
	}
	if cfg.Cycles == 0 {
		cfg.Cycles = 10000
	}
	if cfg.DrainLimit == 0 {
		cfg.DrainLimit = 20 * cfg.Cycles
	}
	t := cfg.Traffic
	switch {
	case cfg.Length < 1 || cfg.Length > 1<<20:
		return nil, fmt.Errorf("length %d: message length must be 1..%d flits", cfg.Length, 1<<20)
	case cfg.Ts < 0 || cfg.Tr < 0 || cfg.Ts > MaxLatency || cfg.Tr > MaxLatency:
		return nil, fmt.Errorf("ts %d, tr %d: software latencies must be 0..%d cycles", cfg.Ts, cfg.Tr, MaxLatency)
	case cfg.Buffer < 1 || cfg.Buffer > 1<<20:
		return nil, fmt.Errorf("buffers %d: a virtual channel's buffer must be 1..%d flits", cfg.Buffer, 1<<20)
	case t.Rate < 0 || math.IsNaN(t.Rate) || math.IsInf(t.Rate, 0):
		return nil, fmt.Errorf("rate %v: the generation rate must be a finite number >= 0", t.Rate)
	case t.Process == Bernoulli && t.Rate > 1:
		return nil, fmt.Errorf("rate %v: a Bernoulli source generates at most one message per cycle", t.Rate)
	case t.Broadcast < 0 || t.Multicast < 0 || t.Broadcast+t.Multicast > 1:
		return nil, fmt.Errorf("broadcast %v, multicast %v: fractions must be >= 0 and sum to at most 1", t.Broadcast, t.Multicast)
	case t.Broadcast > 0 && cfg.Grid.Kind() != topology.Hypercube && cfg.BroadcastSchedule == nil:
		return nil, fmt.Errorf("broadcast %v: the SBT broadcast of 003 needs a hypercube topology, not %s (or give a broadcast schedule)", t.Broadcast, cfg.Grid.Spec())
	case cfg.Selection > SelectHash:
		return nil, fmt.Errorf("selection %d: not a selection function", cfg.Selection)
	case t.HotSpot < 0 || t.HotSpot > 1:
		return nil, fmt.Errorf("hotspot %v: the hot-spot probability must be in [0,1]", t.HotSpot)
	case int(t.HotNode) < 0 || int(t.HotNode) >= cfg.Grid.Nodes():
		return nil, fmt.Errorf("hot node %d: not a node of %s", t.HotNode, cfg.Grid.Spec())
	case t.HotSpot > 0 && !cfg.Grid.Endpoint(t.HotNode):
		return nil, fmt.Errorf("hot node %s: a router of %s, where only terminals send and receive", cfg.Grid.NodeName(t.HotNode), cfg.Grid.Spec())
	case cfg.Warmup < 0 || cfg.Cycles < 0 || cfg.Warmup > MaxCycles || cfg.Cycles > MaxCycles:
		return nil, fmt.Errorf("warmup %d, cycles %d: each must be 0..%d", cfg.Warmup, cfg.Cycles, int64(MaxCycles))
	}
	ends := cfg.Grid.Endpoints()
	if len(ends) < 2 {
		return nil, fmt.Errorf("topology %s: traffic needs at least two nodes that send and receive", cfg.Grid.Spec())
	}
	if t.Multicast > 0 {
		if t.MinDests < 1 || t.MaxDests < t.MinDests || t.MaxDests > len(ends)-1 {
			return nil, fmt.Errorf("destinations %d..%d: need 1 <= min <= max <= %d", t.MinDests, t.MaxDests, len(ends)-1)
		}
	}
	if cfg.Relation != nil {
		switch {
		case cfg.Tree:
			return nil, fmt.Errorf("tree: tree multicast branches by dimension order; it takes no routing relation")
		case t.Broadcast > 0 && cfg.BroadcastSchedule == nil:
			return nil, fmt.Errorf("broadcast %v: the SBT broadcast of 003 goes by dimension; it takes no routing relation", t.Broadcast)
		}
	}
	if cfg.Tree {
		switch {
		case cfg.MulticastSchedule != nil:
			return nil, fmt.Errorf("tree: tree multicast and a multicast schedule exclude each other")
		case cfg.Prune > flitmodel.PrunePartial:
			return nil, fmt.Errorf("prune %d: not a pruning policy", cfg.Prune)
		case t.Multicast > 0 && t.MaxDests > maxTreeDests:
			return nil, fmt.Errorf("destinations %d..%d: tree multicast carries at most %d address flits", t.MinDests, t.MaxDests, maxTreeDests)
		}
	}
	in, out := portCounts(cfg.Grid)
	if cfg.Ports == model.OnePort {
		in, out = 1, 1
	}
	net, err := newNetwork(cfg.Grid, cfg.VCs, cfg.Buffer, in, out, classes)
	if err != nil {
		return nil, err
	}
	var routes *routeTable
	if cfg.Relation != nil {
		if routes, err = newRouteTable(cfg.Relation, cfg.Selection, ends, maxEagerPairs); err != nil {
			return nil, err
		}
	}
	rn := &runner{
		cfg: cfg, g: cfg.Grid, r: cfg.Routing, net: net, q: newQueue(cfg.Queue),
		rng:     rand.New(rand.NewPCG(cfg.Seed, cfg.Seed^0x9e3779b97f4a7c15)),
		L:       int32(cfg.Length),
		cpuFree: make([]int64, cfg.Grid.Nodes()),
		next:    make([]float64, cfg.Grid.Nodes()),
		ends:    ends,
		endIdx:  make([]int32, cfg.Grid.Nodes()),
		routes:  routes,
	}
	for i := range rn.endIdx {
		rn.endIdx[i] = -1
	}
	for i, v := range ends {
		rn.endIdx[v] = int32(i)
	}
	net.delivered = rn.delivered
	if cfg.Tree {
		net.enableTree(cfg.Prune, rn.treeServed)
	}
	net.trace = cfg.Trace
	rn.handleFn = func(e event) { rn.handle(e, rn.now, rn.generating) }
	return rn, nil
}

func (rn *runner) schedule(t int64, k eventKind, a, b, c int32) {
	rn.seq++
	rn.q.push(event{t: t, seq: rn.seq, kind: k, a: a, b: b, c: c})
}

// gap draws the next inter-arrival time of a source.
func (rn *runner) gap() float64 {
	lam := rn.cfg.Traffic.Rate
	if rn.cfg.Traffic.Process == Bernoulli {
		if lam >= 1 {
			return 1
		}
		u := 1 - rn.rng.Float64() // (0,1]
		return 1 + math.Floor(math.Log(u)/math.Log1p(-lam))
	}
	return rn.rng.ExpFloat64() / lam
}

func (rn *runner) run() *Result {
	cfg := rn.cfg
	if cfg.Traffic.Rate > 0 {
		for _, v := range rn.ends {
			rn.next[v] = rn.gap()
			if cfg.Traffic.Process == Bernoulli {
				rn.next[v]-- // the first coin is tossed at cycle 0
			}
			rn.schedule(int64(math.Ceil(rn.next[v])), evGenerate, int32(v), 0, 0)
		}
	}
	rn.windowEnd = cfg.Warmup + cfg.Cycles
	hardEnd := rn.windowEnd + cfg.DrainLimit
	var t int64
	generating, stopped := true, false
	for ; ; t++ {
		if t == cfg.Warmup {
			rn.measuring = true
		}
		if t == rn.windowEnd {
			rn.measuring = false
			if cfg.StopSources {
				generating = false
			}
		}
		rn.now, rn.generating = t, generating
		rn.q.popDue(t, rn.handleFn)
		if rn.err != nil {
			break
		}
		rn.net.cycle(t)
		if t&255 == 0 && cfg.Progress != nil {
			cfg.Progress(t, rn.net.flitHops)
		}
		if t&15 == 0 && cfg.Context != nil && cfg.Context.Err() != nil {
			stopped = true
			t++
			break
		}
		if rn.measuring && cfg.Precision > 0 && t > cfg.Warmup && (t-cfg.Warmup)%2048 == 0 && rn.precise() {
			rn.windowEnd = t + 1
		}
		if t+1 >= rn.windowEnd {
			if cfg.StopSources {
				if rn.net.idle() && rn.q.len() == 0 {
					t++
					break
				}
			} else if rn.open == 0 {
				t++
				break
			}
			if t+1 >= hardEnd {
				t++
				break
			}
			if rn.net.lastMove < t-cfg.DrainLimit/2 && !rn.net.idle() {
				t++
				break
			}
		}
	}
	res := &Result{Cycles: t, Generated: rn.generated, Completed: rn.completed, FlitHops: rn.net.flitHops, RouteFlitHops: rn.routeHops, Stopped: stopped}
	res.Unicast = statMSER(rn.lat[kindUnicast], rn.done[kindUnicast], cfg.MSER)
	res.Broadcast = statMSER(rn.lat[kindBroadcast], rn.done[kindBroadcast], cfg.MSER)
	res.Multicast = statMSER(rn.lat[kindMulticast], rn.done[kindMulticast], cfg.MSER)
	if win := min(rn.windowEnd, t) - cfg.Warmup; cfg.Cycles > 0 && win > 0 {
		res.Accepted = float64(rn.flitsInWin) / float64(len(rn.ends)) / float64(win)
	}
	// Saturated: measured messages never finished, or finishing them took longer than
	// half the window (a stable network drains its last window messages within a few
	// latencies).
	res.Saturated = !stopped && rn.open > 0 || (!cfg.StopSources && t-rn.windowEnd > max(cfg.Cycles/2, 1000))
	for i := range rn.net.vcs {
		res.Undelivered += int64(rn.net.vcs[i].count)
	}
	for p, q := range rn.net.ports {
		for _, w := range q[rn.net.portHead[p]:] {
			res.Undelivered += int64(rn.net.worms[w].length - rn.net.worms[w].sent)
		}
	}
	if rn.net.treeOn {
		res.Prunes = rn.net.tree.prunes
		for _, x := range rn.net.tree.act {
			res.Undelivered += int64(rn.net.tree.in[x].reinj)
		}
	}
	res.Deadlocked = res.Undelivered > 0 && rn.net.lastMove < t-cfg.DrainLimit/2
	return res
}

// precise reports whether the measured mean is within the requested precision.
func (rn *runner) precise() bool {
	k := kindUnicast
	if rn.cfg.Traffic.Broadcast+rn.cfg.Traffic.Multicast >= 1 {
		k = kindBroadcast
		if rn.cfg.Traffic.Multicast > 0 {
			k = kindMulticast
		}
	}
	s := stat(rn.lat[k], rn.done[k])
	if s.N < 600 || math.IsNaN(s.CI95) {
		return false
	}
	return s.CI95 <= rn.cfg.Precision*s.Mean
}

func (rn *runner) handle(e event, t int64, generating bool) {
	switch e.kind {
	case evGenerate:
		if !generating {
			return
		}
		v := topology.NodeID(e.a)
		// Every arrival of the continuous-time process that falls in this cycle
		// generates a message now (several at high Poisson rates).
		nt := t
		for nt <= t {
			rn.generate(v, t)
			rn.next[v] += rn.gap()
			nt = int64(math.Ceil(rn.next[v]))
		}
		rn.schedule(nt, evGenerate, e.a, 0, 0)
	case evReady:
		w := e.a
		wr := &rn.net.worms[w]
		p := 0
		if rn.net.inPorts > 1 {
			p = rn.g.Port(wr.hops[0].Channel)
		}
		rn.net.inject(w, int(wr.src)*rn.net.inPorts+p, t)
	case evReceived:
		m := &rn.msgs[e.a]
		if m.plan != nil {
			rn.planStart(e.a, topology.NodeID(e.b), t)
		} else if m.kind == kindBroadcast && e.c > 0 {
			rn.sbtForward(topology.NodeID(e.b), e.a, int(e.c), t)
		}
		m.pending--
		if m.pending == 0 {
			rn.complete(e.a, t)
		}
	}
}

// send hands a worm over route hops to the processor of src at cycle t: it joins the
// injection port after the processor's earlier sends and ts.
func (rn *runner) send(src topology.NodeID, hops []topology.Hop, drops []int32, msg, aux int32, t int64) {
	w := rn.net.newWorm()
	wr := &rn.net.worms[w]
	wr.hops = append(wr.hops[:0], hops...)
	wr.drops = drops
	wr.hop, wr.tailHop, wr.sent = 0, 0, 0
	wr.length = rn.L
	wr.src = src
	wr.msg = msg
	wr.aux = aux
	start := max(t, rn.cpuFree[src]) + int64(rn.cfg.Ts)
	rn.cpuFree[src] = start
	rn.routeHops += int64(len(hops)) * int64(rn.L)
	rn.schedule(start, evReady, w, 0, 0)
}

func (rn *runner) newMessage(kind uint8, receivers int, t int64) int32 {
	m := message{created: t, pending: int32(receivers), kind: kind, measured: rn.measuring, flits: rn.L}
	if m.measured {
		m.seq = int32(len(rn.lat[kind]))
		rn.lat[kind] = append(rn.lat[kind], 0)
		rn.done[kind] = append(rn.done[kind], false)
		rn.open++
	}
	rn.msgs = append(rn.msgs, m)
	rn.generated++
	return int32(len(rn.msgs) - 1)
}

func (rn *runner) generate(v topology.NodeID, t int64) {
	tr := rn.cfg.Traffic
	u := rn.rng.Float64()
	N := rn.g.Nodes()
	E := len(rn.ends)
	switch {
	case u < tr.Broadcast && rn.cfg.BroadcastSchedule != nil:
		sc, err := rn.cfg.BroadcastSchedule(v)
		if err != nil {
			rn.fail(fmt.Errorf("broadcast schedule from %s: %v", rn.g.NodeName(v), err))
			return
		}
		rn.startPlan(kindBroadcast, v, sc, t)
	case u < tr.Broadcast:
		n := rn.g.Dims()
		msg := rn.newMessage(kindBroadcast, N-1, t)
		base := rn.rng.IntN(n)
		rn.msgs[msg].flits = rn.L // per copy
		// The source sends along every dimension (rotated index n-1 first: its subtree
		// is the largest).
		for k := n - 1; k >= 0; k-- {
			rn.sbtSend(v, msg, k, base, t)
		}
	case u < tr.Broadcast+tr.Multicast:
		k := tr.MinDests + rn.rng.IntN(tr.MaxDests-tr.MinDests+1)
		rn.dests = rn.sample(v, k, rn.dests[:0])
		if rn.cfg.MulticastSchedule != nil {
			sc, err := rn.cfg.MulticastSchedule(v, rn.dests)
			if err != nil {
				rn.fail(fmt.Errorf("multicast schedule from %s: %v", rn.g.NodeName(v), err))
				return
			}
			rn.startPlan(kindMulticast, v, sc, t)
			return
		}
		msg := rn.newMessage(kindMulticast, k, t)
		if rn.cfg.Tree {
			rn.sendTree(v, rn.dests, msg, t)
			return
		}
		if rn.cfg.Multicast == nil {
			for _, d := range rn.dests {
				if !rn.route(v, d) {
					return
				}
				rn.send(v, rn.hopBuf, nil, msg, 0, t)
			}
			return
		}
		routes, err := rn.cfg.Multicast(v, rn.dests)
		if err != nil {
			rn.fail(fmt.Errorf("multicast routing from %s: %v", rn.g.NodeName(v), err))
			return
		}
		for _, r := range routes {
			hops := make([]topology.Hop, len(r.Channels))
			for i, c := range r.Channels {
				hops[i] = topology.Hop{Channel: c}
			}
			var drops []int32
			for _, d := range r.Drops {
				if d < len(r.Channels) {
					drops = append(drops, int32(d))
				}
			}
			rn.send(v, hops, drops, msg, 0, t)
		}
	default:
		d := v
		if tr.HotSpot > 0 && tr.HotNode != v && rn.rng.Float64() < tr.HotSpot {
			d = tr.HotNode
		} else {
			i := int32(rn.rng.IntN(E - 1))
			if i >= rn.endIdx[v] {
				i++
			}
			d = rn.ends[i]
		}
		msg := rn.newMessage(kindUnicast, 1, t)
		if !rn.route(v, d) {
			return
		}
		rn.send(v, rn.hopBuf, nil, msg, 0, t)
	}
}

// route puts the route of a worm from v to d in hopBuf: the relation's (Config.Relation)
// or dimension order. It reports false, with the run failed, when the relation has none.
func (rn *runner) route(v, d topology.NodeID) bool {
	if rn.routes == nil {
		rn.hopBuf = rn.r.AppendHops(rn.hopBuf[:0], v, d)
		return true
	}
	hops, err := rn.routes.path(v, d)
	if err != nil {
		rn.fail(err)
		return false
	}
	rn.hopBuf = append(rn.hopBuf[:0], hops...)
	return true
}

func (rn *runner) fail(err error) {
	if rn.err == nil {
		rn.err = err
	}
}

// startPlan starts a unicast-based collective generated at v: one receive per unicast.
func (rn *runner) startPlan(kind uint8, v topology.NodeID, sc *model.Schedule, t int64) {
	p := &plan{s: sc, sends: map[topology.NodeID][]int{}, started: map[topology.NodeID]bool{}}
	for i, u := range sc.Unicasts {
		p.sends[u.From] = append(p.sends[u.From], i)
	}
	for _, l := range p.sends {
		sort.SliceStable(l, func(a, b int) bool { return sc.Unicasts[l[a]].Order < sc.Unicasts[l[b]].Order })
	}
	msg := rn.newMessage(kind, len(sc.Unicasts), t)
	rn.msgs[msg].plan = p
	if len(sc.Unicasts) == 0 {
		rn.complete(msg, t)
		return
	}
	rn.planStart(msg, v, t)
}

// planStart sends node v's unicasts of the collective msg, once, from cycle t.
func (rn *runner) planStart(msg int32, v topology.NodeID, t int64) {
	p := rn.msgs[msg].plan
	if p.started[v] {
		return
	}
	p.started[v] = true
	for _, i := range p.sends[v] {
		u := p.s.Unicasts[i]
		// Dateline classes of the path as given (a DOR path, a tie going Minus, or an
		// explicit route): topology.DOR.PathHops.
		rn.hopBuf = append(rn.hopBuf[:0], rn.r.PathHops(u.Path)...)
		rn.send(v, rn.hopBuf, nil, msg, 0, t)
	}
}

// sample draws k distinct destinations among the endpoints other than v, uniformly
// (partial Fisher-Yates).
func (rn *runner) sample(v topology.NodeID, k int, dst []topology.NodeID) []topology.NodeID {
	E := len(rn.ends)
	if len(rn.perm) != E-1 {
		rn.perm = make([]topology.NodeID, E-1)
	}
	// perm holds every endpoint but the last; map v out by putting the last in its place.
	copy(rn.perm, rn.ends[:E-1])
	if i := rn.endIdx[v]; int(i) < E-1 {
		rn.perm[i] = rn.ends[E-1]
	}
	for i := 0; i < k; i++ {
		j := i + rn.rng.IntN(len(rn.perm)-i)
		rn.perm[i], rn.perm[j] = rn.perm[j], rn.perm[i]
		dst = append(dst, rn.perm[i])
	}
	return dst
}

// sbtSend sends the broadcast copy of rotated dimension index k from v. The copy's
// receiver forwards along indices below k. Dimension of index k is (k+base) mod n; base
// is encoded with k in aux as k*64+base.
func (rn *runner) sbtSend(v topology.NodeID, msg int32, k, base int, t int64) {
	n := rn.g.Dims()
	d := (k + base) % n
	c, _ := rn.g.Neighbor(v, d, topology.Direction(rn.g.Coord(v, d)))
	rn.send(v, []topology.Hop{{Channel: c}}, nil, msg, int32(k*64+base), t)
}

// sbtForward runs at a node that received broadcast copy aux (rotated index k) at t.
func (rn *runner) sbtForward(v topology.NodeID, msg int32, aux int, t int64) {
	k, base := aux/64, aux%64
	for j := k - 1; j >= 0; j-- {
		rn.sbtSend(v, msg, j, base, t)
	}
}

// delivered is the network's callback: the tail of worm w reached v at t.
func (rn *runner) delivered(w int32, v topology.NodeID, t int64, final bool) {
	wr := &rn.net.worms[w]
	if t-1 < rn.windowEnd && t-1 >= rn.cfg.Warmup {
		rn.flitsInWin += int64(wr.length)
	}
	aux := int32(0)
	if rn.msgs[wr.msg].kind == kindBroadcast {
		aux = wr.aux/64*64 + wr.aux%64
		if wr.aux/64 == 0 {
			aux = 0
		}
	}
	rn.schedule(t+int64(rn.cfg.Tr), evReceived, wr.msg, int32(v), aux)
	if final {
		rn.net.releaseWorm(w)
	}
}

func (rn *runner) complete(msg int32, t int64) {
	m := &rn.msgs[msg]
	rn.completed++
	if m.measured {
		rn.lat[m.kind][m.seq] = t - m.created
		rn.done[m.kind][m.seq] = true
		rn.open--
	}
}

// stat computes the batch-means estimate over the completed measured latencies.
func stat(lat []int64, done []bool) Stat { return statMSER(lat, done, false) }

// statMSER is stat with optional MSER-5 truncation of the initial transient.
func statMSER(lat []int64, done []bool, mser bool) Stat {
	var xs []float64
	for i, l := range lat {
		if done[i] {
			xs = append(xs, float64(l))
		}
	}
	var s Stat
	if mser {
		s.Truncated = MSER5(xs)
		xs = xs[s.Truncated:]
	}
	for _, x := range xs {
		if int64(x) > s.Max {
			s.Max = int64(x)
		}
	}
	s.N = len(xs)
	s.Mean, s.CI95 = BatchMeans(xs, 20)
	return s
}

// sendTree hands the tree multicast msg from src to dests to src's processor at t: one
// worm of len(dests) address flits and Length-1 data flits (000 Fig. 1).
func (rn *runner) sendTree(src topology.NodeID, dests []topology.NodeID, msg int32, t int64) {
	D := rn.L - 1
	tm := rn.net.newTree(rn.r, src, dests, D, msg)
	w := rn.net.newWorm()
	wr := &rn.net.worms[w]
	tr := &rn.net.tree.msgs[tm]
	tr.worm = w
	// The worm's hops name its first channel (the injection port under all-port).
	wr.hops = append(wr.hops[:0], tr.paths[0]...)
	wr.drops = nil
	wr.hop, wr.tailHop, wr.sent = 0, 0, 0
	wr.length = int32(len(dests)) + D
	wr.src = src
	wr.msg = msg
	wr.aux = 0
	wr.tree = tm + 1
	start := max(t, rn.cpuFree[src]) + int64(rn.cfg.Ts)
	rn.cpuFree[src] = start
	rn.schedule(start, evReady, w, 0, 0)
}

// treeServed is the network's callback: destination v of tree tm has the data at t.
func (rn *runner) treeServed(tm int32, v topology.NodeID, t int64) {
	m := &rn.net.tree.msgs[tm]
	if t-1 < rn.windowEnd && t-1 >= rn.cfg.Warmup {
		rn.flitsInWin += int64(m.D) + 1
	}
	if rn.treeLog != nil {
		rn.treeLog(m.msg, v, t)
	}
	rn.schedule(t+int64(rn.cfg.Tr), evReceived, m.msg, int32(v), 0)
}
