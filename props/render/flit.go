// Flit pictures: a flit-level network state on a 1-D or 2-D mesh or torus, with the
// nodes, the directed channels with their virtual-channel lanes, which message holds which
// channel and lane, the blocked headers and the channels they wait for, and each message's
// paths. It is how wormcheck shows a deadlock counterexample (for example 000 Fig. 3: two
// multicasts blocking each other).

package render

import (
	"bytes"
	"fmt"
	"html"
	"math"

	"github.com/wormcheck/wormcheck/model"
)

// FlitMessage is one message of the picture.
type FlitMessage struct {
	Name         string            // e.g. "A" or "m0"
	Source       model.NodeID      // where it was injected
	Destinations []model.NodeID    // in worm order d1..dn
	Path         []model.ChannelID // the channels of its routes (its multicast tree), drawn thin and dashed
	Note         string            // shown after the route in the legend, e.g. "m0"
}

// Hold says that a message holds a lane (virtual channel) of a channel in the pictured
// state, with Flits flits buffered in it.
type Hold struct {
	Channel model.ChannelID
	VC      int
	Message int // index into FlitPicture.Messages
	Flits   int
}

// Blocked marks a header of a message that cannot advance: it sits at node At and waits
// for Wants (model.None if it waits for no channel in particular, e.g. for delivery).
type Blocked struct {
	Message int
	At      model.NodeID
	Wants   model.ChannelID
	Label   string // e.g. "a2"
}

// FlitPicture is what Draw renders.
type FlitPicture struct {
	Title    string
	Grid     *model.Grid // a 1-D or 2-D mesh or torus
	VCs      int         // lanes per channel (>= 1)
	Messages []FlitMessage
	Holds    []Hold
	Blocked  []Blocked
	Notes    []string // extra legend lines, e.g. what each input waits for
}

// Layout constants, in SVG user units.
const (
	cell      = 90.0
	margin    = 60.0
	nodeR     = 13.0
	laneGap   = 5.0
	legendRow = 18.0
)

// palette gives messages distinct colours, in message order.
var palette = []string{"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"}

// MessageColor returns the colour of message i.
func MessageColor(i int) string { return palette[i%len(palette)] }

// DrawFlit renders p as an SVG document. It fails if the grid is not 1-D or 2-D or an index is out
// of range.
func DrawFlit(p FlitPicture) ([]byte, error) {
	g := p.Grid
	if g == nil || g.Dims() > 2 || (g.Kind() != model.Mesh && g.Kind() != model.Torus) {
		return nil, fmt.Errorf("render: picture needs a 1-D or 2-D mesh or torus; got %v", g)
	}
	vcs := p.VCs
	if vcs < 1 {
		vcs = 1
	}
	if err := p.check(vcs); err != nil {
		return nil, err
	}
	kx, ky := g.Size(0), rows(g)
	w := 2*margin + float64(kx-1)*cell
	// Widen the picture so that the title and the legend fit (monospace, 11 units high:
	// about 6.7 units per character).
	longest := len(p.Title) + 2
	for _, m := range p.Messages {
		longest = max(longest, len(m.Name)+len(route(g, m))+len(m.Note)+10)
	}
	for range p.Blocked {
		longest = max(longest, 64)
	}
	for _, n := range p.Notes {
		longest = max(longest, len(n))
	}
	w = max(w, 20+6.7*float64(longest))
	legendTop := 2*margin + float64(ky-1)*cell
	h := legendTop + float64(len(p.Messages)+len(p.Blocked)+len(p.Notes)+1)*legendRow + 10
	var b bytes.Buffer
	fmt.Fprintf(&b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" font-family=\"monospace\" font-size=\"11\">\n", f1(w), f1(h), f1(w), f1(h))
	b.WriteString("<defs>\n")
	fmt.Fprintf(&b, "<marker id=\"arr\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#999\"/></marker>\n")
	fmt.Fprintf(&b, "<marker id=\"blk\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#e00\"/></marker>\n")
	b.WriteString("</defs>\n")
	fmt.Fprintf(&b, "<rect width=\"%s\" height=\"%s\" fill=\"white\"/>\n", f1(w), f1(h))
	fmt.Fprintf(&b, "<text x=\"10\" y=\"18\" font-size=\"13\">%s</text>\n", html.EscapeString(p.Title))

	// Channels: one thin grey arrow per lane.
	b.WriteString("<g id=\"channels\">\n")
	for c := 0; c < g.Channels(); c++ {
		for vc := 0; vc < vcs; vc++ {
			for _, s := range laneSegments(g, model.ChannelID(c), vc) {
				fmt.Fprintf(&b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#ccc\" stroke-width=\"1\" marker-end=\"url(#arr)\"/>\n", f1(s[0]), f1(s[1]), f1(s[2]), f1(s[3]))
			}
		}
	}
	b.WriteString("</g>\n")

	// Message paths: thin dashed lines in the message's colour, on lane 0.
	b.WriteString("<g id=\"paths\">\n")
	for i, m := range p.Messages {
		for _, c := range m.Path {
			for _, s := range laneSegments(g, c, 0) {
				fmt.Fprintf(&b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\" opacity=\"0.7\"/>\n", f1(s[0]), f1(s[1]), f1(s[2]), f1(s[3]), MessageColor(i))
			}
		}
	}
	b.WriteString("</g>\n")

	// Holds: thick lines on the held lane, labelled with the buffered flit count.
	b.WriteString("<g id=\"holds\">\n")
	for _, hd := range p.Holds {
		segs := laneSegments(g, hd.Channel, hd.VC)
		for _, s := range segs {
			fmt.Fprintf(&b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"4\" stroke-linecap=\"round\"><title>%s holds %s vc%d (%d flits)</title></line>\n",
				f1(s[0]), f1(s[1]), f1(s[2]), f1(s[3]), MessageColor(hd.Message), html.EscapeString(p.Messages[hd.Message].Name), g.ChannelName(hd.Channel), hd.VC, hd.Flits)
		}
		s := segs[len(segs)-1]
		mx, my := (s[0]+s[2])/2, (s[1]+s[3])/2
		fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" fill=\"%s\" font-size=\"9\">%s(%d)</text>\n", f1(mx+3), f1(my-3), MessageColor(hd.Message), html.EscapeString(p.Messages[hd.Message].Name), hd.Flits)
	}
	b.WriteString("</g>\n")

	// Nodes, with sources and destinations marked.
	b.WriteString("<g id=\"nodes\">\n")
	for v := 0; v < g.Nodes(); v++ {
		x, y := nodeXY(g, model.NodeID(v))
		fmt.Fprintf(&b, "<circle cx=\"%s\" cy=\"%s\" r=\"%s\" fill=\"#f8f8f8\" stroke=\"#333\"/>\n", f1(x), f1(y), f1(nodeR))
		fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\" font-size=\"8\">%s</text>\n", f1(x), f1(y+3), g.NodeName(model.NodeID(v)))
	}
	for i, m := range p.Messages {
		x, y := nodeXY(g, m.Source)
		fmt.Fprintf(&b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"><title>%s source</title></rect>\n",
			f1(x-nodeR-3-float64(2*i)), f1(y-nodeR-3-float64(2*i)), f1(2*nodeR+6+float64(4*i)), f1(2*nodeR+6+float64(4*i)), MessageColor(i), html.EscapeString(m.Name))
		for j, d := range m.Destinations {
			x, y := nodeXY(g, d)
			fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" fill=\"%s\" font-size=\"10\">%s%d</text>\n", f1(x+nodeR-2), f1(y-nodeR+2-float64(10*i)), MessageColor(i), html.EscapeString(destLabel(m.Name)), j+1)
		}
	}
	b.WriteString("</g>\n")

	// Blocked headers: a red ring at the node and a red arrow along the wanted lane 0.
	b.WriteString("<g id=\"blocked\">\n")
	for _, bl := range p.Blocked {
		x, y := nodeXY(g, bl.At)
		fmt.Fprintf(&b, "<circle cx=\"%s\" cy=\"%s\" r=\"%s\" fill=\"none\" stroke=\"#e00\" stroke-width=\"3\"><title>%s blocked</title></circle>\n", f1(x), f1(y), f1(nodeR+4), html.EscapeString(bl.Label))
		if bl.Wants != model.None {
			s := laneSegments(g, bl.Wants, 0)[0]
			fmt.Fprintf(&b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#e00\" stroke-width=\"2\" stroke-dasharray=\"2 2\" marker-end=\"url(#blk)\"/>\n", f1(s[0]), f1(s[1]), f1(s[2]), f1(s[3]))
		}
		fmt.Fprintf(&b, "<text x=\"%s\" y=\"%s\" fill=\"#e00\" font-weight=\"bold\">%s</text>\n", f1(x-nodeR-4), f1(y+nodeR+14), html.EscapeString(bl.Label))
	}
	b.WriteString("</g>\n")

	// Legend.
	b.WriteString("<g id=\"legend\">\n")
	row := legendTop
	for i, m := range p.Messages {
		fmt.Fprintf(&b, "<line x1=\"10\" y1=\"%s\" x2=\"30\" y2=\"%s\" stroke=\"%s\" stroke-width=\"4\"/>\n", f1(row-4), f1(row-4), MessageColor(i))
		text := m.Name + ": " + route(g, m)
		if m.Note != "" {
			text += " (" + m.Note + ")"
		}
		fmt.Fprintf(&b, "<text x=\"36\" y=\"%s\">%s</text>\n", f1(row), html.EscapeString(text))
		row += legendRow
	}
	for _, bl := range p.Blocked {
		want := "delivery (the ejection channel)"
		if bl.Wants != model.None {
			want = g.ChannelName(bl.Wants)
		}
		fmt.Fprintf(&b, "<text x=\"10\" y=\"%s\" fill=\"#e00\">blocked: %s of %s at %s waits for %s</text>\n", f1(row), html.EscapeString(bl.Label), html.EscapeString(p.Messages[bl.Message].Name), g.NodeName(bl.At), want)
		row += legendRow
	}
	for _, n := range p.Notes {
		fmt.Fprintf(&b, "<text x=\"10\" y=\"%s\">%s</text>\n", f1(row), html.EscapeString(n))
		row += legendRow
	}
	b.WriteString("</g>\n</svg>\n")
	return b.Bytes(), nil
}

func (p FlitPicture) check(vcs int) error {
	g := p.Grid
	node := func(v model.NodeID) bool { return v >= 0 && int(v) < g.Nodes() }
	ch := func(c model.ChannelID) bool { return c >= 0 && int(c) < g.Channels() }
	for i, m := range p.Messages {
		if !node(m.Source) {
			return fmt.Errorf("render: message %d source %d is not a node of %v", i, m.Source, g)
		}
		for _, d := range m.Destinations {
			if !node(d) {
				return fmt.Errorf("render: message %d destination %d is not a node of %v", i, d, g)
			}
		}
		for _, c := range m.Path {
			if !ch(c) {
				return fmt.Errorf("render: message %d path channel %d is not a channel of %v", i, c, g)
			}
		}
	}
	for i, h := range p.Holds {
		if !ch(h.Channel) || h.VC < 0 || h.VC >= vcs || h.Message < 0 || h.Message >= len(p.Messages) {
			return fmt.Errorf("render: hold %d (channel %d vc %d message %d) is out of range", i, h.Channel, h.VC, h.Message)
		}
	}
	for i, bl := range p.Blocked {
		if !node(bl.At) || (bl.Wants != model.None && !ch(bl.Wants)) || bl.Message < 0 || bl.Message >= len(p.Messages) {
			return fmt.Errorf("render: blocked header %d (node %d channel %d message %d) is out of range", i, bl.At, bl.Wants, bl.Message)
		}
	}
	return nil
}

func route(g *model.Grid, m FlitMessage) string {
	s := g.NodeName(m.Source) + " ->"
	for i, d := range m.Destinations {
		if i > 0 {
			s += ","
		}
		s += " " + g.NodeName(d)
	}
	return s
}

// destLabel prefixes destination numbers: "a" for message "A" (a1, a2 as in 000 Fig. 3),
// "m0." for message "m0".
func destLabel(name string) string {
	if len(name) == 1 {
		return lower(name)
	}
	return name + "."
}

func lower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// rows is the number of node rows drawn: 1 for a ring or line (1-D), else Size(1).
func rows(g *model.Grid) int {
	if g.Dims() == 1 {
		return 1
	}
	return g.Size(1)
}

// nodeXY places node v: x grows to the right, y grows upwards (north up, as in 000 Fig. 3).
func nodeXY(g *model.Grid, v model.NodeID) (float64, float64) {
	if g.Dims() == 1 {
		return margin + float64(g.Coord(v, 0))*cell, margin
	}
	x, y := g.Coord(v, 0), g.Coord(v, 1)
	return margin + float64(x)*cell, margin + float64(g.Size(1)-1-y)*cell
}

// laneSegments returns the line segments (x1, y1, x2, y2) that draw lane vc of channel c:
// one segment between neighbours, two stubs for a torus wrap-around channel (leaving the
// grid at From's side and entering it at To's side). Lanes sit to the right of the
// channel's direction, so the two directions of a link and the lanes of one channel are
// apart.
func laneSegments(g *model.Grid, c model.ChannelID, vc int) [][4]float64 {
	ch := g.Channel(c)
	x1, y1 := nodeXY(g, ch.From)
	x2, y2 := nodeXY(g, ch.To)
	// Unit vector of the channel's direction in picture coordinates.
	var ux, uy float64
	if ch.Dim == 0 {
		ux = float64(ch.Dir.Sign())
	} else {
		uy = -float64(ch.Dir.Sign())
	}
	// Right-hand normal in picture coordinates (y down): (-uy, ux).
	nx, ny := -uy, ux
	off := laneGap * float64(vc+1)
	ox, oy := nx*off, ny*off
	if !ch.Wrap {
		return [][4]float64{{
			x1 + ux*nodeR + ox, y1 + uy*nodeR + oy,
			x2 - ux*nodeR + ox, y2 - uy*nodeR + oy,
		}}
	}
	stub := cell * 0.45
	return [][4]float64{
		{x1 + ux*nodeR + ox, y1 + uy*nodeR + oy, x1 + ux*stub + ox, y1 + uy*stub + oy},
		{x2 - ux*stub + ox, y2 - uy*stub + oy, x2 - ux*nodeR + ox, y2 - uy*nodeR + oy},
	}
}

// f1 formats a coordinate with one decimal, the same on every platform.
func f1(v float64) string {
	v = math.Round(v*10) / 10
	if v == 0 {
		v = 0 // no "-0.0"
	}
	return fmt.Sprintf("%.1f", v)
}
