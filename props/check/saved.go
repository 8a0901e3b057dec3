package check

import (
	"context"
	"encoding/json"

	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// Saved reads a file a check saved and returns its report, whose Evidence the command
// line draws (`wormcheck render`) or steps through (`wormcheck explore`): a trace file
// (wormcheck-trace/1) is replayed on the model its algorithm builds (Replay); a schedule
// file (wormcheck-schedule/1) is judged for its first contention, its depth contention
// (timed semantics) else its stepwise contention, and its evidence is the schedule with
// that contention marked. name names the file in errors. Every error is bad input, one
// line naming what is wrong.
func Saved(ctx context.Context, name string, data []byte) (*props.Report, error) {
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, badf("%s is not valid JSON: %v", name, err)
	}
	if head.Format == tracefile.Format {
		tf, err := tracefile.Parse(data)
		if err != nil {
			return nil, badf("%s: %v", name, err)
		}
		rep, err := Replay(ctx, tf)
		if err != nil {
			return nil, badf("%s: %v", name, err)
		}
		return rep, nil
	}
	if err := tracefile.WrongFile(data, model.ScheduleFormat); err != nil {
		return nil, badf("%s: %v", name, err) // a family result, a report, a witness without a trace
	}
	s, err := model.ParseSchedule(data)
	if err != nil {
		return nil, badf("%s: %v", name, err)
	}
	rep := schedule.Depth(s, schedule.DepthOptions{NoTheorem1: true})
	if rep.Verdict != props.Violated {
		if st := schedule.Stepwise(s); st.Verdict == props.Violated {
			rep = st
		}
	}
	rep.Schema = props.ReportSchema
	rep.Evidence = &props.ScheduleEvidence{Schedule: s, Contention: rep.ScheduleWitness()}
	return rep, nil
}
