package simulate

import (
	"math"
	"math/rand/v2"
	"sort"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/algos/analytic"
	"github.com/wormcheck/wormcheck/algos/dcf"
	"github.com/wormcheck/wormcheck/algos/edn"
	"github.com/wormcheck/wormcheck/algos/pathbased"
	"github.com/wormcheck/wormcheck/algos/sbt"
	"github.com/wormcheck/wormcheck/algos/unicastmc"
	"github.com/wormcheck/wormcheck/algos/zblock"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// This file turns the command's options into a simulator configuration
// (checker/sim.Config), names the collectives the simulator can execute, evaluates the
// model printed beside a simulation and builds the report objects, so that the command
// keeps only flags, files and printing.

// Options are the values of `wormcheck sim`'s flags that shape a simulation, as the
// user gave them; simConfig validates them. A negative B or Multicast means "not given".
type Options struct {
	Traffic, Algo, Ports, Process, Dests, Prune string
	Load, Rate, B, Multicast, HotSpot           float64
	HotNode, Length, VCs, Buffers, Ts, Tr       int
	Cycles, Warmup                              int64
	Seed                                        uint64
	MSER                                        bool
	// Source and Dateline are those of a collective run (newCollective).
	Source   int
	Dateline bool
	// Relation is the routing relation of --routing (resolved by the caller, which reads
	// routing files), nil for dimension order. An irregular network needs one; with one,
	// unicasts and separate addressing follow it (sim.Config.Relation).
	Relation routing.Relation
	// Selection is --selection: first or hash (sim.Selection); "" is first.
	Selection string
}

// requireRouting refuses an irregular network without a relation (Options.Relation),
// and with one what does not follow it: what, formatted with whatArgs, is the field at
// fault and its value ({Options.Algo} %s) or the mode.
func requireRouting(g *topology.Network, o Options, what string, whatArgs ...any) error {
	if o.Relation == nil {
		if g.IsGraph() {
			return props.FieldErrorf("{Options.Relation} is missing: %s has no dimension order; give e.g. {Options.Relation} updown, shortest-path or a routing table (wormcheck help routing)", g.Spec())
		}
		return nil
	}
	if what != "" {
		return props.FieldErrorf(what+" goes by dimension order; with {Options.Relation} %s only unicast traffic and separate addressing run", append(whatArgs, o.Relation.Name())...)
	}
	return nil
}

// defaultLoad is the offered load (flits/node/cycle) of a simulation when neither a
// rate nor a load is given: light enough to be below saturation on every built-in size.
const defaultLoad = 0.05

// maxNodeCycles bounds the work of one simulation: nodes x (warm-up + window) cycles.
// At the simulator's speed of the order of a million node-cycles a second on one core, it
// is most of an hour; a larger run is refused before it allocates anything, instead of
// staying silent for days (sim on torus:1024x1024 with the default 25000 cycles).
const maxNodeCycles = 2e9

// maxCollectiveNodes bounds collective mode: building and simulating a broadcast grows
// faster than the node count.
const maxCollectiveNodes = 512 * 512

// broadcastBuilder returns the broadcast algorithm called name that the simulator can
// execute alone or use for the broadcasts of random traffic (dcf, edn, zblock, sbt).
func broadcastBuilder(name string) (func(g *topology.Network, src topology.NodeID) (*model.Schedule, error), bool) {
	switch name {
	case "dcf":
		return dcf.Build, true
	case "edn":
		return edn.Build, true
	case "zblock":
		return zblock.Build, true
	case "sbt":
		return func(g *topology.Network, src topology.NodeID) (*model.Schedule, error) {
			return sbt.Build(g, src, 0)
		}, true
	}
	return nil, false
}

// multicastBuilder returns the unicast-based multicast algorithm called name (U-torus,
// U-mesh, SPU) that a collective run or random multicast traffic can use.
func multicastBuilder(name string) (func(g *topology.Network, src topology.NodeID, dests []topology.NodeID) (*model.Schedule, error), bool) {
	for _, sc := range []unicastmc.Scheme{unicastmc.UMesh, unicastmc.UTorus, unicastmc.SPU} {
		if sc.String() == name {
			return func(g *topology.Network, src topology.NodeID, dests []topology.NodeID) (*model.Schedule, error) {
				return unicastmc.Build(g, sc, unicastmc.Multicast{Source: src, Destinations: dests})
			}, true
		}
	}
	return nil, false
}

// scheduleNames lists, sorted, the collectives broadcastBuilder and multicastBuilder know.
func scheduleNames() []string {
	names := []string{"dcf", "edn", "zblock", "sbt"}
	for _, sc := range []unicastmc.Scheme{unicastmc.UMesh, unicastmc.UTorus, unicastmc.SPU} {
		names = append(names, sc.String())
	}
	sort.Strings(names)
	return names
}

// simConfig turns the options into a simulator configuration, or an error of one line
// naming the field at fault (props.FieldError).
func simConfig(g *topology.Network, o Options) (sim.Config, error) {
	cfg := sim.Config{Grid: g, VCs: o.VCs, Buffer: o.Buffers, Length: o.Length, Ts: o.Ts, Tr: o.Tr,
		Seed: o.Seed, Warmup: o.Warmup, Cycles: o.Cycles, MSER: o.MSER, Relation: o.Relation}
	if err := requireRouting(g, o, ""); err != nil {
		return cfg, err
	}
	switch o.Selection {
	case "", "first":
	case "hash":
		if o.Relation == nil {
			return cfg, props.FieldErrorf("{Options.Selection} hash picks among a relation's outputs; give {Options.Relation}")
		}
		cfg.Selection = sim.SelectHash
	default:
		return cfg, props.FieldErrorf("{Options.Selection} %q: want first or hash", o.Selection)
	}
	if g.Kind() == topology.Hypercube && o.Relation == nil {
		cfg.Routing = topology.DOR{Grid: g, Order: topology.DescendingOrder(g.Dims())}
	}
	switch o.Ports {
	case "all":
		cfg.Ports = model.AllPort
	case "one":
		cfg.Ports = model.OnePort
	default:
		return cfg, props.FieldErrorf("{Options.Ports} %q: want all or one", o.Ports)
	}
	switch o.Process {
	case "poisson":
	case "bernoulli":
		cfg.Traffic.Process = sim.Bernoulli
	default:
		return cfg, props.FieldErrorf("{Options.Process} %q: want poisson or bernoulli", o.Process)
	}
	if o.Buffers < 1 {
		return cfg, props.FieldErrorf("{Options.Buffers} %d: every virtual channel needs at least one flit of buffer", o.Buffers)
	}
	if o.Length < 1 {
		return cfg, props.FieldErrorf("{Options.Length} %d: a message has at least one flit", o.Length)
	}
	switch {
	case o.Rate < 0 || math.IsNaN(o.Rate) || math.IsInf(o.Rate, 0):
		return cfg, props.FieldErrorf("{Options.Rate} %v must be a finite number, not negative", o.Rate)
	case o.Load < 0 || math.IsNaN(o.Load) || math.IsInf(o.Load, 0):
		return cfg, props.FieldErrorf("{Options.Load} %v must be a finite number, not negative", o.Load)
	case o.Warmup < 0:
		return cfg, props.FieldErrorf("{Options.Warmup} must not be negative")
	case o.Cycles < 0:
		return cfg, props.FieldErrorf("{Options.Cycles} must not be negative")
	case o.Rate > 0 && o.Load > 0:
		return cfg, props.FieldErrorf("{Options.Rate} and {Options.Load}: give one of them")
	case o.Rate > 0:
		cfg.Traffic.Rate = o.Rate
	case o.Load > 0:
		cfg.Traffic.Rate = o.Load / float64(o.Length)
	default:
		cfg.Traffic.Rate = defaultLoad / float64(o.Length)
	}
	if err := simBounds(g, o, cfg); err != nil {
		return cfg, err
	}
	mn, mx, err := parseDests(o.Dests)
	if err != nil {
		return cfg, err
	}
	cfg.Traffic.MinDests, cfg.Traffic.MaxDests = mn, mx
	switch o.Traffic {
	case "uniform":
	case "hotspot":
		cfg.Traffic.HotSpot = o.HotSpot
		hot := o.HotNode
		if hot < 0 && g.IsGraph() {
			ends := g.Endpoints()
			hot = int(ends[len(ends)/2])
		} else if hot < 0 {
			c := make([]int, g.Dims())
			for d := range c {
				c[d] = g.Size(d) / 2
			}
			hot = int(g.Node(c...))
		}
		if hot >= g.Nodes() {
			return cfg, props.FieldErrorf("{Options.HotNode} %d: %s has %d nodes", hot, g.Spec(), g.Nodes())
		}
		if !g.Endpoint(topology.NodeID(hot)) {
			return cfg, props.FieldErrorf("{Options.HotNode} %d: %s is a router of %s; only terminals send and receive", hot, g.NodeName(topology.NodeID(hot)), g.Spec())
		}
		cfg.Traffic.HotNode = topology.NodeID(hot)
	case "multicast":
		cfg.Traffic.Multicast = 1
	case "broadcast":
		cfg.Traffic.Broadcast = 1
	default:
		return cfg, props.FieldErrorf("{Options.Traffic} %q: want uniform, hotspot, multicast or broadcast", o.Traffic)
	}
	if o.B >= 0 {
		cfg.Traffic.Broadcast = o.B
	}
	if o.Multicast >= 0 {
		cfg.Traffic.Multicast = o.Multicast
	}
	if err := simAlgorithm(g, o, &cfg); err != nil {
		return cfg, err
	}
	// Validate now so that bad values are errors with the simulator's wording.
	probe := cfg
	probe.Cycles, probe.Warmup, probe.Traffic.Rate = 1, 0, 0
	if _, err := sim.Run(probe); err != nil {
		return cfg, err
	}
	return cfg, nil
}

// simAlgorithm sets how cfg's broadcasts and multicasts travel: a collective schedule,
// separate unicasts, the pruned tree (000) or path-based worms (dual-path, multipath, pm).
func simAlgorithm(g *topology.Network, o Options, cfg *sim.Config) error {
	switch o.Algo {
	case "", "unicast", "separate":
	default:
		if err := requireRouting(g, o, "{Options.Algo} %s", o.Algo); err != nil {
			return err
		}
	}
	if cfg.Traffic.Broadcast > 0 && (o.Algo == "" || o.Algo == "unicast" || o.Algo == "separate") {
		if err := requireRouting(g, o, "a broadcast ({Options.B}, {Options.Traffic} broadcast)"); err != nil {
			return err
		}
	}
	if build, ok := broadcastBuilder(o.Algo); ok {
		if _, err := build(g, 0); err != nil {
			return props.FieldErrorf("{Options.Algo} %s on %s: %v", o.Algo, g.Spec(), err)
		}
		cfg.BroadcastSchedule = func(src topology.NodeID) (*model.Schedule, error) { return build(g, src) }
		return nil
	}
	if build, ok := multicastBuilder(o.Algo); ok {
		cfg.MulticastSchedule = func(src topology.NodeID, dests []topology.NodeID) (*model.Schedule, error) {
			return build(g, src, dests)
		}
		return nil
	}
	switch o.Algo {
	case "", "unicast", "separate":
	case "tree":
		p, err := flit.ParsePrune(o.Prune)
		if err != nil {
			return props.FieldErrorf("{Options.Prune}: %v", err)
		}
		cfg.Tree, cfg.Prune = true, p
	case "dual-path", "multipath", "pm":
		cfg.Multicast, _ = pathbased.SimMulticast(g, o.Algo)
		if g.Kind() != topology.Mesh || g.Dims() != 2 {
			return props.FieldErrorf("{Options.Algo} %s: path-based multicast needs a 2-D mesh, not %s", o.Algo, g.Spec())
		}
	default:
		return props.FieldErrorf("{Options.Algo} %q: want separate, tree, dual-path, multipath, pm or a collective (%s)", o.Algo, strings.Join(scheduleNames(), ", "))
	}
	return nil
}

// simBounds refuses traffic that no network can carry and runs too large to finish: an
// offered load above what a node can inject (its injection channels, each one flit a
// cycle), whose source queues would grow until memory runs out, and more than
// maxNodeCycles of work. Messages name the field to change.
func simBounds(g *topology.Network, o Options, cfg sim.Config) error {
	inject := 2 * g.Dims()
	if g.IsGraph() {
		// The endpoint with the fewest channels out (a terminal's one) fills first.
		inject = g.Nodes()
		for _, v := range g.Endpoints() {
			inject = min(inject, len(g.AppendOut(nil, v)))
		}
	}
	if cfg.Ports == model.OnePort {
		inject = 1
	}
	offered := cfg.Traffic.Rate * float64(cfg.Length)
	if offered > float64(inject) {
		flag, most := "{Options.Rate}", float64(inject)/float64(cfg.Length)
		if o.Load > 0 {
			flag, most = "{Options.Load}", float64(inject)
		}
		return props.FieldErrorf(flag+": %.4g flits/node/cycle is more than a node of %s can inject (%d flits a cycle, %s), so its queue would grow without bound; use at most "+flag+" %.4g",
			offered, g.Spec(), inject, cfg.Ports, most)
	}
	// In floating point: --warmup + --cycles may exceed int64.
	cycles := float64(o.Warmup) + float64(o.Cycles)
	if work := float64(g.Nodes()) * cycles; work > maxNodeCycles {
		return props.FieldErrorf("{Options.Cycles}: %s has %d nodes, and %.4g cycles of it ({Options.Warmup} %d + {Options.Cycles} %d) are %.3g node-cycles, more than the %.0g sim attempts (about an hour); lower {Options.Cycles} and {Options.Warmup} or simulate a smaller network",
			g.Spec(), g.Nodes(), cycles, o.Warmup, o.Cycles, work, maxNodeCycles)
	}
	return nil
}

// sampleDests draws k distinct nodes other than src, reproducibly from seed, sorted.
func sampleDests(n int, src topology.NodeID, k int, seed uint64) []topology.NodeID {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	perm := rng.Perm(n)
	var out []topology.NodeID
	for _, v := range perm {
		if topology.NodeID(v) != src && len(out) < k {
			out = append(out, topology.NodeID(v))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// parseDests parses a destination count range: "MIN..MAX" or a single count "K".
func parseDests(s string) (mn, mx int, err error) {
	lo, hi, ok := strings.Cut(s, "..")
	if !ok {
		hi = lo
	}
	mn, err1 := strconv.Atoi(lo)
	mx, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil || mn < 1 || mx < mn || mx > topology.MaxNodes {
		return 0, 0, props.FieldErrorf("{Options.Dests} %q: want MIN..MAX with 1 <= MIN <= MAX, e.g. 4..25", s)
	}
	return mn, mx, nil
}

// vcCount is the number of virtual channels cfg simulates: cfg.VCs, or when that is 0 the
// simulator's default of one VC per dateline class of the routing.
func vcCount(cfg sim.Config) int {
	if cfg.VCs != 0 {
		return cfg.VCs
	}
	if cfg.Relation != nil {
		return max(cfg.Relation.VCs(), 1)
	}
	r := cfg.Routing
	if r.Grid == nil {
		r = topology.NewDOR(cfg.Grid)
	}
	return r.Classes()
}

// latencyModel evaluates the latency model that applies to cfg (analytic.LatencyModel: 003
// on hypercubes, the zero-load latency elsewhere), to print beside the simulation.
func latencyModel(g *topology.Network, cfg sim.Config) *analytic.Estimate {
	e := analytic.LatencyModel(analytic.Traffic{Grid: g, Ports: cfg.Ports, VCs: cfg.VCs, Length: cfg.Length, Ts: cfg.Ts, Tr: cfg.Tr,
		Rate: cfg.Traffic.Rate, Broadcast: cfg.Traffic.Broadcast, Multicast: cfg.Traffic.Multicast, HotSpot: cfg.Traffic.HotSpot,
		Route: routeOf(cfg)})
	return &e
}

// routeOf is the route of a worm of cfg between two endpoints when a relation routes
// them, nil under dimension order.
func routeOf(cfg sim.Config) func(src, dst topology.NodeID) ([]topology.Hop, error) {
	rel, sel := cfg.Relation, cfg.Selection
	if rel == nil {
		return nil
	}
	return func(src, dst topology.NodeID) ([]topology.Hop, error) { return sel.Path(rel, src, dst) }
}

// trafficReport is the report object of one traffic simulation: its instance, the
// measured result, the model beside it and the run's speed; version is the tool's.
func trafficReport(version string, g *topology.Network, algo string, cfg sim.Config, res *sim.Result, m *analytic.Estimate, secs float64) *TrafficReport {
	mo := ModelFigures{Name: m.Name}
	if m.Err != "" {
		mo.Error = m.Err
	} else {
		u := m.Unicast
		mo.Unicast = &u
		if m.Broadcast != 0 {
			b := m.Broadcast
			mo.Broadcast = &b
		}
	}
	params := TrafficParams{Rate: cfg.Traffic.Rate, Length: cfg.Length, VCs: cfg.VCs, Buffers: cfg.Buffer, Ts: cfg.Ts, Tr: cfg.Tr,
		Ports: cfg.Ports.String(), Process: cfg.Traffic.Process.String(), Broadcast: cfg.Traffic.Broadcast,
		Multicast: cfg.Traffic.Multicast, HotSpot: cfg.Traffic.HotSpot, Seed: cfg.Seed, Warmup: cfg.Warmup, Cycles: cfg.Cycles}
	if cfg.Relation != nil {
		params.Routing, params.Selection = cfg.Relation.Name(), cfg.Selection.String()
	}
	return &TrafficReport{Header: header(version),
		Instance: TrafficInstance{Topology: g.Spec(), Algorithm: algo, Parameters: params},
		Result: TrafficResult{Cycles: res.Cycles, Generated: res.Generated, Completed: res.Completed,
			FlitHops: res.FlitHops, Accepted: res.Accepted, Saturated: res.Saturated, Deadlocked: res.Deadlocked,
			Unicast: latencyStat(res.Unicast), Broadcast: latencyStat(res.Broadcast), Multicast: latencyStat(res.Multicast)},
		Model: mo,
		Stats: Speed{Seconds: secs, CyclesPerSec: float64(res.Cycles) / secs, FlitHopsPerSec: float64(res.FlitHops) / secs},
	}
}

// sweepPoint is one load of a latency-vs-load sweep: the offered load (flits/node/cycle),
// the simulated latency of the traffic's main class (NaN once saturated) with its 95%
// half-width, the model's, and the broadcast latencies of hybrid traffic (003).
type sweepPoint struct {
	Load, Sim, CI, Model           float64
	Broadcast, BroadcastCI, BModel float64
	Saturated                      bool
}

// newSweepPoint reads one sweep point off the run of cfg: the multicast latency when all
// traffic is multicast, the broadcast latency when all is broadcast, else the unicast one.
func newSweepPoint(cfg sim.Config, res *sim.Result, m *analytic.Estimate) sweepPoint {
	p := sweepPoint{Load: cfg.Traffic.Rate * float64(cfg.Length), Sim: res.Unicast.Mean, CI: res.Unicast.CI95, Model: m.Unicast,
		Broadcast: res.Broadcast.Mean, BroadcastCI: res.Broadcast.CI95, BModel: m.Broadcast, Saturated: res.Saturated}
	if cfg.Traffic.Multicast >= 1 {
		p.Sim, p.CI = res.Multicast.Mean, res.Multicast.CI95
	} else if cfg.Traffic.Broadcast >= 1 {
		p.Sim, p.CI, p.Model = res.Broadcast.Mean, res.Broadcast.CI95, m.Broadcast
	}
	if res.Saturated {
		p.Sim, p.Broadcast = math.NaN(), math.NaN()
	}
	return p
}

// row is the sweep row of the report at message rate rate.
func (p sweepPoint) row(rate float64) SweepRow {
	return SweepRow{Load: p.Load, Rate: rate, Sim: Figure(p.Sim), Model: Figure(p.Model), Saturated: p.Saturated}
}
