package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/wormcheck/wormcheck/props/check/slurm"
)

// slurmHelp documents `wormcheck slurm`.
const slurmHelp = `wormcheck slurm --dir D --tasks N [flags] -- check --algo A --family F [check flags]
wormcheck slurm --dir D --only 3,5 [flags]

Runs a family on a Slurm cluster as an array job: task i of N checks shard i/N
(check ... --shard $SLURM_ARRAY_TASK_ID/N) and keeps its result in D/shard-i.json,
rewritten atomically as members finish (--checkpoint-every, default 1s). Every task runs
with --resume on its own file, so a task that Slurm requeues (--requeue: node failure,
preemption) or that you resubmit continues where it stopped instead of starting over;
SIGTERM (scancel, a time limit) makes a task write its partial result before it exits.
A second job, after the array (afterany), merges the shards into D/merged.json
('wormcheck merge': verdict holds only if every shard is present and complete).

It writes D/task.sh and D/merge.sh (plain sbatch scripts; read or edit them) and
submits both with sbatch, printing the job ids. To rerun tasks that were cancelled or
failed, resubmit them: 'wormcheck slurm --dir D --only 3,5' submits those array
indices of D/task.sh and a new merge job after them.

Flags:
  --dir D          directory for scripts, shard results, logs (on a file system every
                   node sees); created if missing
  --tasks N        number of array tasks = shards (1..10000)
  --only LIST      resubmit these task indices of an existing D/task.sh (e.g. 3,5)
  --sbatch ARGS    extra sbatch options for both jobs, e.g. "--partition=long --time=2:00:00"
  --no-submit      write the scripts and print the sbatch commands without running them
  --binary PATH    the wormcheck executable the tasks run, on a path every node sees
                   (default: this one; refused when it runs from Go's build directory,
                   as under go run, which is deleted when it ends)

A task whose shard finds a violation exits 1, so Slurm's accounting shows it FAILED
(exit code 1:0), with the job comment "wormcheck: shard I violated"; an inconclusive
shard exits 0 with the comment "wormcheck: shard I inconclusive". 'wormcheck merge'
names the shards to resubmit.

Kubernetes: cmd/wormcheck/deploy/k8s/family-job.yaml is an Indexed Job doing the same
(JOB_COMPLETION_INDEX -> --shard); see README.

Example:
  wormcheck slurm --dir runs/tm2 --tasks 16 -- check --algo tree-mcast --prop deadlock \
      --topo mesh:3x3 --family pairs:3 --symmetry --buffers 1
  wormcheck merge runs/tm2/shard-*.json     # at any time: how far the shards are
`

func init() {
	registerCommand(&command{Name: "slurm", Summary: "run a family as a Slurm array job (shard per task, resume on requeue) and merge the shards", Help: slurmHelp, Run: runSlurm})
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
	if code, done, err := parseOrHelp(e, fs, args, slurmHelp, false); done {
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
		data, err := os.ReadFile(task)
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
