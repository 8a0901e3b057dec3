// Package slurm runs a family check of props/check as a Slurm array job: task i of N
// checks shard i/N (check ... --shard i/N) and keeps its result in its own file, resumed
// when Slurm requeues the task, and a second job after the array merges the shards. It
// writes the two sbatch scripts, reads the task count back from a script, validates a
// resubmission's task list and submits with sbatch. It imports nothing of wormcheck:
// what it schedules is the command line of `wormcheck check`, which a task runs.
//
// It sits under props/check because the family shards, their --resume files and their
// merge are the entry's (props/check, algos/treemcast's FamilyResult); the command
// `wormcheck slurm` only reads flags, writes the scripts and prints.
//
// Reference: Slurm's sbatch(1) (--array, --requeue, --dependency=afterany, --parsable)
// and its array-job environment (SLURM_ARRAY_TASK_ID).
package slurm

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// MaxTasks is the largest array a job may have (Slurm's default MaxArraySize is 1001;
// clusters raise it, and 10000 shards is far beyond what a family needs).
const MaxTasks = 10000

// Job is one array job: Binary is the wormcheck executable the tasks run (a path every
// node sees), Dir the directory of scripts, shard results and logs, Tasks the number of
// array tasks (= shards) and Check the `check ... --family F` arguments each task runs.
type Job struct {
	Binary, Dir string
	Tasks       int
	Check       []string
}

// TaskPath and MergePath are the scripts a job writes in dir.
func TaskPath(dir string) string  { return filepath.Join(dir, "task.sh") }
func MergePath(dir string) string { return filepath.Join(dir, "merge.sh") }

// TaskScript is the sbatch array script: task i checks shard i/n and resumes its own
// result file. wormcheck's exit codes 0 (holds), 1 (violated) and 3 (inconclusive) all
// mean the shard's result is written and the merge judges the family; Slurm's
// accounting shows which: a shard that found a violation ends the task with exit code 1
// (state FAILED) and the job comment "wormcheck: shard I violated", an inconclusive one
// (a bound, a stop) ends it with 0 and the comment "wormcheck: shard I inconclusive", and
// 2 (bad input) or an internal error fails it with its own code. The comment names the
// task as ARRAYJOB_TASK: the job id of one task may be the array's own id, which would
// set it on every task. Setting it is best effort: a cluster that refuses it still shows
// the exit code.
func (j Job) TaskScript() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# Written by wormcheck slurm: one shard of a family per array task.\n")
	fmt.Fprintf(&b, "#SBATCH --job-name=wormcheck-family\n#SBATCH --array=0-%d\n#SBATCH --requeue\n#SBATCH --open-mode=append\n", j.Tasks-1)
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", filepath.Join(j.Dir, "shard-%a.log"))
	fmt.Fprintf(&b, "id=${SLURM_ARRAY_TASK_ID:?run this script as an array task}\n")
	fmt.Fprintf(&b, "%s", Quote(j.Binary))
	for _, a := range j.Check {
		b.WriteString(" " + Quote(a))
	}
	fmt.Fprintf(&b, " --shard \"$id/%d\" --resume %s\"/shard-$id.json\" --progress\n", j.Tasks, Quote(j.Dir))
	b.WriteString(`rc=$?
note() { scontrol update JobId="${SLURM_ARRAY_JOB_ID}_$id" Comment="wormcheck: shard $id $1" >/dev/null 2>&1 || true; }
case $rc in
  0) exit 0 ;;
  1) note violated; exit 1 ;;
  3) note inconclusive; exit 0 ;;
  *) exit $rc ;;
esac
`)
	return b.String()
}

// MergeScript is the job that merges the shard results after the array into
// Dir/merged.json (`wormcheck merge`), succeeding for every verdict.
func (j Job) MergeScript() string {
	return fmt.Sprintf("#!/bin/bash\n# Written by wormcheck slurm: merge the shards of the array job.\n"+
		"#SBATCH --job-name=wormcheck-merge\n#SBATCH --output=%s\n"+
		"%s merge %s/shard-*.json -o %s\nrc=$?\ncase $rc in 0|1|3) exit 0 ;; *) exit $rc ;; esac\n",
		filepath.Join(j.Dir, "merge.log"), Quote(j.Binary), Quote(j.Dir), Quote(filepath.Join(j.Dir, "merged.json")))
}

// Array is the job's --array range, "0-(Tasks-1)".
func (j Job) Array() string { return fmt.Sprintf("0-%d", j.Tasks-1) }

// CheckTasks refuses a task count outside 1..MaxTasks.
func CheckTasks(n int) error {
	if n < 1 || n > MaxTasks {
		return fmt.Errorf("--tasks %d is out of range; use 1..%d", n, MaxTasks)
	}
	return nil
}

// CheckArgs checks that the command an array task runs is a family check that the tasks
// can shard: `check ... --family F`, without the --shard, --result and --resume that the
// task script adds. It reads the flag names only; the caller validates the values (for
// instance by running the check with a cancelled context).
func CheckArgs(args []string) error {
	if len(args) == 0 || args[0] != "check" {
		return errors.New("after --, give the family check to run: -- check --algo A --family F ...")
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
			return fmt.Errorf("the check command must not set --%s; each task sets it for its shard", name)
		}
	}
	if !hasFamily {
		return errors.New("the check command has no --family; slurm shards a family over array tasks")
	}
	return nil
}

// ScriptTasks reads the task count back from a task script's "#SBATCH --array=0-N" line;
// path names the script in the error.
func ScriptTasks(path string, script []byte) (int, error) {
	for _, line := range strings.Split(string(script), "\n") {
		if rest, ok := strings.CutPrefix(line, "#SBATCH --array=0-"); ok {
			n, err := strconv.Atoi(rest)
			if err == nil {
				return n + 1, nil
			}
		}
	}
	return 0, fmt.Errorf("%s has no #SBATCH --array=0-N line; was it written by wormcheck slurm?", path)
}

// CheckOnly checks a resubmission's task list (--only "3,5"): indices 0..n-1 of an array
// of n tasks, separated by commas. The list itself is the array range sbatch is given.
func CheckOnly(only string, n int) error {
	for _, s := range strings.Split(only, ",") {
		i, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || i < 0 || i >= n {
			return fmt.Errorf("--only %q: want task indices 0..%d separated by commas", only, n-1)
		}
	}
	return nil
}

// ArrayArgs are sbatch's arguments that submit the task script as the array (a range
// or an --only list), with the user's extra options.
func ArrayArgs(array string, extra []string, task string) []string {
	return append(append([]string{"--parsable", "--array=" + array}, extra...), task)
}

// MergeArgs are sbatch's arguments that submit the merge script after the array job id
// has ended, whatever its tasks' states (afterany).
func MergeArgs(id string, extra []string, merge string) []string {
	return append(append([]string{"--parsable", "--dependency=afterany:" + id}, extra...), merge)
}

// SubmitArray submits dir's task script as an array job over array (a range such as
// "0-15", or a resubmission's task list) and its merge script after that job has ended,
// both with the extra sbatch options, and returns the two job ids. When the array is
// submitted but the merge job fails, the array's id is returned with the error.
func SubmitArray(ctx context.Context, dir, array string, extra []string) (id, mergeID string, err error) {
	if id, err = Submit(ctx, ArrayArgs(array, extra, TaskPath(dir))); err != nil {
		return "", "", err
	}
	if mergeID, err = Submit(ctx, MergeArgs(id, extra, MergePath(dir))); err != nil {
		return id, "", fmt.Errorf("array job %s submitted, but the merge job failed: %v", id, err)
	}
	return id, mergeID, nil
}

// Submit runs sbatch with args and returns the job id (sbatch --parsable prints "id" or
// "id;cluster").
func Submit(ctx context.Context, args []string) (string, error) {
	out, err := exec.CommandContext(ctx, "sbatch", args...).Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", fmt.Errorf("sbatch %s: %v: %s", strings.Join(args, " "), err, strings.TrimSpace(string(ee.Stderr)))
		}
		return "", fmt.Errorf("sbatch: %v (is Slurm installed here?)", err)
	}
	return JobID(out)
}

// JobID reads the job id from sbatch --parsable's output ("id" or "id;cluster").
func JobID(out []byte) (string, error) {
	id, _, _ := strings.Cut(strings.TrimSpace(string(out)), ";")
	if id == "" {
		return "", errors.New("sbatch printed no job id")
	}
	return id, nil
}

// Quote quotes s for bash: as is when it holds only safe characters, else in single
// quotes.
func Quote(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:=,+@%", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Usage is the help of `wormcheck slurm`, which this package writes the scripts of.
const Usage = `wormcheck slurm --dir D --tasks N [flags] -- check --algo A --family F [check flags]
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
