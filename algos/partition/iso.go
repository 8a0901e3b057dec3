package partition

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
)

// IsoOptions bound the general isomorphism search that runs when no symmetry of the
// grid maps one subnetwork onto the other.
type IsoOptions struct {
	// MaxVertices is the largest vertex count the backtracking search takes on
	// (default 256); larger pairs that the grid symmetries and the invariants cannot
	// decide are inconclusive.
	MaxVertices int
	// MaxSteps bounds the backtracking search's extension steps (default 1e6).
	MaxSteps int
	// NoSymmetry skips the grid-symmetry candidates, so that the general search decides
	// alone (tests use it as the naive twin of the symmetry path).
	NoSymmetry bool
	// Context, when not nil, ends CheckIsomorphic between pairs once it is done: the
	// check is then inconclusive (a signal or a time limit, not a bound of the search).
	Context context.Context
}

func (o IsoOptions) withDefaults() IsoOptions {
	if o.MaxVertices == 0 {
		o.MaxVertices = 256
	}
	if o.MaxSteps == 0 {
		o.MaxSteps = 1_000_000
	}
	return o
}

// IsoResult is the answer of Isomorphic. Verdict is Holds when an isomorphism was found
// (Map sends each vertex of a, in a.Vertices order, to its image among b's vertices),
// Violated when an invariant differs (Reason names it) and Inconclusive when the search
// bound was reached. Via says how it was decided: "symmetry" (a translation, reflection
// or rotation of the grid), "invariant", "refinement" or "search".
type IsoResult struct {
	Verdict checker.Verdict
	Via     string
	Reason  string
	Map     []topology.NodeID
}

// Isomorphic decides whether subnetworks a and b of grid g are isomorphic as subnetworks:
// whether a bijection between their vertex sets (members plus channel ends) maps members
// onto members and channels onto channels, direction included. It tries, in order: cheap
// invariants (vertex, member and channel counts, the multiset of (member, in-degree,
// out-degree)); every symmetry of the grid (on a torus the translations composed with
// the reflections of each axis and, on a square grid, the transposition; on a mesh the
// reflections and transposition only), anchored so that a's lowest member maps onto each
// member of b; colour refinement (1-dimensional Weisfeiler-Leman on both graphs at once,
// whose differing colour histograms prove non-isomorphism); and last a VF2-style
// backtracking search with refined colours as candidates, bounded by opt.
//
// Reference: 001 §2.3 properties P4 and P5 ("are isomorphic").
func Isomorphic(g *topology.Network, a, b Subnetwork, opt IsoOptions) IsoResult {
	opt = opt.withDefaults()
	da, db := a.digraph(g), b.digraph(g)
	if r, ok := invariants(da, db, len(a.Channels), len(b.Channels)); !ok {
		return IsoResult{Verdict: checker.Violated, Via: "invariant", Reason: r}
	}
	if opt.NoSymmetry {
		// fall through to refinement and search
	} else if m := symmetryMap(g, a, b); m != nil {
		return IsoResult{Verdict: checker.Holds, Via: "symmetry", Map: m}
	}
	ca, cb, classes := refine(da, db)
	if r, ok := sameHistogram(ca, cb, classes); !ok {
		return IsoResult{Verdict: checker.Violated, Via: "refinement", Reason: r}
	}
	if len(da.verts) > opt.MaxVertices {
		return IsoResult{Verdict: checker.Inconclusive, Via: "search",
			Reason: fmt.Sprintf("%d vertices exceed the search bound %d and no grid symmetry maps %s onto %s", len(da.verts), opt.MaxVertices, a.Name, b.Name)}
	}
	m, verdict := vf2(da, db, ca, cb, opt.MaxSteps)
	switch verdict {
	case checker.Holds:
		out := make([]topology.NodeID, len(m))
		for i, j := range m {
			out[i] = db.verts[j]
		}
		return IsoResult{Verdict: checker.Holds, Via: "search", Map: out}
	case checker.Violated:
		return IsoResult{Verdict: checker.Violated, Via: "search", Reason: "exhaustive search found no isomorphism"}
	}
	return IsoResult{Verdict: checker.Inconclusive, Via: "search", Reason: fmt.Sprintf("search bound of %d steps reached", opt.MaxSteps)}
}

func invariants(da, db *digraph, ca, cb int) (string, bool) {
	if len(da.verts) != len(db.verts) {
		return fmt.Sprintf("%d vertices against %d", len(da.verts), len(db.verts)), false
	}
	if ca != cb {
		return fmt.Sprintf("%d channels against %d", ca, cb), false
	}
	count := func(d *digraph) int {
		n := 0
		for _, m := range d.member {
			if m {
				n++
			}
		}
		return n
	}
	if x, y := count(da), count(db); x != y {
		return fmt.Sprintf("%d member nodes against %d", x, y), false
	}
	sig := func(d *digraph) []int {
		out := make([]int, len(d.verts))
		for i := range d.verts {
			m := 0
			if d.member[i] {
				m = 1
			}
			out[i] = m<<20 | len(d.in[i])<<10 | len(d.out[i])
		}
		slices.Sort(out)
		return out
	}
	sa, sb := sig(da), sig(db)
	for i := range sa {
		if sa[i] != sb[i] {
			return fmt.Sprintf("degree sequences differ: (member, in, out) %s against %s", degName(sa[i]), degName(sb[i])), false
		}
	}
	return "", true
}

func degName(x int) string {
	return fmt.Sprintf("(%v, %d, %d)", x>>20 == 1, (x>>10)&1023, x&1023)
}

// symmetryMap tries the symmetries of the grid that send a's lowest member onto some
// member of b, and returns the vertex map of the first that maps a onto b.
func symmetryMap(g *topology.Network, a, b Subnetwork) []topology.NodeID {
	if g.Dims() != 2 || len(a.Nodes) == 0 {
		return nil
	}
	s, t := g.Size(0), g.Size(1)
	torus := g.Kind() == topology.Torus
	type lin struct{ swap, fx, fy bool }
	var lins []lin
	for _, swap := range []bool{false, true} {
		if swap && s != t {
			continue
		}
		for _, fx := range []bool{false, true} {
			for _, fy := range []bool{false, true} {
				lins = append(lins, lin{swap, fx, fy})
			}
		}
	}
	v0 := a.Nodes[0]
	verts := a.Vertices(g)
	for _, L := range lins {
		apply := func(v topology.NodeID, dx, dy int) topology.NodeID {
			x, y := g.Coord(v, 0), g.Coord(v, 1)
			if L.fx {
				x = s - 1 - x
			}
			if L.fy {
				y = t - 1 - y
			}
			if L.swap {
				x, y = y, x
			}
			return g.Node(x+dx, y+dy)
		}
		var targets []topology.NodeID
		if torus {
			targets = b.Nodes
		} else {
			targets = []topology.NodeID{apply(v0, 0, 0)}
		}
		for _, w := range targets {
			img := apply(v0, 0, 0)
			dx := g.Coord(w, 0) - g.Coord(img, 0)
			dy := g.Coord(w, 1) - g.Coord(img, 1)
			nodeOK := func(v topology.NodeID) bool { return b.HasNode(apply(v, dx, dy)) }
			chanOK := func(c topology.ChannelID) bool {
				ch := g.Channel(c)
				ic := channelBetween(g, apply(ch.From, dx, dy), apply(ch.To, dx, dy))
				return ic != topology.None && b.HasChannel(ic)
			}
			// A few members and channels first: a wrong candidate almost always fails
			// there, which keeps the search near O(|V_b|) per linear part.
			if !allOf(a.Nodes[:min(4, len(a.Nodes))], nodeOK) || !allOf(a.Channels[:min(4, len(a.Channels))], chanOK) ||
				!allOf(a.Nodes, nodeOK) || !allOf(a.Channels, chanOK) {
				continue
			}
			m := make([]topology.NodeID, len(verts))
			for i, v := range verts {
				m[i] = apply(v, dx, dy)
			}
			return m
		}
	}
	return nil
}

func allOf[T any](xs []T, ok func(T) bool) bool {
	for _, x := range xs {
		if !ok(x) {
			return false
		}
	}
	return true
}

// channelBetween returns the channel from u to v, or topology.None.
func channelBetween(g *topology.Network, u, v topology.NodeID) topology.ChannelID {
	for d := 0; d < g.Dims(); d++ {
		for _, dir := range []topology.Direction{topology.Plus, topology.Minus} {
			if c, w := g.Neighbor(u, d, dir); c != topology.None && w == v {
				return c
			}
		}
	}
	return topology.None
}

// refine runs colour refinement on both digraphs with one shared palette, so that equal
// colours mean the same thing on both sides. It returns the colours and the class count.
func refine(da, db *digraph) (ca, cb []int, classes int) {
	ca, cb = make([]int, len(da.verts)), make([]int, len(db.verts))
	for i, m := range da.member {
		if m {
			ca[i] = 1
		}
	}
	for i, m := range db.member {
		if m {
			cb[i] = 1
		}
	}
	classes = 2
	for round := 0; round < len(da.verts)+1; round++ {
		palette := map[string]int{}
		step := func(d *digraph, c []int) []int {
			out := make([]int, len(c))
			var sb strings.Builder
			for i := range c {
				sb.Reset()
				sb.WriteString(strconv.Itoa(c[i]))
				for _, adj := range [2][][]int32{d.out, d.in} {
					ns := make([]int, len(adj[i]))
					for k, w := range adj[i] {
						ns[k] = c[w]
					}
					slices.Sort(ns)
					sb.WriteByte('|')
					for _, x := range ns {
						sb.WriteString(strconv.Itoa(x))
						sb.WriteByte(',')
					}
				}
				key := sb.String()
				id, ok := palette[key]
				if !ok {
					id = len(palette)
					palette[key] = id
				}
				out[i] = id
			}
			return out
		}
		na, nb := step(da, ca), step(db, cb)
		n := len(palette)
		ca, cb = na, nb
		if n == classes {
			break
		}
		classes = n
	}
	return ca, cb, classes
}

func sameHistogram(ca, cb []int, classes int) (string, bool) {
	ha, hb := make([]int, classes+1), make([]int, classes+1)
	for _, c := range ca {
		if c < len(ha) {
			ha[c]++
		}
	}
	for _, c := range cb {
		if c < len(hb) {
			hb[c]++
		}
	}
	for c := range ha {
		if ha[c] != hb[c] {
			return fmt.Sprintf("colour refinement: class %d has %d vertices against %d", c, ha[c], hb[c]), false
		}
	}
	return "", true
}

// vf2 searches for an isomorphism respecting the refined colours: vertices of a are
// taken in an order where each (after the first of its component) has an already mapped
// neighbour, and each is tried on the unused b vertices of its colour whose adjacency to
// the mapped ones agrees. Verdict Holds with the map, Violated when the search space is
// exhausted, Inconclusive when maxSteps runs out.
func vf2(da, db *digraph, ca, cb []int, maxSteps int) ([]int, checker.Verdict) {
	n := len(da.verts)
	adjA := make([]map[int32]int, n)
	adjB := make([]map[int32]int, n)
	for i := 0; i < n; i++ {
		adjA[i] = map[int32]int{}
		for _, w := range da.out[i] {
			adjA[i][w]++
		}
		adjB[i] = map[int32]int{}
		for _, w := range db.out[i] {
			adjB[i][w]++
		}
	}
	// BFS order over the undirected view of a.
	order := make([]int, 0, n)
	placed := make([]bool, n)
	for root := 0; root < n; root++ {
		if placed[root] {
			continue
		}
		placed[root] = true
		order = append(order, root)
		for k := len(order) - 1; k < len(order); k++ {
			v := order[k]
			for _, adj := range [2][][]int32{da.out, da.in} {
				for _, w := range adj[v] {
					if !placed[w] {
						placed[w] = true
						order = append(order, int(w))
					}
				}
			}
		}
	}
	m := make([]int, n)
	for i := range m {
		m[i] = -1
	}
	used := make([]bool, n)
	steps := 0
	var rec func(k int) checker.Verdict
	rec = func(k int) checker.Verdict {
		if k == n {
			return checker.Holds
		}
		v := order[k]
		for w := 0; w < n; w++ {
			if used[w] || cb[w] != ca[v] {
				continue
			}
			steps++
			if steps > maxSteps {
				return checker.Inconclusive
			}
			ok := true
			for j := 0; j < k && ok; j++ {
				u := order[j]
				mu := m[u]
				if adjA[v][int32(u)] != adjB[w][int32(mu)] || adjA[u][int32(v)] != adjB[mu][int32(w)] {
					ok = false
				}
			}
			if !ok {
				continue
			}
			m[v], used[w] = w, true
			switch rec(k + 1) {
			case checker.Holds:
				return checker.Holds
			case checker.Inconclusive:
				return checker.Inconclusive
			}
			m[v], used[w] = -1, false
		}
		return checker.Violated
	}
	if r := rec(0); r != checker.Holds {
		return nil, r
	}
	return m, checker.Holds
}
