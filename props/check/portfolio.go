package check

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"
	"time"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// The portfolio of a unicast or tree-multicast check (Options.Static for unicast,
// Options.Portfolio): the static decision of the relation first, the exhaustive flit search when it has not decided
// within PortfolioLead, and swarm walkers beside the exhaustive search when that has not
// decided within PortfolioLead either, all under the check's context (time limit,
// signal, memory watch) and memory budget; the first strategy that decides answers
// (checker.Race). Every strategy is sound on its own, so two that decide agree and the
// verdict does not depend on which came first:
//
//   - static decides only "holds", for every packet length, buffer depth and placement;
//   - the exhaustive search decides holds or violated, with the instance's shortest
//     trace, and its state count is the one a --search bfs run reports;
//   - a walker decides only "violated"; its deadlock is minimised to the worms it
//     involves and their instance alone is searched exhaustively, so the trace is the
//     shortest of that sub-instance (a function of the involved worms, not of the walk),
//     replayed on the full instance.
//
// Which strategy answered, and what each did, is in Report.Strategies.

// PortfolioLead is how long each strategy of a portfolio check runs alone before the
// next one joins it: the static decision decides most relations well within it, and an
// exhaustive search that has not finished in it is one that swarm walkers may beat.
const PortfolioLead = time.Second

// unicastPortfolio checks one unicast instance with the portfolio of the options:
// the static decision (Options.Static), the exhaustive search, and swarm walkers
// (Options.Portfolio). For liveness the exhaustive search is the liveness check and a
// walker's deadlock or weakly fair lasso refutes it (a walk never proves it).
func unicastPortfolio(ctx context.Context, r *request, g *topology.Network, sp unicast.Spec, m *flit.Model) (*props.Report, error) {
	p := portfolio{
		bfs: func(ctx context.Context, r *request) (*props.Report, error) {
			if r.property == checker.PropLiveness {
				return unicastLiveness(ctx, r, sp, m)
			}
			opt := checkerOptions[flit.State](ctx, r)
			opt.Invariants = m.Invariants()
			opt.CheckLocalDeadlock = r.property.LocalDeadlocks()
			res := searchUnicast(r, m, opt)
			return unicastReport(sp, r.property, &res, &r.work), nil
		},
		stopped: func(why string) *props.Report {
			return unicastReport(sp, r.property, &unicast.Result{Verdict: props.Inconclusive, Violation: why}, new(work))
		},
	}
	if r.opt.Static {
		p.static = func(ctx context.Context, r *request) (*props.Report, bool) {
			st, decides := decideStatic(ctx, r, g, sp, m)
			if !decides {
				return &props.Report{Verdict: props.Inconclusive, Static: st, Stats: props.Stats{Seconds: st.Seconds}}, false
			}
			return staticReport(sp, r.property, st, m), true
		}
	}
	if r.opt.Portfolio {
		p.swarm = func(ctx context.Context, r *request) (*props.Report, error) { return unicastSwarm(ctx, r, g, sp, m) }
	}
	return p.run(ctx, r)
}

// portfolio is the strategies of one check: static (nil: none) says whether its
// report decides, bfs is the exhaustive search, swarm (nil: none) the walkers; stopped
// is the report of a check stopped before the exhaustive search started.
type portfolio struct {
	static  func(ctx context.Context, r *request) (*props.Report, bool)
	bfs     func(ctx context.Context, r *request) (*props.Report, error)
	swarm   func(ctx context.Context, r *request) (*props.Report, error)
	stopped func(why string) *props.Report
}

// run races the portfolio's strategies (checker.Race) and reports: the deciding
// strategy's report, or, when none decided, the exhaustive search's, with the static
// decision and every strategy's figures (Report.Strategies). Each strategy runs on a
// copy of r of its own, so that what it replays is counted apart (the reporting one's
// count is added to r's), its walkers take the cores the exhaustive search leaves, and
// the strategies' progress lines do not interleave. The strategies run at once, so they
// must not read parameters (prepare has read them: r's maps are shared).
func (p portfolio) run(ctx context.Context, r *request) (*props.Report, error) {
	if r.opt.Progress != nil {
		r.opt.Progress = &lockedWriter{w: r.opt.Progress}
	}
	var names []string
	var reqs []*request
	var strategies []checker.Strategy[*props.Report]
	add := func(name string, lead time.Duration, helper bool, run func(ctx context.Context, r *request) (*props.Report, bool, error)) {
		rr := *r
		rr.work = work{}
		names, reqs = append(names, name), append(reqs, &rr)
		strategies = append(strategies, checker.Strategy[*props.Report]{Name: name, Lead: lead, Helper: helper,
			Run: func(ctx context.Context) (*props.Report, bool, error) { return run(ctx, &rr) }})
	}
	if p.static != nil {
		add("static", PortfolioLead, false, func(ctx context.Context, r *request) (*props.Report, bool, error) {
			rep, decides := p.static(ctx, r)
			return rep, decides, nil
		})
	}
	add("bfs", PortfolioLead, false, func(ctx context.Context, r *request) (*props.Report, bool, error) {
		rep, err := p.bfs(ctx, r)
		return rep, err == nil && rep.Verdict != props.Inconclusive, err
	})
	if p.swarm != nil {
		// Without a time limit the walkers help only while the exhaustive search runs
		// (a walk that finds nothing never ends); with one they use all of it.
		_, deadline := ctx.Deadline()
		add("swarm", 0, !deadline, func(ctx context.Context, r *request) (*props.Report, bool, error) {
			r.walkers = max(1, runtime.GOMAXPROCS(0)-r.opt.Workers)
			rep, err := p.swarm(ctx, r)
			return rep, err == nil && rep.Verdict == props.Violated, err
		})
	}
	race, err := checker.Race(ctx, strategies)
	if err != nil {
		return nil, err
	}
	pick := race.Winner
	for i, name := range names {
		if pick < 0 && race.Ran[i] && name == "bfs" {
			pick = i
		}
	}
	var rep *props.Report
	if pick >= 0 {
		rep = race.Results[pick]
		r.work.parses += reqs[pick].work.parses
		r.work.builds += reqs[pick].work.builds
		r.work.replays += reqs[pick].work.replays
	} else {
		// Stopped before the exhaustive search started (within the static lead).
		why := "stopped before the flit search started"
		if ctx.Err() != nil {
			why += ": " + context.Cause(ctx).Error()
		}
		rep = p.stopped(why)
	}
	if rep == nil {
		return nil, internalf("the %s strategy returned no report", names[pick])
	}
	var ran []props.Strategy
	for i, name := range names {
		x := race.Results[i]
		if !race.Ran[i] || x == nil {
			continue
		}
		s := props.Strategy{Name: name, Verdict: x.Verdict, Decided: i == race.Winner, States: x.Stats.States, Transitions: x.Stats.Transitions,
			Depth: x.Stats.Depth, StartedAfter: race.Started[i].Seconds(), Seconds: race.Seconds[i], Reason: x.Reason}
		if name == "static" {
			// The static decision's own verdict, about the relation on every placement.
			rep.Static = x.Static
			s.Verdict, s.States, s.Reason = x.Static.Verdict, x.Static.HeaderStates, x.Static.Reason
		}
		ran = append(ran, s)
	}
	rep.Strategies = ran
	if race.Winner < 0 && rep.Verdict == props.Inconclusive {
		rep.Notes = append(rep.Notes, nextStep(rep.Static))
	}
	return rep, nil
}

// nextStep says in one line what to try when a portfolio check is inconclusive.
func nextStep(st *props.Static) string {
	switch {
	case st != nil && st.Verdict == props.Inconclusive && st.Routing != "":
		return fmt.Sprintf("next: the static decision did not finish; `wormcheck routing --routing %s` decides the relation with the whole budget, or give smaller --length and --buffers (or fewer --msgs) to the flit search", st.Routing)
	case st != nil && st.Verdict == props.Violated:
		return "next: the relation can deadlock in some placement; `--search swarm` with a longer --time-limit hunts for a deadlock of these worms, and smaller --length and --buffers (or fewer --msgs) shrink the exhaustive search"
	}
	return "next: `--search swarm` with a longer --time-limit hunts for a deadlock, and smaller --length and --buffers (or fewer --msgs) shrink the exhaustive search"
}

// lockedWriter serialises the progress lines of strategies that run at once.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
