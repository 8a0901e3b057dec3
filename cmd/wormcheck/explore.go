package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"

	"github.com/wormcheck/wormcheck/checker/progress"
	"github.com/wormcheck/wormcheck/model/input"
	"github.com/wormcheck/wormcheck/props/check"
	"github.com/wormcheck/wormcheck/props/render"
)

const exploreHelp = `wormcheck explore F.json [--addr 127.0.0.1:PORT]

Serves a local web page that steps through a saved witness forward and backward: the
topology, every flit's position, the channels and virtual channels held, the blocked
headers and, at the end, the wait-for cycle. F is a trace file (check --trace; tree-mcast
and unicast) or a schedule file (schedule -o; a time slider over channel occupancy under
the timed semantics, with the first contention marked). The page is self-contained (no
network); it listens on 127.0.0.1 only. Keys: left/right step, Home/End, space plays;
the URL names the step (#step=N, #t=N), so a step can be linked. Ctrl-C stops it.
'check ... --explore' opens a violation's trace the same way.

--max-memory MiB bounds building the page (exit 3 if the process outgrows MiB first;
default 3/4 of the memory available) and then serving it. --time-limit D is how long
to serve, for scripts and demonstrations: after D the server stops and the command exits
0 (0, the default, serves until Ctrl-C or SIGTERM). A time limit that passes while the
page is being built stops the command inconclusive (exit 3), as other commands do.

Example:
  wormcheck check --algo tree-mcast --topo mesh:3x2 --prop deadlock --pruning none \
      --buffers 1 --msgs '(0,0)->(0,1),(2,1);(1,0)->(2,0),(0,1)' --trace tm1.json
  wormcheck explore tm1.json
`

func init() {
	registerCommand(&command{Name: "explore", Summary: "step through a saved trace or schedule in the browser (127.0.0.1)", Help: exploreHelp, Run: runExplore})
}

func runExplore(ctx context.Context, e *env, args []string) (int, error) {
	path, args := fileArg(args)
	fs := newFlagSet("explore")
	addr := fs.String("addr", "127.0.0.1:0", "listen address (loopback only; port 0 picks a free one)")
	bud := defineBudget(fs)
	if code, done, err := parseOrHelp(e, fs, args, exploreHelp, false); done {
		return code, err
	}
	if path == "" {
		return 0, usagef("usage: wormcheck explore F.json")
	}
	ctx, release, err := bud.context(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	data, err := bud.read(ctx, path, input.Saved)
	if errors.Is(err, errStopped) {
		return stoppedReading(ctx, e, "explore", path)
	}
	if err != nil {
		return 0, err
	}
	sc, err := budgeted(ctx, func() (*render.Scene, error) { return exploreScene(ctx, data, filepath.Base(path)) })
	if errors.Is(err, errStopped) || (err == nil && ctx.Err() != nil) {
		return stoppedWithout(ctx, e, "explore", "the page")
	}
	if err != nil {
		if errors.Is(err, check.ErrBadInput) {
			return 0, usagef("%v", err)
		}
		return 0, err
	}
	if err := serveExplorer(ctx, e, sc, *addr); err != nil {
		return 0, err
	}
	// Serving ends when ctx does: Ctrl-C, SIGTERM or --time-limit end it as asked
	// (exit 0); the memory budget is a failure to serve (exit 3).
	fmt.Fprintf(e.Stdout, "explorer: stopped: %s\n", stopReason(ctx))
	if errors.Is(context.Cause(ctx), progress.ErrMemory) {
		return exitInconclusive, nil
	}
	return exitHolds, nil
}

// serveExplorer serves the explorer page of sc on a loopback address until ctx ends
// (render.ServeExplorer), printing the URL first.
func serveExplorer(ctx context.Context, e *env, sc *render.Scene, addr string) error {
	return render.ServeExplorer(ctx, sc, addr, func(a net.Addr) {
		fmt.Fprintf(e.Stdout, "explorer: http://%s/  (Ctrl-C stops it)\n", a)
	})
}
