package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"text/tabwriter"

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
	algos, loads := c.Algos, c.Loads
	var out []map[string]any
	tw := tabwriter.NewWriter(e.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, n := range c.Counts {
		if ctx.Err() != nil {
			break
		}
		r, err := c.Run(n)
		if err != nil {
			return exitUsage, err
		}
		if ctx.Err() != nil {
			// A run was cut short: its figures are not comparable; report what finished.
			break
		}
		out = append(out, c.Record(n, r))
		if f.json {
			continue
		}
		red := c.Reduction(r)
		fmt.Fprintf(tw, "%s n=%d\tload", g.Spec(), n)
		for _, a := range algos {
			fmt.Fprintf(tw, "\t%s", a.Name)
		}
		if red != nil {
			fmt.Fprintf(tw, "\treduction")
		}
		fmt.Fprintln(tw, "\t")
		for i, x := range loads {
			fmt.Fprintf(tw, "\t%.4g", x)
			for a := range algos {
				p := r.Points[a][i]
				if p.Saturated {
					fmt.Fprintf(tw, "\tsat")
				} else {
					fmt.Fprintf(tw, "\t%.1f±%.1f", p.Latency.Mean, p.Latency.CI95)
				}
			}
			if red != nil {
				if math.IsNaN(red[i]) {
					fmt.Fprintf(tw, "\t-")
				} else {
					fmt.Fprintf(tw, "\t%.1f%%", 100*red[i])
				}
			}
			fmt.Fprintln(tw, "\t")
		}
	}
	tw.Flush()
	if f.plot != "" {
		if err := os.WriteFile(f.plot, c.SVG(f.ports), 0o644); err != nil {
			return exitUsage, usagef("--plot %s: %v", f.plot, err)
		}
	}
	code, reason := exitHolds, ""
	if ctx.Err() != nil {
		code, reason = exitInconclusive, stopReason(ctx, 0)+fmt.Sprintf(" after %d of %d destination counts", len(out), len(c.Counts))
	}
	if f.json {
		o := map[string]any{"version": toolVersion(), "command": "sim", "semantics": "sim",
			"instance": map[string]any{"topology": g.Spec(), "algorithms": c.Names, "ports": f.ports, "length": f.length, "prune": f.prune}, "compare": out, "plot": f.plot}
		if reason != "" {
			o["verdict"], o["reason"] = "inconclusive", reason
		}
		return code, writeJSON(e.Stdout, o)
	}
	if reason != "" {
		fmt.Fprintf(e.Stdout, "INCONCLUSIVE: %s\n", reason)
	}
	return code, nil
}
