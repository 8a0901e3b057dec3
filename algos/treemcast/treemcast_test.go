package treemcast

import (
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

func grid(t testing.TB, spec string) *topology.Network {
	t.Helper()
	g, err := topology.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// fig3 is a Fig. 3 deadlock the family search finds on a 3x2 mesh (TM1 finds a smaller one
// on mesh:2x2 once destination orders vary):
// A = (0,0) -> (0,1), (2,1) and B = (1,0) -> (2,0), (0,1), 1-flit buffers.
const fig3 = "(0,0)->(0,1),(2,1);(1,0)->(2,0),(0,1)"

func TestParseMsgs(t *testing.T) {
	g := grid(t, "mesh:3x3")
	good := []string{"(0,0)->(2,0),(2,2);(2,2)->(0,2),(0,0)", " (1,1) -> (0,0) ", "(0,0)->(1,0),(2,0),(2,1)"}
	for _, s := range good {
		ms, err := ParseMsgs(g, s)
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		if back := FormatMsgs(g, ms); back != strings.ReplaceAll(s, " ", "") {
			t.Errorf("%q formats back as %q", s, back)
		}
	}
	bad := map[string]string{
		"":                   "empty",
		"(0,0)":              "no \"->\"",
		"(0,0)->":            "does not start with a node",
		"(0,0)->(3,0)":       "must be 0..2",
		"(0,0)->(0,0)":       "is its source",
		"(0,0)->(1,0),(1,0)": "twice",
		"(0,0)->(1,0)(2,0)":  "unexpected",
		"(0,0,0)->(1,0)":     "3 coordinates",
		"(0,0->(1,0)":        "no closing",
		"(0,0)x->(1,0)":      "trailing",
		"(a,0)->(1,0)":       "coordinate 1",
		"(0,0)->(1,0;":       "no closing",
	}
	for s, want := range bad {
		if _, err := ParseMsgs(g, s); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v; want one containing %q", s, err, want)
		}
	}
}

func FuzzParseMsgs(f *testing.F) {
	f.Add(fig3)
	f.Add("(0,0)->(2,0),(2,2);(2,2)->(0,2),(0,0)")
	g, _ := topology.Parse("mesh:3x3")
	f.Fuzz(func(t *testing.T, s string) {
		ms, err := ParseMsgs(g, s)
		if err != nil {
			return
		}
		again, err := ParseMsgs(g, FormatMsgs(g, ms))
		if err != nil || FormatMsgs(g, again) != FormatMsgs(g, ms) {
			t.Fatalf("%q does not round-trip: %v", s, err)
		}
	})
}

func TestFamilyCounts(t *testing.T) {
	cases := []struct {
		spec     string
		k        int
		orders   bool
		plain    int
		symmetry int
	}{
		// 9 sources, 8 single destinations: 72 multicasts, 72*73/2 pairs.
		{"mesh:3x3", 1, false, 2628, 693},
	}
	for _, c := range cases {
		g := grid(t, c.spec)
		plain := Family{Grid: g, K: c.k, Orders: c.orders}.Members()
		sym := Family{Grid: g, K: c.k, Orders: c.orders, Symmetry: true}.Members()
		if len(plain) != c.plain || len(sym) != c.symmetry {
			t.Errorf("%s K=%d: %d and %d members; want %d and %d", c.spec, c.k, len(plain), len(sym), c.plain, c.symmetry)
		}
	}
	// Orbits partition the unreduced family, whatever the grid.
	for _, spec := range []string{"mesh:2x2", "mesh:3x2", "mesh:3x3", "torus:3x3"} {
		for _, orders := range []bool{false, true} {
			g := grid(t, spec)
			k := 2
			if g.Nodes() > 6 {
				k = 1
			}
			f := Family{Grid: g, K: k, Orders: orders}
			plain := f.Members()
			f.Symmetry = true
			sum := 0
			for i, m := range f.Members() {
				if m.Index != i {
					t.Fatalf("%s: member %d has index %d", spec, i, m.Index)
				}
				sum += m.Orbit
			}
			if sum != len(plain) {
				t.Errorf("%s orders=%v: orbits cover %d pairs; the family has %d", spec, orders, sum, len(plain))
			}
		}
	}
}

// Reference: 000 Fig. 3 and §3: without pruning two multicasts deadlock; the §4 router's
// trigger (prune when a header finds no free output) does not resolve this one, because
// the stopped header is one hop past the branching node; pruning wherever a message is
// stopped (Lemma 1's "cannot advance", §3 "pruning is also performed at those nodes")
// does.
func TestFig3Policies(t *testing.T) {
	g := grid(t, "mesh:3x2")
	msgs, err := ParseMsgs(g, fig3)
	if err != nil {
		t.Fatal(err)
	}
	want := map[flit.Prune]checker.Verdict{
		flit.PruneNone: checker.Violated, flit.PruneOnNoFree: checker.Violated,
		flit.PruneOnStop: checker.Holds, flit.PrunePartial: checker.Holds,
	}
	for _, pr := range []flit.Prune{flit.PruneNone, flit.PruneOnNoFree, flit.PruneOnStop, flit.PrunePartial} {
		p := DefaultParams()
		p.Buffer, p.Prune = 1, pr
		in := Instance{Grid: g, Msgs: msgs, Params: p}
		res, m, err := Check(in, CheckOptions{Prop: checker.PropExactlyOnce})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != want[pr] {
			t.Fatalf("%v: %v; want %v", pr, res.Verdict, want[pr])
		}
		if res.Violation != nil {
			if res.Violation.Kind != checker.KindDeadlock || res.Violation.Trace.Len() != 10 {
				t.Fatalf("%v: %s after %d steps; want a 10-step deadlock", pr, res.Violation.Kind, res.Violation.Trace.Len())
			}
			tf := TraceFile(in, m, checker.PropDeadlock, res.Violation)
			if _, err := checker.Replay[flit.State](m, tf.Init, actions(tf)); err != nil {
				t.Fatal(err)
			}
			rp, err := Replay(tf)
			if err != nil || rp.Violation != tf.Violation || !strings.HasPrefix(rp.Violation, "deadlock: ") {
				t.Fatalf("replay: %v; violation %q, recorded %q", err, rp.Violation, tf.Violation)
			}
		}
	}
}

func actions(tf *tracefile.File) []checker.Action {
	var out []checker.Action
	for _, a := range tf.Actions {
		out = append(out, checker.Action(a))
	}
	return out
}

// TestInvariantsFail feeds the TM3 twin invariants states that break them.
func TestInvariantsFail(t *testing.T) {
	g := grid(t, "mesh:3x2")
	msgs, _ := ParseMsgs(g, fig3)
	in := Instance{Grid: g, Msgs: msgs, Params: DefaultParams()}
	m, err := in.Model()
	if err != nil {
		t.Fatal(err)
	}
	inv := Invariants(in, m)
	s := m.Init()[0]
	for _, iv := range inv {
		if err := iv.Check(s); err != nil {
			t.Fatalf("%s fails on the initial state: %v", iv.Name, err)
		}
	}
	// m0 holding (1,0)->(1,1): off every XY path of m0 (X first: it turns north at x=2).
	off := g.ChannelOut(g.Node(1, 0), 1, topology.Plus)
	bad := m.Init()[0]
	bad.VCs[off].Owner = 0
	if err := inv[0].Check(bad); err == nil || !strings.Contains(err.Error(), "off the XY paths") {
		t.Errorf("xy-branch: %v", err)
	}
	// An address flit for (0,1) on m0's branch towards (2,1).
	east := g.ChannelOut(g.Node(0, 0), 0, topology.Plus)
	bad = m.Init()[0]
	bad.VCs[east].Owner = 0
	bad.VCs[east].Flits = m.Table().MakeBytes([]uint8{0})
	if err := inv[0].Check(bad); err == nil || !strings.Contains(err.Error(), "off its XY path") {
		t.Errorf("xy-branch address: %v", err)
	}
	// Data delivered twice.
	bad = m.Init()[0]
	bad.Msgs[1].Got = m.Table().MakeBytes([]uint8{3, 0})
	if err := inv[1].Check(bad); err == nil || !strings.Contains(err.Error(), "received 3 flits") {
		t.Errorf("delivered-once: %v", err)
	}
	// Every message done but a destination short.
	bad = m.Init()[0]
	for i := range bad.Msgs {
		bad.Msgs[i].Done = true
		bad.Msgs[i].Got = m.Table().MakeBytes([]uint8{2, 1})
	}
	if err := inv[1].Check(bad); err == nil || !strings.Contains(err.Error(), "every message is done") {
		t.Errorf("delivered-once at the end: %v", err)
	}
}

func TestParseShard(t *testing.T) {
	for _, bad := range []string{"", "1", "2/2", "-1/3", "a/b", "0/0"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("ParseShard(%q) accepted it", bad)
		}
	}
}

func BenchmarkFig3Deadlock(b *testing.B) {
	g := grid(b, "mesh:3x2")
	msgs, _ := ParseMsgs(g, fig3)
	p := DefaultParams()
	p.Buffer, p.Prune = 1, flit.PruneOnStop
	in := Instance{Grid: g, Msgs: msgs, Params: p}
	var states int64
	for i := 0; i < b.N; i++ {
		res, _, err := Check(in, CheckOptions{Prop: checker.PropExactlyOnce})
		if err != nil {
			b.Fatal(err)
		}
		states += res.Stats.States
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
}

// BenchmarkFamilyMembers enumerates pairs:2 on mesh:3x3 with symmetry reduction.
func BenchmarkFamilyMembers(b *testing.B) {
	g := grid(b, "mesh:3x3")
	for i := 0; i < b.N; i++ {
		if n := len((Family{Grid: g, K: 2, Symmetry: true}).Members()); n != 13367 {
			b.Fatalf("%d members", n)
		}
	}
}
