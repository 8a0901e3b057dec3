package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/wormcheck/wormcheck/model/input"
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

--max-memory MiB and --time-limit D stop the run inconclusive (exit 3) when the
process outgrows MiB (default 3/4 of the memory available) or after D, as Ctrl-C and
SIGTERM do.

Exit code: 1 if any check is violated, else 3 if any is inconclusive, else 0.

Example:
  wormcheck schedule --algo dcf --topo torus:16x16 -o dcf.json
  wormcheck verify dcf.json --semantics timed
`

const renderHelp = `wormcheck render F.json -o F.svg

Draws a file as SVG: a schedule (wormcheck-schedule/1) on its 2-D mesh or torus, one
colour per step, with the first contending pair in red; or a saved trace
(wormcheck-trace/1), re-executed against its model and drawn in its final state.

--max-memory MiB and --time-limit D stop it, as Ctrl-C and SIGTERM do, when the
process outgrows MiB (default 3/4 of the memory available) or after D: nothing is
written and the exit code is 3.
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

func runVerify(ctx context.Context, e *env, args []string) (int, error) {
	path, args := fileArg(args)
	fs := newFlagSet("verify")
	sem := fs.String("semantics", "", "comma list of step, timed, any-delay (default all)")
	asJSON := fs.Bool("json", false, "JSON output")
	bud := defineBudget(fs)
	if code, done, err := parseOrHelp(e, fs, args, verifyHelp, false); done {
		return code, err
	}
	if path == "" {
		return 0, usagef("which schedule? usage: wormcheck verify F.json")
	}
	ctx, release, err := bud.context(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	data, err := bud.read(ctx, path, input.Schedule)
	if errors.Is(err, errStopped) {
		return stoppedReading(ctx, e, "verify", path)
	}
	if err != nil {
		return 0, err
	}
	v, err := budgeted(ctx, func() (*check.Verification, error) { return check.VerifyFile(ctx, path, data, *sem) })
	if errors.Is(err, errStopped) {
		// Stopped in a step that does not watch ctx (reading the file, a check of the
		// step semantics): a verification of no reports.
		v, err = &check.Verification{Schema: check.VerifySchema, Command: "verify", File: path, Verdict: props.Inconclusive, Reports: []*props.Report{}}, nil
		fmt.Fprintf(e.Stderr, "wormcheck verify: %s before its checks returned; nothing was decided\n", stopReason(ctx))
	}
	if err != nil {
		return 0, err
	}
	if *asJSON {
		v.SetVersion(toolVersion())
		return v.Verdict.ExitCode(), writeJSON(e.Stdout, v)
	}
	v.WriteText(e.Stdout)
	return v.Verdict.ExitCode(), nil
}

func runRender(ctx context.Context, e *env, args []string) (int, error) {
	path, args := fileArg(args)
	fs := newFlagSet("render")
	out := fs.String("o", "", "output SVG file")
	bud := defineBudget(fs)
	if code, done, err := parseOrHelp(e, fs, args, renderHelp, false); done {
		return code, err
	}
	if path == "" || *out == "" {
		return 0, usagef("usage: wormcheck render F.json -o F.svg")
	}
	ctx, release, err := bud.context(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	data, err := bud.read(ctx, path, input.Saved)
	if errors.Is(err, errStopped) {
		return stoppedReading(ctx, e, "render", path)
	}
	if err != nil {
		return 0, err
	}
	pic, err := budgeted(ctx, func() ([]byte, error) { return picture(ctx, path, data) })
	if errors.Is(err, errStopped) || (err == nil && ctx.Err() != nil) {
		return stoppedWithout(ctx, e, "render", "the picture")
	}
	if err != nil {
		return 0, err
	}
	if err := writeOutput(*out, pic, 0o644); err != nil {
		return 0, fmt.Errorf("writing %s: %v", *out, err)
	}
	fmt.Fprintf(e.Stdout, "wrote %s\n", *out)
	return exitHolds, nil
}
