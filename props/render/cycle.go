package render

import (
	"bytes"
	"fmt"
	"html"

	"github.com/wormcheck/wormcheck/model"
)

// ChannelCycle draws a cycle of channels on a 2-D mesh or torus: every channel of the
// grid as a faint line, the cycle's channels as numbered red arrows in order, each with
// its label (the turn that follows it) as a tooltip, and title as the legend. It draws
// the witness of a static routing proof (props/cdg). Output is deterministic.
func ChannelCycle(g *model.Grid, cycle []model.ChannelID, labels []string, title string) ([]byte, error) {
	if g.Dims() != 2 || g.Kind() == model.Hypercube {
		return nil, fmt.Errorf("svg: only 2-D meshes and tori can be drawn; %s is not one", g.Spec())
	}
	for _, c := range cycle {
		if c < 0 || int(c) >= g.Channels() {
			return nil, fmt.Errorf("svg: channel %d is not a channel of %s", c, g.Spec())
		}
	}
	kx, ky := g.Size(0), g.Size(1)
	W, H := max((kx+1)*cycleCell, 8+len(title)*6), (ky+1)*cycleCell+30
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="10">`+"\n", W, H, W, H)
	fmt.Fprintf(&b, `<defs><marker id="hot" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0,0L10,5L0,10z" fill="%s"/></marker></defs>`+"\n", cycleHot)
	// Dimension 1 grows upwards, so that north is up as in the turn model's pictures.
	pos := func(v model.NodeID) (int, int) {
		return cycleCell/2 + g.Coord(v, 0)*cycleCell, cycleCell/2 + (ky-1-g.Coord(v, 1))*cycleCell
	}
	// A channel is drawn beside its reverse: shifted to the right of its direction.
	line := func(c model.ChannelID) (x1, y1, x2, y2 int) {
		ch := g.Channel(c)
		x1, y1 = pos(ch.From)
		x2, y2 = pos(ch.To)
		if ch.Wrap {
			dx, dy := 0, 0
			if ch.Dim == 0 {
				dx = ch.Dir.Sign() * cycleCell / 2
			} else {
				dy = -ch.Dir.Sign() * cycleCell / 2
			}
			x2, y2 = x1+dx, y1+dy
		}
		const shift = 3
		switch {
		case ch.Dim == 0 && ch.Dir == model.Plus:
			y1, y2 = y1+shift, y2+shift
		case ch.Dim == 0:
			y1, y2 = y1-shift, y2-shift
		case ch.Dir == model.Plus:
			x1, x2 = x1+shift, x2+shift
		default:
			x1, x2 = x1-shift, x2-shift
		}
		return
	}
	b.WriteString(`<g stroke="#ccc" stroke-width="1">`)
	for c := model.ChannelID(0); int(c) < g.Channels(); c++ {
		x1, y1, x2, y2 := line(c)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d"/>`, x1, y1, x2, y2)
	}
	b.WriteString("</g>\n")
	for v := model.NodeID(0); int(v) < g.Nodes(); v++ {
		x, y := pos(v)
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="4" fill="#fff" stroke="#333"><title>%s</title></circle>`+"\n", x, y, html.EscapeString(g.NodeName(v)))
	}
	for i, c := range cycle {
		x1, y1, x2, y2 := line(c)
		label := g.ChannelName(c)
		if i < len(labels) {
			label += ": " + labels[i]
		}
		fmt.Fprintf(&b, `<g stroke="%s" stroke-width="3"><title>%d %s</title><line x1="%d" y1="%d" x2="%d" y2="%d" marker-end="url(#hot)"/></g>`+"\n",
			cycleHot, i, html.EscapeString(label), x1, y1, x2, y2)
		fmt.Fprintf(&b, `<text x="%d" y="%d" fill="%s">%d</text>`+"\n", (x1+x2)/2+4, (y1+y2)/2-4, cycleHot, i)
	}
	fmt.Fprintf(&b, `<text x="4" y="%d">%s</text>`+"\n", H-10, html.EscapeString(title))
	b.WriteString("</svg>\n")
	return b.Bytes(), nil
}

// The cycle picture's geometry and colour.
const (
	cycleCell = 40
	cycleHot  = "#d62728"
)
