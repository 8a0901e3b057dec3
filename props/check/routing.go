package check

import (
	"context"
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/input"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/decide"
)

// routingParam is the "routing" parameter of the flit-level algorithms: a built-in
// relation (model/routing.Builtins) or a routing file (wormcheck-routing/1); empty for
// the algorithm's dimension-order routing.
var routingParam = Param{"routing", "", "routing relation: a built-in (" + strings.Join(routing.Names(), ", ") + ") or a routing file; empty: dimension order (needed on an irregular network)"}

// relationOf resolves the instance's Go relation or the "routing" parameter on g: nil
// for the default, else the relation (a file is read from disk here, the one place the entry reads a user file
// named by a parameter).
func relationOf(r *request, g *topology.Network) (routing.Relation, error) {
	spec := r.str("routing")
	if rel := r.relation; rel != nil {
		switch rg := rel.Grid(); {
		case spec != "":
			return nil, badf("--routing and a Go relation (Instance.Relation) exclude each other")
		case rg == nil || rg.Spec() != g.Spec():
			return nil, badf("relation %q does not route on topology %s", rel.Name(), g.Spec())
		}
		r.usedRel = true
		return rel, nil
	}
	if spec == "" {
		if g.IsGraph() {
			return nil, badf("--routing is missing: %s has no dimension order; give e.g. --routing updown, shortest-path or a routing table (wormcheck help routing)", g.Spec())
		}
		return nil, nil
	}
	rel, err := routing.Resolve(g, spec, r.readFile(input.Routing))
	if err != nil {
		if stop := r.readStopped(); stop != nil {
			return nil, stop
		}
		return nil, badf("--routing: %v", err)
	}
	return rel, nil
}

// routingAlgorithm is a routing relation itself, decided statically on a whole
// topology (decide.Prove, decide.ProveRelation): the entry's form of `wormcheck routing`, so
// that a claim or a user's test judges a relation through Run like any other instance.
func routingAlgorithm() Algorithm {
	return Algorithm{
		Name:    "routing",
		Summary: "a routing relation, decided deadlock-free or not statically on a whole topology (exact; CDG and Duato first)",
		Doc: `A routing relation (a built-in, a routing file, or a Go relation in Instance.Relation)
on a whole topology, judged without a search of runs: deadlock holds when its channel
dependency graph is acyclic (Dally & Seitz 1987, Theorem 1), when Duato's condition holds
for its escape subfunction (Duato 1993, Theorem 1), or when the exact search finds no
deadlock configuration (Verbeek & Schmaltz 2011: worms on legal routes whose headers'
permitted outputs are all held); it is violated with a configuration (witness kind
configuration, with the flit moves that reach it from the empty network in its steps and
in Report.Trace), and inconclusive only when a search bound is reached. Figures
cdg_acyclic, duato_proved and escape_vertices say what the sufficient conditions gave.`,
		Properties: []Support{{checker.PropDeadlock, props.SemStatic}},
		Params: []Param{
			{"routing", "", "routing relation: a built-in (" + strings.Join(routing.Names(), ", ") + ") or a routing file"},
			{"vcs", "0", "virtual channels per physical channel (0 = the relation's; a multiple of them: each of its VCs then owns as many; routing --booksim: num_vcs)"},
		},
		prepare: prepareRouting,
		stopped: stoppedRouting,
		Command: &Command{Name: "routing", Usage: routingUsage(), Property: checker.PropDeadlock,
			Flags: FlagTopology | FlagNetwork | FlagJSON | FlagSVG | FlagTrace | FlagBudget},
	}
}

// routingUsage is the help of `wormcheck routing`, with the built-in relations listed.
func routingUsage() string {
	var b strings.Builder
	for _, r := range routing.Builtins() {
		fmt.Fprintf(&b, "  %-15s %s\n", r.Name, r.Summary)
	}
	return fmt.Sprintf(routingHelp, b.String())
}

// stoppedRouting is the report of `wormcheck routing` stopped (cause) before the
// decision returned (the decision itself stops within a second and reports its partial
// search).
func stoppedRouting(in Instance, cause string) *props.Report {
	spec := in.Params["routing"]
	return &props.Report{Schema: props.ReportSchema, Command: "routing",
		Instance: props.Instance{Topology: in.Topology, Algorithm: spec, Params: map[string]any{"routing": spec}},
		Property: checker.PropDeadlock, Semantics: props.SemStatic, Verdict: props.Inconclusive, Reason: cause + " before routing finished; nothing was decided"}
}

const routingHelp = `wormcheck routing --topo T|--booksim CFG --routing NAME|FILE [--vcs N] [--faults LINKS] [--json] [--svg F.svg] [--trace F.json]

Decides whether a routing relation deadlocks on the whole topology: holds (exit 0) when
no deadlock configuration exists, violated (exit 1) with one, inconclusive (exit 3) only
when a search bound is reached. A deadlock configuration is a set of worms on routes the
relation permits (from their sources, each holding the last channels of its route) in
which every output each header is permitted is held (Verbeek & Schmaltz);
docs/semantics.md states the assumptions under which "none" is deadlock freedom of the
flit semantics, for every worm length and buffer size.

Two sufficient conditions answer first when they apply:

  CDG    the channel dependency graph over (channel, VC) pairs, built from the header
         states a header can actually reach, has no cycle (Dally & Seitz);
  Duato  the relation's escape channels form a connected routing subfunction whose
         extended dependency graph (direct, indirect and cross dependencies) has no
         cycle (Duato) — for relations that name escape channels (duato, or a routing
         file with "escape_vcs").

Otherwise an exact search decides, a deadlock first: on a torus, configurations round
one ring (worms lined up along a dimension) are built and confirmed before any search,
and for a relation whose VC 0 is dimension order on minimal routes the escape-ring bound
says how few worms and channels any configuration has (docs/semantics.md). A violation
prints a configuration with the fewest worms, then the fewest channels (when proving
that would pass an eighth of the search bound, or the time limit comes first, it says
how far the proof went), the instance it implies (each worm as long
as the channels it holds, buffers of one flit) and the flit moves that put it in place
from the empty network, confirmed by the flit model; --trace saves them ('wormcheck
replay F.json' exits 1, 'wormcheck explore F.json' steps through them). A relation on
more than 2^22 (channel, VC) pairs is refused, inconclusive, before anything is built.

Built-in relations (--routing NAME):
%s
A routing file (--routing F.json, format wormcheck-routing/1) states turn restrictions
per node class (column/row parity, listed routers) with VC rules, or an explicit table
(router, input direction and VC, destination -> outputs); model/routing/file.go
documents the schema. --topo may be left out when the file names its topology. On an
irregular network (a file, a dragonfly, a fat-tree, a grid with faults) a table's "in"
and "out" name neighbouring nodes, and the relations that need dimensions are refused.

Flags:
  --topo T        mesh:8x8, torus:16x16, torus:8x8x8, hypercube:6; any network:
                  file:PATH (BookSim2 anynet, JSON wormcheck-topology/1, Graphviz DOT),
                  dragonfly:a=4,p=2,h=2[,g=9][,arrangement=absolute|relative|palmtree],
                  fattree:K,N (k-ary n-tree), random:ROUTERS,LINKS,SEED
  --faults L      failed links of the --topo grid: "(1,1)-(2,1),9->10" (A-B both ways,
                  A->B one way); the grid becomes an irregular network
  --booksim CFG   a BookSim2 configuration: its topology, routing_function and num_vcs
                  (the keys BookSim does not define are listed on stderr)
  --routing R     a built-in name or a routing file
  --vcs N         virtual channels per physical channel, a multiple of the relation's:
                  each of its VCs then owns N/VCs of them and a header may take any free
                  one (as check's flit model reads it); default the relation's, or the
                  BookSim config's num_vcs
  --json          print one object (the report fields, the analysis with both graphs'
                  figures, the witness in the one witness schema, and the CDG's own
                  cycle even when Duato's condition proves the relation)
  --svg F.svg     draw the witness on the topology (meshes, tori, hypercubes, irregular
                  networks): the configuration's held channels, else the dependency
                  cycle; for an acyclic CDG its certificate: every held channel numbered
                  so that each dependency goes to a larger number
  --trace F.json  save the moves that reach a configuration, for replay and explore
  --max-memory MiB, --time-limit D
                  stop inconclusive (exit 3) when the heap outgrows MiB (default 3/4 of
                  the memory available) or after D; Ctrl-C and SIGTERM do the same. The
                  exact search's header states are bounded to fit MiB (about 200 bytes
                  each, at least 2^23, at most 2^28)

Examples:
  wormcheck routing --topo mesh:64x64 --routing west-first      # holds, acyclic CDG
  wormcheck routing --topo torus:12x12 --routing adaptive --trace t.json   # violated: 3 worms
  wormcheck routing --topo torus:8x8 --routing duato            # cyclic CDG, Duato holds
  wormcheck routing --topo mesh:8x8 --faults '(1,1)-(2,1),(3,3)-(3,4),(5,5)-(5,6)' --routing updown
  wormcheck routing --topo dragonfly:a=4,p=2,h=2 --routing dragonfly-min-1vc --svg df.svg
  wormcheck routing --routing model/routing/testdata/two-turns.json --svg cycle.svg
`

func prepareRouting(r *request) (job, error) {
	rel := r.relation
	if rel != nil {
		r.usedRel = true
		if r.params["routing"] != "" {
			return nil, badf("--routing and a Go relation (Instance.Relation) exclude each other")
		}
	} else {
		spec := r.str("routing")
		if spec == "" {
			return nil, badf("--routing is missing; e.g. --routing west-first --topo mesh:4x4")
		}
		var g *topology.Network
		if b, _, n, ok := topology.GridBytes(r.topology); ok && r.opt.MaxMemoryBytes > 0 && b > r.opt.MaxMemoryBytes {
			// The network alone would exceed the memory budget: building it (one
			// allocation the process's watcher would see only afterwards) is refused.
			cause := fmt.Sprintf("memory budget: the network alone takes about %d MiB (%d channels), more than the %d MiB allowed (--max-memory)", b>>20, n, r.opt.MaxMemoryBytes>>20)
			in := Instance{Topology: r.topology, Params: map[string]string{"routing": spec}}
			return func(context.Context) (*props.Report, error) { return stoppedRouting(in, cause), nil }, nil
		}
		if r.topology != "" {
			var err error
			if g, err = topology.Parse(r.topology); err != nil {
				return nil, badf("--topo: %v", err)
			}
		} else if routing.IsBuiltin(spec) {
			return nil, badf("--topo: missing (a built-in routing needs a topology)")
		}
		var err error
		if rel, err = routing.Resolve(g, spec, r.readFile(input.Routing)); err != nil {
			if stop := r.readStopped(); stop != nil {
				return nil, stop
			}
			return nil, badf("--routing: %v", err)
		}
	}
	vcs, err := r.integer("vcs", 0, 64)
	if err != nil {
		return nil, err
	}
	// The decision runs in the job, under the caller's context: a signal or a time
	// limit stops its search within a second, inconclusive. Its header states follow
	// the memory budget (decide.Within, the one mapping of --max-memory onto the
	// decision), and its --time-limit reaches it as the context's deadline.
	opt := decide.Within(r.opt.MaxMemoryBytes)
	opt.VCs = vcs
	return func(ctx context.Context) (*props.Report, error) {
		rr, err := decide.ProveRelation(ctx, rel, opt)
		if err != nil {
			return nil, inFlags(err, map[string]string{"Options.VCs": "vcs", "Relation": "routing"})
		}
		if d, ok := rel.(interface{ CommitsDraws() bool }); ok && d.CommitsDraws() && rr.Verdict == props.Holds && rr.Analysis != nil && !rr.Analysis.DeadlockFree() {
			// the exact search alone decided: it lets a header take any free output, where
			// BookSim draws one and waits for it (docs/booksim.md)
			rr.Reason += "; for a header that takes any free output it offers: BookSim draws one and waits for it, which this does not cover (the channel dependency graph is cyclic; docs/booksim.md)"
		}
		rep := rr.Report
		d := rr.Decision
		rep.Command = ""
		rep.Instance = props.Instance{Topology: d.Topology, Algorithm: "routing", Params: map[string]any{"routing": d.Relation, "vcs": d.VCs}}
		rep.Figures = rr.Conditions()
		if res := rr.Analysis; res != nil && !res.DeadlockFree() {
			rep.Notes = append(rep.Notes, "sufficient conditions: "+res.Reason())
		} else if rr.CDGWitness != nil {
			rep.Notes = append(rep.Notes, "the channel dependency graph has a cycle, which Duato's condition overcomes: "+rr.CDGWitness.Violation)
		}
		rep.Body = rr
		return &rep, nil
	}, nil
}

// b2f is 1 for true, 0 for false: a yes/no figure.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
