package simulate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"sync/atomic"
	"text/tabwriter"
	"time"

	"github.com/wormcheck/wormcheck/algos/analytic"
	"github.com/wormcheck/wormcheck/checker/progress"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model/topology"
)

// This file runs the simulations of `wormcheck sim` and writes them for people: one
// traffic run (trafficRun), a latency-vs-load sweep (sweep.Run), a collective
// (collective.WriteText) and 000 §5.3's comparison (comparison.RunAll). A run that a
// signal, the memory budget or the time limit stops is reported inconclusive with what
// it measured (stopReason).

// stopReason says why a simulation stopped early: the context's cause (a signal, the
// memory budget, the time limit), at the given cycle; a negative cycle is left out.
func stopReason(ctx context.Context, cycle int64) string {
	at := ""
	if cycle >= 0 {
		at = fmt.Sprintf(" at cycle %d", cycle)
	}
	cause := context.Cause(ctx)
	switch {
	case cause == nil:
		return "stopped" + at
	case errors.Is(cause, context.Canceled):
		return "interrupted" + at
	}
	return fmt.Sprintf("stopped%s: %v", at, cause)
}

// progressLine reports the run of cfg on w with the shared progress line (it sets
// cfg.Progress): cycles of the warm-up and window done, flit-hops and their rate,
// elapsed, ETA, memory; past the window it counts the drain cycles. A nil w reports
// nothing and returns a nil line (whose Stop does nothing).
func progressLine(w io.Writer, cfg *sim.Config, label string) *progress.Line {
	if w == nil {
		return nil
	}
	var cycle, hops atomic.Int64
	cfg.Progress = func(c, h int64) { cycle.Store(c); hops.Store(h) }
	window := cfg.Warmup + cfg.Cycles
	if cfg.Cycles == 0 {
		window = cfg.Warmup + 10000
	}
	return progress.Start(progress.Options{W: w, Label: label}, func() progress.Snapshot {
		s := progress.Snapshot{Done: cycle.Load(), Total: window, Unit: "cycles", Work: hops.Load(), WorkUnit: "flit-hops"}
		if s.Done >= window {
			s.Total, s.Note = 0, "draining the last measured messages"
		}
		return s
	})
}

// trafficRun is one traffic simulation: its configuration and result, the latency model
// beside it (latencyModel), the seconds it took and, when it was stopped early, why.
type trafficRun struct {
	Grid    *topology.Network
	Algo    string
	Config  sim.Config
	Result  *sim.Result
	Model   *analytic.Estimate
	Seconds float64
	// Reason is "" for a finished run; else the run is inconclusive (stopReason).
	Reason string
}

// runTraffic simulates cfg on g (cfg.Context stops it) and evaluates the model beside it;
// algo is the multicast algorithm's name for the report.
func runTraffic(ctx context.Context, g *topology.Network, algo string, cfg sim.Config) (*trafficRun, error) {
	start := time.Now()
	res, err := sim.Run(cfg)
	if err != nil {
		return nil, err
	}
	r := &trafficRun{Grid: g, Algo: algo, Config: cfg, Result: res, Model: latencyModel(g, cfg), Seconds: time.Since(start).Seconds()}
	if res.Stopped {
		r.Reason = stopReason(ctx, res.Cycles)
	}
	return r, nil
}

// Report is the report object of the run (trafficReport), with verdict inconclusive and
// the reason when it was stopped, verdict violated when it deadlocked; version is the
// tool's.
func (r *trafficRun) Report(version string) Report {
	out := trafficReport(version, r.Grid, r.Algo, r.Config, r.Result, r.Model, r.Seconds)
	if d := r.Deadlock(); d != "" && r.Reason == "" {
		out.Verdict, out.Reason = "violated", "deadlocked: "+d
	}
	out.inconclusive(r.Reason)
	return out
}

// WriteText writes the run for people: the configuration, the mean latency of each
// message class with its 95% half-width, the accepted traffic and the speed, whether it
// saturated, the model's latencies, and why it stopped early.
func (r *trafficRun) WriteText(w io.Writer) {
	cfg, res, m := r.Config, r.Result, r.Model
	fmt.Fprintf(w, "sim %s: rate %.5g msg/node/cycle (%.4g flits), L=%d, V=%d, B=%d, %s, ts=%d tr=%d, seed %d\n",
		r.Grid.Spec(), cfg.Traffic.Rate, cfg.Traffic.Rate*float64(cfg.Length), cfg.Length, vcCount(cfg), cfg.Buffer, cfg.Ports, cfg.Ts, cfg.Tr, cfg.Seed)
	line := func(name string, s sim.Stat) {
		if s.N > 0 {
			fmt.Fprintf(w, "  %-9s latency %.2f ± %.2f cycles over %d messages (max %d)\n", name, s.Mean, s.CI95, s.N, s.Max)
		}
	}
	line("unicast", res.Unicast)
	line("broadcast", res.Broadcast)
	line("multicast", res.Multicast)
	fmt.Fprintf(w, "  accepted %.4f flits/node/cycle; %d cycles, %d flit-hops in %.2fs (%.0f flit-hops/s)\n", res.Accepted, res.Cycles, res.FlitHops, r.Seconds, float64(res.FlitHops)/r.Seconds)
	if d := r.Deadlock(); d != "" {
		fmt.Fprintf(w, "  DEADLOCKED: %s\n", d)
	} else if res.Saturated {
		fmt.Fprintln(w, "  SATURATED: measured messages did not drain; the latencies are lower bounds")
	}
	switch {
	case m.Err != "":
		fmt.Fprintf(w, "  %s: %s\n", m.Name, m.Err)
	case m.Broadcast != 0:
		fmt.Fprintf(w, "  %s: unicast %.2f, broadcast %.2f\n", m.Name, m.Unicast, m.Broadcast)
	default:
		fmt.Fprintf(w, "  %s: unicast %.2f\n", m.Name, m.Unicast)
	}
	if r.Reason != "" {
		fmt.Fprintf(w, "  INCONCLUSIVE: %s; the figures above cover only the cycles simulated\n", r.Reason)
	}
}

// Run simulates the sweep's loads in order until ctx is done or a run is stopped, adding
// each to the sweep. Before each run start(i, &cfg) may hook progress onto the
// configuration and returns what to call after it; point receives each finished load
// with the model's name. It returns "" when every load ran, else why the sweep stopped.
func (s *sweep) Run(ctx context.Context, start func(i int, cfg *sim.Config) func(), point func(p sweepPoint, model string)) (string, error) {
	for i := 1; i <= s.Points; i++ {
		if ctx.Err() != nil {
			return stopReason(ctx, -1), nil
		}
		c := s.Config(i)
		stop := start(i, &c)
		res, err := sim.Run(c)
		stop()
		if err != nil {
			return "", err
		}
		if res.Stopped {
			return stopReason(ctx, res.Cycles) + fmt.Sprintf(" of load %d", i), nil
		}
		point(s.Add(c, res))
	}
	return "", nil
}

// writePoint writes one finished load of a sweep as `sim --plot` prints it.
func writePoint(w io.Writer, p sweepPoint, model string) {
	fmt.Fprintf(w, "load %.4f: sim %.2f, %s %.2f%s\n", p.Load, p.Sim, model, p.Model, map[bool]string{true: " (saturated)"}[p.Saturated])
}

// WriteText writes the finished collective for people: completion time, the
// contention-free timed model, the paper's formula, and the first contention (which
// unicast waited for which, on which channel) or that the run was contention-free.
func (c *collective) WriteText(w io.Writer) {
	g, s, res, o := c.Grid, c.Schedule, c.Result, c.Options
	fmt.Fprintf(w, "%s on %s from %s (ts=%d tr=%d L=%d %s): completion %d cycles\n", c.Algo, g.Spec(), g.NodeName(c.Source), o.Ts, o.Tr, o.L, c.VCLabel(), res.Completion)
	if c.TimedErr == nil {
		fmt.Fprintf(w, "  contention-free timed model: %d\n", c.Timed)
	}
	if c.FormulaErr == nil {
		fmt.Fprintf(w, "  paper's formula: %.0f\n", c.Formula)
	}
	if ct := res.Contention; ct != nil {
		u, v := s.Unicasts[ct.Waiting], s.Unicasts[ct.Holding]
		fmt.Fprintf(w, "  first contention at cycle %d on %s: %s->%s (step %d) waited for %s->%s (step %d)\n", ct.Cycle, ct.Name,
			g.NodeName(u.From), g.NodeName(u.To), u.Step, g.NodeName(v.From), g.NodeName(v.To), v.Step)
	} else if res.Stopped {
		fmt.Fprintf(w, "  no header waited in the %d cycles simulated\n", res.StoppedAt)
	} else {
		fmt.Fprintln(w, "  no header ever waited: the run is contention-free")
	}
}

// RunAll runs the comparison for each destination count in order until ctx is done,
// writing each count's latency table to table (nil: none) as it finishes, and returns
// the report rows of the counts that finished (a run cut short is left out: its figures
// are not comparable) and, when ctx ended the run, why.
func (c *comparison) RunAll(ctx context.Context, table io.Writer) ([]CompareRow, string, error) {
	var rows []CompareRow
	var tw *tabwriter.Writer
	if table != nil {
		tw = tabwriter.NewWriter(table, 0, 0, 2, ' ', tabwriter.AlignRight)
	}
	for _, n := range c.Counts {
		if ctx.Err() != nil {
			break
		}
		r, err := c.Run(n)
		if err != nil {
			return nil, "", err
		}
		if ctx.Err() != nil {
			break
		}
		rows = append(rows, c.Record(n, r))
		if tw != nil {
			c.writeTable(tw, n, r)
		}
	}
	if tw != nil {
		tw.Flush()
	}
	if ctx.Err() != nil {
		return rows, stopReason(ctx, 0) + fmt.Sprintf(" after %d of %d destination counts", len(rows), len(c.Counts)), nil
	}
	return rows, "", nil
}

// writeTable writes the latency table of destination count n: one row per load, a
// column per algorithm ("sat" once saturated) and the reduction of tree against
// separate addressing.
func (c *comparison) writeTable(tw io.Writer, n int, r *sim.CompareResult) {
	red := c.Reduction(r)
	fmt.Fprintf(tw, "%s n=%d\tload", c.Grid.Spec(), n)
	for _, a := range c.Algos {
		fmt.Fprintf(tw, "\t%s", a.Name)
	}
	if red != nil {
		fmt.Fprintf(tw, "\treduction")
	}
	fmt.Fprintln(tw, "\t")
	for i, x := range c.Loads {
		fmt.Fprintf(tw, "\t%.4g", x)
		for a := range c.Algos {
			p := r.Points[a][i]
			if p.Saturated {
				fmt.Fprintf(tw, "\tsat")
			} else {
				fmt.Fprintf(tw, "\t%.1f±%.1f", p.Latency.Mean, p.Latency.CI95)
			}
		}
		if red != nil {
			if math.IsNaN(red[i]) {
				fmt.Fprintf(tw, "\t-")
			} else {
				fmt.Fprintf(tw, "\t%.1f%%", 100*red[i])
			}
		}
		fmt.Fprintln(tw, "\t")
	}
}

// Report is the report object of a comparison: its instance (topology, algorithms and
// the port model, length and pruning asked for), the rows RunAll returned, the plot file
// and, when the run was cut short, verdict inconclusive with the reason.
func (c *comparison) Report(version string, rows []CompareRow, plot, reason string) *ComparisonReport {
	o := c.opts
	r := &ComparisonReport{Header: header(version),
		Instance: ComparisonInstance{Topology: c.Grid.Spec(), Algorithms: c.Names, Ports: o.Ports, Length: o.Length, Prune: o.Prune},
		Compare:  rows, Plot: plot}
	r.inconclusive(reason)
	return r
}
