package check

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model/booksim"
	"github.com/wormcheck/wormcheck/model/flitwire"
	"github.com/wormcheck/wormcheck/model/input"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/simulate"
)

// SimSchema tags sim's JSON object (docs/report.md).
const SimSchema = "wormcheck-sim/1"

// simAlgorithm is `wormcheck sim`: the timed flit-level simulator (props/simulate) in
// every mode, a traffic run, a collective, a latency-vs-load sweep (plot), 000 §5.3's
// comparison, BookSim2's experiment (--booksim): its output is the simulator's own
// report (Report.Body, schema SimSchema); its evidence the plot of a sweep or the moves
// of one run (trace).
func simAlgorithm() Algorithm {
	return Algorithm{
		Name:       "sim",
		Summary:    "timed flit-level simulation, with the formula or model beside it",
		Doc:        "The timed flit-level simulator in every mode (wormcheck help sim).",
		Properties: []Support{{checker.PropLatency, props.SemSim}},
		Params: []Param{
			{"selection", "first", "with --routing, where the relation permits several outputs the route takes: first (the most preferred) or hash (spread over them by a hash of source, destination and router, as ECMP)"},
			{"routing", "", "routing relation (needed on an irregular network): a built-in (updown, shortest-path, dragonfly-min, fattree-nca, ...) or a routing file"},
			{"traffic", "uniform", "uniform, hotspot, multicast or broadcast"},
			{"algo", "", "multicast routing (separate, tree, dual-path, multipath, pm) or a collective schedule algorithm"},
			{"ports", "all", "node port model: all or one"},
			{"process", "poisson", "arrival process: poisson or bernoulli"},
			{"dests", "4..25", "multicast destination count MIN..MAX"},
			{"plot", "", "write a latency-vs-load SVG to this file"},
			{"prune", "on-stop", "tree multicast pruning: on-stop, on-no-free, none or partial"},
			{"compare", "", "000 §5.3 comparison: multicast algorithms to compare (e.g. tree,separate,dual-path,pm) over --points loads up to --load"},
			{"compare-dests", "4,11,18,25", "destination counts of a --compare run (each a fixed count)"},
			{"compare-loads", "", "explicit loads of a --compare run, e.g. 0.005,0.05,0.1 (instead of --points up to --load)"},
			{"load", "0", "offered load in flits/node/cycle (rate x length); 0.05 when neither --load nor --rate is given"},
			{"rate", "0", "messages generated per node per cycle"},
			{"b", "-1", "broadcast fraction (hypercubes)"},
			{"multicast", "-1", "multicast fraction"},
			{"hotspot", "0.1", "hot-spot probability p for --traffic hotspot"},
			{"hot-node", "-1", "hot-spot node id (default: the centre)"},
			{"length", "32", "message length in flits"},
			{"vcs", "0", "virtual channels per physical channel (0: what the routing needs; 1 in collective mode)"},
			{"buffers", "2", "flits of buffer per virtual channel"},
			{"ts", "0", "software send latency (cycles)"},
			{"tr", "0", "software receive latency (cycles)"},
			{"points", "8", "loads in a --plot sweep"},
			{"cycles", "20000", "measurement window in cycles"},
			{"warmup", "5000", "warm-up cycles before statistics"},
			{"seed", "1", "random seed"},
			{"source", "0", "source node of a collective"},
			{"trace", "", "write every flit move as a pcap file (LINKTYPE_USER2; wormcheck dissector decodes it)"},
			{"trace-limit", "1000000", "at most this many pcap records"},
			{"mser", "false", "also drop the initial transient by the MSER-5 rule"},
			{"dateline", "false", "collective mode on tori: split the VCs into the two dateline classes (needs --vcs 2)"},
		},
		prepare: prepareSim,
		stopped: stoppedSim,
		Command: &Command{Name: "sim", Usage: simHelp, Only: true, ListFlags: true, Picture: "plot", Capture: "trace",
			Flags: FlagTopology | FlagNetwork | FlagJSON | FlagBudget | FlagProgress},
	}
}

// prepareSim reads sim's parameters into a simulate.Request: the options of the
// simulation itself, the mode (a comparison, a plotted sweep, BookSim's experiment,
// else one run), and the moves to record.
func prepareSim(r *request) (job, error) {
	if r.topology == "" {
		return nil, badf("--topo is required (e.g. mesh:8x8)")
	}
	if need, nodes, channels, ok := simBytes(r.topology); ok && r.opt.MaxMemoryBytes > 0 && need > r.opt.MaxMemoryBytes {
		// Building the network and the simulator's state is a few large allocations
		// the process's watcher would see only afterwards: refused before them.
		for k := range r.params {
			r.read[k] = true // the run is refused, whatever the other flags ask
		}
		cause := fmt.Sprintf("memory budget: the simulator of %s takes at least %d MiB (%d nodes, %d channels), more than the %d MiB allowed (--max-memory)", r.topology, need>>20, nodes, channels, r.opt.MaxMemoryBytes>>20)
		return func(context.Context) (*props.Report, error) {
			return stoppedSimSpec(r.topology, r.str("algo"), cause), nil
		}, nil
	}
	g, err := topology.Parse(r.topology)
	if err != nil {
		return nil, badf("--topo: %v", err)
	}
	o, err := simOptions(r)
	if err != nil {
		return nil, err
	}
	req := simulate.Request{Grid: g, Compare: r.str("compare"), CompareDests: r.str("compare-dests"), CompareLoads: r.str("compare-loads"),
		Plot: r.str("plot"), Progress: r.opt.Progress, Text: r.opt.Text}
	if req.Points, err = r.integer("points", -1<<30, 1<<30); err != nil {
		return nil, err
	}
	spec := r.str("routing")
	if bs := r.bookSim; bs != nil {
		if req.BookSim, err = bookSimRun(r, &o); err != nil {
			return nil, err
		}
		if !r.isSet("routing") {
			spec = bs.Mapping.Routing
			if r.isSet("vcs") {
				// the function's VC ranges follow num_vcs: the relation on --vcs
				spec = booksim.RelationName(bs.Config.Network.RoutingFunction, o.VCs)
			}
		}
	}
	if spec != "" {
		if o.Relation, err = routing.Resolve(g, spec, r.readFile(input.Routing)); err != nil {
			if stop := r.readStopped(); stop != nil {
				return nil, stop
			}
			return nil, badf("--routing: %v", err)
		}
	}
	req.Options = o
	var moves *moveRecorder
	if trace := r.str("trace"); trace != "" {
		if req.Plot != "" || req.Compare != "" {
			return nil, badf("--trace records the flit moves of one run; a --plot sweep or a --compare run makes many, so it takes no --trace")
		}
		limit, err := r.integer("trace-limit", 0, 1<<30)
		if err != nil {
			return nil, err
		}
		moves = &moveRecorder{limit: limit}
		req.Trace = moves
	}
	return func(ctx context.Context) (*props.Report, error) {
		out, err := simulate.Run(ctx, req)
		if err != nil {
			err = inFlags(err, simFields)
			if errors.Is(err, ErrBadInput) || errors.Is(err, ErrInternal) {
				return nil, err
			}
			return nil, badf("%v", err) // the simulator refuses what its flags ask
		}
		rep := r.report(g.Spec(), map[string]any{})
		for k, v := range r.params {
			rep.Instance.Params[k] = v
		}
		rep.Verdict = props.Holds
		if why := out.StopReason(); why != "" {
			rep.Verdict, rep.Reason = props.Inconclusive, why
		} else if d := out.Deadlock(); d != "" {
			rep.Verdict, rep.Reason = props.Violated, "deadlocked: "+d
		}
		if ev := out.Plot(); ev != nil && req.Plot != "" {
			rep.Evidence = ev
		}
		if moves != nil && moves.moves != nil {
			rep.Evidence = &props.MovesEvidence{Topology: g.Spec(), Moves: moves.moves}
		}
		rep.Body = &simBody{out: out}
		return rep, nil
	}, nil
}

// simOptions reads the options of the simulation itself.
func simOptions(r *request) (simulate.Options, error) {
	o := simulate.Options{Selection: r.str("selection"), Traffic: r.str("traffic"), Algo: r.str("algo"), Ports: r.str("ports"),
		Process: r.str("process"), Dests: r.str("dests"), Prune: r.str("prune")}
	var err error
	for _, f := range []struct {
		name string
		to   *float64
	}{{"load", &o.Load}, {"rate", &o.Rate}, {"b", &o.B}, {"multicast", &o.Multicast}, {"hotspot", &o.HotSpot}} {
		if *f.to, err = r.float(f.name); err != nil {
			return o, err
		}
	}
	for _, f := range []struct {
		name string
		to   *int
	}{{"hot-node", &o.HotNode}, {"length", &o.Length}, {"vcs", &o.VCs}, {"buffers", &o.Buffers}, {"ts", &o.Ts}, {"tr", &o.Tr}, {"source", &o.Source}} {
		// any int: the simulator checks its own ranges, in its own words
		if *f.to, err = r.integer(f.name, math.MinInt, math.MaxInt); err != nil {
			return o, err
		}
	}
	for _, f := range []struct {
		name string
		to   *int64
	}{{"cycles", &o.Cycles}, {"warmup", &o.Warmup}} {
		n, err := strconv.ParseInt(strings.TrimSpace(r.str(f.name)), 10, 64)
		if err != nil {
			return o, badf("--%s %q is not an integer", f.name, r.str(f.name))
		}
		if f.name == "cycles" && n == 0 {
			// the simulator reads 0 as its own default window; a user who asks for
			// none means none, which measures nothing
			return o, badf("--cycles 0 measures nothing; give a window of at least 1 cycle (default 20000)")
		}
		*f.to = n
	}
	if o.Seed, err = strconv.ParseUint(strings.TrimSpace(r.str("seed")), 10, 64); err != nil {
		return o, badf("--seed %q is not a non-negative integer", r.str("seed"))
	}
	if o.MSER, err = r.boolean("mser"); err != nil {
		return o, err
	}
	if o.Dateline, err = r.boolean("dateline"); err != nil {
		return o, err
	}
	return o, nil
}

// simFields names the parameter that sets each field the simulator's errors name
// (props.FieldError), so that its refusals reach the user in the flags they typed.
var simFields = map[string]string{
	"Request.Grid": "topo", "topology.WithFaults": "faults", "Request.BookSim": "booksim",
	"Request.Points": "points", "Request.Compare": "compare", "Request.CompareDests": "compare-dests",
	"Request.CompareLoads": "compare-loads", "Options.Relation": "routing", "Options.Selection": "selection",
	"BookSimRun.Selection": "selection", "Options.Traffic": "traffic", "Options.Algo": "algo",
	"Options.Ports": "ports", "Options.Process": "process", "Options.Dests": "dests", "Options.Prune": "prune",
	"Options.Load": "load", "Options.Rate": "rate", "Options.B": "b", "Options.HotNode": "hot-node",
	"Options.Length": "length", "Options.Buffers": "buffers", "Options.Ts": "ts", "Options.Tr": "tr",
	"Options.Source": "source", "Options.Cycles": "cycles", "Options.Warmup": "warmup",
}

// bookSimFlags are the parameters that override a key of a --booksim configuration; the
// other parameters of sim shape the papers' simulator and are refused with --booksim.
var bookSimFlags = map[string]bool{"routing": true, "selection": true, "traffic": true, "rate": true,
	"load": true, "vcs": true, "buffers": true, "length": true, "seed": true, "plot": true, "points": true}

// bookSimRun is sim's BookSim experiment for the configuration of the request: its
// keys, with the parameters given overriding injection_rate (rate, load), traffic,
// num_vcs, vc_buf_size, packet_size, the selection and the seed; the routing parameter
// replaces the routing function's relation, which a configuration without one needs.
// A parameter of the papers' simulator is refused.
func bookSimRun(r *request, o *simulate.Options) (*simulate.BookSimRun, error) {
	var bad []string
	for name := range r.params {
		if !bookSimFlags[name] {
			bad = append(bad, "--"+name)
		}
	}
	if len(bad) > 0 {
		slices.Sort(bad)
		return nil, badf("%s: --booksim runs BookSim's own experiment (its router pipeline, traffic and measurement from the file); these flags shape the papers' simulator instead", strings.Join(bad, ", "))
	}
	bs := r.bookSim
	if !r.isSet("routing") && bs.Mapping.Routing == "" {
		return nil, badf("--booksim %s: %s; give --routing", bs.Name, bs.Mapping.NoRouting)
	}
	run := &simulate.BookSimRun{Name: bs.Name, Config: bs.Config, Seed: o.Seed}
	if r.isSet("rate") {
		run.Rate = o.Rate
	}
	if r.isSet("load") {
		run.Load = o.Load
	}
	if r.isSet("traffic") {
		run.Traffic = o.Traffic
	}
	if r.isSet("vcs") {
		run.VCs = o.VCs
	}
	if r.isSet("buffers") {
		run.Buffers = o.Buffers
	}
	if r.isSet("length") {
		run.Length = o.Length
	}
	if r.isSet("selection") {
		run.Selection = o.Selection
	}
	return run, nil
}

// moveRecorder keeps a run's flit moves, at most limit (simulate.Trace).
type moveRecorder struct {
	limit int
	moves []flitwire.SimMove
}

// Open starts the recording.
func (m *moveRecorder) Open() (func(sim.TraceEvent), error) {
	m.moves = []flitwire.SimMove{}
	return func(ev sim.TraceEvent) {
		if len(m.moves) < m.limit {
			m.moves = append(m.moves, ev.Record())
		}
	}, nil
}

// Close ends it.
func (m *moveRecorder) Close() error { return nil }

// simBody is sim's output (props.Body): the outcome's text, and its report object as
// JSON with the schema and the tool version.
type simBody struct {
	out     simulate.Outcome
	version string
}

func (b *simBody) WriteText(w io.Writer) { b.out.WriteText(w) }
func (b *simBody) SetVersion(v string)   { b.version = v }
func (b *simBody) MarshalJSON() ([]byte, error) {
	rep := b.out.Report(b.version)
	rep.Head().Schema = SimSchema
	return marshalPlain(rep)
}

// stoppedSim is sim's report when cause stopped it before its run started: nothing was
// measured, said in sim's own words.
func stoppedSim(in Instance, cause string) *props.Report {
	spec := in.Topology
	if g, err := topology.Parse(spec); err == nil {
		spec = g.Spec()
	}
	return stoppedSimSpec(spec, in.Params["algo"], cause)
}

// simBytes returns a lower bound on the memory sim takes on the mesh, torus or
// hypercube spec names, before any cycle is simulated, with the network's nodes and
// channels; ok is false where topology.GridBytes cannot size the network. The
// constants are below what the simulator was measured to hold after building
// (torus:512x512 196 MB, mesh:700x700 305 MB, hypercube:16 158 MB): about 150 bytes a
// node, 100 a channel (the network's own channels among them) and 20 MB for the process.
func simBytes(spec string) (need, nodes, channels int64, ok bool) {
	_, nodes, channels, ok = topology.GridBytes(spec)
	return 20<<20 + 150*nodes + 100*channels, nodes, channels, ok
}

// stoppedSimSpec is stoppedSim's report for the topology spec as given, without
// building the network.
func stoppedSimSpec(spec, algo, cause string) *props.Report {
	reason := cause + " before the run started; nothing was measured"
	rep := &props.Report{Schema: props.ReportSchema, Instance: props.Instance{Topology: spec, Algorithm: "sim", Params: map[string]any{}},
		Property: checker.PropLatency, Semantics: props.SemSim, Verdict: props.Inconclusive, Reason: reason}
	rep.Body = &stoppedSimBody{spec: spec, algo: algo, reason: reason}
	return rep
}

// stoppedSimBody is sim's output when nothing was measured.
type stoppedSimBody struct {
	spec, algo, reason, version string
}

func (b *stoppedSimBody) WriteText(w io.Writer) {
	fmt.Fprintf(w, "sim on %s: INCONCLUSIVE: %s\n", b.spec, b.reason)
}
func (b *stoppedSimBody) SetVersion(v string) { b.version = v }
func (b *stoppedSimBody) MarshalJSON() ([]byte, error) {
	rep := simulate.Stopped(b.version, b.spec, b.algo, b.reason)
	rep.Schema = SimSchema
	return marshalPlain(rep)
}

// marshalPlain encodes v as JSON without HTML escapes (as the command line writes).
func marshalPlain(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

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
