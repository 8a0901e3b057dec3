package check_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// The judges the claims catalogue runs through the entry (proofs DC1-DC7) must each be
// able to fail: every test below makes one report a real violation.

func dcf4x4(t *testing.T) *model.Schedule {
	t.Helper()
	s, err := check.BuildSchedule(context.Background(), check.Instance{Algorithm: "dcf", Topology: "torus:4x4"}, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func runDCF(t *testing.T, topo string, prop checker.Property, params map[string]string) *props.Report {
	t.Helper()
	rep, err := check.Run(context.Background(), check.Instance{Algorithm: "dcf", Topology: topo, Params: params}, prop, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestStepsExact checks 004 Corollary 1's "exactly d steps" (d = 2 on 4x4): DCF holds,
// a claim of 1 or 3 steps is violated, and so are a schedule of d+1 steps and one of
// fewer than d steps, where the steps property (a bound) lets the short one pass.
func TestStepsExact(t *testing.T) {
	for claim, want := range map[string]props.Verdict{"2": props.Holds, "1": props.Violated, "3": props.Violated} {
		if rep := runDCF(t, "torus:4x4", checker.PropStepsExact, map[string]string{"steps": claim}); rep.Verdict != want {
			t.Errorf("steps-exact %s: %v, want %v\n%s", claim, rep.Verdict, want, rep)
		}
	}
	s := dcf4x4(t)
	long := *s
	long.Unicasts = slices.Clone(s.Unicasts)
	i := slices.IndexFunc(long.Unicasts, func(u model.Unicast) bool { return u.Step == 2 })
	long.Unicasts[i].Step = 3
	short := *s
	short.Unicasts = slices.DeleteFunc(slices.Clone(s.Unicasts), func(u model.Unicast) bool { return u.Step == 2 })
	for name, sc := range map[string]*model.Schedule{"d+1 steps": &long, "1 step": &short} {
		rep, err := check.RunSchedule(context.Background(), sc, checker.PropStepsExact, check.Options{Steps: 2})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if rep.Verdict != props.Violated || rep.Witness == nil || rep.Witness.Kind != props.WitnessInstance {
			t.Errorf("%s: steps-exact 2 gave %v, want violated with an instance witness\n%s", name, rep.Verdict, rep)
		}
	}
	if rep, err := check.RunSchedule(context.Background(), &long, checker.PropSteps, check.Options{Steps: 2}); err != nil || rep.Verdict != props.Violated {
		t.Errorf("steps (at most 2) of a 3-step schedule: %v %v", rep, err)
	}
	if _, err := check.RunSchedule(context.Background(), s, checker.PropStepsExact, check.Options{}); !errors.Is(err, check.ErrBadInput) {
		t.Errorf("steps-exact without a count: %v, want bad input", err)
	}
}

// TestStepwisePerturbedDCF moves the source's step-2 unicast of DCF into step 1: five
// unicasts leave the source through four channels, so two contend.
func TestStepwisePerturbedDCF(t *testing.T) {
	s := dcf4x4(t)
	if rep, _ := check.RunSchedule(context.Background(), s, checker.PropStepwise, check.Options{}); rep.Verdict != props.Holds {
		t.Fatalf("DCF 4x4 stepwise: %v", rep)
	}
	p := *s
	p.Unicasts = slices.Clone(s.Unicasts)
	i := slices.IndexFunc(p.Unicasts, func(u model.Unicast) bool { return u.Step == 2 && u.From == s.Sources[0] })
	if i < 0 {
		t.Fatal("DCF 4x4: the source sends nothing in step 2")
	}
	p.Unicasts[i].Step = 1
	rep, err := check.RunSchedule(context.Background(), &p, checker.PropStepwise, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated || rep.Witness == nil || rep.Witness.Kind != props.WitnessPair {
		t.Errorf("perturbed DCF: %v, want violated with a pair\n%s", rep.Verdict, rep)
	}
}

// TestDepthFigures checks that the depth report counts what it decided: the
// channel-sharing pairs (its States) and how 004 Theorem 1 clears them.
func TestDepthFigures(t *testing.T) {
	rep := runDCF(t, "torus:16x16", checker.PropDepth, nil)
	if rep.Verdict != props.Holds || rep.Figures["sharing_pairs"] != float64(rep.Stats.States) || len(rep.Notes) != 1 {
		t.Fatalf("DCF 16x16 depth: %v, figures %v, notes %q", rep.Verdict, rep.Figures, rep.Notes)
	}
	sum := rep.Figures["cleared_by_condition1"] + rep.Figures["cleared_by_condition3"] + rep.Figures["cleared_by_condition4"] + rep.Figures["cleared_by_none"]
	if sum != rep.Figures["sharing_pairs"] {
		t.Errorf("cleared counts %v do not add up to the pairs", rep.Figures)
	}
}

// TestFormula checks the formula judge: DCF meets its formula on the whole grid, EDN's
// simulation contends, and a formula one tc off is caught at the first point.
func TestFormula(t *testing.T) {
	rep := runDCF(t, "torus:16x16", checker.PropFormula, nil)
	if rep.Verdict != props.Holds || rep.Stats.Checked != int64(len(schedule.DefaultGrid())) || rep.Stats.Unit != "timing points" {
		t.Fatalf("DCF 16x16 formula: %v, checked %d %s", rep, rep.Stats.Checked, rep.Stats.Unit)
	}
	edn, err := check.Run(context.Background(), check.Instance{Algorithm: "edn", Topology: "torus:16x16"}, checker.PropFormula, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if edn.Verdict != props.Violated || edn.Witness == nil || edn.Witness.Kind != props.WitnessMeasurement {
		t.Errorf("EDN 16x16 formula: %v, want violated (its simulation contends)\n%s", edn.Verdict, edn)
	}
	one := runDCF(t, "torus:16x16", checker.PropFormula, map[string]string{"point": "200,200,1,32"})
	if one.Stats.Checked != 1 || one.Figures["simulated"] != one.Figures["formula"] {
		t.Errorf("DCF at one point: %v %v", one.Stats, one.Figures)
	}
	s, err := check.BuildSchedule(context.Background(), check.Instance{Algorithm: "dcf", Topology: "torus:16x16"}, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	offByOne := func(p props.Params) float64 { return one.Figures["formula"] + float64(p.Tc) }
	bad := check.Formula(context.Background(), s, offByOne, []props.Params{{Ts: 200, Tr: 200, Tc: 1, L: 32}}, true, &props.Report{})
	if bad.Verdict != props.Violated || bad.Witness == nil {
		t.Errorf("a formula one tc off: %v, want violated", bad.Verdict)
	}
	if _, err := check.Run(context.Background(), check.Instance{Algorithm: "dcf", Topology: "torus:4x4", Params: map[string]string{"point": "1,2,0,3"}}, checker.PropFormula, check.Options{}); !errors.Is(err, check.ErrBadInput) {
		t.Errorf("tc = 0: %v, want bad input", err)
	}
}

// TestZblockTies checks the ties parameter: 004 Fig. 6(b)'s ties give a valid Z_block
// broadcast, DOR's default (plus) breaks Definition 1's condition 3 in step 1.
func TestZblockTies(t *testing.T) {
	for ties, want := range map[string]props.Verdict{"paper": props.Holds, "plus": props.Violated} {
		rep, err := check.Run(context.Background(), check.Instance{Algorithm: "zblock", Topology: "torus:8x8", Params: map[string]string{"ties": ties}}, checker.PropValidity, check.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != want {
			t.Errorf("zblock ties=%s validity: %v, want %v\n%s", ties, rep.Verdict, want, rep)
		}
	}
}

// TestDistributions checks 003's model distributions: they hold on the SBT, and fail on
// U-mesh's recursive doubling (n steps too, but 1, 2, 4 nodes per step where eq. (5)
// says C(n,i)) and on separate addressing (2^n-1 steps).
func TestDistributions(t *testing.T) {
	rep, err := check.Run(context.Background(), check.Instance{Algorithm: "sbt", Topology: "hypercube:5", Params: map[string]string{"base": "2"}}, checker.PropDistributions, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Holds || rep.Stats.Checked != 13 || rep.Figures["mean_replications"] == 0 {
		t.Fatalf("SBT n=5: %v, checked %d, figures %v", rep, rep.Stats.Checked, rep.Figures)
	}
	for _, algo := range []string{"umesh", "separate"} {
		s, err := check.BuildSchedule(context.Background(), check.Instance{Algorithm: algo, Topology: "hypercube:3", Params: map[string]string{"dests": "all"}}, check.Options{})
		if err != nil {
			t.Fatal(err)
		}
		r := check.Distributions(s, 3, &props.Report{})
		if r.Verdict != props.Violated || r.Witness == nil || r.Witness.Kind != props.WitnessInstance {
			t.Errorf("%s on hypercube:3: %v, want violated with an instance witness\n%s", algo, r.Verdict, r)
		}
	}
}

// TestPartitionJudges runs the three judges of 001's DDNs where each holds and where
// each finds a real violation: Lemma 4 read for an odd h, P4 on a torus with a side of
// 2 (a ring of 2 has no wrap-around channel), and a directed DDN on a mesh (§3.2).
func TestPartitionJudges(t *testing.T) {
	cases := []struct {
		topo, typ, h, delta string
		prop                checker.Property
		want                props.Verdict
	}{
		{"torus:6x6", "IV", "2", "0", checker.PropLevels, props.Holds},
		{"torus:3x3", "IV", "3", "0", checker.PropLevels, props.Violated},
		{"torus:4x4", "III", "2", "1", checker.PropP1P5, props.Holds},
		{"torus:2x2", "III", "2", "1", checker.PropP1P5, props.Violated},
		{"torus:4x4", "III", "2", "1", checker.PropConnected, props.Holds},
		{"mesh:2x4", "III", "2", "1", checker.PropConnected, props.Violated},
	}
	for _, c := range cases {
		rep, err := check.Run(context.Background(), check.Instance{Algorithm: "partition", Topology: c.topo,
			Params: map[string]string{"type": c.typ, "h": c.h, "delta": c.delta}}, c.prop, check.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != c.want || rep.Stats.Checked == 0 || (c.want == props.Violated) != (rep.Witness != nil) {
			t.Errorf("%s type %s h=%s %s: %v (checked %d), want %v\n%s", c.topo, c.typ, c.h, c.prop, rep.Verdict, rep.Stats.Checked, c.want, rep)
		}
		// Every violation has its partition as evidence, marked violated with what it
		// names (nodes, channels or subnetworks).
		if c.want == props.Violated {
			ev, ok := rep.Evidence.(*props.PartitionEvidence)
			if !ok || !ev.Violated || len(ev.DDNs) == 0 || len(ev.Pair)+len(ev.HotChannels)+len(ev.HotSubnetworks) == 0 {
				t.Errorf("%s type %s h=%s %s: the evidence does not show the violation: %+v", c.topo, c.typ, c.h, c.prop, rep.Evidence)
			}
		}
	}
	if _, err := check.Run(context.Background(), check.Instance{Algorithm: "partition", Topology: "torus:4x4", Params: map[string]string{"type": "IV", "h": "3"}}, checker.PropLevels, check.Options{}); !errors.Is(err, check.ErrBadInput) {
		t.Errorf("h=3 on 4x4: %v, want bad input", err)
	}
}

// TestBanyanEnumerate checks banyan-route's enumerate method, the naive twin of the pair
// reduction: both hold on Property 1's family (ascending and descending, plain and
// cyclic) with the enumeration counting every pattern, and the enumeration refuses
// orders it cannot list rather than checking another family.
func TestBanyanEnumerate(t *testing.T) {
	for _, order := range []string{"ascending", "descending"} {
		for _, conc := range []string{"plain", "cyclic"} {
			rep, err := check.Run(context.Background(), check.Instance{Algorithm: "banyan-route", Topology: "banyan:8",
				Params: map[string]string{"family": "monotone", "order": order, "concentration": conc, "method": "enumerate"}}, "nonblocking", check.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if rep.Verdict != props.Holds || rep.Stats.Checked < 255 {
				t.Errorf("%s %s: %v after %d patterns", order, conc, rep.Verdict, rep.Stats.Checked)
			}
		}
	}
	for _, p := range []map[string]string{{"method": "enumerate"}, {"method": "enumerate", "order": "any"}} {
		topo := "banyan:8"
		if p["order"] == "" {
			topo = "banyan:32"
		}
		if _, err := check.Run(context.Background(), check.Instance{Algorithm: "banyan-route", Topology: topo, Params: p}, "nonblocking", check.Options{}); !errors.Is(err, check.ErrBadInput) {
			t.Errorf("%s %v: %v, want bad input", topo, p, err)
		}
	}
}

// TestPortPairs checks the port-pairs judge: two multicasts into one node at once
// occupy its port together (violated, one pair), one multicast alone does not.
func TestPortPairs(t *testing.T) {
	for multicasts, want := range map[string]float64{"0:5;10:5": 1, "0:5": 0} {
		rep, err := check.Run(context.Background(), check.Instance{Algorithm: "umesh", Topology: "mesh:4x4",
			Params: map[string]string{"multicasts": multicasts, "point": "0,0,1,1"}}, checker.PropPortPairs, check.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Figures["port_pairs"] != want || (want > 0) != (rep.Verdict == props.Violated) || rep.Stats.Checked != 1 {
			t.Errorf("%s: %v with %v port pairs, want %v\n%s", multicasts, rep.Verdict, rep.Figures["port_pairs"], want, rep)
		}
	}
}

// TestFlitContention checks the flit-level judge: DCF's broadcast on 16x16 never makes a
// header wait and completes at its formula, EDN's does wait at ts = tr = 0 (004 §6.2),
// and a point without tc = 1 is refused.
func TestFlitContention(t *testing.T) {
	run := func(algo, point string) (*props.Report, error) {
		return check.Run(context.Background(), check.Instance{Algorithm: algo, Topology: "torus:16x16", Params: map[string]string{"point": point}}, checker.PropFlitContention, check.Options{})
	}
	d, err := run("dcf", "0,0,1,5")
	if err != nil {
		t.Fatal(err)
	}
	if d.Verdict != props.Holds || d.Figures["simulated"] != d.Figures["formula"] || d.Stats.Checked == 0 {
		t.Errorf("DCF: %v, figures %v", d.Verdict, d.Figures)
	}
	e, err := run("edn", "0,0,1,5")
	if err != nil {
		t.Fatal(err)
	}
	if e.Verdict != props.Violated || e.Witness == nil || e.Witness.Kind != props.WitnessMeasurement {
		t.Errorf("EDN: %v, want violated with a measurement witness\n%s", e.Verdict, e)
	}
	if _, err := run("dcf", "0,0,2,5"); !errors.Is(err, check.ErrBadInput) {
		t.Errorf("tc = 2: %v, want bad input", err)
	}
}

// TestCollectivesKeepTheirSchedule: a collective's report carries its schedule as
// evidence whatever the verdict (the command line draws it when asked), with the
// contention marked only where there is one.
func TestCollectivesKeepTheirSchedule(t *testing.T) {
	ctx := context.Background()
	in := check.Instance{Algorithm: "dcf", Topology: "torus:4x4"}
	for _, tc := range []struct {
		steps string
		want  props.Verdict
	}{{"2", props.Holds}, {"3", props.Violated}} {
		in.Params = map[string]string{"steps": tc.steps}
		rep, err := check.Run(ctx, in, checker.PropStepsExact, check.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ev, ok := rep.Evidence.(*props.ScheduleEvidence)
		if rep.Verdict != tc.want || !ok || ev.Schedule == nil || !strings.HasPrefix(ev.Title, "dcf on torus:4x4") {
			t.Fatalf("steps %s: verdict %v (want %v), evidence %+v", tc.steps, rep.Verdict, tc.want, rep.Evidence)
		}
	}
}
