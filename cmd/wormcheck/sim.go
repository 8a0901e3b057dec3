package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/checker/progress"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model/booksim"
	"github.com/wormcheck/wormcheck/model/flitwire"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/simulate"
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

Irregular networks (--topo file:PATH, dragonfly:..., fattree:K,N, random:..., a grid with
--faults; docs/networks.md) need --routing, as check does: each worm follows the route the
relation gives a lone worm (its most preferred output at every hop, the relation's VC as
the worm's VC class; --selection hash instead spreads the pairs of endpoints over the
outputs the relation permits, as ECMP does: on an adaptive relation such as fattree-nca,
first sends every up-going worm through the same root), and only terminals send and
receive on a network that has them.
Unicast traffic and separate addressing run there (uniform or hotspot, --multicast
fractions); tree, path-based and collective multicasts go by dimension and are refused.
A run whose flits stop moving for good prints DEADLOCKED and exits 1:
  wormcheck sim --topo dragonfly:a=4,p=2,h=2 --routing dragonfly-min --load 0.2
  wormcheck sim --topo fattree:4,3 --routing fattree-nca --selection hash --load 0.2
  wormcheck sim --topo dragonfly:a=4,p=2,h=2 --routing dragonfly-min-1vc --load 0.8 --cycles 2000

--plot F.svg sweeps --points loads up to --load/--rate and draws latency vs load, the
simulation beside the model (003 on hypercubes; the zero-load latency elsewhere).

BookSim2's experiment: --booksim FILE runs what BookSim2 runs for that configuration, in
checker/sim/pipeline: its input-queued routers with their pipeline (routing_delay,
vc_alloc_delay, sw_alloc_delay, st_*_delay, credit_delay, speedups,
wait_for_tail_credit, hold_switch_for_packet, islip or separable allocators), its
traffic pattern (uniform, transpose, bitcomp, bitrev, shuffle, tornado, neighbor,
randperm, hotspot, ...), injection process (bernoulli, on_off) and packet sizes, its
warm-up and sample periods and convergence test, every key BookSim's default where the
file is silent. It prints BookSim's figures: average packet latency (creation to tail,
source queueing included), network latency, accepted flits per terminal per cycle, and
UNSTABLE where BookSim says "Simulation unstable" (the latency passed latency_thres:
the network saturates). --rate (packets) or --load (flits per terminal per cycle),
--traffic, --vcs, --buffers, --length, --routing, --selection first|random|adaptive
and --seed override the file; --plot F.svg --points N draws the latency-throughput
curve up to the rate, beside the zero-load latency. Keys the simulator does not model
(speculative, noq, shared buffers, priorities, classes > 1, request-reply traffic) are
refused, naming the key and its line. docs/booksim-compare.md compares it with BookSim2:
  wormcheck sim --booksim mesh88_lat
  wormcheck sim --booksim mesh88_lat --load 0.2 --points 8 --plot mesh88.svg

Bounds: an offered load above what a node can inject (one flit a cycle per injection
channel) and runs above 2e9 node-cycles (nodes x (warm-up + window)) are refused with
the flag to change; --max-memory (default 3/4 of the memory available) and
--time-limit stop a run, as Ctrl-C and SIGTERM do, with what it measured so far and
exit 3 (inconclusive).

Flags:
`

func init() {
	registerCommand(&command{Name: "sim", Summary: "timed flit-level simulation, with the formula or model beside it", Help: simHelp, Run: runSim})
}

// simFlags are sim's flags: the options of the simulation itself (simulate.Options) and
// those of the command (files, output, budget).
type simFlags struct {
	simulate.Options
	topo, plot, trace, compare, compareDests, compareLoad string
	faults, booksim, routing                              string
	traceLimit, points                                    int
	json, progress                                        bool
	maxMemMB                                              int64
	timeLimit                                             time.Duration
}

func defineSimFlags(fs *flag.FlagSet, f *simFlags) {
	o := &f.Options
	fs.StringVar(&f.topo, "topo", "", "topology spec: mesh:8x8, torus:8x8, hypercube:6, file:PATH, dragonfly:a=4,p=2,h=2, fattree:4,3")
	fs.StringVar(&f.faults, "faults", "", "failed links of the --topo grid: A-B (both ways) or A->B, comma-separated, e.g. '(1,1)-(2,1),9->10'")
	fs.StringVar(&f.booksim, "booksim", "", "run BookSim2's experiment for this configuration `file` (its router pipeline, traffic and measurement)")
	fs.StringVar(&o.Selection, "selection", "first", "with --routing, where the relation permits several outputs the route takes: first (the most preferred) or hash (spread over them by a hash of source, destination and router, as ECMP)")
	fs.StringVar(&f.routing, "routing", "", "routing relation (needed on an irregular network): a built-in (updown, shortest-path, dragonfly-min, fattree-nca, ...) or a routing file")
	fs.StringVar(&o.Traffic, "traffic", "uniform", "uniform, hotspot, multicast or broadcast")
	fs.StringVar(&o.Algo, "algo", "", "multicast routing (separate, tree, dual-path, multipath, pm) or a collective schedule algorithm")
	fs.StringVar(&o.Ports, "ports", "all", "node port model: all or one")
	fs.StringVar(&o.Process, "process", "poisson", "arrival process: poisson or bernoulli")
	fs.StringVar(&o.Dests, "dests", "4..25", "multicast destination count MIN..MAX")
	fs.StringVar(&f.plot, "plot", "", "write a latency-vs-load SVG to this file")
	fs.StringVar(&o.Prune, "prune", "on-stop", "tree multicast pruning: on-stop, on-no-free, none or partial")
	fs.StringVar(&f.compare, "compare", "", "000 §5.3 comparison: multicast algorithms to compare (e.g. tree,separate,dual-path,pm) over --points loads up to --load")
	fs.StringVar(&f.compareDests, "compare-dests", "4,11,18,25", "destination counts of a --compare run (each a fixed count)")
	fs.StringVar(&f.compareLoad, "compare-loads", "", "explicit loads of a --compare run, e.g. 0.005,0.05,0.1 (instead of --points up to --load)")
	fs.Float64Var(&o.Load, "load", 0, "offered load in flits/node/cycle (rate x length); 0.05 when neither --load nor --rate is given")
	fs.Float64Var(&o.Rate, "rate", 0, "messages generated per node per cycle")
	fs.Float64Var(&o.B, "b", -1, "broadcast fraction (hypercubes)")
	fs.Float64Var(&o.Multicast, "multicast", -1, "multicast fraction")
	fs.Float64Var(&o.HotSpot, "hotspot", 0.1, "hot-spot probability p for --traffic hotspot")
	fs.IntVar(&o.HotNode, "hot-node", -1, "hot-spot node id (default: the centre)")
	fs.IntVar(&o.Length, "length", 32, "message length in flits")
	fs.IntVar(&o.VCs, "vcs", 0, "virtual channels per physical channel (0: what the routing needs; 1 in collective mode)")
	fs.IntVar(&o.Buffers, "buffers", 2, "flits of buffer per virtual channel")
	fs.IntVar(&o.Ts, "ts", 0, "software send latency (cycles)")
	fs.IntVar(&o.Tr, "tr", 0, "software receive latency (cycles)")
	fs.IntVar(&f.points, "points", 8, "loads in a --plot sweep")
	fs.Int64Var(&o.Cycles, "cycles", 20000, "measurement window in cycles")
	fs.Int64Var(&o.Warmup, "warmup", 5000, "warm-up cycles before statistics")
	fs.Uint64Var(&o.Seed, "seed", 1, "random seed")
	fs.IntVar(&o.Source, "source", 0, "source node of a collective")
	fs.StringVar(&f.trace, "trace", "", "write every flit move as a pcap file (LINKTYPE_USER2; wormcheck dissector decodes it)")
	fs.IntVar(&f.traceLimit, "trace-limit", 1000000, "at most this many pcap records")
	fs.BoolVar(&o.MSER, "mser", false, "also drop the initial transient by the MSER-5 rule")
	fs.BoolVar(&o.Dateline, "dateline", false, "collective mode on tori: split the VCs into the two dateline classes (needs --vcs 2)")
	fs.BoolVar(&f.json, "json", false, "print one JSON object")
	fs.BoolVar(&f.progress, "progress", false, "show progress on stderr (at most once a second)")
	fs.Int64Var(&f.maxMemMB, "max-memory", progress.DefaultMemoryMiB(), "memory budget in MiB: the run stops, inconclusive, when the process comes within 5% of it (0 = none; default 3/4 of the memory available at the start)")
	fs.DurationVar(&f.timeLimit, "time-limit", 0, "stop the run, inconclusive, after this long (e.g. 10m; 0 = none)")
}

// runSim is `wormcheck sim`: flags into a simulate.Request, simulate.Run, the plot
// file, then the outcome printed or encoded.
func runSim(ctx context.Context, e *env, args []string) (int, error) {
	fs := newFlagSet("sim")
	var f simFlags
	defineSimFlags(fs, &f)
	if code, done, err := parseOrHelp(e, fs, args, simHelp, true); done {
		return code, err
	}
	bs, err := topologyFlags(e, &f.topo, f.faults, f.booksim)
	if err != nil {
		return exitUsage, err
	}
	if f.topo == "" {
		return exitUsage, usagef("--topo is required (e.g. mesh:8x8)")
	}
	g, err := topology.Parse(f.topo)
	if err != nil {
		return exitUsage, usagef("--topo: %v", err)
	}
	var bsRun *simulate.BookSimRun
	if bs != nil {
		if bsRun, err = bookSimRun(fs, &f, bs); err != nil {
			return exitUsage, err
		}
	}
	if f.routing != "" {
		if f.Relation, err = routing.Resolve(g, f.routing, os.ReadFile); err != nil {
			return exitUsage, usagef("--routing: %v", err)
		}
	}
	if f.maxMemMB < 0 {
		return exitUsage, usagef("--max-memory must not be negative")
	}
	if f.timeLimit < 0 {
		return exitUsage, usagef("--time-limit must not be negative")
	}
	if f.trace != "" && (f.plot != "" || f.compare != "") {
		return exitUsage, usagef("--trace records the flit moves of one run; a --plot sweep or a --compare run makes many, so it takes no --trace")
	}
	defer gcLimit(f.maxMemMB << 20)()
	ctx, release := simulate.Budget(ctx, f.maxMemMB<<20, f.timeLimit)
	defer release()
	req := simulate.Request{Grid: g, Options: f.Options, Compare: f.compare, CompareDests: f.compareDests,
		CompareLoads: f.compareLoad, Points: f.points, Plot: f.plot, BookSim: bsRun}
	if f.progress || e.StderrIsTerminal {
		req.Progress = e.Stderr
	}
	if f.trace != "" {
		tf := &traceFile{path: f.trace, limit: f.traceLimit}
		defer tf.abort()
		req.Trace = tf
	}
	if !f.json {
		req.Text = e.Stdout
	}
	// The runs watch ctx; budgeted is the backstop for a set-up (a schedule's build)
	// that would not return promptly: the report then says that nothing was measured.
	out, err := budgeted(ctx, func() (simulate.Outcome, error) { return simulate.Run(ctx, req) })
	if errors.Is(err, errStopped) {
		reason := stopReason(ctx) + " before the run started; nothing was measured"
		if !f.json {
			fmt.Fprintf(e.Stdout, "sim on %s: INCONCLUSIVE: %s\n", g.Spec(), reason)
			return exitInconclusive, nil
		}
		rep := simulate.Stopped(toolVersion(), g.Spec(), f.Algo, reason)
		rep.Schema = simSchema
		return exitInconclusive, writeJSON(e.Stdout, rep)
	}
	if err != nil {
		return exitUsage, err
	}
	if pic := out.Plot(); f.plot != "" && pic != nil {
		if err := writeOutput(f.plot, pic, 0o644); err != nil {
			return exitUsage, usagef("--plot %s: %v", f.plot, err)
		}
	}
	code := exitHolds
	if out.StopReason() != "" {
		code = exitInconclusive
	} else if out.Deadlock() != "" {
		code = exitViolated
	}
	if f.json {
		rep := out.Report(toolVersion())
		rep.Head().Schema = simSchema
		return code, writeJSON(e.Stdout, rep)
	}
	out.WriteText(e.Stdout)
	return code, nil
}

// bookSimFlags are the flags that override a key of a --booksim configuration; the
// other flags of sim shape the papers' simulator and are refused with --booksim.
var bookSimFlags = map[string]bool{"booksim": true, "routing": true, "selection": true, "traffic": true, "rate": true,
	"load": true, "vcs": true, "buffers": true, "length": true, "seed": true, "plot": true, "points": true, "json": true,
	"progress": true, "max-memory": true, "time-limit": true}

// bookSimRun is sim's BookSim experiment for the configuration bs: its keys, with the
// flags given overriding injection_rate (--rate, --load), traffic, num_vcs, vc_buf_size,
// packet_size, the selection and the seed; --routing replaces the routing function's
// relation. A flag of the papers' simulator is refused.
func bookSimRun(fs *flag.FlagSet, f *simFlags, bs *bookSimFile) (*simulate.BookSimRun, error) {
	var bad []string
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) {
		set[fl.Name] = true
		if !bookSimFlags[fl.Name] {
			bad = append(bad, "--"+fl.Name)
		}
	})
	if len(bad) > 0 {
		return nil, usagef("%s: --booksim runs BookSim's own experiment (its router pipeline, traffic and measurement from the file); these flags shape the papers' simulator instead", strings.Join(bad, ", "))
	}
	if !set["routing"] {
		if bs.Mapping.Routing == "" {
			return nil, usagef("--booksim %s: %s; give --routing", f.booksim, bs.Mapping.NoRouting)
		}
		f.routing = bs.Mapping.Routing
		if set["vcs"] {
			// the function's VC ranges follow num_vcs: the relation on --vcs
			f.routing = booksim.RelationName(bs.Config.Network.RoutingFunction, f.VCs)
		}
	}
	run := &simulate.BookSimRun{Name: f.booksim, Config: bs.Config, Seed: f.Seed}
	if set["rate"] {
		run.Rate = f.Rate
	}
	if set["load"] {
		run.Load = f.Load
	}
	if set["traffic"] {
		run.Traffic = f.Traffic
	}
	if set["vcs"] {
		run.VCs = f.VCs
	}
	if set["buffers"] {
		run.Buffers = f.Buffers
	}
	if set["length"] {
		run.Length = f.Length
	}
	if set["selection"] {
		run.Selection = f.Selection
	}
	return run, nil
}

// simSchema tags sim's JSON object (docs/report.md).
const simSchema = "wormcheck-sim/1"

// traceFile is the --trace file of flit moves (flitwire.SimMoveWriter), a simulate.Trace.
type traceFile struct {
	path  string
	limit int
	f     *outputFile
	w     *flitwire.SimMoveWriter
}

// Open creates the file (createOutput: nothing replaces the path before Close) and
// writes the pcap header.
func (t *traceFile) Open() (func(sim.TraceEvent), error) {
	file, err := createOutput(t.path, 0o644)
	if err != nil {
		return nil, usagef("--trace %v", err)
	}
	w, err := flitwire.NewSimMoveWriter(file, t.limit)
	if err != nil {
		file.Abort()
		return nil, usagef("--trace %s: %v", t.path, err)
	}
	t.f, t.w = file, w
	return func(ev sim.TraceEvent) { w.Add(ev.Record()) }, nil
}

// Close finishes the file and puts it in place.
func (t *traceFile) Close() error {
	if err := t.w.Err(); err != nil {
		t.f.Abort()
		return fmt.Errorf("--trace: %v", err)
	}
	if err := t.f.Commit(); err != nil {
		return fmt.Errorf("--trace: %v", err)
	}
	return nil
}

// abort drops a file that was opened but not finished (the run failed).
func (t *traceFile) abort() {
	if t.f != nil {
		t.f.Abort()
	}
}
