package render_test

import (
	"os"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/edn"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// TestStepwiseNotDepthPicture draws the schedule that is stepwise contention-free but
// not depth contention-free: #3 (step 1) and #4 (step 2) both hold (0,0)->(0,1) at t=12
// under ts=3, tc=2, L=1. The picture must name both, their channel, the parameters and
// the overlap, and cut the 16x16 torus down to the region they cross.
func TestStepwiseNotDepthPicture(t *testing.T) {
	data, err := os.ReadFile("../../model/testdata/stepwise-not-depth.json")
	if err != nil {
		t.Fatal(err)
	}
	s, err := model.ParseSchedule(data)
	if err != nil {
		t.Fatal(err)
	}
	rep := schedule.Depth(s, schedule.DepthOptions{})
	w := rep.ScheduleWitness()
	if rep.Verdict != props.Violated || w == nil || w.Params == nil {
		t.Fatalf("depth: %v %+v; want a timed channel witness", rep.Verdict, rep.Witness)
	}
	pic, err := render.ScheduleTitled(s, w, "model/testdata/stepwise-not-depth.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#3 (0,0)-&gt;(0,3)", "#4 (15,0)-&gt;(0,2)", "both hold (0,0)-&gt;(0,1) at t=12", "ts=3, tr=0, tc=2, L=1", "overlap [12, 14)", "showing x 14..1"} {
		if !strings.Contains(string(pic), want) {
			t.Errorf("picture lacks %q", want)
		}
	}
	golden(t, "stepwise-not-depth.svg", pic)
}

// TestEDNPicture draws EDN's broadcast on a 16x16 torus, one panel per step.
// Reference: 004 (EDN), the schedule `wormcheck schedule --algo edn` writes.
func TestEDNPicture(t *testing.T) {
	g, err := topology.Parse("torus:16x16")
	if err != nil {
		t.Fatal(err)
	}
	s, err := edn.Build(g, g.Node(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	pic, err := render.ScheduleTitled(s, nil, "EDN broadcast on torus:16x16 from (0,0)")
	if err != nil {
		t.Fatal(err)
	}
	for k := 1; k <= s.Steps(); k++ {
		if !strings.Contains(string(pic), "id=\"step"+string(rune('0'+k))+"\"") {
			t.Errorf("no panel for step %d", k)
		}
	}
	golden(t, "edn-16x16.svg", pic)
}
