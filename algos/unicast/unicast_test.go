package unicast

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing/routingtest"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestWH2Witness: four 2-hop worms on torus:4 without dateline classes deadlock, and the
// shortest trace has exactly 4 steps (each header takes its first channel). Reference:
// Dally & Seitz (000 [4]).
func TestWH2Witness(t *testing.T) {
	sp := Spec{Topology: "torus:4", Pairs: []Pair{{0, 2}, {1, 3}, {2, 0}, {3, 1}}, Length: 2, Buffer: 1, Dateline: DatelineOff}
	m, err := Build(sp)
	if err != nil {
		t.Fatal(err)
	}
	r := Search(context.Background(), m, 0, true)
	if r.Verdict != checker.Violated || len(r.Actions()) != 4 || !strings.HasPrefix(r.Violation, "deadlock") {
		t.Fatalf("verdict %v, %d steps, %q; want a deadlock after 4 steps", r.Verdict, len(r.Actions()), r.Violation)
	}
	want := []string{"m0 flit 0 takes (0)->(1).vc0", "m1 flit 0 takes (1)->(2).vc0", "m2 flit 0 takes (2)->(3).vc0", "m3 flit 0 takes (3)->(0).vc0"}
	if strings.Join(r.Labels(), "|") != strings.Join(want, "|") {
		t.Fatalf("trace %q; want %q", r.Labels(), want)
	}
	// The saved trace replays to the same deadlock.
	tf := TraceFile(sp, &r)
	parsed, err := tracefile.Parse(TraceJSON(tf))
	if err != nil {
		t.Fatal(err)
	}
	_, rp, err := ReplayTrace(parsed)
	if err != nil || rp.Violation != r.Violation || rp.Verdict != checker.Violated || len(rp.Trace.Steps) != len(r.Actions())+1 {
		t.Fatalf("replay: %+v, %v; want %q", rp, err, r.Violation)
	}
	// A trace cut short does not reach the deadlock.
	parsed.Actions, parsed.Labels = parsed.Actions[:3], parsed.Labels[:3]
	if _, rp, err := ReplayTrace(parsed); err != nil || rp.Violation != "" || rp.Verdict != checker.Holds {
		t.Fatalf("short replay: %+v, %v; want no violation", rp, err)
	}
	// Dateline classes remove it.
	sp.Dateline = DatelineOn
	m, _ = Build(sp)
	if r := Search(context.Background(), m, 0, true); r.Verdict != checker.Holds {
		t.Fatalf("with dateline: %v %s", r.Verdict, r.Violation)
	}
}

// TestMeshHolds: three crossing worms on mesh:3x3 under XY routing never deadlock.
func TestMeshHolds(t *testing.T) {
	m, err := Build(Spec{Topology: "mesh:3x3", Pairs: []Pair{{0, 8}, {8, 0}, {2, 6}}, Length: 2, Buffer: 1, Ports: model.OnePort})
	if err != nil {
		t.Fatal(err)
	}
	r := Search(context.Background(), m, 0, true)
	if r.Verdict != checker.Holds || r.States < 100 {
		t.Fatalf("verdict %v states %d: %s", r.Verdict, r.States, r.Violation)
	}
	// A bound below the state count is inconclusive, never holds.
	if r2 := Search(context.Background(), m, r.States/2, true); r2.Verdict != checker.Inconclusive {
		t.Fatalf("bounded search: %v", r2.Verdict)
	}
}

func TestPlacements(t *testing.T) {
	pairs := AllPairs(4) // 12 pairs
	n := 0
	Placements(pairs, 3, func([]Pair) bool { n++; return true })
	if n != 12+66+220 {
		t.Fatalf("%d placements; want 298", n)
	}
	g, _ := Spec{Topology: "mesh:3x3"}.Grid()
	syms := Symmetries(g)
	if len(syms) != 4 {
		t.Fatalf("%d symmetries of mesh:3x3; want 4", len(syms))
	}
	// Every orbit has exactly one canonical member.
	canon := 0
	Placements(AllPairs(9), 1, func(ps []Pair) bool {
		if Canonical(ps, syms) {
			canon++
		}
		return true
	})
	// 72 single worms; orbits under the 4 reflections: count with Burnside: fixed pairs
	// are 72 (id) + 6*2... computed by brute force below instead.
	orbits := map[[2]topology.NodeID]bool{}
	for _, p := range AllPairs(9) {
		best := [2]topology.NodeID{p.Src, p.Dst}
		for _, s := range syms {
			q := [2]topology.NodeID{s[p.Src], s[p.Dst]}
			if q[0] < best[0] || q[0] == best[0] && q[1] < best[1] {
				best = q
			}
		}
		orbits[best] = true
	}
	if canon != len(orbits) {
		t.Fatalf("%d canonical single worms; %d orbits", canon, len(orbits))
	}
}

func TestParsePairs(t *testing.T) {
	g, _ := Spec{Topology: "mesh:3x3"}.Grid()
	for _, tc := range []struct {
		in, want, err string
	}{
		{"0->5,3->1", "0->5,3->1", ""},
		{"(0,1)->(2,2), (1,1)->(0,0)", "3->8,4->0", ""},
		{"0-5", "", "no \"->\""},
		{"0->0", "", "to itself"},
		{"0->9", "", "not a node"},
		{"(0,3)->1", "", "coordinate 2"},
		{"(0,1,2)->1", "", "3 coordinates"},
		{"", "", "empty worm"},
	} {
		ps, err := ParsePairs(g, tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%q: error %v; want one containing %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || FormatPairs(nil, ps) != tc.want {
			t.Errorf("%q: %v %v; want %s", tc.in, FormatPairs(nil, ps), err, tc.want)
		}
	}
}

func FuzzParsePairs(f *testing.F) {
	g, _ := Spec{Topology: "mesh:3x3"}.Grid()
	for _, s := range []string{"0->5,3->1", "(0,1)->(2,2)", "((", "->", "(1,)->2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		ps, err := ParsePairs(g, s)
		if err != nil {
			return
		}
		back, err := ParsePairs(g, FormatPairs(nil, ps))
		if err != nil || FormatPairs(nil, back) != FormatPairs(nil, ps) {
			t.Fatalf("%q: round trip %v %v", s, back, err)
		}
	})
}

var (
	benchWH1 = Spec{Topology: "mesh:3x3", Pairs: []Pair{{0, 8}, {8, 0}, {2, 6}}, Length: 2, Buffer: 2}
	benchWH2 = Spec{Topology: "torus:4", Pairs: []Pair{{0, 2}, {1, 3}, {2, 0}, {3, 1}}, Length: 3, Buffer: 2, Dateline: DatelineOn}
)

func BenchmarkExploreWH2(b *testing.B) { benchSearch(b, benchWH2, checker.Options[flit.State]{}) }

func BenchmarkExploreWH1(b *testing.B) { benchSearch(b, benchWH1, checker.Options[flit.State]{}) }

// benchWHScale is five worms of two flits on mesh:3x3 with buffers of two: 1,944,810
// states, holds; levels of up to tens of thousands of states, which workers share.
var benchWHScale = Spec{Topology: "mesh:3x3", Pairs: []Pair{{0, 8}, {8, 0}, {2, 6}, {6, 2}, {1, 7}}, Length: 2, Buffer: 2}

// BenchmarkExploreWHScale is the flit benchmark for two workers against one (run it with
// -cpu 2): the WH benchmarks' searches are too small to share (their levels are narrower
// than the explorer's threshold for sharing one).
func BenchmarkExploreWHScale(b *testing.B) {
	for _, w := range []int{1, 2} {
		for _, st := range []checker.StoreMode{checker.Exact, checker.Fingerprint} {
			b.Run(fmt.Sprintf("w%d/%v", w, st), func(b *testing.B) {
				benchSearch(b, benchWHScale, checker.Options[flit.State]{Workers: w, Store: st})
			})
		}
	}
}

// BenchmarkExploreWHMatrix runs the WH1/WH2 searches with 1 and 2 workers in exact and
// fingerprint store mode.
func BenchmarkExploreWHMatrix(b *testing.B) {
	for _, c := range []struct {
		name string
		sp   Spec
	}{{"WH1", benchWH1}, {"WH2", benchWH2}} {
		for _, w := range []int{1, 2} {
			for _, st := range []checker.StoreMode{checker.Exact, checker.Fingerprint} {
				b.Run(fmt.Sprintf("%s/w%d/%v", c.name, w, st), func(b *testing.B) {
					benchSearch(b, c.sp, checker.Options[flit.State]{Workers: w, Store: st})
				})
			}
		}
	}
}

func benchSearch(b *testing.B, sp Spec, opt checker.Options[flit.State]) {
	m, err := Build(sp)
	if err != nil {
		b.Fatal(err)
	}
	var states int64
	var bps float64
	cpu0 := cpuTime()
	for i := 0; i < b.N; i++ {
		r := SearchWith(m, opt)
		if r.Verdict == checker.Inconclusive {
			b.Fatal(r.Violation)
		}
		states += r.States
		bps = r.BytesPerState
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(states), "ns/state")
	b.ReportMetric(bps, "store-bytes/state")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(states), "cpu-ns/state")
}

// cpuTime returns the process's user+system CPU time in nanoseconds (all threads, the
// garbage collector included): a figure less sensitive than wall time to other load.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// TestConnectedReduction checks the reduction's premise on a small family: a placement
// whose worms split into non-interacting components has exactly the product of their
// state counts, and deadlocks only if a component does.
func TestConnectedReduction(t *testing.T) {
	g, _ := Spec{Topology: "mesh:3x3"}.Grid()
	r := topology.NewDOR(g)
	a, b := []Pair{{0, 2}}, []Pair{{6, 8}, {8, 6}}
	if Connected(r, model.AllPort, append(append([]Pair(nil), a...), b...)) {
		t.Fatal("disjoint rows reported connected")
	}
	if !Connected(r, model.AllPort, []Pair{{0, 2}, {1, 2}}) || Connected(r, model.AllPort, []Pair{{0, 2}, {1, 7}}) {
		t.Fatal("0->2 shares (1,0)->(2,0) with 1->2 and no channel with 1->7")
	}
	count := func(ps []Pair) int64 {
		m, err := BuildOn(g, Spec{Pairs: ps, Length: 2, Buffer: 1})
		if err != nil {
			t.Fatal(err)
		}
		return Search(context.Background(), m, 0, false).States
	}
	if all, x, y := count(append(append([]Pair(nil), a...), b...)), count(a), count(b); all != x*y {
		t.Fatalf("independent worms: %d states, components %d x %d", all, x, y)
	}
}

// naiveSearch is the naive twin of Search: a plain BFS over encodings that counts
// states and reports whether a deadlock is reachable.
func naiveSearch(m *flit.Model) (int64, bool) {
	seen := map[string]bool{}
	queue := m.Init()
	seen[string(m.Encode(queue[0], nil))] = true
	dl := false
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		succ := m.Successors(s, nil)
		if len(succ) == 0 && !m.Terminal(s) {
			dl = true
		}
		for _, tr := range succ {
			k := string(m.Encode(tr.Next, nil))
			if !seen[k] {
				seen[k] = true
				queue = append(queue, tr.Next)
			}
		}
	}
	return int64(len(seen)), dl
}

// TestSearchAgainstNaive compares Search (checker.Explore) with the naive BFS on every
// connected placement of up to 4 worms on torus:4 without dateline classes, where one
// deadlocks.
func TestSearchAgainstNaive(t *testing.T) {
	g, _ := Spec{Topology: "torus:4"}.Grid()
	r := topology.NewDOR(g)
	n, deadlocks := 0, 0
	Placements(AllPairs(4), 4, func(ps []Pair) bool {
		if !Connected(r, model.AllPort, ps) {
			return true
		}
		n++
		m, err := BuildOn(g, Spec{Pairs: ps, Length: 2, Buffer: 1, Dateline: DatelineOff})
		if err != nil {
			t.Fatal(err)
		}
		states, dl := naiveSearch(m)
		r := SearchFull(m, checker.Options[flit.State]{})
		if dl != (r.Verdict == checker.Violated) || !dl && r.States != states {
			t.Fatalf("%s: naive %d states deadlock %v; SearchFull %v %d states", FormatPairs(nil, ps), states, dl, r.Verdict, r.States)
		}
		// The compacted search: the verdict of the full model, the states of the
		// compacted model's naive search.
		cstates, _ := naiveSearch(m.Lean())
		r = Search(context.Background(), m, 0, false)
		if dl != (r.Verdict == checker.Violated) || !dl && r.States != cstates {
			t.Fatalf("%s: naive %d compacted states deadlock %v; Search %v %d states", FormatPairs(nil, ps), cstates, dl, r.Verdict, r.States)
		}
		if dl {
			deadlocks++
		}
		return true
	})
	if deadlocks == 0 {
		t.Fatalf("%d placements, none deadlocks; the ring deadlock is among them", n)
	}
	t.Logf("%d placements, %d deadlock", n, deadlocks)
}

const propsViolated = checker.Violated

// TestAdaptiveTraceReplays: a deadlock found under a built-in adaptive relation is saved
// with the relation's name and replays to the same deadlock.
func TestAdaptiveTraceReplays(t *testing.T) {
	sp, r := adaptiveSquare(t)
	tf := TraceFile(sp, &r)
	back, rp, err := ReplayTrace(tf)
	if err != nil || rp.Violation != r.Violation || back.Routing == nil || back.Routing.Name() != "adaptive" {
		t.Fatalf("replay: %v %+v (want %q), routing %v", err, rp, r.Violation, back.Routing)
	}
}

// TestDorTraceReplays: a deadlock found under dimension order given as a relation
// (routing dor-1vc on a torus: no dateline classes) is saved with its dateline mode,
// so that replay rebuilds the same relation, not dor with dateline classes, and the
// trace replays to the same deadlock.
func TestDorTraceReplays(t *testing.T) {
	for _, name := range []string{"dor-1vc", "dor"} {
		sp, r := searchRelation(t, "torus:4", name, []Pair{{0, 2}, {1, 3}, {2, 0}, {3, 1}})
		if name == "dor" {
			if r.Verdict != checker.Holds {
				t.Fatalf("dor with dateline classes on the ring: %v %s", r.Verdict, r.Violation)
			}
			continue
		}
		if r.Verdict != checker.Violated {
			t.Fatalf("dor-1vc ring: %v %s", r.Verdict, r.Violation)
		}
		tf := TraceFile(sp, &r)
		back, rp, err := ReplayTrace(tf)
		if err != nil || rp.Verdict != checker.Violated || rp.Violation != r.Violation {
			t.Fatalf("replay: %v %+v (want %q)", err, rp, r.Violation)
		}
		if rel2, err := back.Relation(sp.Routing.Grid()); err != nil || rel2.Name() != name || rel2.VCs() != 1 {
			t.Fatalf("replayed relation: %v %v", rel2, err)
		}
	}
}

// TestFamilyWithRelation: a family under an adaptive relation keeps one placement per
// class of the relation's symmetries (the square's 8) and only connected ones (by the
// worms' footprints); the entry's tests check that it deadlocks where DOR does not.
func TestFamilyWithRelation(t *testing.T) {
	g, rel := routingtest.Builtin(t, "mesh:2x2", "adaptive")
	f := Family{MinWorms: 4, MaxWorms: 4, Params: [][2]int{{1, 1}}, Connected: true}
	_, c, err := f.Placements(g, Spec{Ports: model.AllPort, Routing: rel})
	if err != nil {
		t.Fatal(err)
	}
	if c.Enumerated[4] != 495 || c.Canonical[4] != 135 || c.Kept[4] != 31 {
		t.Fatalf("adaptive family: %d placements, %d canonical, %d connected; want 495, 135, 31", c.Enumerated[4], c.Canonical[4], c.Kept[4])
	}
}

// TestFamilySizeGuard checks Enumerated against a count of the enumeration on a small
// grid and that CheckSize refuses all-placements:4 on torus:1024x1024.
func TestFamilySizeGuard(t *testing.T) {
	g, err := topology.Parse("mesh:2x2")
	if err != nil {
		t.Fatal(err)
	}
	f := Family{MaxWorms: 3, MinWorms: 2}
	n := 0
	Placements(AllPairs(g.Nodes()), 3, func(ps []Pair) bool {
		if len(ps) >= 2 {
			n++
		}
		return true
	})
	if got := f.Enumerated(g.Nodes()); got != float64(n) {
		t.Errorf("Enumerated = %v, the enumeration visits %d", got, n)
	}
	if err := f.CheckSize(g); err != nil {
		t.Errorf("a small family refused: %v", err)
	}
	big, err := topology.Parse("torus:1024x1024")
	if err != nil {
		t.Fatal(err)
	}
	if err := (Family{MaxWorms: 4}).CheckSize(big); err == nil || !strings.Contains(err.Error(), "placements") {
		t.Errorf("all-placements:4 on torus:1024x1024: %v", err)
	}
}

// TestWorkersAgreeOnWideLevels checks one worker against two and three on flit searches
// whose levels are wide enough (thousands of states) for the workers to share them:
// owners, batches of encodings (the flit model keeps its frontier as words) and key
// lowering. A deadlocking instance (a torus ring without dateline classes, five worms)
// must give the same trace; a deadlock-free one (four worms on mesh:3x3, 194,481
// states) the same counts, in both stores.
func TestWorkersAgreeOnWideLevels(t *testing.T) {
	for _, c := range []struct {
		sp   Spec
		want checker.Verdict
	}{
		{Spec{Topology: "mesh:3x3", Pairs: []Pair{{0, 8}, {8, 0}, {2, 6}, {6, 2}}, Length: 2, Buffer: 2}, checker.Holds},
		{Spec{Topology: "torus:6", Pairs: []Pair{{0, 3}, {1, 4}, {2, 5}, {3, 0}, {4, 1}}, Length: 4, Buffer: 2, Dateline: DatelineOff}, checker.Violated},
	} {
		m, err := Build(c.sp)
		if err != nil {
			t.Fatal(err)
		}
		var first Result
		for _, store := range []checker.StoreMode{checker.Exact, checker.Fingerprint} {
			for _, w := range []int{1, 2, 3} {
				r := SearchWith(m, checker.Options[flit.State]{Workers: w, Store: store})
				if r.Verdict != c.want {
					t.Fatalf("%s %v workers=%d: %v, want %v", c.sp.Topology, store, w, r.Verdict, c.want)
				}
				if first.States == 0 {
					first = r
					continue
				}
				if r.States != first.States || r.Transitions != first.Transitions || r.Depth != first.Depth ||
					!slices.Equal(r.Actions(), first.Actions()) {
					t.Fatalf("%s %v workers=%d: %d states %d transitions depth %d trace %v; one worker %d %d %d %v",
						c.sp.Topology, store, w, r.States, r.Transitions, r.Depth, r.Actions(), first.States, first.Transitions, first.Depth, first.Actions())
				}
			}
		}
		t.Logf("%s: %v, %d states, depth %d", c.sp.Topology, first.Verdict, first.States, first.Depth)
	}
}

// TestEndpointPairs: on a network with terminals the pairs are the terminals', on a
// grid every node's.
func TestEndpointPairs(t *testing.T) {
	g, err := topology.Parse("fattree:2,2")
	if err != nil {
		t.Fatal(err)
	}
	ps := EndpointPairs(g)
	if len(ps) != 4*3 {
		t.Fatalf("%d pairs; want 12", len(ps))
	}
	for _, p := range ps {
		if !g.Terminal(p.Src) || !g.Terminal(p.Dst) {
			t.Fatalf("pair %v uses a switch", p)
		}
	}
	m, _ := topology.Parse("mesh:3x3")
	if len(EndpointPairs(m)) != 72 {
		t.Errorf("mesh:3x3: %d pairs", len(EndpointPairs(m)))
	}
	if _, err := ParsePairs(g, "s1.0->p00"); err == nil {
		t.Errorf("ParsePairs took a switch as a source")
	}
}

// TestReplayNamesTheImpossibleMove: a trace whose step is not possible in the model it
// names (here step 2 of the adaptive square, swapped for a second taking of the channel
// step 1 took) is refused in the model's words: the message, the channel and who holds
// it, and the moves that are possible, never a raw action number.
func TestReplayNamesTheImpossibleMove(t *testing.T) {
	sp, r := adaptiveSquare(t)
	tf := TraceFile(sp, &r)
	// Step 2: m1's header allocating the VC step 1 gave m0.
	k, _, arg := flit.SplitAction(checker.Action(tf.Actions[0]))
	_, input1, _ := flit.SplitAction(checker.Action(tf.Actions[1]))
	tf.Actions[1] = uint64(flit.MakeAction(k, input1, arg))
	for _, labelled := range []bool{true, false} {
		bad := *tf
		if !labelled {
			bad.Labels = nil
		}
		_, _, err := ReplayTrace(&bad)
		if err == nil {
			t.Fatal("an impossible step replayed")
		}
		msg := err.Error()
		if !strings.Contains(msg, "trace step 2") || !strings.Contains(msg, "held by m") || !strings.Contains(msg, "possible here: m") || strings.Contains(msg, "0x") {
			t.Errorf("labels %v: %s", labelled, msg)
		}
	}
}

// TestReplayRefusesAnInitItDoesNotHave: a trace file's "init" names the initial state its
// actions start from; a unicast model has one, so any other number is refused naming the
// field (replay ignored it and replayed from state 0).
func TestReplayRefusesAnInitItDoesNotHave(t *testing.T) {
	sp, r := adaptiveSquare(t)
	tf := TraceFile(sp, &r)
	if _, res, err := ReplayTrace(tf); err != nil || res.Verdict != checker.Violated {
		t.Fatalf("the saved trace does not replay: %v", err)
	}
	bad := *tf
	bad.Init = 1
	_, _, err := ReplayTrace(&bad)
	if err == nil || !strings.Contains(err.Error(), `"init" is 1`) || !strings.Contains(err.Error(), "one initial state") {
		t.Fatalf("init 1 on a model of one initial state: %v", err)
	}
}

// TestReductionNoteOnAnUndecidedRun: when the state bound stops the reduced search too,
// the note says it stopped undecided, not that it decided.
func TestReductionNoteOnAnUndecidedRun(t *testing.T) {
	m, err := Build(Spec{Topology: "mesh:3x3", Pairs: []Pair{{0, 8}, {8, 0}, {2, 6}, {6, 2}}, Length: 2, Buffer: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, first := range []int64{0, 5} {
		r := SearchReducedFirstPass(m, checker.Options[flit.State]{MaxStates: 20}, first)
		if r.Verdict != checker.Inconclusive {
			t.Fatalf("first pass %d: %v at a 20-state bound", first, r.Verdict)
		}
		if strings.Contains(r.ReductionNote, " decided") || !strings.Contains(r.ReductionNote, "undecided") {
			t.Errorf("first pass %d: note %q on an inconclusive run", first, r.ReductionNote)
		}
	}
}

// adaptiveSquare searches RT2's adaptive square on mesh:2x2 (four worms round the
// square, L = B = 1) and returns its spec and the deadlock found.
func adaptiveSquare(t *testing.T) (Spec, Result) {
	t.Helper()
	sp, r := searchRelation(t, "mesh:2x2", "adaptive", []Pair{{0, 3}, {1, 2}, {3, 0}, {2, 1}})
	if r.Verdict != checker.Violated {
		t.Fatalf("adaptive square: %v %s", r.Verdict, r.Violation)
	}
	return sp, r
}

// searchRelation searches the worms pairs on topo under the built-in relation name,
// L = B = 1, and returns the spec and the result.
func searchRelation(t *testing.T, topo, name string, pairs []Pair) (Spec, Result) {
	t.Helper()
	_, rel := routingtest.Builtin(t, topo, name)
	sp := Spec{Topology: topo, Pairs: pairs, Length: 1, Buffer: 1, Routing: rel}
	m, err := Build(sp)
	if err != nil {
		t.Fatal(err)
	}
	return sp, Search(context.Background(), m, 0, true)
}
