package check

import (
	"context"
	"os"
	"strings"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/cdg"
)

// routingParam is the "routing" parameter of the flit-level algorithms: a built-in
// relation (model/routing.Builtins) or a routing file (wormcheck-routing/1); empty for
// the algorithm's dimension-order routing.
var routingParam = Param{"routing", "", "routing relation: a built-in (" + strings.Join(routing.Names(), ", ") + ") or a routing file; empty: dimension order (needed on an irregular network)"}

// relationOf resolves the "routing" parameter on g: nil for the default, else the
// relation (a file is read from disk here, the one place the entry reads a user file
// named by a parameter).
func relationOf(r *request, g *model.Grid) (routing.Relation, error) {
	spec := r.str("routing")
	if spec == "" {
		if g.IsGraph() {
			return nil, badf("--routing is missing: %s has no dimension order; give e.g. --routing updown, shortest-path or a routing table (wormcheck help routing)", g.Spec())
		}
		return nil, nil
	}
	rel, err := routing.Resolve(g, spec, os.ReadFile)
	if err != nil {
		return nil, badf("--routing: %v", err)
	}
	return rel, nil
}

// routingAlgorithm is a routing relation itself, proved deadlock-free statically on a
// whole topology (cdg.Prove): the entry's form of `wormcheck routing`, so that a
// claim or a user's test judges a relation through Run like any other instance.
func routingAlgorithm() Algorithm {
	return Algorithm{
		Name:    "routing",
		Summary: "a routing relation, proved deadlock-free statically on a whole topology (CDG, Duato)",
		Doc: `A routing relation (a built-in or a routing file) on a whole topology, judged without a
search: deadlock holds when its channel dependency graph is acyclic (Dally & Seitz 1987,
Theorem 1) or when Duato's condition holds for its escape subfunction (Duato 1993,
Theorem 1); it is violated when a reachable header is offered no output (a stranded
header, witness kind instance), and inconclusive when neither condition holds (they are
sufficient only: the witness is a cycle, not a proven deadlock; explore the relation
with unicast --routing to decide). Figures cdg_acyclic, duato_proved and
escape_vertices say which condition held.`,
		Properties: []Support{{props.PropDeadlock, props.SemStatic}},
		Params: []Param{
			{"routing", "", "routing relation: a built-in (dor, west-first, north-last, negative-first, odd-even, adaptive, duato, nonminimal, nonminimal:B) or a routing file"},
		},
		prepare: prepareRouting,
	}
}

func prepareRouting(r *request) (job, error) {
	spec := r.str("routing")
	if spec == "" {
		return nil, badf("--routing is missing; e.g. --routing west-first --topo mesh:4x4")
	}
	rr, err := cdg.Prove(r.topology, spec, os.ReadFile)
	if err != nil {
		return nil, err
	}
	return func(context.Context) (*props.Report, error) {
		rep := rr.Report
		res := rr.Analysis
		rep.Command = ""
		rep.Instance = props.Instance{Topology: res.Topology, Algorithm: "routing", Params: map[string]any{"routing": res.Relation, "vcs": res.VCs}}
		rep.Figures = rr.Conditions()
		if rep.Witness == nil && rr.CDGWitness != nil {
			rep.Notes = append(rep.Notes, "the channel dependency graph has a cycle, which Duato's condition overcomes: "+rr.CDGWitness.Violation)
		}
		if r.opt.drawPicture(rep.Verdict) {
			rep.SVG, _ = rr.SVG() // nil where no cycle exists or the topology is not drawn
		}
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
