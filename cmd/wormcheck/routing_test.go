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
// 7-cube) by SIGINT, by SIGTERM under --json and by --time-limit: each exits 3 with the
// decision's own partial report (its header states, and a reason that names the stop),
// not the generic "nothing was decided".
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
		{0, []string{"--json", "--time-limit", "1s"}, "stopped: the --time-limit of 1s passed"},
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
		if c := exitCode(cmd.Wait()); c != exitInconclusive {
			t.Errorf("%v %q: exit %d, want 3\n%s%s", tc.sig, tc.extra, c, out.String(), errb.String())
		}
		if !strings.Contains(out.String(), tc.says) || strings.Contains(out.String(), "nothing was decided") {
			t.Errorf("%v %q: the report lacks %q:\n%s", tc.sig, tc.extra, tc.says, out.String())
		}
		if slices.Contains(tc.extra, "--json") {
			var v struct {
				Verdict string `json:"verdict"`
				Stats   struct {
					States int64 `json:"states"`
				} `json:"stats"`
			}
			if err := json.Unmarshal([]byte(out.String()), &v); err != nil || v.Verdict != "inconclusive" || v.Stats.States == 0 {
				t.Errorf("%v %q: not one inconclusive report with its states (%v): %q", tc.sig, tc.extra, err, out.String())
			}
		}
	}
}
