package check

import (
	"testing"

	"github.com/wormcheck/wormcheck/props"
)

// TestViolatedCheckWorksOnce: one violated `check --algo unicast --prop deadlock` (the
// torus ring without dateline classes) parses its topology once, builds its model once
// and replays nothing: its report, witness, picture and capture come from the model and
// the trace its search found. Its saved trace replays to the same witness.
func TestViolatedCheckWorksOnce(t *testing.T) {
	r, j, err := prepare(Instance{Algorithm: "unicast", Topology: "torus:4",
		Params: map[string]string{"msgs": "0->2,1->3,2->0,3->1", "dateline": "off"}}, props.PropDeadlock, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := j(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated || rep.Witness == nil || len(rep.Witness.Steps) == 0 || rep.SVG == nil || rep.PCAP == nil || rep.Trace == nil {
		t.Fatalf("verdict %s, witness %+v, svg %d bytes, pcap %d bytes", rep.Verdict, rep.Witness, len(rep.SVG), len(rep.PCAP))
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
		Params: map[string]string{"msgs": "(0,0)->(1,0),(0,1);(1,1)->(0,1),(1,0)", "pruning": "none", "buffers": "1"}}, props.PropDeadlock, Options{})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := j(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated || rep.Witness == nil || rep.SVG == nil || rep.PCAP == nil {
		t.Fatalf("verdict %s, witness %+v", rep.Verdict, rep.Witness)
	}
	if want := (work{parses: 1, builds: 1, replays: 1}); r.work != want {
		t.Errorf("one violated tree-mcast check did %+v; want %+v", r.work, want)
	}
}
