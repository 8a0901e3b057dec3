package simulate

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/algos/analytic"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// collective is one unicast-based collective (a broadcast or a multicast schedule)
// run by the flit-level simulator at zero load with real channel arbitration, beside the
// contention-free timed model and the paper's formula where one exists.
type collective struct {
	Grid     *topology.Network
	Algo     string
	Source   topology.NodeID
	Schedule *model.Schedule
	// Options are the simulator's: the software latencies, the length, the VCs (1 when
	// none were asked for), the buffers and the dateline classes.
	Options sim.ScheduleOptions
	// Timed is the schedule's completion time in the contention-free timed model, unless
	// TimedErr; Formula the paper's, unless FormulaErr (see analytic.CollectiveFormula).
	Timed      int64
	TimedErr   error
	Formula    float64
	FormulaErr error
	// Result is set by Run.
	Result *sim.ScheduleResult
}

// newCollective builds the collective o.Algo from o.Source on g: a broadcast, or a
// multicast to o.Dests MIN destinations drawn with o.Seed. It reports false when o.Algo
// is no collective; errors name the flag at fault.
func newCollective(g *topology.Network, o Options) (*collective, bool, error) {
	build, ok := broadcastBuilder(o.Algo)
	if !ok {
		multicast, ok := multicastBuilder(o.Algo)
		if !ok {
			return nil, false, nil
		}
		k, _, err := parseDests(o.Dests)
		if err != nil {
			return nil, true, err
		}
		if k >= g.Nodes() {
			return nil, true, props.FieldErrorf("{Options.Dests} %d: %s has only %d other nodes", k, g.Spec(), g.Nodes()-1)
		}
		dests := sampleDests(g.Nodes(), topology.NodeID(o.Source), k, o.Seed)
		build = func(g *topology.Network, src topology.NodeID) (*model.Schedule, error) {
			return multicast(g, src, dests)
		}
	}
	if err := requireRouting(g, o, "{Options.Algo} %s", o.Algo); err != nil {
		return nil, true, err
	}
	switch {
	case o.Buffers < 1:
		return nil, true, props.FieldErrorf("{Options.Buffers} %d: every virtual channel needs at least one flit of buffer", o.Buffers)
	case o.Length < 1 || o.Length > 1<<20:
		return nil, true, props.FieldErrorf("{Options.Length} %d: message length must be 1..%d flits", o.Length, 1<<20)
	case o.Ts < 0 || o.Ts > sim.MaxLatency:
		return nil, true, props.FieldErrorf("{Options.Ts} %d: must be 0..%d cycles", o.Ts, sim.MaxLatency)
	case o.Tr < 0 || o.Tr > sim.MaxLatency:
		return nil, true, props.FieldErrorf("{Options.Tr} %d: must be 0..%d cycles", o.Tr, sim.MaxLatency)
	}
	if o.Source < 0 || o.Source >= g.Nodes() {
		return nil, true, props.FieldErrorf("{Options.Source} %d: %s has %d nodes", o.Source, g.Spec(), g.Nodes())
	}
	if g.Nodes() > maxCollectiveNodes {
		return nil, true, props.FieldErrorf("{Request.Grid} %s: a collective on %d nodes takes minutes to build and simulate; at most %d nodes (512x512)", g.Spec(), g.Nodes(), maxCollectiveNodes)
	}
	s, err := build(g, topology.NodeID(o.Source))
	if err != nil {
		return nil, true, props.FieldErrorf("{Options.Algo} %s on %s: %v", o.Algo, g.Spec(), err)
	}
	c := &collective{Grid: g, Algo: o.Algo, Source: topology.NodeID(o.Source), Schedule: s,
		Options: sim.ScheduleOptions{Ts: o.Ts, Tr: o.Tr, L: o.Length, VCs: 1, Buffer: o.Buffers, Dateline: o.Dateline}}
	if o.VCs != 0 {
		c.Options.VCs = o.VCs
	}
	c.Timed, c.TimedErr = sim.TimedCompletion(s, g.Nodes(), o.Ts, o.Tr, o.Length)
	c.Formula, c.FormulaErr = analytic.CollectiveFormula(g, o.Algo, o.Ts, o.Tr, o.Length, s)
	return c, true, nil
}

// Run simulates the collective, passing every flit move to trace when it is not nil,
// until it completes or ctx ends (then Result.Stopped is set).
func (c *collective) Run(ctx context.Context, trace func(sim.TraceEvent)) error {
	opt := c.Options
	opt.Trace, opt.Context = trace, ctx
	res, err := sim.ExecuteSchedule(c.Grid, c.Schedule, opt)
	if err != nil {
		return err
	}
	c.Result = res
	return nil
}

// VCLabel describes the virtual channels of the run: "V=2", or with a schedule that
// uses several VC classes (lanes) "V=4: 2 VC classes".
func (c *collective) VCLabel() string {
	vcs := c.Options.VCs
	if lanes := c.Schedule.Lanes(); lanes > 1 {
		return fmt.Sprintf("V=%d: %d VC classes", lanes*max(1, vcs/lanes), lanes)
	}
	return fmt.Sprintf("V=%d", vcs)
}

// report is the report object of the run, which took secs seconds; version is the
// tool's.
func (c *collective) report(version string, secs float64) *CollectiveReport {
	o, res := c.Options, c.Result
	out := &CollectiveReport{Header: header(version),
		Instance: CollectiveInstance{Topology: c.Grid.Spec(), Algorithm: c.Algo,
			Parameters: CollectiveParams{Ts: o.Ts, Tr: o.Tr, Length: o.L, VCs: o.VCs, Buffers: o.Buffer, Source: int(c.Source)}},
		Completion: res.Completion, FlitHops: res.FlitHops, Seconds: secs, Contention: res.Contention}
	if c.TimedErr == nil {
		t := c.Timed
		out.TimedModel = &t
	}
	if c.FormulaErr == nil {
		f := c.Formula
		out.Formula = &f
	}
	return out
}
