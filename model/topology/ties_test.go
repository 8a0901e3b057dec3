package topology

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// nodes turns a channel path into the nodes it visits, for readable expectations.
func nodes(g *Network, src NodeID, p []ChannelID) string {
	var b strings.Builder
	b.WriteString(g.NodeName(src))
	for _, c := range p {
		b.WriteString(" ")
		b.WriteString(g.NodeName(g.Channel(c).To))
	}
	return b.String()
}

// TestPathTiesTable: which dimensions tie, and the paths PathTies takes for each choice.
func TestPathTiesTable(t *testing.T) {
	cases := []struct {
		spec     string
		src, dst []int
		ties     TieDirs
		want     string
		tied     []bool
	}{
		// 4x4: (0,0) -> (2,2) ties in both dimensions.
		{"torus:4x4", []int{0, 0}, []int{2, 2}, 0, "(0,0) (1,0) (2,0) (2,1) (2,2)", []bool{true, true}},
		{"torus:4x4", []int{0, 0}, []int{2, 2}, TiesMinus(0), "(0,0) (3,0) (2,0) (2,1) (2,2)", []bool{true, true}},
		{"torus:4x4", []int{0, 0}, []int{2, 2}, TiesMinus(1), "(0,0) (1,0) (2,0) (2,3) (2,2)", []bool{true, true}},
		{"torus:4x4", []int{0, 0}, []int{2, 2}, TiesMinus(0, 1), "(0,0) (3,0) (2,0) (2,3) (2,2)", []bool{true, true}},
		// Only dimension 0 ties; a Minus bit on dimension 1 has no effect.
		{"torus:8x8", []int{1, 1}, []int{5, 2}, TiesMinus(0, 1), "(1,1) (0,1) (7,1) (6,1) (5,1) (5,2)", []bool{true, false}},
		{"torus:8x8", []int{1, 1}, []int{5, 2}, TiesMinus(1), "(1,1) (2,1) (3,1) (4,1) (5,1) (5,2)", []bool{true, false}},
		// Odd rings never tie.
		{"torus:5x5", []int{0, 0}, []int{3, 2}, TiesMinus(0, 1), "(0,0) (4,0) (3,0) (3,1) (3,2)", []bool{false, false}},
		// Meshes and size-2 dimensions have no wrap-around, so no ties.
		{"mesh:4x4", []int{0, 0}, []int{2, 2}, TiesMinus(0, 1), "(0,0) (1,0) (2,0) (2,1) (2,2)", []bool{false, false}},
		{"torus:2x4", []int{0, 0}, []int{1, 2}, TiesMinus(0, 1), "(0,0) (1,0) (1,3) (1,2)", []bool{false, true}},
	}
	for _, c := range cases {
		g := mustGrid(t, c.spec)
		r := NewDOR(g)
		src, dst := g.Node(c.src...), g.Node(c.dst...)
		p := r.PathTies(src, dst, c.ties)
		if got := nodes(g, src, p); got != c.want {
			t.Errorf("%s %v->%v ties %b: %s, want %s", c.spec, c.src, c.dst, c.ties, got, c.want)
		}
		for d, want := range c.tied {
			if g.Tied(src, dst, d) != want {
				t.Errorf("%s %v->%v: Tied(%d) = %v", c.spec, c.src, c.dst, d, !want)
			}
		}
		if len(p) != g.Distance(src, dst) {
			t.Errorf("%s %v->%v ties %b: %d hops, distance %d", c.spec, c.src, c.dst, c.ties, len(p), g.Distance(src, dst))
		}
		got, err := r.IsDORPathTies(src, dst, p)
		if err != nil {
			t.Errorf("%s: IsDORPathTies refuses PathTies: %v", c.spec, err)
		}
		if !slices.Equal(r.PathTies(src, dst, got), p) {
			t.Errorf("%s: inferred ties %b do not reproduce the path", c.spec, got)
		}
		strictOK := r.IsDORPath(src, dst, p) == nil
		if strictOK != slices.Equal(p, r.Path(src, dst)) {
			t.Errorf("%s: strict check says %v for %s", c.spec, strictOK, c.want)
		}
	}
	if TiesMinus(3).Dir(3) != Minus || TiesMinus(3).Dir(2) != Plus || TieDirs(0).Dir(40) != Plus {
		t.Error("TieDirs.Dir")
	}
}

// TestTiedPathRefusals: each path check refuses a bad path, naming the hop; the strict
// check refuses the Minus tie that the tie-aware check accepts.
func TestTiedPathRefusals(t *testing.T) {
	g := mustGrid(t, "torus:4x4")
	r := NewDOR(g)
	src, dst := g.Node(0, 0), g.Node(2, 1)
	minus := r.PathTies(src, dst, TiesMinus(0)) // (0,0) (3,0) (2,0) (2,1)
	if err := r.IsDORPath(src, dst, minus); err == nil || !strings.Contains(err.Error(), "hop 1") {
		t.Errorf("strict check on a Minus tie: %v", err)
	}
	// y before x: a minimal path, but not dimension-ordered.
	yx := []ChannelID{g.ChannelOut(src, 1, Plus), g.ChannelOut(g.Node(0, 1), 0, Plus), g.ChannelOut(g.Node(1, 1), 0, Plus)}
	// The Minus tie in x, then the long way round in y (three hops instead of one).
	detour := append(slices.Clone(minus[:2]), g.ChannelOut(g.Node(2, 0), 1, Minus), g.ChannelOut(g.Node(2, 3), 1, Minus), g.ChannelOut(g.Node(2, 2), 1, Minus))
	// Mixed direction in one tied dimension: +x then -x is a walk back, not a path.
	mixed := []ChannelID{g.ChannelOut(src, 0, Plus), g.ChannelOut(g.Node(1, 0), 0, Minus)}
	bad := []struct {
		name string
		p    []ChannelID
		want string
	}{
		{"not dimension-ordered", yx, "hop 1"},
		{"longer way in an untied dimension", detour, "hop 3"},
		{"turns back", mixed, "hop 2"},
		{"unknown channel", []ChannelID{ChannelID(g.Channels())}, "does not exist"},
		{"negative channel", []ChannelID{-1}, "does not exist"},
		{"too short", minus[:2], "has 2 channels"},
		{"too long", append(slices.Clone(minus), g.ChannelOut(dst, 0, Plus)), "has 4 channels"},
	}
	for _, b := range bad {
		if _, err := r.IsDORPathTies(src, dst, b.p); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: IsDORPathTies says %v, want %q", b.name, err, b.want)
		}
	}
}

// TestCheckWalk: explicit paths are any simple walk of existing channels.
func TestCheckWalk(t *testing.T) {
	g := mustGrid(t, "torus:4x4")
	src, dst := g.Node(0, 0), g.Node(1, 0)
	// The long way round: three Minus hops in x.
	long := []ChannelID{g.ChannelOut(src, 0, Minus), g.ChannelOut(g.Node(3, 0), 0, Minus), g.ChannelOut(g.Node(2, 0), 0, Minus)}
	if err := g.CheckWalk(src, dst, long); err != nil {
		t.Errorf("long way round refused: %v", err)
	}
	// Around a square and on: y+, x+, y-, visits (0,0)->(0,1)->(1,1)->(1,0).
	square := []ChannelID{g.ChannelOut(src, 1, Plus), g.ChannelOut(g.Node(0, 1), 0, Plus), g.ChannelOut(g.Node(1, 1), 1, Minus)}
	if err := g.CheckWalk(src, dst, square); err != nil {
		t.Errorf("detour refused: %v", err)
	}
	// Revisiting a node without reusing a channel is a walk: (0,0)->(1,0)->(2,0)->(2,1)->(1,1)->(1,0)
	revisit := []ChannelID{g.ChannelOut(src, 0, Plus), g.ChannelOut(g.Node(1, 0), 0, Plus), g.ChannelOut(g.Node(2, 0), 1, Plus),
		g.ChannelOut(g.Node(2, 1), 0, Minus), g.ChannelOut(g.Node(1, 1), 1, Minus)}
	if err := g.CheckWalk(src, dst, revisit); err != nil {
		t.Errorf("node revisit refused: %v", err)
	}
	plus := g.ChannelOut(src, 0, Plus)
	back := g.ChannelOut(dst, 0, Minus)
	bad := []struct {
		name string
		p    []ChannelID
		want string
	}{
		{"empty", nil, "empty"},
		{"unknown channel", []ChannelID{ChannelID(g.Channels())}, "does not exist"},
		{"disconnected", []ChannelID{g.ChannelOut(g.Node(2, 2), 0, Plus)}, "does not start at (0,0)"},
		{"wrong end", long[:2], "ends at (2,0)"},
		{"repeated channel", []ChannelID{plus, back, plus}, "hops 1 and 3 both use (0,0)->(1,0)"},
	}
	for _, b := range bad {
		if err := g.CheckWalk(src, dst, b.p); err == nil || !strings.Contains(err.Error(), b.want) {
			t.Errorf("%s: CheckWalk says %v, want %q", b.name, err, b.want)
		}
	}
	if err := g.CheckWalk(src, src, nil); err != nil {
		t.Errorf("empty walk to itself: %v", err)
	}
}

// TestPathHopsDateline: the dateline classes follow the direction a tie takes, and
// WrapAheadClasses too.
func TestPathHopsDateline(t *testing.T) {
	g := mustGrid(t, "torus:4x4")
	r := NewDOR(g)
	src, dst := g.Node(1, 0), g.Node(3, 2)
	// Ties in both dimensions. Minus in x: (1,0) (0,0) (3,0) crosses the wrap on hop 2.
	// Plus in y: (3,0) (3,1) (3,2), no wrap.
	h := r.HopsTies(src, dst, TiesMinus(0))
	wantClass := []uint8{0, 1, 0, 0}
	if len(h) != 4 || !g.Channel(h[1].Channel).Wrap || g.Channel(h[1].Channel).Dir != Minus {
		t.Fatalf("hops %v", h)
	}
	for i, w := range wantClass {
		if h[i].Class != w {
			t.Errorf("hop %d class %d, want %d", i+1, h[i].Class, w)
		}
	}
	// Plus in x never wraps: (1,0) (2,0) (3,0).
	for _, hp := range r.HopsTies(src, dst, 0) {
		if hp.Class != 0 {
			t.Errorf("Plus tie: class %d on %s", hp.Class, g.ChannelName(hp.Channel))
		}
	}
	p := r.PathTies(src, dst, TiesMinus(0))
	if !slices.Equal(r.PathHops(p), h) {
		t.Errorf("PathHops %v != HopsTies %v", r.PathHops(p), h)
	}
	// Wrap-ahead (004 Fig. 2): class 1 while the wrap is still ahead in this dimension.
	if got := g.WrapAheadClasses(p); !slices.Equal(got, []uint8{1, 1, 0, 0}) {
		t.Errorf("wrap-ahead classes %v, want [1 1 0 0]", got)
	}
	if got := g.WrapAheadClasses(r.PathTies(src, dst, 0)); !slices.Equal(got, []uint8{0, 0, 0, 0}) {
		t.Errorf("wrap-ahead classes of the Plus tie %v", got)
	}
	// Without dateline classes every hop is class 0.
	r.Dateline = false
	for _, hp := range r.PathHops(p) {
		if hp.Class != 0 {
			t.Error("class without dateline")
		}
	}
}

// TestTiesProperty is a gopter property over random tori, node pairs and tie choices:
// PathTies is minimal and dimension-ordered, IsDORPathTies accepts it and infers the
// choice (restricted to tied dimensions), PathHops agrees with HopsTies; and on random
// walks, IsDORPathTies accepts exactly the walks that equal PathTies for some choice
// (naive twin: try all 2^n choices).
func TestTiesProperty(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(7)
	params.MinSuccessfulTests = 400
	props := gopter.NewProperties(params)
	build := func(sizes []int) *Network {
		g, err := NewTorus(sizes...)
		if err != nil {
			return nil
		}
		return g
	}
	accepted := 0
	sizesGen := gen.SliceOfN(3, gen.IntRange(2, 8)).SuchThat(func(s []int) bool { return len(s) > 0 })
	props.Property("PathTies minimal, accepted, classes right", prop.ForAll(
		func(sizes []int, a, b uint32, ties uint8, reverse bool) bool {
			g := build(sizes)
			if g == nil {
				return false
			}
			r := NewDOR(g)
			if reverse {
				r.Order = DescendingOrder(g.Dims())
			}
			src, dst := NodeID(int(a)%g.Nodes()), NodeID(int(b)%g.Nodes())
			tt := TieDirs(ties)
			p := r.PathTies(src, dst, tt)
			if len(p) != g.Distance(src, dst) {
				return false
			}
			inferred, err := r.IsDORPathTies(src, dst, p)
			if err != nil {
				return false
			}
			var mask TieDirs
			for d := 0; d < g.Dims(); d++ {
				if g.Tied(src, dst, d) {
					mask |= 1 << uint(d)
				}
			}
			if inferred != tt&mask {
				return false
			}
			return slices.Equal(r.PathHops(p), r.HopsTies(src, dst, tt)) &&
				slices.Equal(r.PathHops(r.Path(src, dst)), r.Hops(src, dst)) &&
				(r.IsDORPath(src, dst, p) == nil) == (tt&mask == 0)
		},
		sizesGen, gen.UInt32(), gen.UInt32(), gen.UInt8(), gen.Bool(),
	))
	props.Property("IsDORPathTies = naive twin on random walks", prop.ForAll(
		func(sizes []int, a uint32, steps []uint8, ordered bool) bool {
			g := build(sizes)
			if g == nil {
				return false
			}
			if ordered { // dimension-ordered walks, one direction per dimension: often DOR paths
				steps = slices.Clone(steps)
				for i := range steps {
					steps[i] = steps[i]&^1 | steps[0]&1
				}
				slices.SortFunc(steps, func(x, y uint8) int { return int(x/2)%g.Dims() - int(y/2)%g.Dims() })
			}
			r := NewDOR(g)
			src := NodeID(int(a) % g.Nodes())
			cur := src
			var walk []ChannelID
			for _, s := range steps {
				d, dir := int(s/2)%g.Dims(), Direction(s%2)
				c, next := g.Neighbor(cur, d, dir)
				if c == None {
					continue
				}
				walk = append(walk, c)
				cur = next
			}
			if cur == src {
				return true
			}
			want := false
			for tt := TieDirs(0); tt < 1<<uint(g.Dims()); tt++ {
				if slices.Equal(r.PathTies(src, cur, tt), walk) {
					want = true
				}
			}
			_, err := r.IsDORPathTies(src, cur, walk)
			if want {
				accepted++
			}
			return (err == nil) == want && (g.CheckWalk(src, cur, walk) == nil) == !hasRepeat(walk)
		},
		sizesGen, gen.UInt32(), gen.SliceOfN(6, gen.UInt8Range(0, 5)), gen.Bool(),
	))
	props.TestingRun(t)
	if accepted < 20 {
		t.Errorf("only %d random walks were tie-DOR paths; the property is too weak", accepted)
	}
}

func hasRepeat(p []ChannelID) bool {
	for i := range p {
		if slices.Contains(p[i+1:], p[i]) {
			return true
		}
	}
	return false
}

func BenchmarkPathTies(b *testing.B) {
	g, _ := NewTorus(64, 64)
	r := NewDOR(g)
	var buf []ChannelID
	for i := 0; i < b.N; i++ {
		buf = r.AppendPathTies(buf[:0], NodeID(i%g.Nodes()), NodeID((i*7919)%g.Nodes()), TiesMinus(0))
	}
}

func BenchmarkIsDORPathTies(b *testing.B) {
	g, _ := NewTorus(64, 64)
	r := NewDOR(g)
	src, dst := g.Node(0, 0), g.Node(32, 32)
	p := r.PathTies(src, dst, TiesMinus(0))
	for i := 0; i < b.N; i++ {
		if _, err := r.IsDORPathTies(src, dst, p); err != nil {
			b.Fatal(err)
		}
	}
}

// ExampleDOR_PathTies routes (0,0) -> (2,1) on a 4x4 torus: x ties (2 = k/2), so the path
// may go either way round in x; both are minimal and dimension-ordered.
func ExampleDOR_PathTies() {
	g, _ := NewTorus(4, 4)
	r := NewDOR(g)
	src, dst := g.Node(0, 0), g.Node(2, 1)
	for _, t := range []TieDirs{0, TiesMinus(0)} {
		p := r.PathTies(src, dst, t)
		inferred, err := r.IsDORPathTies(src, dst, p)
		fmt.Println(nodes(g, src, p), "strict:", r.IsDORPath(src, dst, p) == nil, "ties either:", err == nil, inferred == t)
	}
	// Output:
	// (0,0) (1,0) (2,0) (2,1) strict: true ties either: true true
	// (0,0) (3,0) (2,0) (2,1) strict: false ties either: true true
}
