// Partition pictures: the subnetworks of a network partition (DDNs, 001 §3) each in its
// own colour, the DCN blocks dashed, and optionally a witness pair ringed in red.

package render

import (
	"bytes"
	"fmt"
	"html"
	"slices"

	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// subPalette gives subnetworks distinct colours; beyond twelve the line style changes
// too (solid, dashed, dotted), so up to 36 subnetworks stay apart.
var subPalette = []string{"#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#8c564b", "#9467bd", "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939"}

var subDash = []string{"", "5 3", "1.5 2"}

// SubnetworkStyle returns the colour and dash pattern of subnetwork i.
func SubnetworkStyle(i int) (colour, dash string) {
	return subPalette[i%len(subPalette)], subDash[(i/len(subPalette))%len(subDash)]
}

// Partition draws a partition (1-D or 2-D mesh or torus; y up) as small multiples: a
// first panel with every DDN's members, the DCN blocks and what a violation names, then
// one panel per DDN with its own channels in its colour (arrows where it is directed)
// over the network's other links in grey, so that which subnetworks use a link is read
// panel by panel rather than from overlapping colours. A network wider than
// panelNodes nodes is drawn through a window of that many (around what a violation
// names), and at most panelsDrawn DDNs get a panel (those a violation names first): the
// picture stays readable and its size bounded however large the network.
func Partition(opt *props.PartitionEvidence) ([]byte, error) {
	g := opt.Grid
	if err := drawable(g); err != nil {
		return nil, err
	}
	if err := partitionInRange(opt); err != nil {
		return nil, err
	}
	hot := map[string]bool{} // lookup only
	for _, n := range opt.HotSubnetworks {
		hot[n] = true
	}
	v := partitionView(g, partitionFocus(opt))
	shown := panelSubnetworks(opt.DDNs, hot)
	title := opt.Title
	if title == "" {
		title = fmt.Sprintf("%d subnetworks of %s", len(opt.DDNs), g.Spec())
	}
	if opt.Violated {
		title = "VIOLATED: " + title
	}
	sub := fmt.Sprintf("%s; x grows to the right, y upwards; one panel per DDN: its channels in its colour, its members filled", g.Spec())
	if v.cropped() {
		sub += "; " + v.cropNote()
	}
	if len(shown) < len(opt.DDNs) {
		sub += fmt.Sprintf("; %d of the %d DDNs drawn", len(shown), len(opt.DDNs))
	}
	legend := partitionLegend(opt, hot)
	panels := 1 + len(shown)
	cols := min(panels, max(1, int(1000/panelWidth(v))))
	rows := (panels + cols - 1) / cols
	pw, ph := panelWidth(v), panelHeight(v)
	W := max(20+float64(cols)*pw, 20+legendWidth(legend), 20+textWidth(title, 14), 20+textWidth(sub, 11))
	top := 56.0
	legendTop := top + float64(rows)*ph + 12
	H := legendTop + float64(len(legend))*legendRow + 10
	var b bytes.Buffer
	colours := make([]string, len(subPalette))
	copy(colours, subPalette)
	svgOpen(&b, W, H, colours)
	titleFill := ""
	if opt.Violated {
		titleFill = " fill=\"" + hotRed + "\""
	}
	fmt.Fprintf(&b, "<text x=\"10\" y=\"20\" font-size=\"14\" font-weight=\"bold\"%s>%s</text>\n", titleFill, html.EscapeString(title))
	fmt.Fprintf(&b, "<text x=\"10\" y=\"38\">%s</text>\n", html.EscapeString(sub))
	at := func(k int) gridView {
		p := v
		p.ox = 10 + float64(k%cols)*pw + panelPad + v.axisGap()
		p.oy = top + float64(k/cols)*ph + panelHead + panelPad
		return p
	}
	overviewPanel(&b, at(0), opt, hot)
	for k, i := range shown {
		ddnPanel(&b, at(k+1), opt.DDNs[i], i, hot[opt.DDNs[i].Name], opt.HotChannels)
	}
	b.WriteString("<g id=\"legend\">\n")
	for k, l := range legend {
		l.draw(&b, legendTop+float64(k)*legendRow)
	}
	b.WriteString("</g>\n</svg>\n")
	return b.Bytes(), nil
}

// The small multiples' geometry: at most panelNodes nodes along a dimension and
// panelsDrawn DDN panels; a panel is its view, its axis labels, a heading panelHead
// high and panelPad around.
const (
	panelNodes  = 24
	panelsDrawn = 16
	panelHead   = 16.0
	panelPad    = 8.0
	panelSpan   = 230.0 // the width of a panel's view at most, in px
)

// partitionView returns the view of one panel: all of g when it has at most panelNodes
// nodes along each dimension, else a window of panelNodes around the nodes in focus
// (from the origin when there are none).
func partitionView(g *topology.Network, focus []topology.NodeID) gridView {
	k := g.Size(0)
	if g.Dims() == 2 {
		k = max(k, g.Size(1))
	}
	n := min(k, panelNodes)
	cell := min(26.0, panelSpan/float64(max(n-1, 1)))
	v := newView(g, nil, 0, cell, max(2.5, min(cell*0.2, 4)))
	for d := 0; d < g.Dims(); d++ {
		if g.Size(d) <= panelNodes {
			continue
		}
		start := 0
		if len(focus) > 0 {
			var xs []int
			for _, f := range focus {
				xs = append(xs, g.Coord(f, d))
			}
			w := windowOf(xs, g.Size(d), g.Wraps(d), 2)
			start = w.start
			if !g.Wraps(d) {
				start = min(start, g.Size(d)-panelNodes)
			}
		}
		v.w[d] = window{start, panelNodes, g.Size(d), g.Wraps(d)}
	}
	return v
}

// partitionFocus returns the nodes a violation names (its pair and its channels' ends),
// which a cropped picture keeps in view.
func partitionFocus(opt *props.PartitionEvidence) []topology.NodeID {
	focus := append([]topology.NodeID(nil), opt.Pair...)
	for _, c := range opt.HotChannels {
		ch := opt.Grid.Channel(c)
		focus = append(focus, ch.From, ch.To)
	}
	return focus
}

// panelSubnetworks returns the indices of the DDNs that get a panel: those the
// violation names first, then the others in order, at most panelsDrawn in all.
func panelSubnetworks(ddns []props.Subnetwork, hot map[string]bool) []int {
	var out []int
	for i, s := range ddns {
		if hot[s.Name] && len(out) < panelsDrawn {
			out = append(out, i)
		}
	}
	for i, s := range ddns {
		if !hot[s.Name] && len(out) < panelsDrawn {
			out = append(out, i)
		}
	}
	slices.Sort(out)
	return out
}

func panelWidth(v gridView) float64 {
	return v.width() + v.axisGap() + 2*panelPad + 12
}

func panelHeight(v gridView) float64 {
	return panelHead + v.height() + v.axisGap() + 2*panelPad + 10
}

// panelFrame draws a panel's frame (red when the violation names what it shows) and its
// heading, cut to the panel's width.
func panelFrame(b *bytes.Buffer, v gridView, heading string, colour string, hot bool) {
	x0, y0 := v.ox-v.axisGap()-panelPad, v.oy-panelHead-panelPad
	stroke, width := "#ccc", "1"
	if hot {
		stroke, width = hotRed, "2.5"
	}
	fmt.Fprintf(b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\"/>\n", f1(x0), f1(y0), f1(panelWidth(v)-10), f1(panelHeight(v)-10), stroke, width)
	room := int((panelWidth(v) - 20) / (10 * 0.6))
	if len(heading) > room {
		heading = heading[:max(room-1, 1)] + "…"
	}
	fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" font-size=\"10\" font-weight=\"bold\" fill=\"%s\">%s</text>\n", f1(x0+4), f1(y0+12), colour, html.EscapeString(heading))
}

// overviewPanel draws the first panel: every DDN's members in its colour, the DCN
// blocks dashed, and the channels and nodes a violation names.
func overviewPanel(b *bytes.Buffer, v gridView, opt *props.PartitionEvidence, hot map[string]bool) {
	panelFrame(b, v, fmt.Sprintf("members and %d DCN blocks", len(opt.DCNs)), "#333", false)
	v.links(b)
	drawHotChannels(b, v, opt.HotChannels)
	drawBlocks(b, v, opt.DCNs, hot, v.cell)
	member := map[topology.NodeID]int{}
	for i, s := range opt.DDNs {
		for _, n := range s.Nodes {
			if _, ok := member[n]; !ok {
				member[n] = i
			}
		}
	}
	v.nodes(b, func(n topology.NodeID) string {
		if i, ok := member[n]; ok {
			c, _ := SubnetworkStyle(i)
			return c
		}
		return "#eee"
	}, v.cell >= 12)
	for _, n := range opt.Pair {
		if x, y, ok := v.xy(n); ok {
			fmt.Fprintf(b, "<circle cx=\"%s\" cy=\"%s\" r=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"><title>%s</title></circle>\n", f1(x), f1(y), f1(v.r+5), hotRed, opt.Grid.NodeName(n))
		}
	}
}

// ddnPanel draws DDN i's panel: the network's links in grey, the channels the violation
// names in red, the DDN's channels in its colour (thicker when the violation names it)
// and its members filled.
func ddnPanel(b *bytes.Buffer, v gridView, s props.Subnetwork, i int, hot bool, hotChannels []topology.ChannelID) {
	c, _ := SubnetworkStyle(i)
	kind := "undirected"
	if s.Directed {
		kind = "directed"
	}
	panelFrame(b, v, fmt.Sprintf("%s: %s, %d members", s.Name, kind, len(s.Nodes)), c, hot)
	v.links(b)
	drawHotChannels(b, v, hotChannels)
	width := "1.8"
	if hot {
		width = "3"
	}
	fmt.Fprintf(b, "<g id=\"sub%d\" stroke=\"%s\" stroke-width=\"%s\"><title>%s</title>\n", i, c, width, html.EscapeString(s.Name))
	for _, ch := range s.Channels {
		// Directed: each direction on its own side of the link, with its arrow.
		off := 0.0
		if s.Directed {
			off = min(2.0, v.cell/8)
		}
		hops := v.hop(ch, off)
		for j, sg := range hops {
			marker := ""
			if s.Directed && j == len(hops)-1 {
				marker = fmt.Sprintf(" marker-end=\"url(#a%d)\"", i%len(subPalette))
			}
			fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"%s/>\n", f1(sg[0]), f1(sg[1]), f1(sg[2]), f1(sg[3]), marker)
		}
	}
	b.WriteString("</g>\n")
	members := map[topology.NodeID]bool{}
	for _, n := range s.Nodes {
		members[n] = true
	}
	v.nodes(b, func(n topology.NodeID) string {
		if members[n] {
			return c
		}
		return "#fff"
	}, v.cell >= 12)
}

// partitionInRange refuses a partition that names a node or channel its network does not have.
func partitionInRange(opt *props.PartitionEvidence) error {
	g := opt.Grid
	for _, s := range append(append([]props.Subnetwork(nil), opt.DDNs...), opt.DCNs...) {
		for _, v := range s.Nodes {
			if v < 0 || int(v) >= g.Nodes() {
				return fmt.Errorf("render: subnetwork %s has node %d, not a node of %s", s.Name, v, g.Spec())
			}
		}
		for _, c := range s.Channels {
			if c < 0 || int(c) >= g.Channels() {
				return fmt.Errorf("render: subnetwork %s has channel %d, not a channel of %s", s.Name, c, g.Spec())
			}
		}
	}
	for _, v := range opt.Pair {
		if v < 0 || int(v) >= g.Nodes() {
			return fmt.Errorf("render: witness node %d is not a node of %s", v, g.Spec())
		}
	}
	for _, c := range opt.HotChannels {
		if c < 0 || int(c) >= g.Channels() {
			return fmt.Errorf("render: witness channel %d is not a channel of %s", c, g.Spec())
		}
	}
	return nil
}

// partitionLegend explains each subnetwork's colour, the blocks, and what the violation names.
func partitionLegend(opt *props.PartitionEvidence, hot map[string]bool) []legendLine {
	var legend []legendLine
	for i, s := range opt.DDNs {
		c, d := SubnetworkStyle(i)
		kind := "undirected"
		if s.Directed {
			kind = "directed"
		}
		text := fmt.Sprintf("%s: %d members (filled), %d channels, %s", s.Name, len(s.Nodes), len(s.Channels), kind)
		if hot[s.Name] {
			text += "; named by the violation (drawn thicker)"
		}
		legend = append(legend, legendLine{swatch: "sub", colour: c, dash: d, text: text})
	}
	if len(opt.DCNs) > 0 {
		legend = append(legend, legendLine{swatch: "block", text: fmt.Sprintf("DCN block (%d of them), dashed", len(opt.DCNs))})
	}
	for _, d := range opt.DCNs {
		if hot[d.Name] {
			legend = append(legend, legendLine{colour: hotRed, text: fmt.Sprintf("DCN block %s: named by the violation (outlined in red)", d.Name)})
		}
	}
	if len(opt.HotChannels) > 0 {
		legend = append(legend, legendLine{swatch: "band", colour: hotRed, text: "a channel named by the violation"})
	}
	legend = append(legend, legendLine{swatch: "dot", colour: "#eee", text: "node that is not a member of a drawn subnetwork"})
	if len(opt.Pair) > 0 {
		legend = append(legend, legendLine{swatch: "pair", text: opt.Caption})
	}
	return legend
}

// drawHotChannels lays a red band under each channel the violation names.
func drawHotChannels(b *bytes.Buffer, v gridView, channels []topology.ChannelID) {
	if len(channels) == 0 {
		return
	}
	b.WriteString("<g id=\"violation\" stroke=\"" + hotRed + "\" stroke-width=\"9\" opacity=\"0.3\" stroke-linecap=\"round\">\n")
	for _, ch := range channels {
		for _, sg := range v.hop(ch, 0) {
			fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\"><title>%s</title></line>\n", f1(sg[0]), f1(sg[1]), f1(sg[2]), f1(sg[3]), html.EscapeString(v.g.ChannelName(ch)))
		}
	}
	b.WriteString("</g>\n")
}

// drawBlocks draws a dashed rectangle around each DCN block's nodes, red when the violation names it.
func drawBlocks(b *bytes.Buffer, v gridView, dcns []props.Subnetwork, hot map[string]bool, cell float64) {
	b.WriteString("<g id=\"dcns\" fill=\"none\" stroke=\"#999\" stroke-dasharray=\"4 3\">\n")
	for _, d := range dcns {
		if len(d.Nodes) == 0 {
			continue
		}
		// The box of the block's nodes in view (none: not drawn).
		x0, y0, x1, y1, in := 0.0, 0.0, 0.0, 0.0, false
		for _, n := range d.Nodes {
			x, y, ok := v.xy(n)
			switch {
			case !ok:
			case !in:
				x0, y0, x1, y1, in = x, y, x, y, true
			default:
				x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
			}
		}
		if !in {
			continue
		}
		style := ""
		if hot[d.Name] {
			style = " stroke=\"" + hotRed + "\" stroke-width=\"2.5\""
		}
		fmt.Fprintf(b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"%s><title>%s</title></rect>\n", f1(x0-cell/3), f1(y0-cell/3), f1(x1-x0+2*cell/3), f1(y1-y0+2*cell/3), style, html.EscapeString(d.Name))
	}
	b.WriteString("</g>\n")
}
