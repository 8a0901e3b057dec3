package render_test

import (
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// TestLassoPicture finds a real livelock — one worm under non-minimal adaptive routing
// without a misroute budget bounces along the bottom row of a 3x2 mesh forever (claim
// RT6's violated half) — with the checker's liveness check, and draws its lasso.
func TestLassoPicture(t *testing.T) {
	g, err := topology.Parse("mesh:3x2")
	if err != nil {
		t.Fatal(err)
	}
	rel, err := routing.ByName(g, "nonminimal")
	if err != nil {
		t.Fatal(err)
	}
	m, err := flit.New(flit.NewRelationConfig(rel, 1, 1, model.OnePort, []flit.Message{flit.Unicast(g.Node(0, 0), g.Node(1, 1), 2)}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := checker.CheckLiveness[flit.State](m, checker.LivenessOptions{MaxStates: 100000})
	if err != nil || res.Violation == nil || res.Violation.Kind != checker.KindLivelock {
		t.Fatalf("no livelock: %v %+v", err, res)
	}
	v := res.Violation
	pic, err := render.FlitLasso(m, v.Trace, v.CycleStart, "livelock: m0 is never delivered", "nonminimal routing (no misroute budget) on mesh:3x2, one 2-flit worm (0,0)->(1,1), B=1")
	if err != nil {
		t.Fatal(err)
	}
	n := v.Trace.Len() - v.CycleStart
	if !strings.Contains(string(pic), "the cycle:") || !strings.Contains(string(pic), itoa(n)+". m0 flit") {
		t.Errorf("the legend does not list the %d steps of the cycle", n)
	}
	if strings.Count(string(pic), "class=\"loop-step\"") < 2 {
		t.Error("fewer than two hops of the cycle are drawn")
	}
	golden(t, "lasso-livelock-mesh3x2.svg", pic)
	ev := &props.FlitEvidence{Model: m, Trace: v.Trace, Violation: "livelock: m0 is never delivered", Lasso: true, CycleStart: v.CycleStart,
		Title: "livelock: m0 is never delivered", Subtitle: "nonminimal routing (no misroute budget) on mesh:3x2, one 2-flit worm (0,0)->(1,1), B=1"}
	if again, err := render.Picture(ev); err != nil || string(again) != string(pic) {
		t.Errorf("the picture of a lasso's evidence differs from FlitLasso (%v)", err)
	}
	sc, err := render.SceneOf(ev)
	if err != nil || sc.LassoStart != v.CycleStart || len(sc.Frames) != v.Trace.Len()+1 {
		t.Errorf("explorer scene of the lasso: %v, lasso start %d, %d frames", err, sc.LassoStart, len(sc.Frames))
	}
	if _, err := render.FlitLasso(m, v.Trace, v.Trace.Len(), "", ""); err == nil {
		t.Error("a cycle start at the last step was accepted")
	}
}
