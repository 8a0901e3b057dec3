package simulate

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"time"

	"github.com/wormcheck/wormcheck/checker/progress"
	"github.com/wormcheck/wormcheck/checker/sim/pipeline"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// This file runs `sim --booksim`: BookSim's experiment at one injection rate, or with
// --plot at Points rates up to it (a latency-throughput curve), and reports it as BookSim
// does: average packet latency, accepted throughput, and whether the run was stable.

// BookSimReport is the report object of a BookSim experiment: its instance, what it ran
// and a point per injection rate; Plot names the curve's file (a sweep only).
type BookSimReport struct {
	Header
	Instance SweepInstance  `json:"instance"`
	BookSim  BookSimFigures `json:"booksim"`
	Plot     string         `json:"plot,omitempty"`
}

// BookSimFigures is the experiment: the configuration file, the routing relation and
// selection, the traffic pattern and injection process, packet sizes, the router and the
// measurement as simulated, and one point per injection rate run.
type BookSimFigures struct {
	Config    string           `json:"config"`
	Routing   string           `json:"routing"`
	Selection string           `json:"selection"`
	Traffic   string           `json:"traffic"`
	Process   string           `json:"process"`
	Sizes     []int            `json:"packet_sizes"`
	Router    pipeline.Router  `json:"router"`
	Measure   pipeline.Measure `json:"measure"`
	Points    []BookSimPoint   `json:"points"`
}

// BookSimPoint is one injection rate: offered packets and flits per terminal per cycle,
// BookSim's overall statistics (latencies null when the run was not stable: BookSim
// reports none), and the run's cycles and speed.
type BookSimPoint struct {
	Rate           float64  `json:"injection_rate"`
	Load           float64  `json:"load"`
	Stable         bool     `json:"stable"`
	Converged      bool     `json:"converged"`
	Deadlocked     bool     `json:"deadlocked"`
	PacketLatency  Figure   `json:"packet_latency"`
	NetworkLatency Figure   `json:"network_latency"`
	MinLatency     Figure   `json:"min_packet_latency"`
	MaxLatency     Figure   `json:"max_packet_latency"`
	Hops           Figure   `json:"hops"`
	Injected       Figure   `json:"injected"`
	Accepted       Figure   `json:"accepted"`
	ZeroLoad       Figure   `json:"zero_load"`
	Periods        []Period `json:"periods"`
	Cycles         int64    `json:"cycles"`
	FlitHops       int64    `json:"flit_hops"`
	Seconds        float64  `json:"seconds"`
	CyclesPerSec   float64  `json:"cycles_per_sec"`
	FlitHopsPerSec float64  `json:"flit_hops_per_sec"`
}

// Period is one sample period of a run: its last cycle, the average packet latency and
// accepted flit rate since the statistics were cleared, and whether it was warm-up.
type Period struct {
	Cycle    int64  `json:"cycle"`
	Latency  Figure `json:"latency"`
	Accepted Figure `json:"accepted"`
	Warmup   bool   `json:"warmup"`
}

// bookSimOutcome is a BookSim experiment, done or stopped.
type bookSimOutcome struct {
	rep    *BookSimReport
	grid   *topology.Network
	plot   bool
	reason string
}

// simulateBookSim runs req's BookSim experiment: one run, or with Plot a run at each of
// Points injection rates up to the configured one, lowest first, stopping after the
// first unstable run (every higher rate saturates too).
func simulateBookSim(ctx context.Context, req Request) (Outcome, error) {
	run := req.BookSim
	cfg, err := bookSimConfig(req.Grid, run, req.Options.Relation)
	if err != nil {
		return nil, err
	}
	if _, err := pipeline.Run(probe(cfg)); err != nil {
		return nil, err
	}
	cfg.Context = ctx
	rates := []float64{cfg.Traffic.Rate}
	if req.Plot != "" {
		if req.Points < 2 || req.Points > 100 {
			return nil, props.FieldErrorf("{Request.Points} %d: want 2..100", req.Points)
		}
		rates = rates[:0]
		for i := 1; i <= req.Points; i++ {
			rates = append(rates, cfg.Traffic.Rate*float64(i)/float64(req.Points))
		}
	}
	o := &bookSimOutcome{grid: req.Grid, plot: req.Plot != ""}
	o.rep = &BookSimReport{Header: header(""), Instance: SweepInstance{Topology: req.Grid.Spec(), Algorithm: "booksim"}, Plot: req.Plot,
		BookSim: BookSimFigures{Config: run.Name, Routing: cfg.Relation.Name(), Selection: cfg.Selection.String(),
			Traffic: cfg.Traffic.Pattern.Name(), Process: processName(cfg.Traffic.Process), Sizes: cfg.Traffic.Sizes,
			Router: cfg.Router, Measure: cfg.Measure}}
	zero := zeroLoad(cfg)
	for i, rate := range rates {
		c := cfg
		c.Traffic.Rate = rate
		line := bookSimProgress(req.Progress, &c, fmt.Sprintf("sim --booksim %s, rate %d of %d", run.Name, i+1, len(rates)))
		start := time.Now()
		res, err := pipeline.Run(c)
		line.Stop()
		if err != nil {
			return nil, err
		}
		p := bookSimPoint(c, res, time.Since(start).Seconds(), zero)
		if res.Stopped {
			o.reason = stopReason(ctx, res.Cycles)
			break
		}
		o.rep.BookSim.Points = append(o.rep.BookSim.Points, p)
		if req.Text != nil && req.Plot != "" {
			writeBookSimPoint(req.Text, p)
		}
		if !res.Stable {
			break
		}
	}
	o.rep.inconclusive(o.reason)
	return o, nil
}

// probe is cfg shortened to one cycle without traffic: it validates cfg with the
// simulator's own wording before anything long runs.
func probe(cfg pipeline.Config) pipeline.Config {
	cfg.Traffic.Rate = 0
	cfg.Measure.SamplePeriod, cfg.Measure.WarmupPeriods, cfg.Measure.MaxSamples, cfg.Measure.SimCount = 1, 0, 1, 1
	return cfg
}

func processName(p pipeline.Process) string {
	if p.OnOff {
		return fmt.Sprintf("on_off(%g,%g,%g)", p.Alpha, p.Beta, p.R1)
	}
	return "bernoulli"
}

// bookSimPoint reads one point off a run of c that took secs seconds.
func bookSimPoint(c pipeline.Config, res *pipeline.Result, secs float64, zero float64) BookSimPoint {
	size := meanSize(c.Traffic.Sizes, c.Traffic.SizeRates)
	nan := Figure(math.NaN())
	p := BookSimPoint{Rate: c.Traffic.Rate, Load: c.Traffic.Rate * size, Stable: res.Stable, Converged: res.Converged,
		Deadlocked: res.Deadlocked, PacketLatency: nan, NetworkLatency: nan, MinLatency: nan, MaxLatency: nan, Hops: nan,
		Injected: nan, Accepted: nan, ZeroLoad: Figure(zero), Cycles: res.Cycles, FlitHops: res.FlitHops, Seconds: secs}
	if secs > 0 {
		p.CyclesPerSec, p.FlitHopsPerSec = float64(res.Cycles)/secs, float64(res.FlitHops)/secs
	}
	if res.Stable {
		p.PacketLatency, p.NetworkLatency = Figure(res.PacketLatency.Mean), Figure(res.NetworkLatency.Mean)
		p.MinLatency, p.MaxLatency = Figure(res.PacketLatency.Min), Figure(res.PacketLatency.Max)
		p.Hops, p.Injected, p.Accepted = Figure(res.Hops), Figure(res.InjectedFlits.Mean), Figure(res.AcceptedFlits.Mean)
	}
	for _, q := range res.Periods {
		p.Periods = append(p.Periods, Period{Cycle: q.Cycle, Latency: Figure(q.Latency), Accepted: Figure(q.Accepted), Warmup: q.Warmup})
	}
	return p
}

// zeroLoad is the mean zero-load latency of c's traffic: for each source (a permutation)
// or 4096 draws (a random pattern) the lone packet's latency (H+1)·D + H·lat + 3 +
// (L-1) over its route of H channels, with D the router's pipeline delay, lat the mean
// channel latency of the route and L the mean packet size. NaN when a route cannot be
// found.
func zeroLoad(c pipeline.Config) float64 {
	r := &c.Router
	D := float64(r.RoutingDelay + r.VCAllocDelay + r.SWAllocDelay + r.STPrepareDelay + r.STFinalDelay)
	L := meanSize(c.Traffic.Sizes, c.Traffic.SizeRates)
	terms := c.Terminals
	pat := c.Traffic.Pattern
	rng := rand.New(rand.NewPCG(0x2e, 0))
	draws := len(terms)
	if pat.Random() {
		draws = 4096
	}
	var sum float64
	for i := 0; i < draws; i++ {
		s := i % len(terms)
		d := pat.Dest(s, rng)
		h, lat, err := pipelineRoute(c, terms[s], terms[d])
		if err != nil {
			return math.NaN()
		}
		sum += (h+1)*D + lat + 3 + L - 1
	}
	return sum / float64(draws)
}

// pipelineRoute returns the channels between routers on the route of a lone packet from
// terminal node s to d (its most preferred outputs) and their total latency.
func pipelineRoute(c pipeline.Config, s, d topology.NodeID) (float64, float64, error) {
	if s == d {
		return 0, 0, nil
	}
	hops, err := routing.SelectPath(c.Relation, s, d, func(routing.Header, []routing.Output) int { return 0 })
	if err != nil {
		return 0, 0, err
	}
	g := c.Network
	var h, lat float64
	for _, hp := range hops {
		ch := g.Channel(hp.Channel)
		if g.Terminal(ch.From) || g.Terminal(ch.To) {
			continue // a terminal's own channel: counted as injection or ejection
		}
		h++
		if c.Latency != nil {
			lat += float64(c.Latency(hp.Channel))
		} else {
			lat += float64(g.Weight(hp.Channel))
		}
	}
	return h, lat, nil
}

// bookSimProgress reports the run of c on w with the shared progress line (cycles and
// flit-hops; BookSim's run length depends on convergence, so there is no total).
func bookSimProgress(w io.Writer, c *pipeline.Config, label string) *progress.Line {
	if w == nil {
		return nil
	}
	var cycle, hops atomic.Int64
	c.Progress = func(cy, h int64) { cycle.Store(cy); hops.Store(h) }
	return progress.Start(progress.Options{W: w, Label: label}, func() progress.Snapshot {
		return progress.Snapshot{Done: cycle.Load(), Unit: "cycles", Work: hops.Load(), WorkUnit: "flit-hops"}
	})
}

// writeBookSimPoint writes one point of a sweep as it finishes.
func writeBookSimPoint(w io.Writer, p BookSimPoint) {
	if !p.Stable {
		fmt.Fprintf(w, "load %.4f (rate %.5g): unstable (average latency passed latency_thres): saturated\n", p.Load, p.Rate)
		return
	}
	fmt.Fprintf(w, "load %.4f (rate %.5g): packet latency %.2f, accepted %.4f, zero-load %.2f\n", p.Load, p.Rate, p.PacketLatency, p.Accepted, p.ZeroLoad)
}

// Report is the report object; version is the tool's.
func (o *bookSimOutcome) Report(version string) Report {
	r := *o.rep
	r.Version = version
	return &r
}

// WriteText writes the experiment for people: what ran, then BookSim's figures for the
// point (or the sweep's last), and why it stopped early.
func (o *bookSimOutcome) WriteText(w io.Writer) {
	b := &o.rep.BookSim
	r := &b.Router
	fmt.Fprintf(w, "sim --booksim %s: %s, routing %s (%s), traffic %s, %s, packets of %v flits\n", b.Config, o.grid.Spec(), b.Routing, b.Selection, b.Traffic, b.Process, b.Sizes)
	fmt.Fprintf(w, "  router: %d VCs x %d flits, delays routing %d, VC alloc %d, switch alloc %d, traversal %d+%d, credit %d; speedup in %d out %d internal %g; %s/%s; wait_for_tail_credit %v\n",
		r.VCs, r.Buffer, r.RoutingDelay, r.VCAllocDelay, r.SWAllocDelay, r.STPrepareDelay, r.STFinalDelay, r.CreditDelay,
		r.InputSpeedup, r.OutputSpeedup, r.InternalSpeedup, r.VCAllocator, r.SWAllocator, r.WaitForTailCredit)
	if len(b.Points) > 0 && !o.plot {
		p := b.Points[len(b.Points)-1]
		fmt.Fprintf(w, "  injection rate %.5g packets/terminal/cycle (%.4g flits)\n", p.Rate, p.Load)
		switch {
		case p.Deadlocked:
			fmt.Fprintf(w, "  DEADLOCKED: flits stopped moving for good\n")
		case !p.Stable:
			fmt.Fprintf(w, "  UNSTABLE: the average latency passed latency_thres = %g cycles: the network saturates at this load (BookSim: \"Simulation unstable\")\n", b.Measure.LatencyThreshold)
		default:
			fmt.Fprintf(w, "  packet latency %.2f cycles (min %.0f, max %.0f), network latency %.2f, hops %.2f; zero-load %.2f\n",
				p.PacketLatency, p.MinLatency, p.MaxLatency, p.NetworkLatency, p.Hops, p.ZeroLoad)
			fmt.Fprintf(w, "  injected %.4f, accepted %.4f flits/terminal/cycle%s\n", p.Injected, p.Accepted, map[bool]string{false: " (sample periods ran out before convergence)"}[p.Converged])
		}
		fmt.Fprintf(w, "  %d sample periods, %d cycles, %d flit-hops in %.2fs (%.0f cycles/s, %.0f flit-hops/s)\n", len(p.Periods), p.Cycles, p.FlitHops, p.Seconds, p.CyclesPerSec, p.FlitHopsPerSec)
	}
	if o.reason != "" {
		fmt.Fprintf(w, "  INCONCLUSIVE: %s; the figures above cover the runs finished\n", o.reason)
	}
}

// StopReason is why the experiment stopped early, "" when it finished.
func (o *bookSimOutcome) StopReason() string { return o.reason }

// Deadlock says how a run deadlocked, "" when none did.
func (o *bookSimOutcome) Deadlock() string {
	for _, p := range o.rep.BookSim.Points {
		if p.Deadlocked {
			return fmt.Sprintf("at injection rate %.5g, flits stopped moving for good: routing %s deadlocked", p.Rate, o.rep.BookSim.Routing)
		}
	}
	return ""
}

// Plot is the sweep's plot: packet latency against offered load, beside the zero-load
// latency; nil for a single run.
func (o *bookSimOutcome) Plot() *props.PlotEvidence {
	if !o.plot {
		return nil
	}
	var xs, lat, zero []float64
	for _, p := range o.rep.BookSim.Points {
		xs, lat, zero = append(xs, p.Load), append(lat, float64(p.PacketLatency)), append(zero, float64(p.ZeroLoad))
	}
	b := &o.rep.BookSim
	title := fmt.Sprintf("%s (%s): %s, %s, packets of %v flits", b.Config, o.grid.Spec(), b.Traffic, b.Routing, b.Sizes)
	return &props.PlotEvidence{Title: title, Loads: xs, Panels: []props.Panel{{Curves: []props.Curve{
		{Name: "average packet latency", Y: lat, Colour: "#0072b2"},
		{Name: "zero-load latency", Y: zero, Colour: "#d00000", Dashed: true}}}}}
}
