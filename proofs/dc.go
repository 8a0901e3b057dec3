package proofs

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/algos/dcf"
	"github.com/wormcheck/wormcheck/algos/edn"
	"github.com/wormcheck/wormcheck/algos/zblock"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// The depth contention-free broadcast claims of Hou, Wang & Hsu (004): DCF (Theorems
// 2-4, Corollaries 1-4, §6.1), EDN (Tsai & McKinley, 004 §4, §6) and Z_block (§5.1-5.2).
// Every schedule is built by the algos packages and judged by the props checks (step
// semantics: validity, exactly-once, steps, stepwise; timed: the exact depth decision over
// all ts, tr >= 0, tc > 0, L >= 1). Sources: node (0,0) and two others per size; the torus
// is node-symmetric and the builders translate, so other sources give translated
// schedules (algos/dcf TestTranslation checks that on 16x16).
func init() {
	Register(Claim{ID: "DC1", Source: "004 Thm 2, Cor 1-2",
		Statement: "DCF reaches every node exactly once in d steps on a 2^d x 2^d torus",
		Semantics: "step", Expected: ExpectHolds, Families: one([3]string{"DCF tori 4x4..16x16", "DCF tori 4x4..32x32", "DCF tori 4x4..64x64"}, runDC1)})
	Register(Claim{ID: "DC2", Source: "004 Thm 3",
		Statement: "DCF is stepwise contention-free",
		Semantics: "step", Expected: ExpectHolds, Families: one([3]string{"DCF tori 4x4..16x16", "DCF tori 4x4..32x32", "DCF tori 4x4..64x64"}, runDC2)})
	Register(Claim{ID: "DC3", Source: "004 Thm 4, Cor 4",
		Statement: "DCF is depth contention-free for all ts, tr, tc, L",
		Semantics: "timed", Expected: ExpectHolds, Families: one([3]string{"DCF tori 4x4..16x16", "DCF tori 4x4..32x32", "DCF tori 4x4..64x64"}, runDC3)})
	Register(Claim{ID: "DC4", Source: "004 §4",
		Statement: "EDN is stepwise contention-free",
		Semantics: "step", Expected: ExpectHolds, Families: one([3]string{"EDN tori 4x4..16x16", "EDN tori 4x4..32x32", "EDN tori 4x4..64x64"}, runDC4)})
	Register(Claim{ID: "DC5", Source: "004 §4",
		Statement: "EDN is not depth contention-free",
		Semantics: "timed", Expected: ExpectViolated, Families: one([3]string{"EDN on 16x16", "EDN on 16x16", "EDN on 16x16"}, runDC5)})
	Register(Claim{ID: "DC6", Source: "004 §5.2",
		Statement: "Z_block broadcast is not depth contention-free",
		Semantics: "timed", Expected: ExpectViolated, Families: one([3]string{"Z_block tori 4x4..16x16", "Z_block tori 4x4..32x32", "Z_block tori 4x4..64x64"}, runDC6)})
	Register(Claim{ID: "DC7", Source: "004 §6.1",
		Statement: "DCF's contention-free completion time equals its formula",
		Semantics: "timed", Expected: ExpectHolds, Families: one([3]string{"DCF tori 4x4..16x16 x 128 timing points", "DCF tori 4x4..32x32 x 128 points", "DCF tori 4x4..64x64 x 128 points"}, runDC7)})
}

// dcSizes are the torus sides of DC1-DC3 and DC7: 4^k (4, 16, 64) and 2·4^k (8, 32);
// up to 16 quick, 32 default, 64 full.
func dcSizes(s Size) []int {
	return pick(s, []int{4, 8, 16}, []int{4, 8, 16, 32}, []int{4, 8, 16, 32, 64})
}

type builder func(g *model.Grid, src model.NodeID) (*model.Schedule, error)

// dcInstance is one (size, source) schedule.
type dcInstance struct {
	n int
	s *model.Schedule
}

func instances(sizes []int, build builder) ([]dcInstance, error) {
	var out []dcInstance
	for _, n := range sizes {
		g, err := model.NewTorus(n, n)
		if err != nil {
			return nil, err
		}
		for _, src := range []model.NodeID{0, g.Node(n/2+1, 1), g.Node(n-1, n-1)} {
			s, err := build(g, src)
			if err != nil {
				return nil, err
			}
			out = append(out, dcInstance{n, s})
		}
	}
	return out, nil
}

// scheduleClaim runs checks on every instance; the first violated or inconclusive
// report decides, else Holds. States sums the reports' Stats.States.
func scheduleClaim(ctx context.Context, insts []dcInstance, checks func(dcInstance) []*props.Report, note string) Outcome {
	var out Outcome
	sizes := map[int]bool{}
	for _, in := range insts {
		if err := ctx.Err(); err != nil {
			return Outcome{Verdict: Inconclusive, Err: err, Instances: out.Instances}
		}
		out.Instances++
		sizes[in.n] = true
		for _, r := range checks(in) {
			out.States += r.Stats.States
			if r.Verdict != props.Holds {
				out.Verdict = r.Verdict.String()
				out.Witness = schedWitness(r)
				out.Note = fmt.Sprintf("%dx%d from %s: %s: %s. %s", in.n, in.n, in.s.Topology.NodeName(in.s.Sources[0]), r.Property, r.Reason, note)
				out.Files = witnessFiles(in.s, r)
				return out
			}
		}
	}
	out.Verdict = Holds
	out.Note = fmt.Sprintf("tori %s, 3 sources each. %s", sizeList(insts), note)
	return out
}

func sizeList(insts []dcInstance) string {
	var parts []string
	last := 0
	for _, in := range insts {
		if in.n != last {
			parts = append(parts, fmt.Sprintf("%dx%d", in.n, in.n))
			last = in.n
		}
	}
	return strings.Join(parts, ", ")
}

// witnessFiles renders a violation: the witness as JSON and the schedule picture.
func witnessFiles(s *model.Schedule, r *props.Report) map[string][]byte {
	files := map[string][]byte{}
	if b, err := json.MarshalIndent(r, "", "  "); err == nil {
		files["json"] = b
	}
	if w := r.ScheduleWitness(); w != nil {
		if pic, err := render.Schedule(s, w); err == nil {
			files["svg"] = pic
		}
	}
	return files
}

func dcfSteps(n int) int {
	d := 0
	for p := 1; p < n; p *= 2 {
		d++
	}
	return d
}

const dcfNote = "DCF_block reconstructed (004 Fig. 7 missing): algos/dcf Level1, found by SearchLevel1 over the constraints of §5.2, §6.1 and the proofs of Theorems 3-4."

func runDC1(ctx context.Context, env Env) Outcome {
	insts, err := instances(dcSizes(env.Size), dcf.Build)
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	return scheduleClaim(ctx, insts, func(in dcInstance) []*props.Report {
		return []*props.Report{props.Validity(in.s), props.ExactlyOnce(in.s), props.StepCount(in.s, dcfSteps(in.n))}
	}, dcfNote)
}

func runDC2(ctx context.Context, env Env) Outcome {
	insts, err := instances(dcSizes(env.Size), dcf.Build)
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	return scheduleClaim(ctx, insts, func(in dcInstance) []*props.Report {
		return []*props.Report{props.Stepwise(in.s)}
	}, dcfNote)
}

func runDC3(ctx context.Context, env Env) Outcome {
	insts, err := instances(dcSizes(env.Size), dcf.Build)
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	out := scheduleClaim(ctx, insts, func(in dcInstance) []*props.Report {
		return []*props.Report{props.Depth(in.s, props.DepthOptions{})}
	}, dcfNote+" Decided exactly (symbolic, all parameters) and cross-checked on props.DefaultGrid.")
	// Theorem 1 bookkeeping and the any-delay finding on the largest instance.
	big := insts[len(insts)-1]
	if res, err := props.DecideDepth(big.s, props.DepthOptions{}); err == nil {
		out.Figures = map[string]float64{
			"sharing_pairs":         float64(len(res.Pairs)),
			"cleared_by_condition1": float64(res.Cleared[1]),
			"cleared_by_condition3": float64(res.Cleared[3]),
			"cleared_by_condition4": float64(res.Cleared[4]),
			"cleared_by_none":       float64(res.Cleared[0]),
		}
	}
	g4, _ := model.NewTorus(4, 4)
	s4, _ := dcf.Build(g4, 0)
	ad := props.AnyDelay(s4)
	g16, _ := model.NewTorus(16, 16)
	s16, _ := dcf.Build(g16, 0)
	ad16 := props.AnyDelay(s16)
	if out.Figures == nil {
		out.Figures = map[string]float64{}
	}
	out.Figures["any_delay_violated_4x4"] = b2f(ad.Verdict == props.Violated)
	out.Figures["any_delay_violated_16x16"] = b2f(ad16.Verdict == props.Violated)
	out.Note += fmt.Sprintf(" Any-delay (not the paper's model): 4x4 %s, 16x16 %s", ad.Verdict, ad16.Verdict)
	if w := ad16.ScheduleWitness(); w != nil {
		out.Note += " (" + firstLine(w.String()) + ")"
	}
	out.Note += "."
	return out
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// ednSizes are the torus sides of DC4, as dcSizes.
func ednSizes(s Size) []int { return dcSizes(s) }

const ednNote = "EDN reconstructed from 004's facts (Tsai & McKinley's text is not in the seeds): algos/edn Pattern, the first of 72 admissible tiles."

func runDC4(ctx context.Context, env Env) Outcome {
	insts, err := instances(ednSizes(env.Size), edn.Build)
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	return scheduleClaim(ctx, insts, func(in dcInstance) []*props.Report {
		return []*props.Report{props.Validity(in.s), props.ExactlyOnce(in.s), props.StepCount(in.s, dcfSteps(in.n)), props.Stepwise(in.s)}
	}, ednNote)
}

func runDC5(ctx context.Context, env Env) Outcome {
	g, _ := model.NewTorus(16, 16)
	s, err := edn.Build(g, 0)
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	out := scheduleClaim(ctx, []dcInstance{{16, s}}, func(in dcInstance) []*props.Report {
		return []*props.Report{props.Depth(in.s, props.DepthOptions{})}
	}, ednNote+fmt.Sprintf(" %d of the 72 admissible tiles are depth contention-free on 16x16 (algos/edn TestEveryTileDepth).", edn.DepthFreeTiles16))
	return out
}

// dc6Sizes are the torus sides DC6 judges, as dcSizes.
func dc6Sizes(s Size) []int { return dcSizes(s) }

// runDC6 judges the Z_block broadcast as 004 §5.1 describes it: ties routed the way Fig.
// 6(b) views the torus (zblock.PaperTies: the unit (X-δ, Y+δ) the Minus way round), so
// that Definition 1 holds. Every instance gets validity, stepwise and the exact depth
// decision; the claim is violated when some valid instance is not depth contention-free.
// Any-delay and the plus-tie variant (DOR's default tie rule, under which condition 3
// already fails in step 1) are reported beside it in Figures and the Note.
func runDC6(ctx context.Context, env Env) Outcome {
	sizes := dc6Sizes(env.Size)
	insts, err := instances(sizes, zblock.Build)
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	out := Outcome{Figures: map[string]float64{}}
	invalid, notStepwise, inconclusive := 0, 0, 0
	var free, contended, freeNotes, plusInvalid, plusContended, anyDelayViolated []string
	var firstReason, plusWitness string
	seen := map[int]bool{}
	for _, in := range insts {
		if err := ctx.Err(); err != nil {
			return Outcome{Verdict: Inconclusive, Err: err, Instances: out.Instances}
		}
		out.Instances++
		tag := fmt.Sprintf("%dx%d", in.n, in.n)
		v := props.Validity(in.s)
		sw := props.Stepwise(in.s)
		d := props.Depth(in.s, props.DepthOptions{})
		out.States += v.Stats.States + sw.Stats.States + d.Stats.States
		if v.Verdict != props.Holds {
			invalid++
			if firstReason == "" {
				firstReason = fmt.Sprintf("%s from %s: validity %s: %s", tag, in.s.Topology.NodeName(in.s.Sources[0]), v.Verdict, v.Reason)
			}
		}
		if sw.Verdict != props.Holds {
			notStepwise++
		}
		switch d.Verdict {
		case props.Violated:
			if out.Witness == nil && v.Verdict == props.Holds {
				out.Witness = schedWitness(d)
				out.Files = witnessFiles(in.s, d)
				w := d.ScheduleWitness()
				out.Note = fmt.Sprintf("%s from %s: %s. ", tag, in.s.Topology.NodeName(in.s.Sources[0]), firstLine(w.String()))
			}
		case props.Inconclusive:
			inconclusive++
		}
		if seen[in.n] {
			continue
		}
		// Per size (from (0,0); the torus is node-symmetric): the verdicts as figures,
		// any-delay, and the plus-tie variant for comparison.
		seen[in.n] = true
		out.Figures["depth_violated_"+tag] = b2f(d.Verdict == props.Violated)
		if d.Verdict == props.Holds {
			free = append(free, tag)
			if res, err := props.DecideDepth(in.s, props.DepthOptions{}); err == nil {
				freeNotes = append(freeNotes, unclearedPairs(tag, in.s, res))
			}
		} else {
			contended = append(contended, tag)
		}
		ad := props.AnyDelay(in.s)
		out.States += ad.Stats.States
		out.Figures["any_delay_violated_"+tag] = b2f(ad.Verdict == props.Violated)
		plus, err := zblock.BuildPlusTies(in.s.Topology.(*model.Grid), in.s.Sources[0])
		if err != nil {
			return Outcome{Verdict: Inconclusive, Err: err}
		}
		pv, pd := props.Validity(plus), props.Depth(plus, props.DepthOptions{})
		out.Figures["plus_ties_valid_"+tag] = b2f(pv.Verdict == props.Holds)
		out.Figures["plus_ties_depth_violated_"+tag] = b2f(pd.Verdict == props.Violated)
		if pv.Verdict != props.Holds {
			plusInvalid = append(plusInvalid, tag)
		}
		if plusWitness == "" {
			if w := pd.ScheduleWitness(); w != nil {
				why := pv.Reason
				if vw := pv.ScheduleWitness(); vw != nil {
					why = vw.String()
				}
				plusWitness = fmt.Sprintf("%s: validity %s (%s); depth: %s", tag, pv.Verdict, firstLine(why), firstLine(w.String()))
			}
		}
		if pd.Verdict == props.Violated {
			plusContended = append(plusContended, tag)
		}
		if ad.Verdict == props.Violated {
			anyDelayViolated = append(anyDelayViolated, tag)
		}
	}
	switch {
	case out.Witness != nil:
		out.Verdict = Violated
	case inconclusive > 0:
		out.Verdict = Inconclusive
	default:
		out.Verdict = Holds
	}
	if firstReason != "" {
		out.Note += "Definition 1 fails: " + firstReason + ". "
	}
	out.Note += fmt.Sprintf("Z_block with 004 Fig. 6(b)'s tie directions (the unit (X-δ, Y+δ) reached the Minus way round at δ = k/2; units (X-1,Y+1), (X,Y+1), (X+1,Y): the garbled third read as (X+1,Y), the only Z that tiles) on %s, 3 sources each: %d of %d instances valid (Definition 1), %d stepwise contention-free; depth contention-free on %s, contended on %s (exact decision). ",
		sizeList(insts), len(insts)-invalid, len(insts), len(insts)-notStepwise, listOr(free, "none"), listOr(contended, "none"))
	for _, n := range freeNotes {
		out.Note += n + " "
	}
	out.Note += fmt.Sprintf("For comparison, with DOR's default tie rule (ties Plus) the unit (X-δ, Y+δ) leaves by the same +x channel as (X+δ, Y) in step 1: that variant (zblock.BuildPlusTies, Figures plus_ties_*) is invalid (Definition 1) on %s and depth-contended on %s (first: %s). Any-delay (not the paper's model) is violated on %s.",
		listOr(plusInvalid, "no size"), listOr(plusContended, "no size"), listOr([]string{plusWitness}, "none"), listOr(anyDelayViolated, "no size"))
	return out
}

// unclearedPairs describes, for a depth contention-free schedule, the channel-sharing
// pairs that no condition of 004 Theorem 1 clears yet cannot overlap (Theorem 1 is
// sufficient, not necessary).
func unclearedPairs(tag string, s *model.Schedule, res *props.DepthResult) string {
	var parts []string
	for _, p := range res.Pairs {
		if p.Condition == 0 && !p.Overlap {
			a, b := props.Ref(s, p.A), props.Ref(s, p.B)
			parts = append(parts, fmt.Sprintf("%s->%s (step %d, order %d) and %s->%s (step %d, order %d) on %s", a.From, a.To, a.Step, a.Order, b.From, b.To, b.Step, b.Order, p.Channel))
		}
	}
	if len(parts) == 0 {
		return fmt.Sprintf("%s: Theorem 1 clears every channel-sharing pair.", tag)
	}
	return fmt.Sprintf("%s: depth contention-free although Theorem 1 clears %d pair(s) by no condition: %s (the exact decision shows they never overlap).", tag, len(parts), strings.Join(parts, "; "))
}

func listOr(xs []string, none string) string {
	if len(xs) == 0 {
		return none
	}
	return strings.Join(xs, ", ")
}

func runDC7(ctx context.Context, env Env) Outcome {
	sizes := dcSizes(env.Size)
	var out Outcome
	out.Figures = map[string]float64{}
	grid := props.DefaultGrid()
	for _, n := range sizes {
		if err := ctx.Err(); err != nil {
			return Outcome{Verdict: Inconclusive, Err: err}
		}
		g, _ := model.NewTorus(n, n)
		s, _ := dcf.Build(g, 0)
		sh, _ := dcf.ShapeOf(g)
		for _, p := range grid {
			t, err := props.Simulate(s, p)
			if err != nil {
				return Outcome{Verdict: Inconclusive, Err: err}
			}
			out.Instances++
			// Formula in units of tc: scale ts, tr by 1/tc.
			f := dcf.Formula(sh, dcf.Times{Ts: float64(p.Ts), Tr: float64(p.Tr), Tc: float64(p.Tc), L: int(p.L)})
			if t.First != nil || float64(t.Completion) != f {
				out.Verdict = Violated
				out.Witness = map[string]any{"size": n, "parameters": p, "simulated": t.Completion, "formula": f, "contention": t.First}
				out.Note = fmt.Sprintf("%dx%d at %v: simulated %d, formula %g", n, n, p, t.Completion, f)
				return out
			}
		}
	}
	// EDN beside its formula (004 §6.1), at the settings of Figs. 8-9 (32x32, tc = 1).
	for _, n := range []int{16, 32} {
		g, _ := model.NewTorus(n, n)
		s, _ := edn.Build(g, 0)
		k, prime, _ := edn.Shape(g)
		d, _ := dcf.Build(g, 0)
		sh, _ := dcf.ShapeOf(g)
		for _, p := range []props.Params{{Ts: 0, Tr: 0, Tc: 1, L: 32}, {Ts: 200, Tr: 200, Tc: 1, L: 32}} {
			t, _ := props.Simulate(s, p)
			td, _ := props.Simulate(d, p)
			tag := fmt.Sprintf("%dx%d_ts%d_L%d", n, n, p.Ts, p.L)
			out.Figures["edn_sim_"+tag] = float64(t.Completion)
			out.Figures["edn_formula_"+tag] = edn.Formula(k, prime, edn.Times{Ts: float64(p.Ts), Tr: float64(p.Tr), Tc: float64(p.Tc), L: int(p.L)})
			out.Figures["edn_contends_"+tag] = b2f(t.First != nil)
			out.Figures["dcf_sim_"+tag] = float64(td.Completion)
			out.Figures["dcf_formula_"+tag] = dcf.Formula(sh, dcf.Times{Ts: float64(p.Ts), Tr: float64(p.Tr), Tc: float64(p.Tc), L: int(p.L)})
		}
	}
	out.Verdict = Holds
	out.Note = fmt.Sprintf("simulated completion = 5k ts + 4(4^k-1)/3 tc + 2kL tc + 2k tr (and the 2·4^k form) exactly at all %d points of props.DefaultGrid on %v tori, no contention; EDN's simulated times (contention-free timing, first contention flagged) beside its formula in Figures. %s", len(grid), sizes, dcfNote)
	return out
}

// schedWitness is the schedule evidence of r as the Outcome's witness (nil when there is
// none, never a typed nil).
func schedWitness(r *props.Report) any {
	if w := r.ScheduleWitness(); w != nil {
		return w
	}
	return nil
}
