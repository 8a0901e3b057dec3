package partition

import (
	"bytes"
	"fmt"
	"html"
	"math"

	"github.com/wormcheck/wormcheck/model"
)

// SVGOptions add a witness to the picture: From and To (when they differ and exist) are
// ringed in red, e.g. an unreachable pair, and Caption is printed at the top.
type SVGOptions struct {
	From, To model.NodeID
	Caption  string
}

// SVG draws the grid with the DCN blocks dashed, every DDN's channels in its own
// colour (slightly offset per subnetwork so that shared links stay visible, arrows on
// directed ones) and its members as filled discs. Rows x go down, columns y across.
func SVG(g *model.Grid, ddns, dcns []Subnetwork, opt SVGOptions) []byte {
	const cell, margin = 40.0, 30.0
	s, t := g.Size(0), g.Size(1)
	w, h := margin*2+cell*float64(t-1), margin*2+cell*float64(s-1)
	pos := func(v model.NodeID) (float64, float64) {
		return margin + cell*float64(g.Coord(v, 1)), margin + cell*float64(g.Coord(v, 0))
	}
	colour := func(i int) string {
		return fmt.Sprintf("hsl(%d,70%%,45%%)", (i*360/max(1, len(ddns))+i*37)%360)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="10">`+"\n", w, h+20*float64(1+len(ddns)/6), w, h+20*float64(1+len(ddns)/6))
	b.WriteString(`<defs><marker id="arr" viewBox="0 0 6 6" refX="5" refY="3" markerWidth="4" markerHeight="4" orient="auto"><path d="M0,0 L6,3 L0,6 z" fill="context-stroke"/></marker></defs>` + "\n")
	for _, d := range dcns {
		if len(d.Nodes) == 0 {
			continue
		}
		x0, y0 := pos(d.Nodes[0])
		x1, y1 := pos(d.Nodes[len(d.Nodes)-1])
		fmt.Fprintf(&b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="none" stroke="#999" stroke-dasharray="4 3"><title>%s</title></rect>`+"\n",
			math.Min(x0, x1)-cell/3, math.Min(y0, y1)-cell/3, math.Abs(x1-x0)+2*cell/3, math.Abs(y1-y0)+2*cell/3, d.Name)
	}
	for v := 0; v < g.Nodes(); v++ {
		x, y := pos(model.NodeID(v))
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="3" fill="#ccc"/>`+"\n", x, y)
	}
	for i, sub := range ddns {
		off := (float64(i) - float64(len(ddns)-1)/2) * math.Min(2.5, 12/float64(max(1, len(ddns))))
		col := colour(i)
		for _, c := range sub.Channels {
			ch := g.Channel(c)
			x0, y0 := pos(ch.From)
			x1, y1 := pos(ch.To)
			if ch.Wrap { // draw a stub leaving the boundary
				dx, dy := 0.0, 0.0
				if ch.Dim == 1 {
					dx = cell / 2 * float64(ch.Dir.Sign())
				} else {
					dy = cell / 2 * float64(ch.Dir.Sign())
				}
				x1, y1 = x0+dx, y0+dy
			}
			ox, oy := 0.0, off
			if ch.Dim == 0 {
				ox, oy = off, 0
			}
			marker := ""
			if sub.Orientation != Undirected {
				marker = ` marker-end="url(#arr)"`
			}
			fmt.Fprintf(&b, `<line x1="%.1f" y1="%.1f" x2="%.1f" y2="%.1f" stroke="%s" stroke-width="1.2" opacity="0.8"%s/>`+"\n", x0+ox, y0+oy, x1+ox, y1+oy, col, marker)
		}
		for _, v := range sub.Nodes {
			x, y := pos(v)
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="5" fill="%s"><title>%s %s</title></circle>`+"\n", x, y, col, sub.Name, g.NodeName(v))
		}
		lx, ly := 10+float64(i%6)*(w/6), h+14+20*float64(i/6)
		fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="5" fill="%s"/><text x="%.1f" y="%.1f">%s</text>`+"\n", lx, ly-4, col, lx+8, ly, sub.Name)
	}
	for _, v := range []model.NodeID{opt.From, opt.To} {
		if v >= 0 && int(v) < g.Nodes() && (opt.From != opt.To) {
			x, y := pos(v)
			fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="9" fill="none" stroke="red" stroke-width="2"><title>%s</title></circle>`+"\n", x, y, g.NodeName(v))
		}
	}
	if opt.Caption != "" {
		fmt.Fprintf(&b, `<text x="10" y="14" fill="red">%s</text>`+"\n", html.EscapeString(opt.Caption))
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}
