// Static cycle pictures: a cycle of a channel dependency graph (props.Witness kind
// "cycle", from a static routing proof), drawn on the region of the topology it crosses,
// in the style of the deadlock pictures: numbered around the cycle, each turn named.

package render

import (
	"fmt"
	"html"

	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// StaticCycle draws w's cycle (kind "cycle": edge i is a channel and virtual channel that
// waits for edge i+1's, Turn the turn between them) on g, cropped to the channels of the
// cycle with one node of context, y up. title says what it is of (the relation and
// topology); empty uses w.Violation. A channel name the grid does not know is an error.
func StaticCycle(g *topology.Network, w *props.Witness, title, subtitle string) ([]byte, error) {
	return staticCycle(g, w, title, subtitle, "")
}

// ProvenCycle draws, like StaticCycle, a cycle of a channel dependency graph whose
// relation is nevertheless deadlock-free (why says by what, e.g. "the escape channels'
// extended dependency graph is acyclic (Duato)"): in neutral grey, as a cycle that is
// there and harmless, not a finding. The title should carry the verdict.
func ProvenCycle(g *topology.Network, w *props.Witness, title, subtitle, why string) ([]byte, error) {
	return staticCycle(g, w, title, subtitle, why)
}

// neutralGrey draws a proven-harmless cycle.
const neutralGrey = "#777777"

// staticCycle draws StaticCycle's picture; a non-empty proven says why the cycle is
// harmless and draws it grey.
func staticCycle(g *topology.Network, w *props.Witness, title, subtitle, proven string) ([]byte, error) {
	if err := drawableNetwork(g); err != nil {
		return nil, err
	}
	if w == nil || len(w.Cycle) == 0 {
		return nil, fmt.Errorf("render: the witness has no cycle to draw")
	}
	byName := map[string]topology.ChannelID{}
	for c := 0; c < g.Channels(); c++ {
		byName[g.ChannelName(topology.ChannelID(c))] = topology.ChannelID(c)
	}
	chans := make([]topology.ChannelID, len(w.Cycle))
	var nodes []topology.NodeID
	for i, e := range w.Cycle {
		c, ok := byName[e.Channel]
		if !ok {
			return nil, fmt.Errorf("render: cycle edge %d names channel %q, not a channel of %s", i, e.Channel, g.Spec())
		}
		chans[i] = c
		ch := g.Channel(c)
		nodes = append(nodes, ch.From, ch.To)
	}
	if title == "" {
		title = w.Violation
	}
	v := newView(g, nodes, 1, 90, 10)
	colour := hotRed
	if proven != "" {
		colour = neutralGrey
	}
	var legend []legendLine
	legend = append(legend,
		legendLine{swatch: "hot", colour: colour, text: "a channel (virtual channel) of the cycle: it is held while the next one is requested"},
		legendLine{swatch: "num", colour: colour, text: "its place in the cycle; the cycle closes from the last back to 1"},
		legendLine{text: "the cycle, with the turn that leads on from each channel:", bold: true})
	for i, e := range w.Cycle {
		t := fmt.Sprintf("%s vc%d", e.Channel, e.VC)
		if e.Turn != "" {
			t += ", then " + e.Turn
		}
		legend = append(legend, legendLine{swatch: "numk", n: i + 1, colour: colour, text: t})
	}
	if proven != "" {
		legend = append(legend, legendLine{text: "The channel dependency graph is cyclic, but the relation is deadlock-free:", bold: true},
			legendLine{text: proven + "."})
	} else {
		legend = append(legend, legendLine{text: "A cyclic dependency graph is not yet a deadlock (the condition is only sufficient);"},
			legendLine{text: "wormcheck routing decides exactly, with a deadlock configuration where there is one."})
	}
	sh := openSheet(&v, title, subtitle, legend, []string{colour})
	b := &sh.b
	if v.cropped() {
		fmt.Fprintf(b, "<text x=\"10\" y=\"%s\" fill=\"#888\" font-size=\"9\">%s</text>\n", f1(sh.top+4), html.EscapeString(v.cropNote()))
	}
	v.links(b)
	v.nodes(b, func(topology.NodeID) string { return "#fff" }, true)
	b.WriteString("<g id=\"cycle\">\n")
	for i, c := range chans {
		off := 5 + 5*float64(w.Cycle[i].VC)
		segs := v.hop(c, off)
		for j, s := range segs {
			marker := ""
			if j == len(segs)-1 {
				marker = " marker-end=\"url(#a0)\""
			}
			fmt.Fprintf(b, "<line x1=\"%s\" y1=\"%s\" x2=\"%s\" y2=\"%s\" stroke=\"%s\" stroke-width=\"3\"%s><title>%s</title></line>\n", f1(s[0]), f1(s[1]), f1(s[2]), f1(s[3]), colour, marker, html.EscapeString(w.Cycle[i].Channel))
		}
		if len(segs) > 0 {
			s := segs[0]
			x, y := s[0]+(s[2]-s[0])*0.4, s[1]+(s[3]-s[1])*0.4
			fmt.Fprintf(b, "<circle cx=\"%s\" cy=\"%s\" r=\"8\" fill=\"%s\" class=\"cycle-num\"/><text x=\"%s\" y=\"%s\" fill=\"white\" font-size=\"9\" font-weight=\"bold\" text-anchor=\"middle\">%d</text>\n", f1(x), f1(y), colour, f1(x), f1(y+3), i+1)
		}
	}
	b.WriteString("</g>\n")
	return sh.close(), nil
}
