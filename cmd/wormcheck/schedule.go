package main

// Helpers for the schedule commands, for the lead to wire into commands:
//
//   - verifyScheduleFile(data, semantics) -> one report per property: `verify F
//     [--semantics step,timed,any-delay]` (default: all three). step runs validity
//     (004 Definition 1), exactly-once, steps and stepwise; timed runs depth (exact over
//     all parameters) and, on one-port schedules, node-contention; any-delay runs
//     any-delay. The exit code is the worst verdict (violated over inconclusive over
//     holds); a parse error is bad input (exit 2) and is returned as a usageError.
//   - renderScheduleFile(data) -> SVG bytes: `render F -o F.svg` for a schedule file;
//     the first violation among depth and stepwise is highlighted.
//   - scheduleChecks(s, prop) -> the report of one --prop for algorithms that build a
//     schedule (`check --algo X --prop stepwise|depth|exactly-once|steps|
//     node-contention|any-delay|validity`).
//     For any-delay on schedules of at most 12 unicasts the report also carries the
//     explorer's shortest trace (Report.Trace; props.ReplayAnyDelay replays it once the
//     caller has rebuilt the schedule and filled the trace's algorithm and parameters).
//   - scheduleFileBytes(s) -> the schedule file of s, for `schedule ... -o F`.
//   - worstVerdictExit(reports) -> the exit code of a list of reports.

import (
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// scheduleSemantics are the semantics `verify --semantics` accepts, in run order.
var scheduleSemantics = []string{props.SemStep, props.SemTimed, props.SemAnyDelay}

// parseSemantics reads a comma list of semantics ("" means all).
func parseSemantics(list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return scheduleSemantics, nil
	}
	var out []string
	for _, p := range strings.Split(list, ",") {
		p = strings.TrimSpace(p)
		ok := false
		for _, s := range scheduleSemantics {
			if p == s {
				ok = true
			}
		}
		if !ok {
			return nil, usagef("--semantics: unknown semantics %q; use %s", p, strings.Join(scheduleSemantics, ","))
		}
		out = append(out, p)
	}
	return out, nil
}

// verifyScheduleFile parses a schedule file and runs every check of the given
// semantics (a comma list, "" for all).
func verifyScheduleFile(data []byte, semantics string) ([]*props.Report, error) {
	sems, err := parseSemantics(semantics)
	if err != nil {
		return nil, err
	}
	s, err := model.ParseSchedule(data)
	if err != nil {
		return nil, usagef("%v", err)
	}
	var out []*props.Report
	for _, sem := range sems {
		switch sem {
		case props.SemStep:
			out = append(out, props.Validity(s), props.ExactlyOnce(s), props.StepCount(s, 0), props.Stepwise(s))
		case props.SemTimed:
			out = append(out, props.Depth(s, props.DepthOptions{}))
			if s.Ports == model.OnePort {
				out = append(out, props.NodeContention(s))
			}
		case props.SemAnyDelay:
			out = append(out, props.AnyDelay(s))
		}
	}
	markFinding(out)
	for _, r := range out {
		r.Command = "verify"
	}
	return out, nil
}

// markFinding notes on the any-delay report when the schedule is depth contention-free
// (timed) but not any-delay contention-free: DESIGN.md asks for that to be reported as a
// finding with its witness.
func markFinding(rs []*props.Report) {
	var depth, any *props.Report
	for _, r := range rs {
		switch r.Property {
		case props.PropDepth:
			depth = r
		case props.PropAnyDelay:
			any = r
		}
	}
	if depth != nil && any != nil && depth.Verdict == props.Holds && any.Verdict == props.Violated {
		const note = "finding: depth contention-free in the timed semantics but not under arbitrary delays"
		any.Reason += "; " + note
		any.Text += "\n" + note
	}
}

// worstVerdictExit returns the exit code of a list of reports: 1 if any is violated,
// else 3 if any is inconclusive, else 0.
func worstVerdictExit(rs []*props.Report) int {
	code := exitHolds
	for _, r := range rs {
		switch r.Verdict {
		case props.Violated:
			return exitViolated
		case props.Inconclusive:
			code = exitInconclusive
		}
	}
	return code
}

// scheduleChecks runs one property on a schedule an algorithm built.
func scheduleChecks(s *model.Schedule, prop string) (*props.Report, error) {
	if err := s.Check(); err != nil {
		return nil, fmt.Errorf("schedule: %v", err)
	}
	var r *props.Report
	switch prop {
	case props.PropValidity:
		r = props.Validity(s)
	case props.PropExactlyOnce:
		r = props.ExactlyOnce(s)
	case props.PropSteps:
		r = props.StepCount(s, 0)
	case props.PropStepwise:
		r = props.Stepwise(s)
	case props.PropDepth:
		r = props.Depth(s, props.DepthOptions{})
	case props.PropNodeContention:
		r = props.NodeContention(s)
	case props.PropAnyDelay:
		r = props.AnyDelay(s)
		if r.Verdict == props.Violated && len(s.Unicasts) <= 12 {
			// Small schedules also get the explorer's shortest replayable trace.
			b := props.AnyDelayBFS(s, checker.Options[props.AnyDelayState]{MaxStates: 200000})
			if b.Verdict == props.Violated {
				r.Trace = b.Trace
			}
		}
	default:
		return nil, usagef("--prop: %q is not a schedule property; use validity, exactly-once, steps, stepwise, depth, node-contention or any-delay", prop)
	}
	r.Command = "check"
	if w, ok := r.Witness.(*props.ScheduleWitness); ok && w != nil {
		if pic, err := render.Schedule(s, w); err == nil {
			r.SVG = pic
		}
	}
	return r, nil
}

// renderScheduleFile draws a schedule file as SVG, highlighting the depth (else
// stepwise) witness if there is one.
func renderScheduleFile(data []byte) ([]byte, error) {
	s, err := model.ParseSchedule(data)
	if err != nil {
		return nil, usagef("%v", err)
	}
	var w *props.ScheduleWitness
	for _, r := range []*props.Report{props.Depth(s, props.DepthOptions{NoTheorem1: true}), props.Stepwise(s)} {
		if x, ok := r.Witness.(*props.ScheduleWitness); ok && x != nil {
			w = x
			break
		}
	}
	pic, err := render.Schedule(s, w)
	if err != nil {
		return nil, usagef("%v", err)
	}
	return pic, nil
}

// scheduleFileBytes returns the schedule file of s.
func scheduleFileBytes(s *model.Schedule) ([]byte, error) {
	return model.MarshalSchedule(s)
}
