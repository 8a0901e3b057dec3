package check

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/props"
)

// TestBanyanLoadModelAgreement checks 002 §4's recursion against the slotted
// simulation through the entry: without a tolerance the report is a measurement that
// holds; with a tolerance looser than the measured error it holds, with one tighter it is
// violated, naming the error; the figures are the same each time (same seed).
func TestBanyanLoadModelAgreement(t *testing.T) {
	in := Instance{Algorithm: "banyan-load", Topology: "banyan:32", Params: map[string]string{"p": "1", "m": "0.5", "fanout": "4", "slots": "500"}}
	rep, err := Run(t.Context(), in, "", Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	rel := rep.Figures["relerr"]
	if rep.Verdict != checker.Holds || rep.Witness == nil || rep.Witness.Kind != props.WitnessMeasurement || rep.Figures["sim"] <= 0 || rep.Figures["model"] <= 0 || rel == 0 {
		t.Fatalf("measurement: %s, witness %+v, figures %v", rep.Verdict, rep.Witness, rep.Figures)
	}
	if want := (rep.Figures["model"] - rep.Figures["sim"]) / rep.Figures["sim"]; rel != want {
		t.Errorf("relerr %v, want (model - sim) / sim = %v", rel, want)
	}
	for _, c := range []struct {
		tol  float64
		want checker.Verdict
	}{{2 * math.Abs(rel), checker.Holds}, {math.Abs(rel) / 2, checker.Violated}} {
		in.Params["tolerance"] = ftoaTest(c.tol)
		r, err := Run(t.Context(), in, checker.PropModelAgreement, Options{Seed: 3})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != c.want || r.Figures["relerr"] != rel {
			t.Errorf("tolerance %v: %s, relerr %v; want %s, %v", c.tol, r.Verdict, r.Figures["relerr"], c.want, rel)
		}
		if c.want == checker.Violated && (r.Witness == nil || !strings.Contains(r.Witness.Violation, "exceeds the tolerance")) {
			t.Errorf("violation without its reason: %+v", r.Witness)
		}
	}
	in.Params["tolerance"] = "-1"
	if _, err := Run(t.Context(), in, "", Options{}); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "--tolerance") {
		t.Errorf("negative tolerance: %v", err)
	}
}

// TestCubeLoadModelAgreement checks 003's latency model against the flit-level
// simulator on a small hypercube: both latencies are measured with their relative errors,
// and a tolerance of zero is violated (a model is never exact), naming the worse error.
func TestCubeLoadModelAgreement(t *testing.T) {
	in := Instance{Algorithm: "cube-load", Topology: "hypercube:4", Params: map[string]string{"length": "16", "broadcast": "0.05", "load": "0.3", "cycles": "3000"}}
	rep, err := Run(t.Context(), in, checker.PropModelAgreement, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"rate", "unicast_model", "unicast_sim", "broadcast_model", "broadcast_sim"} {
		if !(rep.Figures[f] > 0) {
			t.Errorf("figure %s = %v", f, rep.Figures[f])
		}
	}
	if rep.Verdict != checker.Holds || rep.Witness.Kind != props.WitnessMeasurement {
		t.Fatalf("measurement: %s, %+v", rep.Verdict, rep.Witness)
	}
	in.Params["tolerance"] = "0"
	r, err := Run(t.Context(), in, checker.PropModelAgreement, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != checker.Violated || !strings.Contains(r.Reason, "latency") {
		t.Errorf("tolerance 0: %s, %q", r.Verdict, r.Reason)
	}
	if _, err := Run(t.Context(), Instance{Algorithm: "cube-load", Topology: "mesh:4x4"}, "", Options{}); !errors.Is(err, ErrBadInput) {
		t.Errorf("a mesh: %v", err)
	}
}

func ftoaTest(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// TestMcastLoadLatencyCompare checks the tree-vs-separate comparison through the entry
// on a small mesh: at a light load the tree's reduction is measured (with Dual-Path and
// PM beside it in the detail); a min-reduction above it is violated, one below it holds,
// and the figures do not depend on the rule.
func TestMcastLoadLatencyCompare(t *testing.T) {
	in := Instance{Algorithm: "mcast-load", Topology: "mesh:4x4", Params: map[string]string{"dests": "6", "loads": "0.005,0.02", "warmup": "200", "cycles": "1500"}}
	rep, err := Run(t.Context(), in, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	low, ok := rep.Figures["low_reduction"]
	if rep.Verdict != checker.Holds || !ok || rep.Witness == nil || rep.Witness.Kind != props.WitnessMeasurement {
		t.Fatalf("measurement: %s, figures %v, witness %+v", rep.Verdict, rep.Figures, rep.Witness)
	}
	d, _ := rep.Witness.Detail.(map[string]any)
	if pts, _ := d["points"].([]map[string]any); len(pts) != 4*2 {
		t.Errorf("detail has %d points; want 4 algorithms x 2 loads", len(pts))
	}
	for _, c := range []struct {
		min  float64
		want checker.Verdict
	}{{low + 0.5, checker.Violated}, {low - 0.5, checker.Holds}} {
		in.Params["min-reduction"] = strconv.FormatFloat(c.min, 'g', -1, 64)
		r, err := Run(t.Context(), in, checker.PropLatencyCompare, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != c.want || r.Figures["low_reduction"] != low {
			t.Errorf("min-reduction %v: %s (low reduction %v); want %s (%v)", c.min, r.Verdict, r.Figures["low_reduction"], c.want, low)
		}
	}
	in.Params["loads"] = "0.1,x"
	if _, err := Run(t.Context(), in, "", Options{}); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "--loads") {
		t.Errorf("bad loads: %v", err)
	}
}
