package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props/check"
)

func TestPartitionCommand(t *testing.T) {
	code, out, errb := runCLI(t, "partition", "--topo", "torus:16x16", "--type", "IV", "--h", "4", "--json")
	if code != exitHolds {
		t.Fatalf("exit %d, stderr %q", code, errb)
	}
	var rep map[string]any
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	// DESIGN.md: "subnetworks" (count), "node_level", "link_level". Lemma 4: h/2 = 2.
	if rep["subnetworks"] != 16.0 || rep["node_level"] != 1.0 || rep["link_level"] != 2.0 {
		t.Fatalf("report %v %v %v", rep["subnetworks"], rep["node_level"], rep["link_level"])
	}
	// A directed type on a mesh is violated (not strongly connected), exit 1.
	code, out, _ = runCLI(t, "partition", "--topo", "mesh:8x8", "--type", "III", "--h", "2")
	if code != exitViolated || !strings.Contains(out, "cannot reach") {
		t.Fatalf("mesh Type III: exit %d\n%s", code, out)
	}
	svg := filepath.Join(t.TempDir(), "p.svg")
	if code, _, _ := runCLI(t, "partition", "--topo", "torus:8x8", "--type", "I", "--h", "2", "--svg", svg); code != exitHolds {
		t.Fatalf("svg run exit %d", code)
	}
	if b, err := os.ReadFile(svg); err != nil || !strings.HasPrefix(string(b), "<svg") {
		t.Fatalf("svg not written: %v", err)
	}
	for _, args := range [][]string{
		{"partition", "--topo", "torus:16x16", "--type", "V", "--h", "4"},
		{"partition", "--topo", "torus:16x16", "--type", "I", "--h", "3"},
		{"partition", "--topo", "torus:16x16", "--type", "III", "--h", "4", "--delta", "4"},
		{"partition", "--topo", "hypercube:4", "--type", "I", "--h", "2"},
		{"partition", "--type", "I", "--h", "2"},
	} {
		code, _, errb := runCLI(t, args...)
		if code != exitUsage || strings.Count(strings.TrimRight(errb, "\n"), "\n") != 0 {
			t.Errorf("%q: exit %d, stderr %q", args, code, errb)
		}
	}
}

func TestMultinodeCheck(t *testing.T) {
	code, out, errb := runCLI(t, "check", "--algo", "multinode", "--topo", "torus:8x8", "--prop", "exactly-once",
		"--type", "I", "--h", "2", "--sources", "6", "--dests", "10", "--hotspot", "0.5", "--seed", "2", "--json")
	if code != exitHolds {
		t.Fatalf("exit %d: %s %s", code, out, errb)
	}
	if !strings.Contains(out, `"verdict": "holds"`) {
		t.Fatal(out)
	}
	code, out, _ = runCLI(t, "check", "--algo", "multinode", "--topo", "torus:8x8", "--prop", "stepwise",
		"--type", "II", "--h", "2", "--sources", "4", "--dests", "6", "--compare")
	if code != exitHolds && code != exitViolated {
		t.Fatalf("exit %d", code)
	}
	if !strings.Contains(out, "| U-torus |") {
		t.Fatalf("no comparison table:\n%s", out)
	}
	code, out, _ = runCLI(t, "check", "--algo", "multinode", "--topo", "torus:8x8", "--prop", "stepwise",
		"--sources", "8", "--dests", "8", "--compare", "--latency", "--latency-seeds", "2")
	if (code != exitHolds && code != exitViolated) || !strings.Contains(out, "| 8 | 8 | 0.50 | 4III(δ=2)B |") {
		t.Fatalf("exit %d, no latency table:\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "check", "--algo", "multinode", "--topo", "torus:8x8", "--prop", "stepwise", "--latency"); code != exitUsage {
		t.Fatalf("--latency without --compare: exit %d, want 2", code)
	}
	// Per physical channel U-torus in the DDNs contends on this instance; with 004
	// Fig. 2's two virtual-channel classes it does not.
	args := []string{"check", "--algo", "multinode", "--topo", "torus:16x16", "--prop", "stepwise", "--type", "III", "--h", "2"}
	if code, _, _ := runCLI(t, args...); code != exitViolated {
		t.Fatalf("per physical channel: exit %d, want 1", code)
	}
	if code, out, _ := runCLI(t, append(args, "--vc")...); code != exitHolds {
		t.Fatalf("per virtual channel: exit %d, want 0\n%s", code, out)
	}
	if code, _, _ := runCLI(t, "check", "--algo", "multinode", "--topo", "mesh:8x8", "--type", "III", "--h", "2", "--prop", "stepwise"); code != exitUsage {
		t.Fatalf("directed type on a mesh: exit %d, want 2", code)
	}
}

var updatePartition = flag.Bool("update-partition", false, "rewrite testdata/partition/*.txt")

// TestPartitionGolden compares `partition` transcripts with testdata/partition (rewrite
// with -update-partition and review the diff). Each file holds the command line, the
// exit code and the output.
func TestPartitionGolden(t *testing.T) {
	cases := map[string][]string{
		"torus8x8_III_h2": {"partition", "--topo", "torus:8x8", "--type", "III", "--h", "2", "--delta", "1"},
		"torus6x6_IV_h3":  {"partition", "--topo", "torus:6x6", "--type", "IV", "--h", "3"},
		"mesh4x4_IV_h2":   {"partition", "--topo", "mesh:4x4", "--type", "IV", "--h", "2"},
		"mesh12x12_I_h3":  {"partition", "--topo", "mesh:12x12", "--type", "I", "--h", "3"},
	}
	names := make([]string, 0, len(cases))
	for n := range cases {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, name := range names {
		args := cases[name]
		code, out, errb := runCLI(t, args...)
		got := fmt.Sprintf("$ wormcheck %s\nexit %d\n%s%s", strings.Join(args, " "), code, out, errb)
		path := filepath.Join("testdata", "partition", name+".txt")
		if *updatePartition {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%s: %v (run with -update-partition)", name, err)
		}
		if string(want) != got {
			t.Errorf("%s: transcript differs:\n--- want\n%s\n--- got\n%s", name, want, got)
		}
	}
}

func TestMultinodeScheduleFile(t *testing.T) {
	f := map[string]string{"type": "II", "h": "2", "sources": "3", "dests": "5", "hotspot": "0.5", "select": "centralised", "phase2": "u-torus"}
	b, err := multinodeScheduleFile("torus:8x8", f)
	if err != nil {
		t.Fatal(err)
	}
	s, err := model.ParseSchedule(b)
	if err != nil {
		t.Fatalf("written schedule does not parse back: %v", err)
	}
	if len(s.Sources) != 3 || len(s.GroupDestinations) != 3 {
		t.Fatalf("%d sources, %d destination sets", len(s.Sources), len(s.GroupDestinations))
	}
	if s.Explicit {
		t.Fatal("Type II schedule written with explicit paths")
	}
	// Types III and IV go the DDN's way round: written with "routing": "explicit", read
	// back, and judged by `verify` (validity holds; exactly-once is violated by the
	// relays, as the --compare table of props/check says).
	dir := t.TempDir()
	for _, c := range []struct{ typ, sel string }{{"III", "centralised"}, {"IV", "own"}, {"IV", "centralised"}} {
		f["type"], f["select"] = c.typ, c.sel
		b, err := multinodeScheduleFile("torus:8x8", f)
		if err != nil {
			t.Fatalf("Type %s %s: %v", c.typ, c.sel, err)
		}
		if !strings.Contains(string(b), `"routing": "explicit"`) {
			t.Fatalf("Type %s %s: file is not explicit", c.typ, c.sel)
		}
		s, err := model.ParseSchedule(b)
		if err != nil || !s.Explicit {
			t.Fatalf("Type %s %s: written schedule does not parse back: %v", c.typ, c.sel, err)
		}
		path := filepath.Join(dir, "mn"+c.typ+c.sel+".json")
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		code, out, errb := runCLI(t, "verify", path, "--semantics", "step")
		if code == exitUsage || !strings.Contains(out, "validity (step semantics): HOLDS") {
			t.Errorf("Type %s %s: verify exit %d\n%s%s", c.typ, c.sel, code, out, errb)
		}
	}
	// The schedule command writes it too.
	out := filepath.Join(dir, "cli.json")
	if code, _, errb := runCLI(t, "schedule", "--algo", "multinode", "--topo", "torus:8x8", "--type", "IV", "--h", "2", "--sources", "3", "--dests", "5", "-o", out); code != exitHolds {
		t.Fatalf("schedule --algo multinode --type IV: exit %d: %s", code, errb)
	}
	if code, _, errb := runCLI(t, "verify", out, "--semantics", "step"); code == exitUsage {
		t.Fatalf("verify refuses the Type IV file: %s", errb)
	}
}

// multinodeScheduleFile builds the multinode schedule through the entry and returns its
// file.
func multinodeScheduleFile(topo string, params map[string]string) ([]byte, error) {
	s, err := check.BuildSchedule(context.Background(), check.Instance{Algorithm: "multinode", Topology: topo, Params: params}, check.Options{Seed: 1})
	if err != nil {
		return nil, err
	}
	return model.MarshalSchedule(s)
}
