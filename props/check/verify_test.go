package check

import (
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
