package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model"
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
	s, err := model.ParseSchedule([]byte(`{"format":"wormcheck-schedule/1","topology":"torus:16x16","sources":[[0,0]],
 "destinations":[[15,0],[1,0],[0,15],[0,3],[0,2]],
 "unicasts":[{"from":[0,0],"to":[15,0],"step":1,"order":1},{"from":[0,0],"to":[1,0],"step":1,"order":2},
  {"from":[0,0],"to":[0,15],"step":1,"order":3},{"from":[0,0],"to":[0,3],"step":1,"order":4},
  {"from":[15,0],"to":[0,2],"step":2,"order":1,"path":[[15,0],[0,0],[0,1],[0,2]]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	pic, err := schedulePicture(s)
	if err != nil || !strings.Contains(string(pic), "both hold (0,0)-&gt;(0,1)") {
		t.Fatalf("render: %v", err)
	}
}
