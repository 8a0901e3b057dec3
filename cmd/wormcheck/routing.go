package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/cdg"
)

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

Otherwise an exact search decides. A violation prints a configuration with the fewest
worms, then the fewest channels (when proving that would pass an eighth of the search
bound, it says how far the proof went), the instance it implies (each worm as long
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
                  (the keys wormcheck does not use are listed on stderr)
  --vcs N         virtual channels per physical channel, a multiple of the relation's:
                  each of its VCs then owns N/VCs of them and a header may take any free
                  one (as check's flit model reads it); default the relation's, or the
                  BookSim config's num_vcs
  --routing R     a built-in name or a routing file
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

func init() {
	var b strings.Builder
	for _, r := range routing.Builtins() {
		fmt.Fprintf(&b, "  %-15s %s\n", r.Name, r.Summary)
	}
	registerCommand(&command{Name: "routing", Summary: "decide whether a routing relation deadlocks (exact; CDG and Duato first)",
		Help: fmt.Sprintf(routingHelp, b.String()), Run: runRouting})
}

func runRouting(ctx context.Context, e *env, args []string) (int, error) {
	fs := flag.NewFlagSet("routing", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	topo := fs.String("topo", "", "topology")
	faults := fs.String("faults", "", "failed links of the --topo grid: A-B or A->B, comma-separated")
	booksim := fs.String("booksim", "", "read topology and routing_function from this BookSim2 configuration `file`")
	spec := fs.String("routing", "", "built-in name or routing file")
	asJSON := fs.Bool("json", false, "print JSON")
	svgOut := fs.String("svg", "", "draw the witness, or the certificate of an acyclic graph, to this file")
	traceOut := fs.String("trace", "", "write the flit moves that reach a deadlock configuration to this file (for replay and explore)")
	vcs := fs.Int("vcs", 0, "virtual channels per physical channel: a multiple of the relation's (0: the relation's, or the BookSim config's num_vcs)")
	bud := defineBudget(fs)
	if err := fs.Parse(args); err != nil {
		return 0, usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return 0, usagef("unexpected argument %q", fs.Arg(0))
	}
	bs, err := topologyFlags(e, topo, *faults, *booksim)
	if err != nil {
		return 0, err
	}
	if *spec == "" && bs != nil {
		*spec = bs.Routing
	}
	if *vcs == 0 && bs != nil {
		*vcs = bs.VCs
	}
	if *spec == "" {
		return 0, usagef("--routing: missing (a built-in name or a routing file; see wormcheck help routing)")
	}
	ctx, release, err := bud.context(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	rep, err := budgeted(ctx, func() (*cdg.Report, error) {
		opt := cdg.DecideWithin(bud.maxMemMB << 20)
		opt.VCs = *vcs
		return cdg.ProveWith(ctx, *topo, *spec, os.ReadFile, opt)
	})
	if errors.Is(err, errStopped) {
		return stoppedReport(ctx, e, "routing", props.Instance{Topology: *topo, Algorithm: *spec, Params: map[string]any{"routing": *spec}}, "deadlock", "static", *asJSON)
	}
	if err != nil {
		return 0, err
	}
	rep.Version = toolVersion()
	if err := writeArtefacts(e, &rep.Report, artefacts{Trace: *traceOut}); err != nil {
		return 0, err
	}
	if *svgOut != "" {
		pic, err := rep.SVG()
		if err != nil {
			return 0, err
		}
		if err := writeOutput(*svgOut, pic, 0o644); err != nil {
			return 0, fmt.Errorf("--svg: %v", err)
		}
	}
	if *asJSON {
		if err := writeJSON(e.Stdout, rep); err != nil {
			return 0, err
		}
	} else {
		rep.WriteText(e.Stdout)
	}
	return rep.Verdict.ExitCode(), nil
}
