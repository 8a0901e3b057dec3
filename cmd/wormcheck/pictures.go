package main

import (
	"context"
	"encoding/json"

	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
	"github.com/wormcheck/wormcheck/props/render"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// This file turns saved files into pictures and explorer scenes (`wormcheck render`,
// `wormcheck explore`, `check --explore`): a saved trace is replayed on the model its
// algorithm builds, a schedule is judged for its first contention; the drawing itself
// is props/render's, which knows no algorithm. Every error is bad input
// (props.BadInputf), one line naming what is wrong.

// exploreScene builds the trace explorer's data (render.Scene) for a saved file: a
// flit-level trace file (tree-mcast or unicast, replayed on its model, one frame per
// step) or a schedule file (its first contention under the timed semantics, else its
// stepwise contention, marked on a time slider over channel occupancy). name titles a
// schedule.
func exploreScene(data []byte, name string) (*render.Scene, error) {
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, props.BadInputf("%s is not valid JSON: %v", name, err)
	}
	switch head.Format {
	case tracefile.Format:
		tf, err := tracefile.Parse(data)
		if err != nil {
			return nil, props.BadInputf("%s: %v", name, err)
		}
		return traceScene(tf)
	case model.ScheduleFormat:
		s, err := model.ParseSchedule(data)
		if err != nil {
			return nil, props.BadInputf("%s: %v", name, err)
		}
		var w *props.ScheduleWitness
		if rep := schedule.Stepwise(s); rep.Verdict == props.Violated {
			w = rep.ScheduleWitness()
		} else if rep := schedule.Depth(s, schedule.DepthOptions{}); rep.Verdict == props.Violated {
			w = rep.ScheduleWitness()
		}
		sc, err := render.ScheduleScene(s, w, name)
		if err != nil {
			return nil, props.BadInputf("%s: %v", name, err)
		}
		return sc, nil
	}
	return nil, props.BadInputf("%s: field \"format\" is %q; the explorer reads trace files (%s) and schedule files (%s)", name, head.Format, tracefile.Format, model.ScheduleFormat)
}

// traceScene builds the explorer's data for a saved flit-level trace file by replaying it
// on its model (tree-mcast or unicast).
func traceScene(tf *tracefile.File) (*render.Scene, error) {
	w := &props.Witness{Kind: props.WitnessTrace, Violation: tf.Violation}
	if tf.CycleStart != nil {
		w.Kind, w.CycleStart = props.WitnessLasso, *tf.CycleStart
	}
	switch tf.Algorithm {
	case treemcast.Algorithm:
		rp, err := treemcast.Replay(tf)
		if err != nil {
			return nil, props.BadInputf("trace file: %v", err)
		}
		title, sub := render.TraceTitles(tf, rp.Violation, rp.Trace.Len())
		return render.FlitScene(rp.Model, rp.Trace, w, title, sub)
	case unicast.Algorithm:
		_, rp, err := unicast.ReplayTrace(tf)
		if err != nil {
			return nil, props.BadInputf("trace file: %v", err)
		}
		title, sub := render.TraceTitles(tf, rp.Violation, rp.Trace.Len())
		return render.FlitScene(rp.Model, rp.Trace, w, title, sub)
	}
	return nil, props.BadInputf("trace file field \"algorithm\" is %q; the explorer steps through tree-mcast and unicast traces", tf.Algorithm)
}

// picture draws the file named file, whose contents are data, as SVG: a saved trace
// (wormcheck-trace/1) is replayed through the entry (check.Replay) and drawn in its
// final state; anything else is read as a schedule and drawn by schedulePicture.
func picture(ctx context.Context, file string, data []byte) ([]byte, error) {
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, props.BadInputf("%s is not valid JSON: %v", file, err)
	}
	if err := tracefile.WrongFile(data, model.ScheduleFormat); err != nil && head.Format != tracefile.Format {
		return nil, props.BadInputf("%s: %v", file, err) // a family result, a report, a witness without a trace
	}
	if head.Format != tracefile.Format {
		s, err := model.ParseSchedule(data)
		if err != nil {
			return nil, props.BadInputf("%v", err)
		}
		return schedulePicture(s)
	}
	tf, err := tracefile.Parse(data)
	if err != nil {
		return nil, props.BadInputf("%s: %v", file, err)
	}
	rep, err := check.Replay(ctx, tf)
	if err != nil {
		return nil, props.BadInputf("%s: %v", file, err)
	}
	if rep.SVG == nil {
		return nil, props.BadInputf("%s: algorithm %s has no picture for this trace", file, tf.Algorithm)
	}
	return rep.SVG, nil
}

// schedulePicture draws a schedule as SVG, highlighting its depth (else stepwise)
// contention.
func schedulePicture(s *model.Schedule) ([]byte, error) {
	var w *props.ScheduleWitness
	for _, r := range []*props.Report{schedule.Depth(s, schedule.DepthOptions{NoTheorem1: true}), schedule.Stepwise(s)} {
		if x := r.ScheduleWitness(); x != nil {
			w = x
			break
		}
	}
	pic, err := render.Schedule(s, w)
	if err != nil {
		return nil, props.BadInputf("%v", err)
	}
	return pic, nil
}
