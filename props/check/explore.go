package check

import (
	"encoding/json"

	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// ExploreScene builds the trace explorer's data (render.Scene) for a saved file: a
// flit-level trace file (tree-mcast or unicast, replayed on its model, one frame per
// step) or a schedule file (its first contention under the timed semantics, else its
// stepwise contention, marked on a time slider over channel occupancy). name titles a
// schedule. Errors are bad input, one line naming what is wrong.
func ExploreScene(data []byte, name string) (*render.Scene, error) {
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, badf("%s is not valid JSON: %v", name, err)
	}
	switch head.Format {
	case tracefile.Format:
		tf, err := tracefile.Parse(data)
		if err != nil {
			return nil, badf("%s: %v", name, err)
		}
		return TraceScene(tf)
	case model.ScheduleFormat:
		s, err := model.ParseSchedule(data)
		if err != nil {
			return nil, badf("%s: %v", name, err)
		}
		var w *props.ScheduleWitness
		if rep := props.Stepwise(s); rep.Verdict == props.Violated {
			w = rep.ScheduleWitness()
		} else if rep := props.Depth(s, props.DepthOptions{}); rep.Verdict == props.Violated {
			w = rep.ScheduleWitness()
		}
		sc, err := render.ScheduleScene(s, w, name)
		if err != nil {
			return nil, badf("%s: %v", name, err)
		}
		return sc, nil
	}
	return nil, badf("%s: field \"format\" is %q; the explorer reads trace files (%s) and schedule files (%s)", name, head.Format, tracefile.Format, model.ScheduleFormat)
}

// TraceScene builds the explorer's data for a saved flit-level trace file by replaying it
// on its model (tree-mcast or unicast).
func TraceScene(tf *tracefile.File) (*render.Scene, error) {
	w := &props.Witness{Kind: props.WitnessTrace, Violation: tf.Violation}
	if tf.CycleStart != nil {
		w.Kind, w.CycleStart = props.WitnessLasso, *tf.CycleStart
	}
	switch tf.Algorithm {
	case "tree-mcast":
		rp, err := treemcast.Replay(tf)
		if err != nil {
			return nil, badf("trace file: %v", err)
		}
		title, sub := render.TraceTitles(tf, rp.Violation, rp.Trace.Len())
		return render.FlitScene(rp.Model, rp.Trace, w, title, sub)
	case "unicast":
		_, rp, err := unicast.ReplayTrace(tf)
		if err != nil {
			return nil, badf("trace file: %v", err)
		}
		title, sub := render.TraceTitles(tf, rp.Violation, rp.Trace.Len())
		m, tr := rp.Model, rp.Trace
		return render.FlitScene(m, tr, w, title, sub)
	}
	return nil, badf("trace file field \"algorithm\" is %q; the explorer steps through tree-mcast and unicast traces", tf.Algorithm)
}
