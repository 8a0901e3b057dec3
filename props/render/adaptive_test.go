package render_test

import (
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing/routingtest"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/render"
)

// adaptiveDeadlock explores worms (source, destination node ids; 2 flits each, B=1,
// all-port) under minimal fully adaptive routing on one VC on a 2x2 mesh and returns
// the model and its deadlock trace.
func adaptiveDeadlock(t *testing.T, pairs [][2]int) (*flit.Model, checker.Trace[flit.State]) {
	t.Helper()
	_, rel := routingtest.Builtin(t, "mesh:2x2", "adaptive")
	var msgs []flit.Message
	for _, p := range pairs {
		msgs = append(msgs, flit.Unicast(topology.NodeID(p[0]), topology.NodeID(p[1]), 2))
	}
	m, err := flit.New(flit.NewRelationConfig(rel, 0, 1, model.AllPort, msgs))
	if err != nil {
		t.Fatal(err)
	}
	res, err := checker.Explore[flit.State](m, checker.Options[flit.State]{MaxStates: 1_000_000, CheckDeadlock: true})
	if err != nil || res.Verdict != checker.Violated || res.Violation.Kind != checker.KindDeadlock {
		t.Fatalf("no deadlock: %v %+v", err, res)
	}
	return m, res.Violation.Trace
}

// TestAdaptiveDeadlockPicture draws claim RT2's witness: four 2-flit worms 0->3,
// 1->2, 2->1, 3->0 under minimal fully adaptive routing on one VC deadlock on a 2x2
// mesh. Each blocked header has taken one hop and has one productive output left, so
// each waits for one channel, drawn as for dimension order. Pinned by a golden file.
func TestAdaptiveDeadlockPicture(t *testing.T) {
	m, tr := adaptiveDeadlock(t, [][2]int{{0, 3}, {1, 2}, {2, 1}, {3, 0}})
	p, err := render.FlitState(m, tr.Steps[len(tr.Steps)-1].State)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Blocked) != 4 || len(p.Cycle) != 4 {
		t.Fatalf("%d blocked headers and a %d-link cycle, want 4 and 4", len(p.Blocked), len(p.Cycle))
	}
	for _, bl := range p.Blocked {
		if len(bl.AnyOf) != 0 {
			t.Errorf("%s waits for any of %v; it has one productive output", bl.Label, bl.AnyOf)
		}
	}
	pic, err := render.FlitTrace(m, tr, "deadlock: minimal fully adaptive routing, one VC (RT2)", "adaptive on mesh:2x2, worms 0->3,1->2,2->1,3->0, L=2, B=1, all-port", nil)
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "adaptive-rt2-mesh2x2.svg", pic)
}

// TestAdaptiveAnyOfPicture draws a deadlock in which a blocked adaptive header waits
// for two outputs: the RT2 cycle in both directions round a 2x2 mesh (eight worms) and
// a ninth worm 0->3 whose header, still at its source, finds both productive outputs
// held. The picture draws both, dashed in m8's colour, and the legend says "waits for
// any of" with both channels (the DOR goldens keep one red arrow per header).
func TestAdaptiveAnyOfPicture(t *testing.T) {
	m, tr := adaptiveDeadlock(t, [][2]int{{0, 3}, {1, 2}, {3, 0}, {2, 1}, {0, 3}, {1, 2}, {3, 0}, {2, 1}, {0, 3}})
	p, err := render.FlitState(m, tr.Steps[len(tr.Steps)-1].State)
	if err != nil {
		t.Fatal(err)
	}
	anyOf := 0
	for _, bl := range p.Blocked {
		if len(bl.AnyOf) > 1 {
			anyOf++
			if len(bl.AnyOf) != 2 || bl.AnyOf[0] != bl.Wants {
				t.Errorf("%s waits for %v (preferred %v), want both productive outputs, the preferred first", bl.Label, bl.AnyOf, bl.Wants)
			}
		}
	}
	if anyOf != 1 {
		t.Fatalf("%d headers wait for more than one output, want 1 (m8's)", anyOf)
	}
	pic, err := render.FlitTrace(m, tr, "deadlock: an adaptive header waits for every permitted output", "adaptive on mesh:2x2, worms 0->3,1->2,3->0,2->1 twice and 0->3, L=2, B=1, all-port", nil)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(pic)
	if n := strings.Count(svg, "(busy)</title>"); n != 2 {
		t.Errorf("%d dashed waits drawn for m8, want 2", n)
	}
	if !strings.Contains(svg, "m8.d1 at (0,0) waits for any of (0,0)-&gt;(1,0), (0,0)-&gt;(0,1) (all busy)") {
		t.Error("the legend does not list both outputs m8 waits for")
	}
	golden(t, "adaptive-anyof-mesh2x2.svg", pic)
}
