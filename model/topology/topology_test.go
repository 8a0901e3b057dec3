package topology

import (
	"math"
	"runtime"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/topology/topologytest"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

func mustGrid(t testing.TB, spec string) *Network {
	t.Helper()
	g, err := Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestGridChannelCounts(t *testing.T) {
	cases := []struct {
		spec     string
		nodes    int
		channels int
	}{
		{"mesh:3x3", 9, 24},    // 2 * 2 * 3 * (3-1)
		{"torus:4x4", 16, 64},  // every node has 4 out-channels
		{"torus:4", 4, 8},      // a ring
		{"torus:2x4", 8, 24},   // size 2 has only the Plus channel
		{"hypercube:3", 8, 24}, // n * 2^n
		{"mesh:2x3x4", 24, 2 * (1*3*4 + 2*2*4 + 3*2*3)},
	}
	for _, c := range cases {
		g := mustGrid(t, c.spec)
		if g.Nodes() != c.nodes || g.Channels() != c.channels {
			t.Errorf("%s: %d nodes %d channels, want %d and %d", c.spec, g.Nodes(), g.Channels(), c.nodes, c.channels)
		}
		if g.Spec() != c.spec {
			t.Errorf("spec %q round-trips as %q", c.spec, g.Spec())
		}
		for id := 0; id < g.Channels(); id++ {
			ch := g.Channel(ChannelID(id))
			if g.ChannelOut(ch.From, ch.Dim, ch.Dir) != ChannelID(id) {
				t.Fatalf("%s: channel %d not found from its source", c.spec, id)
			}
		}
	}
}

func TestBadSpecsAreRefusedWithOneLine(t *testing.T) {
	bad := map[string]string{
		"torus:0x4":           "dimension 1 has size 0",
		"mesh:abc":            "not a whole number",
		"torus:100000x100000": "dimension 1 has size 100000",
		"banyan:12":           "not a power of two",
		"":                    "empty",
		"mesh:":               "no sizes",
		"ring:4":              "unknown kind",
		"hypercube:40":        "out of range",
		"torus:1024x1024x4":   "more than",
		"mesh:4x-1":           "not a whole number",
	}
	for spec, want := range bad {
		_, err := parse(spec)
		if err == nil {
			t.Errorf("%q accepted", spec)
			continue
		}
		if !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %q, want one line containing %q", spec, err, want)
		}
	}
}

func TestTorusTieGoesPlusAndDateline(t *testing.T) {
	g := mustGrid(t, "torus:4")
	r := NewDOR(g)
	hops := r.Hops(1, 3) // distance 2 = k/2: goes Plus 1->2->3
	if len(hops) != 2 || g.Channel(hops[0].Channel).Dir != Plus {
		t.Fatalf("tie route %v", hops)
	}
	hops = r.Hops(3, 1) // also a tie: Plus 3->0->1 crossing the dateline
	if len(hops) != 2 || !g.Channel(hops[0].Channel).Wrap || hops[0].Class != 1 || hops[1].Class != 1 {
		t.Fatalf("wrapping route %v", hops)
	}
	hops = r.Hops(2, 0) // tie, Plus: 2->3 (class 0) then 3->0 (wrap, class 1)
	if hops[0].Class != 0 || hops[1].Class != 1 {
		t.Fatalf("dateline classes %v", hops)
	}
}

// TestDORPathsAreMinimalAndDimensionOrdered is a gopter property over random grids and
// node pairs: the DOR path is connected, has length Distance (minimal), and visits the
// dimensions in the routing order.
func TestDORPathsAreMinimalAndDimensionOrdered(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(1)
	params.MinSuccessfulTests = 400
	props := gopter.NewProperties(params)
	props.Property("DOR path minimal and ordered", prop.ForAll(
		func(kind int, sizes []int, a, b uint32, reverse bool) bool {
			var g *Network
			var err error
			if kind == 0 {
				g, err = NewMesh(sizes...)
			} else {
				g, err = NewTorus(sizes...)
			}
			if err != nil {
				return false
			}
			src, dst := NodeID(int(a)%g.Nodes()), NodeID(int(b)%g.Nodes())
			r := NewDOR(g)
			if reverse {
				r.Order = DescendingOrder(g.Dims())
			}
			p := r.Path(src, dst)
			if len(p) != g.Distance(src, dst) {
				return false
			}
			// minimality: no shorter path exists on the grid (per-dimension lower bound)
			lb := 0
			for d := 0; d < g.Dims(); d++ {
				delta := g.Coord(dst, d) - g.Coord(src, d)
				if delta < 0 {
					delta = -delta
				}
				if g.Kind() == Torus && g.Size(d)-delta < delta {
					delta = g.Size(d) - delta
				}
				lb += delta
			}
			if len(p) != lb {
				return false
			}
			cur, rank := src, 0
			pos := make([]int, g.Dims())
			for i, d := range r.Order {
				pos[d] = i
			}
			for _, c := range p {
				ch := g.Channel(c)
				if ch.From != cur || pos[ch.Dim] < rank {
					return false
				}
				rank, cur = pos[ch.Dim], ch.To
			}
			return cur == dst && r.IsDORPath(src, dst, p) == nil
		},
		gen.IntRange(0, 1),
		gen.SliceOfN(3, gen.IntRange(2, 9)).SuchThat(func(s []int) bool { return len(s) > 0 }),
		gen.UInt32(), gen.UInt32(), gen.Bool(),
	))
	props.TestingRun(t)
}

func TestBanyanUnicastReachesDestination(t *testing.T) {
	for _, n := range []int{2, 4, 8, 16, 64} {
		b, err := NewBanyan(n)
		if err != nil {
			t.Fatal(err)
		}
		for s := 0; s < n; s++ {
			for d := 0; d < n; d++ {
				p := b.Route(s, d)
				st, y := b.Link(p[len(p)-1])
				if st != -1 || y != d || len(p) != b.Stages()+1 {
					t.Fatalf("N=%d %d->%d ends at stage %d link %d", n, s, d, st, y)
				}
			}
		}
	}
}

func TestBanyanChannelsAreDense(t *testing.T) {
	b, _ := NewBanyan(16)
	seen := map[ChannelID]bool{}
	for s := b.Stages() - 1; s >= 0; s-- {
		for a := 0; a < b.Nodes(); a++ {
			c := b.InputLink(s, a)
			st, l := b.Link(c)
			if st != s || l != a || seen[c] {
				t.Fatalf("link %d/%d -> %d -> %d/%d", s, a, c, st, l)
			}
			seen[c] = true
		}
	}
	for y := 0; y < b.Nodes(); y++ {
		seen[b.OutputLink(y)] = true
	}
	if len(seen) != b.Channels() {
		t.Fatalf("%d channels named, want %d", len(seen), b.Channels())
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{"mesh:8x8", "torus:8x8x8", "hypercube:6", "banyan:16", "torus:0x4", "mesh:abc", "", "torus:100000x100000", "banyan:12", "mesh:2x2x2x2x2x2x2x2x2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		if fuzzNodes(spec) > fuzzMaxNodes {
			return // seconds per input; the size limits have their own tests
		}
		top, err := parse(spec)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		if top.Nodes() < 2 || top.Nodes() > MaxNodes {
			t.Fatalf("%q: %d nodes", spec, top.Nodes())
		}
		again, err := parse(top.Spec())
		if err != nil || again.Spec() != top.Spec() {
			t.Fatalf("%q: canonical spec %q does not round-trip", spec, top.Spec())
		}
	})
}

// fuzzMaxNodes and fuzzNodes bound the networks the fuzz targets build
// (topologytest.NodesBound).
const fuzzMaxNodes = topologytest.FuzzMaxNodes

func fuzzNodes(spec string) float64 { return topologytest.NodesBound(spec) }

// FuzzParseHuge reaches the size paths FuzzParse skips. A mesh, torus or hypercube spec
// of more than MaxNodes nodes (counted from its numbers, exactly for these kinds) is
// refused in one line before anything is built: the refusal allocates less than 64 KiB
// (a count, not a clock, so the bound holds on any machine), and GridBytes says it has no
// size. On every such spec small enough to build, GridBytes — which counts without
// building, for the memory budgets — gives the nodes and channels Parse builds, and
// refuses what Parse refuses.
func FuzzParseHuge(f *testing.F) {
	for _, s := range []string{"torus:100000x100000", "hypercube:40", "mesh:4096x4096", "torus:1025x1024", "mesh:2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2",
		"torus:3x5", "mesh:7", "hypercube:9", "torus:2x2x3", "mesh:4x4/faults=0-1", "torus:99999999999999999999x2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		kind, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(spec)), ":")
		if kind != "mesh" && kind != "torus" && kind != "hypercube" {
			return
		}
		n := fuzzNodes(spec)
		switch {
		case n <= fuzzMaxNodes:
			_, nodes, channels, ok := GridBytes(spec)
			g, err := Parse(spec)
			if ok != (err == nil && !strings.Contains(spec, FaultsSep)) {
				t.Fatalf("%q: GridBytes ok=%v, Parse error %v", spec, ok, err)
			}
			if ok && (int64(g.Nodes()) != nodes || int64(g.Channels()) != channels) {
				t.Fatalf("%q: GridBytes %d nodes, %d channels; Parse built %d, %d", spec, nodes, channels, g.Nodes(), g.Channels())
			}
		case n > MaxNodes:
			var err error
			d := allocated(func() { _, err = Parse(spec) })
			if err == nil || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%q (%g nodes): Parse error %v; want a one-line refusal", spec, n, err)
			}
			if d > 64<<10 {
				t.Fatalf("%q (%g nodes): the refusal allocated %d bytes", spec, n, d)
			}
			if _, _, _, ok := GridBytes(spec); ok {
				t.Fatalf("%q (%g nodes): GridBytes counts a network Parse refuses", spec, n)
			}
		}
		// Between the two: a valid network of up to a million nodes, a second to build.
	})
}

// allocated returns the bytes f allocates: the least of three runs, so that another
// goroutine's allocation during one run does not count.
func allocated(f func()) uint64 {
	least := uint64(math.MaxUint64)
	for range 3 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}
