// Package simulate is the front-end of the flit-level simulator (checker/sim), the
// library side of `wormcheck sim`: Run turns a Request (a topology, the options as the
// user gave them) into a simulator configuration, runs one of four modes (one traffic
// simulation, a latency-vs-load sweep, a unicast-based collective at zero load, 000
// §5.3's tree-vs-unicast comparison) and returns an Outcome with its report object, the
// text printed after it and its picture. The latency model or the paper's formula is
// evaluated beside each run. Budget bounds a run by memory and time.
//
// It sits with the properties, above the algorithms and the simulator it composes: it
// imports the algorithms whose schedules it executes and the pictures it draws, which
// the simulator itself (checker/sim) must not.
package simulate

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// Request is one `wormcheck sim` run, which Run dispatches to one of four modes:
// 000 §5.3's comparison when Compare is set; a collective (newCollective) when
// Options.Algo names one and neither a rate nor a load is given; a latency-vs-load sweep
// when Plot is set; else one traffic simulation.
type Request struct {
	Grid    *topology.Network
	Options Options
	// Compare lists the multicast algorithms to compare (e.g. "tree,separate"),
	// CompareDests their destination counts and CompareLoads explicit loads (else Points
	// loads up to Options.Load); see newComparison.
	Compare, CompareDests, CompareLoads string
	// Points is the number of loads of a sweep or a comparison.
	Points int
	// Plot names the SVG file a sweep or a comparison is drawn to, for the report; ""
	// for none (and no sweep).
	Plot string
	// Progress receives the progress line of each traffic run; nil for none.
	Progress io.Writer
	// Trace, when not nil, records the flit moves of a traffic run or a collective.
	Trace Trace
	// Text receives what is printed while the run goes on: a sweep's loads and a
	// comparison's tables; nil when the caller prints the report object instead.
	Text io.Writer
	// BookSim, when set, runs BookSim2's experiment on its configuration
	// (checker/sim/pipeline) instead of the papers' simulator; Options.Relation routes
	// it, and Plot and Points sweep its injection rate.
	BookSim *BookSimRun
}

// Trace is where a run records its flit moves: Open is called when a run that
// records them starts (after its configuration is validated, so that bad input leaves no
// file), Close after that run, before its outcome is reported.
type Trace interface {
	Open() (func(sim.TraceEvent), error)
	Close() error
}

// Outcome is the outcome of a simulation in any mode: its report object, what
// is printed after the run (WriteText), why it stopped early ("" when it finished; then
// it is inconclusive), what deadlocked ("" when nothing did; then the run found a
// violation: flits that never moved again) and its plot (nil when the mode has none).
type Outcome interface {
	Report(version string) Report
	WriteText(w io.Writer)
	StopReason() string
	Deadlock() string
	Plot() *props.PlotEvidence
}

// Run runs req until it finishes or ctx ends (a signal, the memory budget or the
// time limit: then the outcome is inconclusive with what it measured). Errors are the
// options' (a props.FieldError naming the field of Request or Options at fault) or the
// simulator's.
func Run(ctx context.Context, req Request) (Outcome, error) {
	g, o := req.Grid, req.Options
	if req.BookSim != nil {
		return simulateBookSim(ctx, req)
	}
	if req.Compare != "" {
		if err := requireRouting(g, o, "{Request.Compare}"); err != nil {
			return nil, err
		}
		return simulateComparison(ctx, req)
	}
	if o.Rate == 0 && o.Load == 0 {
		c, ok, err := newCollective(g, o)
		if err != nil {
			return nil, err
		}
		if ok {
			return simulateCollective(ctx, c, req.Trace)
		}
	}
	cfg, err := simConfig(g, o)
	if err != nil {
		return nil, err
	}
	cfg.Context = ctx
	if req.Plot != "" {
		return simulateSweep(ctx, req, cfg)
	}
	if cfg.Trace, err = openTrace(req.Trace); err != nil {
		return nil, err
	}
	line := progressLine(req.Progress, &cfg, fmt.Sprintf("sim %s", g.Spec()))
	run, err := runTraffic(ctx, g, o.Algo, cfg)
	line.Stop()
	if err != nil {
		return nil, err
	}
	if req.Trace != nil {
		if err := req.Trace.Close(); err != nil {
			return nil, err
		}
	}
	return run, nil
}

// openTrace opens t, if any.
func openTrace(t Trace) (func(sim.TraceEvent), error) {
	if t == nil {
		return nil, nil
	}
	return t.Open()
}

// StopReason is why the run stopped early, "" when it finished.
func (r *trafficRun) StopReason() string { return r.Reason }

// Plot is nil: a single run has no plot.
func (r *trafficRun) Plot() *props.PlotEvidence { return nil }

// Deadlock says how the run deadlocked, "" when it did not.
func (r *trafficRun) Deadlock() string {
	if !r.Result.Deadlocked {
		return ""
	}
	how := "the routing"
	if rel := r.Config.Relation; rel != nil {
		how = "routing " + rel.Name()
	}
	return fmt.Sprintf("flits stopped moving for good with %d flits undelivered (in the network and queued at sources): %s deadlocked under this load", r.Result.Undelivered, how)
}

// collectiveOutcome is a collective run, the seconds it took and why it stopped early
// ("" when it completed).
type collectiveOutcome struct {
	c      *collective
	secs   float64
	reason string
}

func simulateCollective(ctx context.Context, c *collective, t Trace) (Outcome, error) {
	trace, err := openTrace(t)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	if err := c.Run(ctx, trace); err != nil {
		return nil, err
	}
	reason := ""
	if c.Result.Stopped {
		reason = stopReason(ctx, c.Result.StoppedAt)
	}
	if t != nil {
		if err := t.Close(); err != nil {
			return nil, err
		}
	}
	return collectiveOutcome{c, time.Since(start).Seconds(), reason}, nil
}

func (o collectiveOutcome) Report(version string) Report {
	r := o.c.report(version, o.secs)
	r.inconclusive(o.reason)
	return r
}

func (o collectiveOutcome) WriteText(w io.Writer) {
	o.c.WriteText(w)
	if o.reason != "" {
		fmt.Fprintf(w, "  INCONCLUSIVE: %s, before every unicast was delivered; the completion above is the last delivery so far\n", o.reason)
	}
}

func (o collectiveOutcome) StopReason() string        { return o.reason }
func (o collectiveOutcome) Deadlock() string          { return "" }
func (o collectiveOutcome) Plot() *props.PlotEvidence { return nil }

// sweepOutcome is a latency-vs-load sweep, complete or stopped.
type sweepOutcome struct {
	sw         *sweep
	algo, plot string
	reason     string
}

func simulateSweep(ctx context.Context, req Request, cfg sim.Config) (Outcome, error) {
	sw, err := newSweep(req.Grid, cfg, req.Points)
	if err != nil {
		return nil, err
	}
	reason, err := sw.Run(ctx, func(i int, c *sim.Config) func() {
		return progressLine(req.Progress, c, fmt.Sprintf("sim %s, load %d of %d", req.Grid.Spec(), i, req.Points)).Stop
	}, func(p sweepPoint, model string) {
		if req.Text != nil {
			writePoint(req.Text, p, model)
		}
	})
	if err != nil {
		return nil, err
	}
	return sweepOutcome{sw, req.Options.Algo, req.Plot, reason}, nil
}

func (o sweepOutcome) Report(version string) Report {
	return o.sw.report(version, o.algo, o.plot, o.reason)
}

func (o sweepOutcome) WriteText(w io.Writer) {
	if o.reason != "" {
		fmt.Fprintf(w, "INCONCLUSIVE: %s; the plot shows the %d loads finished\n", o.reason, len(o.sw.Done))
	}
}

func (o sweepOutcome) StopReason() string        { return o.reason }
func (o sweepOutcome) Deadlock() string          { return "" }
func (o sweepOutcome) Plot() *props.PlotEvidence { return o.sw.Evidence() }

// comparisonOutcome is 000 §5.3's comparison over the destination counts that finished.
type comparisonOutcome struct {
	c            *comparison
	rows         []CompareRow
	plot, reason string
}

func simulateComparison(ctx context.Context, req Request) (Outcome, error) {
	c, err := newComparison(req.Grid, req.Options, req.Compare, req.CompareDests, req.CompareLoads, req.Points)
	if err != nil {
		return nil, err
	}
	c.Base.Context = ctx
	rows, reason, err := c.RunAll(ctx, req.Text)
	if err != nil {
		return nil, err
	}
	return comparisonOutcome{c, rows, req.Plot, reason}, nil
}

func (o comparisonOutcome) Report(version string) Report {
	return o.c.Report(version, o.rows, o.plot, o.reason)
}

func (o comparisonOutcome) WriteText(w io.Writer) {
	if o.reason != "" {
		fmt.Fprintf(w, "INCONCLUSIVE: %s\n", o.reason)
	}
}

func (o comparisonOutcome) StopReason() string        { return o.reason }
func (o comparisonOutcome) Deadlock() string          { return "" }
func (o comparisonOutcome) Plot() *props.PlotEvidence { return o.c.Evidence(o.c.opts.Ports) }
