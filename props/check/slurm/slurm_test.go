package slurm

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestScriptsShardResumeAndReadBack checks the array script (one shard per task, resumed
// from its own file), the merge script, and that ScriptTasks reads the task count back
// from the array script.
func TestScriptsShardResumeAndReadBack(t *testing.T) {
	j := Job{Binary: "/opt/wormcheck", Dir: "/shared/run 1", Tasks: 16,
		Check: []string{"check", "--algo", "tree-mcast", "--family", "pairs:3", "--msgs", "a;b"}}
	task := j.TaskScript()
	for _, want := range []string{
		"#SBATCH --array=0-15\n", "#SBATCH --requeue\n", "#SBATCH --output=/shared/run 1/shard-%a.log\n",
		"/opt/wormcheck check --algo tree-mcast --family pairs:3 --msgs 'a;b' --shard \"$id/16\" --resume '/shared/run 1'\"/shard-$id.json\" --progress\n",
		"1) note violated; exit 1 ;;\n",
	} {
		if !strings.Contains(task, want) {
			t.Errorf("task script lacks %q:\n%s", want, task)
		}
	}
	if n, err := ScriptTasks("task.sh", []byte(task)); err != nil || n != 16 {
		t.Errorf("ScriptTasks = %d, %v; want 16", n, err)
	}
	if _, err := ScriptTasks("x.sh", []byte("#!/bin/bash\n")); err == nil || !strings.Contains(err.Error(), "x.sh has no #SBATCH --array") {
		t.Errorf("a script without an array line: %v", err)
	}
	merge := j.MergeScript()
	if want := "/opt/wormcheck merge '/shared/run 1'/shard-*.json -o '/shared/run 1/merged.json'\n"; !strings.Contains(merge, want) {
		t.Errorf("merge script lacks %q:\n%s", want, merge)
	}
	if j.Array() != "0-15" {
		t.Errorf("Array = %q", j.Array())
	}
}

// TestCheckArgsRefusesWhatTheTaskSets is a table of the check commands a job may run.
func TestCheckArgsRefusesWhatTheTaskSets(t *testing.T) {
	for _, c := range []struct {
		args []string
		says string // "" = accepted
	}{
		{[]string{"check", "--algo", "tree-mcast", "--family", "pairs:2"}, ""},
		{[]string{"check", "-family=pairs:2"}, ""},
		{nil, "after --"},
		{[]string{"prove"}, "after --"},
		{[]string{"check", "--algo", "unicast", "--msgs", "0->1"}, "no --family"},
		{[]string{"check", "--family", "pairs:1", "--shard", "0/2"}, "must not set --shard"},
		{[]string{"check", "--family", "pairs:1", "--result=x.json"}, "must not set --result"},
		{[]string{"check", "--family", "pairs:1", "--resume", "x"}, "must not set --resume"},
	} {
		err := CheckArgs(c.args)
		if (err == nil) != (c.says == "") || err != nil && !strings.Contains(err.Error(), c.says) {
			t.Errorf("CheckArgs(%q) = %v; want %q", c.args, err, c.says)
		}
	}
}

// TestTaskListsAndSubmission checks --tasks and --only validation, the sbatch argument
// lists and the reading of sbatch --parsable's output.
func TestTaskListsAndSubmission(t *testing.T) {
	if CheckTasks(0) == nil || CheckTasks(MaxTasks+1) == nil || CheckTasks(1) != nil {
		t.Error("CheckTasks: want 1..MaxTasks")
	}
	if err := CheckOnly("3, 5", 6); err != nil {
		t.Error(err)
	}
	for _, bad := range []string{"6", "-1", "x", "1,,2"} {
		if err := CheckOnly(bad, 6); err == nil || !strings.Contains(err.Error(), "task indices 0..5") {
			t.Errorf("CheckOnly(%q) = %v", bad, err)
		}
	}
	extra := []string{"--partition=long"}
	if got := strings.Join(ArrayArgs("0-3", extra, "t.sh"), " "); got != "--parsable --array=0-3 --partition=long t.sh" {
		t.Errorf("ArrayArgs = %q", got)
	}
	if got := strings.Join(MergeArgs("42", extra, "m.sh"), " "); got != "--parsable --dependency=afterany:42 --partition=long m.sh" {
		t.Errorf("MergeArgs = %q", got)
	}
	for out, want := range map[string]string{"42\n": "42", "42;cluster\n": "42", "\n": ""} {
		id, err := JobID([]byte(out))
		if id != want || (want == "") != (err != nil) {
			t.Errorf("JobID(%q) = %q, %v", out, id, err)
		}
	}
}

// TestQuote checks bash quoting: safe words as is, anything else single-quoted with
// embedded quotes escaped.
func TestQuote(t *testing.T) {
	for in, want := range map[string]string{"mesh:3x3": "mesh:3x3", "": "''", "a b": "'a b'", "it's": `'it'\''s'`, "$x": "'$x'"} {
		if got := Quote(in); got != want {
			t.Errorf("Quote(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestSubmitArrayChainsTheMergeJob submits through a fake sbatch on PATH that logs its
// arguments: the array job first, then the merge job depending on the array's id; a
// failing sbatch is reported with its message.
func TestSubmitArrayChainsTheMergeJob(t *testing.T) {
	bin := t.TempDir()
	log := filepath.Join(bin, "log")
	fake := "#!/bin/sh\necho \"$@\" >> " + log + "\nn=$(wc -l < " + log + ")\nif [ \"$FAIL\" = \"$n\" ]; then echo refused >&2; exit 1; fi\necho \"4$n;cluster\"\n"
	if err := os.WriteFile(filepath.Join(bin, "sbatch"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	id, mid, err := SubmitArray(context.Background(), "/runs/a", "0-3", []string{"--qos=x"})
	if err != nil || id != "41" || mid != "42" {
		t.Fatalf("ids %q %q, %v", id, mid, err)
	}
	got, _ := os.ReadFile(log)
	want := "--parsable --array=0-3 --qos=x /runs/a/task.sh\n--parsable --dependency=afterany:41 --qos=x /runs/a/merge.sh\n"
	if string(got) != want {
		t.Errorf("sbatch calls:\n%s\nwant\n%s", got, want)
	}
	os.Remove(log)
	t.Setenv("FAIL", "2")
	if id, _, err := SubmitArray(context.Background(), "/runs/a", "1,3", nil); id != "41" || err == nil || !strings.Contains(err.Error(), "the merge job failed") || !strings.Contains(err.Error(), "refused") {
		t.Errorf("a failing merge submission: id %q, %v", id, err)
	}
}

// TestTaskExitShowsVerdict runs the array script with a stand-in wormcheck that exits
// with each of wormcheck's codes and a stand-in scontrol that records its arguments: a
// violated shard fails the task (exit 1) with the comment "violated", an inconclusive
// one succeeds with the comment "inconclusive", holds succeeds without one, and bad
// input fails with its own code.
func TestTaskExitShowsVerdict(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("slurm: bash is not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	record := filepath.Join(dir, "scontrol.args")
	for name, body := range map[string]string{
		"wormcheck": "#!/bin/sh\nexit \"$WORMCHECK_FAKE_RC\"\n",
		"scontrol":  "#!/bin/sh\necho \"$@\" > " + record + "\n",
	} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	j := Job{Binary: filepath.Join(bin, "wormcheck"), Dir: dir, Tasks: 2, Check: []string{"check", "--family", "pairs:1"}}
	script := filepath.Join(dir, "task.sh")
	if err := os.WriteFile(script, []byte(j.TaskScript()), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		rc, exit int
		comment  string
	}{{0, 0, ""}, {1, 1, "wormcheck: shard 1 violated"}, {3, 0, "wormcheck: shard 1 inconclusive"}, {2, 2, ""}} {
		os.Remove(record)
		cmd := exec.Command(bash, script)
		cmd.Env = []string{"PATH=" + bin + ":/usr/bin:/bin", "SLURM_ARRAY_TASK_ID=1", "SLURM_ARRAY_JOB_ID=40", "SLURM_JOB_ID=42", fmt.Sprintf("WORMCHECK_FAKE_RC=%d", c.rc)}
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		args, _ := os.ReadFile(record)
		if code != c.exit || (c.comment == "") != (len(args) == 0) || !strings.Contains(string(args), c.comment) || (c.comment != "" && !strings.Contains(string(args), "JobId=40_1 ")) {
			t.Errorf("wormcheck exit %d: task exit %d, scontrol %q; want exit %d, comment %q", c.rc, code, args, c.exit, c.comment)
		}
	}
}
