package check

import (
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/props"
)

// TestViolatedCheckWorksOnce: one violated `check --algo unicast --prop deadlock` (the
// torus ring without dateline classes) parses its topology once, builds its model once
// and replays nothing: its report, witness, picture and capture come from the model and
// the trace its search found. Its saved trace replays to the same witness.
func TestViolatedCheckWorksOnce(t *testing.T) {
	r, j, err := prepare(Instance{Algorithm: "unicast", Topology: "torus:4",
		Params: map[string]string{"msgs": "0->2,1->3,2->0,3->1", "dateline": "off"}}, checker.PropDeadlock, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := j(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	ev, _ := rep.Evidence.(*props.FlitEvidence)
	if rep.Verdict != props.Violated || rep.Witness == nil || len(rep.Witness.Steps) == 0 || ev == nil || rep.Trace == nil {
		t.Fatalf("verdict %s, witness %+v, evidence %T", rep.Verdict, rep.Witness, rep.Evidence)
	}
	if ev.Model == nil || len(ev.Trace.Steps) != len(rep.Witness.Steps)+1 {
		t.Fatalf("the evidence is not the search's run: %d states for %d steps", len(ev.Trace.Steps), len(rep.Witness.Steps))
	}
	if want := (work{parses: 1, builds: 1, replays: 0}); r.work != want {
		t.Errorf("one violated check did %+v; want %+v", r.work, want)
	}
	again, err := Replay(t.Context(), rep.Trace)
	if err != nil || again.Verdict != props.Violated || again.Witness == nil || len(again.Witness.Steps) != len(rep.Witness.Steps) {
		t.Fatalf("replay: %v, %+v", err, again)
	}
}

// TestViolatedTreeCheckWorksOnce: a violated tree-multicast check (000 Fig. 3 without
// pruning) parses its topology once, builds its model once and replays its witness once,
// on that model, to confirm it.
func TestViolatedTreeCheckWorksOnce(t *testing.T) {
	r, j, err := prepare(Instance{Algorithm: "tree-mcast", Topology: "mesh:2x2",
		Params: map[string]string{"msgs": "(0,0)->(1,0),(0,1);(1,1)->(0,1),(1,0)", "pruning": "none", "buffers": "1"}}, checker.PropDeadlock, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := j(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if ev, _ := rep.Evidence.(*props.FlitEvidence); rep.Verdict != props.Violated || rep.Witness == nil || ev == nil || ev.Model == nil {
		t.Fatalf("verdict %s, witness %+v, evidence %T", rep.Verdict, rep.Witness, rep.Evidence)
	}
	if want := (work{parses: 1, builds: 1, replays: 1}); r.work != want {
		t.Errorf("one violated tree-mcast check did %+v; want %+v", r.work, want)
	}
}
