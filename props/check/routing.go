package check

import (
	"os"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/routing"
)

// routingParam is the "routing" parameter of the flit-level algorithms: a built-in
// relation (model/routing.Builtins) or a routing file (wormcheck-routing/1); empty for
// the algorithm's dimension-order routing.
var routingParam = Param{"routing", "", "routing relation: a built-in (dor, west-first, north-last, negative-first, odd-even, adaptive, duato, nonminimal, nonminimal:B) or a routing file; empty: dimension order"}

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
		return nil, nil
	}
	rel, err := routing.Resolve(g, spec, os.ReadFile)
	if err != nil {
		return nil, badf("--routing: %v", err)
	}
	return rel, nil
}
