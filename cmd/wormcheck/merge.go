package main

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/wormcheck/wormcheck/model/input"
	"github.com/wormcheck/wormcheck/props/check"
)

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
	if code, done, err := parseOrHelp(e, fs, flags, check.MergeUsage, false); done {
		return code, err
	}
	ctx, release, err := bud.context(ctx)
	if err != nil {
		return 0, err
	}
	defer release()
	read := input.Reader(ctx, input.Result.Within(bud.maxMemMB<<20))
	m, err := budgeted(ctx, func() (*check.Merged, error) { return check.Merge(files, read) })
	if errors.Is(err, errStopped) || ctx.Err() != nil {
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
	registerCommand(&command{Name: "merge", Summary: "join the JSON results of family shards (check --shard i/n --result F)", Help: check.MergeUsage, Run: runMerge})
}
