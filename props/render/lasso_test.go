package render_test

import (
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing/routingtest"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// TestLassoPicture finds a real livelock — one worm under non-minimal adaptive routing
// without a misroute budget bounces along the bottom row of a 3x2 mesh forever (claim
// RT6's violated half) — with the checker's liveness check, and draws its lasso.
func TestLassoPicture(t *testing.T) {
	g, rel := routingtest.Builtin(t, "mesh:3x2", "nonminimal")
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

// TestLassoSceneHasNoBlockedHeader: a lone livelocked worm always has a move, so no
// frame of its explorer scene may show its header blocked, waiting for a free channel
// (every frame did, the header's preferred minimal output standing for what it waits
// for).
func TestLassoSceneHasNoBlockedHeader(t *testing.T) {
	g, rel := routingtest.Builtin(t, "mesh:2x3", "nonminimal")
	m, err := flit.New(flit.NewRelationConfig(rel, 1, 1, model.OnePort, []flit.Message{flit.Unicast(g.Node(0, 0), g.Node(1, 2), 2)}))
	if err != nil {
		t.Fatal(err)
	}
	res, err := checker.CheckLiveness[flit.State](m, checker.LivenessOptions{MaxStates: 100000})
	if err != nil || res.Violation == nil || res.Violation.Kind != checker.KindLivelock {
		t.Fatalf("no livelock: %v %+v", err, res)
	}
	v := res.Violation
	sc, err := render.FlitScene(&props.FlitEvidence{Model: m, Trace: v.Trace, Lasso: true, CycleStart: v.CycleStart, Title: "lasso"})
	if err != nil {
		t.Fatal(err)
	}
	for k, f := range sc.Frames {
		if len(f.Blocked) != 0 {
			t.Errorf("frame %d (%s) draws %d blocked headers, first %s waiting for channel %d", k, f.Label, len(f.Blocked), f.Blocked[0].Label, f.Blocked[0].Wants)
		}
	}
}

// hypercubeDeadlock returns the explorer scene of the 3-worm deadlock of minimal adaptive
// routing on hypercube:3 (worms 100->011, 001->110, 111->000, L=2, B=1), found by the
// explorer.
func hypercubeDeadlock(t *testing.T) *render.Scene {
	t.Helper()
	_, rel := routingtest.Builtin(t, "hypercube:3", "adaptive")
	msgs := []flit.Message{flit.Unicast(4, 3, 2), flit.Unicast(1, 6, 2), flit.Unicast(7, 0, 2)}
	m, err := flit.New(flit.NewRelationConfig(rel, 1, 1, model.OnePort, msgs))
	if err != nil {
		t.Fatal(err)
	}
	res, err := checker.Explore[flit.State](m, checker.Options[flit.State]{MaxStates: 1 << 20, CheckDeadlock: true})
	if err != nil || res.Violation == nil {
		t.Fatalf("no deadlock: %v %+v", err, res)
	}
	sc, err := render.FlitScene(&props.FlitEvidence{Model: m, Trace: res.Violation.Trace, Title: "hypercube:3 adaptive"})
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// TestSceneOfLaidOutNetwork: the explorer opens a witness on a network that is not a 1-D
// or 2-D grid (it refused them, though --svg draws them): the 3-worm deadlock of minimal
// adaptive routing on hypercube:3, its nodes where the SVG layout puts them, distinct and
// inside the page, its last frame with the three-link wait-for cycle.
func TestSceneOfLaidOutNetwork(t *testing.T) {
	sc := hypercubeDeadlock(t)
	if !sc.Grid.LaidOut || len(sc.Grid.Nodes) != 8 {
		t.Fatalf("grid %+v", sc.Grid)
	}
	seen := map[[2]float64]bool{}
	for _, n := range sc.Grid.Nodes {
		p := [2]float64{n.X, n.Y}
		if seen[p] || n.X < 0 || n.Y < 0 || n.X > sc.Grid.Width-1+1e-9 || n.Y > sc.Grid.Height-1+1e-9 {
			t.Errorf("node %s at (%g, %g): repeated or off the %gx%g page", n.Name, n.X, n.Y, sc.Grid.Width, sc.Grid.Height)
		}
		seen[p] = true
	}
	last := sc.Frames[len(sc.Frames)-1]
	if len(last.Cycle) != 3 {
		t.Errorf("the last frame's cycle has %d links, want 3: %+v", len(last.Cycle), last.Cycle)
	}
}
