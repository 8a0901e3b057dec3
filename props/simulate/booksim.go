package simulate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/checker/sim/pipeline"
	"github.com/wormcheck/wormcheck/model/booksim"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// This file turns a BookSim2 configuration into the experiment BookSim runs on it
// (checker/sim/pipeline): its router pipeline, traffic, injection and measurement, with
// BookSim's defaults for every key the file leaves out. A key whose behaviour the
// simulator does not have is refused in one line naming it and its line.

// BookSimRun is `sim --booksim FILE`: the configuration as BookSim reads it and the
// flags that override its keys (zero: the configuration's value).
type BookSimRun struct {
	// Name is the configuration file, for the report.
	Name   string
	Config booksim.Config
	// Rate (packets per terminal per cycle) or Load (flits per terminal per cycle)
	// replaces injection_rate; with --plot the sweep goes up to it.
	Rate, Load float64
	// Traffic replaces traffic; VCs, Buffers and Length replace num_vcs, vc_buf_size and
	// packet_size; Selection (first, random or adaptive) replaces the selection that
	// routing_function implies.
	Traffic              string
	VCs, Buffers, Length int
	Selection            string
	Seed                 uint64
}

// at names where key is set in c: its line, or that it is BookSim's default.
func at(c *booksim.Config, key string) string {
	if l, ok := c.Line[key]; ok {
		return fmt.Sprintf("booksim line %d: %s", l, key)
	}
	return fmt.Sprintf("booksim %s (default)", key)
}

// bookSimSelection is how the routing functions of BookSim choose among the outputs a
// relation permits: deterministic functions take one output, oblivious ones draw one
// at random when the header is routed, adaptive ones bid for every permitted VC.
var bookSimSelection = map[string]pipeline.Selection{
	"dor": pipeline.SelectFirst, "dim_order": pipeline.SelectRandom, "dim_order_ni": pipeline.SelectRandom,
	"dim_order_pni": pipeline.SelectFirst, "dim_order_bal": pipeline.SelectRandom, "min": pipeline.SelectFirst,
	"nca": pipeline.SelectRandom, "anca": pipeline.SelectAdaptive, "dest_tag": pipeline.SelectFirst,
	"dor_no_express": pipeline.SelectFirst, "ran_min": pipeline.SelectRandom, "xy_yx": pipeline.SelectRandom,
	"adaptive_xy_yx": pipeline.SelectAdaptive, "min_adapt": pipeline.SelectAdaptive, "planar_adapt": pipeline.SelectAdaptive,
	"romm": pipeline.SelectRandom, "romm_ni": pipeline.SelectRandom, "valiant": pipeline.SelectRandom,
	"ugal": pipeline.SelectAdaptive, "ugal_pni": pipeline.SelectAdaptive, "chaos": pipeline.SelectAdaptive,
}

// parseSelection reads --selection for a BookSim run.
func parseSelection(s string) (pipeline.Selection, error) {
	for _, x := range []pipeline.Selection{pipeline.SelectFirst, pipeline.SelectRandom, pipeline.SelectAdaptive} {
		if x.String() == s {
			return x, nil
		}
	}
	return 0, props.FieldErrorf("{BookSimRun.Selection} %q: with {Request.BookSim} want first, random or adaptive", s)
}

// bookSimRefusals are the keys whose non-default values change what BookSim simulates
// in ways the pipeline does not model: each with what the file must say.
func bookSimRefusals(c *booksim.Config) error {
	r, a, t, s := &c.Router, &c.Allocators, &c.Traffic, &c.Sim
	checks := []struct {
		bad  bool
		key  string
		want string
	}{
		{r.Kind != "iq", "router", "iq (the input-queued router; event and chaos routers are not simulated)"},
		{r.Speculative != 0, "speculative", "0 (speculative switch allocation is not simulated)"},
		{r.NOQ, "noq", "0 (next-output queueing is not simulated)"},
		{r.BufferPolicy != "private", "buffer_policy", "private (shared buffer policies are not simulated)"},
		{r.VCT, "vct", "0 (virtual cut-through is the event router's)"},
		{a.ArbType != "round_robin", "arb_type", "round_robin (the allocators' arbiters)"},
		{t.Classes != 1, "classes", "1 (one traffic class)"},
		{t.Priority != "none", "priority", "none (packet priorities are not simulated)"},
		{s.Type == "batch", "sim_type", "latency or throughput (batch mode is not simulated)"},
		{c.Network.Subnets != 1, "subnets", "1"},
		{len(t.UseReadWrite) > 0 && t.UseReadWrite[0] != 0, "use_read_write", "0 (request-reply traffic is not simulated)"},
		{c.Network.LinkFailures != 0, "link_failures", "0 (give failed links with {topology.WithFaults})"},
	}
	for _, k := range checks {
		if k.bad {
			return props.FieldErrorf("%s: the simulator needs "+k.want, at(c, k.key))
		}
	}
	return nil
}

// bookSimRouter is the router of c, with run's overrides.
func bookSimRouter(c *booksim.Config, run *BookSimRun) (pipeline.Router, error) {
	r := &c.Router
	p := pipeline.Router{VCs: r.NumVCs, Buffer: r.VCBufSize, RoutingDelay: r.RoutingDelay, VCAllocDelay: r.VCAllocDelay,
		SWAllocDelay: r.SWAllocDelay, STPrepareDelay: r.STPrepareDelay, STFinalDelay: r.STFinalDelay, CreditDelay: r.CreditDelay,
		InputSpeedup: r.InputSpeedup, OutputSpeedup: r.OutputSpeedup, InternalSpeedup: r.InternalSpeedup,
		WaitForTailCredit: r.WaitForTailCredit, HoldSwitchForPacket: r.HoldSwitchForPacket, VCBusyWhenFull: r.VCBusyWhenFull,
		VCPrioritizeEmpty: r.VCPrioritizeEmpty, OutputBufferSize: r.OutputBufferSize}
	if r.BufSize > 0 && r.NumVCs > 0 {
		p.Buffer = r.BufSize / r.NumVCs
	}
	if run.VCs > 0 {
		p.VCs = run.VCs
	}
	if run.Buffers > 0 {
		p.Buffer = run.Buffers
	}
	// BookSim's router gives its allocators no alloc_iters: iSLIP iterates as its name's
	// parameter says, "islip(2)", else once.
	var err error
	if p.VCAllocator, p.VCAllocIters, err = pipeline.ParseAllocator(c.Allocators.VCAllocator); err != nil {
		return p, fmt.Errorf("%s: %v", at(c, "vc_allocator"), err)
	}
	if p.SWAllocator, p.SWAllocIters, err = pipeline.ParseAllocator(c.Allocators.SWAllocator); err != nil {
		return p, fmt.Errorf("%s: %v", at(c, "sw_allocator"), err)
	}
	return p, nil
}

// bookSimProcess reads injection_process: bernoulli, or on_off with optional
// (alpha, beta, r1) parameters falling back on burst_alpha, burst_beta and burst_r1.
func bookSimProcess(c *booksim.Config) (pipeline.Process, error) {
	t := &c.Traffic
	spec := "bernoulli"
	if len(t.InjectionProcess) > 0 {
		spec = t.InjectionProcess[0]
	}
	name, args, _ := strings.Cut(strings.TrimSuffix(spec, ")"), "(")
	switch name {
	case "bernoulli":
		return pipeline.Process{}, nil
	case "on_off":
		p := pipeline.Process{OnOff: true, Alpha: t.BurstAlpha, Beta: t.BurstBeta, R1: t.BurstR1}
		for i, f := range strings.Split(args, ",") {
			if strings.TrimSpace(f) == "" || i > 2 {
				continue
			}
			x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil {
				return p, fmt.Errorf("%s: %q: parameter %d is not a number", at(c, "injection_process"), spec, i+1)
			}
			*[]*float64{&p.Alpha, &p.Beta, &p.R1}[i] = x
		}
		return p, nil
	}
	return pipeline.Process{}, fmt.Errorf("%s: %q; want bernoulli or on_off", at(c, "injection_process"), spec)
}

// bookSimLatency is the latency BookSim gives the channels of g: 2 cycles on a torus
// with use_noc_latency (its folded layout), the file's weights on an anynet, 10 and
// 100 cycles on a dragonfly's local and global channels, and with
// use_noc_latency on a flattened butterfly and a concentrated mesh the wire lengths
// the network carries as weights (flatfly_onchip.cpp: xr*|dx| + yr*|dy| between
// routers, the distance to the terminal; cmesh.cpp: 2 per hop, k on an express
// channel); 1 elsewhere.
func bookSimLatency(c *booksim.Config, g *topology.Network) func(topology.ChannelID) int {
	weights := func(ch topology.ChannelID) int {
		if ch == topology.None {
			return 1
		}
		return g.Weight(ch)
	}
	noc := c.Network.UseNocLatency != 0
	switch {
	case c.Network.Topology == "torus" && noc:
		return func(ch topology.ChannelID) int {
			if ch == topology.None {
				return 1 // a terminal's injection and ejection channels
			}
			return 2
		}
	case c.Network.Topology == "anynet":
		return weights
	case noc && (c.Network.Topology == "flatfly" || c.Network.Topology == "cmesh"):
		return weights
	case c.Network.Topology == "dragonflynew":
		if d, ok := g.DragonflyShape(); ok {
			return dragonflyLatency(g, d)
		}
	}
	return func(topology.ChannelID) int { return 1 }
}

// dragonflyLatency is the latency BookSim's dragonflynew gives its channels whatever
// use_noc_latency says (dragonfly.cpp defines DRAGON_LATENCY): 10 cycles for a channel
// within a group, 100 for a global channel between groups, 1 for a terminal's.
func dragonflyLatency(g *topology.Network, d *topology.Dragonfly) func(topology.ChannelID) int {
	routers := topology.NodeID(d.G * d.A)
	return func(ch topology.ChannelID) int {
		if ch == topology.None {
			return 1
		}
		c := g.Channel(ch)
		switch {
		case c.From >= routers || c.To >= routers:
			return 1
		case d.Group(c.From) == d.Group(c.To):
			return 10
		}
		return 100
	}
}

// bookSimConfig is the experiment BookSim runs for run on g, routed by rel. The injection
// rate is run's (else injection_rate), in packets per terminal per cycle.
func bookSimConfig(g *topology.Network, run *BookSimRun, rel routing.Relation) (pipeline.Config, error) {
	c := &run.Config
	var cfg pipeline.Config
	if err := bookSimRefusals(c); err != nil {
		return cfg, err
	}
	if rel == nil {
		return cfg, props.FieldErrorf("%s: %s on %s has no routing relation in wormcheck; give {Options.Relation}", at(c, "routing_function"), c.Network.RoutingFunction, g.Spec())
	}
	r, err := bookSimRouter(c, run)
	if err != nil {
		return cfg, err
	}
	t := &c.Traffic
	tr := pipeline.Traffic{IncludeQueuing: c.Sim.IncludeQueuing, Sizes: first(t.PacketSize, []int{1}), SizeRates: first(t.PacketSizeRate, nil)}
	if run.Length > 0 {
		tr.Sizes, tr.SizeRates = []int{run.Length}, nil
	}
	if len(tr.SizeRates) < len(tr.Sizes) { // BookSim repeats the last weight
		rates := append([]int(nil), tr.SizeRates...)
		for len(rates) < len(tr.Sizes) {
			if len(rates) == 0 {
				rates = append(rates, 1)
				continue
			}
			rates = append(rates, rates[len(rates)-1])
		}
		tr.SizeRates = rates
	}
	if tr.Process, err = bookSimProcess(c); err != nil {
		return cfg, err
	}
	pattern := first(t.Pattern, "uniform")
	if run.Traffic != "" {
		pattern = run.Traffic
	}
	terms := g.Endpoints()
	perm := uint64(c.Traffic.PermSeed.Value)
	if tr.Pattern, err = pipeline.ParsePattern(pattern, len(terms), pipeline.PatternParams{K: c.Network.K, N: c.Network.N, XR: c.Network.XR, PermSeed: perm}); err != nil {
		return cfg, fmt.Errorf("%s: %v", at(c, "traffic"), err)
	}
	tr.Rate = first(t.InjectionRate, 0.1)
	if t.InjectionRateUsesFlits {
		tr.Rate /= meanSize(tr.Sizes, tr.SizeRates)
	}
	switch {
	case run.Rate > 0:
		tr.Rate = run.Rate
	case run.Load > 0:
		tr.Rate = run.Load / meanSize(tr.Sizes, tr.SizeRates)
	}
	sel, ok := bookSimSelection[c.Network.RoutingFunction]
	if !ok {
		sel = pipeline.SelectFirst
	}
	if run.Selection != "" {
		if sel, err = parseSelection(run.Selection); err != nil {
			return cfg, err
		}
	}
	s := &c.Sim
	m := pipeline.Measure{SamplePeriod: s.SamplePeriod, WarmupPeriods: s.WarmupPeriods, MaxSamples: s.MaxSamples, SimCount: s.SimCount,
		LatencyThreshold: first(s.LatencyThres, 500), WarmupThreshold: first(s.WarmupThres, 0.05), AccWarmupThreshold: first(s.AccWarmupThres, 0.05),
		StoppingThreshold: first(s.StoppingThres, 0.05), AccStoppingThresh: first(s.AccStoppingThres, 0.05)}
	if s.Type == "throughput" {
		m.Mode = pipeline.Throughput
	}
	cfg = pipeline.Config{Network: g, Terminals: terms, Relation: rel, Selection: sel, Latency: bookSimLatency(c, g),
		Router: r, Traffic: tr, Measure: m, Seed: run.Seed}
	return cfg, nil
}

// first is the value of a per-class key for class 0 (the one simulated), def when the
// file gives an empty list.
func first[T any](xs []T, def T) T {
	if len(xs) == 0 {
		return def
	}
	return xs[0]
}

// meanSize is the mean packet size in flits of sizes drawn with weights rates.
func meanSize(sizes, rates []int) float64 {
	if len(sizes) == 1 {
		return float64(sizes[0])
	}
	var sum, w float64
	for i, s := range sizes {
		sum += float64(s * rates[i])
		w += float64(rates[i])
	}
	if w == 0 {
		return 1
	}
	return sum / w
}
