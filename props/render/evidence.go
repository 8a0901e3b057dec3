package render

import (
	"bytes"
	"fmt"

	"github.com/wormcheck/wormcheck/model/banyanwire"
	"github.com/wormcheck/wormcheck/model/flitwire"
	"github.com/wormcheck/wormcheck/props"
)

// Picture draws the evidence of a verdict (props.Evidence) as an SVG document, by its
// kind: a flit-level trace in its last state with the wait-for cycle (FlitTrace) or a
// lasso in the state its cycle returns to (FlitLasso); a schedule, one panel per step
// or its contending pair with the timeline (ScheduleTitled); a banyan conflict or
// deadlock (BanyanConflict, Banyan); a dependency cycle (StaticCycle, ProvenCycle) or
// the ranks of an acyclic dependency graph (ChannelRanks); a partition (Partition); a
// latency plot (LatencyPanels); an InfiniBand fabric with a credit loop and its
// deadlock's full buffers (DrawFabric). nil evidence draws nothing (nil, nil); a picture that
// cannot be drawn (a network without a layout) is an error that says why.
func Picture(ev props.Evidence) ([]byte, error) {
	switch e := ev.(type) {
	case nil:
		return nil, nil
	case *props.FlitEvidence:
		if e.Lasso {
			return FlitLasso(e.Model, e.Trace, e.CycleStart, e.Title, e.Subtitle)
		}
		return FlitTrace(e.Model, e.Trace, e.Title, e.Subtitle, e.Notes)
	case *props.ScheduleEvidence:
		return ScheduleTitled(e.Schedule, e.Contention, e.Title)
	case *props.BanyanEvidence:
		if e.Conflict != nil {
			return BanyanConflict(e.Banyan, e.Conflict), nil
		}
		return Banyan(e.Banyan, e.Title, e.Packets, e.Contested, e.Notes...), nil
	case *props.CycleEvidence:
		if e.Proven != "" {
			return ProvenCycle(e.Grid, e.Cycle, e.Title, e.Subtitle, e.Proven)
		}
		return StaticCycle(e.Grid, e.Cycle, e.Title, e.Subtitle)
	case *props.RanksEvidence:
		return ChannelRanks(e.Grid, e.Ranks, e.VCs, e.Title, e.Subtitle)
	case *props.PartitionEvidence:
		return Partition(e)
	case *props.PlotEvidence:
		return LatencyPanels(e.Title, e.Loads, e.Panels), nil
	case *props.FabricEvidence:
		p := FabricPicture{Fabric: e.Fabric, Cycle: e.Cycle, Title: e.Title, Subtitle: e.Subtitle}
		if e.Model != nil && len(e.Trace.Steps) > 0 {
			last := e.Trace.Steps[len(e.Trace.Steps)-1].State
			p.Model, p.State = e.Model, &last
		}
		return DrawFabric(p)
	}
	return nil, fmt.Errorf("render: evidence of type %T has no picture", ev)
}

// Capture writes the evidence as a pcap capture that tshark decodes with the dissector
// (Dissector): a flit-level run, one record per flit move (flitwire.FlitPCAP,
// LINKTYPE_USER0), a banyan witness's records (banyanwire.WriteCapture,
// LINKTYPE_USER1), a simulated run's moves (flitwire.SimMoveWriter, LINKTYPE_USER2) or
// a fabric deadlock's run as InfiniBand packets (FabricCapture). Evidence without a
// capture gives nil, nil.
func Capture(ev props.Evidence) ([]byte, error) {
	switch e := ev.(type) {
	case *props.FlitEvidence:
		states, actions := runOf(e.Trace)
		return flitwire.FlitPCAP(e.Model, states, actions)
	case *props.MovesEvidence:
		var b bytes.Buffer
		w, err := flitwire.NewSimMoveWriter(&b, len(e.Moves))
		if err != nil {
			return nil, err
		}
		if e.Topology != "" {
			w.AddNetwork(e.Topology)
		}
		for _, m := range e.Moves {
			w.Add(m)
		}
		if err := w.Err(); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	case *props.BanyanEvidence:
		if len(e.Capture) == 0 {
			return nil, nil
		}
		var b bytes.Buffer
		if err := banyanwire.WriteCapture(&b, e.Capture); err != nil {
			return nil, err
		}
		return b.Bytes(), nil
	case *props.FabricEvidence:
		if e.Model == nil {
			return nil, nil
		}
		return FabricCapture(e.Model, e.Trace)
	}
	return nil, nil
}

// SceneOf builds the trace explorer's data for the evidence: a flit-level run, one
// frame per step (FlitScene), a fabric deadlock's run (FabricScene), or a schedule on a
// time slider (ScheduleScene). Other evidence has no scene: an error that says so.
func SceneOf(ev props.Evidence) (*Scene, error) {
	switch e := ev.(type) {
	case *props.FlitEvidence:
		return FlitScene(e)
	case *props.ScheduleEvidence:
		return ScheduleScene(e)
	case *props.FabricEvidence:
		if e.Model != nil {
			return FabricScene(e.Model, e.Trace, e.Violation, e.Title, e.Subtitle)
		}
		return nil, fmt.Errorf("the fabric has no deadlock to step through")
	}
	return nil, fmt.Errorf("the explorer steps through flit-level traces, fabric deadlocks and schedules; this witness is none of them")
}
