// Graph layouts: where the nodes of a network that is not a 1-D or 2-D mesh or torus
// are drawn (laidOut). A hypercube is drawn on a grid, its even address bits across and
// its odd ones down, each in Gray-code order so that the links of dimensions 0 and 1
// join neighbours; meshes and tori of more dimensions are drawn
// as their 2-D layers side by side (dimensions 0, 2, ... across, 1, 3, ... down). A
// network that gives coordinates is drawn at them (scaled so that the shortest link is
// about one cell, within a page of a few dozen cells); otherwise the routers start on a
// circle in id order and a fixed number of force-directed steps (Fruchterman & Reingold,
// "Graph Drawing by Force-directed Placement", 1991) pull linked routers together and
// push the others apart, and each terminal is fanned out just beyond its router, away
// from the router's neighbours. Both are deterministic: no randomness, a fixed order.

package render

import (
	"math"

	"github.com/wormcheck/wormcheck/model/topology"
)

// laidOut reports whether g is drawn by graphLayout rather than on its own grid:
// irregular networks, hypercubes, and meshes and tori of more than two dimensions.
func laidOut(g *topology.Network) bool {
	return g.IsGraph() || g.Dims() > 2 || g.Kind() != topology.Mesh && g.Kind() != topology.Torus
}

// graphLayout returns every node's place in cell units, the smallest at (0, 0), and the
// largest x and y used. y grows downward on the page.
func graphLayout(g *topology.Network) (at []topology.Point, span topology.Point) {
	n := g.Nodes()
	at = make([]topology.Point, n)
	if !g.IsGraph() {
		gridLayout(g, at)
	} else if _, ok := g.Position(0); ok {
		for v := range at {
			p, _ := g.Position(topology.NodeID(v))
			at[v] = topology.Point{X: p.X, Y: -p.Y} // files and generators give y up
		}
	} else {
		circleLayout(g, at)
	}
	// scale: the shortest link about one cell, the page at most a few dozen cells
	shortest := math.Inf(1)
	for c := 0; c < g.Channels(); c++ {
		ch := g.Channel(topology.ChannelID(c))
		if d := math.Hypot(at[ch.From].X-at[ch.To].X, at[ch.From].Y-at[ch.To].Y); d > 1e-9 {
			shortest = min(shortest, d)
		}
	}
	lo, hi := topology.Point{X: math.Inf(1), Y: math.Inf(1)}, topology.Point{X: math.Inf(-1), Y: math.Inf(-1)}
	for _, p := range at {
		lo.X, lo.Y, hi.X, hi.Y = min(lo.X, p.X), min(lo.Y, p.Y), max(hi.X, p.X), max(hi.Y, p.Y)
	}
	scale := 1.0
	if !math.IsInf(shortest, 1) {
		scale = 1 / shortest
	}
	limit := max(4, 1.6*math.Sqrt(float64(n)))
	if ext := max(hi.X-lo.X, hi.Y-lo.Y) * scale; ext > limit {
		scale *= limit / ext
	}
	for v := range at {
		at[v] = topology.Point{X: (at[v].X - lo.X) * scale, Y: (at[v].Y - lo.Y) * scale}
	}
	return at, topology.Point{X: (hi.X - lo.X) * scale, Y: (hi.Y - lo.Y) * scale}
}

// gridLayout places the nodes of a hypercube or a mesh or torus of more than two
// dimensions (y up, as graphLayout expects of coordinates). A hypercube's node v goes to
// column gray⁻¹(its bits 0, 2, 4, ...), row gray⁻¹(its bits 1, 3, 5, ...), so that the
// low dimensions spread both ways; odd columns sit a little lower and odd rows a little
// to the right, so that a long link does not run through the nodes it passes.
// Otherwise dimension 2i is laid across in blocks of the lower ones' extent plus a gap,
// and dimension 2i+1 down.
func gridLayout(g *topology.Network, at []topology.Point) {
	if g.Kind() == topology.Hypercube {
		for v := range at {
			var even, odd int // the address bits 0, 2, 4, ... and 1, 3, 5, ...
			for b := 0; b < g.Dims(); b++ {
				if v>>b&1 == 1 {
					if b%2 == 0 {
						even |= 1 << (b / 2)
					} else {
						odd |= 1 << (b / 2)
					}
				}
			}
			col, row := grayRank(even), grayRank(odd)
			at[v] = topology.Point{X: float64(col) + 0.25*float64(row%2), Y: -float64(row) - 0.25*float64(col%2)}
		}
		return
	}
	for v := range at {
		c := g.Coords(topology.NodeID(v))
		var x, y, wx, wy float64 = 0, 0, 1, 1
		for d, k := range c {
			if d%2 == 0 {
				x += float64(k) * wx
				wx *= float64(g.Size(d)) + 0.5
			} else {
				y += float64(k) * wy
				wy *= float64(g.Size(d)) + 0.5
			}
		}
		at[v] = topology.Point{X: x, Y: -y}
	}
}

// grayRank returns the position of v in the binary-reflected Gray code sequence.
func grayRank(v int) int {
	r := 0
	for ; v != 0; v >>= 1 {
		r ^= v
	}
	return r
}

// unit returns the unit vector from a to b (0, 0 when they coincide).
func unit(a, b topology.Point) (float64, float64) {
	dx, dy := b.X-a.X, b.Y-a.Y
	d := math.Hypot(dx, dy)
	if d < 1e-9 {
		return 0, 0
	}
	return dx / d, dy / d
}

// maxSpringRouters bounds the routers the force-directed steps move (they cost
// O(routers^2) each); larger networks keep the circle.
const maxSpringRouters = 400

// circleLayout fills at for a network without coordinates (see the file comment).
func circleLayout(g *topology.Network, at []topology.Point) {
	n := g.Nodes()
	var routers []topology.NodeID
	idx := make([]int, n)
	for v := topology.NodeID(0); int(v) < n; v++ {
		idx[v] = -1
		if !g.Terminal(v) {
			idx[v] = len(routers)
			routers = append(routers, v)
		}
	}
	m := len(routers)
	radius := max(1, float64(m)/(2*math.Pi))
	p := make([]topology.Point, m)
	for i := range p {
		a := 2*math.Pi*float64(i)/float64(m) - math.Pi/2
		p[i] = topology.Point{X: radius * math.Cos(a), Y: radius * math.Sin(a)}
	}
	var edges [][2]int
	for c := 0; c < g.Channels(); c++ {
		ch := g.Channel(topology.ChannelID(c))
		if a, b := idx[ch.From], idx[ch.To]; a >= 0 && b >= 0 && a < b {
			edges = append(edges, [2]int{a, b})
		}
	}
	if m > 2 && m <= maxSpringRouters {
		spring(p, edges, radius)
	}
	for i, r := range routers {
		at[r] = p[i]
	}
	// terminals: fanned beyond their router, away from its routers' centre
	var cx, cy float64
	for _, q := range p {
		cx, cy = cx+q.X/float64(m), cy+q.Y/float64(m)
	}
	total := make([]int, n)
	routerOf := make([]topology.NodeID, n)
	var buf []topology.ChannelID
	for v := topology.NodeID(0); int(v) < n; v++ {
		if out := g.AppendOut(buf[:0], v); g.Terminal(v) && len(out) > 0 {
			routerOf[v] = g.Channel(out[0]).To
			total[routerOf[v]]++
		}
	}
	count := make([]int, n)
	for v := topology.NodeID(0); int(v) < n; v++ {
		if !g.Terminal(v) {
			continue
		}
		r := routerOf[v]
		k := count[r]
		count[r]++
		base := math.Atan2(at[r].Y-cy, at[r].X-cx)
		if at[r].X == cx && at[r].Y == cy {
			base = -math.Pi / 2
		}
		row := min(total[r], 5)
		a := base + 0.5*(float64(k%5)-float64(row-1)/2)
		d := 0.6 + 0.45*float64(k/5)
		at[v] = topology.Point{X: at[r].X + d*math.Cos(a), Y: at[r].Y + d*math.Sin(a)}
	}
}

// spring moves p by a fixed number of Fruchterman-Reingold steps over edges, in a
// square of side 3*radius, cooling linearly. Cost O(steps x (len(p)^2 + len(edges))).
func spring(p []topology.Point, edges [][2]int, radius float64) {
	const steps = 150
	m := len(p)
	k := 2 * radius / math.Sqrt(float64(m)) // the ideal distance
	disp := make([]topology.Point, m)
	for it := 0; it < steps; it++ {
		clear(disp)
		for i := 0; i < m; i++ {
			for j := i + 1; j < m; j++ {
				dx, dy := p[i].X-p[j].X, p[i].Y-p[j].Y
				d := max(math.Hypot(dx, dy), 1e-3)
				f := k * k / d / d
				disp[i].X, disp[i].Y = disp[i].X+dx*f, disp[i].Y+dy*f
				disp[j].X, disp[j].Y = disp[j].X-dx*f, disp[j].Y-dy*f
			}
		}
		for _, e := range edges {
			i, j := e[0], e[1]
			dx, dy := p[i].X-p[j].X, p[i].Y-p[j].Y
			d := max(math.Hypot(dx, dy), 1e-3)
			f := d / k
			disp[i].X, disp[i].Y = disp[i].X-dx*f, disp[i].Y-dy*f
			disp[j].X, disp[j].Y = disp[j].X+dx*f, disp[j].Y+dy*f
		}
		t := radius * 0.1 * (1 - float64(it)/steps)
		for i := range p {
			d := math.Hypot(disp[i].X, disp[i].Y)
			if d < 1e-9 {
				continue
			}
			s := min(d, t) / d
			p[i].X = min(max(p[i].X+disp[i].X*s, -1.5*radius), 1.5*radius)
			p[i].Y = min(max(p[i].Y+disp[i].Y*s, -1.5*radius), 1.5*radius)
		}
	}
}
