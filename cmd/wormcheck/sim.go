package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/pcapgo"

	"github.com/wormcheck/wormcheck/algos/analytic"
	"github.com/wormcheck/wormcheck/checker/progress"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flitwire"
	"github.com/wormcheck/wormcheck/props/check"
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

Tree-based multicast with pruning (000 §2-§4): --algo tree [--prune on-stop|on-no-free|none|partial]
(format d1, data, d2..dn; branches by DOR at routers, data re-injected from the auxiliary
buffer). --compare tree,separate,dual-path,pm runs 000 §5.3's comparison: multicast-only
traffic with each --compare-dests count, --points loads up to --load (data flits
delivered per node per cycle, the same traffic for every algorithm), a table of mean
latencies and the reduction of tree against separate, and with --plot one SVG series per
algorithm and count:
  wormcheck sim --topo mesh:8x8 --compare tree,separate,dual-path,pm --ports one --length 2 --load 0.3 --plot m.svg

--plot F.svg sweeps --points loads up to --load/--rate and draws latency vs load, the
simulation beside the model (003 on hypercubes; the zero-load latency elsewhere).

Bounds: an offered load above what a node can inject (one flit a cycle per injection
channel) and runs above 2e9 node-cycles (nodes x (warm-up + window)) are refused with
the flag to change; --max-memory (default 3/4 of the machine) and --time-limit stop a run,
as Ctrl-C and SIGTERM do, with what it measured so far and exit 3 (inconclusive).

Flags:
`

func init() {
	registerCommand(&command{Name: "sim", Summary: "timed flit-level simulation, with the formula or model beside it", Help: simHelp, Run: runSim})
}

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
	maxMemMB                                         int64
	timeLimit                                        time.Duration
}

func defineSimFlags(fs *flag.FlagSet, f *simFlags) {
	fs.StringVar(&f.topo, "topo", "", "topology spec: mesh:8x8, torus:8x8, hypercube:6")
	fs.StringVar(&f.traffic, "traffic", "uniform", "uniform, hotspot, multicast or broadcast")
	fs.StringVar(&f.algo, "algo", "", "multicast routing (separate, tree, dual-path, multipath, pm) or a collective schedule algorithm")
	fs.StringVar(&f.ports, "ports", "all", "node port model: all or one")
	fs.StringVar(&f.process, "process", "poisson", "arrival process: poisson or bernoulli")
	fs.StringVar(&f.dests, "dests", "4..25", "multicast destination count MIN..MAX")
	fs.StringVar(&f.plot, "plot", "", "write a latency-vs-load SVG to this file")
	fs.StringVar(&f.prune, "prune", "on-stop", "tree multicast pruning: on-stop, on-no-free, none or partial")
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
	fs.Int64Var(&f.maxMemMB, "max-memory", defaultMemoryMiB(), "memory budget in MiB: the run stops, inconclusive, when the heap outgrows it (0 = none; default 3/4 of the machine's memory)")
	fs.DurationVar(&f.timeLimit, "time-limit", 0, "stop the run, inconclusive, after this long (e.g. 10m; 0 = none)")
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
	if f.maxMemMB < 0 {
		return exitUsage, usagef("--max-memory must not be negative")
	}
	if f.timeLimit < 0 {
		return exitUsage, usagef("--time-limit must not be negative")
	}
	ctx, release := simBudget(ctx, f)
	defer release()
	if f.compare != "" {
		return runSimCompare(ctx, e, g, f)
	}
	if f.rate == 0 && f.load == 0 {
		c, ok, err := check.NewSimCollective(g, f.options())
		if err != nil {
			return exitUsage, usagef("%v", err)
		}
		if ok {
			return runSimCollective(e, f, c)
		}
	}
	cfg, err := simConfig(g, f)
	if err != nil {
		return exitUsage, err
	}
	cfg.Context = ctx
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
	line := simProgress(e, f, &cfg, fmt.Sprintf("sim %s", g.Spec()))
	res, err := sim.Run(cfg)
	line.Stop()
	if err != nil {
		return exitUsage, err
	}
	if err := tw.close(); err != nil {
		return exitUsage, err
	}
	secs := time.Since(start).Seconds()
	mdl := check.SimModel(g, cfg)
	code, reason := exitHolds, ""
	if res.Stopped {
		code, reason = exitInconclusive, stopReason(ctx, res.Cycles)
	}
	if f.json {
		out := check.SimJSON(toolVersion(), g, f.algo, cfg, res, mdl, secs)
		if reason != "" {
			out["verdict"], out["reason"] = "inconclusive", reason
		}
		return code, writeJSON(e.Stdout, out)
	}
	printSim(e.Stdout, g, f, cfg, res, mdl, secs)
	if reason != "" {
		fmt.Fprintf(e.Stdout, "  INCONCLUSIVE: %s; the figures above cover only the cycles simulated\n", reason)
	}
	return code, nil
}

// simBudget derives the run's context: cancelled by a signal (the parent), by
// --time-limit, and by --max-memory through a heap watcher (progress.WithMemoryLimit).
func simBudget(ctx context.Context, f simFlags) (context.Context, func()) {
	ctx, release := progress.WithMemoryLimit(ctx, f.maxMemMB<<20)
	if f.timeLimit <= 0 {
		return ctx, release
	}
	tctx, cancel := context.WithTimeoutCause(ctx, f.timeLimit, fmt.Errorf("the --time-limit of %v passed", f.timeLimit))
	return tctx, func() { cancel(); release() }
}

// stopReason says why a simulation stopped early: the context's cause (a signal, the
// memory budget, the time limit).
// A negative cycle is left out.
func stopReason(ctx context.Context, cycle int64) string {
	at := ""
	if cycle >= 0 {
		at = fmt.Sprintf(" at cycle %d", cycle)
	}
	cause := context.Cause(ctx)
	switch {
	case cause == nil:
		return "stopped" + at
	case errors.Is(cause, context.Canceled):
		return "interrupted" + at
	}
	return fmt.Sprintf("stopped%s: %v", at, cause)
}

// simProgress reports a run on stderr (with --progress, or on a terminal) with the shared
// progress line: cycles of the warm-up and window done, flit-hops and their rate,
// elapsed, ETA, memory; past the window it counts the drain cycles.
func simProgress(e *env, f simFlags, cfg *sim.Config, label string) *progress.Line {
	if !f.progress && !e.StderrIsTerminal {
		return nil
	}
	var cycle, hops atomic.Int64
	cfg.Progress = func(c, h int64) { cycle.Store(c); hops.Store(h) }
	window := cfg.Warmup + cfg.Cycles
	if cfg.Cycles == 0 {
		window = cfg.Warmup + 10000
	}
	return progress.Start(progress.Options{W: e.Stderr, Label: label}, func() progress.Snapshot {
		s := progress.Snapshot{Done: cycle.Load(), Total: window, Unit: "cycles", Work: hops.Load(), WorkUnit: "flit-hops"}
		if s.Done >= window {
			s.Total, s.Note = 0, "draining the last measured messages"
		}
		return s
	})
}

// simConfig turns the flags into a simulator configuration (check.SimConfig); errors are
// usage errors.
func simConfig(g *model.Grid, f simFlags) (sim.Config, error) {
	cfg, err := check.SimConfig(g, f.options())
	if err != nil {
		return cfg, usagef("%v", err)
	}
	return cfg, nil
}

// options are the flags that shape the simulation, for check.SimConfig.
func (f simFlags) options() check.SimOptions {
	return check.SimOptions{Traffic: f.traffic, Algo: f.algo, Ports: f.ports, Process: f.process, Dests: f.dests, Prune: f.prune,
		Load: f.load, Rate: f.rate, B: f.b, Multicast: f.mcast, HotSpot: f.hotspot, HotNode: f.hotNode, Length: f.length,
		VCs: f.vcs, Buffers: f.buffers, Ts: f.ts, Tr: f.tr, Cycles: f.cycles, Warmup: f.warmup, Seed: f.seed, MSER: f.mser,
		Source: f.src, Dateline: f.dateline}
}

func printSim(w io.Writer, g *model.Grid, f simFlags, cfg sim.Config, res *sim.Result, m *analytic.Estimate, secs float64) {
	vcs := check.SimVCs(cfg)
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
	sw, err := check.NewSimSweep(g, cfg, f.points)
	if err != nil {
		return exitUsage, usagef("%v", err)
	}
	reason := ""
	for i := 1; i <= f.points; i++ {
		if ctx.Err() != nil {
			reason = stopReason(ctx, -1)
			break
		}
		c := sw.Config(i)
		line := simProgress(e, f, &c, fmt.Sprintf("sim %s, load %d of %d", g.Spec(), i, f.points))
		res, err := sim.Run(c)
		line.Stop()
		if err != nil {
			return exitUsage, err
		}
		if res.Stopped {
			reason = stopReason(ctx, res.Cycles) + fmt.Sprintf(" of load %d", i)
			break
		}
		p, name := sw.Add(c, res)
		if !f.json {
			fmt.Fprintf(e.Stdout, "load %.4f: sim %.2f, %s %.2f%s\n", p.Load, p.Sim, name, p.Model, map[bool]string{true: " (saturated)"}[p.Saturated])
		}
	}
	if err := os.WriteFile(f.plot, sw.SVG(), 0o644); err != nil {
		return exitUsage, usagef("--plot %s: %v", f.plot, err)
	}
	code := exitHolds
	if reason != "" {
		code = exitInconclusive
	}
	if f.json {
		out := sw.JSON(toolVersion(), f.algo, f.plot)
		if reason != "" {
			out["verdict"], out["reason"] = "inconclusive", reason
		}
		return code, writeJSON(e.Stdout, out)
	}
	if reason != "" {
		fmt.Fprintf(e.Stdout, "INCONCLUSIVE: %s; the plot shows the %d loads finished\n", reason, len(sw.Done))
	}
	return code, nil
}

// runSimCollective executes a collective schedule at zero load and prints the run.
func runSimCollective(e *env, f simFlags, c *check.SimCollective) (int, error) {
	tw, err := newTraceWriter(f)
	if err != nil {
		return exitUsage, err
	}
	var trace func(sim.TraceEvent)
	if tw != nil {
		trace = tw.add
	}
	start := time.Now()
	if err := c.Run(trace); err != nil {
		return exitUsage, err
	}
	if err := tw.close(); err != nil {
		return exitUsage, err
	}
	secs := time.Since(start).Seconds()
	if f.json {
		return exitHolds, writeJSON(e.Stdout, c.JSON(toolVersion(), secs))
	}
	g, s, res := c.Grid, c.Schedule, c.Result
	fmt.Fprintf(e.Stdout, "%s on %s from %s (ts=%d tr=%d L=%d %s): completion %d cycles\n", c.Algo, g.Spec(), g.NodeName(c.Source), f.ts, f.tr, f.length, c.VCLabel(), res.Completion)
	if c.TimedErr == nil {
		fmt.Fprintf(e.Stdout, "  contention-free timed model: %d\n", c.Timed)
	}
	if c.FormulaErr == nil {
		fmt.Fprintf(e.Stdout, "  paper's formula: %.0f\n", c.Formula)
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
	t.buf = flitwire.AppendSimMove(t.buf[:0], ev.Record())
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

// parseDests parses --dests (check.ParseDests) as a usage error.
func parseDests(s string) (mn, mx int, err error) {
	mn, mx, err = check.ParseDests(s)
	if err != nil {
		return 0, 0, usagef("%v", err)
	}
	return mn, mx, nil
}
