package check

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/props"
)

// TestVerifyFileWorstVerdictAndVersion verifies a schedule that is stepwise
// contention-free but not depth contention-free: one report per semantics, the worst
// verdict violated, the version recorded everywhere, the text every report in order.
func TestVerifyFileWorstVerdictAndVersion(t *testing.T) {
	const file = "../../model/testdata/stepwise-not-depth.json"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	v, err := VerifyFile(t.Context(), file, data, "step,timed")
	if err != nil {
		t.Fatal(err)
	}
	if v.Verdict != props.Violated || len(v.Reports) == 0 || v.Schema != VerifySchema || v.File != file {
		t.Fatalf("verdict %s, %d reports, schema %q, file %q", v.Verdict, len(v.Reports), v.Schema, v.File)
	}
	sems := map[string]bool{}
	for _, r := range v.Reports {
		sems[r.Semantics] = true
	}
	if !sems["step"] || !sems["timed"] || sems["any-delay"] {
		t.Errorf("semantics run: %v; want step and timed only", sems)
	}
	v.SetVersion("9.9")
	for _, r := range v.Reports {
		if r.Version != "9.9" {
			t.Errorf("report %s has version %q", r.Property, r.Version)
		}
	}
	var b strings.Builder
	v.WriteText(&b)
	if !strings.HasPrefix(b.String(), v.Reports[0].String()) {
		t.Errorf("text does not start with the first report:\n%s", b.String())
	}
}

// TestVerifyFileBadInput names the file in every refusal.
func TestVerifyFileBadInput(t *testing.T) {
	for _, c := range []struct{ data, sems, says string }{
		{`{"format":"wormcheck-schedule/1"}`, "bogus", "f.json: "},
		{`{"format":"wormcheck-trace/1"}`, "", "f.json: "},
		{`{"format":"wormcheck-schedule/1","topology":"mesh:0x0"}`, "", "f.json: "},
	} {
		_, err := VerifyFile(t.Context(), "f.json", []byte(c.data), c.sems)
		if !errors.Is(err, ErrBadInput) || !strings.HasPrefix(err.Error(), c.says) {
			t.Errorf("%s (%q): %v", c.data, c.sems, err)
		}
	}
}

// TestPictureOfScheduleAndTrace draws a schedule file and a saved trace, and refuses a
// file that is not JSON.
func TestPictureOfScheduleAndTrace(t *testing.T) {
	data, err := os.ReadFile("../../model/testdata/stepwise-not-depth.json")
	if err != nil {
		t.Fatal(err)
	}
	if pic, err := Picture(context.Background(), "s.json", data); err != nil || !strings.Contains(string(pic), "<svg") {
		t.Errorf("schedule picture: %v", err)
	}
	rep, err := Run(context.Background(), Instance{Algorithm: "unicast", Topology: "torus:4",
		Params: map[string]string{"dateline": "off", "msgs": "0->2,1->3,2->0,3->1"}}, "deadlock", Options{})
	if err != nil || rep.Trace == nil {
		t.Fatalf("no trace to draw: %v", err)
	}
	tf, err := json.Marshal(rep.Trace)
	if err != nil {
		t.Fatal(err)
	}
	if pic, err := Picture(context.Background(), "t.json", tf); err != nil || !strings.Contains(string(pic), "<svg") {
		t.Errorf("trace picture: %v", err)
	}
	if _, err := Picture(context.Background(), "x.json", []byte("not json")); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "x.json is not valid JSON") {
		t.Errorf("not JSON: %v", err)
	}
}
