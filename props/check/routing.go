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
