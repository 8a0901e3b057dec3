package check

import (
	"testing"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/routing/routingtest"
	"github.com/wormcheck/wormcheck/props"
)

// TestSplitVCsIsTheModelsNetwork pins what the static decision of an instance with more
// virtual channels than its relation judges: splitVCs(R, k) with one model VC per VC is
// the same flit network as R with k model VCs per VC of R (flit.Config). For relations
// with an escape subfunction (duato), a misroute budget (nonminimal:1), dateline classes
// (dor on a torus) and plain adaptive routing, the exhaustive searches of both models
// agree on the verdict and on every count.
func TestSplitVCsIsTheModelsNetwork(t *testing.T) {
	for _, c := range []struct {
		topo, routing, msgs string
		per                 int
	}{
		{"mesh:2x2", "adaptive", "0->3,1->2,3->0,2->1", 2},
		{"mesh:3x2", "duato", "0->5,5->0", 2},
		{"mesh:2x2", "nonminimal:1", "0->3,3->0,1->2", 2},
		{"torus:4", "dor", "0->2,1->3,2->0,3->1", 2},
		{"torus:3", "dor-1vc", "0->2,1->0,2->1", 3},
	} {
		g, rel := routingtest.Builtin(t, c.topo, c.routing)
		pairs, err := unicast.ParsePairs(g, c.msgs)
		if err != nil {
			t.Fatal(err)
		}
		split := splitVCs(rel, c.per)
		if _, ok := rel.(routing.Escaping); ok {
			if _, ok := split.(routing.Escaping); !ok {
				t.Errorf("%s: the split relation lost the escape subfunction", c.routing)
			}
		}
		if _, ok := rel.(routing.Budgeted); ok {
			if _, ok := split.(routing.Budgeted); !ok {
				t.Errorf("%s: the split relation lost the misroute budget", c.routing)
			}
		}
		search := func(r routing.Relation, vcs int) unicast.Result {
			m, err := unicast.BuildOn(g, unicast.Spec{Pairs: pairs, Length: 1, Buffer: 1, VCs: vcs, Routing: r, Ports: model.AllPort})
			if err != nil {
				t.Fatal(err)
			}
			return unicast.SearchWith(m, checker.Options[flit.State]{CheckLocalDeadlock: true, MaxStates: 5_000_000})
		}
		a, b := search(rel, c.per*rel.VCs()), search(split, 0)
		if a.Verdict != b.Verdict || a.States != b.States || a.Transitions != b.Transitions || a.Depth != b.Depth || a.Verdict == checker.Inconclusive {
			t.Errorf("%s on %s, %d copies: %s with %d states, %d transitions, depth %d; split: %s with %d, %d, %d",
				c.routing, c.topo, c.per, a.Verdict, a.States, a.Transitions, a.Depth, b.Verdict, b.States, b.Transitions, b.Depth)
		}
	}
}

// TestPortfolioCheckWorksOnce: a violated unicast check through the portfolio (static
// decision, then the exhaustive search) parses and builds once and replays nothing, as a
// check of one strategy does: each strategy counts its work apart and the report's is
// the one counted.
func TestPortfolioCheckWorksOnce(t *testing.T) {
	r, j, err := prepare(Instance{Algorithm: "unicast", Topology: "torus:4",
		Params: map[string]string{"msgs": "0->2,1->3,2->0,3->1", "dateline": "off"}}, checker.PropDeadlock, Options{Static: true, Portfolio: true})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := j(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated || rep.Static == nil || len(rep.Strategies) < 2 {
		t.Fatalf("verdict %s, static %+v, strategies %+v", rep.Verdict, rep.Static, rep.Strategies)
	}
	if want := (work{parses: 1, builds: 1, replays: 0}); r.work != want {
		t.Errorf("one violated portfolio check did %+v; want %+v", r.work, want)
	}
}
