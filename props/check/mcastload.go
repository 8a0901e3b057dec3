package check

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/pathbased"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// mcastLoadAlgorithm is random multicast traffic with a fixed destination count, carried
// by tree multicast, separate addressing and (on 2-D meshes) Dual-Path and PM.
func mcastLoadAlgorithm() Algorithm {
	return Algorithm{
		Name:    "mcast-load",
		Summary: "random multicast traffic: tree multicast with pruning vs separate addressing (and Dual-Path, PM on 2-D meshes) in the flit simulator (000 §5.3)",
		Doc: `Every node sends multicasts to dests uniformly chosen destinations at each offered
load (data flits delivered per node per cycle), carried by tree-based multicast with
on-stop pruning, by separate addressing and, on 2-D meshes, by Dual-Path and PM (000
§5.1-§5.3: one data flit, so a unicast copy has L = 2; one injection and one delivery
channel; two-flit queues; dimension order with dateline classes on tori). The simulator
is seeded by the seed option. Property latency-compare reports each algorithm's mean
latency per load (witness detail) and the tree's reduction against separate addressing
as figures low_reduction (at the lowest load), max_reduction and max_reduction_load (the
largest below saturation) and tree_loses_from_load (the first load where the tree is
slower or saturated while separate addressing is not; absent if none).`,
		Properties: []Support{{checker.PropLatencyCompare, props.SemSim}},
		Params: []Param{
			{"dests", "4", "destinations per multicast"},
			{"loads", "0.005,0.05,0.1", "offered loads, comma-separated"},
			{"vcs", "0", "virtual channels per physical channel (0 = the routing's classes)"},
			{"warmup", "1000", "cycles before measuring"},
			{"cycles", "4000", "measured cycles"},
			{"min-reduction", "", "smallest reduction of the tree against separate addressing at the lowest load that holds (empty: no rule, the report is a measurement)"},
		},
		prepare: prepareMcastLoad,
	}
}

func prepareMcastLoad(r *request) (job, error) {
	if r.topology == "" {
		return nil, badf("McastLoad.Grid is nil; give the topology (topology.Parse)")
	}
	var q McastLoad
	var err error
	if q.Grid, err = topology.Parse(r.topology); err != nil {
		return nil, badf("--topo: %v", err)
	}
	if q.Dests, err = r.integer("dests", 1, q.Grid.Nodes()-1); err != nil {
		return nil, err
	}
	if q.VCs, err = r.integer("vcs", 0, 64); err != nil {
		return nil, err
	}
	if q.Warmup, err = r.integer("warmup", 0, 1<<40); err != nil {
		return nil, err
	}
	if q.Cycles, err = r.integer("cycles", 1, 1<<40); err != nil {
		return nil, err
	}
	for _, f := range strings.Split(r.str("loads"), ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil || !(x > 0) || math.IsInf(x, 0) {
			return nil, badf("--loads %q: want positive loads separated by commas", r.str("loads"))
		}
		q.Loads = append(q.Loads, x)
	}
	minRed, ruled := 0.0, r.str("min-reduction") != ""
	if ruled {
		if minRed, err = r.float("min-reduction"); err != nil {
			return nil, err
		}
	}
	return q.prepare(r, minRed, ruled)
}

// McastLoad is the typed request of random multicast traffic carried by tree multicast,
// separate addressing and, on 2-D meshes, Dual-Path and PM (the registry's "mcast-load",
// 000 §5.3). Its Check takes checker.PropLatencyCompare; Options.Seed seeds the simulator.
type McastLoad struct {
	Grid *topology.Network
	// Dests destinations per multicast (0: 4) at each offered load of Loads (nil:
	// 0.005, 0.05, 0.1), VCs virtual channels (0: the routing's classes), Warmup cycles
	// before measuring Cycles (0: 4000).
	Dests          int
	Loads          []float64
	VCs            int
	Warmup, Cycles int
	// MinReduction, when > 0, is the smallest reduction of the tree's latency against
	// separate addressing at the lowest load that holds; 0 makes the report a
	// measurement.
	MinReduction float64
}

// Check checks q for property under opt, as Run does for the same instance by name.
func (q McastLoad) Check(ctx context.Context, property checker.Property, opt Options) (*props.Report, error) {
	return Run(ctx, q, property, opt)
}

// jobFor validates q for property under opt and returns the job that checks it
// (Request).
func (q McastLoad) jobFor(property checker.Property, opt Options) (job, error) {
	if q.Grid == nil {
		return nil, badf("McastLoad.Grid is nil; give the topology (topology.Parse)")
	}
	if q.Dests == 0 {
		q.Dests = 4
	}
	if q.Loads == nil {
		q.Loads = []float64{0.005, 0.05, 0.1}
	}
	if q.Cycles == 0 {
		q.Cycles = 4000
	}
	return typedJob(mcastLoadAlgorithm(), "McastLoad", q.Grid.Spec(), property, opt, func(r *request) (job, error) {
		return q.prepare(r, q.MinReduction, q.MinReduction > 0)
	})
}

// prepare validates q and returns the job that simulates it, judged against minRed
// when ruled.
func (q McastLoad) prepare(r *request, minRed float64, ruled bool) (job, error) {
	g, dests, vcs, warmup, cycles, loads := q.Grid, q.Dests, q.VCs, q.Warmup, q.Cycles, q.Loads
	switch {
	case dests < 1 || dests > g.Nodes()-1:
		return nil, badf("--dests %d is out of range; use 1..%d", dests, g.Nodes()-1)
	case vcs < 0 || vcs > 64 || warmup < 0 || warmup > 1<<40 || cycles < 1 || cycles > 1<<40:
		return nil, badf("--vcs %d, --warmup %d or --cycles %d is out of range (0..64, 0..%d, 1..%d)", vcs, warmup, cycles, 1<<40, 1<<40)
	case len(loads) == 0:
		return nil, badf("--loads is empty: want positive loads separated by commas")
	}
	for _, x := range loads {
		if !(x > 0) || math.IsInf(x, 0) {
			return nil, badf("--loads %v: want positive loads", loads)
		}
	}
	algos, err := mcastLoadAlgos(g)
	if err != nil {
		return nil, internalf("%v", err)
	}
	seed := r.seed()
	return func(ctx context.Context) (*props.Report, error) {
		start := time.Now()
		res, err := sim.Compare(sim.CompareSpec{
			Base:  sim.Config{Grid: g, VCs: vcs, Length: 2, Buffer: 2, Ports: model.OnePort, Seed: seed, Warmup: int64(warmup), Cycles: int64(cycles)},
			Algos: algos, Dests: dests, Loads: loads,
		})
		if err != nil {
			return nil, badf("%v", err)
		}
		V := vcs
		if V == 0 {
			V = topology.NewDOR(g).Classes()
		}
		rep := r.report(g.Spec(), map[string]any{"dests": dests, "loads": loads, "vcs": V, "warmup": warmup, "cycles": cycles, "seed": seed})
		rep.Stats = props.Stats{Checked: int64(len(loads) * len(algos)), Unit: "simulations", Seconds: time.Since(start).Seconds()}
		low := res.Reduction(0, 1)[0]
		mx, at := res.MaxReduction(0, 1)
		figs := map[string]float64{"low_reduction": low, "max_reduction": mx, "max_reduction_load": at}
		lt, ls := res.Latency(0), res.Latency(1)
		for i := range lt {
			if !math.IsNaN(ls[i]) && (math.IsNaN(lt[i]) || lt[i] > ls[i]) {
				figs["tree_loses_from_load"] = res.Loads[i]
				break
			}
		}
		for k, v := range figs {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				delete(figs, k) // undefined where an algorithm saturated: JSON has no NaN
			}
		}
		rep.Figures = figs
		rep.Verdict = props.Holds
		rep.Witness = &props.Witness{Kind: props.WitnessMeasurement, Figures: figs, Detail: mcastLoadDetail(g.Spec(), V, res, low, mx, at)}
		if ruled && !(low >= minRed) {
			rep.Verdict = props.Violated
			rep.Reason = fmt.Sprintf("the tree's latency reduction against separate addressing at load %g is %.4g, below %g", loads[0], low, minRed)
			rep.Witness.Violation = rep.Reason
		}
		return rep, nil
	}, nil
}

// mcastLoadAlgos are tree (on-stop pruning) and separate addressing, then on 2-D meshes
// Dual-Path and PM (000 §5.2); the tree is algorithm 0 and separate addressing 1.
func mcastLoadAlgos(g *topology.Network) ([]sim.McastAlgo, error) {
	as := []sim.McastAlgo{{Name: "tree", Tree: true, Prune: flit.PruneOnStop}, {Name: "separate"}}
	if g.Kind() != topology.Mesh || g.Dims() != 2 {
		return as, nil
	}
	for _, name := range []string{"dual-path", "pm"} {
		mc, err := pathbased.SimMulticast(g, name)
		if err != nil {
			return nil, err
		}
		as = append(as, sim.McastAlgo{Name: name, Multicast: mc})
	}
	return as, nil
}

// mcastLoadDetail is the comparison as JSON-able values: every algorithm's point at
// every load and the tree's reductions (NaN, for saturated points and undefined
// confidence intervals, becomes null).
func mcastLoadDetail(topo string, vcs int, r *sim.CompareResult, low, mx, at float64) map[string]any {
	num := func(x float64) any {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil
		}
		return x
	}
	var pts []map[string]any
	for a, name := range r.Algos {
		for _, p := range r.Points[a] {
			pts = append(pts, map[string]any{"algorithm": name, "load": p.Load, "mean": num(p.Latency.Mean), "ci95": num(p.Latency.CI95),
				"n": p.Latency.N, "saturated": p.Saturated, "accepted": p.Accepted, "prunes": p.Prunes})
		}
	}
	return map[string]any{"topology": topo, "vcs": vcs, "dests": r.Dests, "points": pts,
		"low_reduction": num(low), "max_reduction": num(mx), "max_reduction_load": num(at)}
}
