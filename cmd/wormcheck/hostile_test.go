package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostileCase is one input that crashed, ran away or was answered wrongly, with the exit
// code and the words of its one-line answer now.
type hostileCase struct {
	args []string
	code int
	want string // in stderr for exit 2, in stdout otherwise
}

func runHostile(t *testing.T, cases []hostileCase) {
	t.Helper()
	for _, c := range cases {
		code, stdout, stderr := runCLI(t, c.args...)
		out := stdout
		if c.code == exitUsage {
			out = stderr
			if strings.Count(strings.TrimRight(stderr, "\n"), "\n") != 0 {
				t.Errorf("%q: stderr is not one line: %q", c.args, stderr)
			}
		}
		if code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("%q: exit %d, want %d with %q; stdout %q, stderr %q", c.args, code, c.code, c.want, stdout, stderr)
		}
	}
}

// TestSizeGuards: inputs large enough to exhaust memory or to overflow a size are
// refused with one line, or stop inconclusive at the memory budget.
func TestSizeGuards(t *testing.T) {
	sim := []string{"sim", "--topo", "mesh:4x4", "--cycles", "200", "--warmup", "100"}
	dcf := []string{"sim", "--topo", "torus:8x8", "--algo", "dcf"}
	runHostile(t, []hostileCase{
		{append(sim, "--buffers", "100000000"), exitUsage, "buffer must be 1..1048576"},
		{append(sim, "--buffers", "1000000000"), exitUsage, "buffer must be 1..1048576"},
		{append(sim[:1:1], "--topo", "mesh:64x64", "--buffers", "100000"), exitUsage, "buffer slots"},
		{append(dcf, "--buffers", "100000000"), exitUsage, "buffer must be 1..1048576"},
		{append(dcf, "--length", "100000000"), exitUsage, "--length 100000000"},
		{[]string{"check", "--algo", "banyan-route", "--topo", "banyan:4096"}, exitInconclusive, "path table needs 106496 MiB"},
		{[]string{"check", "--algo", "banyan-route", "--topo", "banyan:65536"}, exitInconclusive, "path table needs"},
		{[]string{"check", "--algo", "banyan-route", "--topo", "banyan:1024", "--max-memory", "100"}, exitInconclusive, "memory budget of 100 MiB"},
	})
}

// TestOverflowRefused: --cycles, --warmup, --ts and --tr near the int64 limit overflowed
// past the node-cycle guard ("SATURATED" after 1 cycle) or gave latencies of 9.2e18;
// they are refused, naming the flag.
func TestOverflowRefused(t *testing.T) {
	sim := []string{"sim", "--topo", "mesh:4x4"}
	dcf := []string{"sim", "--topo", "torus:8x8", "--algo", "dcf"}
	runHostile(t, []hostileCase{
		{append(sim, "--cycles", "9223372036854775000"), exitUsage, "--cycles"},
		{append(sim, "--warmup", "9223372036854775000"), exitUsage, "--warmup 9223372036854775000"},
		{append(sim, "--ts", "4611686018427387904"), exitUsage, "software latencies must be 0..1073741824"},
		{append(sim, "--tr", "9223372036854775807"), exitUsage, "software latencies must be 0..1073741824"},
		{append(dcf, "--ts", "9223372036854775807"), exitUsage, "--ts 9223372036854775807"},
		{append(sim, "--buffers", "0"), exitUsage, "--buffers 0"},
		{append(dcf, "--buffers", "0"), exitUsage, "--buffers 0"},
	})
}

// TestInternalErrorExit4: a panic in a command is one line and exit 4, not a crash and
// not exit 2 (bad input).
func TestInternalErrorExit4(t *testing.T) {
	registerCommand(&command{Name: "test-panic", Run: func(context.Context, *env, []string) (int, error) {
		var m map[string]int
		m["boom"]++ // a nil-map write: a real runtime panic
		return 0, nil
	}})
	defer delete(commands, "test-panic")
	code, _, stderr := runCLI(t, "test-panic")
	if code != exitInternal || !strings.Contains(stderr, "internal error") || strings.Count(strings.TrimRight(stderr, "\n"), "\n") != 0 {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestEditedTraceDoesNotReplay: a trace cut short (or edited) so that it no longer
// reaches its violation printed HOLDS and exit 0; now it is one line saying the trace
// does not replay to a violation, exit 2. The same for a tree-multicast trace.
func TestEditedTraceDoesNotReplay(t *testing.T) {
	dir := t.TempDir()
	for _, c := range [][]string{
		{"check", "--algo", "unicast", "--topo", "torus:4", "--prop", "deadlock", "--dateline", "off", "--msgs", "0->2,1->3,2->0,3->1"},
		{"check", "--algo", "tree-mcast", "--topo", "mesh:3x2", "--prop", "deadlock", "--pruning", "none", "--buffers", "1", "--msgs", "(0,0)->(0,1),(2,1);(1,0)->(2,0),(0,1)"},
	} {
		p := filepath.Join(dir, "t.json")
		if code, _, stderr := runCLI(t, append(c, "--trace", p)...); code != exitViolated {
			t.Fatalf("%q: exit %d: %s", c, code, stderr)
		}
		if code, _, stderr := runCLI(t, "replay", p); code != exitViolated {
			t.Fatalf("replaying the whole trace: exit %d: %s", code, stderr)
		}
		data, _ := os.ReadFile(p)
		var tf map[string]any
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.UseNumber()
		if err := dec.Decode(&tf); err != nil {
			t.Fatal(err)
		}
		acts := tf["actions"].([]any)
		tf["actions"] = acts[:len(acts)-1]
		if labels, ok := tf["labels"].([]any); ok {
			tf["labels"] = labels[:len(labels)-1]
		}
		data, _ = json.Marshal(tf)
		os.WriteFile(p, data, 0o644)
		runHostile(t, []hostileCase{{[]string{"replay", p}, exitUsage, "does not replay to a violation"}})

		// The action numbers through float64, as a script that edits the file with a
		// JSON library of doubles would write them: they name no enabled action (the
		// unicast labels indexed past the network and panicked).
		for i, a := range acts {
			f, _ := a.(json.Number).Float64()
			acts[i] = f
		}
		tf["actions"] = acts[:len(acts)-1]
		data, _ = json.Marshal(tf)
		os.WriteFile(p, data, 0o644)
		runHostile(t, []hostileCase{{[]string{"replay", p}, exitUsage, "step 1"}})
	}
}

// TestMergeRefusesForeignMember: a shard result that lists a member of another shard in
// place of one of its own was merged as "693 of 693" with that member never checked; it
// is refused, naming the member and the shard it belongs to.
func TestMergeRefusesForeignMember(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for sh := range 2 {
		p := filepath.Join(dir, fmt.Sprintf("s%d.json", sh))
		args := append(append([]string{}, killFamily...), "--shard", fmt.Sprintf("%d/64", sh), "--result", p)
		if code, _, stderr := runCLI(t, args...); code == exitUsage {
			t.Fatalf("shard %d: %s", sh, stderr)
		}
		files = append(files, p)
	}
	if code, _, stderr := runCLI(t, append([]string{"merge"}, files...)...); code == exitUsage {
		t.Fatalf("the honest shards do not merge: %s", stderr)
	}
	data, _ := os.ReadFile(files[1])
	var r map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&r); err != nil {
		t.Fatal(err)
	}
	checked := r["checked"].([]any)
	first := checked[0].(map[string]any)
	if first["v"] != "holds" {
		t.Skipf("shard 1's first member is %v; the test edits a member that held", first["v"])
	}
	first["i"] = 0 // member 0 belongs to shard 0
	data, _ = json.Marshal(r)
	os.WriteFile(files[1], data, 0o644)
	runHostile(t, []hostileCase{{append([]string{"merge"}, files[1]), exitUsage, "lists member 0, which belongs to shard 0/64"}})
	// The same member listed twice by one result (the parser refuses it).
	first["i"] = checked[1].(map[string]any)["i"]
	data, _ = json.Marshal(r)
	os.WriteFile(files[1], data, 0o644)
	runHostile(t, []hostileCase{{append([]string{"merge"}, files[1]), exitUsage, "want increasing indices"}})
}

// TestFlagsThatDoNotApply: flags given a value that does not apply were accepted and
// ignored; each is refused with one line naming it.
func TestFlagsThatDoNotApply(t *testing.T) {
	runHostile(t, []hostileCase{
		{[]string{"prove", "--only", ""}, exitUsage, "--only is empty"},
		{[]string{"prove", "--only", " "}, exitUsage, "--only is empty"},
		{[]string{"partition", "--topo", "torus:8x8", "--type", "III", "--h", "4", "--delta", "0"}, exitUsage, "--delta 0"},
		{[]string{"check", "--algo", "umesh", "--topo", "mesh:4x4", "--prop", "depth", "--dests", "3,5", "--multicasts", "0:3,5;1:6"}, exitUsage, "--dests and --multicasts"},
		{[]string{"schedule", "--algo", "umesh", "--topo", "mesh:4x4", "--dests", "3,5", "--multicasts", "0:3,5;1:6"}, exitUsage, "--dests and --multicasts"},
		{[]string{"sim", "--topo", "mesh:4x4", "--plot", "p.svg", "--trace", "t.pcap"}, exitUsage, "takes no --trace"},
	})
}

// TestLassoShapeKept: a livelock found by check keeps its lasso (3 steps to a state,
// then a cycle of 8) through the trace file, replay (text and JSON), render, the
// explorer's scene and --prop liveness --trace (which wrote no file); titles say
// livelock, not deadlock. Before, replay printed "0 steps to a state, then a cycle of
// 11 steps", its JSON had no cycle_start, and the pictures' titles said deadlock.
func TestLassoShapeKept(t *testing.T) {
	dir := t.TempDir()
	base := []string{"check", "--algo", "unicast", "--topo", "mesh:3x2", "--msgs", "0->2", "--routing", "nonminimal"}
	for _, prop := range []string{"deadlock", "liveness"} {
		tr, svg := filepath.Join(dir, prop+".json"), filepath.Join(dir, prop+".svg")
		code, out, stderr := runCLI(t, append(base, "--prop", prop, "--trace", tr, "--svg", svg)...)
		if code != exitViolated || !strings.Contains(out, "lasso: 3 steps to a state, then a cycle of 8 steps") {
			t.Fatalf("%s: exit %d: %s%s", prop, code, out, stderr)
		}
		code, out, stderr = runCLI(t, "replay", tr)
		if code != exitViolated || !strings.Contains(out, "lasso: 3 steps to a state, then a cycle of 8 steps") || !strings.Contains(out, "livelock") {
			t.Errorf("%s: replay: exit %d: %s%s", prop, code, out, stderr)
		}
		_, out, _ = runCLI(t, "replay", tr, "--json")
		var rep struct {
			Witness struct {
				Kind       string `json:"kind"`
				CycleStart int    `json:"cycle_start"`
			} `json:"witness"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || rep.Witness.Kind != "lasso" || rep.Witness.CycleStart != 3 {
			t.Errorf("%s: replay --json witness %+v, %v", prop, rep.Witness, err)
		}
		pic := filepath.Join(dir, prop+"-render.svg")
		if code, _, stderr := runCLI(t, "render", tr, "-o", pic); code != exitHolds {
			t.Fatalf("render: %s", stderr)
		}
		for _, p := range []string{svg, pic} {
			b, _ := os.ReadFile(p)
			if !strings.Contains(string(b), "livelock, 3 steps then a cycle of 8 repeated forever") || strings.Contains(string(b), "deadlock after") {
				t.Errorf("%s: %s's title does not name the livelock's lasso", prop, p)
			}
		}
		data, _ := os.ReadFile(tr)
		sc, err := exploreScene(context.Background(), data, "l.json")
		if err != nil || sc.LassoStart != 3 || !strings.Contains(sc.Title, "livelock") {
			t.Errorf("%s: explorer scene lasso start %d, title %q, %v", prop, sc.LassoStart, sc.Title, err)
		}
	}
}

// TestWitnessFilesWork: prove --witness-dir wrote RT6.json, NP7.json and MN2.json that
// replay rejected as "not valid JSON" (another format), and reports of DC5 under the
// same extension. Now every ID.json replays; a report or a witness without a trace has
// its own extension, and replay and render name its kind in one line.
func TestWitnessFilesWork(t *testing.T) {
	dir := t.TempDir()
	if code, _, stderr := runCLI(t, "prove", "--quick", "--only", "RT6,NP7,MN2,DC5,WH2", "--witness-dir", dir); code != exitHolds {
		t.Fatalf("prove: exit %d: %s", code, stderr)
	}
	ents, _ := os.ReadDir(dir)
	var traces, others int
	for _, e := range ents {
		name := e.Name()
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		p := filepath.Join(dir, name)
		id, ext, _ := strings.Cut(name, ".")
		switch ext {
		case "json":
			traces++
			if code, out, stderr := runCLI(t, "replay", p); code != exitViolated {
				t.Errorf("replay %s: exit %d: %s%s", name, code, out, stderr)
			}
			if code, _, stderr := runCLI(t, "render", p, "-o", filepath.Join(dir, id+".render.svg")); code != exitHolds {
				t.Errorf("render %s: exit %d: %s", name, code, stderr)
			}
		case "report.json", "witness.json":
			others++
			what := map[string]string{"report.json": "this is a report", "witness.json": "this is a witness without a trace"}[ext]
			runHostile(t, []hostileCase{
				{[]string{"replay", p}, exitUsage, what},
				{[]string{"render", p, "-o", filepath.Join(dir, "x.svg")}, exitUsage, what},
			})
		default:
			t.Errorf("%s: an extension no command reads", name)
		}
	}
	if traces != 2 || others != 3 {
		t.Errorf("%d trace files (want RT6, WH2), %d others (want NP7, MN2, DC5): %v", traces, others, ents)
	}
}

// TestMergeNamesShardsToResubmit: merge lists the missing shards and says how to
// resubmit them.
func TestMergeNamesShardsToResubmit(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, sh := range []int{0, 2} {
		p := filepath.Join(dir, fmt.Sprintf("s%d.json", sh))
		args := append(append([]string{}, killFamily...), "--shard", fmt.Sprintf("%d/4", sh), "--result", p)
		if code, _, stderr := runCLI(t, args...); code == exitUsage {
			t.Fatalf("shard %d: %s", sh, stderr)
		}
		files = append(files, p)
	}
	_, out, _ := runCLI(t, append([]string{"merge"}, files...)...)
	if !strings.Contains(out, "resubmit shards 1,3: wormcheck slurm --dir D --only 1,3") {
		t.Errorf("merge does not name the shards to resubmit:\n%s", out)
	}
}
