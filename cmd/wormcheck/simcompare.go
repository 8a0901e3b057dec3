package main

import (
	"context"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props/check"
	"github.com/wormcheck/wormcheck/props/render"
)

// simPalette colours the algorithms of a --compare plot; destination counts alternate
// solid and dashed lines.
var simPalette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}

// runSimCompare runs 000 §5.3's comparison (sim.Compare) for each --compare-dests count:
// the algorithms of --compare at --points loads up to --load, a latency table with the
// reduction of tree against separate addressing, and with --plot one SVG series per
// algorithm and count.
func runSimCompare(ctx context.Context, e *env, g *model.Grid, f simFlags) (int, error) {
	var loads []float64
	if f.compareLoad != "" {
		for _, s := range strings.Split(f.compareLoad, ",") {
			x, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
			if err != nil || !(x > 0) || math.IsInf(x, 0) {
				return exitUsage, usagef("--compare-loads %q: want positive loads separated by commas", f.compareLoad)
			}
			loads = append(loads, x)
		}
		f.load = loads[len(loads)-1]
	}
	if f.load <= 0 {
		return exitUsage, usagef("--compare needs --load (the highest offered load in data flits delivered per node per cycle) or --compare-loads")
	}
	if f.points < 1 || f.points > 100 {
		return exitUsage, usagef("--points %d: want 1..100", f.points)
	}
	var counts []int
	for _, s := range strings.Split(f.compareDests, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 || n >= g.Nodes() {
			return exitUsage, usagef("--compare-dests %q: want counts 1..%d separated by commas", f.compareDests, g.Nodes()-1)
		}
		counts = append(counts, n)
	}
	names := strings.Split(f.compare, ",")
	var algos []sim.McastAlgo
	var base sim.Config
	for i, name := range names {
		name = strings.TrimSpace(name)
		fa := f
		fa.algo, fa.traffic, fa.mcast, fa.b, fa.rate = name, "multicast", -1, -1, 0
		fa.dests = "1..1"
		cfg, err := simConfig(g, fa)
		if err != nil {
			return exitUsage, err
		}
		if cfg.BroadcastSchedule != nil {
			return exitUsage, usagef("--compare %s: a broadcast algorithm, not a multicast one", name)
		}
		if i == 0 {
			base = cfg
			base.Tree, base.Multicast, base.MulticastSchedule = false, nil, nil
			base.Context = ctx
		}
		algos = append(algos, sim.McastAlgo{Name: name, Tree: cfg.Tree, Prune: cfg.Prune, Multicast: cfg.Multicast, Schedule: cfg.MulticastSchedule})
	}
	tree, sep := -1, -1
	for i, a := range algos {
		switch a.Name {
		case "tree":
			tree = i
		case "separate", "unicast":
			sep = i
		}
	}
	if f.compareLoad == "" {
		for i := 1; i <= f.points; i++ {
			loads = append(loads, f.load*float64(i)/float64(f.points))
		}
	}
	var ss []render.Series
	var out []map[string]any
	tw := tabwriter.NewWriter(e.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	for ci, n := range counts {
		if ctx.Err() != nil {
			break
		}
		r, err := sim.Compare(sim.CompareSpec{Base: base, Algos: algos, Dests: n, Loads: loads})
		if err != nil {
			return exitUsage, err
		}
		if ctx.Err() != nil {
			// A run was cut short: its figures are not comparable; report what finished.
			break
		}
		for a := range algos {
			var bars []float64
			for _, p := range r.Points[a] {
				bars = append(bars, p.Latency.CI95)
			}
			ss = append(ss, render.Series{Name: fmt.Sprintf("%s n=%d", algos[a].Name, n), Y: r.Latency(a), CI: bars, Color: simPalette[a%len(simPalette)], Dashed: ci%2 == 1})
		}
		var pts []map[string]any
		for a := range algos {
			for _, p := range r.Points[a] {
				pts = append(pts, map[string]any{"algorithm": algos[a].Name, "load": p.Load, "rate": p.Rate, "mean": check.NaNNil(p.Latency.Mean),
					"ci95": check.NaNNil(p.Latency.CI95), "n": p.Latency.N, "saturated": p.Saturated, "deadlocked": p.Deadlock, "accepted": p.Accepted, "prunes": p.Prunes})
			}
		}
		row := map[string]any{"dests": n, "points": pts}
		if !f.json {
			fmt.Fprintf(tw, "%s n=%d\tload", g.Spec(), n)
			for _, a := range algos {
				fmt.Fprintf(tw, "\t%s", a.Name)
			}
			if tree >= 0 && sep >= 0 {
				fmt.Fprintf(tw, "\treduction")
			}
			fmt.Fprintln(tw, "\t")
		}
		var red []float64
		if tree >= 0 && sep >= 0 {
			red = r.Reduction(tree, sep)
			mx, at := r.MaxReduction(tree, sep)
			row["reduction"] = check.NaNSlice(red)
			row["max_reduction"], row["max_reduction_load"] = check.NaNNil(mx), check.NaNNil(at)
		}
		if !f.json {
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
		out = append(out, row)
	}
	tw.Flush()
	if f.plot != "" {
		svg := render.LatencyPlot(fmt.Sprintf("%s multicast, L=%d, %s-port", g.Spec(), base.Length, f.ports), loads, ss)
		if err := os.WriteFile(f.plot, svg, 0o644); err != nil {
			return exitUsage, usagef("--plot %s: %v", f.plot, err)
		}
	}
	code, reason := exitHolds, ""
	if ctx.Err() != nil {
		code, reason = exitInconclusive, stopReason(ctx, 0)+fmt.Sprintf(" after %d of %d destination counts", len(out), len(counts))
	}
	if f.json {
		o := map[string]any{"version": toolVersion(), "command": "sim", "semantics": "sim",
			"instance": map[string]any{"topology": g.Spec(), "algorithms": names, "ports": f.ports, "length": f.length, "prune": f.prune}, "compare": out, "plot": f.plot}
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
