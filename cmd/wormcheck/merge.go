package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/wormcheck/wormcheck/props/check"
)

// mergeHelp documents `wormcheck merge`.
const mergeHelp = `wormcheck merge F1.json F2.json ... [-o OUT.json]

Joins the family results that 'check --family ... --shard i/n --result F.json' wrote for
disjoint shards of one family run, of tree-mcast (pairs:K), unicast
(all-placements:K) or partition (sizes:LO-HI), or that the library's banyan pair
sweeps (banyan.PairFamily) kept: it sums members checked, pairs covered (tree-mcast),
states, transitions and seconds, keeps the shortest violation witness (a flit-level
trace replays with 'wormcheck replay'; a partition or banyan-pairs witness names its
member), and lists the shards present and missing. Results are in format
wormcheck-family/2, which names the algorithm; tree-mcast results of the earlier
wormcheck-family/1 are read too, and written back as /2. --json prints one object of
schema wormcheck-merge/1: the merged verdict, the shards present, the shards to
resubmit and the merged result (docs/report.md).

It refuses, with a one-line message, results of different algorithms, families,
topologies, parameters (tree-mcast: pruning, length, buffers, ports, property,
symmetry, routing; unicast: lengths and buffers, vcs, dateline, ports, routing,
property; partition: types, property; banyan-pairs: arbitration, timing),
family sizes or shard counts, and results that overlap (a shard present twice).

The merged verdict is violated if any shard found a violation, holds if every shard is
present and held, inconclusive otherwise (missing shards, a member that hit a bound).
--max-memory MiB and --time-limit D stop a merge (of very large results) when the
process outgrows MiB (default 3/4 of the memory available) or after D, as Ctrl-C and
SIGTERM do: nothing is written and the exit code is 3.
Exit codes: 0 holds, 1 violated, 3 inconclusive or stopped, 2 bad input.

Example:
  wormcheck check --algo tree-mcast --prop deadlock --topo mesh:3x3 --family pairs:3 --symmetry --shard 0/2 --result s0.json
  wormcheck check --algo tree-mcast --prop deadlock --topo mesh:3x3 --family pairs:3 --symmetry --shard 1/2 --result s1.json
  wormcheck merge s0.json s1.json -o family.json
  wormcheck check --algo unicast --topo mesh:3x3 --family all-placements:2 --shard 0/2 --result u0.json
  wormcheck check --algo unicast --topo mesh:3x3 --family all-placements:2 --shard 1/2 --result u1.json
  wormcheck merge u0.json u1.json
  wormcheck check --algo partition --prop connected --topo mesh --family sizes:2-8 --shard 0/2 --result p0.json
  wormcheck check --algo partition --prop connected --topo mesh --family sizes:2-8 --shard 1/2 --result p1.json
  wormcheck merge p0.json p1.json
`

// runMerge is `wormcheck merge`: it reads family result files, merges them
// (check.Merge), prints a summary (or, with --json, the merged result in a
// wormcheck-merge/1 object that names the shards to resubmit) and writes the merged
// result to -o.
func runMerge(ctx context.Context, e *env, args []string) (int, error) {
	fs := newFlagSet("merge")
	out := fs.String("o", "", "write the merged family result (JSON) to this file")
	asJSON := fs.Bool("json", false, "print the merged result and the shards to resubmit as one JSON object (wormcheck-merge/1)")
	bud := defineBudget(fs)
	var files []string
	var flags []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-o" || a == "--o" || a == "-max-memory" || a == "--max-memory" || a == "-time-limit" || a == "--time-limit":
			flags = append(flags, a)
			if i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		case len(a) > 0 && a[0] == '-':
			flags = append(flags, a)
		default:
			files = append(files, a)
		}
	}
	if code, done, err := parseOrHelp(e, fs, flags, mergeHelp, false); done {
		return code, err
	}
	ctx, release, err := bud.context(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	m, err := budgeted(ctx, func() (*check.Merged, error) { return check.Merge(files, os.ReadFile) })
	if errors.Is(err, errStopped) || (err == nil && ctx.Err() != nil) {
		return stoppedWithout(ctx, e, "merge", "the merged result")
	}
	if err != nil {
		return 0, usagef("%v", err)
	}
	if *out != "" {
		if err := writeOutput(*out, append(m.Result, '\n'), 0o644); err != nil {
			return 0, fmt.Errorf("writing -o: %v", err)
		}
	}
	if *asJSON {
		m.Report.Version = toolVersion()
		if err := writeJSON(e.Stdout, m.Report); err != nil {
			return 0, err
		}
	} else {
		io.WriteString(e.Stdout, m.Text)
	}
	return m.Verdict.ExitCode(), nil
}

func init() {
	registerCommand(&command{Name: "merge", Summary: "join the JSON results of family shards (check --shard i/n --result F)", Help: mergeHelp, Run: runMerge})
}
