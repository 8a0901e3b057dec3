package proofs

import (
	"context"
	"fmt"
	"math"
	"strings"

	"github.com/wormcheck/wormcheck/algos/analytic"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// The simulator family: claims whose verdict is a measured agreement between an
// analytical model and the flit-level (or slotted) simulator of checker/sim.
func init() {
	Register(Claim{
		ID:        "HB3",
		Source:    "003 §3-4",
		Statement: "the analytical mean unicast and broadcast latencies of 003 (eqs. 1-33) agree with flit-level simulation below saturation",
		Semantics: "sim",
		Expected:  ExpectMeasured,
		Families:  one([3]string{"n = 6, one case, load 0.5, 20000 cycles", "n = 6, 4 cases x 4 loads, 20000 cycles", "n = 6..8, 10 cases x 4 loads, 40000 cycles"}, runHB3),
	})
	Register(Claim{
		ID:        "MN7",
		Source:    "002 §4",
		Statement: "the throughput recursion of 002 §4 for the unbuffered broadcast banyan with multicast agrees with slotted simulation (n = 7)",
		Semantics: "sim",
		Expected:  ExpectMeasured,
		Families:  one([3]string{"2 cases, 2000 slots", "24 cases, 5000 slots", "24 cases, 20000 slots"}, runMN7),
	})
	Register(Claim{
		ID:        "DC8",
		Source:    "004 §6.2 Fig. 8",
		Statement: "EDN's simulated broadcast time on a 32x32 torus exceeds its contention-free formula because of channel contention",
		Semantics: "sim",
		Expected:  ExpectMeasured,
		Families:  one([3]string{"L = 64", "L = 32, 128", "L = 32, 128, 512"}, runDC8),
	})
}

// hb3Case is one curve of 003 Figs. 3-4.
type hb3Case struct {
	n, V, M int
	b       float64
}

// modelSaturation finds the largest generation rate at which the 003 model still has a
// steady state (bisection to 0.1%).
func modelSaturation(c hb3Case) float64 {
	lo, hi := 0.0, 2.0/float64(c.M)
	for hi-lo > 1e-3*hi {
		mid := (lo + hi) / 2
		if _, err := analytic.HypercubeLatency(analytic.HypercubeParams{N: c.n, V: c.V, M: c.M, B: c.b, Rate: mid, Delta: 1}); err != nil {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo
}

// HB3Point is one row of the HB3 table.
type HB3Point struct {
	N, V, M   int
	B, Load   float64 // Load = rate / the model's saturation rate
	Rate      float64
	ModelU    float64
	ModelB    float64
	LiteralU  float64
	LiteralB  float64
	SimU      sim.Stat
	SimB      sim.Stat
	Saturated bool
}

// RelErrU returns (model - sim) / sim for unicast latency.
func (p HB3Point) RelErrU() float64 { return (p.ModelU - p.SimU.Mean) / p.SimU.Mean }

// RelErrB returns (model - sim) / sim for broadcast latency.
func (p HB3Point) RelErrB() float64 { return (p.ModelB - p.SimB.Mean) / p.SimB.Mean }

// RunHB3Point simulates one configuration of 003 §4 and evaluates the model beside it:
// hypercube n with e-cube routing (highest dimension first), V VCs of 2-flit buffers,
// all-port injection and delivery, M-flit messages, Δ = ts = 1 cycle, tr = 0, Poisson
// sources with broadcast fraction b (SBT with a random base dimension).
func RunHB3Point(c hb3Case, load float64, cycles int64, seed uint64) (HB3Point, error) {
	pt := HB3Point{N: c.n, V: c.V, M: c.M, B: c.b, Load: load}
	pt.Rate = load * modelSaturation(c)
	prm := analytic.HypercubeParams{N: c.n, V: c.V, M: c.M, B: c.b, Rate: pt.Rate, Delta: 1}
	m, err := analytic.HypercubeLatency(prm)
	if err != nil {
		return pt, err
	}
	pt.ModelU, pt.ModelB = m.Unicast, m.Broadcast
	prm.Literal = true
	if l, err := analytic.HypercubeLatency(prm); err == nil {
		pt.LiteralU, pt.LiteralB = l.Unicast, l.Broadcast
	} else {
		pt.LiteralU, pt.LiteralB = math.NaN(), math.NaN()
	}
	g, err := model.NewHypercube(c.n)
	if err != nil {
		return pt, err
	}
	res, err := sim.Run(sim.Config{
		Grid: g, Routing: model.DOR{Grid: g, Order: model.DescendingOrder(c.n)},
		VCs: c.V, Buffer: 2, Length: c.M, Ts: 1, Seed: seed,
		Warmup: cycles / 5, Cycles: cycles, DrainLimit: cycles,
		Traffic: sim.Traffic{Rate: pt.Rate, Broadcast: c.b},
	})
	if err != nil {
		return pt, err
	}
	pt.SimU, pt.SimB, pt.Saturated = res.Unicast, res.Broadcast, res.Saturated
	return pt, nil
}

func runHB3(ctx context.Context, env Env) Outcome {
	cases := []hb3Case{{6, 3, 32, 0.01}}
	loads := []float64{0.5}
	cycles := int64(20000)
	if env.Size != Quick {
		cases = []hb3Case{
			{6, 3, 32, 0.01}, {6, 4, 64, 0.02}, {6, 6, 100, 0.005}, {6, 3, 128, 0.03},
			{7, 3, 32, 0.02}, {7, 4, 64, 0.01}, {7, 6, 128, 0.005},
			{8, 3, 32, 0.005}, {8, 4, 64, 0.03}, {8, 6, 100, 0.01},
		}
		loads = []float64{0.25, 0.5, 0.75, 0.9}
		cycles = 40000
		if env.Size == Default {
			cases, cycles = cases[:4], 20000
		}
	}
	out := Outcome{Verdict: Measured, Figures: map[string]float64{}}
	var worstBelow, worstNear float64
	var sumCor, sumLit float64 // mean |relative error| at loads <= 0.5, corrected vs printed rate
	var nBelow int
	// The points are simulated on the member pool (each with its own seed) and folded
	// in order, so the figures do not depend on the worker count.
	type point struct {
		pt  HB3Point
		err error
	}
	env.Meter.Expect(int64(len(cases) * len(loads)))
	var ferr error
	serr := checker.Sweep(ctx, len(cases)*len(loads), env.Workers, func(ctx context.Context, _, i int) point {
		c, load := cases[i/len(loads)], loads[i%len(loads)]
		pt, err := RunHB3Point(c, load, cycles, uint64(1000*c.n+c.V*100+c.M)+uint64(load*100))
		if err != nil {
			err = fmt.Errorf("HB3 n=%d V=%d M=%d b=%v load %v: %v", c.n, c.V, c.M, c.b, load, err)
		}
		return point{pt, err}
	}, func(i int, p point) bool {
		c, load := cases[i/len(loads)], loads[i%len(loads)]
		if p.err != nil {
			ferr = p.err
			return false
		}
		env.Meter.Add(1, 0)
		pt := p.pt
		out.Instances++
		key := fmt.Sprintf("n%d_V%d_M%d_b%g_load%.2f", c.n, c.V, c.M, c.b, load)
		out.Figures[key+"_rate"] = pt.Rate
		out.Figures[key+"_unicast_model"] = pt.ModelU
		out.Figures[key+"_unicast_model_literal"] = pt.LiteralU
		out.Figures[key+"_unicast_sim"] = pt.SimU.Mean
		out.Figures[key+"_unicast_sim_ci95"] = pt.SimU.CI95
		out.Figures[key+"_unicast_relerr"] = pt.RelErrU()
		out.Figures[key+"_broadcast_model"] = pt.ModelB
		out.Figures[key+"_broadcast_model_literal"] = pt.LiteralB
		out.Figures[key+"_broadcast_sim"] = pt.SimB.Mean
		out.Figures[key+"_broadcast_sim_ci95"] = pt.SimB.CI95
		out.Figures[key+"_broadcast_relerr"] = pt.RelErrB()
		e := math.Max(math.Abs(pt.RelErrU()), math.Abs(pt.RelErrB()))
		if load <= 0.5 {
			worstBelow = math.Max(worstBelow, e)
			nBelow++
			sumCor += (math.Abs(pt.RelErrU()) + math.Abs(pt.RelErrB())) / 2
			sumLit += (math.Abs((pt.LiteralU-pt.SimU.Mean)/pt.SimU.Mean) + math.Abs((pt.LiteralB-pt.SimB.Mean)/pt.SimB.Mean)) / 2
		} else {
			worstNear = math.Max(worstNear, e)
		}
		return true
	})
	if ferr != nil {
		out.Err = ferr
		return out
	}
	if serr != nil {
		return cancelled(ctx, out)
	}
	out.Figures["max_relerr_load_le_0.5"] = worstBelow
	if len(loads) > 1 {
		out.Figures["max_relerr_load_gt_0.5"] = worstNear
	}
	out.Note = fmt.Sprintf("003 model (replicated-traffic rate corrected; the printed rate is in *_model_literal) vs flit-level simulation on hypercubes, loads as fractions of the model's saturation rate: worst relative error %.1f%% at loads <= 0.5", 100*worstBelow)
	if len(loads) > 1 {
		out.Note += fmt.Sprintf(", %.1f%% nearer saturation", 100*worstNear)
	}
	out.Note += "."
	if nBelow > 0 {
		out.Figures["mean_abs_relerr_load_le_0.5_corrected"] = sumCor / float64(nBelow)
		out.Figures["mean_abs_relerr_load_le_0.5_printed"] = sumLit / float64(nBelow)
		out.Note += fmt.Sprintf(" Mean |error| at loads <= 0.5: %.1f%% with the corrected rate, %.1f%% with the printed one.", 100*sumCor/float64(nBelow), 100*sumLit/float64(nBelow))
	}
	return out
}

// mn7Case is one point of 002 Fig. 6.
type mn7Case struct {
	p, m float64
	f    int
}

func runMN7(ctx context.Context, env Env) Outcome {
	const n = 7
	cases := []mn7Case{{1, 0.2, 4}, {0.5, 0.3, 2}}
	slots := 2000
	if env.Size != Quick {
		cases = nil
		for _, p := range []float64{0.25, 0.5, 0.75, 1} {
			for _, mf := range []struct {
				m float64
				f int
			}{{0, 1}, {0.2, 2}, {0.2, 4}, {0.5, 4}, {0.2, 8}, {0.5, 16}} {
				cases = append(cases, mn7Case{p, mf.m, mf.f})
			}
		}
		slots = pick(env.Size, 0, 5000, 20000)
	}
	b, err := model.NewBanyan(1 << n)
	if err != nil {
		return Outcome{Err: err}
	}
	out := Outcome{Verdict: Measured, Figures: map[string]float64{}}
	worst := 0.0
	for i, c := range cases {
		if err := ctx.Err(); err != nil {
			out.Err = err
			return out
		}
		cr, err := analytic.RangeCopyRates(n, c.f)
		if err != nil {
			out.Err = err
			return out
		}
		eta, err := analytic.MINThroughput(n, c.p, c.m, c.f, cr)
		if err != nil {
			out.Err = err
			return out
		}
		res, err := sim.SlottedBanyan(sim.BanyanConfig{Banyan: b, P: c.p, M: c.m, Fanout: c.f, Slots: slots, Seed: uint64(i + 1)})
		if err != nil {
			out.Err = err
			return out
		}
		out.Instances++
		key := fmt.Sprintf("p%.2f_m%.1f_f%d", c.p, c.m, c.f)
		out.Figures[key+"_offered"] = res.Offered
		out.Figures[key+"_model"] = eta
		out.Figures[key+"_sim"] = res.Throughput
		out.Figures[key+"_sim_accepted_whole"] = res.Accepted
		rel := (eta - res.Throughput) / res.Throughput
		out.Figures[key+"_relerr"] = rel
		worst = math.Max(worst, math.Abs(rel))
	}
	out.Figures["max_relerr"] = worst
	out.Note = fmt.Sprintf("002 §4 recursion (re-derived) with copy rates of unwrapped consecutive destination ranges vs slotted simulation of the 128-node unbuffered banyan: worst relative error %.2f%%.", 100*worst)
	return out
}

// runDC8 runs EDN (and DCF beside it, as 004 Figs. 8-9 plot both) on torus:32x32 from
// (0,0) in the flit-level simulator at each timing point through the entry (the
// collectives' flit-contention property) and reports the simulated times beside the
// contention-free formula and timed model.
func runDC8(ctx context.Context, env Env) Outcome {
	lengths := pick(env.Size, []int{64}, []int{32, 128}, []int{32, 128, 512})
	out := Outcome{Verdict: Measured, Figures: map[string]float64{}}
	var first map[string]any
	var excess, gaps []string
	timedIsFormula := true
	for _, lat := range []int{0, 200} {
		for _, L := range lengths {
			if err := ctx.Err(); err != nil {
				out.Err = err
				return out
			}
			point := fmt.Sprintf("%d,%d,1,%d", lat, lat, L)
			run := func(algo string) (*props.Report, error) {
				return check.Run(ctx, check.Instance{Algorithm: algo, Topology: "torus:32x32", Params: map[string]string{"point": point}}, check.PropFlitContention, check.Options{})
			}
			r, err := run("edn")
			if err != nil {
				out.Err = fmt.Errorf("DC8: %v", err)
				return out
			}
			key := fmt.Sprintf("ts_tr%d_L%d", lat, L)
			if r.Figures["single_vc_deadlocked"] == 1 {
				out.Figures[key+"_single_vc_deadlocked"] = 1
			}
			out.Instances++
			simulated, formula := r.Figures["simulated"], r.Figures["formula"]
			out.Figures[key+"_simulated"] = simulated
			out.Figures[key+"_formula"] = formula
			out.Figures[key+"_timed_model"] = r.Figures["timed_model"]
			out.Figures[key+"_excess"] = r.Figures["excess"]
			if rd, err := run("dcf"); err == nil {
				out.Figures[key+"_dcf_simulated"] = rd.Figures["simulated"]
				gaps = append(gaps, fmt.Sprintf("%+d", int64(simulated)-int64(rd.Figures["simulated"])))
			}
			if r.Figures["timed_model"] != formula {
				timedIsFormula = false
			}
			excess = append(excess, fmt.Sprintf("ts=tr=%d L=%d: %+.0f", lat, L, simulated-formula))
			if first == nil && r.Verdict == props.Violated {
				first, _ = r.Witness.Detail.(map[string]any)
			}
		}
	}
	agree := "which the timed model reproduces exactly"
	if !timedIsFormula {
		agree = "which the timed model does NOT reproduce at every point: see *_timed_model"
	}
	if first != nil {
		out.Witness = first
		out.Note = fmt.Sprintf("EDN on torus:32x32 from (0,0), flit level, one VC: simulated minus 15ts+42tc+5Ltc+5tr (the contention-free formula, %s) is %s; first contention on %s at cycle %d.", agree, strings.Join(excess, ", "), first["channel"], first["cycle"])
	} else {
		out.Note = "EDN on torus:32x32 from (0,0): no header ever waited; simulated time equals the timed model (" + strings.Join(excess, ", ") + ")."
	}
	if len(gaps) == len(excess) {
		out.Note += " EDN minus DCF (both simulated at the same points): " + strings.Join(gaps, ", ") + " cycles."
	}
	return out
}
