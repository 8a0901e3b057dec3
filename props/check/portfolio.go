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

// The portfolio of a unicast check (Options.Static, Options.Portfolio): the static
// decision of the relation first, the exhaustive flit search when it has not decided
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
// (Options.Portfolio; deadlock properties only: a walk never proves liveness).
func unicastPortfolio(ctx context.Context, r *request, g *topology.Network, sp unicast.Spec, m *flit.Model) (*props.Report, error) {
	var names []string
	var strategies []checker.Strategy[*props.Report]
	works := make([]work, 3)
	progress := r.opt.Progress
	if progress != nil {
		progress = &lockedWriter{w: progress}
	}
	if r.opt.Static {
		names = append(names, "static")
		strategies = append(strategies, checker.Strategy[*props.Report]{Name: "static", Lead: PortfolioLead,
			Run: func(ctx context.Context) (*props.Report, bool, error) {
				st, decides := decideStatic(ctx, r, g, sp, m)
				if !decides {
					return &props.Report{Verdict: props.Inconclusive, Static: st, Stats: props.Stats{Seconds: st.Seconds}}, false, nil
				}
				return staticReport(sp, r.property, st, m), true, nil
			}})
	}
	names = append(names, "bfs")
	w := &works[len(strategies)]
	strategies = append(strategies, checker.Strategy[*props.Report]{Name: "bfs", Lead: PortfolioLead,
		Run: func(ctx context.Context) (*props.Report, bool, error) {
			if r.property == props.PropLiveness {
				rep, err := unicastLiveness(ctx, r, sp, m)
				return rep, err == nil && rep.Verdict != props.Inconclusive, err
			}
			opt := checkerOptions[flit.State](ctx, r)
			opt.Progress = progress
			opt.Invariants = m.Invariants()
			opt.CheckLocalDeadlock = localDeadlocks(r.property)
			res := searchUnicast(r, m, opt)
			return unicastReport(sp, r.property, &res, w), res.Verdict != props.Inconclusive, nil
		}})
	if r.opt.Portfolio && r.property != props.PropLiveness {
		names = append(names, "swarm")
		sw := &works[len(strategies)]
		// Without a time limit the walkers help only while the exhaustive search runs
		// (a walk that finds nothing never ends); with one they use all of it.
		_, deadline := ctx.Deadline()
		strategies = append(strategies, checker.Strategy[*props.Report]{Name: "swarm", Helper: !deadline,
			Run: func(ctx context.Context) (*props.Report, bool, error) {
				walkers := max(1, runtime.GOMAXPROCS(0)-r.opt.Workers)
				rep, err := unicastSwarm(ctx, r, g, sp, m, walkers, progress, sw)
				return rep, err == nil && rep.Verdict == props.Violated, err
			}})
	}
	race, err := checker.Race(ctx, strategies)
	if err != nil {
		return nil, err
	}
	return portfolioReport(ctx, r, sp, race, names, works)
}

// portfolioReport is the report of a portfolio check: the deciding strategy's, or,
// when none decided, the exhaustive search's (else the latest that ran), with the
// static decision and every strategy's figures. The work of the report's strategy is
// added to r's.
func portfolioReport(ctx context.Context, r *request, sp unicast.Spec, race *checker.RaceResult[*props.Report], names []string, works []work) (*props.Report, error) {
	pick := race.Winner
	for i, name := range names {
		if pick < 0 && race.Ran[i] && name == "bfs" {
			pick = i
		}
	}
	var rep *props.Report
	if pick >= 0 {
		rep = race.Results[pick]
		r.work.parses += works[pick].parses
		r.work.builds += works[pick].builds
		r.work.replays += works[pick].replays
	} else {
		// Stopped before the flit search started (a time limit within the static lead).
		why := "stopped before the flit search started"
		if err := ctx.Err(); err != nil {
			why += ": " + context.Cause(ctx).Error()
		}
		rep = unicastReport(sp, r.property, &unicast.Result{Verdict: props.Inconclusive, Violation: why}, new(work))
	}
	if rep == nil {
		return nil, internalf("the %s strategy returned no report", names[pick])
	}
	r.work.parses += works[pick].parses
	r.work.builds += works[pick].builds
	r.work.replays += works[pick].replays
	var static *props.Static
	for i, name := range names {
		x := race.Results[i]
		if !race.Ran[i] || x == nil {
			continue
		}
		if x.Static != nil {
			static = x.Static
		}
		s := props.Strategy{Name: name, Verdict: x.Verdict, Decided: i == race.Winner, States: x.Stats.States, Transitions: x.Stats.Transitions,
			Depth: x.Stats.Depth, StartedAfter: race.Started[i].Seconds(), Seconds: race.Seconds[i], Reason: x.Reason}
		if name == "static" {
			// The static decision's own verdict, about the relation on every placement.
			s.Verdict, s.States, s.Reason = x.Static.Verdict, x.Static.HeaderStates, x.Static.Reason
		}
		rep.Strategies = append(rep.Strategies, s)
	}
	rep.Static = static
	if race.Winner < 0 && rep.Verdict == props.Inconclusive {
		rep.Notes = append(rep.Notes, nextStep(r, static))
	}
	return rep, nil
}

// nextStep says in one line what to try when a portfolio check is inconclusive.
func nextStep(r *request, st *props.Static) string {
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
