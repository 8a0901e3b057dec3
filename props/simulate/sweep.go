package simulate

import (
	"fmt"

	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// sweep is a latency-vs-load sweep: the base configuration run at Points loads evenly
// spaced up to its rate, each point read off with its model (newSweepPoint), and drawn
// as the simulation beside the model (003 on hypercubes, the zero-load latency
// elsewhere).
type sweep struct {
	Grid   *topology.Network
	Base   sim.Config
	Points int
	// Done are the points run so far, and Rates their message rates.
	Done  []sweepPoint
	Rates []float64
}

// newSweep prepares a sweep of cfg over points loads; points must be 2..100.
func newSweep(g *topology.Network, cfg sim.Config, points int) (*sweep, error) {
	if points < 2 || points > 100 {
		return nil, props.FieldErrorf("{Request.Points} %d: want 2..100", points)
	}
	return &sweep{Grid: g, Base: cfg, Points: points}, nil
}

// Config is the configuration of load i (1..Points): the base at i/Points of its rate.
func (s *sweep) Config(i int) sim.Config {
	c := s.Base
	c.Traffic.Rate = s.Base.Traffic.Rate * float64(i) / float64(s.Points)
	return c
}

// Add records the run res of configuration c and returns its point and the model's name.
func (s *sweep) Add(c sim.Config, res *sim.Result) (sweepPoint, string) {
	m := latencyModel(s.Grid, c)
	p := newSweepPoint(c, res, m)
	s.Done, s.Rates = append(s.Done, p), append(s.Rates, c.Traffic.Rate)
	return p, m.Name
}

// hybrid says whether the traffic mixes broadcasts into unicasts (003): then broadcast
// latency is drawn in a panel beside unicast latency.
func (s *sweep) hybrid() bool {
	t := s.Base.Traffic
	return t.Broadcast > 0 && t.Broadcast < 1 && t.Multicast == 0
}

// Evidence is the plot of the points done: latency against load, the simulation with
// its 95% bars beside the model, in two panels with hybrid traffic.
func (s *sweep) Evidence() *props.PlotEvidence {
	var xs, simY, modY, simCI, bY, bModel, bCI []float64
	for _, p := range s.Done {
		xs, simY, modY, simCI = append(xs, p.Load), append(simY, p.Sim), append(modY, p.Model), append(simCI, p.CI)
		bY, bModel, bCI = append(bY, p.Broadcast), append(bModel, p.BModel), append(bCI, p.BroadcastCI)
	}
	cfg := s.Base
	name := latencyModel(s.Grid, cfg).Name
	ev := &props.PlotEvidence{Title: fmt.Sprintf("%s, L=%d, V=%d", s.Grid.Spec(), cfg.Length, cfg.VCs), Loads: xs}
	sims := []props.Curve{{Name: "simulation", Y: simY, CI: simCI, Colour: "#0072b2"}, {Name: name, Y: modY, Colour: "#d00000", Dashed: true}}
	if !s.hybrid() {
		ev.Panels = []props.Panel{{Curves: sims}}
		return ev
	}
	ev.Title += fmt.Sprintf(", %.3g of the messages broadcast", cfg.Traffic.Broadcast)
	ev.Panels = []props.Panel{
		{Title: "unicast", Curves: sims},
		{Title: "broadcast", Curves: []props.Curve{{Name: "simulation", Y: bY, CI: bCI, Colour: "#e69f00"}, {Name: name, Y: bModel, Colour: "#d00000", Dashed: true}}},
	}
	return ev
}

// report is the report object of the sweep so far, drawn into the file plot, with
// verdict inconclusive and the reason when reason is not ""; version is the tool's and
// algo the --algo given.
func (s *sweep) report(version, algo, plot, reason string) *SweepReport {
	r := &SweepReport{Header: header(version), Instance: SweepInstance{Topology: s.Grid.Spec(), Algorithm: algo}, Plot: plot}
	for i, p := range s.Done {
		r.Sweep = append(r.Sweep, p.row(s.Rates[i]))
	}
	r.inconclusive(reason)
	return r
}
