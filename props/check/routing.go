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

// relationOf resolves the instance's Go relation or the "routing" parameter on g: nil
// for the default, else the relation (a file is read from disk here, the one place the entry reads a user file
// named by a parameter).
func relationOf(r *request, g *model.Grid) (routing.Relation, error) {
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
	rel, err := routing.Resolve(g, spec, os.ReadFile)
	if err != nil {
		return nil, badf("--routing: %v", err)
	}
	return rel, nil
}

// routingAlgorithm is a routing relation itself, decided statically on a whole
// topology (cdg.Prove, cdg.ProveRelation): the entry's form of `wormcheck routing`, so
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
		Properties: []Support{{props.PropDeadlock, props.SemStatic}},
		Params: []Param{
			{"routing", "", "routing relation: a built-in (" + strings.Join(routing.Names(), ", ") + ") or a routing file"},
			{"vcs", "0", "virtual channels per physical channel (0 = the relation's; a multiple of them: each of its VCs then owns as many)"},
		},
		prepare: prepareRouting,
	}
}

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
		var g *model.Grid
		if r.topology != "" {
			var err error
			if g, err = model.ParseNetwork(r.topology); err != nil {
				return nil, badf("--topo: %v", err)
			}
		} else if routing.IsBuiltin(spec) {
			return nil, badf("--topo: missing (a built-in routing needs a topology)")
		}
		var err error
		if rel, err = routing.Resolve(g, spec, os.ReadFile); err != nil {
			return nil, badf("--routing: %v", err)
		}
	}
	vcs, err := r.integer("vcs", 0, 64)
	if err != nil {
		return nil, err
	}
	// The decision runs in the job, under the caller's context: a signal or a time
	// limit stops its search within a second, inconclusive. Its header states follow
	// the memory budget as `wormcheck routing`'s do (cdg.DecideWithin).
	opt := cdg.DecideWithin(r.opt.MaxMemoryBytes)
	opt.VCs = vcs
	return func(ctx context.Context) (*props.Report, error) {
		rr, err := cdg.ProveRelation(ctx, rel, opt)
		if err != nil {
			return nil, err
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
		if r.opt.drawPicture(rep.Verdict) {
			rep.SVG, _ = rr.SVG() // nil where nothing is drawn (no witness, or a topology not drawn)
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
