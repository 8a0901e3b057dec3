package main

import (
	"context"
	"errors"

	"github.com/wormcheck/wormcheck/model/input"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

const replayHelp = `wormcheck replay F.json [--json]

Re-executes a saved trace (written by 'check --trace F' or 'prove --witness-dir D')
against the model it names: it rebuilds the algorithm instance from the file, applies
every action in order, and confirms that the last state shows the recorded violation.

--max-memory MiB and --time-limit D stop the replay inconclusive (exit 3) when the
process outgrows MiB (default 3/4 of the memory available) or after D, as Ctrl-C and
SIGTERM do.

Exit codes: 1 the violation is confirmed; 2 the file is malformed, names an unknown
algorithm or topology, or its actions do not replay (one line says which field or step);
3 stopped.

Example:
  wormcheck check --algo unicast --topo torus:4 --prop deadlock --dateline off --msgs '0->2,1->3,2->0,3->1' --trace wh2.json
  wormcheck replay wh2.json
`

func init() {
	registerCommand(&command{Name: "replay", Summary: "re-run a saved counterexample and confirm it", Help: replayHelp, Run: runReplay})
}

func runReplay(ctx context.Context, e *env, args []string) (int, error) {
	path, args := fileArg(args)
	fs := newFlagSet("replay")
	asJSON := fs.Bool("json", false, "JSON output")
	bud := defineBudget(fs)
	if code, done, err := parseOrHelp(e, fs, args, replayHelp, false); done {
		return code, err
	}
	if path == "" {
		return 0, usagef("which trace? usage: wormcheck replay F.json")
	}
	ctx, release, err := bud.context(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	data, err := bud.read(ctx, path, input.Trace)
	if errors.Is(err, errStopped) {
		return stoppedReading(ctx, e, "replay", path)
	}
	if err != nil {
		return 0, err
	}
	tf, err := check.ReadTrace(data)
	if err != nil {
		return 0, usagef("%s: %v", path, err)
	}
	rep, err := budgeted(ctx, func() (*props.Report, error) { return check.Replay(ctx, tf) })
	if errors.Is(err, errStopped) {
		rep := check.Stopped(check.Instance{Topology: tf.Topology, Algorithm: tf.Algorithm, Params: map[string]string{"file": path}}, tf.Property, "replay", stopReason(ctx))
		return emitReport(e, "replay", rep, *asJSON, artefacts{})
	}
	if err != nil {
		return 0, usagef("%s: %v", path, err)
	}
	return emitReport(e, "replay", rep, *asJSON, artefacts{})
}
