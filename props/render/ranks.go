// Rank pictures: the certificate of an acyclic channel dependency graph drawn on the
// network: every (channel, VC) a header can hold labelled with its place in a
// topological order of the graph, so that every dependency leads from a smaller
// number to a larger one (Dally & Seitz's numbering of channels). It is the picture of
// a static proof that holds.

package render

import (
	"fmt"
	"html"
	"math"
	"strings"

	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// ChannelRanks draws g with every ranked channel labelled by its ranks ("3" with one VC,
// "3/17" with several: VC 0's rank first); channels without a rank are drawn grey. It
// takes 1-D and 2-D meshes and tori and irregular networks.
func ChannelRanks(g *topology.Network, ranks []props.RankedChannel, vcs int, title, subtitle string) ([]byte, error) {
	if err := drawableNetwork(g); err != nil {
		return nil, err
	}
	label := make([][]string, g.Channels())
	for _, r := range ranks {
		if r.Channel < 0 || int(r.Channel) >= g.Channels() || r.VC < 0 || r.VC >= vcs {
			return nil, fmt.Errorf("render: ranked channel %d vc %d is out of range", r.Channel, r.VC)
		}
		if label[r.Channel] == nil {
			label[r.Channel] = make([]string, vcs)
			for i := range label[r.Channel] {
				label[r.Channel][i] = "-"
			}
		}
		label[r.Channel][r.VC] = fmt.Sprint(r.Rank)
	}
	v := newView(g, nil, 0, 90, 10)
	if laidOut(g) {
		v.cell = 110
	}
	legend := []legendLine{
		{swatch: "hot", colour: "#0072b2", text: "a channel some header can hold, labelled with its rank (VC 0 first, / between VCs, - for a VC never held)"},
		{text: "every dependency of the channel dependency graph leads to a larger rank: the graph is acyclic,"},
		{text: "so the relation is deadlock-free (Dally & Seitz 1987, Theorem 1)"},
	}
	sh := openSheet(&v, title, subtitle, legend, []string{"#0072b2"})
	b := &sh.b
	v.links(b)
	b.WriteString("<g id=\"ranks\" font-size=\"8\">\n")
	for c := topology.ChannelID(0); int(c) < g.Channels(); c++ {
		if label[c] == nil {
			continue
		}
		segs := v.hop(c, 4)
		for j, s := range segs {
			marker := ""
			if j == len(segs)-1 {
				marker = " marker-end=\"url(#a0)\""
			}
			fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"#0072b2\" stroke-width=\"1.5\"%s><title>%s</title></line>\n", f1(s[0]), f1(s[1]), f1(s[2]), f1(s[3]), marker, html.EscapeString(g.ChannelName(c)))
		}
		if len(segs) > 0 {
			s := segs[0]
			// the label right of the channel's direction, at its middle
			dx, dy := s[2]-s[0], s[3]-s[1]
			n := max(1e-9, math.Hypot(dx, dy))
			x, y := (s[0]+s[2])/2-dy/n*8, (s[1]+s[3])/2+dx/n*8+3
			fmt.Fprintf(b, "<text x=\"%s\" y=\"%s\" text-anchor=\"middle\" fill=\"#0072b2\">%s</text>\n", f1(x), f1(y), strings.Join(label[c], "/"))
		}
	}
	b.WriteString("</g>\n")
	v.nodes(b, func(topology.NodeID) string { return "#fff" }, true)
	return sh.close(), nil
}
