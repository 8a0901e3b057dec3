package main

import (
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// slurmCluster is a single-node Slurm started by a test: munged with a key of its own,
// slurmctld and slurmd as root, listening on 127.0.0.1 only (CommunicationParameters
// NoCtldInAddrAny and NoInAddrAny: they bind the address their host name resolves to,
// not every interface), with every file in one directory.
type slurmCluster struct {
	dir, conf string
	procs     []*exec.Cmd
}

// startSlurm starts the cluster or skips the test with one line saying why it cannot.
func startSlurm(t *testing.T) *slurmCluster {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("slurm: the end-to-end test runs slurmctld and slurmd as root; not root here")
	}
	for _, b := range []string{"munged", "mungekey", "slurmctld", "slurmd", "sbatch", "squeue", "scancel", "sinfo"} {
		if _, err := exec.LookPath(b); err != nil {
			t.Skipf("slurm: %s is not installed (apt-get install slurm-wlm munge)", b)
		}
	}
	dir, err := os.MkdirTemp("", "wormcheck-slurm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil { // munged wants its socket's directory searchable
		t.Fatal(err)
	}
	c := &slurmCluster{dir: dir, conf: filepath.Join(dir, "slurm.conf")}
	t.Cleanup(c.stop)
	for _, sub := range []string{"state", "spool", "work"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	key := filepath.Join(dir, "munge.key")
	if out, err := exec.Command("mungekey", "--create", "--keyfile", key).CombinedOutput(); err != nil {
		t.Fatalf("mungekey: %v: %s", err, out)
	}
	sock := filepath.Join(dir, "munge.sock")
	c.start(t, "munged", "--foreground", "--force", "--key-file="+key, "--socket="+sock,
		"--pid-file="+filepath.Join(dir, "munged.pid"), "--log-file="+filepath.Join(dir, "munged.log"),
		"--seed-file="+filepath.Join(dir, "munged.seed"))
	waitFor(t, 10*time.Second, "munged's socket", func() bool { _, err := os.Stat(sock); return err == nil })
	ports := freePorts(t, 2)
	conf := fmt.Sprintf(`ClusterName=wormcheck
SlurmctldHost=localhost(127.0.0.1)
CommunicationParameters=NoCtldInAddrAny,NoInAddrAny
SlurmUser=root
SlurmdUser=root
SlurmctldPort=%d
SlurmdPort=%d
AuthType=auth/munge
AuthInfo=socket=%s
CredType=cred/munge
StateSaveLocation=%s/state
SlurmdSpoolDir=%s/spool
SlurmctldPidFile=%s/slurmctld.pid
SlurmdPidFile=%s/slurmd.pid
SlurmctldLogFile=%s/slurmctld.log
SlurmdLogFile=%s/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/backfill
ReturnToService=2
MpiDefault=none
SwitchType=switch/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
KillWait=5
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
`, ports[0], ports[1], sock, dir, dir, dir, dir, dir, dir)
	if err := os.WriteFile(c.conf, []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SLURM_CONF", c.conf)
	c.start(t, "slurmctld", "-D", "-i", "-f", c.conf)
	c.start(t, "slurmd", "-D", "-N", "localhost", "-f", c.conf)
	waitFor(t, 30*time.Second, "the node to be idle", func() bool {
		out, err := exec.Command("sinfo", "-h", "-o", "%T").Output()
		return err == nil && strings.TrimSpace(string(out)) == "idle"
	})
	for _, port := range ports {
		addrs := listening(t, port)
		if len(addrs) == 0 || slices.ContainsFunc(addrs, func(a string) bool { return a != "127.0.0.1" }) {
			t.Fatalf("slurm: port %d listens on %v; want 127.0.0.1 only\n%s", port, addrs, c.logs())
		}
	}
	return c
}

// listening returns the addresses on which a TCP socket listens on port, read from
// /proc/net/tcp and /proc/net/tcp6 ("::" and "0.0.0.0" mean every interface).
func listening(t *testing.T, port int) []string {
	t.Helper()
	var out []string
	for _, f := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, line := range strings.Split(string(data), "\n")[1:] {
			fields := strings.Fields(line)
			if len(fields) < 4 || fields[3] != "0A" { // 0A: LISTEN
				continue
			}
			hexAddr, hexPort, ok := strings.Cut(fields[1], ":")
			if p, err := strconv.ParseUint(hexPort, 16, 16); !ok || err != nil || int(p) != port {
				continue
			}
			b, err := hex.DecodeString(hexAddr)
			if err != nil {
				t.Fatalf("%s: %q", f, fields[1])
			}
			// The kernel prints each 32-bit word of the address in host (little-endian) order.
			for i := 0; i+4 <= len(b); i += 4 {
				b[i], b[i+1], b[i+2], b[i+3] = b[i+3], b[i+2], b[i+1], b[i]
			}
			out = append(out, net.IP(b).String())
		}
	}
	return out
}

// start runs a daemon in the foreground, its output in dir/NAME.out.
func (c *slurmCluster) start(t *testing.T, name string, args ...string) {
	t.Helper()
	out, err := os.Create(filepath.Join(c.dir, name+".out"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(name, args...)
	cmd.Stdout, cmd.Stderr = out, out
	if err := cmd.Start(); err != nil {
		t.Skipf("slurm: %s does not start here: %v", name, err)
	}
	c.procs = append(c.procs, cmd)
}

// stop ends every daemon the test started, last started first.
func (c *slurmCluster) stop() {
	for i := len(c.procs) - 1; i >= 0; i-- {
		p := c.procs[i]
		_ = p.Process.Kill()
		_ = p.Wait()
	}
	c.procs = nil
}

// logs returns the daemons' logs, for a failure message.
func (c *slurmCluster) logs() string {
	var b strings.Builder
	for _, f := range []string{"slurmctld.log", "slurmd.log", "slurmctld.out", "slurmd.out"} {
		data, _ := os.ReadFile(filepath.Join(c.dir, f))
		lines := strings.Split(strings.TrimSpace(string(data)), "\n")
		fmt.Fprintf(&b, "--- %s (last lines)\n%s\n", f, strings.Join(lines[max(0, len(lines)-15):], "\n"))
	}
	return b.String()
}

func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ls []net.Listener
	var ports []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return ports
}

func waitFor(t *testing.T, d time.Duration, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("slurm: gave up waiting %v for %s", d, what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// queueEmpty reports whether no job is pending or running.
func queueEmpty() bool {
	out, err := exec.Command("squeue", "-h").Output()
	return err == nil && strings.TrimSpace(string(out)) == ""
}

// slurmFamily is a family of 693 members that holds, with worms long enough (12 flits)
// that a task runs through several checkpoints and can be cancelled between two: with
// short worms a task could end before scancel comes.
var slurmFamily = []string{"check", "--algo", "tree-mcast", "--prop", "deadlock", "--topo", "mesh:3x3",
	"--family", "pairs:1", "--symmetry", "--length", "12", "--buffers", "2", "--checkpoint-every", "50ms"}

// TestSlurmArrayCancelResumeMerge runs a family as an 8-task array job on a real
// single-node Slurm, cancels one task while it runs (scancel), resubmits it (it resumes
// its partial result), lets the merge job join the shards, and compares the merged
// result with a single-process run member by member. It runs under -short too: it is
// the test that the cluster path works at all.
func TestSlurmArrayCancelResumeMerge(t *testing.T) {
	c := startSlurm(t)
	work := filepath.Join(c.dir, "work")
	code, out, stderr := runCLI(t, append(slurmFamily, "--result", filepath.Join(work, "whole.json"))...)
	if code != exitHolds {
		t.Fatalf("single-process run: exit %d\n%s%s", code, out, stderr)
	}
	whole := readFamilyResult(t, filepath.Join(work, "whole.json"))

	// The array tasks run a copy of this test binary as wormcheck (TestMain; sbatch passes
	// the environment on), given by --binary: the test binary itself lives in Go's build
	// directory, which the task script must not name.
	t.Setenv("WORMCHECK_RUN_MAIN", "1")
	bin := copyExecutable(t, filepath.Join(c.dir, "wormcheck"))
	runs := filepath.Join(work, "runs")
	code, out, stderr = runCLI(t, append([]string{"slurm", "--dir", runs, "--tasks", "8", "--binary", bin, "--"}, slurmFamily...)...)
	if code != exitHolds {
		t.Fatalf("wormcheck slurm: exit %d\n%s%s", code, out, stderr)
	}
	m := regexp.MustCompile(`array job (\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no array job id in %q", out)
	}
	job := m[1]
	// Cancel task 3 once it has checkpointed some members but not all.
	const victim = 3
	shard := filepath.Join(runs, fmt.Sprintf("shard-%d.json", victim))
	waitFor(t, 60*time.Second, "task 3 to checkpoint", func() bool {
		data, err := os.ReadFile(shard)
		return err == nil && strings.Contains(string(data), `"partial": true`) && !strings.Contains(string(data), `"instances": 0,`)
	})
	if out, err := exec.Command("scancel", fmt.Sprintf("%s_%d", job, victim)).CombinedOutput(); err != nil {
		t.Fatalf("scancel: %v: %s", err, out)
	}
	waitFor(t, 90*time.Second, "the array and merge jobs to end", queueEmpty)
	cut := readFamilyResult(t, shard)
	if !cut.Partial || cut.Instances == 0 {
		t.Fatalf("task %d was not cancelled mid-run: partial %v, %d members\n%s", victim, cut.Partial, cut.Instances, c.logs())
	}
	merged := readFamilyResult(t, filepath.Join(runs, "merged.json"))
	if merged.Verdict.String() != "inconclusive" || !merged.Partial {
		t.Fatalf("the merge with a cancelled shard must be partial and inconclusive: %v partial %v", merged.Verdict, merged.Partial)
	}

	// Resubmit the cancelled task: it resumes its partial result; a new merge follows.
	code, out, stderr = runCLI(t, "slurm", "--dir", runs, "--only", fmt.Sprint(victim))
	if code != exitHolds {
		t.Fatalf("wormcheck slurm --only: exit %d\n%s%s", code, out, stderr)
	}
	waitFor(t, 60*time.Second, "the resubmitted task and merge to end", queueEmpty)
	log, _ := os.ReadFile(filepath.Join(runs, fmt.Sprintf("shard-%d.log", victim)))
	merged = readFamilyResult(t, filepath.Join(runs, "merged.json"))
	if !reflect.DeepEqual(merged.Checked, whole.Checked) || merged.Instances != whole.Instances || merged.States != whole.States ||
		merged.Transitions != whole.Transitions || merged.Covered != whole.Covered || merged.Verdict != whole.Verdict ||
		merged.Partial || len(merged.Missing) != 0 {
		t.Fatalf("merged after resubmission: %v, %d of %d members, %d states (single run %d), partial %v, missing %v\ntask log:\n%s\n%s",
			merged.Verdict, merged.Instances, merged.Members, merged.States, whole.States, merged.Partial, merged.Missing, log, c.logs())
	}
	t.Logf("task %d cancelled after %d of its members and resumed; merged %d members, %d states: %v", victim, cut.Instances, merged.Instances, merged.States, merged.Verdict)
	if script, _ := os.ReadFile(filepath.Join(runs, "task.sh")); strings.Contains(string(script), "go-build") || !strings.Contains(string(script), bin) {
		t.Errorf("task.sh does not run %s, or names Go's build directory:\n%s", bin, script)
	}

	// A family with a violation (000 Fig. 3: tree multicast without pruning): a task whose
	// shard finds one is FAILED in Slurm's accounting, exit code 1, with a comment saying
	// so; merge names the violation.
	bad := filepath.Join(work, "bad")
	code, out, stderr = runCLI(t, "slurm", "--dir", bad, "--tasks", "2", "--binary", bin, "--", "check", "--algo", "tree-mcast", "--prop", "deadlock",
		"--topo", "mesh:2x2", "--family", "pairs:2:ordered", "--pruning", "none", "--buffers", "1")
	m = regexp.MustCompile(`array job (\d+)`).FindStringSubmatch(out)
	if code != exitHolds || m == nil {
		t.Fatalf("wormcheck slurm (violating family): exit %d\n%s%s", code, out, stderr)
	}
	waitFor(t, 60*time.Second, "the violating array and its merge to end", queueEmpty)
	jobs, err := exec.Command("scontrol", "-o", "show", "job", m[1]).Output()
	if err != nil {
		t.Fatalf("scontrol show job %s: %v\n%s", m[1], err, c.logs())
	}
	failed := 0
	for i := range 2 {
		sh := readFamilyResult(t, filepath.Join(bad, fmt.Sprintf("shard-%d.json", i)))
		var line string
		for _, l := range strings.Split(string(jobs), "\n") {
			if strings.Contains(l, fmt.Sprintf(" ArrayTaskId=%d ", i)) {
				line = l
			}
		}
		isFailed := strings.Contains(line, "JobState=FAILED") && strings.Contains(line, "ExitCode=1:0") &&
			strings.Contains(line, fmt.Sprintf("Comment=wormcheck: shard %d violated", i))
		if (sh.Verdict.String() == "violated") != isFailed {
			t.Errorf("task %d: shard %v, but Slurm says:\n%s", i, sh.Verdict, line)
		}
		if isFailed {
			failed++
		}
	}
	if failed == 0 {
		t.Errorf("no task failed, though the family deadlocks:\n%s", jobs)
	}
	if merged := readFamilyResult(t, filepath.Join(bad, "merged.json")); merged.Verdict.String() != "violated" {
		t.Errorf("the merged violating family: %v", merged.Verdict)
	}
}

// copyExecutable copies this test binary to path, executable, and returns path.
func copyExecutable(t *testing.T, path string) string {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(self)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestSlurmScripts checks, without a cluster, the scripts `slurm --no-submit` writes and
// the command lines it refuses before submitting anything.
func TestSlurmScripts(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := runCLI(t, append([]string{"slurm", "--dir", dir, "--tasks", "4", "--no-submit", "--binary", "/opt/wormcheck/bin/wormcheck", "--"}, slurmFamily...)...)
	if code != exitHolds || !strings.Contains(out, "sbatch --array=0-3 ") {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	task, err := os.ReadFile(filepath.Join(dir, "task.sh"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"#SBATCH --array=0-3\n", "#SBATCH --requeue\n", "\n/opt/wormcheck/bin/wormcheck check ", `--shard "$id/4" --resume ` + dir + `"/shard-$id.json"`, "1) note violated; exit 1 ;;"} {
		if !strings.Contains(string(task), want) {
			t.Errorf("task.sh lacks %q:\n%s", want, task)
		}
	}
	if merge, err := os.ReadFile(filepath.Join(dir, "merge.sh")); err != nil || !strings.Contains(string(merge), " merge "+dir+"/shard-*.json -o "+dir+"/merged.json") {
		t.Errorf("merge.sh: %v\n%s", err, merge)
	}
	for _, tc := range []struct {
		args []string
		says string
	}{
		{[]string{"slurm", "--dir", dir, "--tasks", "4", "--", "check", "--algo", "unicast", "--topo", "torus:4", "--msgs", "0->1"}, "no --family"},
		{[]string{"slurm", "--dir", dir, "--tasks", "4", "--", "check", "--algo", "tree-mcast", "--family", "pairs:1", "--shard", "0/2"}, "must not set --shard"},
		{[]string{"slurm", "--dir", dir, "--tasks", "4", "--", "check", "--algo", "tree-mcast", "--prop", "deadlock", "--topo", "mesh:3x3", "--family", "pairs:9"}, "K is"},
		{[]string{"slurm", "--dir", dir, "--tasks", "0", "--", "check"}, "--tasks 0"},
		{[]string{"slurm", "--dir", dir, "--only", "4"}, "task indices 0..3"},
		// This test binary runs from Go's build directory: the tasks must not.
		{append([]string{"slurm", "--dir", dir, "--tasks", "4", "--no-submit", "--"}, slurmFamily...), "pass --binary PATH"},
		{append([]string{"slurm", "--dir", dir, "--tasks", "4", "--binary", filepath.Join(dir, "none"), "--"}, slurmFamily...), "not an executable file"},
	} {
		code, _, stderr := runCLI(t, tc.args...)
		if code != exitUsage || !strings.Contains(stderr, tc.says) {
			t.Errorf("%q: exit %d, %q; want 2 saying %q", tc.args, code, stderr, tc.says)
		}
	}
}
