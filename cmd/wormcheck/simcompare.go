package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props/check"
)

// runSimCompare runs 000 §5.3's comparison (sim.Compare) for each --compare-dests count:
// the algorithms of --compare at --points loads up to --load, a latency table with the
// reduction of tree against separate addressing, and with --plot one SVG series per
// algorithm and count.
func runSimCompare(ctx context.Context, e *env, g *model.Grid, f simFlags) (int, error) {
	c, err := check.NewSimComparison(g, f.options(), f.compare, f.compareDests, f.compareLoad, f.points)
	if err != nil {
		return exitUsage, usagef("%v", err)
	}
	c.Base.Context = ctx
	var table io.Writer
	if !f.json {
		table = e.Stdout
	}
	rows, reason, err := c.RunAll(ctx, table)
	if err != nil {
		return exitUsage, err
	}
	if f.plot != "" {
		if err := os.WriteFile(f.plot, c.SVG(f.ports), 0o644); err != nil {
			return exitUsage, usagef("--plot %s: %v", f.plot, err)
		}
	}
	code := exitHolds
	if reason != "" {
		code = exitInconclusive
	}
	if f.json {
		return code, writeJSON(e.Stdout, c.Report(toolVersion(), rows, f.plot, reason))
	}
	if reason != "" {
		fmt.Fprintf(e.Stdout, "INCONCLUSIVE: %s\n", reason)
	}
	return code, nil
}
