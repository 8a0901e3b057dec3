package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/pcapgo"

	"github.com/wormcheck/wormcheck/algos/analytic"
	"github.com/wormcheck/wormcheck/algos/dcf"
	"github.com/wormcheck/wormcheck/algos/edn"
	"github.com/wormcheck/wormcheck/algos/pathbased"
	"github.com/wormcheck/wormcheck/algos/sbt"
	"github.com/wormcheck/wormcheck/algos/unicastmc"
	"github.com/wormcheck/wormcheck/algos/zblock"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flitwire"
)

const simHelp = `wormcheck sim --topo T [flags]

Times traffic or a collective in the flit-level wormhole simulator (checker/sim):
V virtual channels per channel with demand-slotted round robin, B-flit buffers, one-port
or all-port nodes, software latencies ts (per send, serialised) and tr (per receive).

Traffic mode (default): Poisson or Bernoulli sources at --rate messages/node/cycle (or
--load flits/node/cycle = rate x length); --traffic uniform | hotspot | multicast |
broadcast; mixes with --b (broadcast fraction, hypercubes: 003's SBT broadcast) and
--multicast (fraction, --dests MIN..MAX destinations). Multicasts go by --algo
separate (unicast per destination, default), dual-path, multipath or pm (2-D meshes).
Prints mean latencies with 95% confidence half-widths (batch means), accepted traffic,
and, on hypercubes, the 003 analytical model beside them.

Collective mode: --algo NAME without --rate/--load executes a unicast-based collective (
broadcasts dcf, edn, zblock, sbt; multicasts umesh, utorus, spu to --dests K random
destinations) runs it at zero load with real channel arbitration and prints the
completion time, the contention-free timed-model time, the paper's formula where one
exists (004 §6.1 DCF/EDN, 001 §4.2 U-torus) and the first contending pair. With --rate or
--load the same names realise the broadcasts (--b) or multicasts of random traffic.

Examples:
  wormcheck sim --topo torus:32x32 --algo edn --length 128
  wormcheck sim --topo hypercube:6 --rate 0.01 --b 0.01 --vcs 3 --ts 1 --plot hb.svg
  wormcheck sim --topo mesh:8x8 --traffic multicast --algo dual-path --dests 4..11 --load 0.01 --length 2

Tree-based multicast with pruning (000 §2-§4): --algo tree [--prune on-stop|on-no-free|none]
(format d1, data, d2..dn; branches by DOR at routers, data re-injected from the auxiliary
buffer). --compare tree,separate,dual-path,pm runs 000 §5.3's comparison: multicast-only
traffic with each --compare-dests count, --points loads up to --load (data flits
delivered per node per cycle, the same traffic for every algorithm), a table of mean
latencies and the reduction of tree against separate, and with --plot one SVG series per
algorithm and count:
  wormcheck sim --topo mesh:8x8 --compare tree,separate,dual-path,pm --ports one --length 2 --load 0.3 --plot m.svg

--plot F.svg sweeps --points loads up to --load/--rate and draws latency vs load, the
simulation beside the model (003 on hypercubes; the zero-load latency elsewhere).

Flags:
`

func init() {
	registerCommand(&command{Name: "sim", Summary: "timed flit-level simulation, with the formula or model beside it", Help: simHelp, Run: runSim})
	simScheduleBuilders["dcf"] = dcf.Build
	simScheduleBuilders["edn"] = edn.Build
	simScheduleBuilders["zblock"] = zblock.Build
	simScheduleBuilders["sbt"] = func(g *model.Grid, src model.NodeID) (*model.Schedule, error) { return sbt.Build(g, src, 0) }
	for _, sc := range []unicastmc.Scheme{unicastmc.UMesh, unicastmc.UTorus, unicastmc.SPU} {
		simMulticastBuilders[sc.String()] = func(g *model.Grid, src model.NodeID, dests []model.NodeID) (*model.Schedule, error) {
			return unicastmc.Build(g, sc, unicastmc.Multicast{Source: src, Destinations: dests})
		}
	}
}

// simScheduleBuilders are the broadcast algorithms `sim --algo` can execute alone (no
// --rate/--load) or use for the broadcasts of random traffic; families that build
// model.Schedules add themselves here.
var simScheduleBuilders = map[string]func(g *model.Grid, src model.NodeID) (*model.Schedule, error){}

// simMulticastBuilders are the unicast-based multicast algorithms (U-torus, U-mesh,
// SPU...) that random multicast traffic can use with --algo.
var simMulticastBuilders = map[string]func(g *model.Grid, src model.NodeID, dests []model.NodeID) (*model.Schedule, error){}

type simFlags struct {
	topo, traffic, algo, ports, process, dests, plot string
	trace, prune, compare, compareDests, compareLoad string
	traceLimit                                       int
	load, rate, b, mcast, hotspot                    float64
	hotNode, length, vcs, buffers, ts, tr, points    int
	cycles, warmup                                   int64
	seed                                             uint64
	json, progress, mser, dateline                   bool
	src                                              int
}

func defineSimFlags(fs *flag.FlagSet, f *simFlags) {
	fs.StringVar(&f.topo, "topo", "", "topology spec: mesh:8x8, torus:8x8, hypercube:6")
	fs.StringVar(&f.traffic, "traffic", "uniform", "uniform, hotspot, multicast or broadcast")
	fs.StringVar(&f.algo, "algo", "", "multicast routing (separate, tree, dual-path, multipath, pm) or a collective schedule algorithm")
	fs.StringVar(&f.ports, "ports", "all", "node port model: all or one")
	fs.StringVar(&f.process, "process", "poisson", "arrival process: poisson or bernoulli")
	fs.StringVar(&f.dests, "dests", "4..25", "multicast destination count MIN..MAX")
	fs.StringVar(&f.plot, "plot", "", "write a latency-vs-load SVG to this file")
	fs.StringVar(&f.prune, "prune", "on-stop", "tree multicast pruning: on-stop, on-no-free or none")
	fs.StringVar(&f.compare, "compare", "", "000 §5.3 comparison: multicast algorithms to compare (e.g. tree,separate,dual-path,pm) over --points loads up to --load")
	fs.StringVar(&f.compareDests, "compare-dests", "4,11,18,25", "destination counts of a --compare run (each a fixed count)")
	fs.StringVar(&f.compareLoad, "compare-loads", "", "explicit loads of a --compare run, e.g. 0.005,0.05,0.1 (instead of --points up to --load)")
	fs.Float64Var(&f.load, "load", 0, "offered load in flits/node/cycle (rate x length); 0.05 when neither --load nor --rate is given")
	fs.Float64Var(&f.rate, "rate", 0, "messages generated per node per cycle")
	fs.Float64Var(&f.b, "b", -1, "broadcast fraction (hypercubes)")
	fs.Float64Var(&f.mcast, "multicast", -1, "multicast fraction")
	fs.Float64Var(&f.hotspot, "hotspot", 0.1, "hot-spot probability p for --traffic hotspot")
	fs.IntVar(&f.hotNode, "hot-node", -1, "hot-spot node id (default: the centre)")
	fs.IntVar(&f.length, "length", 32, "message length in flits")
	fs.IntVar(&f.vcs, "vcs", 0, "virtual channels per physical channel (0: what the routing needs; 1 in collective mode)")
	fs.IntVar(&f.buffers, "buffers", 2, "flits of buffer per virtual channel")
	fs.IntVar(&f.ts, "ts", 0, "software send latency (cycles)")
	fs.IntVar(&f.tr, "tr", 0, "software receive latency (cycles)")
	fs.IntVar(&f.points, "points", 8, "loads in a --plot sweep")
	fs.Int64Var(&f.cycles, "cycles", 20000, "measurement window in cycles")
	fs.Int64Var(&f.warmup, "warmup", 5000, "warm-up cycles before statistics")
	fs.Uint64Var(&f.seed, "seed", 1, "random seed")
	fs.IntVar(&f.src, "source", 0, "source node of a collective")
	fs.StringVar(&f.trace, "trace", "", "write every flit move as a pcap file (LINKTYPE_USER2; wormcheck dissector decodes it)")
	fs.IntVar(&f.traceLimit, "trace-limit", 1000000, "at most this many pcap records")
	fs.BoolVar(&f.mser, "mser", false, "also drop the initial transient by the MSER-5 rule")
	fs.BoolVar(&f.dateline, "dateline", false, "collective mode on tori: split the VCs into the two dateline classes (needs --vcs 2)")
	fs.BoolVar(&f.json, "json", false, "print one JSON object")
	fs.BoolVar(&f.progress, "progress", false, "show progress on stderr (at most once a second)")
}

func runSim(ctx context.Context, e *env, args []string) (int, error) {
	fs := newFlagSet("sim")
	var f simFlags
	defineSimFlags(fs, &f)
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, errHelp) {
			io.WriteString(e.Stdout, simHelp)
			flagHelp(e.Stdout, fs)
			return exitHolds, nil
		}
		return exitUsage, err
	}
	if f.topo == "" {
		return exitUsage, usagef("--topo is required (e.g. mesh:8x8)")
	}
	g, err := model.ParseGrid(f.topo)
	if err != nil {
		return exitUsage, usagef("--topo: %v", err)
	}
	if f.compare != "" {
		return runSimCompare(ctx, e, g, f)
	}
	if build, ok := simScheduleBuilders[f.algo]; ok && f.rate == 0 && f.load == 0 {
		return runSimCollective(e, g, f, build)
	}
	if build, ok := simMulticastBuilders[f.algo]; ok && f.rate == 0 && f.load == 0 {
		// One multicast to --dests MIN random destinations (seeded), at zero load.
		k, _, err := parseDests(f.dests)
		if err != nil {
			return exitUsage, err
		}
		if k >= g.Nodes() {
			return exitUsage, usagef("--dests %d: %s has only %d other nodes", k, g.Spec(), g.Nodes()-1)
		}
		dests := sampleDests(g.Nodes(), model.NodeID(f.src), k, f.seed)
		return runSimCollective(e, g, f, func(g *model.Grid, src model.NodeID) (*model.Schedule, error) { return build(g, src, dests) })
	}
	cfg, err := simConfig(g, f)
	if err != nil {
		return exitUsage, err
	}
	if f.progress || e.StderrIsTerminal {
		last := time.Now()
		start := last
		cfg.Progress = func(cycle, hops int64) {
			if now := time.Now(); now.Sub(last) >= time.Second {
				last = now
				el := now.Sub(start).Seconds()
				fmt.Fprintf(e.Stderr, "sim: cycle %d, %.0f cycles/s, %.0f flit-hops/s\n", cycle, float64(cycle)/el, float64(hops)/el)
			}
		}
	}
	if f.plot != "" {
		return runSimSweep(ctx, e, g, f, cfg)
	}
	tw, err := newTraceWriter(f)
	if err != nil {
		return exitUsage, err
	}
	if tw != nil {
		cfg.Trace = tw.add
	}
	start := time.Now()
	res, err := sim.Run(cfg)
	if err != nil {
		return exitUsage, err
	}
	if err := tw.close(); err != nil {
		return exitUsage, err
	}
	secs := time.Since(start).Seconds()
	mdl := simModel(g, f, cfg)
	if f.json {
		return exitHolds, writeJSON(e.Stdout, simJSON(g, f, cfg, res, mdl, secs))
	}
	printSim(e.Stdout, g, f, cfg, res, mdl, secs)
	return exitHolds, nil
}

// simConfig turns the flags into a simulator configuration; errors are usage errors.
func simConfig(g *model.Grid, f simFlags) (sim.Config, error) {
	cfg := sim.Config{Grid: g, VCs: f.vcs, Buffer: f.buffers, Length: f.length, Ts: f.ts, Tr: f.tr,
		Seed: f.seed, Warmup: f.warmup, Cycles: f.cycles, MSER: f.mser}
	if g.Kind() == model.Hypercube {
		cfg.Routing = model.DOR{Grid: g, Order: model.DescendingOrder(g.Dims())}
	}
	switch f.ports {
	case "all":
		cfg.Ports = model.AllPort
	case "one":
		cfg.Ports = model.OnePort
	default:
		return cfg, usagef("--ports %q: want all or one", f.ports)
	}
	switch f.process {
	case "poisson":
	case "bernoulli":
		cfg.Traffic.Process = sim.Bernoulli
	default:
		return cfg, usagef("--process %q: want poisson or bernoulli", f.process)
	}
	if f.length < 1 {
		return cfg, usagef("--length %d: a message has at least one flit", f.length)
	}
	switch {
	case f.rate > 0 && f.load > 0:
		return cfg, usagef("--rate and --load: give one of them")
	case f.rate > 0:
		cfg.Traffic.Rate = f.rate
	case f.load > 0:
		cfg.Traffic.Rate = f.load / float64(f.length)
	default:
		// Neither given: a light load that is below saturation on every built-in size.
		cfg.Traffic.Rate = defaultSimLoad / float64(f.length)
	}
	mn, mx, err := parseDests(f.dests)
	if err != nil {
		return cfg, err
	}
	cfg.Traffic.MinDests, cfg.Traffic.MaxDests = mn, mx
	switch f.traffic {
	case "uniform":
	case "hotspot":
		cfg.Traffic.HotSpot = f.hotspot
		hot := f.hotNode
		if hot < 0 {
			c := make([]int, g.Dims())
			for d := range c {
				c[d] = g.Size(d) / 2
			}
			hot = int(g.Node(c...))
		}
		if hot >= g.Nodes() {
			return cfg, usagef("--hot-node %d: %s has %d nodes", hot, g.Spec(), g.Nodes())
		}
		cfg.Traffic.HotNode = model.NodeID(hot)
	case "multicast":
		cfg.Traffic.Multicast = 1
	case "broadcast":
		cfg.Traffic.Broadcast = 1
	default:
		return cfg, usagef("--traffic %q: want uniform, hotspot, multicast or broadcast", f.traffic)
	}
	if f.b >= 0 {
		cfg.Traffic.Broadcast = f.b
	}
	if f.mcast >= 0 {
		cfg.Traffic.Multicast = f.mcast
	}
	if build, ok := simScheduleBuilders[f.algo]; ok {
		if _, err := build(g, 0); err != nil {
			return cfg, usagef("--algo %s on %s: %v", f.algo, g.Spec(), err)
		}
		cfg.BroadcastSchedule = func(src model.NodeID) (*model.Schedule, error) { return build(g, src) }
	} else if build, ok := simMulticastBuilders[f.algo]; ok {
		cfg.MulticastSchedule = func(src model.NodeID, dests []model.NodeID) (*model.Schedule, error) { return build(g, src, dests) }
	} else {
		switch f.algo {
		case "", "unicast", "separate":
		case "tree":
			p, err := sim.ParsePrune(f.prune)
			if err != nil {
				return cfg, usagef("--prune: %v", err)
			}
			cfg.Tree, cfg.Prune = true, p
		case "dual-path", "multipath", "pm":
			build, _ := pathbased.ByName(f.algo)
			cfg.Multicast = func(src model.NodeID, dests []model.NodeID) ([]sim.Route, error) {
				worms, err := build(g, src, dests)
				if err != nil {
					return nil, err
				}
				out := make([]sim.Route, len(worms))
				for i, w := range worms {
					out[i] = sim.Route{Channels: w.Channels, Drops: w.Drops}
				}
				return out, nil
			}
			if g.Kind() != model.Mesh || g.Dims() != 2 {
				return cfg, usagef("--algo %s: path-based multicast needs a 2-D mesh, not %s", f.algo, g.Spec())
			}
		default:
			return cfg, usagef("--algo %q: want separate, tree, dual-path, multipath, pm or a collective (%s)", f.algo, strings.Join(scheduleNames(), ", "))
		}
	}
	// Validate now so that bad values are usage errors with the simulator's wording.
	probe := cfg
	probe.Cycles, probe.Warmup, probe.Traffic.Rate = 1, 0, 0
	if _, err := sim.Run(probe); err != nil {
		return cfg, usagef("%v", err)
	}
	return cfg, nil
}

// sampleDests draws k distinct nodes other than src, reproducibly from seed.
func sampleDests(n int, src model.NodeID, k int, seed uint64) []model.NodeID {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	perm := rng.Perm(n)
	var out []model.NodeID
	for _, v := range perm {
		if model.NodeID(v) != src && len(out) < k {
			out = append(out, model.NodeID(v))
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// parseDests parses --dests: "MIN..MAX" or a single count "K".
func parseDests(s string) (mn, mx int, err error) {
	lo, hi, ok := strings.Cut(s, "..")
	if !ok {
		hi = lo
	}
	mn, err1 := strconv.Atoi(lo)
	mx, err2 := strconv.Atoi(hi)
	if err1 != nil || err2 != nil || mn < 1 || mx < mn || mx > model.MaxNodes {
		return 0, 0, usagef("--dests %q: want MIN..MAX with 1 <= MIN <= MAX, e.g. 4..25", s)
	}
	return mn, mx, nil
}

func scheduleNames() []string {
	var names []string
	for n := range simScheduleBuilders {
		names = append(names, n)
	}
	for n := range simMulticastBuilders {
		names = append(names, n)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return []string{"none linked in"}
	}
	return names
}

// simModelResult is the analytical figure shown beside a simulation.
type simModelResult struct {
	Name      string  `json:"name"`
	Unicast   float64 `json:"unicast"`
	Broadcast float64 `json:"broadcast,omitempty"`
	Err       string  `json:"error,omitempty"`
}

// simModel evaluates the model that applies: 003 on hypercubes (all-port, uniform
// unicast + broadcast), else the zero-load unicast latency ts + h̄ + L + tr.
func simModel(g *model.Grid, f simFlags, cfg sim.Config) *simModelResult {
	if g.Kind() == model.Hypercube && cfg.Traffic.Multicast == 0 && cfg.Traffic.HotSpot == 0 && cfg.Ports == model.AllPort {
		r, err := analytic.HypercubeLatency(analytic.HypercubeParams{N: g.Dims(), V: max(cfg.VCs, 1), M: cfg.Length,
			B: cfg.Traffic.Broadcast, Rate: cfg.Traffic.Rate, Delta: float64(cfg.Ts)})
		m := &simModelResult{Name: "003 model"}
		if err != nil {
			m.Err = err.Error()
			m.Unicast, m.Broadcast = math.NaN(), math.NaN()
			return m
		}
		m.Unicast, m.Broadcast = r.Unicast+float64(cfg.Tr), r.Broadcast
		return m
	}
	var sum float64
	N := g.Nodes()
	for a := 0; a < N; a++ {
		for b := 0; b < N; b++ {
			if a != b {
				sum += float64(g.Distance(model.NodeID(a), model.NodeID(b)))
			}
		}
	}
	h := sum / float64(N*(N-1))
	return &simModelResult{Name: "zero-load latency", Unicast: float64(cfg.Ts) + h + float64(cfg.Length) + float64(cfg.Tr)}
}

func simJSON(g *model.Grid, f simFlags, cfg sim.Config, res *sim.Result, m *simModelResult, secs float64) map[string]any {
	clean := func(s sim.Stat) map[string]any {
		o := map[string]any{"n": s.N, "max": s.Max}
		if !math.IsNaN(s.Mean) {
			o["mean"] = s.Mean
		}
		if !math.IsNaN(s.CI95) {
			o["ci95"] = s.CI95
		}
		return o
	}
	mo := map[string]any{"name": m.Name}
	if m.Err != "" {
		mo["error"] = m.Err
	} else {
		mo["unicast"] = m.Unicast
		if m.Broadcast != 0 {
			mo["broadcast"] = m.Broadcast
		}
	}
	return map[string]any{
		"version": toolVersion(), "command": "sim", "semantics": "sim",
		"instance": map[string]any{"topology": g.Spec(), "algorithm": f.algo, "parameters": map[string]any{
			"rate": cfg.Traffic.Rate, "length": cfg.Length, "vcs": cfg.VCs, "buffers": cfg.Buffer, "ts": cfg.Ts, "tr": cfg.Tr,
			"ports": cfg.Ports.String(), "process": cfg.Traffic.Process.String(), "broadcast": cfg.Traffic.Broadcast,
			"multicast": cfg.Traffic.Multicast, "hotspot": cfg.Traffic.HotSpot, "seed": cfg.Seed, "warmup": cfg.Warmup, "cycles": cfg.Cycles}},
		"result": map[string]any{"cycles": res.Cycles, "generated": res.Generated, "completed": res.Completed,
			"flit_hops": res.FlitHops, "accepted": res.Accepted, "saturated": res.Saturated, "deadlocked": res.Deadlocked,
			"unicast": clean(res.Unicast), "broadcast": clean(res.Broadcast), "multicast": clean(res.Multicast)},
		"model": mo,
		"stats": map[string]any{"seconds": secs, "cycles_per_sec": float64(res.Cycles) / secs, "flit_hops_per_sec": float64(res.FlitHops) / secs},
	}
}

func printSim(w io.Writer, g *model.Grid, f simFlags, cfg sim.Config, res *sim.Result, m *simModelResult, secs float64) {
	vcs := cfg.VCs
	if vcs == 0 { // the simulator's default: one VC per dateline class
		r := cfg.Routing
		if r.Grid == nil {
			r = model.NewDOR(g)
		}
		vcs = r.Classes()
	}
	fmt.Fprintf(w, "sim %s: rate %.5g msg/node/cycle (%.4g flits), L=%d, V=%d, B=%d, %s, ts=%d tr=%d, seed %d\n",
		g.Spec(), cfg.Traffic.Rate, cfg.Traffic.Rate*float64(cfg.Length), cfg.Length, vcs, cfg.Buffer, cfg.Ports, cfg.Ts, cfg.Tr, cfg.Seed)
	line := func(name string, s sim.Stat) {
		if s.N > 0 {
			fmt.Fprintf(w, "  %-9s latency %.2f ± %.2f cycles over %d messages (max %d)\n", name, s.Mean, s.CI95, s.N, s.Max)
		}
	}
	line("unicast", res.Unicast)
	line("broadcast", res.Broadcast)
	line("multicast", res.Multicast)
	fmt.Fprintf(w, "  accepted %.4f flits/node/cycle; %d cycles, %d flit-hops in %.2fs (%.0f flit-hops/s)\n", res.Accepted, res.Cycles, res.FlitHops, secs, float64(res.FlitHops)/secs)
	if res.Saturated {
		fmt.Fprintln(w, "  SATURATED: measured messages did not drain; the latencies are lower bounds")
	}
	if m.Err != "" {
		fmt.Fprintf(w, "  %s: %s\n", m.Name, m.Err)
	} else if m.Broadcast != 0 {
		fmt.Fprintf(w, "  %s: unicast %.2f, broadcast %.2f\n", m.Name, m.Unicast, m.Broadcast)
	} else {
		fmt.Fprintf(w, "  %s: unicast %.2f\n", m.Name, m.Unicast)
	}
}

// runSimSweep simulates --points loads up to the given one and draws the SVG.
func runSimSweep(ctx context.Context, e *env, g *model.Grid, f simFlags, cfg sim.Config) (int, error) {
	if f.points < 2 || f.points > 100 {
		return exitUsage, usagef("--points %d: want 2..100", f.points)
	}
	top := cfg.Traffic.Rate
	var xs, simY, modY []float64
	var rows []map[string]any
	for i := 1; i <= f.points; i++ {
		if err := ctx.Err(); err != nil {
			return exitInconclusive, err
		}
		c := cfg
		c.Traffic.Rate = top * float64(i) / float64(f.points)
		res, err := sim.Run(c)
		if err != nil {
			return exitUsage, err
		}
		m := simModel(g, f, c)
		load := c.Traffic.Rate * float64(c.Length)
		y := res.Unicast.Mean
		my := m.Unicast
		if c.Traffic.Multicast >= 1 {
			y = res.Multicast.Mean
		} else if c.Traffic.Broadcast >= 1 {
			y, my = res.Broadcast.Mean, m.Broadcast
		}
		if res.Saturated {
			y = math.NaN()
		}
		xs, simY, modY = append(xs, load), append(simY, y), append(modY, my)
		rows = append(rows, map[string]any{"load": load, "rate": c.Traffic.Rate, "sim": nanNil(y), "model": nanNil(my), "saturated": res.Saturated})
		if !f.json {
			fmt.Fprintf(e.Stdout, "load %.4f: sim %.2f, %s %.2f%s\n", load, y, m.Name, my, map[bool]string{true: " (saturated)"}[res.Saturated])
		}
	}
	name := simModel(g, f, cfg).Name
	svg := latencySVG(fmt.Sprintf("%s, L=%d, V=%d", g.Spec(), cfg.Length, cfg.VCs), xs, []series{{"simulation", simY, "#1f77b4", false}, {name, modY, "#d62728", true}})
	if err := os.WriteFile(f.plot, svg, 0o644); err != nil {
		return exitUsage, usagef("--plot %s: %v", f.plot, err)
	}
	if f.json {
		return exitHolds, writeJSON(e.Stdout, map[string]any{"version": toolVersion(), "command": "sim", "semantics": "sim",
			"instance": map[string]any{"topology": g.Spec(), "algorithm": f.algo}, "sweep": rows, "plot": f.plot})
	}
	return exitHolds, nil
}

func nanNil(x float64) any {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return nil
	}
	return x
}

// series is one line of a plot; NaN points are gaps.
type series struct {
	Name   string
	Y      []float64
	Color  string
	Dashed bool
}

// latencySVG draws latency against offered load: axes with ticks, one polyline with
// markers per series, and a legend. Pure: the same data give the same bytes.
func latencySVG(title string, xs []float64, ss []series) []byte {
	const W, H, left, right, top, bottom = 640.0, 420.0, 70.0, 20.0, 40.0, 50.0
	xmax, ymax := 0.0, 0.0
	for _, x := range xs {
		xmax = math.Max(xmax, x)
	}
	for _, s := range ss {
		for _, y := range s.Y {
			if !math.IsNaN(y) && !math.IsInf(y, 0) {
				ymax = math.Max(ymax, y)
			}
		}
	}
	if xmax <= 0 {
		xmax = 1
	}
	if ymax <= 0 {
		ymax = 1
	}
	xstep, ystep := niceStep(xmax), niceStep(ymax)
	xmax = math.Ceil(xmax/xstep) * xstep
	ymax = math.Ceil(ymax/ystep) * ystep
	px := func(x float64) float64 { return left + x/xmax*(W-left-right) }
	py := func(y float64) float64 { return H - bottom - y/ymax*(H-top-bottom) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" font-family="sans-serif" font-size="12">`+"\n", W, H)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%.0f" y="22" text-anchor="middle" font-size="14">%s</text>`+"\n", W/2, xmlEscape(title))
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", left, H-bottom, W-right, H-bottom)
	fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/>`+"\n", left, top, left, H-bottom)
	for x := 0.0; x <= xmax+xstep/2; x += xstep {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="black"/><text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`+"\n",
			px(x), H-bottom, px(x), H-bottom+5, px(x), H-bottom+18, fmtTick(x))
	}
	for y := 0.0; y <= ymax+ystep/2; y += ystep {
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="#ddd"/><text x="%.1f" y="%.1f" text-anchor="end">%s</text>`+"\n",
			left, py(y), W-right, py(y), left-6, py(y)+4, fmtTick(y))
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="middle">offered load (flits/node/cycle)</text>`+"\n", (left+W-right)/2, H-12)
	fmt.Fprintf(&b, `<text x="16" y="%.0f" text-anchor="middle" transform="rotate(-90 16 %.0f)">mean latency (cycles)</text>`+"\n", (top+H-bottom)/2, (top+H-bottom)/2)
	for i, s := range ss {
		dash := ""
		if s.Dashed {
			dash = ` stroke-dasharray="6 4"`
		}
		var pts []string
		flush := func() {
			if len(pts) > 1 {
				fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2"%s points="%s"/>`+"\n", s.Color, dash, strings.Join(pts, " "))
			}
			pts = pts[:0]
		}
		for j, y := range s.Y {
			if j >= len(xs) || math.IsNaN(y) || math.IsInf(y, 0) {
				flush()
				continue
			}
			pts = append(pts, fmt.Sprintf("%.1f,%.1f", px(xs[j]), py(y)))
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>`+"\n", px(xs[j]), py(y), s.Color)
		}
		flush()
		ly := top + 8 + float64(i)*18
		fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="2"%s/><text x="%.1f" y="%.1f">%s</text>`+"\n",
			left+12, ly, left+40, ly, s.Color, dash, left+46, ly+4, xmlEscape(s.Name))
	}
	b.WriteString("</svg>\n")
	return []byte(b.String())
}

// niceStep returns a 1, 2 or 5 times a power of ten that cuts [0, max] into 4..10 ticks.
func niceStep(max float64) float64 {
	raw := max / 6
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

func fmtTick(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

func xmlEscape(s string) string {
	r := strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;")
	return r.Replace(s)
}

// runSimCollective executes a collective schedule at zero load.
func runSimCollective(e *env, g *model.Grid, f simFlags, build func(*model.Grid, model.NodeID) (*model.Schedule, error)) (int, error) {
	if f.src < 0 || f.src >= g.Nodes() {
		return exitUsage, usagef("--source %d: %s has %d nodes", f.src, g.Spec(), g.Nodes())
	}
	s, err := build(g, model.NodeID(f.src))
	if err != nil {
		return exitUsage, usagef("--algo %s on %s: %v", f.algo, g.Spec(), err)
	}
	vcs := f.vcs
	if vcs == 0 {
		vcs = 1
	}
	tw, err := newTraceWriter(f)
	if err != nil {
		return exitUsage, err
	}
	opt := sim.ScheduleOptions{Ts: f.ts, Tr: f.tr, L: f.length, VCs: vcs, Buffer: f.buffers, Dateline: f.dateline}
	if tw != nil {
		opt.Trace = tw.add
	}
	start := time.Now()
	res, err := sim.ExecuteSchedule(g, s, opt)
	if err != nil {
		return exitUsage, err
	}
	if err := tw.close(); err != nil {
		return exitUsage, err
	}
	secs := time.Since(start).Seconds()
	timed, terr := sim.TimedCompletion(s, g.Nodes(), f.ts, f.tr, f.length)
	formula, ferr := collectiveFormula(g, f, s)
	out := map[string]any{"version": toolVersion(), "command": "sim", "semantics": "sim",
		"instance":   map[string]any{"topology": g.Spec(), "algorithm": f.algo, "parameters": map[string]any{"ts": f.ts, "tr": f.tr, "length": f.length, "vcs": vcs, "buffers": f.buffers, "source": f.src}},
		"completion": res.Completion, "flit_hops": res.FlitHops, "seconds": secs, "contention": res.Contention}
	if terr == nil {
		out["timed_model"] = timed
	}
	if ferr == nil {
		out["formula"] = formula
	}
	if f.json {
		return exitHolds, writeJSON(e.Stdout, out)
	}
	shown := fmt.Sprintf("V=%d", vcs)
	if lanes := s.Lanes(); lanes > 1 {
		shown = fmt.Sprintf("V=%d: %d VC classes", lanes*max(1, vcs/lanes), lanes)
	}
	fmt.Fprintf(e.Stdout, "%s on %s from %s (ts=%d tr=%d L=%d %s): completion %d cycles\n", f.algo, g.Spec(), g.NodeName(model.NodeID(f.src)), f.ts, f.tr, f.length, shown, res.Completion)
	if terr == nil {
		fmt.Fprintf(e.Stdout, "  contention-free timed model: %d\n", timed)
	}
	if ferr == nil {
		fmt.Fprintf(e.Stdout, "  paper's formula: %.0f\n", formula)
	}
	if c := res.Contention; c != nil {
		u, v := s.Unicasts[c.Waiting], s.Unicasts[c.Holding]
		fmt.Fprintf(e.Stdout, "  first contention at cycle %d on %s: %s->%s (step %d) waited for %s->%s (step %d)\n", c.Cycle, c.Name,
			g.NodeName(u.From), g.NodeName(u.To), u.Step, g.NodeName(v.From), g.NodeName(v.To), v.Step)
	} else {
		fmt.Fprintln(e.Stdout, "  no header ever waited: the run is contention-free")
	}
	return exitHolds, nil
}

// collectiveFormula returns the paper's completion formula for the algorithm, if any.
func collectiveFormula(g *model.Grid, f simFlags, s *model.Schedule) (float64, error) {
	t := analytic.Timing{Ts: float64(f.ts), Tr: float64(f.tr), Tc: 1, L: float64(f.length)}
	switch f.algo {
	case "dcf", "edn":
		if g.Kind() != model.Torus || g.Dims() != 2 || g.Size(0) != g.Size(1) {
			return 0, fmt.Errorf("no formula off square 2-D tori")
		}
		return analytic.BroadcastFormula(f.algo, g.Size(0), t)
	case "utorus":
		return analytic.UTorus(len(s.Destinations), t), nil
	}
	return 0, fmt.Errorf("no formula for %s", f.algo)
}

// traceWriter writes flit moves as pcap records (flitwire.SimMove, link type
// LINKTYPE_USER2 = flitwire.LinkTypeSimMoves). Each record's timestamp is 1 s + cycle
// microseconds (never zero, so pcapgo keeps it and traces are reproducible).
type traceWriter struct {
	f     *os.File
	w     *pcapgo.Writer
	n     int
	limit int
	err   error
	buf   []byte
}

func newTraceWriter(f simFlags) (*traceWriter, error) {
	if f.trace == "" {
		return nil, nil
	}
	file, err := os.Create(f.trace)
	if err != nil {
		return nil, usagef("--trace %s: %v", f.trace, err)
	}
	w := pcapgo.NewWriter(file)
	if err := w.WriteFileHeader(65535, flitwire.LinkTypeSimMoves); err != nil {
		file.Close()
		return nil, usagef("--trace %s: %v", f.trace, err)
	}
	return &traceWriter{f: file, w: w, limit: f.traceLimit}, nil
}

func (t *traceWriter) add(ev sim.TraceEvent) {
	if t.err != nil || t.n >= t.limit {
		return
	}
	t.n++
	m := flitwire.SimMove{VC: uint8(ev.VC), Cycle: uint64(ev.Cycle), Channel: int32(ev.Channel), Node: uint32(ev.Node), Worm: uint32(ev.Worm), Msg: uint32(ev.Msg)}
	if ev.Head {
		m.Flags |= flitwire.SimHead
	}
	if ev.Tail {
		m.Flags |= flitwire.SimTail
	}
	if ev.Channel == model.None {
		m.Flags |= flitwire.SimDelivery
	}
	t.buf = flitwire.AppendSimMove(t.buf[:0], m)
	b := t.buf
	ts := time.Unix(1, 0).Add(time.Duration(ev.Cycle) * time.Microsecond).UTC()
	t.err = t.w.WritePacket(gopacket.CaptureInfo{Timestamp: ts, CaptureLength: len(b), Length: len(b)}, b)
}

// close finishes the file; nil-safe.
func (t *traceWriter) close() error {
	if t == nil {
		return nil
	}
	if err := t.f.Close(); err != nil && t.err == nil {
		t.err = err
	}
	if t.err != nil {
		return fmt.Errorf("--trace: %v", t.err)
	}
	return nil
}

// defaultSimLoad is the offered load (flits/node/cycle) of `sim` when neither --rate nor
// --load is given.
const defaultSimLoad = 0.05
