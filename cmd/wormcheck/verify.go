package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"

	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

const verifyHelp = `wormcheck verify F.json [--semantics step,timed,any-delay] [--json]

Verifies a user-supplied unicast schedule I(B) (format wormcheck-schedule/1, documented
in model/schedulefile.go; 'wormcheck schedule' writes one for every built-in algorithm).

  step       004 Definition 1 validity, exactly-once delivery, step count against the
             lower bound, stepwise contention freedom (each step's unicasts arc-disjoint)
  timed      depth contention freedom decided exactly for all ts, tr >= 0, tc > 0, L >= 1,
             with the Theorem 1 condition that clears each channel-sharing pair; node
             contention for one-port schedules
  any-delay  contention freedom when unicasts take arbitrary times (causality and each
             node's send order only); stronger than timed

Exit code: 1 if any check is violated, else 3 if any is inconclusive, else 0.

Example:
  wormcheck schedule --algo dcf --topo torus:16x16 -o dcf.json
  wormcheck verify dcf.json --semantics timed
`

const renderHelp = `wormcheck render F.json -o F.svg

Draws a file as SVG: a schedule (wormcheck-schedule/1) on its 2-D mesh or torus, one
colour per step, with the first contending pair in red; or a saved trace
(wormcheck-trace/1), re-executed against its model and drawn in its final state.
`

func init() {
	registerCommand(&command{Name: "verify", Summary: "verify a user-supplied schedule file", Help: verifyHelp, Run: runVerify})
	registerCommand(&command{Name: "render", Summary: "draw a schedule or a saved trace as SVG", Help: renderHelp, Run: runRender})
}

// fileArg takes a leading positional file argument off args.
func fileArg(args []string) (string, []string) {
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		return args[0], args[1:]
	}
	return "", args
}

// verifySchema tags the object `verify --json` prints (docs/report.md).
const verifySchema = "wormcheck-verify/1"

// verifyJSON is the object `verify --json` prints.
type verifyJSON struct {
	Schema  string          `json:"schema"`
	Version string          `json:"version"`
	Command string          `json:"command"`
	File    string          `json:"file"`
	Verdict props.Verdict   `json:"verdict"`
	Reports []*props.Report `json:"reports"`
}

func runVerify(_ context.Context, e *env, args []string) (int, error) {
	path, args := fileArg(args)
	fs := newFlagSet("verify")
	sem := fs.String("semantics", "", "comma list of step, timed, any-delay (default all)")
	asJSON := fs.Bool("json", false, "JSON output")
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, errHelp) {
			fmt.Fprint(e.Stdout, verifyHelp)
			return exitHolds, nil
		}
		return 0, err
	}
	if path == "" {
		return 0, usagef("which schedule? usage: wormcheck verify F.json")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, usagef("%v", err)
	}
	sems, err := check.ParseSemantics(*sem)
	if err != nil {
		return 0, usagef("%s: %v", path, err)
	}
	if err := tracefile.WrongFile(data, model.ScheduleFormat); err != nil {
		return 0, usagef("%s: %v", path, err)
	}
	s, err := model.ParseSchedule(data)
	if err != nil {
		return 0, usagef("%s: %v", path, err)
	}
	reps, err := check.VerifySchedule(s, sems)
	if err != nil {
		return 0, usagef("%s: %v", path, err)
	}
	verdict := check.Worst(reps)
	code := verdict.ExitCode()
	if *asJSON {
		for _, r := range reps {
			r.Version = toolVersion()
		}
		return code, writeJSON(e.Stdout, verifyJSON{Schema: verifySchema, Version: toolVersion(), Command: "verify", File: path, Verdict: verdict, Reports: reps})
	}
	for _, r := range reps {
		printReport(e.Stdout, r)
	}
	return code, nil
}

func runRender(ctx context.Context, e *env, args []string) (int, error) {
	path, args := fileArg(args)
	fs := newFlagSet("render")
	out := fs.String("o", "", "output SVG file")
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, errHelp) {
			fmt.Fprint(e.Stdout, renderHelp)
			return exitHolds, nil
		}
		return 0, err
	}
	if path == "" || *out == "" {
		return 0, usagef("usage: wormcheck render F.json -o F.svg")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, usagef("%v", err)
	}
	var head struct {
		Format string `json:"format"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return 0, usagef("%s is not valid JSON: %v", path, err)
	}
	var pic []byte
	if head.Format == tracefile.Format {
		tf, err := tracefile.Parse(data)
		if err != nil {
			return 0, usagef("%s: %v", path, err)
		}
		rep, err := replayTrace(ctx, tf)
		if err != nil {
			return 0, usagef("%s: %v", path, err)
		}
		if rep.SVG == nil {
			return 0, usagef("%s: algorithm %s has no picture for this trace", path, tf.Algorithm)
		}
		pic = rep.SVG
	} else {
		s, err := model.ParseSchedule(data)
		if err != nil {
			return 0, usagef("%v", err)
		}
		if pic, err = check.SchedulePicture(s); err != nil {
			return 0, usagef("%v", err)
		}
	}
	if err := os.WriteFile(*out, pic, 0o644); err != nil {
		return 0, fmt.Errorf("writing %s: %v", *out, err)
	}
	fmt.Fprintf(e.Stdout, "wrote %s\n", *out)
	return exitHolds, nil
}
