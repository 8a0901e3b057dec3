// Graph layouts: where the nodes of an irregular network (model.Graph) are drawn. A
// network that gives coordinates is drawn at them (scaled so that the shortest link is
// about one cell, within a page of a few dozen cells); otherwise the routers sit on a
// circle in id order and each terminal just outside its router. Both are deterministic.

package render

import (
	"math"

	"github.com/wormcheck/wormcheck/model"
)

// graphLayout returns every node's place in cell units, the smallest at (0, 0), and the
// largest x and y used. y grows downward on the page.
func graphLayout(g *model.Grid) (at []model.Point, span model.Point) {
	n := g.Nodes()
	at = make([]model.Point, n)
	if _, ok := g.Position(0); ok {
		for v := range at {
			p, _ := g.Position(model.NodeID(v))
			at[v] = model.Point{X: p.X, Y: -p.Y} // files and generators give y up
		}
	} else {
		var routers []model.NodeID
		for v := model.NodeID(0); int(v) < n; v++ {
			if !g.Terminal(v) {
				routers = append(routers, v)
			}
		}
		radius := max(1, float64(len(routers))/(2*math.Pi))
		angle := make([]float64, n)
		for i, r := range routers {
			angle[r] = 2*math.Pi*float64(i)/float64(len(routers)) - math.Pi/2
			at[r] = model.Point{X: radius * math.Cos(angle[r]), Y: radius * math.Sin(angle[r])}
		}
		// terminals: outside their router, fanned across its angle
		routerOf := make([]model.NodeID, n)
		total := make([]int, n)
		var buf []model.ChannelID
		for v := model.NodeID(0); int(v) < n; v++ {
			routerOf[v] = v
			if out := g.AppendOut(buf[:0], v); g.Terminal(v) && len(out) > 0 {
				routerOf[v] = g.Channel(out[0]).To
				total[routerOf[v]]++
			}
		}
		count := make([]int, n)
		for v := model.NodeID(0); int(v) < n; v++ {
			if !g.Terminal(v) {
				continue
			}
			r := routerOf[v]
			k := count[r]
			count[r]++
			row := min(total[r], 5)
			a := angle[r] + 0.35*(float64(k%5)-float64(row-1)/2)/radius
			d := radius + 0.7 + 0.45*float64(k/5)
			at[v] = model.Point{X: d * math.Cos(a), Y: d * math.Sin(a)}
		}
	}
	// scale: the shortest link about one cell, the page at most a few dozen cells
	shortest := math.Inf(1)
	for c := 0; c < g.Channels(); c++ {
		ch := g.Channel(model.ChannelID(c))
		if d := math.Hypot(at[ch.From].X-at[ch.To].X, at[ch.From].Y-at[ch.To].Y); d > 1e-9 {
			shortest = min(shortest, d)
		}
	}
	lo, hi := model.Point{X: math.Inf(1), Y: math.Inf(1)}, model.Point{X: math.Inf(-1), Y: math.Inf(-1)}
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
		at[v] = model.Point{X: (at[v].X - lo.X) * scale, Y: (at[v].Y - lo.Y) * scale}
	}
	return at, model.Point{X: (hi.X - lo.X) * scale, Y: (hi.Y - lo.Y) * scale}
}

// unit returns the unit vector from a to b (0, 0 when they coincide).
func unit(a, b model.Point) (float64, float64) {
	dx, dy := b.X-a.X, b.Y-a.Y
	d := math.Hypot(dx, dy)
	if d < 1e-9 {
		return 0, 0
	}
	return dx / d, dy / d
}
