package check

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/dcf"
	"github.com/wormcheck/wormcheck/algos/edn"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// The formula property of the broadcasts that publish a completion time: DCF's
// contention-free time 5k ts + 4(4^k-1)/3 tc + 2kL tc + 2k tr on a 4^k x 4^k torus (and
// its 2·4^k form; 004 §6.1) and EDN's 6k ts-based formula (004 §6.1 after Tsai &
// McKinley). The schedule is timed (schedule.Simulate, the timed semantics with exact
// integer times) at each point, and the property holds when every simulation is free of
// channel contention and completes exactly at the formula's time. With ts and tr given in
// units of tc, the formula is evaluated at the same numbers.

// formulaOf returns the algorithm's contention-free completion time on g as a function
// of the timing parameters.
func formulaOf(name string, g *topology.Network) (func(props.Params) float64, error) {
	switch name {
	case "dcf":
		sh, err := dcf.ShapeOf(g)
		if err != nil {
			return nil, err
		}
		return func(p props.Params) float64 {
			return dcf.Formula(sh, dcf.Times{Ts: float64(p.Ts), Tr: float64(p.Tr), Tc: float64(p.Tc), L: int(p.L)})
		}, nil
	case "edn":
		k, prime, err := edn.Shape(g)
		if err != nil {
			return nil, err
		}
		return func(p props.Params) float64 {
			return edn.Formula(k, prime, edn.Times{Ts: float64(p.Ts), Tr: float64(p.Tr), Tc: float64(p.Tc), L: int(p.L)})
		}, nil
	}
	return nil, fmt.Errorf("--algo %s has no completion-time formula", name)
}

// parsePoint reads a timing point "ts,tr,tc,L" (ts, tr >= 0, tc, L >= 1).
func parsePoint(s string) (props.Params, error) {
	f := strings.Split(s, ",")
	if len(f) != 4 {
		return props.Params{}, fmt.Errorf("%q: want ts,tr,tc,L such as 200,200,1,32", s)
	}
	var v [4]int64
	for i, x := range f {
		n, err := strconv.ParseInt(strings.TrimSpace(x), 10, 64)
		if err != nil {
			return props.Params{}, fmt.Errorf("%q: field %d is not an integer", s, i+1)
		}
		v[i] = n
	}
	p := props.Params{Ts: v[0], Tr: v[1], Tc: v[2], L: v[3]}
	if p.Ts < 0 || p.Tr < 0 || p.Tc < 1 || p.L < 1 || max(p.Ts, p.Tr, p.Tc, p.L) > 1<<30 {
		return props.Params{}, fmt.Errorf("%q: want 0 <= ts, tr and 1 <= tc, L, each at most 2^30", s)
	}
	return p, nil
}

// timingPoints are the one point when it is not nil, else schedule.DefaultGrid; one says
// which.
func timingPoints(point *props.Params) (points []props.Params, one bool) {
	if point != nil {
		return []props.Params{*point}, true
	}
	return schedule.DefaultGrid(), false
}

// preparePortPairs is the port-pairs check of schedule s at point (nil: the default
// grid).
func preparePortPairs(s *model.Schedule, point *props.Params, r *request) (job, error) {
	points, _ := timingPoints(point)
	return func(ctx context.Context) (*props.Report, error) {
		rep := r.report(r.topology, map[string]any{"unicasts": len(s.Unicasts), "multicasts": len(s.Sources), "points": len(points)})
		rep.Command = "check"
		return judgePortPairs(ctx, s, points, rep), nil
	}, nil
}

// judgePortPairs times schedule s at every point and counts the pairs of unicasts that hold
// one node's port at overlapping times: a unicast that starts at a holds its sender's
// port during [a, a+L·tc) and, over h channels, its receiver's during [a+h·tc,
// a+h·tc+L·tc). It fills rep: holds when no point has such a pair; violated at the first
// point that has, with a measurement witness; stats count the points; the figure
// port_pairs is the largest count over the points (the count itself for one point).
// This is node contention measured at given parameters; node-contention decides it for
// all parameters. Reference: 001 §5.1 (Kesavan & Panda's node contention).
func judgePortPairs(ctx context.Context, s *model.Schedule, points []props.Params, rep *props.Report) *props.Report {
	start := time.Now()
	defer func() { rep.Stats.Seconds = time.Since(start).Seconds() }()
	rep.Verdict, rep.Stats.Unit = props.Holds, "timing points"
	rep.Figures = map[string]float64{"port_pairs": 0}
	for _, p := range points {
		if ctx.Err() != nil {
			rep.Verdict, rep.Reason = props.Inconclusive, fmt.Sprintf("interrupted after %d of %d points", rep.Stats.Checked, len(points))
			return rep
		}
		n, err := portPairs(s, p)
		if err != nil {
			rep.Verdict, rep.Reason = props.Inconclusive, err.Error()
			return rep
		}
		rep.Stats.Checked++
		rep.Figures["port_pairs"] = max(rep.Figures["port_pairs"], float64(n))
		if n > 0 && rep.Witness == nil {
			what := fmt.Sprintf("at %v: %d pairs of unicasts hold one node's port at overlapping times", p, n)
			rep.Verdict, rep.Reason, rep.Text = props.Violated, what, what
			rep.Witness = &props.Witness{Kind: props.WitnessMeasurement, Violation: what,
				Figures: map[string]float64{"port_pairs": float64(n)}, Detail: map[string]any{"parameters": p}}
		}
	}
	if rep.Verdict == props.Holds {
		rep.Reason = fmt.Sprintf("no port is held twice at once at any of %d points", len(points))
	}
	return rep
}

// portPairs counts, at parameters p, the pairs of unicasts that occupy one node's port
// at overlapping times (send side [a, a+L*tc), receive side [a+h*tc, a+h*tc+L*tc)).
func portPairs(s *model.Schedule, p props.Params) (int, error) {
	t, err := schedule.Simulate(s, p)
	if err != nil {
		return 0, err
	}
	type iv struct{ from, to int64 }
	ports := map[[2]int][]iv{}
	for i, u := range s.Unicasts {
		a := t.Start[i]
		h := int64(len(u.Path)) * p.Tc
		ports[[2]int{int(u.From), 0}] = append(ports[[2]int{int(u.From), 0}], iv{a, a + p.L*p.Tc})
		ports[[2]int{int(u.To), 1}] = append(ports[[2]int{int(u.To), 1}], iv{a + h, a + h + p.L*p.Tc})
	}
	n := 0
	for _, list := range ports {
		for i := range list {
			for j := i + 1; j < len(list); j++ {
				if list[i].from < list[j].to && list[j].from < list[i].to {
					n++
				}
			}
		}
	}
	return n, nil
}

// prepareFormula returns the formula check of schedule s built by algorithm name, at
// point (nil: the default grid).
func prepareFormula(name string, s *model.Schedule, point *props.Params, r *request) (job, error) {
	g, _ := s.Grid()
	formula, err := formulaOf(name, g)
	if err != nil {
		return nil, badf("--algo %s: %v", name, err)
	}
	points, one := timingPoints(point)
	return func(ctx context.Context) (*props.Report, error) {
		rep := r.report(r.topology, map[string]any{
			"source": s.Topology.NodeName(s.Sources[0]), "unicasts": len(s.Unicasts), "steps": s.Steps(), "points": len(points)})
		rep.Command = "check"
		return judgeFormula(ctx, s, formula, points, one, rep), nil
	}, nil
}

// judgeFormula times schedule s at every point and compares its completion with formula:
// the report holds when no simulation contends and every completion equals the formula,
// and is violated at the first point where either fails, with a measurement witness
// (the point, the simulated and formula times, the first contention). Stats count the
// points checked. With figures set (one point), the report carries the simulated time,
// the formula's and whether the simulation contended, whatever the verdict, so that a
// comparison can be read from it. Cancelling ctx gives an inconclusive report.
func judgeFormula(ctx context.Context, s *model.Schedule, formula func(props.Params) float64, points []props.Params, figures bool, rep *props.Report) *props.Report {
	start := time.Now()
	rep.Verdict = props.Holds
	rep.Stats.Unit = "timing points"
	defer func() { rep.Stats.Seconds = time.Since(start).Seconds() }()
	for _, p := range points {
		if ctx.Err() != nil {
			rep.Verdict, rep.Reason = props.Inconclusive, fmt.Sprintf("interrupted after %d of %d points", rep.Stats.Checked, len(points))
			return rep
		}
		t, err := schedule.Simulate(s, p)
		if err != nil {
			rep.Verdict, rep.Reason = props.Inconclusive, err.Error()
			return rep
		}
		rep.Stats.Checked++
		f := formula(p)
		if figures {
			rep.Figures = map[string]float64{"simulated": float64(t.Completion), "formula": f, "contends": 0}
			if t.First != nil {
				rep.Figures["contends"] = 1
			}
		}
		if t.First == nil && float64(t.Completion) == f {
			continue
		}
		rep.Verdict = props.Violated
		what := fmt.Sprintf("at %v: simulated %d, formula %g", p, t.Completion, f)
		if t.First != nil {
			what += "; the simulation contends: " + strings.SplitN(t.First.String(), "\n", 2)[0]
		}
		rep.Reason = what
		rep.Witness = &props.Witness{Kind: props.WitnessMeasurement, Violation: what,
			Figures: map[string]float64{"simulated": float64(t.Completion), "formula": f},
			Detail:  map[string]any{"parameters": p, "simulated": t.Completion, "formula": f, "contention": t.First}}
		rep.Text = what
		return rep
	}
	rep.Reason = fmt.Sprintf("simulated completion equals the formula, without contention, at all %d points", len(points))
	return rep
}
