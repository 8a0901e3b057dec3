package check

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/props"
)

// TestChainBound checks the chain-bound property through the entry: U-torus on a 6x6
// torus holds (per VC class, ceil(log2(1+|D|)) steps, within formula plus hop term) with
// the excess figure; separate addressing, which sends one unicast per step, is violated
// on its step count; a given timing point replaces the default three; several multicasts
// are refused.
func TestChainBound(t *testing.T) {
	run := func(algo, dests, point string) (*props.Report, error) {
		params := map[string]string{"dests": dests}
		if point != "" {
			params["point"] = point
		}
		rep, err := Run(t.Context(), Instance{Algorithm: algo, Topology: "torus:6x6", Params: params}, checker.PropChainBound, Options{})
		return rep, err
	}
	ut, err := run("utorus", "1,7,14,20,35", "")
	if err != nil {
		t.Fatal(err)
	}
	if ut.Verdict != checker.Holds || ut.Stats.States == 0 {
		t.Fatalf("utorus: %s (%s)", ut.Verdict, ut.Reason)
	}
	if _, ok := ut.Figures["excess_over_formula_tc"]; !ok {
		t.Errorf("utorus: no excess figure: %v", ut.Figures)
	}
	sep, err := run("separate", "1,7,14,20,35", "")
	if err != nil {
		t.Fatal(err)
	}
	if sep.Verdict != checker.Violated || !strings.Contains(sep.Reason, "5 steps, want ceil(log2(1+5)) = 3") || sep.Witness == nil {
		t.Errorf("separate: %s (%s), witness %v", sep.Verdict, sep.Reason, sep.Witness)
	}
	one, err := run("utorus", "1,7,14,20,35", "300,0,1,32")
	if err != nil {
		t.Fatal(err)
	}
	if one.Verdict != checker.Holds || one.Instance.Params["points"] != 1 {
		t.Errorf("one point: %s, params %v", one.Verdict, one.Instance.Params)
	}
	_, err = Run(t.Context(), Instance{Algorithm: "utorus", Topology: "torus:6x6", Params: map[string]string{"multicasts": "0:1,2;3:4,5"}}, checker.PropChainBound, Options{})
	if !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "one multicast") {
		t.Errorf("two multicasts: %v", err)
	}

	// RunSchedule judges a schedule the caller built the same way (proofs' NP8).
	for _, algo := range []string{"utorus", "separate"} {
		in := Instance{Algorithm: algo, Topology: "torus:6x6", Params: map[string]string{"dests": "1,7,14,20,35"}}
		s, err := BuildSchedule(context.Background(), in, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := RunSchedule(t.Context(), s, checker.PropChainBound, Options{})
		if err != nil {
			t.Fatal(err)
		}
		want, _ := run(algo, "1,7,14,20,35", "")
		if got.Verdict != want.Verdict || got.Reason != want.Reason || got.Stats.States != want.Stats.States {
			t.Errorf("%s: RunSchedule %s %q %d states; Run %s %q %d", algo, got.Verdict, got.Reason, got.Stats.States, want.Verdict, want.Reason, want.Stats.States)
		}
	}
	two, err := BuildSchedule(context.Background(), Instance{Algorithm: "utorus", Topology: "torus:6x6", Params: map[string]string{"multicasts": "0:1,2;3:4,5"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RunSchedule(t.Context(), two, checker.PropChainBound, Options{}); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), "one multicast") {
		t.Errorf("RunSchedule, two multicasts: %v", err)
	}
}
