package main

import (
	"errors"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/algos/treemcast"
)

// TestMain lets a test run the real command as a subprocess (the test binary re-executed
// with WORMCHECK_RUN_MAIN=1), so that signals and kills reach a real process.
func TestMain(m *testing.M) {
	if os.Getenv("WORMCHECK_RUN_MAIN") == "1" {
		main()
		return
	}
	os.Exit(m.Run())
}

// wormcheckCmd returns the command line as a subprocess of the test binary.
func wormcheckCmd(dir string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "WORMCHECK_RUN_MAIN=1")
	cmd.Dir = dir
	return cmd
}

// exitCode returns the exit status of a finished command, or -1 if a signal ended it.
func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -2
	}
	return 0
}

// killFamily is a family of 1062 members with violations that runs in about a quarter
// of a second (2-flit worms; TestKillResumeMerge lengthens them).
var killFamily = []string{"check", "--algo", "tree-mcast", "--prop", "deadlock", "--topo", "mesh:3x2",
	"--family", "pairs:2", "--symmetry", "--buffers", "1", "--pruning", "none"}

func readFamilyResult(t *testing.T, path string) *treemcast.FamilyResult {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	r, err := treemcast.ParseFamilyResult(data)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return r
}

// checkedCount reads how many members a result file lists as checked (0 if there is no
// file yet); a file being replaced is never seen half-written.
func checkedCount(path string) int {
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	r, err := treemcast.ParseFamilyResult(data)
	if err != nil {
		return -1
	}
	return len(r.Checked)
}

// TestKillResumeMerge kills each of two shards (SIGKILL, at seeded random moments) a few
// times, resumes it from its result file every time, merges the shards and checks that
// the merged result equals an uninterrupted run member by member.
func TestKillResumeMerge(t *testing.T) {
	// 6-flit worms: about a second, so that kills land mid-run (the default 2-flit
	// family now ends in a quarter of a second).
	family := append(append([]string{}, killFamily...), "--length", "6")
	dir := t.TempDir()
	code, _, stderr := runCLI(t, append(family, "--result", filepath.Join(dir, "whole.json"))...)
	if code != exitViolated {
		t.Fatalf("uninterrupted run: exit %d, %s", code, stderr)
	}
	whole := readFamilyResult(t, filepath.Join(dir, "whole.json"))
	rng := rand.New(rand.NewPCG(15, 4))
	killed, resumed := 0, 0
	var files []string
	for sh := 0; sh < 2; sh++ {
		file := filepath.Join(dir, "s"+string(rune('0'+sh))+".json")
		files = append(files, file)
		args := append(append([]string{}, family...), "--shard", string(rune('0'+sh))+"/2", "--resume", file, "--checkpoint-every", "20ms")
		for attempt := 0; ; attempt++ {
			cmd := wormcheckCmd(dir, args...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			var err error
			if attempt < 6 {
				// Kill at a random moment after this attempt has checkpointed progress of
				// its own (so that the test does not depend on the machine's speed).
				before := checkedCount(file)
				deadline := time.Now().Add(30 * time.Second)
			wait:
				for {
					select {
					case err = <-done:
						break wait
					case <-time.After(10 * time.Millisecond):
						if checkedCount(file) > before || time.Now().After(deadline) {
							time.Sleep(time.Duration(rng.IntN(80)) * time.Millisecond)
							_ = cmd.Process.Kill()
							err = <-done
							killed++
							break wait
						}
					}
				}
			} else {
				err = <-done
			}
			if _, statErr := os.Stat(file); statErr == nil {
				// A kill at any moment leaves a valid file that lists what it counts.
				r := readFamilyResult(t, file)
				if len(r.Checked) != r.Instances {
					t.Fatalf("shard %d after attempt %d: %d checked, %d instances", sh, attempt, len(r.Checked), r.Instances)
				}
				if r.Instances > 0 && attempt < 6 {
					resumed++
				}
			}
			if c := exitCode(err); c == exitViolated || c == exitHolds {
				break
			} else if c != -1 {
				t.Fatalf("shard %d attempt %d: exit %d", sh, attempt, c)
			}
		}
	}
	if killed == 0 || resumed == 0 {
		t.Fatalf("%d runs killed, %d left a result to resume; the family is too fast or slow for this test", killed, resumed)
	}
	code, out, stderr := runCLI(t, "merge", files[0], files[1], "-o", filepath.Join(dir, "merged.json"))
	if code != exitViolated {
		t.Fatalf("merge: exit %d\n%s%s", code, out, stderr)
	}
	merged := readFamilyResult(t, filepath.Join(dir, "merged.json"))
	if !reflect.DeepEqual(merged.Checked, whole.Checked) {
		t.Fatalf("merged members differ from the uninterrupted run")
	}
	if merged.Instances != whole.Instances || merged.States != whole.States || merged.Transitions != whole.Transitions ||
		merged.Covered != whole.Covered || merged.Violated != whole.Violated || merged.Verdict != whole.Verdict ||
		merged.Witness.Index != whole.Witness.Index || merged.Partial || !reflect.DeepEqual(merged.Certificates, whole.Certificates) {
		t.Fatalf("merged %+v\nwhole %+v", merged, whole)
	}
	t.Logf("%d kills; merged %d members, %d states, witness member %d", killed, merged.Instances, merged.States, merged.Witness.Index)
}

// TestSignalWritesPartialResult sends SIGTERM (what Slurm and Kubernetes send) and
// SIGINT to a family run: it must exit 3 with its partial result written.
func TestSignalWritesPartialResult(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGINT} {
		dir := t.TempDir()
		file := filepath.Join(dir, "r.json")
		cmd := wormcheckCmd(dir, append(append([]string{}, killFamily...), "--topo", "mesh:4x2", "--result", file, "--checkpoint-every", "50ms")...)
		var out strings.Builder
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitFor(t, 30*time.Second, "a checkpoint with members", func() bool { return checkedCount(file) > 0 })
		_ = cmd.Process.Signal(sig)
		err := cmd.Wait()
		if c := exitCode(err); c != exitInconclusive {
			t.Fatalf("%v: exit %d, want 3; output %s", sig, c, out.String())
		}
		r := readFamilyResult(t, file)
		if !r.Partial || r.Verdict.String() != "inconclusive" || r.Instances == 0 || r.Instances >= r.Members || len(r.Checked) != r.Instances {
			t.Fatalf("%v: result partial %v verdict %v, %d of %d members", sig, r.Partial, r.Verdict, r.Instances, r.Members)
		}
		if !strings.Contains(out.String(), "interrupted after") || !strings.Contains(out.String(), "--resume") {
			t.Errorf("%v: the report does not say it was interrupted and how to resume:\n%s", sig, out.String())
		}
	}
}

// TestRunawayInputsEndFast runs inputs that, unbounded, would grow to gigabytes or stay
// silent for hours: each must be refused (exit 2, one line naming the flag) or end
// inconclusive (exit 3) within seconds.
func TestRunawayInputsEndFast(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
		says string
	}{
		{[]string{"sim", "--topo", "mesh:8x8", "--rate", "5"}, exitUsage, "--rate"},
		{[]string{"sim", "--topo", "mesh:8x8", "--rate", "-1"}, exitUsage, "--rate -1 must"},
		{[]string{"sim", "--topo", "mesh:8x8", "--load", "99"}, exitUsage, "--load"},
		{[]string{"check", "--algo", "unicast", "--topo", "torus:1024x1024", "--family", "all-placements:4"}, exitUsage, "placements"},
		{[]string{"sim", "--topo", "torus:1024x1024"}, exitUsage, "--cycles"},
		{[]string{"check", "--algo", "dcf", "--prop", "depth", "--topo", "torus:1024x1024"}, exitUsage, "depth check"},
		{[]string{"sim", "--topo", "torus:1024x1024", "--algo", "edn"}, exitUsage, "at most 262144 nodes"},
		{[]string{"check", "--algo", "unicast", "--topo", "mesh:3x3", "--msgs", "0->2", "--shard", "1/2"}, exitUsage, "--shard needs --family"},
		{[]string{"check", "--algo", "unicast", "--topo", "torus:4", "--msgs", "0->2", "--max-states", "-1"}, exitUsage, "--max-states must not be negative"},
		{[]string{"sim", "--topo", "torus:16x16", "--time-limit", "300ms", "--cycles", "5000000"}, exitInconclusive, "--time-limit"},
		{[]string{"sim", "--topo", "torus:32x32", "--rate", "0.12", "--length", "32", "--max-memory", "40", "--cycles", "1000000"}, exitInconclusive, "--max-memory"},
	} {
		start := time.Now()
		code, out, stderr := runCLI(t, tc.args...)
		el := time.Since(start)
		if code != tc.code || !strings.Contains(out+stderr, tc.says) {
			t.Errorf("%q: exit %d, want %d with %q:\n%s%s", tc.args, code, tc.code, tc.says, out, stderr)
		}
		if el > 20*time.Second {
			t.Errorf("%q took %v; it must end within seconds", tc.args, el)
		}
	}
}

// TestSignalsStopCheckAndSim interrupts a long search and a long simulation, after half a
// second of CPU: each must exit 3 with what it found so far (the search's states, the
// simulation's latencies).
func TestSignalsStopCheckAndSim(t *testing.T) {
	for _, tc := range []struct {
		sig  syscall.Signal
		args []string
		says []string
	}{
		{syscall.SIGINT, []string{"check", "--algo", "unicast", "--topo", "torus:4x4", "--buffers", "2", "--length", "4", "--search", "bfs",
			"--msgs", "0->10,1->11,2->8,3->9,4->14,5->15,6->12,7->13"}, []string{"INCONCLUSIVE", "states"}},
		{syscall.SIGTERM, []string{"sim", "--topo", "torus:16x16", "--cycles", "5000000"}, []string{"INCONCLUSIVE: interrupted at cycle", "unicast   latency"}},
	} {
		cmd := wormcheckCmd(t.TempDir(), tc.args...)
		var out strings.Builder
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitForWork(t, cmd.Process.Pid, 500*time.Millisecond)
		_ = cmd.Process.Signal(tc.sig)
		start := time.Now()
		err := cmd.Wait()
		if c := exitCode(err); c != exitInconclusive {
			t.Errorf("%s after %v: exit %d, want 3\n%s", tc.args[0], tc.sig, c, out.String())
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s took %v to stop after %v", tc.args[0], d, tc.sig)
		}
		for _, s := range tc.says {
			if !strings.Contains(out.String(), s) {
				t.Errorf("%s after %v: output lacks %q:\n%s", tc.args[0], tc.sig, s, out.String())
			}
		}
	}
}

// TestFamilyProgressLines checks that --progress with stderr redirected gives plain
// progress lines ending with the shard's full count.
func TestFamilyProgressLines(t *testing.T) {
	code, _, stderr := runCLI(t, append(append([]string{}, killFamily...), "--progress")...)
	if code != exitViolated {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(stderr), "\n")
	last := lines[len(lines)-1]
	if strings.Contains(stderr, "\r") || !strings.HasPrefix(last, "pairs:2 on mesh:3x2, shard 0/1:  1062/1062 members 100.0%  states ") ||
		!strings.Contains(last, " states/s  elapsed ") || !strings.Contains(last, "  heap ") {
		t.Errorf("progress on a redirected stderr:\n%s", stderr)
	}
}
