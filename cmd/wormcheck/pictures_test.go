package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/props/check"
)

// TestPictureOfScheduleAndTrace draws a schedule file and a saved trace, and refuses a
// file that is not JSON.
func TestPictureOfScheduleAndTrace(t *testing.T) {
	data, err := os.ReadFile("../../model/testdata/stepwise-not-depth.json")
	if err != nil {
		t.Fatal(err)
	}
	if pic, err := picture(context.Background(), "s.json", data); err != nil || !strings.Contains(string(pic), "<svg") {
		t.Errorf("schedule picture: %v", err)
	}
	rep, err := check.Run(context.Background(), check.Instance{Algorithm: "unicast", Topology: "torus:4",
		Params: map[string]string{"dateline": "off", "msgs": "0->2,1->3,2->0,3->1"}}, "deadlock", check.Options{})
	if err != nil || rep.Trace == nil {
		t.Fatalf("no trace to draw: %v", err)
	}
	tf, err := json.Marshal(rep.Trace)
	if err != nil {
		t.Fatal(err)
	}
	if pic, err := picture(context.Background(), "t.json", tf); err != nil || !strings.Contains(string(pic), "<svg") {
		t.Errorf("trace picture: %v", err)
	}
	if _, err := picture(context.Background(), "x.json", []byte("not json")); !errors.Is(err, check.ErrBadInput) || !strings.Contains(err.Error(), "x.json is not valid JSON") {
		t.Errorf("not JSON: %v", err)
	}
}

// TestSchedulePictureMarksContention draws a schedule that is stepwise but not depth
// contention-free with its contending pair marked.
func TestSchedulePictureMarksContention(t *testing.T) {
	data := []byte(`{"format":"wormcheck-schedule/1","topology":"torus:16x16","sources":[[0,0]],
 "destinations":[[15,0],[1,0],[0,15],[0,3],[0,2]],
 "unicasts":[{"from":[0,0],"to":[15,0],"step":1,"order":1},{"from":[0,0],"to":[1,0],"step":1,"order":2},
  {"from":[0,0],"to":[0,15],"step":1,"order":3},{"from":[0,0],"to":[0,3],"step":1,"order":4},
  {"from":[15,0],"to":[0,2],"step":2,"order":1,"path":[[15,0],[0,0],[0,1],[0,2]]}]}`)
	pic, err := picture(context.Background(), "s.json", data)
	if err != nil || !strings.Contains(string(pic), "both hold (0,0)-&gt;(0,1)") {
		t.Fatalf("render: %v", err)
	}
}

// TestDrawingErrorsReachTheUser: a picture the library's evidence cannot be drawn as (a
// schedule on a hypercube) is an error of one line after the report, exit 2, and no
// file; the same check without --svg exits with its verdict.
func TestDrawingErrorsReachTheUser(t *testing.T) {
	svg := t.TempDir() + "/s.svg"
	code, out, stderr := runCLI(t, "check", "--algo", "sbt", "--topo", "hypercube:4", "--prop", "stepwise", "--svg", svg)
	if code != exitUsage || !strings.Contains(out, "HOLDS") || strings.Count(stderr, "\n") != 1 || !strings.Contains(stderr, "picture "+svg+": render: only 1-D and 2-D meshes and tori can be drawn") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	if _, err := os.Stat(svg); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a picture file was written: %v", err)
	}
	if code, _, _ := runCLI(t, "check", "--algo", "sbt", "--topo", "hypercube:4", "--prop", "stepwise"); code != exitHolds {
		t.Errorf("without --svg: exit %d", code)
	}
}
