package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestRoutingCommand runs `wormcheck routing` as a user would: a proved turn model
// (exit 0), Duato's relation with a cyclic CDG and an acyclic extended graph (exit 0,
// both graphs in the JSON), the user's routing file with a dependency cycle drawn as
// SVG (exit 3: a cycle is not a deadlock), a stranded header (exit 1), and bad input
// (exit 2, one line).
func TestRoutingCommand(t *testing.T) {
	code, out, _ := runCLI(t, "routing", "--topo", "mesh:8x8", "--routing", "west-first")
	if code != exitHolds || !strings.Contains(out, "acyclic => deadlock-free") {
		t.Errorf("west-first: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "routing", "--topo", "torus:4x4", "--routing", "duato", "--json")
	var j struct {
		Verdict  string `json:"verdict"`
		Analysis struct {
			Acyclic bool `json:"acyclic"`
			Duato   struct {
				Acyclic bool `json:"acyclic"`
			} `json:"duato"`
		} `json:"analysis"`
		CDGWitness struct {
			Kind  string `json:"kind"`
			Cycle []struct {
				Turn string `json:"turn"`
			} `json:"cycle"`
		} `json:"cdg_witness"`
	}
	if err := json.Unmarshal([]byte(out), &j); err != nil {
		t.Fatalf("duato --json: %v\n%s", err, out)
	}
	if code != exitHolds || j.Verdict != "holds" || j.Analysis.Acyclic || !j.Analysis.Duato.Acyclic || j.CDGWitness.Kind != "cycle" || len(j.CDGWitness.Cycle) == 0 || j.CDGWitness.Cycle[0].Turn == "" {
		t.Errorf("duato: exit %d %+v", code, j)
	}
	tr := filepath.Join(t.TempDir(), "ring.json")
	code, out, _ = runCLI(t, "routing", "--topo", "torus:4x4", "--routing", "dor-1vc", "--trace", tr)
	if code != exitViolated || !strings.Contains(out, "4 worms holding 4 channels") || !strings.Contains(out, "scheduled worm by worm") {
		t.Errorf("dor-1vc: exit %d\n%s", code, out)
	}
	if code, out, _ = runCLI(t, "replay", tr); code != exitViolated || !strings.Contains(out, "wait-for cycle m0 -> m1 -> m2 -> m3 -> m0") {
		t.Errorf("replay of the configuration's moves: exit %d\n%s", code, out)
	}
	// Every realised move names its worm, as the replay of the saved trace does.
	_, out, _ = runCLI(t, "routing", "--topo", "torus:4x4", "--routing", "dor-1vc", "--json")
	_, rout, _ := runCLI(t, "replay", tr, "--json")
	var steps, replayed struct {
		Witness struct {
			Steps []struct {
				Message int    `json:"message"`
				What    string `json:"what"`
			} `json:"steps"`
		} `json:"witness"`
	}
	if err := json.Unmarshal([]byte(out), &steps); err != nil {
		t.Fatalf("dor-1vc --json: %v", err)
	}
	if err := json.Unmarshal([]byte(rout), &replayed); err != nil {
		t.Fatalf("replay --json: %v", err)
	}
	if len(steps.Witness.Steps) == 0 || !reflect.DeepEqual(steps.Witness.Steps, replayed.Witness.Steps) {
		t.Errorf("the realised steps %+v differ from the replay's %+v", steps.Witness.Steps, replayed.Witness.Steps)
	}
	for i, st := range steps.Witness.Steps {
		if st.Message < 0 || st.Message > 3 || st.What == "" {
			t.Errorf("step %d: %+v names no worm", i, st)
		}
	}
	svg := filepath.Join(t.TempDir(), "cycle.svg")
	code, out, _ = runCLI(t, "routing", "--routing", "../../model/routing/testdata/two-turns.json", "--svg", svg)
	if code != exitViolated || !strings.Contains(out, "south->west") || !strings.Contains(out, "4 worms holding 4 channels") {
		t.Errorf("two-turns: exit %d\n%s", code, out)
	}
	if pic, err := os.ReadFile(svg); err != nil || !strings.Contains(string(pic), "<svg") {
		t.Errorf("two-turns picture: %v", err)
	}
	code, out, _ = runCLI(t, "routing", "--routing", "../../model/routing/testdata/strand.json")
	if code != exitViolated || !strings.Contains(out, "stranded") {
		t.Errorf("strand: exit %d\n%s", code, out)
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte(`{"format": "wormcheck-routing/1", "name": "b", "rules": [{"forbid": ["north-west"]}]}`), 0o644)
	for _, args := range [][]string{
		{"routing"},
		{"routing", "--routing", "west-first"},
		{"routing", "--topo", "torus:4x4", "--routing", "west-first"},
		{"routing", "--topo", "mesh:4x4", "--routing", "nosuch.json"},
		{"routing", "--topo", "mesh:4x4", "--routing", bad},
	} {
		code, _, stderr := runCLI(t, args...)
		if code != exitUsage || strings.Count(strings.TrimRight(stderr, "\n"), "\n") != 0 {
			t.Errorf("%q: exit %d, stderr %q", args, code, stderr)
		}
	}
	certificate := filepath.Join(t.TempDir(), "x.svg")
	if code, _, _ := runCLI(t, "routing", "--topo", "mesh:4x4", "--routing", "west-first", "--svg", certificate); code != exitHolds {
		t.Errorf("west-first --svg: exit %d", code)
	} else if svg, err := os.ReadFile(certificate); err != nil || !strings.Contains(string(svg), "every dependency goes to a larger number") {
		t.Errorf("west-first --svg: the rank certificate is missing (%v)", err)
	}
	if _, out, _ := runCLI(t, "help", "routing"); !strings.Contains(out, "odd-even") || !strings.Contains(out, "Examples:") {
		t.Errorf("help routing:\n%s", out)
	}
}

// TestCheckRoutingFile is a user's path with a routing file: a routing file whose static proof
// is inconclusive (a dependency cycle) is checked with `check --routing FILE` on the
// worms of that cycle; the explorer finds the deadlock, the trace replays (it carries
// the file) and the picture is drawn; a built-in relation runs as a family.
func TestCheckRoutingFile(t *testing.T) {
	dir := t.TempDir()
	tr, svg := filepath.Join(dir, "t.json"), filepath.Join(dir, "t.svg")
	code, out, stderr := runCLI(t, "check", "--algo", "unicast", "--topo", "mesh:3x3", "--routing", "../../model/routing/testdata/two-turns.json",
		"--msgs", "(1,1)->(2,0),(2,1)->(0,0),(2,0)->(1,1),(1,0)->(2,1)", "--trace", tr, "--svg", svg)
	if code != exitViolated || !strings.Contains(out, "wait-for cycle") {
		t.Fatalf("check --routing file: exit %d\n%s%s", code, out, stderr)
	}
	if code, out, _ := runCLI(t, "replay", tr); code != exitViolated || !strings.Contains(out, "VIOLATED") {
		t.Errorf("replay: exit %d\n%s", code, out)
	}
	if pic, err := os.ReadFile(svg); err != nil || !strings.Contains(string(pic), "<svg") {
		t.Errorf("picture: %v", err)
	}
	code, out, _ = runCLI(t, "check", "--algo", "unicast", "--topo", "mesh:2x2", "--routing", "west-first", "--family", "all-placements:2")
	if code != exitHolds || !strings.Contains(out, "under routing west-first") {
		t.Errorf("family: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "check", "--algo", "tree-mcast", "--topo", "mesh:3x3", "--routing", "duato", "--prop", "deadlock", "--msgs", "(0,0)->(2,0),(2,2);(2,2)->(0,2),(0,0)")
	if code != exitHolds || !strings.Contains(out, "HOLDS") {
		t.Errorf("tree-mcast duato: exit %d\n%s", code, out)
	}
	if code, _, stderr := runCLI(t, "check", "--algo", "unicast", "--topo", "torus:4x4", "--routing", "west-first", "--msgs", "0->1"); code != exitUsage || strings.Count(strings.TrimRight(stderr, "\n"), "\n") != 0 {
		t.Errorf("bad routing: exit %d %q", code, stderr)
	}
}

// TestRoutingStops ends a long exact search (unbudgeted non-minimal routing on the
// 7-cube) by SIGINT, by SIGTERM under --json and by --time-limit: each gives the
// decision's own report (its header states, and a reason that names the stop), not the
// generic "nothing was decided": exit 1 with the configuration found first, said not
// to be proved minimal because the search for smaller ones stopped, or exit 3 when the
// stop came before the first was found.
func TestRoutingStops(t *testing.T) {
	if testing.Short() {
		t.Skip("runs three long searches")
	}
	long := []string{"routing", "--topo", "hypercube:7", "--routing", "nonminimal"}
	for _, tc := range []struct {
		sig   syscall.Signal
		extra []string
		says  string
	}{
		{syscall.SIGINT, nil, "stopped: interrupt"},
		{syscall.SIGTERM, []string{"--json"}, "stopped: terminated"},
		{0, []string{"--json", "--time-limit", "1s"}, "before the deadline, to answer within it"},
	} {
		cmd := wormcheckCmd(t.TempDir(), append(slices.Clone(long), tc.extra...)...)
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		if tc.sig != 0 {
			time.Sleep(1500 * time.Millisecond)
			_ = cmd.Process.Signal(tc.sig)
		}
		c := exitCode(cmd.Wait())
		verdict := "inconclusive"
		switch {
		case c == exitViolated && strings.Contains(out.String(), "the search for smaller ones stopped: ") && strings.Contains(out.String(), tc.says):
			verdict = "violated"
		case c != exitInconclusive:
			t.Errorf("%v %q: exit %d, want 3, or 1 with the configuration found first\n%s%s", tc.sig, tc.extra, c, out.String(), errb.String())
		}
		if !strings.Contains(out.String(), tc.says) || strings.Contains(out.String(), "nothing was decided") || strings.Contains(out.String(), "stopped: stopped") {
			t.Errorf("%v %q: the report lacks %q:\n%s", tc.sig, tc.extra, tc.says, out.String())
		}
		if slices.Contains(tc.extra, "--json") {
			var v struct {
				Verdict string `json:"verdict"`
				Stats   struct {
					States int64 `json:"states"`
				} `json:"stats"`
			}
			if err := json.Unmarshal([]byte(out.String()), &v); err != nil || v.Verdict != verdict || v.Stats.States == 0 {
				t.Errorf("%v %q: not one %s report with its states (%v): %q", tc.sig, tc.extra, verdict, err, out.String())
			}
		}
	}
}

// TestRoutingVCs checks that the static decision takes the network's VCs: a BookSim
// config's num_vcs (the relation of its routing function carries them), --vcs for a
// relation of fewer VCs (shortest paths round a ring of four with two VCs per channel
// need eight worms; with one, four), and the same decision from check --algo routing --vcs,
// whose header states follow --max-memory through the same mapping (cdg.DecideWithin).
func TestRoutingVCs(t *testing.T) {
	cfg := filepath.Join("testdata", "booksim", "ring2vc_config")
	code, out, _ := runCLI(t, "routing", "--booksim", cfg)
	if !strings.Contains(out, "(2 VCs)") {
		t.Errorf("--booksim with num_vcs = 2: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "routing", "--booksim", cfg, "--routing", "shortest-path", "--vcs", "2")
	if code != exitViolated || !strings.Contains(out, "(2 VCs)") || !strings.Contains(out, "8 worms holding 8 channels") {
		t.Errorf("shortest-path (1 VC) on 2 VCs: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "routing", "--booksim", cfg, "--routing", "shortest-path")
	if code != exitViolated || !strings.Contains(out, "(1 VC)") || !strings.Contains(out, "4 worms holding 4 channels") {
		t.Errorf("shortest-path on its own VC: exit %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, "routing", "--topo", "torus:4", "--routing", "dor-1vc", "--vcs", "3")
	if code != exitViolated || !strings.Contains(out, "12 worms holding 12 channels") {
		t.Errorf("dor-1vc on 3 VCs: exit %d\n%s", code, out)
	}
	code, _, errs := runCLI(t, "routing", "--topo", "torus:4", "--routing", "dor", "--vcs", "3")
	if code != exitUsage || !strings.Contains(errs, "--vcs") || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
		t.Errorf("dor (2 VCs) on 3: exit %d, %q", code, errs)
	}
	var a, b struct {
		Verdict string `json:"verdict"`
		Witness struct {
			Configuration struct {
				Channels int `json:"channels"`
				Minimal  bool
				Worms    []struct {
					Src, Dst string
				} `json:"worms"`
			} `json:"configuration"`
		} `json:"witness"`
	}
	_, ra, _ := runCLI(t, "routing", "--topo", "torus:4x4", "--routing", "dor-1vc", "--vcs", "2", "--max-memory", "4000", "--json")
	_, rb, _ := runCLI(t, "check", "--algo", "routing", "--topo", "torus:4x4", "--routing", "dor-1vc", "--vcs", "2", "--max-memory", "4000", "--json")
	if json.Unmarshal([]byte(ra), &a) != nil || json.Unmarshal([]byte(rb), &b) != nil || a.Verdict != "violated" || !reflect.DeepEqual(a.Witness, b.Witness) {
		t.Errorf("routing and check --algo routing differ:\n%s\n%s", ra, rb)
	}
}

// TestEveryWitnessReplays runs every built-in relation on a mesh, a torus, a hypercube
// and an irregular network from a file, as a user would: each violated `routing`
// saves its trace and `replay` exits 1 on it; the configuration's worms then make a
// `check --algo unicast` instance whose violation's trace replays with exit 1 too; and
// the dimension-order ring (dor-1vc on torus:4, saved as dor without dateline
// classes) is among them.
func TestEveryWitnessReplays(t *testing.T) {
	dir := t.TempDir()
	n := 0
	topos := []string{"mesh:3x3", "torus:4x4", "hypercube:3", "file:../../model/topology/testdata/topo/ring_chord.anynet"}
	for _, topo := range topos {
		for _, name := range []string{"dor", "dor-1vc", "west-first", "north-last", "negative-first", "odd-even", "adaptive",
			"duato", "duato-nodateline", "nonminimal", "nonminimal:1", "updown", "shortest-path"} {
			tr := filepath.Join(dir, "r.json")
			code, out, _ := runCLI(t, "routing", "--topo", topo, "--routing", name, "--trace", tr, "--json")
			if code != exitViolated {
				continue
			}
			n++
			if code, rout, _ := runCLI(t, "replay", tr); code != exitViolated {
				t.Errorf("routing %s on %s: replay exits %d\n%s", name, topo, code, rout)
			}
			var j struct {
				Witness struct {
					Configuration struct {
						Worms []struct{ Src, Dst string } `json:"worms"`
					} `json:"configuration"`
				} `json:"witness"`
			}
			if err := json.Unmarshal([]byte(out), &j); err != nil {
				t.Fatalf("routing %s on %s --json: %v", name, topo, err)
			}
			var msgs []string
			for _, w := range j.Witness.Configuration.Worms {
				msgs = append(msgs, w.Src+"->"+w.Dst)
			}
			if strings.HasPrefix(topo, "hypercube") || len(msgs) == 0 {
				continue // hypercube names are binary addresses; a strand at its source has no route
			}
			ct := filepath.Join(dir, "c.json")
			code, cout, cerr := runCLI(t, "check", "--algo", "unicast", "--topo", topo, "--routing", name, "--msgs", strings.Join(msgs, ","), "--length", "2", "--buffers", "1", "--max-states", "200000", "--time-limit", "10s", "--trace", ct)
			if code == exitViolated {
				if code, rout, _ := runCLI(t, "replay", ct); code != exitViolated {
					t.Errorf("check %s on %s --msgs %s: replay exits %d\n%s", name, topo, strings.Join(msgs, ","), code, rout)
				}
			} else if code != exitHolds && code != exitInconclusive {
				t.Errorf("check %s on %s --msgs %s: exit %d\n%s%s", name, topo, strings.Join(msgs, ","), code, cout, cerr)
			}
		}
	}
	ct := filepath.Join(dir, "ring.json")
	if code, _, _ := runCLI(t, "check", "--algo", "unicast", "--topo", "torus:4", "--routing", "dor-1vc", "--msgs", "0->2,1->3,2->0,3->1", "--length", "1", "--buffers", "1", "--trace", ct); code != exitViolated {
		t.Errorf("dor-1vc ring: exit %d", code)
	}
	if code, out, _ := runCLI(t, "replay", ct); code != exitViolated {
		t.Errorf("dor-1vc ring: replay exits %d\n%s", code, out)
	}
	if n < 12 {
		t.Errorf("only %d violated relations", n)
	}
}

// TestRoutingWithinMemory: at --max-memory 200, routing on networks whose graph or
// dependency-graph search alone would pass the budget answers inconclusive, naming
// what would not fit, and the process's peak resident set stays within 1.1 times the
// budget (hypercube:20 alone takes 640 MiB; hypercube:16's search about 520 MiB).
func TestRoutingWithinMemory(t *testing.T) {
	for _, tc := range []struct{ topo, says string }{
		{"hypercube:20", "the network alone takes"},
		{"hypercube:16", "the dependency graph's search takes"},
	} {
		cmd := wormcheckCmd(t.TempDir(), "routing", "--topo", tc.topo, "--routing", "adaptive", "--max-memory", "200")
		var out strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// The child's own high-water mark (VmHWM): getrusage's maxrss of a child Go
		// starts with vfork counts the test process's resident set at the exec.
		peak, err := peakUntilExit(cmd)
		if c := exitCode(err); c != exitInconclusive || !strings.Contains(out.String(), tc.says) {
			t.Errorf("%s: exit %d, want 3 saying %q\n%s", tc.topo, c, tc.says, out.String())
		}
		if peak<<10 > 220<<20 {
			t.Errorf("%s: peak resident set %d MiB at --max-memory 200", tc.topo, peak>>10)
		}
	}
}
