package check

import (
	"context"
	"io"

	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
)

// This file verifies user files (`wormcheck verify`): a schedule file is verified in the
// semantics asked for, one report each.

// VerifySchema tags the object of a verification (docs/report.md).
const VerifySchema = "wormcheck-verify/1"

// Verification is the outcome of verifying one schedule file: the worst verdict of its
// reports (violated over inconclusive over holds) and one report per check run. It is
// `verify --json`'s object.
type Verification struct {
	Schema  string          `json:"schema"`
	Version string          `json:"version"`
	Command string          `json:"command"`
	File    string          `json:"file"`
	Verdict props.Verdict   `json:"verdict"`
	Reports []*props.Report `json:"reports"`
}

// VerifyFile verifies the schedule file named file, whose contents are data, in the
// comma-separated semantics (step, timed, any-delay; "" for all) with verifySchedule.
// When ctx ends (a signal, a budget), the checks not finished are reported inconclusive
// with the cause. Every error is bad input naming the file.
func VerifyFile(ctx context.Context, file string, data []byte, semantics string) (*Verification, error) {
	sems, err := parseSemantics(semantics)
	if err != nil {
		return nil, badf("%s: %v", file, err)
	}
	if err := tracefile.WrongFile(data, model.ScheduleFormat); err != nil {
		return nil, badf("%s: %v", file, err)
	}
	s, err := model.ParseSchedule(data)
	if err != nil {
		return nil, badf("%s: %v", file, err)
	}
	reps, err := verifySchedule(ctx, s, sems)
	if err != nil {
		return nil, badf("%s: %v", file, err)
	}
	return &Verification{Schema: VerifySchema, Command: "verify", File: file, Verdict: worstVerdict(reps), Reports: reps}, nil
}

// SetVersion records the tool's version in the verification and each of its reports.
func (v *Verification) SetVersion(version string) {
	v.Version = version
	for _, r := range v.Reports {
		r.Version = version
	}
}

// WriteText writes every report for people, in the order the checks ran.
func (v *Verification) WriteText(w io.Writer) {
	for _, r := range v.Reports {
		io.WriteString(w, r.String())
	}
}
