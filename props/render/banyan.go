package render

import (
	"bytes"
	"fmt"
	"html"

	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// The pictures of the banyan multistage network (002): a blocking witness (two packets'
// region trees sharing a link) and a deadlocked state of the multicast model.

var banyanColours = [...]string{"#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2"}

// Banyan draws banyan b as a picture of a witness: processing nodes on the left (sources)
// and right (destinations), the n stages of 2x2 SEs in between (stage n-1 first), every
// link in grey, each packet's channels in its own colour, and the contested links (the
// link two packets fight for, or the links of a deadlock's wait-for cycle) in thick red.
// Every packet of pkts has a legend line, one that holds no channel too; notes (the
// wait-for edges of a deadlock) follow the legend. The output is a complete,
// deterministic SVG document.
func Banyan(b *topology.Banyan, title string, pkts []props.BanyanPath, contested []topology.ChannelID, notes ...string) []byte {
	n, size := b.Stages(), b.Nodes()
	const rowH, colW, seW, left, top = 22, 110, 34, 60, 50
	width := left*2 + (n+1)*colW
	height := top + size*rowH + 30 + 18*(len(pkts)+3)
	if len(notes) > 0 {
		height += 18 * (len(notes) + 1)
	}
	width = max(width, 20+len(title)*8, 760)
	for _, t := range notes {
		width = max(width, 40+len(t)*7)
	}
	var w bytes.Buffer
	fmt.Fprintf(&w, `<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" viewBox="0 0 %d %d" font-family="sans-serif" font-size="11">`+"\n", width, height, width, height)
	fmt.Fprintf(&w, `<rect width="%d" height="%d" fill="white"/>`+"\n", width, height)
	fmt.Fprintf(&w, `<text x="10" y="20" font-size="14" font-weight="bold">%s</text>`+"\n", html.EscapeString(title))
	// Port 0 is at the bottom: y grows upwards, as in every wormcheck picture.
	y := func(port int) int { return top + (size-1-port)*rowH + rowH/2 }
	colX := func(stage int) int { return left + colW + (n-1-stage)*colW }
	rightX := left + colW + n*colW
	// endpoints returns the segment of channel c.
	endpoints := func(c topology.ChannelID) (x1, y1, x2, y2 int) {
		s, a := b.Link(c)
		switch {
		case s < 0:
			return colX(0) + seW, y(a), rightX, y(a)
		case s == n-1:
			for x := 0; x < size; x++ {
				if b.Shuffle(x) == a {
					return left, y(x), colX(s), y(a)
				}
			}
		}
		src := b.Butterfly(s+1, a)
		return colX(s+1) + seW, y(src), colX(s), y(a)
	}
	line := func(c topology.ChannelID, colour string, width int) {
		x1, y1, x2, y2 := endpoints(c)
		fmt.Fprintf(&w, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="%s" stroke-width="%d"/>`+"\n", x1, y1, x2, y2, colour, width)
	}
	for c := 0; c < b.Channels(); c++ {
		line(topology.ChannelID(c), "#cccccc", 1)
	}
	for s := n - 1; s >= 0; s-- {
		fmt.Fprintf(&w, `<text x="%d" y="%d">stage %d</text>`+"\n", colX(s), top-8, s)
		for e := 0; e < size/2; e++ {
			fmt.Fprintf(&w, `<rect x="%d" y="%d" width="%d" height="%d" fill="white" stroke="black"/>`+"\n", colX(s), top+(size-2-2*e)*rowH+3, seW, 2*rowH-6)
			fmt.Fprintf(&w, `<text x="%d" y="%d" font-size="9">%d</text>`+"\n", colX(s)+4, top+(size-2-2*e)*rowH+rowH+4, e)
		}
	}
	for x := 0; x < size; x++ {
		fmt.Fprintf(&w, `<text x="%d" y="%d" text-anchor="end">%d</text>`+"\n", left-6, y(x)+4, x)
		fmt.Fprintf(&w, `<text x="%d" y="%d">%d</text>`+"\n", rightX+6, y(x)+4, x)
	}
	for i, p := range pkts {
		col := banyanColours[i%len(banyanColours)]
		for _, c := range p.Channels {
			line(c, col, 3)
		}
		fmt.Fprintf(&w, `<rect x="10" y="%d" width="12" height="4" fill="%s"/><text x="28" y="%d">%s</text>`+"\n",
			top+size*rowH+20+18*i, col, top+size*rowH+26+18*i, html.EscapeString(p.Name))
	}
	for _, c := range contested {
		line(c, "#d62728", 5)
	}
	ly := top + size*rowH + 26 + 18*len(pkts)
	fmt.Fprintf(&w, `<rect x="10" y="%d" width="12" height="5" fill="#d62728"/><text x="28" y="%d">a link two packets contend for (or a link of the wait-for cycle)</text>`+"\n", ly, ly+6)
	fmt.Fprintf(&w, `<rect x="10" y="%d" width="12" height="2" fill="#cccccc"/><text x="28" y="%d">a free link; boxes are 2x2 switching elements (SEs) numbered per stage; sources left, destinations right, node 0 at the bottom</text>`+"\n", ly+18, ly+24)
	if len(notes) > 0 {
		fmt.Fprintf(&w, `<text x="10" y="%d" font-weight="bold">wait-for edges:</text>`+"\n", ly+42)
		for k, t := range notes {
			fmt.Fprintf(&w, `<text x="28" y="%d" fill="#d62728">%s</text>`+"\n", ly+60+18*k, html.EscapeString(t))
		}
	}
	w.WriteString("</svg>\n")
	return w.Bytes()
}

// BanyanConflict draws a blocking witness (topology.Banyan.FirstConflict): the two packets'
// region trees and the link they share.
func BanyanConflict(b *topology.Banyan, c *topology.LinkConflict) []byte {
	a := props.BanyanPath{Name: c.PacketA.String(), Channels: treeChannels(b, c.PacketA.Source, c.PacketA.Dest)}
	d := props.BanyanPath{Name: c.PacketB.String(), Channels: treeChannels(b, c.PacketB.Source, c.PacketB.Dest)}
	link := topology.ChannelID(c.Channel)
	return Banyan(b, fmt.Sprintf("%s: %s and %s both need %s", b.Spec(), a.Name, d.Name, b.ChannelName(link)), []props.BanyanPath{a, d}, []topology.ChannelID{link})
}

// treeChannels returns the channels of the tree of a packet from src with header h (none
// if the header does not fit b).
func treeChannels(b *topology.Banyan, src int, h topology.Region) []topology.ChannelID {
	tree, err := b.RegionTree(src, h)
	if err != nil {
		return nil
	}
	out := make([]topology.ChannelID, len(tree))
	for i, l := range tree {
		out[i] = l.Channel
	}
	return out
}
