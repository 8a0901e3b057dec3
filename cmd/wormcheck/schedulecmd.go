package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/wormcheck/wormcheck/props/check"
)

const scheduleHelp = `wormcheck schedule --algo A --topo T [-o F.json] [flags]

Builds the unicast schedule I(B) an algorithm produces and writes it as a schedule file
(wormcheck-schedule/1): sources, destinations, and every unicast with its step, its
sender's send order and its DOR path. 'wormcheck verify F' checks such a file; edit one
to try your own algorithm.

Flags:
  --algo A        dcf, zblock, edn, sbt, separate, umesh, utorus, spu, multinode
                  (multinode takes the flags of 'check --algo multinode --help':
                  --type, --h, --delta, --sources, --dests N, --hotspot, --seed, ...)
  --topo T        e.g. torus:16x16 (dcf, zblock, edn), hypercube:6 (sbt), mesh:8x8
  --source S      source node: a number or coordinates like (1,2) (default 0)
  --dests LIST    multicast destinations: "3,5,(1,2)" or "all"
  --multicasts M  several multicasts: "SRC:D,D;SRC:D,D"
  --ports P       one or all (override the algorithm's port model)
  --base B        SBT base dimension
  -o F            output file (default: standard output)
  --max-memory MiB, --time-limit D
                  stop inconclusive (exit 3) when the process outgrows MiB (default 3/4 of
                  the memory available) or after D; Ctrl-C and SIGTERM do the same

Example:
  wormcheck schedule --algo dcf --topo torus:16x16 --source '(3,5)' -o dcf.json
`

func init() {
	registerCommand(&command{Name: "schedule", Summary: "write the unicast schedule an algorithm builds, as JSON", Help: scheduleHelp, Run: runSchedule})
}

// unwritten is the outcome of a schedule that was built when ctx ended, before it was
// written.
func runSchedule(ctx context.Context, e *env, args []string) (int, error) {
	fs := newFlagSet("schedule")
	name := fs.String("algo", "", "algorithm")
	topo := fs.String("topo", "", "topology")
	out := fs.String("o", "", "output file")
	seed := fs.Int64("seed", 1, "random seed (multinode)")
	a, ok := check.Lookup(algoName(args))
	params := func() map[string]string { return map[string]string{} }
	if ok && a.BuildsSchedules() {
		params = defineParams(fs, a.Params)
	}
	bud := defineBudget(fs)
	if code, done, err := parseOrHelp(e, fs, args, scheduleHelp, false); done {
		return code, err
	}
	if *topo == "" && ok && a.BuildsSchedules() {
		return 0, usagef("--topo is missing; e.g. --topo torus:16x16")
	}
	in := check.Instance{Algorithm: *name, Topology: *topo, Params: params()}
	ctx, release, err := bud.context(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	b, err := budgeted(ctx, func() ([]byte, error) {
		return check.ScheduleFile(ctx, in, check.Options{Seed: *seed, MaxMemoryBytes: bud.maxMemMB << 20})
	})
	if errors.Is(err, errStopped) {
		return stoppedWithout(ctx, e, "schedule", "the schedule")
	}
	if errors.Is(err, check.ErrStopped) && ctx.Err() == nil {
		// Refused before building: the schedule cannot fit the memory budget.
		fmt.Fprintf(e.Stderr, "wormcheck schedule: %s\n", err)
		return exitInconclusive, nil
	}
	if errors.Is(err, check.ErrStopped) {
		// The builder saw ctx end, or it ended between building and writing: say how
		// far the command got (there is no partial schedule file).
		fmt.Fprintf(e.Stderr, "wormcheck schedule: %s: %s; nothing written\n", stopReason(ctx), err)
		return exitInconclusive, nil
	}
	if errors.Is(err, check.ErrBadInput) {
		return 0, usagef("%v", err)
	}
	if err != nil {
		return 0, err
	}
	if *out == "" {
		_, err = e.Stdout.Write(b)
		return exitHolds, err
	}
	if err := writeOutput(*out, b, 0o644); err != nil {
		return 0, fmt.Errorf("writing %s: %v", *out, err)
	}
	fmt.Fprintf(e.Stderr, "wrote %s\n", *out)
	return exitHolds, nil
}
