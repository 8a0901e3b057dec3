package check

import (
	"context"
	"fmt"
	"time"

	"github.com/wormcheck/wormcheck/algos/unicastmc"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// chainBoundPoints are the default timing points of checker.PropChainBound.
var chainBoundPoints = []props.Params{{Ts: 300, Tc: 1, L: 32}, {Ts: 30, Tc: 1, L: 32}, {Ts: 0, Tc: 1, L: 1}}

// prepareChainBound is the chain-bound check of the one-multicast schedule s, at point
// when not nil, else at the default points.
func prepareChainBound(s *model.Schedule, point *props.Params, r *request) (job, error) {
	points := chainBoundPoints
	if point != nil {
		points = []props.Params{*point}
	}
	if len(s.Sources) != 1 {
		return nil, badf("--prop %s judges one multicast (--source, --dests), not %d", checker.PropChainBound, len(s.Sources))
	}
	return func(ctx context.Context) (*props.Report, error) {
		start := time.Now()
		rep, err := chainBound(s, points)
		if err != nil {
			return nil, err
		}
		rep.Instance = props.Instance{Topology: r.topology, Algorithm: r.algo.Name, Params: map[string]any{
			"source": s.Topology.NodeName(s.Sources[0]), "destinations": len(s.Destinations), "unicasts": len(s.Unicasts), "points": len(points)}}
		rep.Property, rep.Semantics = r.property, r.semantics
		rep.Stats.Seconds = time.Since(start).Seconds()
		return rep, nil
	}, nil
}

// chainBound judges checker.PropChainBound for the one-multicast schedule s at points (nil:
// the default three). The report's stats are those of the per-class depth decision; a
// violation names what failed, with the depth witness when contention is what failed.
// Run reaches it by name (--prop chain-bound on the one-port multicasts), RunSchedule on
// a schedule the caller built (proofs' NP8 sweeps thousands of small multicasts so,
// building each on one grid rather than naming it by strings).
func chainBound(s *model.Schedule, points []props.Params) (*props.Report, error) {
	if points == nil {
		points = chainBoundPoints
	}
	if len(s.Sources) != 1 {
		return nil, badf("--prop %s judges one multicast, not %d", checker.PropChainBound, len(s.Sources))
	}
	vc, err := s.WithWrapAheadClasses()
	if err != nil {
		return nil, badf("%v", err)
	}
	nd := len(s.Destinations)
	rep := schedule.Depth(vc, schedule.DepthOptions{NoTheorem1: true, NoGrid: true})
	if rep.Verdict != props.Holds {
		rep.Reason = "depth: " + rep.Reason
		return rep, nil
	}
	violated := func(why string) (*props.Report, error) {
		rep.Verdict, rep.Reason = props.Violated, why
		rep.Witness = &props.Witness{Kind: props.WitnessMeasurement, Violation: why, Figures: rep.Figures}
		return rep, nil
	}
	if s.Steps() != unicastmc.Steps(nd) {
		return violated(fmt.Sprintf("%d steps, want ceil(log2(1+%d)) = %d", s.Steps(), nd, unicastmc.Steps(nd)))
	}
	// hops of the longest root-to-leaf chain
	hops := map[topology.NodeID]int64{}
	var chain int64
	for _, u := range s.Unicasts { // listed by step: a sender's hops are known
		h := hops[u.From] + int64(len(u.Path))
		hops[u.To] = h
		chain = max(chain, h)
	}
	var excess int64
	for _, p := range points {
		t, err := schedule.Simulate(s, p)
		if err != nil {
			return violated(err.Error())
		}
		f := int64(unicastmc.Formula(nd, float64(p.Ts), float64(p.Tc), int(p.L)))
		if t.Completion > f+chain*p.Tc {
			rep.Figures = map[string]float64{"completion": float64(t.Completion), "formula": float64(f), "hop_term": float64(chain * p.Tc)}
			return violated(fmt.Sprintf("at %v: completion %d > formula %d + hop term %d", p, t.Completion, f, chain*p.Tc))
		}
		excess = max(excess, t.Completion-f)
	}
	rep.Figures = map[string]float64{"excess_over_formula_tc": float64(excess), "physical_contention": 0}
	if pr := schedule.Depth(s, schedule.DepthOptions{NoTheorem1: true, NoGrid: true}); pr.Verdict != props.Holds {
		rep.Figures["physical_contention"] = 1
		note := "per physical channel it contends"
		if w := pr.ScheduleWitness(); w != nil {
			note += " (" + w.String() + ")"
		}
		rep.Notes = append(rep.Notes, note)
	}
	return rep, nil
}
