package decide

import (
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/routing/routingtest"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/cdg"
)

// TestDecideBuiltins pins the exact verdicts and the minimal configurations of the
// relations whose sufficient conditions fail: fully adaptive routing deadlocks with
// four worms round a square on a mesh (Dally & Seitz's cycle, RT2) and with three round
// a hexagon on the 3-cube, unbudgeted non-minimal routing with one worm that loops back
// onto itself, dimension order without
// dateline classes with worms round a ring (WH2), and non-minimal routing with two worms
// on a 2x2 mesh whatever its budget (RT7); the relations a sufficient condition proves
// are answered by it.
func TestDecideBuiltins(t *testing.T) {
	for _, c := range []struct {
		topo, name      string
		want            props.Verdict
		by              Method
		worms, channels int
	}{
		{"mesh:4x4", "west-first", props.Holds, ByCDG, 0, 0},
		{"torus:4x4", "duato", props.Holds, ByDuato, 0, 0},
		{"mesh:4x4", "adaptive", props.Violated, BySearch, 4, 4},
		{"hypercube:3", "adaptive", props.Violated, BySearch, 3, 6},
		{"mesh:4x4", "nonminimal", props.Violated, BySearch, 1, 4},
		{"torus:4x4", "dor-1vc", props.Violated, BySearch, 4, 4},
		{"torus:5x5", "dor-1vc", props.Violated, BySearch, 5, 5},
		{"mesh:2x2", "nonminimal:1", props.Violated, BySearch, 2, 4},
		{"mesh:3x3", "nonminimal", props.Violated, BySearch, 1, 4},
		{"mesh:4x4", "nonminimal:1", props.Violated, BySearch, 2, 2},
	} {
		_, rel := routingtest.Builtin(t, c.topo, c.name)
		d, err := Decide(rel, Options{})
		if err != nil {
			t.Fatalf("%s on %s: %v", c.name, c.topo, err)
		}
		if d.Verdict != c.want || d.By != c.by {
			t.Errorf("%s on %s: %s by %s, want %s by %s", c.name, c.topo, d.Verdict, d.By, c.want, c.by)
			continue
		}
		if c.want != props.Violated {
			continue
		}
		cf := d.Configuration
		if !d.Minimal || len(cf.Worms) != c.worms || cf.Channels != c.channels {
			t.Errorf("%s on %s: %d worms on %d channels (minimal %v), want %d on %d", c.name, c.topo, len(cf.Worms), cf.Channels, d.Minimal, c.worms, c.channels)
		}
		checkConfiguration(t, rel, cf)
	}
}

// checkConfiguration re-checks a configuration against the relation itself: every
// route is legal from its source (each hop one Route permits the header that takes it,
// counting misroutes as the flit model does), the held channels are disjoint, no
// header is at its destination, and every permitted output of every header is held.
func checkConfiguration(t *testing.T, rel routing.Relation, c *Configuration) {
	t.Helper()
	g := rel.Grid()
	held := map[cdg.Vertex]bool{}
	for i, w := range c.Worms {
		h := routing.Header{At: w.Src, In: routing.Input{Channel: routing.Injection}, Src: w.Src, Dst: w.Dst}
		var outs []routing.Output
		for _, v := range w.Route {
			outs = rel.Route(h, outs[:0])
			k := slices.IndexFunc(outs, func(o routing.Output) bool { return o.Channel == v.Channel && o.VC == v.VC })
			if k < 0 {
				t.Fatalf("worm %d: %v is not permitted to %+v", i, v, h)
			}
			if outs[k].Misroute {
				h.Misroutes++
			}
			h.At, h.In = g.Channel(v.Channel).To, routing.Input{Channel: v.Channel, VC: v.VC}
		}
		if h.At == w.Dst {
			t.Fatalf("worm %d: its header is at its destination", i)
		}
		for _, v := range w.HeldVertices() {
			if held[v] {
				t.Fatalf("worm %d: %v is held twice", i, v)
			}
			held[v] = true
		}
		var want []cdg.Vertex
		for _, o := range rel.Route(h, nil) {
			want = append(want, cdg.Vertex{Channel: o.Channel, VC: o.VC})
		}
		got := slices.Clone(w.Waits)
		cmp := func(a, b cdg.Vertex) int { return int(a.Channel)*64 + a.VC - int(b.Channel)*64 - b.VC }
		slices.SortFunc(want, cmp)
		slices.SortFunc(got, cmp)
		if !slices.Equal(want, got) {
			t.Fatalf("worm %d: waits %v, but its header is permitted %v", i, got, want)
		}
	}
	for i, w := range c.Worms {
		for _, v := range w.Waits {
			if !held[v] {
				t.Fatalf("worm %d waits for %v, which nobody holds", i, v)
			}
		}
	}
}

// TestDecideIncoherent decides testdata/last-hop-bypass.json: its dependency graph is
// cyclic and its escape subfunction is not connected (Duato does not apply), yet it
// has no deadlock configuration; the explorer confirms it (props/check's cross-check).
func TestDecideIncoherent(t *testing.T) {
	data, err := os.ReadFile("testdata/last-hop-bypass.json")
	if err != nil {
		t.Fatal(err)
	}
	rel, err := routing.ParseFile(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	d, err := Decide(rel, Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := d.Analysis
	if d.Verdict != props.Holds || d.By != BySearch || a.Acyclic || a.Duato == nil || a.Duato.Connected {
		t.Fatalf("last-hop-bypass: %s by %s; CDG acyclic %v, Duato %+v", d.Verdict, d.By, a.Acyclic, a.Duato)
	}
}

// srcReader is a user's relation that reads Header.Src without saying so (no
// routing.SourceClasser) and claims to be positional: headers from even sources go
// round a square of a 2x2 mesh clockwise, from odd sources anticlockwise, and on
// mesh:3x3 otherwise by dimension order. A search that merged headers of different
// sources would keep the dependencies of one source only.
type srcReader struct{ g *topology.Network }

func (r srcReader) Name() string            { return "src-reader" }
func (r srcReader) Grid() *topology.Network { return r.g }
func (r srcReader) VCs() int                { return 1 }
func (r srcReader) Positional() bool        { return true }
func (r srcReader) Route(h routing.Header, out []routing.Output) []routing.Output {
	dims := []int{0, 1}
	if h.Src%2 == 1 {
		dims = []int{1, 0}
	}
	for _, d := range dims {
		n, dir := r.g.Offset(h.At, h.Dst, d)
		if n != 0 {
			c, _ := r.g.Neighbor(h.At, d, dir)
			return append(out, routing.Output{Channel: c})
		}
	}
	return out
}

// TestUntrustedRelationKeepsSources checks that a relation from outside model/routing
// is searched per source: its dependency graph has the turns of both dimension orders
// (the union is cyclic on a mesh), and the exact decision finds their deadlock.
func TestUntrustedRelationKeepsSources(t *testing.T) {
	g, _ := topology.Parse("mesh:3x3")
	rel := srcReader{g}
	gr, err := cdg.Dependencies(rel)
	if err != nil {
		t.Fatal(err)
	}
	// Count the dependencies by brute force: every (src, dst) route, hop by hop.
	want := map[[2]topology.ChannelID]bool{}
	for s := 0; s < g.Nodes(); s++ {
		for d := 0; d < g.Nodes(); d++ {
			if s == d {
				continue
			}
			h := routing.Header{At: topology.NodeID(s), In: routing.Input{Channel: routing.Injection}, Src: topology.NodeID(s), Dst: topology.NodeID(d)}
			prev := topology.ChannelID(-1)
			for h.At != h.Dst {
				o := rel.Route(h, nil)[0]
				if prev >= 0 {
					want[[2]topology.ChannelID{prev, o.Channel}] = true
				}
				prev = o.Channel
				h.At, h.In = g.Channel(o.Channel).To, routing.Input{Channel: o.Channel}
			}
		}
	}
	if len(gr.Edges()) != len(want) {
		t.Errorf("src-reader: %d dependencies, brute force %d", len(gr.Edges()), len(want))
	}
	d, err := Decide(rel, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.Verdict != props.Violated {
		t.Fatalf("src-reader: %s (%s)", d.Verdict, d.Reason())
	}
	checkConfiguration(t, rel, d.Configuration)
}

// TestDecideBound checks that a search bound gives inconclusive, never a verdict.
func TestDecideBound(t *testing.T) {
	g, _ := topology.Parse("torus:4x4")
	rel, _ := routing.ByName(g, "adaptive")
	if d, err := Decide(rel, Options{MaxNodes: 3, NoScout: true}); err != nil || d.Verdict != props.Inconclusive || d.Bound == "" {
		t.Errorf("node bound: %v %+v", err, d)
	}
	// With the scout, the configuration it found is the answer whatever bounds the
	// search after it; minimal only where fewer worms were ruled out (by the worm
	// bounds, within the three nodes).
	if d, err := Decide(rel, Options{MaxNodes: 3}); err != nil || d.Verdict != props.Violated || d.Minimal && d.WormsRuledOut != len(d.Configuration.Worms)-1 {
		t.Errorf("node bound after the scout: %v %+v", err, d)
	} else {
		checkConfiguration(t, rel, d.Configuration)
	}
	if d, err := Decide(rel, Options{MaxStates: 10, NoScout: true}); err != nil || d.Verdict != props.Inconclusive || d.Bound == "" {
		t.Errorf("state bound: %v %+v", err, d)
	}
	// The ring scout builds its configuration without the header states: the state
	// bound then only stops the search for smaller ones.
	if d, err := Decide(rel, Options{MaxStates: 10}); err != nil || d.Verdict != props.Violated || !d.Ring || !d.FoundFirst || d.Minimal {
		t.Errorf("state bound after the ring scout: %v %+v", err, d)
	} else {
		checkConfiguration(t, rel, d.Configuration)
	}
	// A context that ends: before the analysis, or after the search has looked at it a
	// number of times (a deadline passing mid-search, counted instead of timed).
	g6, _ := topology.Parse("hypercube:6")
	slow, _ := routing.ByName(g6, "nonminimal")
	for _, c := range []struct {
		rel   routing.Relation
		after int
		skip  bool
	}{{rel, 0, false}, {slow, 0, true}, {slow, 120, true}} {
		ctx := &countdown{Context: t.Context(), left: c.after}
		d, err := Decide(c.rel, Options{Context: ctx, SkipSufficient: c.skip})
		if err != nil || d.Verdict != props.Inconclusive || !strings.Contains(d.Bound, "stopped: the countdown ended") {
			t.Errorf("a context ended after %d looks: %v %+v", c.after, err, d)
		}
		if c.after > 0 && d.Nodes == 0 {
			t.Errorf("a context ended after %d looks: the search did not start (%+v)", c.after, d)
		}
	}
}

// countdown is a context that ends after its Err has been asked left times.
type countdown struct {
	context.Context
	left int
}

func (c *countdown) Err() error {
	if c.left--; c.left < 0 {
		return errCountdown
	}
	return nil
}

var errCountdown = errors.New("the countdown ended")

// TestUntrustedRelationTooLarge checks that a user's relation on a network too large
// to search per source is refused with a one-line error, not searched with merged
// sources.
func TestUntrustedRelationTooLarge(t *testing.T) {
	g, _ := topology.Parse("mesh:64x64")
	if _, err := cdg.Analyze(srcReader{g}, cdg.Options{}); err == nil || !strings.Contains(err.Error(), "one class per source") {
		t.Errorf("src-reader on mesh:64x64: %v", err)
	}
}

// TestDecideFewestWormsFirst pins the order of minimal configurations, fewest worms and
// then fewest channels, on an instance where fewest channels first gives another:
// adaptive routing on the 3-cube deadlocks with 4 worms round a square (4 channels) and
// with 3 worms round a hexagon (6 channels, 2 each); the search by channels alone finds
// the square.
func TestDecideFewestWormsFirst(t *testing.T) {
	for _, c := range []struct {
		topo, name               string
		worms, channels          int
		byChannels, byChannelsOf int // the fewest channels, and the worms holding them
	}{
		{"hypercube:3", "adaptive", 3, 6, 4, 4},
	} {
		_, rel := routingtest.Builtin(t, c.topo, c.name)
		d, err := Decide(rel, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if cf := d.Configuration; cf == nil || !d.Minimal || len(cf.Worms) != c.worms || cf.Channels != c.channels {
			t.Errorf("%s on %s: %+v (minimal %v), want %d worms on %d channels", c.name, c.topo, cf, d.Minimal, c.worms, c.channels)
		}
		sp, err := buildSpace(t.Context(), rel, 1<<20, nil)
		if err != nil {
			t.Fatal(err)
		}
		alive, header := sp.survivors()
		f := newFinder(sp, alive, header, 1<<20)
		f.lasso, f.adj = sp.lassos(alive, nil)
		for ch := 1; ch < c.byChannels; ch++ {
			if f.run(sp.vertices(), ch) {
				t.Fatalf("%s on %s: a configuration of %d channels", c.name, c.topo, ch)
			}
		}
		if !f.run(sp.vertices(), c.byChannels) {
			t.Fatalf("%s on %s: no configuration of %d channels", c.name, c.topo, c.byChannels)
		}
		cf := sp.configuration(f.found)
		checkConfiguration(t, rel, cf)
		for k := 1; k < c.byChannelsOf; k++ {
			if f.run(k, c.byChannels) {
				t.Errorf("%s on %s: %d channels held by %d worms", c.name, c.topo, c.byChannels, k)
			}
		}
		if len(cf.Worms) < c.byChannelsOf {
			t.Errorf("%s on %s: by channels %d worms, want %d", c.name, c.topo, len(cf.Worms), c.byChannelsOf)
		}
	}
}

// TestDecideRefused checks the search past configurations the caller refuses (as
// ProveRelation refuses one the flit model does not reach from the empty network): the
// decision goes on to the next configuration in its order, and when it refuses every
// one it finds, the answer is inconclusive at the bound of refusals, never holds.
func TestDecideRefused(t *testing.T) {
	g, _ := topology.Parse("mesh:4x4")
	rel, _ := routing.ByName(g, "adaptive")
	var seen []string
	first := func(c *Configuration) bool {
		seen = append(seen, c.key())
		return len(seen) > 1
	}
	d, err := Decide(rel, Options{Accept: first})
	if err != nil || d.Verdict != props.Violated || d.Refused != 1 || len(seen) < 2 || d.Configuration.key() == seen[0] || d.Configuration.key() != seen[len(seen)-1] {
		t.Fatalf("refusing the first: %v %s refused %d, %d asked", err, d.Verdict, d.Refused, len(seen))
	}
	checkConfiguration(t, rel, d.Configuration)
	if len(d.Configuration.Worms) != 4 || d.Configuration.Channels != 4 || !d.Minimal {
		t.Errorf("the next configuration: %d worms on %d channels, minimal %v; want another square", len(d.Configuration.Worms), d.Configuration.Channels, d.Minimal)
	}
	asked := 0
	none := func(*Configuration) bool { asked++; return false }
	d, err = Decide(rel, Options{Accept: none, MaxRefused: 3})
	if err != nil || d.Verdict != props.Inconclusive || asked != 3 || !strings.Contains(d.Bound, "reached none") {
		t.Errorf("refusing all: %v %s after %d (%s)", err, d.Verdict, asked, d.Bound)
	}
	// A small space whose configurations are all refused: exhausted, still not holds.
	g2, _ := topology.Parse("mesh:2x2")
	small, _ := routing.ByName(g2, "adaptive")
	asked = 0
	d, err = Decide(small, Options{Accept: none, MaxRefused: 1 << 20, SkipSufficient: true})
	if err != nil || d.Verdict != props.Inconclusive || asked == 0 || !strings.Contains(d.Bound, "found no other") {
		t.Errorf("refusing every configuration of adaptive on mesh:2x2: %v %s after %d (%s)", err, d.Verdict, asked, d.Bound)
	}
	t.Logf("adaptive on mesh:2x2: %d configurations refused before the search ran out", asked)
}

// TestWormBoundsSound checks the worm bounds against configurations the search finds
// without them: every vertex a configuration holds is bounded by at most its worms
// (the bound is a lower bound), and with no cycle of segments there is no bound.
func TestWormBoundsSound(t *testing.T) {
	for _, c := range []struct{ topo, name string }{
		{"mesh:4x4", "adaptive"}, {"hypercube:3", "adaptive"}, {"torus:5x5", "dor-1vc"},
		{"mesh:3x3", "nonminimal"}, {"mesh:4x4", "nonminimal:1"}, {"torus:4x4", "adaptive"},
	} {
		g, _ := topology.Parse(c.topo)
		rel, _ := routing.ByName(g, c.name)
		sp, err := buildSpace(t.Context(), rel, 1<<20, nil)
		if err != nil {
			t.Fatal(err)
		}
		alive, header := sp.survivors()
		bounds := sp.wormBounds(alive, header, boundCycles)
		f := newFinder(sp, alive, header, 1<<22)
		f.lasso, f.adj = sp.lassos(alive, nil)
		found := 0
		for ch := 1; ch <= 8 && found < 3; ch++ {
			for k := 1; k <= ch && found < 3; k++ {
				if !f.run(k, ch) {
					continue
				}
				found++
				for _, w := range f.found {
					for _, v := range w.path {
						if int(bounds[v]) > len(f.found) {
							t.Errorf("%s on %s: vertex %d held by a configuration of %d worms is bounded by %d", c.name, c.topo, v, len(f.found), bounds[v])
						}
					}
				}
			}
		}
		if found == 0 {
			t.Errorf("%s on %s: no configuration to check the bounds against", c.name, c.topo)
		}
	}
}

// TestCycleBoundsSound checks least(k) (cycleBounds) against the fewest channels of a
// configuration of at most k worms, found by the search without it: the bound is never
// above them, and in the cases marked tight it equals them, so a bound one higher
// would drop a configuration (three worms round a ring of six on torus:6x6, round a
// hexagon on the 3-cube; five worms round a ring of five with dor-1vc; four round a
// square with adaptive on a mesh); and it equals its naive twin (naiveLeast).
func TestCycleBoundsSound(t *testing.T) {
	for _, c := range []struct {
		topo, name string
		tight      []int // the k at which least(k) is the fewest channels
	}{
		{"torus:6x6", "adaptive", []int{3, 4, 5}}, {"hypercube:3", "adaptive", []int{3, 4, 5}},
		{"torus:5x5", "dor-1vc", []int{5}}, {"mesh:4x4", "adaptive", []int{4, 5}},
		{"torus:4x4", "adaptive", []int{3, 4, 5}}, {"torus:5x5", "adaptive", []int{4, 5}},
		{"mesh:3x3", "nonminimal", []int{1}}, {"mesh:4x4", "nonminimal:1", []int{2, 3, 4, 5}},
	} {
		g, _ := topology.Parse(c.topo)
		rel, _ := routing.ByName(g, c.name)
		sp, err := buildSpace(t.Context(), rel, 1<<20, nil)
		if err != nil {
			t.Fatal(err)
		}
		alive, header := sp.survivors()
		cb := newCycleBounds(sp, alive, header)
		f := newFinder(sp, alive, header, 1<<22)
		f.lasso, f.adj = sp.lassos(alive, nil)
		f.bounds = sp.wormBounds(alive, header, boundCycles)
		// With the automorphisms: segments mapped from the orbits' representatives,
		// cycles found from them only; the same bounds.
		sym := newCycleBounds(sp, alive, header)
		sym.sym = sp.symmetry()
		if wb, ws := sp.wormBounds(alive, header, boundCycles), sp.wormBoundsOf(alive, header, boundCycles, sym); !slices.Equal(wb, ws) {
			t.Errorf("%s on %s: worm bounds %v, from the symmetric segments %v", c.name, c.topo, wb, ws)
		}
		// The least cycle of any number of arcs has at most 12 here.
		if la, l12, ls := cb.leastAny(), naiveLeast(cb, 12), sym.leastAny(); la != l12 || ls != l12 {
			t.Errorf("%s on %s: the least segment cycle is %d (%d from orbit representatives), the naive twin's up to 12 arcs %d", c.name, c.topo, la, ls, l12)
		}
		var tight []int
		for k := 1; k <= 5; k++ {
			least := cb.bound(k)
			if naive := naiveLeast(cb, k); least != naive {
				t.Errorf("%s on %s: least(%d) = %d, the naive twin %d", c.name, c.topo, k, least, naive)
			}
			if s := sym.bound(k); s != least {
				t.Errorf("%s on %s: least(%d) = %d, from orbit representatives %d", c.name, c.topo, k, least, s)
			}
			for ch := 1; ch <= 8; ch++ {
				if !f.run(k, ch) {
					if f.stopped {
						t.Fatalf("%s on %s: the search stopped at %d worms, %d channels", c.name, c.topo, k, ch)
					}
					continue
				}
				if int(least) > ch {
					t.Errorf("%s on %s: a configuration of %d worms on %d channels, but least(%d) = %d", c.name, c.topo, len(f.found), ch, k, least)
				}
				if int(least) == ch {
					tight = append(tight, k)
				}
				break
			}
		}
		if !slices.Equal(tight, c.tight) {
			t.Errorf("%s on %s: least(k) is the fewest channels at k = %v, want %v", c.name, c.topo, tight, c.tight)
		}
	}
	// Unbudgeted non-minimal routing on torus:6x6: the segments from the first vertex
	// run through most of the space, the lengths stop there, and there is no bound.
	g, _ := topology.Parse("torus:6x6")
	rel, _ := routing.ByName(g, "nonminimal")
	sp, err := buildSpace(t.Context(), rel, 1<<20, nil)
	if err != nil {
		t.Fatal(err)
	}
	alive, header := sp.survivors()
	cb := newCycleBounds(sp, alive, header)
	if b := cb.bound(1); b != 1 || cb.tgt != nil || cb.work > int64(sp.states()+len(sp.arcTo)) {
		t.Errorf("nonminimal on torus:6x6: least(1) = %d after %d steps (a space of %d states and arcs), want 1 at the first vertex", b, cb.work, sp.states()+len(sp.arcTo))
	}
}

// TestDecideTorusRing pins the minimal configurations of minimal adaptive routing on
// tori and the 6-cube, proved within a bound of search nodes: three worms round a ring
// (a worm crosses at most half of it, so a ring of n >= 6 takes three), or four round
// a square when a ring takes more (torus:5x5); on the 6-cube three round a hexagon.
// The cycle bounds let the deepening for three worms start at the ring's length
// (without them torus:8x8 and torus:12x12 spent the share of the fewest-worms order
// refuting three worms on fewer channels, and printed four worms on four channels,
// not proved minimal).
func TestDecideTorusRing(t *testing.T) {
	for _, c := range []struct {
		topo, name      string
		worms, channels int
		nodes           int64 // a bound on the search nodes (about twice those used)
	}{
		{"torus:5x5", "adaptive", 4, 4, 10_000},
		{"torus:6x6", "adaptive", 3, 6, 40_000},
		{"torus:8x8", "adaptive", 3, 8, 40_000},
		{"torus:8x8", "shortest-path", 3, 8, 40_000},
		{"torus:12x12", "adaptive", 3, 12, 140_000},
		{"hypercube:6", "adaptive", 3, 6, 80_000},
	} {
		g, _ := topology.Parse(c.topo)
		rel, _ := routing.ByName(g, c.name)
		d, err := Decide(rel, Options{})
		if err != nil {
			t.Fatal(err)
		}
		cf := d.Configuration
		if d.Verdict != props.Violated || !d.Minimal || len(cf.Worms) != c.worms || cf.Channels != c.channels {
			t.Fatalf("%s on %s: %s, %+v (minimal %v, %s), want %d worms on %d channels, minimal", c.name, c.topo, d.Verdict, cf, d.Minimal, d.NotMinimal, c.worms, c.channels)
		}
		if d.Nodes > c.nodes {
			t.Errorf("%s on %s: %d search nodes, want at most %d", c.name, c.topo, d.Nodes, c.nodes)
		}
		checkConfiguration(t, rel, cf)
		t.Logf("%s on %s: %d worms on %d channels, minimal, %d search nodes", c.name, c.topo, len(cf.Worms), cf.Channels, d.Nodes)
	}
}

// naiveLeast is cycleBounds.bound's twin: from every vertex, the least lengths of
// walks of 1, ..., k arcs through any vertices (no least-vertex order, no dropping),
// and the least of those that end where they started.
func naiveLeast(cb *cycleBounds, k int) int32 {
	nv := cb.sp.vertices()
	best := noCycle
	for u := range nv {
		cur := make([]int32, nv)
		for i := range cur {
			cur[i] = noCycle
		}
		for i, w := range cb.tgt[u] {
			cur[w] = cb.wt[u][i]
		}
		for j := 1; j <= k; j++ {
			best = min(best, cur[u])
			next := make([]int32, nv)
			for i := range next {
				next[i] = noCycle
			}
			for y, d := range cur {
				for i, x := range cb.tgt[y] {
					if d < noCycle {
						next[x] = min(next[x], d+cb.wt[y][i])
					}
				}
			}
			cur = next
		}
	}
	return best
}

func mustGrid(t testing.TB, spec string) *topology.Network {
	t.Helper()
	g, err := topology.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// TestMarginBefore: the search for configurations smaller than the scout's stops 2 s
// before a distant deadline and a tenth of the time left before a near one, never
// after it.
func TestMarginBefore(t *testing.T) {
	for _, c := range []struct{ left, want time.Duration }{
		{60 * time.Second, 2 * time.Second}, {20 * time.Second, 2 * time.Second},
		{time.Second, 100 * time.Millisecond}, {0, 0}, {-time.Second, 0},
	} {
		if got := marginBefore(c.left); got != c.want {
			t.Errorf("marginBefore(%v) = %v, want %v", c.left, got, c.want)
		}
	}
}
