package proofs

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/algos/edn"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// The depth contention-free broadcast claims of Hou, Wang & Hsu (004): DCF (Theorems
// 2-4, Corollaries 1-4, §6.1), EDN (Tsai & McKinley, 004 §4, §6) and Z_block (§5.1-5.2).
// Every instance is checked through the entry, check.Run on the registry's dcf, edn and
// zblock (step semantics: validity, exactly-once, steps-exact, stepwise; timed: the exact
// depth decision over all ts, tr >= 0, tc > 0, L >= 1, and formula, the simulated
// completion against the published time); this file holds the claims, their instance
// lists and how the instances' reports add up. Sources: node (0,0) and two others per
// size; the torus is node-symmetric and the builders translate, so other sources give
// translated schedules (algos/dcf TestTranslation checks that on 16x16).
// dcSizes are the torus sides of DC1-DC3 and DC7: 4^k (4, 16, 64) and 2·4^k (8, 32);
// up to 16 quick, 32 default, 64 full.
func dcSizes(s Size) []int {
	return pick(s, []int{4, 8, 16}, []int{4, 8, 16, 32}, []int{4, 8, 16, 32, 64})
}

// dcInstance is one (size, source) broadcast of a DC family: the algorithm of the
// registry on torus:NxN from source (coordinates).
type dcInstance struct {
	n      int
	algo   string
	source string
}

func (in dcInstance) topo() string { return fmt.Sprintf("torus:%dx%d", in.n, in.n) }

// dcExtra is what one check adds to an instance: a claimed step count (steps,
// steps-exact), Z_block's tie rule, one timing point (formula).
type dcExtra struct {
	steps    int
	plusTies bool
	point    *props.Params
}

// run checks the instance for prop through the typed entry (check.Collective).
func (in dcInstance) run(ctx context.Context, prop checker.Property, x dcExtra) (*props.Report, error) {
	g, err := topology.Parse(in.topo())
	if err != nil {
		return nil, err
	}
	src, err := g.ParseNode(in.source)
	if err != nil {
		return nil, err
	}
	c := check.Collective{Algorithm: in.algo, Grid: g, Source: src, PlusTies: x.plusTies, Point: x.point}
	return c.Check(ctx, prop, check.Options{Steps: x.steps})
}

// instances lists the family: every size, from (0,0), (n/2+1, 1) and (n-1, n-1).
func instances(algo string, sizes []int) []dcInstance {
	var out []dcInstance
	for _, n := range sizes {
		for _, src := range [][2]int{{0, 0}, {(n/2 + 1) % n, 1}, {n - 1, n - 1}} {
			out = append(out, dcInstance{n: n, algo: algo, source: fmt.Sprintf("(%d,%d)", src[0], src[1])})
		}
	}
	return out
}

// check is one property of a DC claim with what it adds to each instance.
type dcCheck struct {
	prop  checker.Property
	extra func(dcInstance) dcExtra
}

func plain(props ...checker.Property) []dcCheck {
	out := make([]dcCheck, len(props))
	for i, p := range props {
		out[i] = dcCheck{prop: p}
	}
	return out
}

// stepsExact is the steps-exact check of "exactly d steps on a 2^d x 2^d torus".
var stepsExact = dcCheck{prop: checker.PropStepsExact, extra: func(in dcInstance) dcExtra {
	return dcExtra{steps: dcfSteps(in.n)}
}}

// scheduleClaim checks every instance for every check, in order; the first violated or
// inconclusive report decides (its witness and files are the claim's), else Holds.
// States sums the reports' Stats.States (the depth decision's channel-sharing pairs).
func scheduleClaim(ctx context.Context, insts []dcInstance, checks []dcCheck, note string) (Outcome, []*props.Report) {
	var out Outcome
	var reps []*props.Report
	for _, in := range insts {
		if err := ctx.Err(); err != nil {
			return Outcome{Verdict: Inconclusive, Err: err, Instances: out.Instances}, reps
		}
		out.Instances++
		for _, c := range checks {
			var x dcExtra
			if c.extra != nil {
				x = c.extra(in)
			}
			r, err := in.run(ctx, c.prop, x)
			if err != nil {
				return Outcome{Verdict: Inconclusive, Err: err, Instances: out.Instances}, reps
			}
			reps = append(reps, r)
			out.States += r.Stats.States
			if r.Verdict != props.Holds {
				out.Verdict = r.Verdict.String()
				out.Witness = reportWitness(r)
				out.Note = fmt.Sprintf("%dx%d from %s: %s: %s. %s", in.n, in.n, in.source, r.Property, r.Reason, note)
				out.Files, out.Evidence = witnessFiles(r), r.Evidence
				return out, reps
			}
		}
	}
	out.Verdict = Holds
	out.Note = fmt.Sprintf("tori %s, 3 sources each. %s", sizeList(insts), note)
	return out, reps
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

// witnessFiles are a violation's data files: the report as JSON (its picture is drawn
// from its evidence).
func witnessFiles(r *props.Report) map[string][]byte {
	files := map[string][]byte{}
	if b, err := json.MarshalIndent(r, "", "  "); err == nil {
		files["report.json"] = append(b, '\n') // a report, not a trace: ID.json is for replay
	}
	return files
}

// witnessJSON is a witness without a trace (a blocking pattern, an unreachable pair) as
// the file prove --witness-dir writes for it, ID.witness.json: tagged with its format
// (tracefile.WitnessFormat) so that replay and render can say what it is.
func witnessJSON(w any) ([]byte, error) {
	b, err := json.MarshalIndent(struct {
		Format  string `json:"format"`
		Witness any    `json:"witness"`
	}{tracefile.WitnessFormat, w}, "", "  ")
	return append(b, '\n'), err
}

// dcfSteps is d for a 2^d x 2^d torus: the step count 004 claims for DCF and EDN.
func dcfSteps(n int) int {
	d := 0
	for p := 1; p < n; p *= 2 {
		d++
	}
	return d
}

const dcfNote = "DCF_block reconstructed (004 Fig. 7 missing): algos/dcf Level1, found by SearchLevel1 over the constraints of §5.2, §6.1 and the proofs of Theorems 3-4."

func runDC1(ctx context.Context, env Env) Outcome {
	out, _ := scheduleClaim(ctx, instances("dcf", dcSizes(env.Size)),
		append(plain(checker.PropValidity, checker.PropExactlyOnce), stepsExact), dcfNote)
	return out
}

func runDC2(ctx context.Context, env Env) Outcome {
	out, _ := scheduleClaim(ctx, instances("dcf", dcSizes(env.Size)), plain(checker.PropStepwise), dcfNote)
	return out
}

func runDC3(ctx context.Context, env Env) Outcome {
	out, reps := scheduleClaim(ctx, instances("dcf", dcSizes(env.Size)), plain(checker.PropDepth),
		dcfNote+" Decided exactly (symbolic, all parameters) and cross-checked on props/schedule.DefaultGrid.")
	if out.Verdict != Holds || len(reps) == 0 {
		return out
	}
	// Theorem 1 bookkeeping (the depth report's figures) on the largest instance, and
	// the any-delay finding.
	out.Figures = map[string]float64{}
	for k, v := range reps[len(reps)-1].Figures {
		out.Figures[k] = v
	}
	var ad [2]*props.Report
	for i, n := range []int{4, 16} {
		r, err := dcInstance{n: n, algo: "dcf", source: "(0,0)"}.run(ctx, checker.PropAnyDelay, dcExtra{})
		if err != nil {
			return Outcome{Verdict: Inconclusive, Err: err, Instances: out.Instances}
		}
		ad[i] = r
	}
	out.Figures["any_delay_violated_4x4"] = b2f(ad[0].Verdict == props.Violated)
	out.Figures["any_delay_violated_16x16"] = b2f(ad[1].Verdict == props.Violated)
	out.Note += fmt.Sprintf(" Any-delay (not the paper's model): 4x4 %s, 16x16 %s", ad[0].Verdict, ad[1].Verdict)
	if w := ad[1].ScheduleWitness(); w != nil {
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

const ednNote = "EDN reconstructed from 004's facts (Tsai & McKinley's text is not in the seeds): algos/edn Pattern, the first of 72 admissible tiles."

func runDC4(ctx context.Context, env Env) Outcome {
	out, _ := scheduleClaim(ctx, instances("edn", dcSizes(env.Size)),
		append(plain(checker.PropValidity, checker.PropExactlyOnce), stepsExact, dcCheck{prop: checker.PropStepwise}), ednNote)
	return out
}

func runDC5(ctx context.Context, env Env) Outcome {
	out, _ := scheduleClaim(ctx, []dcInstance{{n: 16, algo: "edn", source: "(0,0)"}}, plain(checker.PropDepth),
		ednNote+fmt.Sprintf(" %d of the 72 admissible tiles are depth contention-free on 16x16 (algos/edn TestEveryTileDepth).", edn.DepthFreeTiles16))
	return out
}

// runDC6 judges the Z_block broadcast as 004 §5.1 describes it: ties routed the way Fig.
// 6(b) views the torus (zblock's ties=paper: the unit (X-δ, Y+δ) the Minus way round), so
// that Definition 1 holds. Every instance gets validity, stepwise and the exact depth
// decision; the claim is violated when some valid instance is not depth contention-free.
// Any-delay and the plus-tie variant (ties=plus, DOR's default tie rule, under which
// condition 3 already fails in step 1) are reported beside it in Figures and the Note.
func runDC6(ctx context.Context, env Env) Outcome {
	insts := instances("zblock", dcSizes(env.Size))
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
		var reps [5]*props.Report
		for i, c := range []struct {
			prop checker.Property
			ties string
		}{{checker.PropValidity, "paper"}, {checker.PropStepwise, "paper"}, {checker.PropDepth, "paper"},
			{checker.PropAnyDelay, "paper"}, {checker.PropValidity, "plus"}} {
			if i >= 3 && seen[in.n] {
				break
			}
			r, err := in.run(ctx, c.prop, dcExtra{plusTies: c.ties == "plus"})
			if err != nil {
				return Outcome{Verdict: Inconclusive, Err: err, Instances: out.Instances}
			}
			reps[i] = r
		}
		v, sw, d := reps[0], reps[1], reps[2]
		out.States += v.Stats.States + sw.Stats.States + d.Stats.States
		if v.Verdict != props.Holds {
			invalid++
			if firstReason == "" {
				firstReason = fmt.Sprintf("%s from %s: validity %s: %s", tag, in.source, v.Verdict, v.Reason)
			}
		}
		if sw.Verdict != props.Holds {
			notStepwise++
		}
		switch d.Verdict {
		case props.Violated:
			if out.Witness == nil && v.Verdict == props.Holds {
				out.Witness = reportWitness(d)
				out.Files, out.Evidence = witnessFiles(d), d.Evidence
				out.Note = fmt.Sprintf("%s from %s: %s. ", tag, in.source, firstLine(d.ScheduleWitness().String()))
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
			freeNotes = append(freeNotes, tag+": "+strings.Join(d.Notes, " "))
		} else {
			contended = append(contended, tag)
		}
		ad, pv := reps[3], reps[4]
		out.States += ad.Stats.States
		out.Figures["any_delay_violated_"+tag] = b2f(ad.Verdict == props.Violated)
		pd, err := in.run(ctx, checker.PropDepth, dcExtra{plusTies: true})
		if err != nil {
			return Outcome{Verdict: Inconclusive, Err: err, Instances: out.Instances}
		}
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

func listOr(xs []string, none string) string {
	if len(xs) == 0 {
		return none
	}
	return strings.Join(xs, ", ")
}

// runDC7 checks DCF's formula on every size (the registry's formula property over
// schedule.DefaultGrid, 128 points each), and reports EDN's and DCF's simulated times
// beside their formulas at the settings of 004 Figs. 8-9 (32x32, tc = 1) as figures.
func runDC7(ctx context.Context, env Env) Outcome {
	sizes := dcSizes(env.Size)
	var out Outcome
	out.Figures = map[string]float64{}
	points := 0
	for _, n := range sizes {
		r, err := dcInstance{n: n, algo: "dcf", source: "(0,0)"}.run(ctx, checker.PropFormula, dcExtra{})
		if err != nil {
			return Outcome{Verdict: Inconclusive, Err: err}
		}
		out.Instances += int(r.Stats.Checked)
		points = int(r.Stats.Checked)
		if r.Verdict != props.Holds {
			out.Verdict = r.Verdict.String()
			out.Witness = r.Witness
			out.Note = fmt.Sprintf("%dx%d %s", n, n, r.Reason)
			if r.Verdict == props.Inconclusive {
				out.Err = ctx.Err()
			}
			return out
		}
	}
	for _, n := range []int{16, 32} {
		for _, p := range []props.Params{{Ts: 0, Tr: 0, Tc: 1, L: 32}, {Ts: 200, Tr: 200, Tc: 1, L: 32}} {
			tag := fmt.Sprintf("%dx%d_ts%d_L%d", n, n, p.Ts, p.L)
			for _, algo := range []string{"edn", "dcf"} {
				r, err := dcInstance{n: n, algo: algo, source: "(0,0)"}.run(ctx, checker.PropFormula, dcExtra{point: &p})
				if err != nil {
					return Outcome{Verdict: Inconclusive, Err: err}
				}
				out.Figures[algo+"_sim_"+tag] = r.Figures["simulated"]
				out.Figures[algo+"_formula_"+tag] = r.Figures["formula"]
				if algo == "edn" {
					out.Figures["edn_contends_"+tag] = r.Figures["contends"]
				}
			}
		}
	}
	out.Verdict = Holds
	out.Note = fmt.Sprintf("simulated completion = 5k ts + 4(4^k-1)/3 tc + 2kL tc + 2k tr (and the 2·4^k form) exactly at all %d points of props/schedule.DefaultGrid on %v tori, no contention; EDN's simulated times (contention-free timing, first contention flagged) beside its formula in Figures. %s", points, sizes, dcfNote)
	return out
}

// reportWitness is a report's witness as the Outcome's (nil when there is none, never a
// typed nil).
func reportWitness(r *props.Report) any {
	if r.Witness != nil {
		return r.Witness
	}
	return nil
}
