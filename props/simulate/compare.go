package simulate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// comparison is a prepared run of 000 §5.3's comparison of multicast algorithms
// (sim.Compare): the base configuration, the algorithms, the destination counts and the
// offered loads, and which algorithms are the tree and separate addressing (-1 when
// absent) so that the tree's latency reduction can be reported.
type comparison struct {
	Grid      *topology.Network
	Base      sim.Config
	Names     []string
	Algos     []sim.McastAlgo
	Counts    []int
	Loads     []float64
	Tree, Sep int
	// series are the plot's curves of the runs recorded, one per algorithm and count.
	series []props.Curve
	// opts are the options the comparison was made with, for its report.
	opts Options
	runs int
}

// comparePalette colours the algorithms of a comparison plot; each destination count
// has its own style (props.Curve.Style: a dash pattern and a marker), so every curve has a style of its own.
var comparePalette = [...]string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}

// newComparison prepares a comparison of the algorithms in the comma-separated names
// on g, one run per count in dests (comma-separated), at the comma-separated loads, or
// when loads is "" at points loads up to o.Load. The other options are those of simConfig;
// errors name the flag at fault.
func newComparison(g *topology.Network, o Options, names, dests, loads string, points int) (*comparison, error) {
	c := &comparison{Grid: g, Names: strings.Split(names, ","), Tree: -1, Sep: -1, opts: o}
	if loads != "" {
		for _, s := range strings.Split(loads, ",") {
			x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || !(x > 0) || math.IsInf(x, 0) {
				return nil, props.FieldErrorf("{Request.CompareLoads} %q: want positive loads separated by commas", loads)
			}
			c.Loads = append(c.Loads, x)
		}
		o.Load = c.Loads[len(c.Loads)-1]
	}
	if o.Load <= 0 {
		return nil, props.FieldErrorf("{Request.Compare} needs {Options.Load} (the highest offered load in data flits delivered per node per cycle) or {Request.CompareLoads}")
	}
	if points < 1 || points > 100 {
		return nil, props.FieldErrorf("{Request.Points} %d: want 1..100", points)
	}
	for _, s := range strings.Split(dests, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n >= g.Nodes() {
			return nil, props.FieldErrorf("{Request.CompareDests} %q: want counts 1..%d separated by commas", dests, g.Nodes()-1)
		}
		c.Counts = append(c.Counts, n)
	}
	for i, name := range c.Names {
		name = strings.TrimSpace(name)
		oa := o
		oa.Algo, oa.Traffic, oa.Multicast, oa.B, oa.Rate = name, "multicast", -1, -1, 0
		oa.Dests = "1..1"
		cfg, err := simConfig(g, oa)
		if err != nil {
			return nil, err
		}
		if cfg.BroadcastSchedule != nil {
			return nil, props.FieldErrorf("{Request.Compare} %s: a broadcast algorithm, not a multicast one", name)
		}
		if i == 0 {
			c.Base = cfg
			c.Base.Tree, c.Base.Multicast, c.Base.MulticastSchedule = false, nil, nil
		}
		c.Algos = append(c.Algos, sim.McastAlgo{Name: name, Tree: cfg.Tree, Prune: cfg.Prune, Multicast: cfg.Multicast, Schedule: cfg.MulticastSchedule})
		switch name {
		case "tree":
			c.Tree = i
		case "separate", "unicast":
			c.Sep = i
		}
	}
	if loads == "" {
		for i := 1; i <= points; i++ {
			c.Loads = append(c.Loads, o.Load*float64(i)/float64(points))
		}
	}
	return c, nil
}

// Run compares the algorithms with n destinations per multicast.
func (c *comparison) Run(n int) (*sim.CompareResult, error) {
	return sim.Compare(sim.CompareSpec{Base: c.Base, Algos: c.Algos, Dests: n, Loads: c.Loads})
}

// Reduction is the tree's latency reduction against separate addressing at each load,
// or nil when the comparison lacks one of them.
func (c *comparison) Reduction(r *sim.CompareResult) []float64 {
	if c.Tree < 0 || c.Sep < 0 {
		return nil
	}
	return r.Reduction(c.Tree, c.Sep)
}

// row is the report row of the run r with n destinations: every point of every
// algorithm, and the tree's reduction when there is one.
func (c *comparison) row(n int, r *sim.CompareResult) CompareRow {
	row := CompareRow{Dests: n}
	for a := range c.Algos {
		for _, p := range r.Points[a] {
			row.Points = append(row.Points, ComparePoint{Algorithm: c.Algos[a].Name, Load: p.Load, Rate: p.Rate, Mean: Figure(p.Latency.Mean),
				CI95: Figure(p.Latency.CI95), N: p.Latency.N, Saturated: p.Saturated, Deadlocked: p.Deadlock, Accepted: p.Accepted, Prunes: p.Prunes})
		}
	}
	if red := c.Reduction(r); red != nil {
		mx, at := r.MaxReduction(c.Tree, c.Sep)
		fx, fa := Figure(mx), Figure(at)
		row.Reduction, row.MaxReduction, row.MaxReductionLoad = figures(red), &fx, &fa
	}
	return row
}

// Record adds the run r with n destinations to the plot (one curve per algorithm, with
// its 95% bars) and returns its report row.
func (c *comparison) Record(n int, r *sim.CompareResult) CompareRow {
	for a := range c.Algos {
		var bars []float64
		for _, p := range r.Points[a] {
			bars = append(bars, p.Latency.CI95)
		}
		c.series = append(c.series, props.Curve{Name: fmt.Sprintf("%s n=%d", c.Algos[a].Name, n), Y: r.Latency(a), CI: bars,
			Colour: comparePalette[a%len(comparePalette)], Style: c.runs + 1})
	}
	c.runs++
	return c.row(n, r)
}

// Evidence is the plot of the runs recorded: latency against load, one curve per
// algorithm and destination count (each count a style of its own); ports names the
// port model in the title.
func (c *comparison) Evidence(ports string) *props.PlotEvidence {
	return &props.PlotEvidence{Title: fmt.Sprintf("%s multicast, L=%d, %s-port", c.Grid.Spec(), c.Base.Length, ports), Loads: c.Loads,
		Panels: []props.Panel{{Curves: c.series}}}
}
