package check

import (
	"context"
	"fmt"
	"time"

	"github.com/wormcheck/wormcheck/algos/analytic"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// prepareFlitContention is the flit-contention check of schedule s built by algorithm
// name, at the one timing point the point parameter gives (tc must be 1: the simulator
// counts cycles of one channel hop).
func prepareFlitContention(name string, s *model.Schedule, point *props.Params, r *request) (job, error) {
	points, one := timingPoints(point)
	if !one {
		return nil, badf("--point is missing: flit-contention simulates one timing point, e.g. --point 200,200,1,32")
	}
	p := points[0]
	if p.Tc != 1 {
		return nil, badf("--point %v: the flit simulator counts tc = 1 cycle per hop; give tc = 1", p)
	}
	g, _ := s.Grid()
	return func(ctx context.Context) (*props.Report, error) {
		rep := r.report(r.topology, map[string]any{"source": s.Topology.NodeName(s.Sources[0]), "unicasts": len(s.Unicasts), "point": p.String()})
		rep.Command = "check"
		return judgeFlitContention(g, name, s, p, rep)
	}, nil
}

// judgeFlitContention runs schedule s of algorithm algo (named for its formula) at flit level
// at zero load at p (one virtual channel per channel, as the timed model has; if that
// deadlocks on a torus ring it reruns with the two dateline classes and says so). It
// fills rep: holds when no header ever waited, violated otherwise with a measurement
// witness naming the first contention (channel, cycle, the waiting and the holding
// unicast); figures simulated, timed_model (the contention-free timed model), formula
// (the paper's, where one exists), excess (simulated minus formula) and
// single_vc_deadlocked. Reference: 004 §6.2 (Figs. 8-9 simulate DCF and EDN).
func judgeFlitContention(g *topology.Network, algo string, s *model.Schedule, p props.Params, rep *props.Report) (*props.Report, error) {
	start := time.Now()
	defer func() { rep.Stats.Seconds = time.Since(start).Seconds() }()
	ts, tr, L := int(p.Ts), int(p.Tr), int(p.L)
	rep.Figures = map[string]float64{"single_vc_deadlocked": 0}
	res, err := sim.ExecuteSchedule(g, s, sim.ScheduleOptions{Ts: ts, Tr: tr, L: L})
	if err != nil {
		res, err = sim.ExecuteSchedule(g, s, sim.ScheduleOptions{Ts: ts, Tr: tr, L: L, VCs: 2, Dateline: true})
		if err != nil {
			return nil, internalf("%v", err)
		}
		rep.Figures["single_vc_deadlocked"] = 1
		rep.Notes = append(rep.Notes, "one virtual channel per channel deadlocked; simulated with the two dateline classes")
	}
	rep.Stats.Checked, rep.Stats.Unit = res.FlitHops, "flit hops"
	rep.Figures["simulated"] = float64(res.Completion)
	if timed, err := sim.TimedCompletion(s, g.Nodes(), ts, tr, L); err == nil {
		rep.Figures["timed_model"] = float64(timed)
	}
	if f, err := analytic.CollectiveFormula(g, algo, ts, tr, L, s); err == nil {
		rep.Figures["formula"] = f
		rep.Figures["excess"] = float64(res.Completion) - f
	}
	rep.Verdict = props.Holds
	rep.Reason = fmt.Sprintf("at %v no header waited; completion %d", p, res.Completion)
	if c := res.Contention; c != nil {
		u, v := s.Unicasts[c.Waiting], s.Unicasts[c.Holding]
		detail := map[string]any{
			"channel": c.Name, "cycle": c.Cycle,
			"waiting": fmt.Sprintf("%s->%s (step %d)", g.NodeName(u.From), g.NodeName(u.To), u.Step),
			"holding": fmt.Sprintf("%s->%s (step %d)", g.NodeName(v.From), g.NodeName(v.To), v.Step),
		}
		what := fmt.Sprintf("at %v the first contention is on %s at cycle %d: %s waits for %s; completion %d", p, c.Name, c.Cycle, detail["waiting"], detail["holding"], res.Completion)
		rep.Verdict, rep.Reason, rep.Text = props.Violated, what, what
		rep.Witness = &props.Witness{Kind: props.WitnessMeasurement, Violation: what, Figures: map[string]float64{"simulated": float64(res.Completion)}, Detail: detail}
	}
	return rep, nil
}
