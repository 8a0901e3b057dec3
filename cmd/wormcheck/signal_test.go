package main

import (
	"bufio"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// cpuTime returns the CPU time (user and system) process pid has used, from
// /proc/PID/stat, or -1 where that cannot be read.
func cpuTime(pid int) time.Duration {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return -1
	}
	// The command name (field 2) is in parentheses and may hold spaces: count fields
	// after its closing parenthesis, where state is field 3.
	i := strings.LastIndexByte(string(data), ')')
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 13 {
		return -1
	}
	utime, err1 := strconv.ParseInt(f[11], 10, 64)
	stime, err2 := strconv.ParseInt(f[12], 10, 64)
	if err1 != nil || err2 != nil {
		return -1
	}
	const ticks = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticks
}

// waitForWork waits until process pid has used work of CPU time, so that a signal
// arrives after a fixed amount of work whatever the machine's load; without /proc it
// waits work of wall time. It fails the test after a minute.
func waitForWork(t *testing.T, pid int, work time.Duration) {
	t.Helper()
	if cpuTime(pid) < 0 {
		time.Sleep(work)
		return
	}
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if c := cpuTime(pid); c < 0 || c >= work {
			return
		}
	}
	t.Fatalf("process %d did not use %v of CPU within a minute", pid, work)
}

// TestSignalStopsEveryCommand sends SIGINT or SIGTERM, after a fixed amount of CPU work,
// to each long computation that ignored signals until the 10-second grace timer
// (routing, partition, verify, schedule, collective sim, banyan-route, cube-load,
// tree-mcast family enumeration): each
// must end with exit 3, within a generous bound (the contract is a second), with a
// report that validates against its schema under --json and says what was done so far
// where the computation watches its context (partial).
func TestSignalStopsEveryCommand(t *testing.T) {
	if testing.Short() {
		t.Skip("starts eight large computations")
	}
	schemas := loadSchemas(t)
	dir := t.TempDir()
	sched := filepath.Join(dir, "big.json")
	if code, _, stderr := runCLI(t, "schedule", "--algo", "dcf", "--topo", "torus:256x256", "-o", sched); code != exitHolds {
		t.Fatalf("schedule: %s", stderr)
	}
	for i, c := range []struct {
		args    []string
		work    time.Duration // CPU time before the signal
		partial string        // what the report says of the work done ("" = not checked)
	}{
		{[]string{"routing", "--topo", "hypercube:16", "--routing", "dor", "--json"}, 300 * time.Millisecond, ""},
		{[]string{"partition", "--topo", "torus:1024x1024", "--type", "III", "--h", "4", "--json"}, 300 * time.Millisecond, ""},
		// Reading the file is short beside the depth decision, which the signal stops.
		{[]string{"verify", sched, "--semantics", "timed", "--json"}, 2 * time.Second, "channel-sharing pairs"},
		// The signal comes while the schedule is built; the builder's first look after
		// it ends the run.
		{[]string{"schedule", "--algo", "dcf", "--topo", "torus:1024x1024", "-o", filepath.Join(dir, "s.json")}, 400 * time.Millisecond, "stopped while building the schedule after"},
		{[]string{"sim", "--topo", "torus:256x256", "--algo", "dcf", "--length", "100000", "--json"}, 500 * time.Millisecond, `"reason": "interrupted at cycle`},
		{[]string{"check", "--algo", "banyan-route", "--topo", "banyan:512", "--json"}, 300 * time.Millisecond, "source/destination pairs"},
		{[]string{"check", "--algo", "cube-load", "--topo", "hypercube:12", "--json"}, 500 * time.Millisecond, "the figures cover only what was simulated"},
		// Enumerating this family's 1.8 million pairs takes about a second of CPU.
		{[]string{"check", "--algo", "tree-mcast", "--topo", "mesh:4x4", "--family", "pairs:2", "--symmetry", "--shard", "0/100000", "--json"}, 300 * time.Millisecond, "while enumerating the family's members"},
	} {
		sig := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}[i%2]
		cmd := wormcheckCmd(dir, c.args...)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitForWork(t, cmd.Process.Pid, c.work)
		_ = cmd.Process.Signal(sig)
		sent := time.Now()
		err := cmd.Wait()
		took := time.Since(sent)
		code := exitCode(err)
		switch {
		case code != exitInconclusive:
			t.Errorf("%q (%v): exit %d after the signal, want 3; stdout %q stderr %q", c.args, sig, code, out.String(), errb.String())
			continue
		case took > 5*time.Second:
			t.Errorf("%q (%v): took %v to stop", c.args, sig, took)
		}
		if c.partial != "" && !strings.Contains(out.String()+errb.String(), c.partial) {
			t.Errorf("%q (%v): the report does not say what was done (%q):\n%s%s", c.args, sig, c.partial, out.String(), errb.String())
		}
		if strings.Contains(strings.Join(c.args, " "), "--json") {
			doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out.String()))
			if err != nil {
				t.Errorf("%q: the report is not one JSON object (%v): %q", c.args, err, out.String())
				continue
			}
			m, _ := doc.(map[string]any)
			tag, _ := m["schema"].(string)
			if s, ok := schemas[tag]; !ok {
				t.Errorf("%q: the report names no known schema (%q)", c.args, tag)
			} else if err := s.Validate(doc); err != nil {
				t.Errorf("%q: the report does not match %s:\n%v", c.args, tag, err)
			} else if m["verdict"] != "inconclusive" {
				t.Errorf("%q: verdict %v, want inconclusive", c.args, m["verdict"])
			}
		}
		t.Logf("%q: %v after %v of CPU, stopped in %v", c.args, sig, c.work, took.Round(time.Millisecond))
	}
}

// TestSignalStopsExplore: explore serves until a signal, then says so and exits 0 (a
// signal is how one ends it); --time-limit ends it the same way.
func TestSignalStopsExplore(t *testing.T) {
	dir := t.TempDir()
	trace := filepath.Join(dir, "wh2.json")
	if code, _, stderr := runCLI(t, "check", "--algo", "unicast", "--topo", "torus:4", "--prop", "deadlock", "--dateline", "off",
		"--msgs", "0->2,1->3,2->0,3->1", "--trace", trace); code != exitViolated {
		t.Fatalf("check: exit %d: %s", code, stderr)
	}
	cmd := wormcheckCmd(dir, "explore", trace)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := bufio.NewScanner(stdout)
	if !lines.Scan() || !strings.HasPrefix(lines.Text(), "explorer: http://127.0.0.1:") {
		t.Fatalf("explore printed %q first, want its URL", lines.Text())
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
	var rest []string
	for lines.Scan() {
		rest = append(rest, lines.Text())
	}
	if code := exitCode(cmd.Wait()); code != exitHolds || len(rest) != 1 || rest[0] != "explorer: stopped: interrupted" {
		t.Errorf("explore after SIGINT: exit %d, then %q", code, rest)
	}
	code, out, stderr := runCLI(t, "explore", trace, "--time-limit", "200ms")
	if code != exitHolds || !strings.HasSuffix(out, "explorer: stopped: the --time-limit of 200ms passed\n") {
		t.Errorf("explore --time-limit: exit %d: %q %q", code, out, stderr)
	}
}

// TestEveryCommandTakesBudgetFlags: every command that computes or reads files defines
// --max-memory and --time-limit (dissector and slurm only write files and submit jobs;
// help and version compute nothing), and refuses a negative value in one line.
func TestEveryCommandTakesBudgetFlags(t *testing.T) {
	for name := range commands {
		switch name {
		case "dissector", "slurm", "help", "version", "test-panic":
			continue
		}
		for _, flag := range []string{"--max-memory=x", "--time-limit=x"} {
			args := []string{name, flag}
			if name == "check" {
				args = append(args, "--algo", "unicast")
			}
			code, _, stderr := runCLI(t, args...)
			if code != exitUsage || strings.Contains(stderr, "not defined") || !strings.Contains(stderr, "invalid value") {
				t.Errorf("%s %s: exit %d: %s", name, flag, code, stderr)
			}
		}
	}
	trace := filepath.Join(t.TempDir(), "wh2.json")
	if code, _, stderr := runCLI(t, "check", "--algo", "unicast", "--topo", "torus:4", "--prop", "deadlock", "--dateline", "off",
		"--msgs", "0->2,1->3,2->0,3->1", "--trace", trace); code != exitViolated {
		t.Fatalf("check: exit %d: %s", code, stderr)
	}
	for _, args := range [][]string{
		{"check", "--algo", "unicast", "--topo", "torus:4", "--msgs", "0->2", "--time-limit", "-1s"},
		{"sim", "--topo", "mesh:4x4", "--max-memory", "-1"},
		{"replay", trace, "--time-limit", "-1s"},
		{"render", trace, "-o", trace + ".svg", "--max-memory", "-1"},
		{"explore", trace, "--time-limit", "-1s"},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage || !strings.Contains(stderr, "must not be negative") || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%q: exit %d: %q", args, code, stderr)
		}
	}
}

// TestMemoryBudgetOvershoot runs a simulation whose queues grow at about 100 MB/s into
// a 200 MiB budget: it must stop inconclusive, naming --max-memory, with a peak resident
// set at most 10% over the budget. The peak is the child's own high-water mark (VmHWM in
// /proc/PID/status, read until it exits): getrusage's maxrss of a child that Go starts
// with vfork counts the parent's resident set at the exec, the test process's.
func TestMemoryBudgetOvershoot(t *testing.T) {
	if testing.Short() {
		t.Skip("grows to the budget")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("no /proc on this system")
	}
	cmd := wormcheckCmd(t.TempDir(), "sim", "--topo", "torus:32x32", "--rate", "0.12", "--length", "32", "--max-memory", "200", "--cycles", "1000000")
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var peak int64
	var err error
	for running := true; running; {
		if kb := vmHWM(cmd.Process.Pid); kb > peak {
			peak = kb
		}
		select {
		case err = <-done:
			running = false
		case <-time.After(2 * time.Millisecond):
		}
	}
	if code := exitCode(err); code != exitInconclusive || !strings.Contains(out.String(), "--max-memory") {
		t.Fatalf("exit %d:\n%s", code, out.String())
	}
	if peak<<10 > 220<<20 {
		t.Errorf("peak RSS %d MiB, more than 10%% over the 200 MiB budget:\n%s", peak>>10, out.String())
	}
	t.Logf("peak RSS %d MiB for a 200 MiB budget", peak>>10)
}

// vmHWM returns the peak resident set of process pid in kB (VmHWM), or 0.
func vmHWM(pid int) int64 {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			return kb
		}
	}
	return 0
}
