// Partition pictures: the subnetworks of a network partition (DDNs, 001 §3) each in its
// own colour, the DCN blocks dashed, and optionally a witness pair ringed in red.

package render

import (
	"bytes"
	"fmt"
	"html"

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

// Partition draws a partition (1-D or 2-D mesh or torus; y up): its DDNs, one colour
// each, and its DCN blocks, with what a violation names marked (props.PartitionEvidence).
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
	k := g.Size(0)
	if g.Dims() == 2 {
		k = max(k, g.Size(1))
	}
	cell := min(40.0, 560/float64(max(k-1, 1)))
	v := newView(g, nil, 0, cell, max(2.5, min(cell*0.16, 5)))
	v.ox, v.oy = 40, 60
	legend := partitionLegend(opt, hot)
	title := opt.Title
	if title == "" {
		title = fmt.Sprintf("%d subnetworks of %s", len(opt.DDNs), g.Spec())
	}
	if opt.Violated {
		title = "VIOLATED: " + title
	}
	sub := fmt.Sprintf("%s; x grows to the right, y upwards; each subnetwork's channels are shifted a little so shared links stay visible", g.Spec())
	W := max(v.width()+80, 20+legendWidth(legend), 20+textWidth(title, 14), 20+textWidth(sub, 11))
	bottom := v.bottom()
	H := bottom + float64(len(legend))*legendRow + 10
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
	v.links(&b)
	drawHotChannels(&b, v, opt.HotChannels)
	drawBlocks(&b, v, opt.DCNs, hot, cell)
	member := drawSubnetworks(&b, v, opt.DDNs, hot, cell)
	v.nodes(&b, func(n topology.NodeID) string {
		if i, ok := member[n]; ok {
			c, _ := SubnetworkStyle(i)
			return c
		}
		return "#eee"
	}, cell >= 16)
	for _, n := range opt.Pair {
		x, y, _ := v.xy(n)
		fmt.Fprintf(&b, "<circle cx=\"%s\" cy=\"%s\" r=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"><title>%s</title></circle>\n", f1(x), f1(y), f1(v.r+5), hotRed, g.NodeName(n))
	}
	b.WriteString("<g id=\"legend\">\n")
	for k, l := range legend {
		l.draw(&b, bottom+float64(k)*legendRow)
	}
	b.WriteString("</g>\n</svg>\n")
	return b.Bytes(), nil
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
		x0, y0, _ := v.xy(d.Nodes[0])
		x1, y1 := x0, y0
		for _, n := range d.Nodes {
			x, y, _ := v.xy(n)
			x0, x1, y0, y1 = min(x0, x), max(x1, x), min(y0, y), max(y1, y)
		}
		style := ""
		if hot[d.Name] {
			style = " stroke=\"" + hotRed + "\" stroke-width=\"2.5\""
		}
		fmt.Fprintf(b, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"%s><title>%s</title></rect>\n", f1(x0-cell/3), f1(y0-cell/3), f1(x1-x0+2*cell/3), f1(y1-y0+2*cell/3), style, html.EscapeString(d.Name))
	}
	b.WriteString("</g>\n")
}

// drawSubnetworks draws each DDN's channels in its style, shifted a little so shared links
// stay visible, and returns the first subnetwork each node is a member of (its fill).
func drawSubnetworks(b *bytes.Buffer, v gridView, ddns []props.Subnetwork, hot map[string]bool, cell float64) map[topology.NodeID]int {
	member := map[topology.NodeID]int{}
	for i, s := range ddns {
		c, d := SubnetworkStyle(i)
		off := (float64(i) - float64(len(ddns)-1)/2) * min(2.5, cell/4/float64(max(1, len(ddns))))
		dash := ""
		if d != "" {
			dash = " stroke-dasharray=\"" + d + "\""
		}
		width := "1.4"
		if hot[s.Name] {
			width = "2.8"
		}
		fmt.Fprintf(b, "<g id=\"sub%d\" stroke=\"%s\" stroke-width=\"%s\"%s><title>%s</title>\n", i, c, width, dash, html.EscapeString(s.Name))
		for _, ch := range s.Channels {
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
		for _, n := range s.Nodes {
			if _, ok := member[n]; !ok {
				member[n] = i
			}
		}
	}
	return member
}
