package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFlagsNeitherDroppedNorReinterpreted: a flag the command cannot honour is refused in
// one line naming it (exit 2), never run as if it were absent or meant something else.
// Each of these ran before: swarm with a family ran the exhaustive search (swarm with
// liveness is honoured: props/check TestSwarmRefutesLiveness),
// --reduction was ignored by the collectives, --cycles 0 simulated the default window,
// an unusable --spill-dir ran the search to an inconclusive report.
func TestFlagsNeitherDroppedNorReinterpreted(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"check", "--algo", "unicast", "--topo", "mesh:3x3", "--family", "all-placements:2", "--search", "swarm", "--time-limit", "5s"}, "--search swarm"},
		{[]string{"check", "--algo", "tree-mcast", "--topo", "mesh:3x2", "--family", "pairs:2", "--search", "swarm", "--time-limit", "5s"}, "--search swarm"},
		{[]string{"check", "--algo", "dcf", "--topo", "torus:4x4", "--prop", "depth", "--reduction", "none"}, "--reduction"},
		{[]string{"check", "--algo", "banyan-route", "--topo", "banyan:8", "--reduction", "none"}, "--reduction"},
		{[]string{"sim", "--topo", "mesh:3x3", "--cycles", "0"}, "--cycles 0"},
		{[]string{"check", "--algo", "unicast", "--topo", "mesh:3x3", "--msgs", "0->8,8->0", "--spill-dir", filepath.Join(dir, "nonexistent")}, "--spill-dir"},
		{[]string{"check", "--algo", "unicast", "--topo", "mesh:3x3", "--msgs", "0->8,8->0", "--spill-dir", "flagrules_test.go"}, "--spill-dir flagrules_test.go is not a directory"},
		{[]string{"sim", "--topo", "mesh:3x3", "--cycles", "100", "--trace", filepath.Join(dir, "t.pcap"), "--trace-limit", "-1"}, "--trace-limit -1"},
	} {
		code, stdout, stderr := runCLI(t, c.args...)
		msg := strings.TrimRight(stderr, "\n")
		if code != exitUsage || !strings.Contains(msg, c.want) || strings.Contains(msg, "\n") {
			t.Errorf("%q: exit %d, stderr %q (want 2 and one line naming %s); stdout %q", c.args, code, msg, c.want, stdout)
		}
	}
}

// TestRepeatedAlgoLastWins: --algo given twice takes its last value, as every other flag
// does (it took the first, so the flags after it were read for the wrong algorithm).
func TestRepeatedAlgoLastWins(t *testing.T) {
	code, stdout, stderr := runCLI(t, "check", "--algo", "tree-mcast", "--algo", "unicast", "--topo", "torus:4", "--msgs", "0->2")
	if code != exitHolds || !strings.HasPrefix(stdout, "unicast on torus:4") {
		t.Fatalf("exit %d, stdout %q, stderr %q; want unicast's report", code, stdout, stderr)
	}
	if got := flagValue([]string{"--algo=a", "-algo", "b", "--msgs", "x", "--", "--algo", "c"}, "algo"); got != "b" {
		t.Errorf("flagValue = %q, want the last value before --, b", got)
	}
}

// TestOverviewStartsWhereTheReadmeStarts: `wormcheck` alone names as its first command
// the one the README runs first (it said prove --quick while the README says prove).
func TestOverviewStartsWhereTheReadmeStarts(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Skipf("no README: %v", err)
	}
	first := regexp.MustCompile(`(?m)^    go run \./cmd/wormcheck (.+)$`).FindSubmatch(readme)
	if first == nil {
		t.Fatal("README.md runs no `go run ./cmd/wormcheck ...` command")
	}
	_, stdout, stderr := runCLI(t)
	start := regexp.MustCompile(`(?m)^Start with:  wormcheck (.+)$`).FindStringSubmatch(stdout + stderr)
	if start == nil {
		t.Fatalf("the overview says no \"Start with:\":\n%s%s", stdout, stderr)
	}
	if start[1] != string(first[1]) {
		t.Errorf("the overview starts with `wormcheck %s`, the README with `wormcheck %s`", start[1], first[1])
	}
}

// TestDragonflyWitnessCropped: the picture of a dragonfly deadlock draws the groups its
// worms use, whole, and says so: 36 of the 108 nodes of dragonfly:a=4,p=2,h=2 for a
// 3-worm cycle among 3 groups (all 108 were drawn, and the cycle was lost among them).
func TestDragonflyWitnessCropped(t *testing.T) {
	svg := filepath.Join(t.TempDir(), "df.svg")
	code, stdout, stderr := runCLI(t, "routing", "--topo", "dragonfly:a=4,p=2,h=2", "--routing", "dragonfly-min-1vc", "--svg", svg)
	if code != exitViolated {
		t.Fatalf("exit %d: %s%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	pic := string(data)
	m := regexp.MustCompile(`cropped: groups ([0-9, ]+) of dragonfly`).FindStringSubmatch(pic)
	if m == nil {
		t.Fatalf("the picture does not say it is cropped to groups")
	}
	groups := len(strings.Split(m[1], ", "))
	// a node is a circle of radius 13; a group of a=4 routers with p=2 terminals each
	if nodes := strings.Count(pic, `r="13.0"`); nodes != groups*12 || groups >= 9 {
		t.Errorf("%d nodes drawn for %d groups; want %d", nodes, groups, groups*12)
	}
}
