package partition

import (
	"slices"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
)

func torus(t testing.TB, s, u int) *topology.Network {
	t.Helper()
	g, err := topology.NewTorus(s, u)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mesh(t testing.TB, s, u int) *topology.Network {
	t.Helper()
	g, err := topology.NewMesh(s, u)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func names(g *topology.Network, vs []topology.NodeID) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = g.NodeName(v)
	}
	return out
}

// lineSet describes the channels of a subnetwork as the rows (dimension-1 channels at
// x = r) and columns (dimension-0 channels at y = c) they lie on and their directions, so
// a test can state a definition's channel set the way the paper writes it.
func lineSet(g *topology.Network, s Subnetwork) (rows, cols []int, dirs []topology.Direction) {
	for _, c := range s.Channels {
		ch := g.Channel(c)
		if ch.Dim == 1 {
			rows = append(rows, g.Coord(ch.From, 0))
		} else {
			cols = append(cols, g.Coord(ch.From, 1))
		}
		dirs = append(dirs, ch.Dir)
	}
	slices.Sort(rows)
	slices.Sort(cols)
	slices.Sort(dirs)
	return slices.Compact(rows), slices.Compact(cols), slices.Compact(dirs)
}

// TestDefinitionsTorus4x4 checks every definition on the 4x4 torus with h = 2, drawn here
// (A = member of G_0 / G_{0,0}, B = member of G_1 / G_{1,1}, . = no member; rows x go
// down, columns y across; every row and column is a ring of 4 channels each way):
//
//	      y=0 y=1 y=2 y=3
//	x=0    A   .   A   .      Type I: G_0 = rows {0,2} + columns {0,2}
//	x=1    .   B   .   B              G_1 = rows {1,3} + columns {1,3}
//	x=2    A   .   A   .
//	x=3    .   B   .   B
//
// Type II adds G_{0,1} (members (0,1),(0,3),(2,1),(2,3)) and G_{1,0}; Type III with
// delta = 1 has G_0^- with members (0,1),(0,3),(2,1),(2,3) on the negative channels of rows
// {0,2} and columns {1,3}; the DCNs are the four 2x2 blocks.
//
// Reference: 001 Definitions 4-8.
func TestDefinitionsTorus4x4(t *testing.T) {
	g := torus(t, 4, 4)
	type want struct {
		name       string
		members    []string
		rows, cols []int
		dirs       []topology.Direction
		channels   int
	}
	both := []topology.Direction{topology.Plus, topology.Minus}
	plus := []topology.Direction{topology.Plus}
	minus := []topology.Direction{topology.Minus}
	cases := []struct {
		p    Params
		want []want
	}{
		{Params{Type: TypeI, H: 2}, []want{
			{"G0", []string{"(0,0)", "(2,0)", "(0,2)", "(2,2)"}, []int{0, 2}, []int{0, 2}, both, 32},
			{"G1", []string{"(1,1)", "(3,1)", "(1,3)", "(3,3)"}, []int{1, 3}, []int{1, 3}, both, 32},
		}},
		{Params{Type: TypeII, H: 2}, []want{
			{"G0,0", []string{"(0,0)", "(2,0)", "(0,2)", "(2,2)"}, []int{0, 2}, []int{0, 2}, both, 32},
			{"G0,1", []string{"(0,1)", "(2,1)", "(0,3)", "(2,3)"}, []int{0, 2}, []int{1, 3}, both, 32},
			{"G1,0", []string{"(1,0)", "(3,0)", "(1,2)", "(3,2)"}, []int{1, 3}, []int{0, 2}, both, 32},
			{"G1,1", []string{"(1,1)", "(3,1)", "(1,3)", "(3,3)"}, []int{1, 3}, []int{1, 3}, both, 32},
		}},
		{Params{Type: TypeIII, H: 2, Delta: 1}, []want{
			{"G0+", []string{"(0,0)", "(2,0)", "(0,2)", "(2,2)"}, []int{0, 2}, []int{0, 2}, plus, 16},
			{"G1+", []string{"(1,1)", "(3,1)", "(1,3)", "(3,3)"}, []int{1, 3}, []int{1, 3}, plus, 16},
			{"G0-", []string{"(0,1)", "(2,1)", "(0,3)", "(2,3)"}, []int{0, 2}, []int{1, 3}, minus, 16},
			{"G1-", []string{"(1,0)", "(3,0)", "(1,2)", "(3,2)"}, []int{1, 3}, []int{0, 2}, minus, 16},
		}},
		{Params{Type: TypeIV, H: 2}, []want{
			{"G*0,0", []string{"(0,0)", "(2,0)", "(0,2)", "(2,2)"}, []int{0, 2}, []int{0, 2}, plus, 16},
			{"G*0,1", []string{"(0,1)", "(2,1)", "(0,3)", "(2,3)"}, []int{0, 2}, []int{1, 3}, minus, 16},
			{"G*1,0", []string{"(1,0)", "(3,0)", "(1,2)", "(3,2)"}, []int{1, 3}, []int{0, 2}, minus, 16},
			{"G*1,1", []string{"(1,1)", "(3,1)", "(1,3)", "(3,3)"}, []int{1, 3}, []int{1, 3}, plus, 16},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.p.String(), func(t *testing.T) {
			subs, err := DDNs(g, tc.p)
			if err != nil {
				t.Fatal(err)
			}
			if len(subs) != len(tc.want) || len(subs) != tc.p.Count() {
				t.Fatalf("got %d subnetworks, want %d", len(subs), len(tc.want))
			}
			for k, w := range tc.want {
				s := subs[k]
				if s.Name != w.name {
					t.Errorf("subnetwork %d is %s, want %s", k, s.Name, w.name)
				}
				if got := names(g, s.Nodes); !slices.Equal(got, w.members) {
					t.Errorf("%s members %v, want %v", s.Name, got, w.members)
				}
				rows, cols, dirs := lineSet(g, s)
				if !slices.Equal(rows, w.rows) || !slices.Equal(cols, w.cols) || !slices.Equal(dirs, w.dirs) {
					t.Errorf("%s lies on rows %v cols %v dirs %v, want %v %v %v", s.Name, rows, cols, dirs, w.rows, w.cols, w.dirs)
				}
				if len(s.Channels) != w.channels {
					t.Errorf("%s has %d channels, want %d", s.Name, len(s.Channels), w.channels)
				}
			}
		})
	}
	dcns, err := DCNs(g, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(dcns) != 4 || !slices.Equal(names(g, dcns[1].Nodes), []string{"(0,2)", "(1,2)", "(0,3)", "(1,3)"}) {
		t.Fatalf("DCN0,1 = %v", names(g, dcns[1].Nodes))
	}
	// A 2x2 block has 4 undirected links inside it: 8 channels, no wrap-around.
	for _, d := range dcns {
		if len(d.Channels) != 8 {
			t.Errorf("%s has %d channels, want 8", d.Name, len(d.Channels))
		}
	}
}

// TestRelaysNeedNotBeMembers checks Definition 1's first remark on Figure 2's example:
// in the 16x16 torus with h = 4, G_0 holds the links (p_{0,0}, p_{0,1}) and (p_{0,1},
// p_{0,2}) but only p_{0,0} is a member, so p_{0,1} may relay but not inject.
//
// Reference: 001 Definition 1 and Figure 2.
func TestRelaysNeedNotBeMembers(t *testing.T) {
	g := torus(t, 16, 16)
	subs, err := DDNs(g, Params{Type: TypeI, H: 4})
	if err != nil {
		t.Fatal(err)
	}
	g0 := subs[0]
	p00, p01, p02 := g.Node(0, 0), g.Node(0, 1), g.Node(0, 2)
	if !g0.HasChannel(channelBetween(g, p00, p01)) || !g0.HasChannel(channelBetween(g, p01, p02)) {
		t.Fatal("G_0 lacks the links of row 0")
	}
	if !g0.CanInject(p00) || g0.CanInject(p01) || g0.CanInject(p02) {
		t.Fatal("only p_{0,0} may inject into G_0")
	}
	if !slices.Contains(g0.Relays(g), p01) {
		t.Fatal("p_{0,1} should be a relay of G_0")
	}
	if got, want := len(g0.Vertices(g)), 16*4+16*4-16; got != want {
		t.Fatalf("G_0 has %d vertices, want %d (4 rows and 4 columns of 16, crossing at 16 members)", got, want)
	}
}

// TestTable1 checks the levels of Table 1 on the 16x16 torus of §4.4 with h = 2 and 4.
//
// Reference: 001 Lemmas 1-4, Table 1.
func TestTable1(t *testing.T) {
	g := torus(t, 16, 16)
	for _, h := range []int{2, 4} {
		for _, typ := range Types() {
			p := Params{Type: typ, H: h}
			if typ == TypeIII {
				p.Delta = h / 2
			}
			subs, err := DDNs(g, p)
			if err != nil {
				t.Fatal(err)
			}
			l := ComputeLevels(g, subs)
			wantLink := map[Type]int{TypeI: 1, TypeII: h, TypeIII: 1, TypeIV: h / 2}[typ]
			if l.Node != 1 || l.Link != wantLink {
				t.Errorf("%v: node level %d, link level %d; want 1, %d", p, l.Node, l.Link, wantLink)
			}
		}
	}
}

// TestLevelsAgainstPairwise cross-checks the counting of ComputeLevels with the pairwise
// Definition 2: level <= 1 exactly when every pair is contention-free.
func TestLevelsAgainstPairwise(t *testing.T) {
	for _, sz := range [][2]int{{4, 4}, {6, 6}, {4, 8}, {6, 9}} {
		g := torus(t, sz[0], sz[1])
		for h := 1; h <= 6; h++ {
			for _, typ := range Types() {
				for delta := 0; delta < max(h, 1); delta++ {
					p := Params{Type: typ, H: h, Delta: delta}
					subs, err := DDNs(g, p)
					if err != nil {
						continue
					}
					l := ComputeLevels(g, subs)
					nodeFree, linkFree := true, true
					for i := range subs {
						for j := i + 1; j < len(subs); j++ {
							nodeFree = nodeFree && NodeContentionFree(subs[i], subs[j])
							linkFree = linkFree && LinkContentionFree(subs[i], subs[j])
						}
					}
					if (l.Node <= 1) != nodeFree || (l.Link <= 1) != linkFree {
						t.Errorf("%v on %v: levels %d/%d but pairwise free %v/%v", p, g, l.Node, l.Link, nodeFree, linkFree)
					}
					// Naive twin of the counting: ask every subnetwork about every node.
					for v := 0; v < g.Nodes(); v++ {
						n := 0
						for _, s := range subs {
							if s.HasNode(topology.NodeID(v)) {
								n++
							}
						}
						if n != l.NodeCount[v] {
							t.Fatalf("%v: node %d counted %d, naive %d", p, v, l.NodeCount[v], n)
						}
					}
				}
			}
		}
	}
}

// TestLemma4OddH shows Lemma 4 needs an even h: with h = 3 on the 6x6 torus a positive
// link of row 0 lies in G*_{0,0} and G*_{0,2}, level 2 = ceil(3/2), not 3/2.
func TestLemma4OddH(t *testing.T) {
	g := torus(t, 6, 6)
	subs, _ := DDNs(g, Params{Type: TypeIV, H: 3})
	l := ComputeLevels(g, subs)
	if l.Link != 2 {
		t.Fatalf("link level %d, want 2", l.Link)
	}
	ch := g.Channel(l.LinkWitness)
	if ch.Dir != topology.Plus {
		t.Fatalf("witness %s should be a positive link", g.ChannelName(l.LinkWitness))
	}
}

func TestPropertiesHoldOnTorus(t *testing.T) {
	g := torus(t, 8, 8)
	dcns, _ := DCNs(g, 4)
	for _, typ := range Types() {
		p := Params{Type: typ, H: 4}
		if typ == TypeIII {
			p.Delta = 2
		}
		ddns, _ := DDNs(g, p)
		pr := CheckProperties(g, ddns, dcns, IsoOptions{})
		for _, c := range pr.Checks {
			if c.Verdict != checker.Holds {
				t.Errorf("%v: %s %s: %s", p, c.Property, c.Verdict, c.Witness)
			}
		}
	}
}

// TestEachPropertyFindsAViolation breaks each property on purpose and checks that its
// checker notices, with a witness.
func TestEachPropertyFindsAViolation(t *testing.T) {
	g := torus(t, 8, 8)
	ddns, _ := DDNs(g, Params{Type: TypeI, H: 4})
	dcns, _ := DCNs(g, 4)

	// P1: a duplicated DDN doubles the level of its nodes and links only.
	if c := CheckP1(g, append(slices.Clone(ddns), ddns[0], ddns[0]), 1); c.Verdict != checker.Violated {
		t.Errorf("P1 with G_0 three times: %v", c)
	}
	// P2: drop a node from a DCN (cover fails); add it to another (disjoint fails).
	broken := slices.Clone(dcns)
	broken[0] = NewSubnetwork("DCN0,0'", Undirected, dcns[0].Nodes[1:], dcns[0].Channels)
	if c := CheckP2(g, broken); c.Verdict != checker.Violated || c.Witness != "node (0,0) is in no DCN" {
		t.Errorf("P2 uncovered: %+v", c)
	}
	broken[1] = NewSubnetwork("DCN0,1'", Undirected, append(slices.Clone(dcns[1].Nodes), dcns[2].Nodes[0]), nil)
	broken[0] = dcns[0]
	if c := CheckP2(g, broken); c.Verdict != checker.Violated {
		t.Errorf("P2 overlapping: %+v", c)
	}
	// P3: a DDN shrunk to the members of one block misses the other DCNs.
	if c := CheckP3([]Subnetwork{NewSubnetwork("tiny", Undirected, ddns[0].Nodes[:1], nil)}, dcns); c.Verdict != checker.Violated {
		t.Errorf("P3: %+v", c)
	}
	// P4: remove one channel from one DDN.
	cut := slices.Clone(ddns)
	cut[1] = NewSubnetwork("G1'", Undirected, ddns[1].Nodes, ddns[1].Channels[1:])
	if c := CheckIsomorphic("P4", g, cut, IsoOptions{}); c.Verdict != checker.Violated {
		t.Errorf("P4: %+v", c)
	}
	// P5: move a member inside one DCN (same counts, different structure).
	moved := slices.Clone(dcns)
	moved[3] = NewSubnetwork("DCN'", Undirected, dcns[3].Nodes, dcns[3].Channels[2:])
	if c := CheckIsomorphic("P5", g, moved, IsoOptions{}); c.Verdict != checker.Violated {
		t.Errorf("P5: %+v", c)
	}
	// Strong connectivity: a Type III DDN without its column channels has two rows that
	// cannot reach each other.
	d3, _ := DDNs(g, Params{Type: TypeIII, H: 4, Delta: 1})
	var rowsOnly []topology.ChannelID
	for _, c := range d3[0].Channels {
		if g.Channel(c).Dim == 1 {
			rowsOnly = append(rowsOnly, c)
		}
	}
	d3[0] = NewSubnetwork("G0+'", Positive, d3[0].Nodes, rowsOnly)
	if c := CheckConnected("sc", g, d3); c.Verdict != checker.Violated {
		t.Errorf("strong connectivity: %+v", c)
	}
}

// TestDirectedOnMeshNotConnected is §3.2's point: on a mesh the directed types break
// reachability, and the witness names the pair.
func TestDirectedOnMeshNotConnected(t *testing.T) {
	g := mesh(t, 8, 8)
	for _, p := range []Params{{Type: TypeIII, H: 4, Delta: 2}, {Type: TypeIV, H: 2}} {
		subs, err := DDNs(g, p)
		if err != nil {
			t.Fatal(err)
		}
		r := StronglyConnected(g, subs[0])
		if r.Connected {
			t.Fatalf("%v: %s strongly connected on a mesh", p, subs[0].Name)
		}
		// The witness must really be unreachable: a plain BFS over the channels agrees.
		if naiveReach(g, subs[0], r.From)[r.To] {
			t.Fatalf("witness %s -> %s is reachable", g.NodeName(r.From), g.NodeName(r.To))
		}
	}
	for _, p := range []Params{{Type: TypeI, H: 4}, {Type: TypeII, H: 2}} {
		subs, _ := DDNs(g, p)
		for _, s := range subs {
			if r := StronglyConnected(g, s); !r.Connected {
				t.Fatalf("%v: %s not connected on a mesh: %s -> %s", p, s.Name, g.NodeName(r.From), g.NodeName(r.To))
			}
		}
	}
}

// naiveReach is the reachability twin: repeat relaxing every channel until nothing
// changes.
func naiveReach(g *topology.Network, s Subnetwork, from topology.NodeID) []bool {
	seen := make([]bool, g.Nodes())
	seen[from] = true
	for changed := true; changed; {
		changed = false
		for _, c := range s.Channels {
			ch := g.Channel(c)
			if seen[ch.From] && !seen[ch.To] {
				seen[ch.To], changed = true, true
			}
		}
	}
	return seen
}

func TestStronglyConnectedAgainstNaive(t *testing.T) {
	for _, g := range []*topology.Network{torus(t, 6, 6), mesh(t, 6, 6), torus(t, 2, 6), torus(t, 4, 6)} {
		for h := 1; h <= 3; h++ {
			for _, typ := range Types() {
				p := Params{Type: typ, H: h}
				if typ == TypeIII {
					p.Delta = 1
				}
				subs, err := DDNs(g, p)
				if err != nil {
					continue
				}
				for _, s := range subs {
					r := StronglyConnected(g, s)
					all := true
					for _, u := range s.Nodes {
						reach := naiveReach(g, s, u)
						for _, v := range s.Nodes {
							all = all && reach[v]
						}
					}
					if r.Connected != all {
						t.Errorf("%v %v %s: Tarjan says %v, naive %v", g, p, s.Name, r.Connected, all)
					}
				}
			}
		}
	}
}

// TestIsomorphicMeshTypeI shows P4 fails on a mesh for Type I with h = 4: G_0 has a
// member on the mesh corner (in 2, out 2) while G_1 has none; on the torus they are
// translates.
func TestIsomorphicMeshTypeI(t *testing.T) {
	m := mesh(t, 8, 8)
	subs, _ := DDNs(m, Params{Type: TypeI, H: 4})
	r := Isomorphic(m, subs[0], subs[1], IsoOptions{})
	if r.Verdict != checker.Violated {
		t.Fatalf("mesh G_0 vs G_1: %+v", r)
	}
	tor := torus(t, 8, 8)
	subs, _ = DDNs(tor, Params{Type: TypeI, H: 4})
	if r := Isomorphic(tor, subs[0], subs[1], IsoOptions{}); r.Verdict != checker.Holds || r.Via != "symmetry" {
		t.Fatalf("torus G_0 vs G_1: %+v", r)
	}
}

// TestIsomorphicSearch exercises the general search where no grid symmetry applies: a
// subnetwork and a relabelled copy that is not a grid symmetry image (a row path of 3
// against a column path of 3 on a non-square mesh, same shape).
func TestIsomorphicSearch(t *testing.T) {
	g := mesh(t, 5, 7)
	row := NewSubnetwork("row", Undirected, []topology.NodeID{g.Node(1, 1)},
		[]topology.ChannelID{channelBetween(g, g.Node(1, 1), g.Node(1, 2)), channelBetween(g, g.Node(1, 2), g.Node(1, 3))})
	col := NewSubnetwork("col", Undirected, []topology.NodeID{g.Node(2, 4)},
		[]topology.ChannelID{channelBetween(g, g.Node(2, 4), g.Node(3, 4)), channelBetween(g, g.Node(3, 4), g.Node(4, 4))})
	r := Isomorphic(g, row, col, IsoOptions{})
	if r.Verdict != checker.Holds || r.Via != "search" {
		t.Fatalf("row vs col: %+v", r)
	}
	// Same counts and degrees but the member at the other end: not isomorphic.
	colEnd := NewSubnetwork("colEnd", Undirected, []topology.NodeID{g.Node(4, 4)}, col.Channels)
	if r := Isomorphic(g, row, colEnd, IsoOptions{}); r.Verdict != checker.Violated {
		t.Fatalf("row vs colEnd: %+v", r)
	}
}

// TestMeshP4OnlyForSmallH pins a finding about §3.2: on a mesh, Types I and II keep
// P1-P3, P5 and strong connectivity, but their DDNs are isomorphic (P4) only for h <= 2,
// where the mesh's point reflection maps G_i onto G_{h-1-i}; for h >= 3, G_0 has members
// on the mesh border while G_1 has none (different degree sequences). Checked on every
// mesh up to 12 x 12.
func TestMeshP4OnlyForSmallH(t *testing.T) {
	top := 12
	if testing.Short() {
		top = 8
	}
	for s := 2; s <= top; s++ {
		for u := 2; u <= top; u++ {
			g := mesh(t, s, u)
			for h := 1; h <= min(s, u); h++ {
				if s%h != 0 || u%h != 0 {
					continue
				}
				dcns, _ := DCNs(g, h)
				for _, ty := range []Type{TypeI, TypeII} {
					ddns, _ := DDNs(g, Params{Type: ty, H: h})
					for _, c := range CheckProperties(g, ddns, dcns, IsoOptions{}).Checks {
						want := checker.Holds
						if c.Property == "P4" && h >= 3 {
							want = checker.Violated
						}
						if c.Verdict != want {
							t.Errorf("%v Type %v h=%d: %s %s (%s), want %s", g, ty, h, c.Property, c.Verdict, c.Witness, want)
						}
					}
				}
			}
		}
	}
}

// TestIntersectionsAgainstCommon cross-checks the bucketed intersections with the
// pairwise merge.
func TestIntersectionsAgainstCommon(t *testing.T) {
	g := torus(t, 12, 12)
	for _, p := range []Params{{Type: TypeI, H: 3}, {Type: TypeII, H: 2}, {Type: TypeIII, H: 4, Delta: 3}, {Type: TypeIV, H: 6}} {
		ddns, _ := DDNs(g, p)
		dcns, _ := DCNs(g, p.H)
		got := Intersections(ddns, dcns)
		for a := range ddns {
			for b := range dcns {
				if want := Common(ddns[a], dcns[b]); !slices.Equal(got[a][b], want) {
					t.Fatalf("%v %s ∩ %s: %v, want %v", p, ddns[a].Name, dcns[b].Name, got[a][b], want)
				}
			}
		}
	}
}

// TestDefinitionsMesh4x4 draws Definition 4 on the 4x4 mesh with h = 2 (001 §3.2: the
// torus definitions without the wrap-around links), and the directed Definition 6 there:
//
//	      y=0   y=1   y=2   y=3
//	x=0    A --- . --- A --- .        G_0: rows {0,2}, columns {0,2}, 24 channels
//	       |           |              (3 links per line, both ways, 4 lines)
//	x=1    . --- B --- . --- B        G_1: rows {1,3}, columns {1,3}
//	       |     |     |     |
//	x=2    A --- . --- A --- .
//	       |     |     |     |
//	x=3    . --- B --- . --- B
//
// With only positive links (G_0^+), (2,0) cannot get back to (0,0): there is no
// wrap-around.
//
// Reference: 001 Definitions 4 and 6, §3.2.
func TestDefinitionsMesh4x4(t *testing.T) {
	g := mesh(t, 4, 4)
	subs, err := DDNs(g, Params{Type: TypeI, H: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(subs[0].Channels) != 24 || len(subs[1].Channels) != 24 {
		t.Fatalf("channels %d, %d; want 24 each", len(subs[0].Channels), len(subs[1].Channels))
	}
	for _, s := range subs {
		for _, c := range s.Channels {
			if g.Channel(c).Wrap {
				t.Fatalf("%s holds a wrap-around channel on a mesh", s.Name)
			}
		}
		if r := StronglyConnected(g, s); !r.Connected {
			t.Fatalf("%s not strongly connected", s.Name)
		}
	}
	dir, _ := DDNs(g, Params{Type: TypeIII, H: 2, Delta: 1})
	r := StronglyConnected(g, dir[0])
	if r.Connected || g.NodeName(r.From) != "(2,0)" || g.NodeName(r.To) != "(0,0)" {
		t.Fatalf("G_0^+ on the mesh: %+v", r)
	}
	if naiveReach(g, dir[0], r.From)[r.To] {
		t.Fatal("witness reachable")
	}
}

// TestDCNSpanningTheRing: with h equal to a side of the torus a DCN spans that whole
// ring, so the induced links include its wrap-around channels (Definition 8, "all links
// induced by V_{a,b}"): on the 4x8 torus with h = 4, DCN_{0,0} is rows 0..3 x columns
// 0..3 and holds (3,y)->(0,y) and (0,y)->(3,y) for y = 0..3.
func TestDCNSpanningTheRing(t *testing.T) {
	g := torus(t, 4, 8)
	dcns, err := DCNs(g, 4)
	if err != nil {
		t.Fatal(err)
	}
	d := dcns[0]
	wraps := 0
	for _, c := range d.Channels {
		if ch := g.Channel(c); ch.Wrap {
			wraps++
			if ch.Dim != 0 {
				t.Fatalf("wrap channel %s along dimension 1 inside a 4-column block", g.ChannelName(c))
			}
		}
	}
	// 4 columns x 4 links per ring (3 inner + 1 wrap) x 2 directions + 4 rows x 3 links x 2.
	if wraps != 8 || len(d.Channels) != 4*4*2+4*3*2 {
		t.Fatalf("DCN0,0: %d wrap channels of %d; want 8 of %d", wraps, len(d.Channels), 4*4*2+4*3*2)
	}
	if c := CheckP2(g, dcns); c.Verdict != checker.Holds {
		t.Fatal(c)
	}
}
