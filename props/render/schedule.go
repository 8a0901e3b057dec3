// Package svg draws unicast schedules on 2-D meshes and tori as SVG pictures: the node
// grid, every unicast's path as an arrow coloured by its step, and the two unicasts of a
// witness (props.ScheduleWitness) highlighted with their shared channel. It lives beside props
// because it draws props' witnesses; it depends only on model and props, not on the CLI.
package render

import (
	"bytes"
	"fmt"
	"html"
	"slices"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
)

// schedCell is the distance between neighbouring nodes, in SVG user units.
const schedCell = 40

const hotColour = "#d62728"

var stepPalette = []string{"#1f77b4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"}

// Schedule renders s, with w's pair and channel in red when w is not nil. Only 2-D
// meshes and tori can be drawn; dimension 0 runs left to right, dimension 1 top to
// bottom. Wrap-around hops are drawn as short stubs leaving the grid. Output is
// deterministic.
func Schedule(s *model.Schedule, w *props.ScheduleWitness) ([]byte, error) {
	g, err := s.Grid()
	if err != nil {
		return nil, err
	}
	if g.Dims() != 2 || g.Kind() == model.Hypercube {
		return nil, fmt.Errorf("render: only 2-D meshes and tori can be drawn; %s is not one", g.Spec())
	}
	kx, ky := g.Size(0), g.Size(1)
	W, H := (kx+1)*schedCell, (ky+1)*schedCell+30
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="10">`+"\n", W, H, W, H)
	// One arrow-head marker per colour (context-stroke is not supported everywhere).
	b.WriteString("<defs>")
	for k, c := range append(slices.Clone(stepPalette), hotColour) {
		fmt.Fprintf(&b, `<marker id="m%d" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="5" markerHeight="5" orient="auto"><path d="M0,0L10,5L0,10z" fill="%s"/></marker>`, k, c)
	}
	b.WriteString("</defs>\n")
	pos := func(v model.NodeID) (int, int) {
		return schedCell + g.Coord(v, 0)*schedCell - schedCell/2, schedCell + g.Coord(v, 1)*schedCell - schedCell/2
	}
	hot := map[int]bool{}
	if w != nil {
		if w.A != nil {
			hot[w.A.Index] = true
		}
		if w.B != nil {
			hot[w.B.Index] = true
		}
	}
	// Nodes.
	for v := model.NodeID(0); int(v) < g.Nodes(); v++ {
		x, y := pos(v)
		fill := "#fff"
		for _, src := range s.Sources {
			if src == v {
				fill = "#ffd24d"
			}
		}
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="5" fill="%s" stroke="#333"/>`+"\n", x, y, fill)
	}
	// Paths, highlighted ones last so they are on top.
	draw := func(i int, u model.Unicast, mark int, width int) {
		colour := hotColour
		if mark < len(stepPalette) {
			colour = stepPalette[mark]
		}
		// Offset each step a little so overlapping paths stay visible.
		off := (u.Step%5 - 2) * 2
		fmt.Fprintf(&b, `<g stroke="%s" stroke-width="%d" fill="none"><title>%s</title>`, colour, width,
			html.EscapeString(fmt.Sprintf("#%d %s->%s step %d order %d", i, g.NodeName(u.From), g.NodeName(u.To), u.Step, u.Order)))
		for k, c := range u.Path {
			ch := g.Channel(c)
			x1, y1 := pos(ch.From)
			x2, y2 := pos(ch.To)
			if ch.Wrap {
				x2, y2 = x1+ch.Dir.Sign()*schedCell/2*btoi(ch.Dim == 0), y1+ch.Dir.Sign()*schedCell/2*btoi(ch.Dim == 1)
			}
			marker := ""
			if k == len(u.Path)-1 {
				marker = fmt.Sprintf(` marker-end="url(#m%d)"`, mark)
			}
			fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d"%s/>`, x1+off, y1+off, x2+off, y2+off, marker)
		}
		b.WriteString("</g>\n")
	}
	for i, u := range s.Unicasts {
		if !hot[i] {
			draw(i, u, (u.Step-1)%len(stepPalette), 2)
		}
	}
	for i, u := range s.Unicasts {
		if hot[i] {
			draw(i, u, len(stepPalette), 3)
		}
	}
	if w != nil && w.ChannelID >= 0 && w.ChannelID < g.Channels() && w.Channel != "" {
		ch := g.Channel(model.ChannelID(w.ChannelID))
		x, y := pos(ch.From)
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="9" fill="none" stroke="#d62728" stroke-width="2"/>`+"\n", x, y)
	}
	// Legend.
	legend := fmt.Sprintf("%s, %d unicasts, %d steps (colour = step)", g.Spec(), len(s.Unicasts), s.Steps())
	if w != nil {
		legend += "; red: " + w.Kind
		if w.Channel != "" {
			legend += " on " + w.Channel
		}
	}
	fmt.Fprintf(&b, `<text x="4" y="%d">%s</text>`+"\n", H-10, html.EscapeString(legend))
	b.WriteString("</svg>\n")
	return b.Bytes(), nil
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
