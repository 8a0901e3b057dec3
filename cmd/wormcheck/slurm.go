package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wormcheck/wormcheck/model/input"
	"github.com/wormcheck/wormcheck/props/check/slurm"
)

func init() {
	registerCommand(&command{Name: "slurm", Summary: "run a family as a Slurm array job (shard per task, resume on requeue) and merge the shards", Help: slurm.Usage, Run: runSlurm})
}

// runSlurm is `wormcheck slurm`: it writes the array and merge scripts (props/check/slurm)
// and submits them.
func runSlurm(ctx context.Context, e *env, args []string) (int, error) {
	var checkArgs []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, checkArgs = args[:i], args[i+1:]
	}
	fs := newFlagSet("slurm")
	dir := fs.String("dir", "", "directory for scripts, results and logs")
	tasks := fs.Int("tasks", 0, "array tasks (shards)")
	only := fs.String("only", "", "resubmit these task indices")
	extra := fs.String("sbatch", "", "extra sbatch options")
	noSubmit := fs.Bool("no-submit", false, "write the scripts only")
	binary := fs.String("binary", "", "the wormcheck executable the tasks run (default: this one)")
	if code, done, err := parseOrHelp(e, fs, args, slurm.Usage, false); done {
		return code, err
	}
	if *dir == "" {
		return 0, usagef("--dir is missing; the scripts, shard results and logs go there")
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return 0, usagef("--dir: %v", err)
	}
	task, merge := slurm.TaskPath(abs), slurm.MergePath(abs)
	array := *only
	if *only != "" {
		if len(checkArgs) > 0 || *tasks != 0 {
			return 0, usagef("--only resubmits tasks of the existing %s; give neither --tasks nor a check command", task)
		}
		data, err := input.ReadFile(ctx, task, slurmScript)
		if err != nil {
			return 0, usagef("--only: %v", err)
		}
		n, err := slurm.ScriptTasks(task, data)
		if err != nil {
			return 0, usagef("--only: %v", err)
		}
		if err := slurm.CheckOnly(*only, n); err != nil {
			return 0, usagef("%v", err)
		}
	} else {
		if err := slurm.CheckTasks(*tasks); err != nil {
			return 0, usagef("%v", err)
		}
		if err := familyCheckArgs(ctx, checkArgs); err != nil {
			return 0, err
		}
		self, err := taskBinary(*binary, *noSubmit)
		if err != nil {
			return 0, err
		}
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return 0, usagef("--dir: %v", err)
		}
		job := slurm.Job{Binary: self, Dir: abs, Tasks: *tasks, Check: checkArgs}
		if err := writeOutput(task, []byte(job.TaskScript()), 0o755); err != nil {
			return 0, fmt.Errorf("writing %s: %v", task, err)
		}
		if err := writeOutput(merge, []byte(job.MergeScript()), 0o755); err != nil {
			return 0, fmt.Errorf("writing %s: %v", merge, err)
		}
		array = job.Array()
	}
	sbatchArgs := strings.Fields(*extra)
	first := slurm.ArrayArgs(array, sbatchArgs, task)
	if *noSubmit {
		fmt.Fprintf(e.Stdout, "wrote %s and %s; submit with:\n  sbatch %s\n  sbatch %s\n",
			task, merge, strings.Join(first[1:], " "), strings.Join(slurm.MergeArgs("JOBID", sbatchArgs, merge), " "))
		return exitHolds, nil
	}
	id, mid, err := slurm.SubmitArray(ctx, abs, array, sbatchArgs)
	if err != nil {
		return 0, err
	}
	fmt.Fprintf(e.Stdout, "submitted array job %s (tasks %s) and merge job %s after it\n", id, array, mid)
	fmt.Fprintf(e.Stdout, "shard results %s/shard-*.json, merged result %s/merged.json, logs %s/*.log\n", abs, abs, abs)
	fmt.Fprintf(e.Stdout, "rerun cancelled or failed tasks with: wormcheck slurm --dir %s --only I,J\n", abs)
	return exitHolds, nil
}

// taskBinary returns the absolute path of the wormcheck the array tasks run: given (the
// --binary flag), which must be an executable file unless the scripts are only written,
// else this process's own executable, refused when it lives in Go's build cache or
// temporary build directory (go run, go test): that file is deleted when its build
// ends, before or while the tasks run.
func taskBinary(given string, noSubmit bool) (string, error) {
	if given == "" {
		self, err := os.Executable()
		if err != nil {
			return "", fmt.Errorf("finding the wormcheck binary: %v; pass --binary PATH", err)
		}
		if inGoBuild(self) {
			return "", usagef("this wormcheck runs from Go's build directory (%s, as under go run or go test), which is deleted when it ends; build it (go build -o PATH ./cmd/wormcheck) and pass --binary PATH", self)
		}
		return self, nil
	}
	abs, err := filepath.Abs(given)
	if err != nil {
		return "", usagef("--binary: %v", err)
	}
	if noSubmit {
		return abs, nil
	}
	if fi, err := os.Stat(abs); err != nil || !fi.Mode().IsRegular() || fi.Mode()&0o111 == 0 {
		return "", usagef("--binary %s: not an executable file", given)
	}
	return abs, nil
}

// inGoBuild reports whether path is inside a Go build directory: the build cache
// (GOCACHE, .../go-build) or a go-build* temporary directory of go run and go test.
func inGoBuild(path string) bool {
	for _, part := range strings.Split(filepath.ToSlash(path), "/") {
		if strings.HasPrefix(part, "go-build") {
			return true
		}
	}
	return false
}

// familyCheckArgs checks the command an array task runs (slurm.CheckArgs), then runs it
// here with a context that is already cancelled: every flag and parameter is validated,
// and the family enumerated, but no member is checked. Bad input is reported now rather
// than by N failed tasks.
func familyCheckArgs(ctx context.Context, args []string) error {
	if err := slurm.CheckArgs(args); err != nil {
		return usagef("%v", err)
	}
	dry, cancel := context.WithCancel(ctx)
	cancel()
	var stderr strings.Builder
	if code := run(dry, &env{Stdout: io.Discard, Stderr: &stderr}, args); code == exitUsage {
		msg := strings.TrimSpace(stderr.String())
		msg = strings.TrimPrefix(msg, "wormcheck check: ")
		return usagef("the check command: %s", msg)
	}
	return nil
}

// slurmScript is the kind of the task script `slurm --only` reads back from --dir: one
// wormcheck wrote, a few kilobytes, so a larger file is not one.
var slurmScript = input.Kind{Name: "task script", Max: 1 << 20}
