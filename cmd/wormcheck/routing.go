package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/cdg"
	"github.com/wormcheck/wormcheck/props/render"
)

const routingHelp = `wormcheck routing --topo T --routing NAME|FILE [--json] [--svg F.svg]

Proves a routing relation deadlock-free statically, on the whole topology, with two
sufficient conditions:

  CDG    the channel dependency graph over (channel, VC) pairs, built from the header
         states a header can actually reach, has no cycle (Dally & Seitz);
  Duato  the relation's escape channels form a connected routing subfunction whose
         extended dependency graph (direct, indirect and cross dependencies) has no
         cycle (Duato) — for relations that name escape channels (duato, or a routing
         file with "escape_vcs").

Either proves deadlock freedom (exit 0). Both are only sufficient: a cycle is not a
deadlock. Then the verdict is inconclusive (exit 3) and the cycle is the witness — its
channels and the turns that close it — for the explorer to decide on a small instance
(wormcheck check --algo unicast --routing R). A reachable header that the relation
offers no output is a certain deadlock (exit 1).

Built-in relations (--routing NAME):
%s
A routing file (--routing F.json, format wormcheck-routing/1) states turn restrictions
per node class (column/row parity, listed routers) with VC rules, or an explicit table
(router, input direction and VC, destination -> outputs); model/routing/file.go
documents the schema. --topo may be left out when the file names its topology.

Flags:
  --topo T        mesh:8x8, torus:16x16, torus:8x8x8, hypercube:6
  --routing R     a built-in name or a routing file
  --json          print one object (the report fields, the analysis with both graphs'
                  figures, the witness in the one witness schema, and the CDG's own
                  cycle even when Duato's condition proves the relation)
  --svg F.svg     draw the witness cycle on the topology (2-D meshes and tori)

Examples:
  wormcheck routing --topo mesh:64x64 --routing west-first      # holds, acyclic CDG
  wormcheck routing --topo mesh:4x4 --routing adaptive          # a 4-cycle of turns
  wormcheck routing --topo torus:8x8 --routing duato            # cyclic CDG, Duato holds
  wormcheck routing --routing model/routing/testdata/two-turns.json --svg cycle.svg
`

func init() {
	var b strings.Builder
	for _, r := range routing.Builtins() {
		fmt.Fprintf(&b, "  %-15s %s\n", r.Name, r.Summary)
	}
	registerCommand(&command{Name: "routing", Summary: "prove a routing relation deadlock-free statically (CDG, Duato)",
		Help: fmt.Sprintf(routingHelp, b.String()), Run: runRouting})
}

// routingJSON is the object `routing --json` prints: the report fields, the analysis
// and the CDG's own cycle.
type routingJSON struct {
	props.Report
	Analysis   *cdg.Result    `json:"analysis"`
	CDGWitness *props.Witness `json:"cdg_witness"`
}

// loadRouting resolves --topo and --routing for the routing and check commands: a
// built-in on the topology, or a routing file (which may name the topology itself).
func loadRouting(topo, spec string) (routing.Relation, error) {
	var g *model.Grid
	if topo != "" {
		var err error
		if g, err = model.ParseGrid(topo); err != nil {
			return nil, usagef("--topo: %v", err)
		}
	} else if routing.IsBuiltin(spec) {
		return nil, usagef("--topo: missing (a built-in routing needs a topology)")
	}
	rel, err := routing.Resolve(g, spec, os.ReadFile)
	if err != nil {
		return nil, usagef("--routing: %v", err)
	}
	return rel, nil
}

func runRouting(_ context.Context, e *env, args []string) (int, error) {
	fs := flag.NewFlagSet("routing", flag.ContinueOnError)
	fs.SetOutput(e.Stderr)
	topo := fs.String("topo", "", "topology")
	spec := fs.String("routing", "", "built-in name or routing file")
	asJSON := fs.Bool("json", false, "print JSON")
	svgOut := fs.String("svg", "", "draw the witness cycle to this file")
	if err := fs.Parse(args); err != nil {
		return 0, usagef("%v", err)
	}
	if fs.NArg() > 0 {
		return 0, usagef("unexpected argument %q", fs.Arg(0))
	}
	if *spec == "" {
		return 0, usagef("--routing: missing (a built-in name or a routing file; see wormcheck help routing)")
	}
	rel, err := loadRouting(*topo, *spec)
	if err != nil {
		return 0, err
	}
	start := time.Now()
	res, err := cdg.Analyze(rel, cdg.Options{})
	if err != nil {
		return 0, usagef("--routing: %v", err)
	}
	secs := time.Since(start).Seconds()
	rep := props.Report{
		Schema:    props.ReportSchema,
		Version:   toolVersion(),
		Command:   "routing",
		Instance:  props.Instance{Topology: res.Topology, Algorithm: res.Relation, Params: map[string]any{"vcs": res.VCs}},
		Property:  "deadlock",
		Semantics: "static",
		Verdict:   res.Verdict(),
		Reason:    res.Reason(),
		Stats:     props.Stats{States: res.States, Seconds: secs},
	}
	if w := res.Witness(); w != nil {
		rep.Witness = w
	}
	if *svgOut != "" {
		w := res.Witness()
		if w == nil || w.Kind != props.WitnessCycle {
			w = res.CDGWitness()
		}
		if w == nil || len(w.Cycle) == 0 {
			return 0, usagef("--svg: there is no cycle to draw (%s)", res.Reason())
		}
		what, _, _ := strings.Cut(w.Violation, ":")
		pic, err := render.StaticCycle(rel.Grid(), w, fmt.Sprintf("%s on %s: %s", res.Relation, res.Topology, what),
			fmt.Sprintf("static check, %d VCs: %s", res.VCs, res.Verdict()))
		if err != nil {
			return 0, usagef("--svg: %v", err)
		}
		if err := os.WriteFile(*svgOut, pic, 0o644); err != nil {
			return 0, fmt.Errorf("--svg: %v", err)
		}
	}
	if *asJSON {
		if err := writeJSON(e.Stdout, routingJSON{Report: rep, Analysis: res, CDGWitness: res.CDGWitness()}); err != nil {
			return 0, err
		}
		return res.Verdict().ExitCode(), nil
	}
	res.WriteText(e.Stdout)
	fmt.Fprintf(e.Stdout, "%.3fs\n", secs)
	return res.Verdict().ExitCode(), nil
}
