package unicast

import (
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestNonMinimalRoutingLivelocks: a worm routed adaptively with misroutes and no budget
// never deadlocks, yet it need not be delivered: the progress measure breaks on a
// misroute, the liveness check finds a weakly fair cycle that delivers nothing, and the
// lasso replays; with a misroute budget the header graph is acyclic and the measure
// certifies delivery.
//
// Reference: DESIGN.md claim RT6.
func TestNonMinimalRoutingLivelocks(t *testing.T) {
	g, err := topology.Parse("mesh:3x2")
	if err != nil {
		t.Fatal(err)
	}
	pairs, err := ParsePairs(g, "0->2")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"nonminimal", "nonminimal:1"} {
		rel, err := routing.ByName(g, name)
		if err != nil {
			t.Fatal(err)
		}
		m, err := BuildOn(g, Spec{Topology: "mesh:3x2", Pairs: pairs, Length: 2, Buffer: 1, VCs: 1, Routing: rel})
		if err != nil {
			t.Fatal(err)
		}
		res := SearchWith(m, checker.Options[flit.State]{})
		if name == "nonminimal" {
			if res.Verdict != checker.Violated || res.Kind != checker.KindLivelock || len(res.Actions()) == 0 {
				t.Fatalf("%s: %v %q; want a livelock lasso", name, res.Verdict, res.Violation)
			}
			if _, f, err := checker.ReplayLasso[flit.State](m, 0, res.Actions(), res.CycleStart); err != nil || f.Kind != checker.KindLivelock {
				t.Fatalf("%s: the lasso does not replay: %v %+v", name, err, f)
			}
			// The saved trace is a lasso that replay re-checks.
			tf, err := tracefile.Parse(TraceJSON(TraceFile(Spec{Topology: "mesh:3x2", Pairs: pairs, Length: 2, Buffer: 1, VCs: 1, Routing: rel}, &res)))
			if err != nil || tf.CycleStart == nil || *tf.CycleStart != res.CycleStart {
				t.Fatalf("%s: saved trace: %v %+v", name, err, tf)
			}
			t.Logf("%s: %s (%d states; prefix %d steps, cycle %d)", name, res.Violation, res.States, res.CycleStart, len(res.Actions())-res.CycleStart)
			continue
		}
		// With a budget of one misroute the worm's header graph is acyclic (after its
		// misroute a header takes productive hops only), so model/flit's measure, which
		// weighs a flit by its channel's level in that graph, certifies delivery.
		if !m.Acyclic() || res.Verdict != checker.Holds || res.Certificate == nil || res.Certificate.Kind != checker.CertProgress {
			t.Fatalf("%s: acyclic %v, %v %q, certificate %+v; want holds certified by the progress measure", name, m.Acyclic(), res.Verdict, res.Violation, res.Certificate)
		}
	}
}
