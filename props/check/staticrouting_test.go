package check

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/decide"
)

// TestRoutingThroughRun checks the registry's "routing" algorithm: its verdicts are
// CheckRouting's, its figures say which condition proved the relation (the CDG for
// west-first, Duato's for duato on a torus, whose CDG is cyclic), fully adaptive routing
// is violated with a configuration of four worms, and a routing table that forgets a
// row is violated with the stranded header's configuration as witness.
func TestRoutingThroughRun(t *testing.T) {
	for _, c := range []struct {
		topo, spec string
		want       checker.Verdict
		figs       map[string]float64
		witness    string
	}{
		{"mesh:5x3", "west-first", checker.Holds, map[string]float64{decide.FigCDGAcyclic: 1}, ""},
		{"torus:4x4", "duato", checker.Holds, map[string]float64{decide.FigCDGAcyclic: 0, decide.FigDuatoProved: 1, decide.FigEscapeVertices: 72}, ""},
		{"mesh:3x3", "adaptive", checker.Violated, map[string]float64{decide.FigCDGAcyclic: 0}, "configuration"},
		{"", "../../model/routing/testdata/strand.json", checker.Violated, map[string]float64{decide.FigCDGAcyclic: 1}, "configuration"},
	} {
		rep, err := Run(t.Context(), Instance{Algorithm: "routing", Topology: c.topo, Params: map[string]string{"routing": c.spec}}, "", Options{})
		if err != nil {
			t.Fatalf("%s on %s: %v", c.spec, c.topo, err)
		}
		if rep.Verdict != c.want || rep.Semantics != "static" || rep.Stats.States == 0 {
			t.Errorf("%s on %s: %s (%s, %d states), want %s", c.spec, c.topo, rep.Verdict, rep.Semantics, rep.Stats.States, c.want)
		}
		for k, v := range c.figs {
			if got, ok := rep.Figures[k]; !ok || got != v {
				t.Errorf("%s on %s: figure %s = %v (present %v), want %v", c.spec, c.topo, k, got, ok, v)
			}
		}
		if got := ""; rep.Witness != nil {
			got = string(rep.Witness.Kind)
			if got != c.witness {
				t.Errorf("%s on %s: witness %s, want %q", c.spec, c.topo, got, c.witness)
			}
		} else if c.witness != "" {
			t.Errorf("%s on %s: no witness, want %s", c.spec, c.topo, c.witness)
		}
	}
	if _, err := Run(t.Context(), Instance{Algorithm: "routing", Topology: "mesh:3x3"}, "", Options{}); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "--routing") {
		t.Errorf("missing routing: %v", err)
	}
}

// TestUnicastLivenessThroughRun checks unicast's liveness property: one worm under
// non-minimal routing without a misroute budget can circle for ever (violated, a lasso
// whose cycle lies inside its steps), with a budget of one misroute it is delivered
// (holds), and the property is refused for a family.
func TestUnicastLivenessThroughRun(t *testing.T) {
	run := func(routing string) *props.Report {
		t.Helper()
		rep, err := Run(t.Context(), Instance{Algorithm: "unicast", Topology: "mesh:2x3", Params: map[string]string{
			"msgs": "0->5", "routing": routing}}, checker.PropLiveness, Options{MaxStates: 1_000_000})
		if err != nil {
			t.Fatal(err)
		}
		return rep
	}
	free := run("nonminimal")
	if w := free.Witness; free.Verdict != checker.Violated || w == nil || w.Kind != props.WitnessLasso ||
		w.CycleStart < 0 || w.CycleStart >= len(w.Steps) || !strings.HasPrefix(w.Violation, checker.KindLivelock.String()) {
		t.Fatalf("nonminimal: %s, witness %+v", free.Verdict, free.Witness)
	}
	for _, s := range free.Witness.Steps {
		if s.Message != 0 {
			t.Errorf("step %+v names message %d; the one worm is 0", s, s.Message)
		}
	}
	budget := run("nonminimal:1")
	// Liveness runs unreduced whatever Options.Reduction says, and the report says so.
	if !strings.Contains(budget.String(), "reduction: none (liveness runs unreduced)") || budget.Stats.Reduction != props.ReductionNone {
		t.Errorf("nonminimal:1 report does not say it ran unreduced:\n%s", budget)
	}
	if budget.Verdict != checker.Holds || budget.Stats.States == 0 {
		t.Errorf("nonminimal:1: %s, %d states", budget.Verdict, budget.Stats.States)
	}
	_, err := Run(t.Context(), Instance{Algorithm: "unicast", Topology: "mesh:2x3", Params: map[string]string{"family": "all-placements:1"}}, checker.PropLiveness, Options{})
	if !errors.Is(err, ErrBadInput) {
		t.Errorf("liveness of a family: %v, want bad input", err)
	}
}

// TestTreeMcastFamilyStop checks the tree-mcast family's stop switch: without pruning,
// pairs of multicasts under Duato's routing on mesh:2x2 deadlock (RT5's witness); with
// stop the shard ends at its first violation, partial, having checked fewer members
// than the whole run, which finds the same verdict; stop without a family is refused.
func TestTreeMcastFamilyStop(t *testing.T) {
	run := func(stop string) *treemcast.FamilyResult {
		t.Helper()
		rep, err := Run(t.Context(), Instance{Algorithm: "tree-mcast", Topology: "mesh:2x2", Params: map[string]string{
			"family": "pairs:3", "pruning": "none", "length": "1", "buffers": "1", "routing": "duato", "stop": stop}}, "deadlock", Options{MaxStates: 2_000_000})
		if err != nil {
			t.Fatal(err)
		}
		fr, err := treemcast.ParseFamilyResult(rep.Result)
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != checker.Violated || fr.Witness == nil {
			t.Fatalf("stop=%s: %s, witness %v", stop, rep.Verdict, fr.Witness)
		}
		return fr
	}
	first, all := run("true"), run("false")
	if !first.Partial || first.Violated != 1 || first.Instances >= all.Instances || all.Partial {
		t.Errorf("stop: partial %v, %d violated of %d checked; whole run: partial %v, %d checked",
			first.Partial, first.Violated, first.Instances, all.Partial, all.Instances)
	}
	_, err := Run(t.Context(), Instance{Algorithm: "tree-mcast", Topology: "mesh:2x2", Params: map[string]string{
		"msgs": "(0,0)->(1,1)", "stop": "true"}}, "deadlock", Options{})
	if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "--stop") {
		t.Errorf("stop without a family: %v", err)
	}
}

// TestGoRelationThroughRun gives a Go relation (Instance.Relation) to the registry:
// the static decision and the flit explorer both find the ring deadlock of a user's
// relation, and an algorithm that takes no relation refuses it.
func TestGoRelationThroughRun(t *testing.T) {
	g, err := topology.Parse("torus:4")
	if err != nil {
		t.Fatal(err)
	}
	rel := ringRelation{g}
	rep, err := Run(t.Context(), Instance{Algorithm: "routing", Topology: "torus:4", Relation: rel}, "", Options{})
	if err != nil || rep.Verdict != checker.Violated || rep.Witness == nil || rep.Witness.Kind != props.WitnessConfiguration {
		t.Fatalf("routing: %v %+v", err, rep)
	}
	rep, err = Run(t.Context(), Instance{Algorithm: "unicast", Topology: "torus:4", Relation: rel,
		Params: map[string]string{"msgs": "0->2,1->3,2->0,3->1", "length": "1"}}, "deadlock", Options{})
	if err != nil || rep.Verdict != checker.Violated {
		t.Fatalf("unicast: %v %+v", err, rep)
	}
	if _, err := Run(t.Context(), Instance{Algorithm: "sbt", Topology: "hypercube:3", Relation: rel}, "", Options{}); !errors.Is(err, ErrBadInput) {
		t.Errorf("sbt with a relation: %v", err)
	}
}

// ringRelation routes every header the positive way round a ring, on one VC.
type ringRelation struct{ g *topology.Network }

func (r ringRelation) Name() string            { return "ring" }
func (r ringRelation) Grid() *topology.Network { return r.g }
func (r ringRelation) VCs() int                { return 1 }
func (r ringRelation) Route(h routing.Header, out []routing.Output) []routing.Output {
	c, _ := r.g.Neighbor(h.At, 0, topology.Plus)
	return append(out, routing.Output{Channel: c})
}

// TestRoutingWatchesItsContext: the routing decision runs under the caller's context, so
// a cancelled one ends a search that would otherwise decide (torus:8x8 adaptive is
// violated) inconclusive, while a live one still decides.
func TestRoutingWatchesItsContext(t *testing.T) {
	in := Instance{Algorithm: "routing", Topology: "torus:8x8", Params: map[string]string{"routing": "adaptive"}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := Run(ctx, in, checker.PropDeadlock, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Inconclusive {
		t.Errorf("cancelled: verdict %s, want inconclusive", rep.Verdict)
	}
	rep, err = Run(context.Background(), in, checker.PropDeadlock, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated {
		t.Errorf("live: verdict %s, want violated", rep.Verdict)
	}
}
