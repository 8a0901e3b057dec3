// Flit pictures: a flit-level network state on a 1-D or 2-D mesh or torus, with the
// nodes, the directed channels with their virtual-channel lanes, which message holds which
// channel and lane, the blocked headers, the channels they wait for and who holds them,
// numbered around the wait-for cycle, and each message's paths. It is how wormcheck shows a
// deadlock counterexample (for example 000 Fig. 3: two multicasts blocking each other).

package render

import (
	"bytes"
	"fmt"
	"html"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/wormcheck/wormcheck/model/topology"
)

// FlitMessage is one message of the picture.
type FlitMessage struct {
	Name         string               // e.g. "m0"; the same name the witness text uses
	Source       topology.NodeID      // where it was injected
	Destinations []topology.NodeID    // in worm order d1..dn
	Path         []topology.ChannelID // the channels of its routes (its multicast tree), drawn thin and dashed
	Note         string               // shown after the route in the legend
}

// Hold says that a message holds a lane (virtual channel) of a channel in the pictured
// state, with Flits flits buffered in it.
type Hold struct {
	Channel topology.ChannelID
	VC      int
	Message int // index into FlitPicture.Messages
	Flits   int
}

// Blocked marks a header of a message that cannot advance: it sits at node At and waits
// for Wants (topology.None if it waits for no channel in particular, e.g. for delivery).
// Under an adaptive relation the header waits for every output the relation permits
// (all busy): AnyOf lists them, most preferred (Wants) first, when there is more than
// one; each is drawn dashed in the header's message colour and the legend says "waits
// for any of".
type Blocked struct {
	Message int
	At      topology.NodeID
	Wants   topology.ChannelID
	Label   string // e.g. "m0.d2": the header of m0's second destination
	AnyOf   []topology.ChannelID
}

// CycleLink is one link of a wait-for cycle, in order around the cycle: the blocked
// header Blocked[Header] waits for lane VC of channel Channel (one of its permitted
// outputs; topology.None: the ejection channel), and message Holder holds that lane (VC
// -1: every lane of the channel, each held by some message of the cycle).
type CycleLink struct {
	Header  int
	Channel topology.ChannelID
	VC      int
	Holder  int
}

// LoopHop is a virtual channel that a lasso's cycle moves a flit of Message into, at
// the cycle's steps Steps (1-based within the cycle).
type LoopHop struct {
	Channel topology.ChannelID
	VC      int
	Message int
	Steps   []int
}

const loopColour = "#7a3fb0"

// FlitPicture is what DrawFlit renders.
type FlitPicture struct {
	Title    string            // first line: what the picture shows
	Subtitle string            // second line: the instance and its parameters
	Grid     *topology.Network // a 1-D or 2-D mesh or torus
	VCs      int               // lanes per channel (>= 1)
	Messages []FlitMessage
	Holds    []Hold
	Blocked  []Blocked
	Cycle    []CycleLink // the wait-for cycle, numbered 1.. in the drawing
	Notes    []string    // extra legend lines
	// Loop is, for a lasso, the hops its repeated cycle takes (drawn in purple, each
	// numbered with its steps in the cycle); LoopText lists the cycle's steps.
	Loop     []LoopHop
	LoopText []string
	// Full draws the whole grid; otherwise the picture is cropped to the nodes the
	// messages touch, with one node of context around them.
	Full bool
}

// Layout constants, in SVG user units.
const (
	cell      = 120.0
	margin    = 50.0
	nodeR     = 13.0
	laneGap   = 5.0
	legendRow = 17.0
	charW     = 6.7 // width of one monospace character at font-size 11
	hotRed    = "#d00000"
)

// palette gives messages distinct colours, in message order (colour-blind safe first).
var palette = []string{"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#8c564b", "#7f7f7f", "#bcbd22"}

// MessageColor returns the colour of message i.
func MessageColor(i int) string { return palette[i%len(palette)] }

// frame maps grid coordinates into the picture: the crop box [x0,x1]x[y0,y1] of node
// coordinates, drawn with y up (north up, as in 000 Fig. 3), starting at offset top.
type frame struct {
	g              *topology.Network
	at             []topology.Point // a graph's layout (graphLayout), in cells; nil on grids
	keep           []bool           // with at: the nodes drawn (nil: all), origin their corner
	origin         topology.Point
	span           topology.Point
	x0, x1, y0, y1 int
	top            float64
	pad            float64 // space around the nodes: room for wrap-around stubs on a torus
}

func (f frame) inside(v topology.NodeID) bool {
	if f.at != nil {
		return f.keep == nil || f.keep[v]
	}
	x, y := f.g.Coord(v, 0), 0
	if f.g.Dims() == 2 {
		y = f.g.Coord(v, 1)
	}
	return x >= f.x0 && x <= f.x1 && y >= f.y0 && y <= f.y1
}

func (f frame) xy(v topology.NodeID) (float64, float64) {
	if f.at != nil {
		return f.pad + (f.at[v].X-f.origin.X)*cell, f.top + (f.at[v].Y-f.origin.Y)*cell
	}
	x, y := f.g.Coord(v, 0), 0
	if f.g.Dims() == 2 {
		y = f.g.Coord(v, 1)
	}
	return f.pad + float64(x-f.x0)*cell, f.top + float64(f.y1-y)*cell
}

func (f frame) width() float64 {
	if f.at != nil {
		return 2*f.pad + f.span.X*cell
	}
	return 2*f.pad + float64(f.x1-f.x0)*cell
}

func (f frame) height() float64 {
	if f.at != nil {
		return 2*f.pad + f.span.Y*cell
	}
	return 2*f.pad + float64(f.y1-f.y0)*cell
}

// DrawFlit renders p as an SVG document: a 1-D or 2-D mesh or torus on its grid, any
// other network (a hypercube, a grid of three or more dimensions, an irregular network)
// where graphLayout places its nodes. It fails only when p has no network or names a
// node, channel, virtual channel or message that is not there.
func DrawFlit(p FlitPicture) ([]byte, error) {
	g := p.Grid
	if g == nil {
		return nil, fmt.Errorf("render: picture needs a network")
	}
	vcs := max(p.VCs, 1)
	if err := p.check(vcs); err != nil {
		return nil, err
	}
	fr := p.crop()
	titleH := 24.0
	if p.Subtitle != "" {
		titleH += 16
	}
	fr.top = titleH + fr.pad - 10
	legend := p.legend(vcs)
	longest := max(len(p.Title)*13/11, len(p.Subtitle))
	for _, l := range legend {
		longest = max(longest, len(l.text)+6)
	}
	w := max(fr.width(), 20+charW*float64(longest))
	legendTop := fr.top + fr.height() - fr.pad + 10
	h := legendTop + float64(len(legend))*legendRow + 10

	var b bytes.Buffer
	p.open(&b, fr, w, h, titleH)
	p.drawChannels(&b, fr, vcs)
	p.drawPaths(&b, fr, vcs)
	p.drawHolds(&b, fr, vcs)
	p.drawLoop(&b, fr, vcs)
	p.drawNodes(&b, fr)
	p.drawBlocked(&b, fr, vcs)
	p.drawCycle(&b, fr)
	b.WriteString("<g id=\"legend\">\n")
	row := legendTop
	for _, l := range legend {
		l.draw(&b, row)
		row += legendRow
	}
	b.WriteString("</g>\n</svg>\n")
	return settleLabels(b.Bytes()), nil
}

// legend is the picture's legend: every colour, line style and ring, then the cycle
// (or the lasso's loop), the headers blocked outside it and the notes.
func (p FlitPicture) legend(vcs int) []legendLine {
	g := p.Grid
	var legend []legendLine
	for i, m := range p.Messages {
		text := m.Name + ": " + route(g, m)
		if m.Note != "" {
			text += " (" + m.Note + ")"
		}
		legend = append(legend, legendLine{swatch: "msg", colour: MessageColor(i), text: text})
	}
	legend = append(legend,
		legendLine{swatch: "lane", text: fmt.Sprintf("channel, one lane per virtual channel (%d), lanes right of the direction", vcs)},
		legendLine{swatch: "route", text: "a message's route (dashed, its colour)"},
		legendLine{swatch: "hold", text: "lane held by a message; label name:flits buffered in it"},
		legendLine{swatch: "source", text: "source of a message (square); mN.dK: its K-th destination"})
	if g.Kind() == topology.Torus && !laidOut(g) {
		legend = append(legend, legendLine{text: "a stub at an edge is a wrap-around channel; it continues at the opposite edge"})
	}
	if len(p.Blocked) > 0 {
		legend = append(legend,
			legendLine{swatch: "ring", text: "blocked header (red ring) and the channel it waits for (red dashed)"})
	}
	for _, i := range p.anyOfMessages() {
		legend = append(legend, legendLine{swatch: "anyof", colour: MessageColor(i),
			text: fmt.Sprintf("%s's blocked header waits for any of its permitted outputs, all busy (dashed)", p.Messages[i].Name)})
	}
	if len(p.Cycle) > 0 {
		legend = append(legend, legendLine{swatch: "num", text: "position in the wait-for cycle"})
		legend = append(legend, legendLine{swatch: "wait", text: "wait-for edge: from a message's blocked header to the header it blocks (it holds what that one waits for)"})
		legend = append(legend, legendLine{text: "wait-for cycle:", bold: true})
		for k, l := range p.Cycle {
			legend = append(legend, legendLine{swatch: "numk", n: k + 1, colour: hotRed, text: p.cycleText(l)})
		}
	}
	if len(p.Loop) > 0 {
		legend = append(legend, legendLine{swatch: "hot", colour: loopColour, text: "a hop of the lasso's cycle, labelled with its steps in the cycle; the cycle repeats forever"})
		legend = append(legend, legendLine{text: "the cycle:", bold: true})
		for _, t := range p.LoopText {
			legend = append(legend, legendLine{text: t})
		}
	}
	inCycle := map[int]bool{}
	for _, l := range p.Cycle {
		inCycle[l.Header] = true
	}
	for i, bl := range p.Blocked {
		if inCycle[i] {
			continue
		}
		want := "delivery (the ejection channel)"
		if len(bl.AnyOf) > 1 {
			want = p.anyOfText(bl)
		} else if bl.Wants != topology.None {
			want = g.ChannelName(bl.Wants)
		}
		legend = append(legend, legendLine{colour: hotRed, text: fmt.Sprintf("blocked: %s at %s waits for %s", bl.Label, g.NodeName(bl.At), want)})
	}
	if len(p.Notes) > 0 {
		legend = append(legend, legendLine{text: "the model's words:", bold: true})
	}
	for _, n := range p.Notes {
		legend = append(legend, legendLine{text: n})
	}

	return legend
}

// open starts the SVG document of size w x h: its markers, the title and subtitle and,
// for a cropped frame, what it shows.
func (p FlitPicture) open(b *bytes.Buffer, fr frame, w, h, titleH float64) {
	g := p.Grid
	fmt.Fprintf(b, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%s\" height=\"%s\" viewBox=\"0 0 %s %s\" font-family=\"monospace\" font-size=\"11\">\n", f1(w), f1(h), f1(w), f1(h))
	b.WriteString("<defs>\n")
	b.WriteString("<marker id=\"arr\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#aaa\"/></marker>\n")
	fmt.Fprintf(b, "<marker id=\"blk\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"%s\"/></marker>\n", hotRed)
	for _, i := range p.anyOfMessages() {
		fmt.Fprintf(b, "<marker id=\"blk%d\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"%s\"/></marker>\n", i, MessageColor(i))
	}
	fmt.Fprintf(b, "<marker id=\"wait\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"%s\"/></marker>\n", waitColour)
	fmt.Fprintf(b, "<marker id=\"loop\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"5\" markerHeight=\"5\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"%s\"/></marker>\n", loopColour)
	b.WriteString("</defs>\n")
	fmt.Fprintf(b, "<rect width=\"%s\" height=\"%s\" fill=\"white\"/>\n", f1(w), f1(h))
	fmt.Fprintf(b, "<text x=\"10\" y=\"20\" font-size=\"13\" font-weight=\"bold\">%s</text>\n", html.EscapeString(p.Title))
	if p.Subtitle != "" {
		fmt.Fprintf(b, "<text x=\"10\" y=\"37\">%s</text>\n", html.EscapeString(p.Subtitle))
	}
	switch {
	case fr.at != nil && !fr.full():
		fmt.Fprintf(b, "<text x=\"10\" y=\"%s\" fill=\"#888\" font-size=\"9\">cropped: %s of %s (the groups the worms use)</text>\n",
			f1(titleH+8), html.EscapeString(fr.keptGroups()), g.Spec())
	case !fr.full():
		fmt.Fprintf(b, "<text x=\"10\" y=\"%s\" fill=\"#888\" font-size=\"9\">cropped: x %d..%d, y %d..%d of %s</text>\n",
			f1(titleH+8), fr.x0, fr.x1, fr.y0, fr.y1, g.Spec())
	}

}

// drawChannels draws the channels: one thin grey arrow per lane.
func (p FlitPicture) drawChannels(b *bytes.Buffer, fr frame, vcs int) {
	g := p.Grid
	b.WriteString("<g id=\"channels\">\n")
	for c := 0; c < g.Channels(); c++ {
		for vc := 0; vc < vcs; vc++ {
			for _, s := range fr.lane(topology.ChannelID(c), vc) {
				fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#ccc\" stroke-width=\"1\" marker-end=\"url(#arr)\"/>\n", f1(s[0]), f1(s[1]), f1(s[2]), f1(s[3]))
			}
		}
	}
	b.WriteString("</g>\n")
}

// drawPaths draws the messages' paths: dashed lines in the message's colour, outside
// the lanes.
func (p FlitPicture) drawPaths(b *bytes.Buffer, fr frame, vcs int) {
	b.WriteString("<g id=\"paths\">\n")
	for i, m := range p.Messages {
		for _, c := range m.Path {
			for _, s := range fr.lane(c, vcs) {
				fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\" opacity=\"0.8\"/>\n", f1(s[0]), f1(s[1]), f1(s[2]), f1(s[3]), MessageColor(i))
			}
		}
	}
	b.WriteString("</g>\n")
}

// drawHolds draws the lanes held: thick lines on the held lane, labelled outside the
// link.
func (p FlitPicture) drawHolds(b *bytes.Buffer, fr frame, vcs int) {
	g := p.Grid
	b.WriteString("<g id=\"holds\">\n")
	for _, hd := range p.Holds {
		segs := fr.lane(hd.Channel, hd.VC)
		name := p.Messages[hd.Message].Name
		for _, s := range segs {
			fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"4\" stroke-linecap=\"round\"><title>%s holds %s vc%d (%d flits)</title></line>\n",
				f1(s[0]), f1(s[1]), f1(s[2]), f1(s[3]), MessageColor(hd.Message), html.EscapeString(name), g.ChannelName(hd.Channel), hd.VC, hd.Flits)
		}
		if len(segs) == 0 {
			continue
		}
		s := segs[len(segs)-1]
		nx, ny := fr.normal(hd.Channel)
		off := laneGap*float64(vcs+1) + 8 + 10*float64(hd.VC)
		mx, my := (s[0]+s[2])/2+nx*off, (s[1]+s[3])/2+ny*off+3.5
		fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" fill=\"%s\" font-size=\"9\" text-anchor=\"middle\" class=\"lbl\">%s:%d</text>\n", f1(mx), f1(my), MessageColor(hd.Message), html.EscapeString(name), hd.Flits)
	}
	b.WriteString("</g>\n")
}

// drawLoop draws the lasso's cycle: purple arrows outside the lanes, labelled with
// their steps.
func (p FlitPicture) drawLoop(b *bytes.Buffer, fr frame, vcs int) {
	if len(p.Loop) > 0 {
		b.WriteString("<g id=\"loop\">\n")
		for _, lh := range p.Loop {
			segs := fr.lane(lh.Channel, vcs+1+lh.VC)
			for j, sg := range segs {
				marker := ""
				if j == len(segs)-1 {
					marker = " marker-end=\"url(#loop)\""
				}
				fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"2.5\"%s/>\n", f1(sg[0]), f1(sg[1]), f1(sg[2]), f1(sg[3]), loopColour, marker)
			}
			if len(segs) == 0 {
				continue
			}
			// Three quarters along, clear of the hold label at the middle.
			sg := segs[len(segs)-1]
			nx, ny := fr.normal(lh.Channel)
			x, y := sg[0]+(sg[2]-sg[0])*0.75+nx*10, sg[1]+(sg[3]-sg[1])*0.75+ny*10+3
			var steps []string
			for _, k := range lh.Steps {
				steps = append(steps, fmt.Sprint(k))
			}
			fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" fill=\"%s\" font-size=\"9\" text-anchor=\"middle\" class=\"loop-step\">%s</text>\n", f1(x), f1(y), loopColour, strings.Join(steps, ","))
		}
		b.WriteString("</g>\n")
	}
}

// drawNodes draws the nodes, with sources and destinations marked.
func (p FlitPicture) drawNodes(b *bytes.Buffer, fr frame) {
	g := p.Grid
	b.WriteString("<g id=\"nodes\">\n")
	for v := 0; v < g.Nodes(); v++ {
		if !fr.inside(topology.NodeID(v)) {
			continue
		}
		x, y := fr.xy(topology.NodeID(v))
		fmt.Fprintf(b, "<circle cx=\"%s\" cy=\"%s\" r=\"%s\" fill=\"#f8f8f8\" stroke=\"#333\"/>\n", f1(x), f1(y), f1(nodeR))
		fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\" font-size=\"8\">%s</text>\n", f1(x), f1(y+3), g.NodeName(topology.NodeID(v)))
	}
	destRow := map[topology.NodeID]int{}
	for i, m := range p.Messages {
		x, y := fr.xy(m.Source)
		fmt.Fprintf(b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"><title>%s source</title></rect>\n",
			f1(x-nodeR-3-float64(2*i)), f1(y-nodeR-3-float64(2*i)), f1(2*nodeR+6+float64(4*i)), f1(2*nodeR+6+float64(4*i)), MessageColor(i), html.EscapeString(m.Name))
		for j, d := range m.Destinations {
			x, y := fr.xy(d)
			k := destRow[d]
			destRow[d]++
			// Right of the source squares (which grow by 2 per message) and stacked upwards.
			fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" fill=\"%s\" font-size=\"9\" class=\"lbl\">%s.d%d</text>\n", f1(x+nodeR+5+2*float64(len(p.Messages))), f1(y-nodeR-2-float64(10*k)), MessageColor(i), html.EscapeString(m.Name), j+1)
		}
	}
	b.WriteString("</g>\n")
}

// drawBlocked draws the blocked headers: a red ring at the node and a red dashed arrow
// along the wanted channel; their labels stack under the node.
func (p FlitPicture) drawBlocked(b *bytes.Buffer, fr frame, vcs int) {
	g := p.Grid
	b.WriteString("<g id=\"blocked\">\n")
	labelRow := map[topology.NodeID]int{}
	for _, bl := range p.Blocked {
		x, y := fr.xy(bl.At)
		fmt.Fprintf(b, "<circle cx=\"%s\" cy=\"%s\" r=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"3\"><title>%s blocked</title></circle>\n", f1(x), f1(y), f1(nodeR+4), hotRed, html.EscapeString(bl.Label))
		if len(bl.AnyOf) > 1 {
			// An adaptive header waits for every permitted output: each dashed in its
			// message's colour, the preferred one (Wants) too, outside the lanes and the
			// routes so that the holders' lanes stay visible.
			for _, c := range bl.AnyOf {
				for _, s := range fr.lane(c, vcs+1) {
					fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"3 2\" marker-end=\"url(#blk%d)\"><title>%s waits for %s (busy)</title></line>\n", f1(s[0]), f1(s[1]), f1(s[2]), f1(s[3]), MessageColor(bl.Message), bl.Message, html.EscapeString(bl.Label), g.ChannelName(c))
				}
			}
		} else if bl.Wants != topology.None {
			for _, s := range fr.lane(bl.Wants, 0) {
				fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"3 2\" marker-end=\"url(#blk)\"/>\n", f1(s[0]), f1(s[1]), f1(s[2]), f1(s[3]), hotRed)
			}
		}
		k := labelRow[bl.At]
		labelRow[bl.At]++
		fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" fill=\"%s\" font-weight=\"bold\" font-size=\"10\" class=\"lbl\">%s</text>\n", f1(x+nodeR+2), f1(y+nodeR+10+float64(11*k)), hotRed, html.EscapeString(bl.Label))
	}
	b.WriteString("</g>\n")
}

// drawCycle draws the wait-for cycle: a numbered red disc on each wanted channel, a
// third of the way, and the wait-for edges.
func (p FlitPicture) drawCycle(b *bytes.Buffer, fr frame) {
	if len(p.Cycle) == 0 {
		return
	}
	b.WriteString("<g id=\"cycle\">\n")
	for k, l := range p.Cycle {
		bl := p.Blocked[l.Header]
		var x, y float64
		if l.Channel == topology.None {
			x, y = fr.xy(bl.At)
			x, y = x+nodeR+2, y+nodeR+2
		} else if s := fr.lane(l.Channel, 0); len(s) > 0 {
			x, y = s[0][0]+(s[0][2]-s[0][0])*0.35, s[0][1]+(s[0][3]-s[0][1])*0.35
		}
		fmt.Fprintf(b, "<circle cx=\"%s\" cy=\"%s\" r=\"7\" fill=\"%s\"><title>%s</title></circle>\n", f1(x), f1(y), hotRed, html.EscapeString(p.cycleText(l)))
		fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" fill=\"white\" font-size=\"9\" font-weight=\"bold\" text-anchor=\"middle\">%d</text>\n", f1(x), f1(y+3), k+1)
	}
	b.WriteString("</g>\n")
	// The wait-for edges: from each link's holder (its own blocked header in the cycle)
	// to the header it blocks, so the cycle can be followed around the picture.
	b.WriteString("<g id=\"waitfor\">\n")
	// Their labels go where they cover no node, cycle number or label drawn so far.
	pl := newPlacer(b.Bytes())
	for k, l := range p.Cycle {
		fx, fy, ok := p.holderAt(fr, k)
		if !ok {
			continue
		}
		bl := p.Blocked[l.Header]
		tx, ty := fr.xy(bl.At)
		waitEdge(b, pl, fx, fy, tx, ty, fmt.Sprintf("%s blocks %s", p.Messages[l.Holder].Name, bl.Label))
	}
	b.WriteString("</g>\n")
}

// waitColour draws the wait-for edges: darker than the red of blocked headers, so the
// edges stand apart from the channels the headers wait for.
const waitColour = "#8b0000"

// holderAt returns where the holder of cycle link k is drawn from: the node of its own
// blocked header in the cycle (the next link's, around the cycle, when it is the
// holder's), false when the holder has no blocked header in the cycle.
func (p FlitPicture) holderAt(fr frame, k int) (float64, float64, bool) {
	holder := p.Cycle[k].Holder
	for j := range p.Cycle {
		l := p.Cycle[(k+1+j)%len(p.Cycle)]
		if bl := p.Blocked[l.Header]; bl.Message == holder {
			x, y := fr.xy(bl.At)
			return x, y, true
		}
	}
	return 0, 0, false
}

// waitEdge draws a wait-for edge from (fx, fy) to (tx, ty) as a curve bending to its
// left (two edges between the same nodes in opposite directions bend apart), cut back
// to leave the node rings free, labelled at its middle; between headers at the same node
// it is a small loop above the node.
func waitEdge(b *bytes.Buffer, pl *placer, fx, fy, tx, ty float64, label string) {
	const cut = nodeR + 7
	dx, dy := tx-fx, ty-fy
	d := math.Hypot(dx, dy)
	var path string
	var lx, ly, nx, ny float64
	if d < 2*cut {
		path = fmt.Sprintf("M%s,%s C%s,%s %s,%s %s,%s", f1(fx-6), f1(fy-cut+2), f1(fx-30), f1(fy-60), f1(fx+30), f1(fy-60), f1(fx+6), f1(fy-cut+2))
		lx, ly = fx, fy-52
	} else {
		ux, uy := dx/d, dy/d
		// The left normal of the direction, in SVG coordinates (y down).
		nx, ny = uy, -ux
		// Edges between neighbours bend more, to clear the lanes and their labels.
		bend := max(0.22*d, 0.36*cell)
		sx, sy := fx+ux*cut+nx*cut*0.5, fy+uy*cut+ny*cut*0.5
		ex, ey := tx-ux*cut+nx*cut*0.5, ty-uy*cut+ny*cut*0.5
		cx, cy := (fx+tx)/2+nx*bend, (fy+ty)/2+ny*bend
		path = fmt.Sprintf("M%s,%s Q%s,%s %s,%s", f1(sx), f1(sy), f1(cx), f1(cy), f1(ex), f1(ey))
		// The curve's middle is half-way between the chord's middle and the control point.
		lx, ly = (fx+tx)/2+nx*bend/2, (fy+ty)/2+ny*bend/2
	}
	// The label stays inside the picture's left edge (its text is centred on lx), moved
	// along the edge's normal off what is drawn already.
	lx = max(lx, 2.8*float64(len(label))+4)
	lx, by := pl.place(lx, ly+3, nx, ny, 9, label)
	lx = max(lx, 2.8*float64(len(label))+4)
	fmt.Fprintf(b, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\" opacity=\"0.85\" marker-end=\"url(#wait)\" class=\"wait-edge\"><title>%s</title></path>\n", path, waitColour, html.EscapeString(label))
	fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" fill=\"%s\" font-size=\"9\" font-weight=\"bold\" text-anchor=\"middle\" stroke=\"white\" stroke-width=\"3\" paint-order=\"stroke\" class=\"wait-label\">%s</text>\n", f1(lx), f1(by), waitColour, html.EscapeString(label))
}

// cycleText is the legend line of a cycle link, in the words of model/flit's Waits.
func (p FlitPicture) cycleText(l CycleLink) string {
	g := p.Grid
	bl := p.Blocked[l.Header]
	want := "delivery at " + g.NodeName(bl.At)
	if l.Channel != topology.None {
		want = g.ChannelName(l.Channel)
		if l.VC >= 0 {
			want += fmt.Sprintf(" vc%d", l.VC)
		}
	}
	if len(bl.AnyOf) > 1 {
		return fmt.Sprintf("%s at %s waits for %s; %s held by %s", bl.Label, g.NodeName(bl.At), p.anyOfText(bl), want, p.Messages[l.Holder].Name)
	}
	return fmt.Sprintf("%s at %s waits for %s, held by %s", bl.Label, g.NodeName(bl.At), want, p.Messages[l.Holder].Name)
}

// anyOfText names the outputs an adaptive header waits for: "any of (0,0)->(1,0),
// (0,0)->(0,1) (all busy)".
func (p FlitPicture) anyOfText(bl Blocked) string {
	var names []string
	for _, c := range bl.AnyOf {
		names = append(names, p.Grid.ChannelName(c))
	}
	return "any of " + strings.Join(names, ", ") + " (all busy)"
}

// anyOfMessages returns, ascending, the messages with a blocked header that waits for
// more than one output.
func (p FlitPicture) anyOfMessages() []int {
	var out []int
	for _, bl := range p.Blocked {
		if len(bl.AnyOf) > 1 && !slices.Contains(out, bl.Message) {
			out = append(out, bl.Message)
		}
	}
	slices.Sort(out)
	return out
}

// legendLine is one row of a legend: a swatch (its kind and colour) and a text.
type legendLine struct {
	swatch string
	colour string
	n      int
	text   string
	bold   bool
	dash   string
}

func (l legendLine) draw(b *bytes.Buffer, row float64) {
	y := row - 4
	switch l.swatch {
	case "msg", "hold":
		c := l.colour
		if c == "" {
			c = "#555"
		}
		fmt.Fprintf(b, "<line x1=\"10\" y1=\"%s\" x2=\"34\" y2=\"%s\" stroke=\"%s\" stroke-width=\"4\" stroke-linecap=\"round\"/>\n", f1(y), f1(y), c)
	case "hot":
		fmt.Fprintf(b, "<line x1=\"8\" y1=\"%s\" x2=\"34\" y2=\"%s\" stroke=\"%s\" stroke-width=\"3\"/>\n", f1(y), f1(y), l.colour)
	case "sub":
		dash := ""
		if l.dash != "" {
			dash = " stroke-dasharray=\"" + l.dash + "\""
		}
		fmt.Fprintf(b, "<line x1=\"8\" y1=\"%s\" x2=\"36\" y2=\"%s\" stroke=\"%s\" stroke-width=\"2\"%s/><circle cx=\"22\" cy=\"%s\" r=\"4\" fill=\"%s\"/>\n", f1(y), f1(y), l.colour, dash, f1(y), l.colour)
	case "block":
		fmt.Fprintf(b, "<rect x=\"12\" y=\"%s\" width=\"20\" height=\"11\" fill=\"none\" stroke=\"#999\" stroke-dasharray=\"4 3\"/>\n", f1(y-5.5))
	case "pair":
		fmt.Fprintf(b, "<circle cx=\"22\" cy=\"%s\" r=\"6\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>\n", f1(y), hotRed)
	case "dot":
		fmt.Fprintf(b, "<circle cx=\"22\" cy=\"%s\" r=\"5\" fill=\"%s\" stroke=\"#555\"/>\n", f1(y), l.colour)
	case "band":
		fmt.Fprintf(b, "<line x1=\"12\" y1=\"%s\" x2=\"32\" y2=\"%s\" stroke=\"%s\" stroke-width=\"12\" opacity=\"0.25\" stroke-linecap=\"round\"/>\n", f1(y), f1(y), l.colour)
	case "lane":
		fmt.Fprintf(b, "<line x1=\"10\" y1=\"%s\" x2=\"34\" y2=\"%s\" stroke=\"#ccc\" marker-end=\"url(#arr)\"/>\n", f1(y), f1(y))
	case "route":
		fmt.Fprintf(b, "<line x1=\"10\" y1=\"%s\" x2=\"34\" y2=\"%s\" stroke=\"#555\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>\n", f1(y), f1(y))
	case "source":
		fmt.Fprintf(b, "<rect x=\"16\" y=\"%s\" width=\"12\" height=\"12\" fill=\"none\" stroke=\"#555\" stroke-width=\"2\"/>\n", f1(y-6))
	case "anyof":
		fmt.Fprintf(b, "<line x1=\"10\" y1=\"%s\" x2=\"34\" y2=\"%s\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"3 2\"/>\n", f1(y), f1(y), l.colour)
	case "wait":
		fmt.Fprintf(b, "<path d=\"M8,%s Q22,%s 36,%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2.5\" marker-end=\"url(#wait)\"/>\n", f1(y+3), f1(y-7), f1(y+3), waitColour)
	case "ring":
		fmt.Fprintf(b, "<circle cx=\"16\" cy=\"%s\" r=\"5\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/><line x1=\"23\" y1=\"%s\" x2=\"36\" y2=\"%s\" stroke=\"%s\" stroke-width=\"2\" stroke-dasharray=\"3 2\" marker-end=\"url(#blk)\"/>\n", f1(y), hotRed, f1(y), f1(y), hotRed)
	case "num", "numk":
		n := "1"
		if l.swatch == "numk" {
			n = fmt.Sprint(l.n)
		}
		c := l.colour
		if c == "" {
			c = hotRed
		}
		fmt.Fprintf(b, "<circle cx=\"22\" cy=\"%s\" r=\"7\" fill=\"%s\"/><text x=\"22\" y=\"%s\" fill=\"white\" font-size=\"9\" font-weight=\"bold\" text-anchor=\"middle\">%s</text>\n", f1(y), c, f1(y+3), n)
	}
	x := "40"
	if l.swatch == "" {
		x = "10"
	}
	attr := ""
	if l.bold {
		attr = " font-weight=\"bold\""
	}
	if l.colour == hotRed && l.swatch == "" {
		attr += " fill=\"" + hotRed + "\""
	}
	fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\"%s>%s</text>\n", x, f1(row), attr, html.EscapeString(l.text))
}

// crop returns the frame of the nodes the picture involves (sources, destinations,
// paths, holds, blocked headers) with one node of context, or the whole grid. On a
// dragonfly it is the groups those nodes are in, whole; other laid-out networks are
// drawn whole.
func (p FlitPicture) crop() frame {
	g := p.Grid
	if laidOut(g) {
		fr := frame{g: g, pad: margin}
		fr.at, fr.span = graphLayout(g)
		if !p.Full {
			p.cropGroups(&fr)
		}
		return fr
	}
	fr := frame{g: g, x1: g.Size(0) - 1, pad: margin}
	if g.Kind() == topology.Torus {
		fr.pad = cell*0.4 + 24 // the stubs of wrap-around channels and their labels
	}
	if g.Dims() == 2 {
		fr.y1 = g.Size(1) - 1
	}
	if p.Full {
		return fr
	}
	lo, hi := [2]int{math.MaxInt, math.MaxInt}, [2]int{-1, -1}
	p.eachInvolved(func(v topology.NodeID) {
		for d := 0; d < g.Dims(); d++ {
			c := g.Coord(v, d)
			lo[d], hi[d] = min(lo[d], c), max(hi[d], c)
		}
	})
	if hi[0] < 0 {
		return fr
	}
	fr.x0, fr.x1 = max(lo[0]-1, 0), min(hi[0]+1, g.Size(0)-1)
	if g.Dims() == 2 {
		fr.y0, fr.y1 = max(lo[1]-1, 0), min(hi[1]+1, g.Size(1)-1)
	}
	return fr
}

// eachInvolved calls add for every node the picture involves: the messages' sources,
// destinations and paths, the held and looping channels' ends, and where headers are
// blocked with the channels they want. The frame and the dragonfly crop both keep these.
func (p FlitPicture) eachInvolved(add func(topology.NodeID)) {
	addCh := func(c topology.ChannelID) {
		ch := p.Grid.Channel(c)
		add(ch.From)
		add(ch.To)
	}
	for _, m := range p.Messages {
		add(m.Source)
		for _, v := range m.Destinations {
			add(v)
		}
		for _, c := range m.Path {
			addCh(c)
		}
	}
	for _, h := range p.Holds {
		addCh(h.Channel)
	}
	for _, l := range p.Loop {
		addCh(l.Channel)
	}
	for _, bl := range p.Blocked {
		add(bl.At)
		if bl.Wants != topology.None {
			addCh(bl.Wants)
		}
		for _, c := range bl.AnyOf {
			addCh(c)
		}
	}
}

// cropGroups narrows fr, on a dragonfly, to the groups of the nodes the picture involves
// (a 3-worm cycle among 2 of 9 groups is lost among 108 nodes otherwise).
func (p FlitPicture) cropGroups(fr *frame) {
	g := p.Grid
	d, ok := g.DragonflyShape()
	if !ok {
		return
	}
	groups := map[int]bool{} // lookup only
	p.eachInvolved(func(v topology.NodeID) { groups[d.Group(v)] = true })
	if len(groups) == 0 || len(groups) == d.G {
		return
	}
	keep := make([]bool, g.Nodes())
	lo := topology.Point{X: math.Inf(1), Y: math.Inf(1)}
	hi := topology.Point{X: math.Inf(-1), Y: math.Inf(-1)}
	for v := range keep {
		if keep[v] = groups[d.Group(topology.NodeID(v))]; keep[v] {
			at := fr.at[v]
			lo.X, lo.Y = min(lo.X, at.X), min(lo.Y, at.Y)
			hi.X, hi.Y = max(hi.X, at.X), max(hi.Y, at.Y)
		}
	}
	fr.keep, fr.origin = keep, lo
	fr.span = topology.Point{X: hi.X - lo.X, Y: hi.Y - lo.Y}
}

// keptGroups names the dragonfly groups a cropped frame keeps: "groups 0, 3".
func (f frame) keptGroups() string {
	d, ok := f.g.DragonflyShape()
	if !ok {
		return "part"
	}
	var names []string
	seen := map[int]bool{} // lookup only
	for v, k := range f.keep {
		if gr := d.Group(topology.NodeID(v)); k && !seen[gr] {
			seen[gr] = true
			names = append(names, fmt.Sprint(gr))
		}
	}
	sort.Slice(names, func(i, j int) bool {
		return len(names[i]) < len(names[j]) || len(names[i]) == len(names[j]) && names[i] < names[j]
	})
	if len(names) == 1 {
		return "group " + names[0]
	}
	return "groups " + strings.Join(names, ", ")
}

func (f frame) full() bool {
	if f.at != nil {
		return f.keep == nil
	}
	g := f.g
	h := 0
	if g.Dims() == 2 {
		h = g.Size(1) - 1
	}
	return f.x0 == 0 && f.y0 == 0 && f.x1 == g.Size(0)-1 && f.y1 == h
}

func (p FlitPicture) check(vcs int) error {
	g := p.Grid
	node := func(v topology.NodeID) bool { return v >= 0 && int(v) < g.Nodes() }
	ch := func(c topology.ChannelID) bool { return c >= 0 && int(c) < g.Channels() }
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
		if !node(bl.At) || (bl.Wants != topology.None && !ch(bl.Wants)) || bl.Message < 0 || bl.Message >= len(p.Messages) {
			return fmt.Errorf("render: blocked header %d (node %d channel %d message %d) is out of range", i, bl.At, bl.Wants, bl.Message)
		}
		for _, c := range bl.AnyOf {
			if !ch(c) {
				return fmt.Errorf("render: blocked header %d waits for channel %d, not a channel of %v", i, c, g)
			}
		}
	}
	for i, l := range p.Loop {
		if !ch(l.Channel) || l.VC < 0 || l.VC >= vcs || l.Message < 0 || l.Message >= len(p.Messages) {
			return fmt.Errorf("render: lasso hop %d (channel %d vc %d message %d) is out of range", i, l.Channel, l.VC, l.Message)
		}
	}
	for i, l := range p.Cycle {
		if l.Header < 0 || l.Header >= len(p.Blocked) || l.Holder < 0 || l.Holder >= len(p.Messages) || l.VC < -1 || l.VC >= vcs || l.Channel != topology.None && !ch(l.Channel) {
			return fmt.Errorf("render: cycle link %d (header %d vc %d holder %d) is out of range", i, l.Header, l.VC, l.Holder)
		}
	}
	return nil
}

func route(g *topology.Network, m FlitMessage) string {
	var s strings.Builder
	s.WriteString(g.NodeName(m.Source) + " ->")
	for i, d := range m.Destinations {
		if i > 0 {
			s.WriteString(",")
		}
		s.WriteString(" " + g.NodeName(d))
	}
	return s.String()
}

// dir returns the unit vector of channel c's direction in picture coordinates (y down on
// the page, so north is -y).
func (f frame) dir(c topology.ChannelID) (float64, float64) {
	ch := f.g.Channel(c)
	if f.at != nil {
		return unit(f.at[ch.From], f.at[ch.To])
	}
	if ch.Dim == 0 {
		return float64(ch.Dir.Sign()), 0
	}
	return 0, -float64(ch.Dir.Sign())
}

// normal returns the right-hand normal of channel c's direction in picture coordinates.
func (f frame) normal(c topology.ChannelID) (float64, float64) {
	ux, uy := f.dir(c)
	return -uy, ux
}

// lane returns the line segments (x1, y1, x2, y2) that draw lane vc of channel c inside
// the frame: one segment between neighbours, two stubs for a torus wrap-around channel
// (leaving the grid at From's side and entering it at To's side). Lanes sit to the right
// of the channel's direction, so the two directions of a link and the lanes of one channel
// are apart. Parts outside the crop are left out.
func (f frame) lane(c topology.ChannelID, vc int) [][4]float64 {
	ch := f.g.Channel(c)
	ux, uy := f.dir(c)
	nx, ny := f.normal(c)
	off := laneGap * float64(vc+1)
	ox, oy := nx*off, ny*off
	inFrom, inTo := f.inside(ch.From), f.inside(ch.To)
	x1, y1 := f.xy(ch.From)
	x2, y2 := f.xy(ch.To)
	if !ch.Wrap {
		if !inFrom || !inTo {
			return nil
		}
		return [][4]float64{{
			x1 + ux*nodeR + ox, y1 + uy*nodeR + oy,
			x2 - ux*nodeR + ox, y2 - uy*nodeR + oy,
		}}
	}
	stub := cell * 0.4
	var out [][4]float64
	if inFrom {
		out = append(out, [4]float64{x1 + ux*nodeR + ox, y1 + uy*nodeR + oy, x1 + ux*stub + ox, y1 + uy*stub + oy})
	}
	if inTo {
		out = append(out, [4]float64{x2 - ux*stub + ox, y2 - uy*stub + oy, x2 - ux*nodeR + ox, y2 - uy*nodeR + oy})
	}
	return out
}

// f1 formats a coordinate with one decimal, the same on every platform.
func f1(v float64) string {
	v = math.Round(v*10) / 10
	if v == 0 {
		v = 0 // no "-0.0"
	}
	return fmt.Sprintf("%.1f", v)
}
