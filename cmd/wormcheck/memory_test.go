package main

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// budgetRun runs wormcheck with args and --max-memory mib and returns its exit code,
// its output (stdout and stderr) and the peak of its resident set in kB (VmHWM).
func budgetRun(t *testing.T, dir string, mib int, args ...string) (int, string, int64) {
	t.Helper()
	cmd := wormcheckCmd(dir, append(args, "--max-memory", strconv.Itoa(mib))...)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	peak, err := peakUntilExit(cmd)
	return exitCode(err), out.String(), peak
}

// withinBudget fails t when a run's peak resident set (kB) passes 1.1 times mib.
func withinBudget(t *testing.T, what string, peak int64, mib int) {
	t.Helper()
	if peak<<10 > int64(mib)<<20*11/10 {
		t.Errorf("%s: peak resident set %d MiB at --max-memory %d (more than 1.1 times)", what, peak>>10, mib)
	}
}

// TestPartitionWithinMemory: partition stays within 1.1 times --max-memory. A network
// whose subnetworks alone cannot fit is refused before anything is built (exit 3,
// naming what would not fit), and the picture of a large partition is drawn through a
// window of the network, so that drawing it does not take more than the partition.
func TestPartitionWithinMemory(t *testing.T) {
	dir := t.TempDir()
	code, out, peak := budgetRun(t, dir, 200, "partition", "--topo", "torus:1024x1024", "--type", "II", "--h", "4")
	if code != exitInconclusive || !strings.Contains(out, "the subnetworks of torus:1024x1024 take at least") {
		t.Errorf("partition torus:1024x1024: exit %d, want 3 naming what does not fit\n%s", code, out)
	}
	withinBudget(t, "partition torus:1024x1024", peak, 200)
	svg := filepath.Join(dir, "p.svg")
	code, out, peak = budgetRun(t, dir, 120, "partition", "--topo", "torus:256x256", "--type", "I", "--h", "1", "--svg", svg)
	if code != exitHolds {
		t.Errorf("partition torus:256x256 --svg: exit %d, want 0\n%s", code, out)
	}
	withinBudget(t, "partition torus:256x256 --svg", peak, 120)
	if pic, err := os.ReadFile(svg); err != nil || !strings.Contains(string(pic), "showing x 0..23, y 0..23 of torus:256x256") {
		t.Errorf("the picture does not say which window of the network it shows: %v", err)
	}
}

// TestScheduleWithinMemory: schedule stays within 1.1 times --max-memory. A broadcast
// whose network and unicasts alone cannot fit is refused before it is built, and a
// schedule whose file cannot fit beside it is refused before the file is made (exit 3,
// naming what would not fit; nothing written).
func TestScheduleWithinMemory(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "s.json")
	for _, tc := range []struct {
		topo string
		mib  int
		says string
	}{
		{"torus:1024x1024", 60, "dcf's schedule on torus:1024x1024 takes at least"},
		{"torus:512x512", 150, "the schedule file of dcf's 262143 unicasts takes about"},
	} {
		code, text, peak := budgetRun(t, dir, tc.mib, "schedule", "--algo", "dcf", "--topo", tc.topo, "-o", out)
		if code != exitInconclusive || !strings.Contains(text, tc.says) {
			t.Errorf("schedule dcf %s: exit %d, want 3 saying %q\n%s", tc.topo, code, tc.says, text)
		}
		withinBudget(t, "schedule dcf "+tc.topo, peak, tc.mib)
		if _, err := os.Stat(out); err == nil {
			t.Errorf("schedule dcf %s: a file was written", tc.topo)
		}
	}
}

// TestSimWithinMemory: a simulation whose network and simulator state alone cannot fit
// in --max-memory is refused before they are built (exit 3, naming what would not
// fit), where building mesh:700x700 took the process to 1.35 times a 200 MiB budget
// before its watcher saw it.
func TestSimWithinMemory(t *testing.T) {
	code, out, peak := budgetRun(t, t.TempDir(), 200, "sim", "--topo", "mesh:700x700", "--load", "0.1", "--cycles", "2000")
	if code != exitInconclusive || !strings.Contains(out, "the simulator of mesh:700x700 takes at least") {
		t.Errorf("sim mesh:700x700: exit %d, want 3 naming what does not fit\n%s", code, out)
	}
	withinBudget(t, "sim mesh:700x700", peak, 200)
}
