// Package pipeline simulates a network of input-queued virtual-channel routers with
// BookSim2's router pipeline and runs BookSim2's experiment on it: its traffic
// patterns, injection processes and packet sizes, its warm-up and sample periods, and
// its statistics (average packet latency, accepted throughput). Where checker/sim is the
// papers' router (one cycle per hop, the channel's bandwidth shared among its virtual
// channels), this is the router of Dally & Towles that BookSim models, stage by stage.
//
// The router (Reference: BookSim2 src/routers/iq_router.cpp; Dally & Towles,
// Principles and Practices of Interconnection Networks, ch. 16). A flit that arrives
// at an input is buffered in its virtual channel (B flits each, credit-based flow
// control). A header at the front of an idle VC is routed (RoutingDelay cycles; 0 is
// lookahead routing, done by the previous router), then bids in VC allocation for the
// output VCs the routing relation permits (VCAllocDelay), then, like every later flit of
// its packet, in switch allocation for the crossbar (SWAllocDelay), then crosses the
// switch (STPrepareDelay + STFinalDelay) into its output's queue, which sends one flit
// a cycle over a channel of the topology's latency. A flit leaving an input returns a
// credit upstream (channel latency, then CreditDelay). InputSpeedup splits each input
// into that many crossbar inputs (VCs interleaved), OutputSpeedup each output,
// InternalSpeedup runs the router's stages that many times a cycle. An output VC is
// given to a new packet once the previous packet's tail has been sent
// (WaitForTailCredit false, BookSim's default) or once its tail's credit has come back,
// i.e. the VC's buffer downstream is empty (true: atomic VC allocation, the rule of the
// explorer's flit semantics).
//
// Terminals follow BookSim's traffic manager: each cycle a terminal whose source queue
// is empty tests its injection process for the next cycle of its own timeline, so
// a packet may be created in the past (its latency counts the time queued), and sends at
// most one flit a cycle over its injection channel into its router, on a VC picked
// round-robin among those free with credit. A delivered flit returns its credit at once.
//
// Everything is deterministic for a Seed: the only randomness is one PCG stream
// (destinations, injection, packet sizes, random route choices).
package pipeline

import (
	"context"
	"fmt"
	"math"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Router is the router microarchitecture: BookSim's router keys, same meanings.
type Router struct {
	VCs    int `json:"num_vcs"`     // virtual channels per channel
	Buffer int `json:"vc_buf_size"` // flits per VC buffer
	// The stage delays in cycles. RoutingDelay 0 is lookahead routing; VCAllocDelay
	// and SWAllocDelay must be at least 1; the switch traversal takes STPrepareDelay +
	// STFinalDelay; a credit waits CreditDelay cycles after crossing its channel.
	RoutingDelay    int     `json:"routing_delay"`
	VCAllocDelay    int     `json:"vc_alloc_delay"`
	SWAllocDelay    int     `json:"sw_alloc_delay"`
	STPrepareDelay  int     `json:"st_prepare_delay"`
	STFinalDelay    int     `json:"st_final_delay"`
	CreditDelay     int     `json:"credit_delay"`
	InputSpeedup    int     `json:"input_speedup"`
	OutputSpeedup   int     `json:"output_speedup"`
	InternalSpeedup float64 `json:"internal_speedup"`
	// WaitForTailCredit makes VC allocation atomic (see the package doc).
	WaitForTailCredit bool `json:"wait_for_tail_credit"`
	// HoldSwitchForPacket keeps a packet's crossbar connection until its tail crosses.
	HoldSwitchForPacket bool `json:"hold_switch_for_packet"`
	// VCBusyWhenFull: VC allocation skips output VCs without a credit.
	VCBusyWhenFull bool `json:"vc_busy_when_full"`
	// VCPrioritizeEmpty: VC allocation prefers empty output VCs.
	VCPrioritizeEmpty bool `json:"vc_prioritize_empty"`
	// OutputBufferSize bounds each output queue (flits); -1 is unbounded.
	OutputBufferSize int       `json:"output_buffer_size"`
	VCAllocator      Allocator `json:"vc_allocator"`
	SWAllocator      Allocator `json:"sw_allocator"`
	// VCAllocIters and SWAllocIters are iSLIP's iterations ("islip(N)").
	VCAllocIters int `json:"vc_alloc_iters"`
	SWAllocIters int `json:"sw_alloc_iters"`
}

// DefaultRouter returns BookSim's defaults (src/booksim_config.cpp): 16 VCs of 8
// flits, routing, VC and switch allocation 1 cycle each, switch traversal 1, no credit
// delay, no speedup, iSLIP allocators with one iteration.
func DefaultRouter() Router {
	return Router{VCs: 16, Buffer: 8, RoutingDelay: 1, VCAllocDelay: 1, SWAllocDelay: 1, STFinalDelay: 1,
		InputSpeedup: 1, OutputSpeedup: 1, InternalSpeedup: 1, OutputBufferSize: -1, VCAllocIters: 1, SWAllocIters: 1}
}

// Selection is how a header's route is chosen where the routing relation permits
// several outputs.
type Selection uint8

// The selections, after BookSim's routing functions, which return one output port and a
// range of VCs on it: SelectFirst bids for the VCs the relation offers on its most
// preferred channel (deterministic functions such as dor and min); SelectRandom draws
// one of the channels offered, uniformly, when the header is routed, and bids for its
// VCs (oblivious functions: dim_order's ties on a torus, nca's up port, ran_min);
// SelectAdaptive bids for every (channel, VC) offered and lets VC allocation choose, the
// relation's order of channels as priority (adaptive functions).
const (
	SelectFirst Selection = iota
	SelectRandom
	SelectAdaptive
)

var selectionNames = [...]string{"first", "random", "adaptive"}

// String returns "first", "random" or "adaptive".
func (s Selection) String() string {
	if int(s) < len(selectionNames) {
		return selectionNames[s]
	}
	return fmt.Sprintf("Selection(%d)", uint8(s))
}

// Process is an injection process: when a terminal creates packets.
type Process struct {
	// OnOff selects the Markov-modulated on/off process; false is Bernoulli (one
	// packet with probability Rate each cycle).
	OnOff bool
	// Alpha is the off-to-on and Beta the on-to-off probability a cycle, R1 the rate
	// while on; exactly one is negative and is derived from the others and the rate
	// (BookSim's burst_alpha, burst_beta, burst_r1).
	Alpha, Beta, R1 float64
}

// Packet is one packet of an explicit workload (Traffic.Packets): from terminal Src to
// terminal Dst, Size flits, created at cycle At.
type Packet struct {
	Src, Dst, Size int
	At             int64
}

// Traffic is the offered load.
type Traffic struct {
	Pattern Pattern
	// Rate is packets per terminal per cycle (BookSim's injection_rate, divided by the
	// mean packet size when injection_rate_uses_flits).
	Rate    float64
	Process Process
	// Sizes are the packet sizes in flits, drawn with weights SizeRates (one size: all
	// packets have it).
	Sizes, SizeRates []int
	// IncludeQueuing counts a packet's latency from the cycle its process created it
	// (BookSim's include_queuing, default on), not from when the terminal got to it.
	IncludeQueuing bool
	// Packets, if not empty, replaces the random traffic: exactly these packets, each
	// queued at its source at its cycle; the run ends when all are delivered and
	// Result.Packets has each one's times.
	Packets []Packet
}

// Mode is BookSim's sim_type.
type Mode uint8

// String returns BookSim's name of the mode, "latency" or "throughput".
func (m Mode) String() string {
	if m == Throughput {
		return "throughput"
	}
	return "latency"
}

// MarshalText writes the mode's name.
func (m Mode) MarshalText() ([]byte, error) { return []byte(m.String()), nil }

// Latency mode aborts a run whose average latency passes the latency threshold (an
// unstable, saturated network) and drains every measured packet; Throughput mode keeps
// going past saturation and reports the accepted rate.
const (
	Latency Mode = iota
	Throughput
)

// Measure is BookSim's measurement: warm-up periods, then sample periods until latency
// and accepted rate change by less than the stopping thresholds three periods running,
// at most MaxSamples periods in all, repeated SimCount times.
type Measure struct {
	Mode               Mode    `json:"sim_type"`
	SamplePeriod       int     `json:"sample_period"`
	WarmupPeriods      int     `json:"warmup_periods"`
	MaxSamples         int     `json:"max_samples"`
	SimCount           int     `json:"sim_count"`
	LatencyThreshold   float64 `json:"latency_thres"`
	WarmupThreshold    float64 `json:"warmup_thres"`
	AccWarmupThreshold float64 `json:"acc_warmup_thres"`
	StoppingThreshold  float64 `json:"stopping_thres"`
	AccStoppingThresh  float64 `json:"acc_stopping_thres"`
}

// DefaultMeasure returns BookSim's defaults: latency mode, 3 warm-up periods of 1000
// cycles, at most 10 periods, thresholds 5%, latency threshold 500 cycles.
func DefaultMeasure() Measure {
	return Measure{SamplePeriod: 1000, WarmupPeriods: 3, MaxSamples: 10, SimCount: 1, LatencyThreshold: 500,
		WarmupThreshold: 0.05, AccWarmupThreshold: 0.05, StoppingThreshold: 0.05, AccStoppingThresh: 0.05}
}

// Config is one simulation.
type Config struct {
	Network *topology.Network
	// Terminals are the network's terminals in the order traffic patterns number them
	// (BookSim's); nil is Network.Endpoints(). A terminal that is a router's own node
	// (grids) gets an injection and an ejection channel (Latency(topology.None));
	// a terminal node of a network file uses its channels.
	Terminals []topology.NodeID
	// Relation routes every header, hop by hop; Selection chooses among its outputs.
	// The relation's VC classes split the VCs evenly (class k of C owns VCs k*V/C ..
	// (k+1)*V/C-1); ejection and injection take any VC.
	Relation  routing.Relation
	Selection Selection
	// Latency returns a channel's latency in cycles, called with topology.None for the
	// injection and ejection channels of a router's own terminal (nil: Network.Weight,
	// and 1 for those). A flit sent in cycle t is read at the far end in cycle
	// t+latency+1; 0, which BookSim refuses, leaves only that hand-over (the papers'
	// router of checker/sim).
	Latency func(topology.ChannelID) int
	Router  Router
	Traffic Traffic
	Measure Measure
	Seed    uint64
	// Context, if set, is checked every 4 cycles (a cycle of a large network takes
	// milliseconds); once done the run stops
	// (Result.Stopped).
	Context context.Context
	// Progress, if set, is called every 256 cycles with the cycle and flit-hops so far.
	Progress func(cycle, flitHops int64)
	// Trace, if set, sees every flit leaving a buffer (tests replay them).
	Trace func(TraceEvent)
}

// TraceEvent is a flit leaving its input buffer in Cycle: from virtual channel InVC of
// channel In (topology.None: the router's injection port, or the terminal itself when
// FromSource), over virtual channel VC of channel Out (topology.None: the ejection port of
// Node). Node is the router (or terminal) it leaves.
type TraceEvent struct {
	Cycle      int64
	Packet     int
	Head, Tail bool
	FromSource bool
	Node       topology.NodeID
	In         topology.ChannelID
	InVC       int
	Out        topology.ChannelID
	VC         int
}

// Stat is a sample statistic: mean, extremes and the number of samples.
type Stat struct {
	N    int64   `json:"n"`
	Mean float64 `json:"mean"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
}

func (s *Stat) add(x float64) {
	if s.N == 0 || x < s.Min {
		s.Min = x
	}
	if s.N == 0 || x > s.Max {
		s.Max = x
	}
	s.Mean += (x - s.Mean) / float64(s.N+1)
	s.N++
}

// Rate is a rate per terminal per cycle: the mean over terminals and the extremes.
type Rate struct {
	Mean, Min, Max float64
}

// Period is one sample period: the average packet latency (NaN with no packet) and
// the accepted flit rate per terminal since the statistics were last cleared.
type Period struct {
	Cycle    int64
	Latency  float64
	Accepted float64
	Warmup   bool
}

// PacketRecord is one packet of an explicit workload: the cycles it was created, its
// head injected and its tail delivered, and the routers it crossed.
type PacketRecord struct {
	Packet                     Packet
	Created, Injected, Arrived int64
	Hops                       int
}

// Result is what a run measured, BookSim's overall statistics averaged over SimCount
// simulations: packet latency (creation to tail delivery), network latency (head
// injection to tail delivery), routers crossed, and the injected and accepted rates in
// flits and packets per terminal per cycle over the measured periods.
type Result struct {
	PacketLatency, NetworkLatency Stat
	Hops                          float64
	InjectedFlits, AcceptedFlits  Rate
	InjectedPackets               Rate
	AcceptedPackets               Rate
	// Stable is false when a run was aborted because its latency passed the latency
	// threshold (BookSim: "Simulation unstable"): the network is saturated at this load
	// and the figures above are not reported by BookSim.
	Stable bool
	// Converged is false when the sample periods ran out before latency and throughput
	// settled (BookSim still reports the figures).
	Converged bool
	// Cycles is the cycles simulated in all; FlitHops the flits sent over channels.
	Cycles, FlitHops int64
	Periods          []Period
	// Deadlocked: flits stayed in the network without moving for 20 sample periods
	// while it drained; the run was stopped there.
	Deadlocked bool
	// Stopped: Context ended the run.
	Stopped bool
	Packets []PacketRecord
}

// Run simulates cfg. Errors name the field at fault.
func Run(cfg Config) (*Result, error) {
	e, err := newEngine(cfg)
	if err != nil {
		return nil, err
	}
	if len(cfg.Traffic.Packets) > 0 {
		return e.runPackets()
	}
	return e.runBookSim(), e.err
}

// validate checks the parts of cfg that do not need the network built.
func (cfg *Config) validate() error {
	r, t, m := &cfg.Router, &cfg.Traffic, &cfg.Measure
	switch {
	case cfg.Network == nil:
		return fmt.Errorf("topology: a network is required")
	case cfg.Relation == nil:
		return fmt.Errorf("routing: a routing relation is required")
	case cfg.Relation.Grid() != cfg.Network:
		return fmt.Errorf("routing %s does not route on %s", cfg.Relation.Name(), cfg.Network.Spec())
	case r.VCs < 1 || r.VCs > 64:
		return fmt.Errorf("num_vcs = %d: want 1..64 virtual channels", r.VCs)
	case r.VCs < cfg.Relation.VCs():
		return fmt.Errorf("num_vcs = %d: routing %s needs at least %d virtual channels", r.VCs, cfg.Relation.Name(), cfg.Relation.VCs())
	case r.Buffer < 1 || r.Buffer > 1<<16:
		return fmt.Errorf("vc_buf_size = %d: want 1..65536 flits", r.Buffer)
	case r.RoutingDelay < 0 || r.STPrepareDelay < 0 || r.STFinalDelay < 0 || r.CreditDelay < 0:
		return fmt.Errorf("routing_delay %d, st_prepare_delay %d, st_final_delay %d, credit_delay %d: delays must not be negative",
			r.RoutingDelay, r.STPrepareDelay, r.STFinalDelay, r.CreditDelay)
	case r.VCAllocDelay < 1 || r.SWAllocDelay < 1:
		return fmt.Errorf("vc_alloc_delay %d, sw_alloc_delay %d: allocation takes at least 1 cycle (BookSim refuses 0)", r.VCAllocDelay, r.SWAllocDelay)
	case max(r.RoutingDelay, r.VCAllocDelay, r.SWAllocDelay, r.STPrepareDelay+r.STFinalDelay, r.CreditDelay) > 1<<10:
		return fmt.Errorf("router delays above 1024 cycles are not simulated")
	case r.InputSpeedup < 1 || r.OutputSpeedup < 1 || r.InputSpeedup > 64 || r.OutputSpeedup > 64:
		return fmt.Errorf("input_speedup %d, output_speedup %d: want 1..64", r.InputSpeedup, r.OutputSpeedup)
	case !(r.InternalSpeedup >= 1) || r.InternalSpeedup > 64:
		return fmt.Errorf("internal_speedup %v: want 1..64", r.InternalSpeedup)
	case r.OutputBufferSize == 0 || r.OutputBufferSize < -1:
		return fmt.Errorf("output_buffer_size %d: want -1 (unbounded) or at least 1", r.OutputBufferSize)
	case r.VCAllocIters < 1 || r.VCAllocIters > 64 || r.SWAllocIters < 1 || r.SWAllocIters > 64:
		return fmt.Errorf("allocator iterations %d, %d: want 1..64", r.VCAllocIters, r.SWAllocIters)
	case t.Rate < 0 || t.Rate > 1 || math.IsNaN(t.Rate):
		return fmt.Errorf("injection_rate %v: want 0..1 packets per terminal per cycle", t.Rate)
	case len(t.Sizes) == 0 && len(t.Packets) == 0:
		return fmt.Errorf("packet_size: at least one size is required")
	case len(t.Packets) == 0 && (m.SamplePeriod < 1 || m.SamplePeriod > 1<<30):
		return fmt.Errorf("sample_period %d: want 1..2^30 cycles", m.SamplePeriod)
	case len(t.Packets) == 0 && (m.MaxSamples < 1 || m.WarmupPeriods < 0 || m.SimCount < 1 || m.MaxSamples > 1<<20 || m.SimCount > 1<<10):
		return fmt.Errorf("max_samples %d, warmup_periods %d, sim_count %d: want max_samples and sim_count at least 1 and warmup_periods at least 0", m.MaxSamples, m.WarmupPeriods, m.SimCount)
	}
	for i, s := range t.Sizes {
		if s < 1 || s > 1<<20 {
			return fmt.Errorf("packet_size %d: want 1..2^20 flits", s)
		}
		if i < len(t.SizeRates) && t.SizeRates[i] < 0 {
			return fmt.Errorf("packet_size_rate %d: weights must not be negative", t.SizeRates[i])
		}
	}
	if p := t.Process; p.OnOff {
		neg := 0
		for _, x := range []float64{p.Alpha, p.Beta, p.R1} {
			if x < 0 {
				neg++
			}
			if x > 1 || math.IsNaN(x) {
				return fmt.Errorf("injection_process on_off: burst_alpha %v, burst_beta %v, burst_r1 %v must be at most 1", p.Alpha, p.Beta, p.R1)
			}
		}
		if neg != 1 {
			return fmt.Errorf("injection_process on_off: exactly one of burst_alpha %v, burst_beta %v, burst_r1 %v must be negative (derived from the others)", p.Alpha, p.Beta, p.R1)
		}
	}
	return nil
}
