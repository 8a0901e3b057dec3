package check

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/wormcheck/wormcheck/algos/analytic"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// toleranceParam is the "tolerance" parameter of the model-agreement algorithms.
var toleranceParam = Param{"tolerance", "", "largest |relative error| of the model against the simulation that holds (empty: no rule, the report is a measurement)"}

// tolerance reads the tolerance parameter: ok is false when none was given (no rule).
func tolerance(r *request) (tol float64, ok bool, err error) {
	if r.str("tolerance") == "" {
		return 0, false, nil
	}
	if tol, err = r.float("tolerance"); err != nil {
		return 0, false, err
	}
	if !(tol >= 0) || math.IsInf(tol, 0) {
		return 0, false, badf("--tolerance %v: want a non-negative number", tol)
	}
	return tol, true, nil
}

// agreement finishes a model-agreement report: the figures, the worst relative error
// worst (of what, named by what) judged against the tolerance tol when ruled, and a
// measurement witness carrying the figures.
func agreement(rep *props.Report, figs map[string]float64, worst float64, what string, tol float64, ruled bool) *props.Report {
	for k, v := range figs {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			delete(figs, k) // undefined (a model without a steady state): JSON has no NaN
		}
	}
	rep.Figures = figs
	rep.Verdict = props.Holds
	w := &props.Witness{Kind: props.WitnessMeasurement, Figures: figs}
	if ruled && !(math.Abs(worst) <= tol) {
		rep.Verdict = props.Violated
		rep.Reason = fmt.Sprintf("%s: |relative error| %.4g exceeds the tolerance %g", what, math.Abs(worst), tol)
		w.Violation = rep.Reason
	}
	rep.Witness = w
	return rep
}

// banyanLoadAlgorithm is random multicast traffic on the unbuffered broadcast banyan,
// whose throughput 002 §4 predicts by a recursion over the stages.
func banyanLoadAlgorithm() Algorithm {
	return Algorithm{
		Name:    "banyan-load",
		Summary: "random unicast and multicast traffic on the unbuffered broadcast banyan: 002 §4's throughput recursion against slotted simulation",
		Doc: `Every node offers a packet per slot with probability p; a fraction m of them are
multicasts to fanout consecutive destinations, the rest unicasts to a uniform
destination; blocked packets are dropped (002 §4, assumptions 1-3). Property
model-agreement evaluates 002 §4's throughput recursion (analytic.MINThroughput, with
the copy rates of unwrapped destination ranges) and the slotted simulation
(sim.SlottedBanyan, seeded by the seed option) and reports both with their relative error; figures offered, model,
sim, sim_accepted_whole, relerr.`,
		Properties: []Support{{checker.PropModelAgreement, props.SemSim}},
		Params: []Param{
			{"p", "1", "probability that a node offers a packet in a slot"},
			{"m", "0", "fraction of packets that are multicasts"},
			{"fanout", "1", "destinations of a multicast (consecutive)"},
			{"slots", "10000", "measured slots"},
			toleranceParam,
		},
		prepare: prepareBanyanLoad,
	}
}

func prepareBanyanLoad(r *request) (job, error) {
	b, err := banyanTopo(r.topology)
	if err != nil {
		return nil, err
	}
	var q BanyanLoad
	q.Banyan = b
	if q.P, err = r.float("p"); err != nil {
		return nil, err
	}
	if q.M, err = r.float("m"); err != nil {
		return nil, err
	}
	if q.Fanout, err = r.integer("fanout", 1, b.Nodes()); err != nil {
		return nil, err
	}
	if q.Slots, err = r.integer("slots", 1, 1<<30); err != nil {
		return nil, err
	}
	tol, ruled, err := tolerance(r)
	if err != nil {
		return nil, err
	}
	return q.prepare(r, tol, ruled)
}

// BanyanLoad is the typed request of random multicast traffic on the unbuffered
// broadcast banyan (the registry's "banyan-load", 002 §4). Its Check takes
// checker.PropModelAgreement; Options.Seed seeds the simulation.
type BanyanLoad struct {
	Banyan *topology.Banyan
	// P is the probability that a node offers a packet in a slot, M the fraction of
	// packets that are multicasts to Fanout consecutive destinations (0: 1), Slots the
	// measured slots (0: 10000).
	P, M   float64
	Fanout int
	Slots  int
	// Tolerance, when > 0, is the largest relative error of the model that holds;
	// 0 makes the report a measurement.
	Tolerance float64
}

// Check checks q for property under opt, as Run does for the same instance by name.
func (q BanyanLoad) Check(ctx context.Context, property checker.Property, opt Options) (*props.Report, error) {
	return Run(ctx, q, property, opt)
}

// jobFor validates q for property under opt and returns the job that checks it
// (Request).
func (q BanyanLoad) jobFor(property checker.Property, opt Options) (job, error) {
	if q.Banyan == nil {
		return nil, badf("BanyanLoad.Banyan is nil; give the banyan (topology.ParseBanyan)")
	}
	return typedJob(banyanLoadAlgorithm(), "BanyanLoad", q.Banyan.Spec(), property, opt, func(r *request) (job, error) {
		return q.prepare(r, q.Tolerance, q.Tolerance > 0)
	})
}

// prepare validates q and returns the job that simulates it, judged against tol when
// ruled.
func (q BanyanLoad) prepare(r *request, tol float64, ruled bool) (job, error) {
	b, p, m, f, slots := q.Banyan, q.P, q.M, max(q.Fanout, 1), q.Slots
	if slots == 0 {
		slots = 10000
	}
	seed := r.seed()
	switch {
	case !(p >= 0 && p <= 1) || !(m >= 0 && m <= 1):
		return nil, badf("--p %v and --m %v: want probabilities in [0,1]", p, m)
	case f > b.Nodes():
		return nil, badf("--fanout %d is out of range; use 1..%d", f, b.Nodes())
	case slots < 1 || slots > 1<<30:
		return nil, badf("--slots %d is out of range; use 1..%d", slots, 1<<30)
	}
	n := b.Stages()
	cr, err := analytic.RangeCopyRates(n, f)
	if err != nil {
		return nil, badf("--fanout: %v", err)
	}
	return func(ctx context.Context) (*props.Report, error) {
		start := time.Now()
		eta, err := analytic.MINThroughput(n, p, m, f, cr)
		if err != nil {
			return nil, badf("%v", err)
		}
		res, err := sim.SlottedBanyan(sim.BanyanConfig{Banyan: b, P: p, M: m, Fanout: f, Slots: slots, Seed: seed, Context: ctx})
		if err != nil {
			return nil, badf("%v", err)
		}
		rep := r.report(b.Spec(), map[string]any{"p": p, "m": m, "fanout": f, "slots": slots, "seed": seed})
		rep.Stats = props.Stats{Checked: int64(res.Slots), Unit: "slots", Seconds: time.Since(start).Seconds()}
		rel := (eta - res.Throughput) / res.Throughput
		figs := map[string]float64{"offered": res.Offered, "model": eta, "sim": res.Throughput, "sim_accepted_whole": res.Accepted, "relerr": rel}
		rep = agreement(rep, figs, rel, "throughput", tol, ruled)
		if res.Stopped {
			cutShort(ctx, rep, fmt.Sprintf("after %d of %d slots", res.Slots, slots))
		}
		return rep, nil
	}, nil
}

// cubeLoadAlgorithm is Poisson unicast and broadcast traffic on a binary
// hypercube, whose mean latencies 003 §3 models (eqs. 1-33).
func cubeLoadAlgorithm() Algorithm {
	return Algorithm{
		Name:    "cube-load",
		Summary: "Poisson unicast and SBT broadcast traffic on a hypercube: 003's latency model against flit-level simulation",
		Doc: `Every node generates messages of M flits as a Poisson source; a fraction b are
broadcasts (spanning binomial tree with a random base dimension), the rest unicasts to
a uniform destination; e-cube routing (highest dimension first), V virtual channels of
2-flit buffers, all-port, Δ = ts = 1 cycle, tr = 0 (003 §4). The rate is load times
the model's saturation rate (bisection to 0.1%). Property model-agreement evaluates
003's model (analytic.HypercubeLatency, with the corrected replicated-traffic rate, and
the printed one as *_model_literal) and the simulator (checker/sim, seeded by the seed
option) and reports both;
figures rate, unicast_* and broadcast_* (model, model_literal, sim, sim_ci95, relerr)
and saturated (1 when the simulation saturated). The worst of the two relative errors
is judged against the tolerance.`,
		Properties: []Support{{checker.PropModelAgreement, props.SemSim}},
		Params: []Param{
			{"vcs", "3", "virtual channels per physical channel"},
			{"length", "32", "flits per message (M)"},
			{"broadcast", "0.01", "fraction of messages that are broadcasts (b)"},
			{"load", "0.5", "generation rate as a fraction of the model's saturation rate"},
			{"cycles", "20000", "measured cycles (warm-up a fifth of them)"},
			toleranceParam,
		},
		prepare: prepareCubeLoad,
	}
}

func prepareCubeLoad(r *request) (job, error) {
	if r.topology == "" {
		return nil, badf("CubeLoad.Grid is nil; give the hypercube (topology.Parse)")
	}
	var q CubeLoad
	var err error
	if q.Grid, err = topology.Parse(r.topology); err != nil {
		return nil, badf("--topo: %v", err)
	}
	if q.VCs, err = r.integer("vcs", 1, 64); err != nil {
		return nil, err
	}
	if q.Length, err = r.integer("length", 1, 1<<16); err != nil {
		return nil, err
	}
	if q.Broadcast, err = r.float("broadcast"); err != nil {
		return nil, err
	}
	if q.Load, err = r.float("load"); err != nil {
		return nil, err
	}
	if q.Cycles, err = r.integer("cycles", 1, 1<<40); err != nil {
		return nil, err
	}
	tol, ruled, err := tolerance(r)
	if err != nil {
		return nil, err
	}
	return q.prepare(r, tol, ruled)
}

// CubeLoad is the typed request of Poisson unicast and broadcast traffic on a binary
// hypercube (the registry's "cube-load", 003 §3-§4). Its Check takes
// checker.PropModelAgreement; Options.Seed seeds the simulation.
type CubeLoad struct {
	Grid *topology.Network // a hypercube
	// VCs virtual channels (0: 3), messages of Length flits (0: 32), a fraction
	// Broadcast of them broadcasts, generated at Load times the model's saturation rate,
	// measured over Cycles cycles (0: 20000).
	VCs, Length     int
	Broadcast, Load float64
	Cycles          int
	// Tolerance, when > 0, is the largest relative error of the model that holds;
	// 0 makes the report a measurement.
	Tolerance float64
}

// Check checks q for property under opt, as Run does for the same instance by name.
func (q CubeLoad) Check(ctx context.Context, property checker.Property, opt Options) (*props.Report, error) {
	return Run(ctx, q, property, opt)
}

// jobFor validates q for property under opt and returns the job that checks it
// (Request).
func (q CubeLoad) jobFor(property checker.Property, opt Options) (job, error) {
	if q.Grid == nil {
		return nil, badf("CubeLoad.Grid is nil; give the hypercube (topology.Parse)")
	}
	if q.VCs == 0 {
		q.VCs = 3
	}
	if q.Length == 0 {
		q.Length = 32
	}
	if q.Cycles == 0 {
		q.Cycles = 20000
	}
	return typedJob(cubeLoadAlgorithm(), "CubeLoad", q.Grid.Spec(), property, opt, func(r *request) (job, error) {
		return q.prepare(r, q.Tolerance, q.Tolerance > 0)
	})
}

// prepare validates q and returns the job that simulates it beside 003's model, judged
// against tol when ruled.
func (q CubeLoad) prepare(r *request, tol float64, ruled bool) (job, error) {
	g, vcs, length, b, load, cycles := q.Grid, q.VCs, q.Length, q.Broadcast, q.Load, q.Cycles
	seed := r.seed()
	switch {
	case g.Kind() != topology.Hypercube:
		return nil, badf("--topo %q is not a hypercube; use hypercube:N", g.Spec())
	case vcs < 1 || vcs > 64 || length < 1 || length > 1<<16 || cycles < 1 || cycles > 1<<40:
		return nil, badf("--vcs %d, --length %d or --cycles %d is out of range (1..64, 1..%d, 1..%d)", vcs, length, cycles, 1<<16, 1<<40)
	case !(b >= 0 && b <= 1) || !(load > 0):
		return nil, badf("--broadcast %v in [0,1] and --load %v > 0 are required", b, load)
	}
	n := g.Dims()
	return func(ctx context.Context) (*props.Report, error) {
		start := time.Now()
		prm := analytic.HypercubeParams{N: n, V: vcs, M: length, B: b, Delta: 1}
		prm.Rate = load * hypercubeSaturation(prm)
		mod, err := analytic.HypercubeLatency(prm)
		if err != nil {
			return nil, badf("%v", err)
		}
		litU, litB := math.NaN(), math.NaN()
		lit := prm
		lit.Literal = true
		if l, err := analytic.HypercubeLatency(lit); err == nil {
			litU, litB = l.Unicast, l.Broadcast
		}
		res, err := sim.Run(sim.Config{
			Grid: g, Routing: topology.DOR{Grid: g, Order: topology.DescendingOrder(n)},
			VCs: vcs, Buffer: 2, Length: length, Ts: 1, Seed: seed,
			Warmup: int64(cycles) / 5, Cycles: int64(cycles), DrainLimit: int64(cycles),
			Traffic: sim.Traffic{Rate: prm.Rate, Broadcast: b},
			Context: ctx,
		})
		if err != nil {
			return nil, badf("%v", err)
		}
		rep := r.report(g.Spec(), map[string]any{"vcs": vcs, "length": length, "broadcast": b, "load": load, "cycles": cycles, "seed": seed})
		rep.Stats = props.Stats{Checked: int64(cycles), Unit: "cycles", Seconds: time.Since(start).Seconds()}
		relU := (mod.Unicast - res.Unicast.Mean) / res.Unicast.Mean
		relB := (mod.Broadcast - res.Broadcast.Mean) / res.Broadcast.Mean
		figs := map[string]float64{
			"rate":                    prm.Rate,
			"unicast_model":           mod.Unicast,
			"unicast_model_literal":   litU,
			"unicast_sim":             res.Unicast.Mean,
			"unicast_sim_ci95":        res.Unicast.CI95,
			"unicast_relerr":          relU,
			"broadcast_model":         mod.Broadcast,
			"broadcast_model_literal": litB,
			"broadcast_sim":           res.Broadcast.Mean,
			"broadcast_sim_ci95":      res.Broadcast.CI95,
			"broadcast_relerr":        relB,
			"saturated":               b2f(res.Saturated),
		}
		worst, what := relU, "unicast latency"
		if !(math.Abs(relU) >= math.Abs(relB)) {
			worst, what = relB, "broadcast latency"
		}
		rep = agreement(rep, figs, worst, what, tol, ruled)
		if res.Stopped {
			rep.Stats.Checked = res.Cycles
			cutShort(ctx, rep, fmt.Sprintf("at cycle %d of %d (warm-up, window and drain)", res.Cycles, int64(cycles)/5+int64(cycles)+int64(cycles)))
		}
		return rep, nil
	}, nil
}

// cutShort makes the report of a simulation that ctx stopped inconclusive: its figures
// cover only the part simulated (when), so they decide nothing.
func cutShort(ctx context.Context, rep *props.Report, when string) {
	rep.Verdict = props.Inconclusive
	rep.Reason = fmt.Sprintf("cancelled: %v %s; the figures cover only what was simulated", context.Cause(ctx), when)
	if rep.Witness != nil {
		rep.Witness.Violation = ""
	}
}

// hypercubeSaturation is the largest generation rate at which 003's model still has a
// steady state for p (p.Rate ignored), found by bisection to 0.1%.
func hypercubeSaturation(p analytic.HypercubeParams) float64 {
	lo, hi := 0.0, 2.0/float64(p.M)
	for hi-lo > 1e-3*hi {
		mid := (lo + hi) / 2
		p.Rate = mid
		if _, err := analytic.HypercubeLatency(p); err != nil {
			hi = mid
		} else {
			lo = mid
		}
	}
	return lo
}
