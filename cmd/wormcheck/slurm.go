package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
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

// runSlurm is `wormcheck slurm`: it writes the array and merge scripts and submits them.
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
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, errHelp) {
			fmt.Fprint(e.Stdout, slurmHelp)
			return exitHolds, nil
		}
		return 0, err
	}
	if *dir == "" {
		return 0, usagef("--dir is missing; the scripts, shard results and logs go there")
	}
	abs, err := filepath.Abs(*dir)
	if err != nil {
		return 0, usagef("--dir: %v", err)
	}
	task, merge := filepath.Join(abs, "task.sh"), filepath.Join(abs, "merge.sh")
	array := ""
	if *only != "" {
		if len(checkArgs) > 0 || *tasks != 0 {
			return 0, usagef("--only resubmits tasks of the existing %s; give neither --tasks nor a check command", task)
		}
		n, err := scriptTasks(task)
		if err != nil {
			return 0, usagef("--only: %v", err)
		}
		for _, s := range strings.Split(*only, ",") {
			i, err := strconv.Atoi(strings.TrimSpace(s))
			if err != nil || i < 0 || i >= n {
				return 0, usagef("--only %q: want task indices 0..%d separated by commas", *only, n-1)
			}
		}
		array = *only
	} else {
		if *tasks < 1 || *tasks > 10000 {
			return 0, usagef("--tasks %d is out of range; use 1..10000", *tasks)
		}
		if err := familyCheckArgs(ctx, checkArgs); err != nil {
			return 0, err
		}
		self, err := os.Executable()
		if err != nil {
			return 0, fmt.Errorf("finding the wormcheck binary: %v", err)
		}
		if err := os.MkdirAll(abs, 0o755); err != nil {
			return 0, usagef("--dir: %v", err)
		}
		if err := os.WriteFile(task, []byte(taskScript(self, abs, *tasks, checkArgs)), 0o755); err != nil {
			return 0, fmt.Errorf("writing %s: %v", task, err)
		}
		if err := os.WriteFile(merge, []byte(mergeScript(self, abs)), 0o755); err != nil {
			return 0, fmt.Errorf("writing %s: %v", merge, err)
		}
		array = fmt.Sprintf("0-%d", *tasks-1)
	}
	sbatchArgs := strings.Fields(*extra)
	first := append(append([]string{"--parsable", "--array=" + array}, sbatchArgs...), task)
	if *noSubmit {
		fmt.Fprintf(e.Stdout, "wrote %s and %s; submit with:\n  sbatch %s\n  sbatch --parsable --dependency=afterany:JOBID %s%s\n",
			task, merge, strings.Join(first[1:], " "), strings.Join(sbatchArgs, " "), merge)
		return exitHolds, nil
	}
	id, err := sbatch(ctx, first)
	if err != nil {
		return 0, err
	}
	second := append(append([]string{"--parsable", "--dependency=afterany:" + id}, sbatchArgs...), merge)
	mid, err := sbatch(ctx, second)
	if err != nil {
		return 0, fmt.Errorf("array job %s submitted, but the merge job failed: %v", id, err)
	}
	fmt.Fprintf(e.Stdout, "submitted array job %s (tasks %s) and merge job %s after it\n", id, array, mid)
	fmt.Fprintf(e.Stdout, "shard results %s/shard-*.json, merged result %s/merged.json, logs %s/*.log\n", abs, abs, abs)
	fmt.Fprintf(e.Stdout, "rerun cancelled or failed tasks with: wormcheck slurm --dir %s --only I,J\n", abs)
	return exitHolds, nil
}

// familyCheckArgs checks that the command an array task runs is a family check that the
// tasks can shard: `check ... --family F`, without the --shard, --result and --resume the
// script adds.
func familyCheckArgs(ctx context.Context, args []string) error {
	if len(args) == 0 || args[0] != "check" {
		return usagef("after --, give the family check to run: -- check --algo A --family F ...")
	}
	hasFamily := false
	for _, a := range args[1:] {
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") {
			continue
		}
		switch name {
		case "family":
			hasFamily = true
		case "shard", "result", "resume":
			return usagef("the check command must not set --%s; each task sets it for its shard", name)
		}
	}
	if !hasFamily {
		return usagef("the check command has no --family; slurm shards a family over array tasks")
	}
	// Run it here with a context that is already cancelled: every flag and parameter is
	// validated, and the family enumerated, but no member is checked. Bad input is
	// reported now rather than by N failed tasks.
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

// taskScript is the sbatch array script: task i checks shard i/n and resumes its own
// result file. wormcheck's exit codes 0 (holds), 1 (violated) and 3 (inconclusive) all
// mean the shard's result is written: the task succeeds and the merge judges the family;
// 2 (bad input) fails it.
func taskScript(self, dir string, n int, checkArgs []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# Written by wormcheck slurm: one shard of a family per array task.\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=wormcheck-family\n#SBATCH --array=0-%d\n#SBATCH --requeue\n#SBATCH --open-mode=append\n", n-1)
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(dir, "shard-%a.log"))
	fmt.Fprintf(&b, "id=${SLURM_ARRAY_TASK_ID:?run this script as an array task}\n")
	fmt.Fprintf(&b, "%s", shellQuote(self))
	for _, a := range checkArgs {
		b.WriteString(" " + shellQuote(a))
	}
	fmt.Fprintf(&b, " --shard \"$id/%d\" --resume %s\"/shard-$id.json\" --progress\n", n, shellQuote(dir))
	fmt.Fprintf(&b, "rc=$?\ncase $rc in 0|1|3) exit 0 ;; *) exit $rc ;; esac\n")
	return b.String()
}

// mergeScript is the job that merges the shard results after the array.
func mergeScript(self, dir string) string {
	return fmt.Sprintf("#!/bin/bash\n# Written by wormcheck slurm: merge the shards of the array job.\n"+
		"#SBATCH --job-name=wormcheck-merge\n#SBATCH --output=%s\n"+
		"%s merge %s/shard-*.json -o %s\nrc=$?\ncase $rc in 0|1|3) exit 0 ;; *) exit $rc ;; esac\n",
		filepath.Join(dir, "merge.log"), shellQuote(self), shellQuote(dir), shellQuote(filepath.Join(dir, "merged.json")))
}

// scriptTasks reads the task count back from a task script's #SBATCH --array line.
func scriptTasks(path string) (int, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "#SBATCH --array=0-"); ok {
			n, err := strconv.Atoi(rest)
			if err == nil {
				return n + 1, nil
			}
		}
	}
	return 0, fmt.Errorf("%s has no #SBATCH --array=0-N line; was it written by wormcheck slurm?", path)
}

// sbatch submits a job and returns its id (sbatch --parsable prints "id" or "id;cluster").
func sbatch(ctx context.Context, args []string) (string, error) {
	out, err := exec.CommandContext(ctx, "sbatch", args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("sbatch %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("sbatch: %v (is Slurm installed here?)", err)
	}
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if id == "" {
		return "", fmt.Errorf("sbatch printed no job id")
	}
	return id, nil
}

// shellQuote quotes s for bash: as is when it holds only safe characters, else in single
// quotes.
func shellQuote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
