package flit

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// The SPIN twin: the flit model of unicast worms on fixed paths (one virtual channel
// per channel, all-port) written as Promela, one process per worm, one atomic option
// per transition of model/flit's rules (header injection and hops, body moves,
// deliveries, the tail's release of a channel in the move that empties it). Its states
// are in one-to-one correspondence with the flit model's, so SPIN's exhaustive search
// (no partial-order reduction) stores exactly as many states as checker.Explore of the
// flit model itself, and finds a global deadlock (an invalid end state) exactly where
// the flit model has one. TestSpinTwin checks both; BenchmarkSpinTwin runs both searches
// side by side and reports their speeds.

// promela returns the SPIN twin of m, or an error when m is not a model of unicast
// worms on fixed paths with one virtual channel per channel under all-port (where
// delivery never waits).
func promela(m *Model) (string, error) {
	cfg := m.cfg
	if cfg.VCs != 1 || cfg.Ports != AllPort {
		return "", fmt.Errorf("the SPIN twin needs one virtual channel and all-port")
	}
	// own[k] is the worm holding the k-th channel some path uses (255: free), so that
	// SPIN's state vector is no longer than it needs to be.
	paths := make([][]int, len(cfg.Messages))
	index := map[int]int{}
	for w, msg := range cfg.Messages {
		if msg.Multicast {
			return "", fmt.Errorf("message %d is a multicast", w)
		}
		path, err := fixedPath(m, msg)
		if err != nil {
			return "", fmt.Errorf("message %d: %v", w, err)
		}
		for i, c := range path {
			if _, ok := index[c]; !ok {
				index[c] = len(index)
			}
			path[i] = index[c]
		}
		paths[w] = path
	}
	var b strings.Builder
	fmt.Fprintf(&b, "/* SPIN twin of the flit model: %s, routing %s, B=%d */\n", cfg.Net.Spec(), m.rel.Name(), cfg.Buffer)
	fmt.Fprintf(&b, "byte own[%d] = 255;\n", len(index))
	for w, msg := range cfg.Messages {
		writeWorm(&b, w, msg.Length, cfg.Buffer, paths[w])
	}
	return b.String(), nil
}

// fixedPath returns the channels of msg's route, requiring one output at every hop.
func fixedPath(m *Model, msg Message) ([]int, error) {
	h := routing.Header{At: msg.Source, In: routing.Input{Channel: routing.Injection}, Src: msg.Source, Dst: msg.Dests[0]}
	var path []int
	for h.At != h.Dst {
		outs := m.rel.Route(h, nil)
		if len(outs) != 1 || outs[0].VC != 0 {
			return nil, fmt.Errorf("routing %s offers %d outputs at %s: the twin needs a fixed path", m.rel.Name(), len(outs), m.cfg.Net.NodeName(h.At))
		}
		c := int(outs[0].Channel)
		path = append(path, c)
		h.At, h.In = m.vcTo[c], routing.Input{Channel: topology.ChannelID(c)}
		if len(path) > m.nvc {
			return nil, fmt.Errorf("the route does not end")
		}
	}
	return path, nil
}

// writeWorm writes the process of worm w: s flits sent, hd the channels its header has
// entered (hp+1 once delivered), n[i] the flits in path channel i.
func writeWorm(b *strings.Builder, w, l, buf int, path []int) {
	hp := len(path)
	fmt.Fprintf(b, "active proctype worm%d() {\n\tbyte s, hd; byte n[%d];\n\tdo\n", w, hp)
	// closed(i): the tail has entered channel i (every flit has left the source and the
	// channels before i); release(i) frees channel i when it is closed and empty.
	closed := func(i int) string {
		c := fmt.Sprintf("s == %d", l)
		for j := 0; j < i; j++ {
			c += fmt.Sprintf(" && n[%d] == 0", j)
		}
		return c
	}
	release := func(i int) string {
		return fmt.Sprintf("if :: (n[%d] == 0 && %s) -> own[%d] = 255 :: else -> skip fi", i, closed(i), path[i])
	}
	// A delivered worm jumps to its end label (where it blocks for ever) in the step of
	// its last delivery, so that a state where every worm is there is a valid end state
	// and any other where none can move is an invalid one (a global deadlock).
	done := fmt.Sprintf("if :: (%s && n[%d] == 0) -> goto end_done :: else -> skip fi", closed(hp-1), hp-1)
	// The header's injection, then the body's.
	fmt.Fprintf(b, "\t:: atomic { s == 0 && own[%d] == 255 -> own[%d] = %d; s = 1; n[0] = 1; hd = 1 }\n", path[0], path[0], w)
	if l > 1 {
		fmt.Fprintf(b, "\t:: atomic { s > 0 && s < %d && n[0] < %d -> s++; n[0]++ }\n", l, buf)
	}
	for i := 0; i < hp; i++ {
		// The header at the front of channel i: its hop, or its delivery.
		if i+1 < hp {
			fmt.Fprintf(b, "\t:: atomic { hd == %d && n[%d] > 0 && own[%d] == 255 -> own[%d] = %d; n[%d]--; n[%d] = 1; hd = %d; %s }\n",
				i+1, i, path[i+1], path[i+1], w, i, i+1, i+2, release(i))
		} else {
			fmt.Fprintf(b, "\t:: atomic { hd == %d && n[%d] > 0 -> n[%d]--; hd = %d; %s; %s }\n", i+1, i, i, i+2, release(i), done)
		}
		// A body flit at the front of channel i (the header is beyond it).
		if l > 1 {
			if i+1 < hp {
				fmt.Fprintf(b, "\t:: atomic { hd > %d && n[%d] > 0 && n[%d] < %d -> n[%d]--; n[%d]++; %s }\n", i+1, i, i+1, buf, i, i+1, release(i))
			} else {
				fmt.Fprintf(b, "\t:: atomic { hd > %d && n[%d] > 0 -> n[%d]--; %s; %s }\n", i+1, i, i, release(i), done)
			}
		}
	}
	b.WriteString("\tod;\nend_done:\tfalse\n}\n")
}

// spinRun is what one SPIN search reported.
type spinRun struct {
	states   int64
	errors   int
	cpu      time.Duration // pan's user and system time
	memoryMB float64       // pan's "total actual memory usage"
}

// runSpin generates, compiles and runs the verifier of model text src in dir, without
// partial-order reduction, and returns what it reported.
func runSpin(dir, src string) (spinRun, error) {
	var r spinRun
	if err := os.WriteFile(filepath.Join(dir, "twin.pml"), []byte(src), 0o644); err != nil {
		return r, err
	}
	for _, c := range [][]string{
		{"spin", "-a", "twin.pml"},
		{"gcc", "-O2", "-DNOREDUCE", "-DSAFETY", "-DMEMLIM=8192", "-o", "pan", "pan.c"},
	} {
		cmd := exec.Command(c[0], c[1:]...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			return r, fmt.Errorf("%s: %v\n%s", strings.Join(c, " "), err, out)
		}
	}
	cmd := exec.Command("./pan", "-m1000000", "-w26")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil && cmd.ProcessState == nil {
		return r, err
	}
	if u, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.cpu = time.Duration(u.Utime.Nano() + u.Stime.Nano())
	}
	text := string(out)
	num := func(re string) string {
		if m := regexp.MustCompile(re).FindStringSubmatch(text); m != nil {
			return m[1]
		}
		return ""
	}
	r.states, _ = strconv.ParseInt(num(`(\d+) states, stored`), 10, 64)
	r.errors, _ = strconv.Atoi(num(`errors: (\d+)`))
	r.memoryMB, _ = strconv.ParseFloat(num(`([\d.]+)\s+total actual memory usage`), 64)
	if r.states == 0 {
		return r, fmt.Errorf("pan reported no states:\n%s", text)
	}
	return r, nil
}

// spinInstances are the twin's instances: XY worms on meshes (deadlock-free) and worms
// round a torus ring without dateline classes (a global deadlock).
func spinInstances(t testing.TB) map[string]*Model {
	out := map[string]*Model{}
	for name, c := range map[string]struct {
		topo, rel string
		l, b      int
		pairs     []int
	}{
		"mesh3x3-xy-3": {"mesh:3x3", "dor", 3, 2, []int{0, 8, 2, 6, 7, 1}},
		"mesh2x2-xy-4": {"mesh:2x2", "dor", 2, 1, []int{0, 3, 1, 2, 3, 0, 2, 1}},
		"torus4-ring":  {"torus:4", "dor-1vc", 2, 1, []int{0, 2, 1, 3, 2, 0, 3, 1}},
		"torus4-ring3": {"torus:4", "dor-1vc", 3, 2, []int{0, 2, 1, 3, 2, 0, 3, 1}},
	} {
		g := grid(t, c.topo)
		rel, err := routing.ByName(g, c.rel)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = mustNew(t, NewRelationConfig(rel, 1, c.b, AllPort, unicasts(c.l, c.pairs...)))
	}
	return out
}

// TestSpinTwin checks the SPIN twin against the flit model: equal state counts and the
// same global-deadlock verdict on every instance. It needs spin and gcc, and runs with
// WORMCHECK_SPIN=1 or WORMCHECK_LONG=1.
func TestSpinTwin(t *testing.T) {
	if os.Getenv("WORMCHECK_SPIN") != "1" && os.Getenv("WORMCHECK_LONG") != "1" {
		t.Skip("set WORMCHECK_SPIN=1 (needs spin and gcc)")
	}
	for name, m := range spinInstances(t) {
		src, err := promela(m)
		if err != nil {
			t.Fatal(err)
		}
		sr, err := runSpin(t.TempDir(), src)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		res, err := checker.Explore[State](m, checker.Options[State]{CheckDeadlock: true})
		if err != nil {
			t.Fatal(err)
		}
		deadlock := res.Verdict == checker.Violated
		if deadlock != (sr.errors > 0) {
			t.Errorf("%s: flit model %v, SPIN %d errors", name, res.Verdict, sr.errors)
		}
		if !deadlock && sr.states != res.Stats.States {
			t.Errorf("%s: flit model %d states, SPIN %d", name, res.Stats.States, sr.states)
		}
		t.Logf("%s: %v, %d states (SPIN %d, %d errors)", name, res.Verdict, res.Stats.States, sr.states, sr.errors)
	}
}

// spinBench is the instance of the side-by-side benchmark: five XY worms on mesh:4x4,
// L=2, B=2 (5,308,416 states).
func spinBench(t testing.TB) *Model {
	g := grid(t, "mesh:4x4")
	rel, err := routing.ByName(g, "dor")
	if err != nil {
		t.Fatal(err)
	}
	return mustNew(t, NewRelationConfig(rel, 1, 2, AllPort, unicasts(2, 0, 15, 1, 14, 2, 13, 3, 12, 4, 11)))
}

// BenchmarkSpinTwin runs, side by side in each iteration, the exhaustive search of the
// flit model itself (checker.Explore, one worker, exact store, no reduction) and SPIN's
// search of its twin (pan compiled with -O2 -DNOREDUCE -DSAFETY, outside the timing),
// and reports both speeds in states per CPU second, both memories per state (the
// explorer's store and pan's total) and their ratio. It needs spin and gcc.
func BenchmarkSpinTwin(b *testing.B) {
	if _, err := exec.LookPath("spin"); err != nil {
		b.Skip("spin is not installed")
	}
	m := spinBench(b)
	src, err := promela(m)
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	var ws, ss, wcpu, scpu float64
	var wbytes, smem float64
	for b.Loop() {
		c0 := cpuTime()
		res, err := checker.Explore[State](m, checker.Options[State]{CheckDeadlock: true})
		c1 := cpuTime()
		if err != nil || res.Verdict != checker.Holds {
			b.Fatalf("Explore: %v %v", res, err)
		}
		sr, err := runSpin(dir, src)
		if err != nil {
			b.Fatal(err)
		}
		if sr.states != res.Stats.States {
			b.Fatalf("flit model %d states, SPIN %d", res.Stats.States, sr.states)
		}
		ws += float64(res.Stats.States)
		wcpu += float64(c1-c0) / 1e9
		ss += float64(sr.states)
		scpu += sr.cpu.Seconds()
		wbytes, smem = res.Stats.BytesPerState, sr.memoryMB*1e6/float64(sr.states)
	}
	b.ReportMetric(ws/wcpu, "states/cpu-s")
	b.ReportMetric(ss/scpu, "spin-states/cpu-s")
	b.ReportMetric((ws/wcpu)/(ss/scpu), "x-spin")
	b.ReportMetric(wbytes, "bytes/state")
	b.ReportMetric(smem, "spin-bytes/state")
}
