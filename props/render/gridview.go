// Grid views: how a (part of a) 1-D or 2-D mesh or torus is placed on the page, shared by
// the schedule, partition and static-cycle pictures. y grows upwards on the page as it
// does in the grid, and a torus is cut where the drawn nodes leave the largest gap, so a
// wrap-around hop between the drawn nodes is an ordinary short arrow.

package render

import (
	"bytes"
	"fmt"
	"html"
	"slices"

	"github.com/wormcheck/wormcheck/model/topology"
)

// window is the part of one dimension that is drawn: n consecutive coordinates from
// start, counted modulo k on a torus ring.
type window struct {
	start, n, k int
	ring        bool
}

// pos returns where coordinate x is drawn (0..n-1) and whether it is drawn at all.
func (w window) pos(x int) (int, bool) {
	p := x - w.start
	if w.ring {
		p = ((p % w.k) + w.k) % w.k
	}
	return p, p >= 0 && p < w.n
}

// windowOf returns the smallest window holding every coordinate in xs plus context
// coordinates on each side (fewer where the dimension ends). On a ring it starts after
// the largest cyclic gap between the coordinates. With no coordinates it is the whole
// dimension.
func windowOf(xs []int, k int, ring bool, context int) window {
	if len(xs) == 0 {
		return window{0, k, k, ring}
	}
	xs = slices.Clone(xs)
	slices.Sort(xs)
	xs = slices.Compact(xs)
	if !ring {
		lo, hi := max(xs[0]-context, 0), min(xs[len(xs)-1]+context, k-1)
		return window{lo, hi - lo + 1, k, false}
	}
	// The largest gap between cyclically consecutive coordinates.
	best, at := -1, 0
	for i, x := range xs {
		next := xs[(i+1)%len(xs)]
		gap := ((next-x)%k + k) % k
		if len(xs) == 1 {
			gap = k
		}
		if gap > best {
			best, at = gap, (i+1)%len(xs)
		}
	}
	span := k - best + 1 // coordinates covered from xs[at] round to the one before the gap
	n := span + 2*context
	if n >= k {
		return window{0, k, k, true}
	}
	return window{((xs[at]-context)%k + k) % k, n, k, true}
}

// gridView places a window of a 1-D or 2-D grid on the page: node (px, py) of the window
// at (ox + px*cell, oy + (rows-1-py)*cell).
type gridView struct {
	g      *topology.Network
	at     []topology.Point // a graph's layout (graphLayout), in cells; nil on grids
	span   topology.Point
	w      [2]window
	cell   float64
	ox, oy float64
	r      float64 // node radius
}

// drawableNetwork is drawable that also takes the networks drawn by a layout (laidOut):
// the pictures that draw channels only (static cycles, rank certificates) use it.
func drawableNetwork(g *topology.Network) error {
	if g != nil && laidOut(g) {
		return nil
	}
	return drawable(g)
}

func drawable(g *topology.Network) error {
	if g == nil || g.Dims() > 2 || (g.Kind() != topology.Mesh && g.Kind() != topology.Torus) {
		return fmt.Errorf("render: only 1-D and 2-D meshes and tori can be drawn; %v is not one", g)
	}
	return nil
}

// newView returns the view of g cropped to nodes (all of g when nodes is nil) with
// context nodes around them.
func newView(g *topology.Network, nodes []topology.NodeID, context int, cell, r float64) gridView {
	v := gridView{g: g, cell: cell, r: r}
	if laidOut(g) {
		v.at, v.span = graphLayout(g)
		return v
	}
	for d := 0; d < 2; d++ {
		if d >= g.Dims() {
			v.w[d] = window{0, 1, 1, false}
			continue
		}
		var xs []int
		for _, n := range nodes {
			xs = append(xs, g.Coord(n, d))
		}
		v.w[d] = windowOf(xs, g.Size(d), g.Wraps(d), context)
	}
	return v
}

func (v gridView) coord(n topology.NodeID, d int) int {
	if d >= v.g.Dims() {
		return 0
	}
	return v.g.Coord(n, d)
}

// xy returns where node n is drawn and whether it is inside the view.
func (v gridView) xy(n topology.NodeID) (float64, float64, bool) {
	if v.at != nil {
		return v.ox + v.at[n].X*v.cell, v.oy + v.at[n].Y*v.cell, true
	}
	px, okx := v.w[0].pos(v.coord(n, 0))
	py, oky := v.w[1].pos(v.coord(n, 1))
	return v.ox + float64(px)*v.cell, v.oy + float64(v.w[1].n-1-py)*v.cell, okx && oky
}

func (v gridView) width() float64 {
	if v.at != nil {
		return v.span.X * v.cell
	}
	return float64(v.w[0].n-1) * v.cell
}

func (v gridView) height() float64 {
	if v.at != nil {
		return v.span.Y * v.cell
	}
	return float64(v.w[1].n-1) * v.cell
}

// cropped says whether the view leaves part of the grid out (a graph is drawn whole).
func (v gridView) cropped() bool {
	return v.at == nil && v.w[0].n < v.w[0].k || v.w[1].n < v.w[1].k
}

// cropNote says which part of the grid the view shows.
func (v gridView) cropNote() string {
	s := fmt.Sprintf("showing x %d..%d", v.w[0].start, (v.w[0].start+v.w[0].n-1)%v.w[0].k)
	if v.g.Dims() == 2 {
		s += fmt.Sprintf(", y %d..%d", v.w[1].start, (v.w[1].start+v.w[1].n-1)%v.w[1].k)
	}
	return s + " of " + v.g.Spec()
}

// hop returns the segments that draw channel c, shifted off units to the right of its
// direction: one segment between two drawn neighbours, else a stub leaving From and a
// stub entering To (a wrap-around hop whose ends are drawn far apart), each only where
// its node is drawn.
func (v gridView) hop(c topology.ChannelID, off float64) [][4]float64 {
	ch := v.g.Channel(c)
	if v.at != nil { // a straight segment between the two nodes
		ux, uy := unit(v.at[ch.From], v.at[ch.To])
		x1, y1, _ := v.xy(ch.From)
		x2, y2, _ := v.xy(ch.To)
		ox, oy := -uy*off, ux*off
		return [][4]float64{{x1 + ux*v.r + ox, y1 + uy*v.r + oy, x2 - ux*v.r + ox, y2 - uy*v.r + oy}}
	}
	ux, uy := 0.0, 0.0
	if ch.Dim == 0 {
		ux = float64(ch.Dir.Sign())
	} else {
		uy = -float64(ch.Dir.Sign())
	}
	nx, ny := -uy, ux
	x1, y1, in1 := v.xy(ch.From)
	x2, y2, in2 := v.xy(ch.To)
	adjacent := in1 && in2 && (x2-x1)*ux+(y2-y1)*uy > 0 && (x2-x1)*ux+(y2-y1)*uy < 1.5*v.cell
	ox, oy := nx*off, ny*off
	if adjacent {
		return [][4]float64{{x1 + ux*v.r + ox, y1 + uy*v.r + oy, x2 - ux*v.r + ox, y2 - uy*v.r + oy}}
	}
	stub := v.cell * 0.45
	var out [][4]float64
	if in1 {
		out = append(out, [4]float64{x1 + ux*v.r + ox, y1 + uy*v.r + oy, x1 + ux*stub + ox, y1 + uy*stub + oy})
	}
	if in2 {
		out = append(out, [4]float64{x2 - ux*stub + ox, y2 - uy*stub + oy, x2 - ux*v.r + ox, y2 - uy*v.r + oy})
	}
	return out
}

// links draws every channel of the view as a thin grey line (both directions share it).
func (v gridView) links(b *bytes.Buffer) {
	b.WriteString("<g stroke=\"#ddd\" stroke-width=\"1\">\n")
	for c := 0; c < v.g.Channels(); c++ {
		ch := v.g.Channel(topology.ChannelID(c))
		if v.at != nil && ch.From > ch.To && v.g.ChannelBetween(ch.To, ch.From) != topology.None {
			continue // drawn from the other end
		}
		if v.at == nil && ch.Dir != topology.Plus {
			continue
		}
		for _, s := range v.hop(topology.ChannelID(c), 0) {
			fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"/>\n", f1(s[0]), f1(s[1]), f1(s[2]), f1(s[3]))
		}
	}
	b.WriteString("</g>\n")
}

// nodes draws every node of the view; fill gives a node's fill colour.
func (v gridView) nodes(b *bytes.Buffer, fill func(topology.NodeID) string, labels bool) {
	b.WriteString("<g stroke=\"#555\" stroke-width=\"0.8\">\n")
	for n := 0; n < v.g.Nodes(); n++ {
		x, y, ok := v.xy(topology.NodeID(n))
		if !ok {
			continue
		}
		fmt.Fprintf(b, "<circle cx=\"%s\" cy=\"%s\" r=\"%s\" fill=\"%s\"><title>%s</title></circle>\n", f1(x), f1(y), f1(v.r), fill(topology.NodeID(n)), v.g.NodeName(topology.NodeID(n)))
	}
	b.WriteString("</g>\n")
	if labels && v.at != nil {
		b.WriteString("<g fill=\"#555\" font-size=\"8\" text-anchor=\"middle\">\n")
		for n := 0; n < v.g.Nodes(); n++ {
			x, y, _ := v.xy(topology.NodeID(n))
			fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\">%s</text>\n", f1(x), f1(y+v.r+9), html.EscapeString(v.g.NodeName(topology.NodeID(n))))
		}
		b.WriteString("</g>\n")
	} else if labels {
		v.axes(b)
	}
}

// axes labels the drawn columns and rows with their coordinates (x under the bottom row,
// y left of the first column), so a cropped or cut torus view stays readable.
func (v gridView) axes(b *bytes.Buffer) {
	gap := v.axisGap()
	b.WriteString("<g fill=\"#777\" font-size=\"8\" text-anchor=\"middle\">\n")
	for p := 0; p < v.w[0].n; p++ {
		x := (v.w[0].start + p) % v.w[0].k
		fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\">%d</text>\n", f1(v.ox+float64(p)*v.cell), f1(v.oy+v.height()+gap), x)
	}
	if v.g.Dims() == 2 {
		for p := 0; p < v.w[1].n; p++ {
			y := (v.w[1].start + p) % v.w[1].k
			fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\">%d</text>\n", f1(v.ox-gap+2), f1(v.oy+float64(v.w[1].n-1-p)*v.cell+3), y)
		}
	}
	b.WriteString("</g>\n")
}

// svgOpen writes the document header, a white background and the arrow-head markers of
// the given colours (id "a" + index).
func svgOpen(b *bytes.Buffer, w, h float64, colours []string) {
	fmt.Fprintf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" font-family=\"sans-serif\" font-size=\"11\">\n", f1(w), f1(h), f1(w), f1(h))
	b.WriteString("<defs>")
	for k, c := range colours {
		fmt.Fprintf(b, "<marker id=\"a%d\" viewBox=\"0 0 10 10\" refX=\"8\" refY=\"5\" markerWidth=\"4\" markerHeight=\"4\" orient=\"auto\"><path d=\"M0,0L10,5L0,10z\" fill=\"%s\"/></marker>", k, c)
	}
	b.WriteString("</defs>\n")
	fmt.Fprintf(b, "<rect width=\"%s\" height=\"%s\" fill=\"white\"/>\n", f1(w), f1(h))
}

// axisGap is the distance from the last row of nodes to the x axis labels under it.
func (v gridView) axisGap() float64 {
	if v.at != nil {
		return v.r + 12
	}
	return max(v.r+10, v.cell*0.4+8)
}

// bottom is the first free y under the view and its axis labels.
func (v gridView) bottom() float64 { return v.oy + v.height() + v.axisGap() + 16 }

// textWidth estimates the width of s in the sans-serif font at size px.
func textWidth(s string, px float64) float64 { return float64(len(s)) * px * 0.6 }

// sheet is a picture of one grid view under a title and an optional subtitle, with a
// legend below the view: openSheet places the view and writes the header, the caller
// draws the view into b, and close draws the legend and ends the SVG.
type sheet struct {
	b           bytes.Buffer
	top, bottom float64 // the subtitle's baseline (or the title's) plus a gap; the view's bottom
	legend      []legendLine
}

// openSheet sizes a sheet for v, title, subtitle and legend (arrow markers in colours)
// and writes its header.
func openSheet(v *gridView, title, subtitle string, legend []legendLine, colours []string) *sheet {
	s := &sheet{top: 50, legend: legend}
	if subtitle == "" {
		s.top = 34
	}
	v.ox, v.oy = 50, s.top+30
	W := max(v.width()+100, 20+legendWidth(legend), 20+textWidth(title, 14), 20+textWidth(subtitle, 11))
	s.bottom = v.bottom()
	H := s.bottom + float64(len(legend))*legendRow + 10
	svgOpen(&s.b, W, H, colours)
	fmt.Fprintf(&s.b, "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\">%s</text>\n", html.EscapeString(title))
	if subtitle != "" {
		fmt.Fprintf(&s.b, "<text x=\"10\" y=\"38\">%s</text>\n", html.EscapeString(subtitle))
	}
	return s
}

// close draws the legend under the view and ends the SVG.
func (s *sheet) close() []byte {
	s.b.WriteString("<g id=\"legend\">\n")
	for k, l := range s.legend {
		l.draw(&s.b, s.bottom+float64(k)*legendRow)
	}
	s.b.WriteString("</g>\n</svg>\n")
	return s.b.Bytes()
}
