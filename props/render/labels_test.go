package render

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// A label check over every kind of picture: no text covers a node (a filled circle) or
// another text. A text centred on a circle is that circle's own label (a cycle number
// in its badge) and may sit on it. Font size and anchor are inherited from the groups
// around a text, as a browser does; a rotated text (a plot's axis title) is measured
// along its own axis and skipped.

// svgLabel is a text of a picture with its box.
type svgLabel struct {
	box
	text string
}

// svgDisc is a filled circle: a node, a badge.
type svgDisc struct {
	box
	cx, cy, r float64
}

// labelsAndDiscs reads the texts and filled circles of svg, with the attributes the
// groups around them give.
func labelsAndDiscs(svg []byte) ([]svgLabel, []svgDisc, error) {
	d := xml.NewDecoder(bytes.NewReader(svg))
	type style struct {
		fs      float64
		anchor  string
		rotated bool
	}
	stack := []style{{fs: 11}}
	var labels []svgLabel
	var discs []svgDisc
	var open *svgLabel
	var openStyle style
	var x, y float64
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return labels, discs, nil
		}
		if err != nil {
			return nil, nil, err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			st := stack[len(stack)-1]
			m := map[string]string{}
			for _, a := range t.Attr {
				m[a.Name.Local] = a.Value
			}
			if v, ok := m["font-size"]; ok {
				fmt.Sscan(v, &st.fs)
			}
			if v, ok := m["text-anchor"]; ok {
				st.anchor = v
			}
			if strings.Contains(m["transform"], "rotate") {
				st.rotated = true
			}
			stack = append(stack, st)
			switch t.Name.Local {
			case "circle":
				if fill, ok := m["fill"]; ok && fill != "none" {
					cx, cy, r := num(m, "cx", 0), num(m, "cy", 0), num(m, "r", 0)
					discs = append(discs, svgDisc{box{cx - r, cy - r, cx + r, cy + r}, cx, cy, r})
				}
			case "text":
				x, y = num(m, "x", 0), num(m, "y", 0)
				open, openStyle = &svgLabel{}, st
			}
		case xml.CharData:
			if open != nil {
				open.text += string(t)
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
			if t.Name.Local == "text" && open != nil {
				if !openStyle.rotated && strings.TrimSpace(open.text) != "" {
					w := charWidth * openStyle.fs * float64(len([]rune(open.text)))
					x0 := x
					switch openStyle.anchor {
					case "middle":
						x0 -= w / 2
					case "end":
						x0 -= w
					}
					open.box = box{x0, y - 0.8*openStyle.fs, x0 + w, y + 0.25*openStyle.fs}
					labels = append(labels, *open)
				}
				open = nil
			}
		}
	}
}

// labelOverlaps returns what the texts of svg cover: a filled circle that is not their
// own (one they are not centred on) or another text.
func labelOverlaps(svg []byte) ([]string, int, error) {
	labels, discs, err := labelsAndDiscs(svg)
	if err != nil {
		return nil, 0, err
	}
	var bad []string
	for i, l := range labels {
		cx, cy := (l.x0+l.x1)/2, (l.y0+l.y1)/2
		for _, c := range discs {
			// Its own: centred on it and about as wide (a node's name, a badge's number).
			own := (cx-c.cx)*(cx-c.cx)+(cy-c.cy)*(cy-c.cy) <= c.r*c.r/4 && l.x1-l.x0 <= 2.2*c.r
			if !own && l.overlaps(c.box) {
				bad = append(bad, fmt.Sprintf("%q covers the circle at (%.1f, %.1f)", l.text, c.cx, c.cy))
				break
			}
		}
		for _, o := range labels[i+1:] {
			if l.overlaps(o.box) {
				bad = append(bad, fmt.Sprintf("%q covers %q", l.text, o.text))
			}
		}
	}
	return bad, len(labels), nil
}

// TestLabelsCoverNothing: in every kind of picture — the golden files (flit traces and
// lassos, adaptive waits, schedules, banyans, static cycles, partitions, latency
// plots) and pictures drawn here of the kinds without one (a fabric's deadlock, a flit
// trace and channel ranks on a laid-out random graph, a channel cycle, a partition's
// violated pair) — no text covers a node or another text.
func TestLabelsCoverNothing(t *testing.T) {
	pictures := map[string][]byte{}
	files, err := filepath.Glob(filepath.Join("testdata", "*.svg"))
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if pictures[f], err = os.ReadFile(f); err != nil {
			t.Fatal(err)
		}
	}
	draw := func(name string, svg []byte, err error) {
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		pictures[name] = svg
	}
	a, m, tr := ringDeadlock(t)
	var cycle []fabric.Hop
	for _, id := range a.Loops[0].Decision.Cycle {
		cycle = append(cycle, a.Channels.Hop(id))
	}
	last := tr.Steps[len(tr.Steps)-1].State
	svg, err := DrawFabric(FabricPicture{Fabric: a.Fabric, Cycle: cycle, Model: m, State: &last, Title: "ring under minhop"})
	draw("fabric", svg, err)
	g, err := topology.Parse("random:8,12,3")
	if err != nil {
		t.Fatal(err)
	}
	var holds []Hold
	var blocked []Blocked
	var msgs []FlitMessage
	for c := 0; c < 4; c++ {
		ch := g.Channel(topology.ChannelID(c))
		msgs = append(msgs, FlitMessage{Name: fmt.Sprintf("m%d", c), Source: ch.From, Destinations: []topology.NodeID{g.Channel(topology.ChannelID(c + 1)).To}})
		holds = append(holds, Hold{Channel: topology.ChannelID(c), Message: c, Flits: 2})
		blocked = append(blocked, Blocked{Message: c, At: ch.To, Wants: topology.ChannelID(c + 1), Label: fmt.Sprintf("m%d.d1", c)})
	}
	svg, err = DrawFlit(FlitPicture{Title: "random graph", Grid: g, VCs: 1, Messages: msgs, Holds: holds, Blocked: blocked})
	draw("flit on random:8,12,3", svg, err)
	svg, err = ChannelRanks(g, []props.RankedChannel{{Channel: 0, Rank: 1}, {Channel: 1, Rank: 2}, {Channel: 2, Rank: 3}}, 1, "ranks", "sub")
	draw("ranks on random:8,12,3", svg, err)
	mesh, _ := topology.NewMesh(3, 3)
	svg, err = ChannelCycle(mesh, []topology.ChannelID{
		mesh.ChannelOut(mesh.Node(0, 0), 0, topology.Plus), mesh.ChannelOut(mesh.Node(1, 0), 1, topology.Plus),
		mesh.ChannelOut(mesh.Node(1, 1), 0, topology.Minus), mesh.ChannelOut(mesh.Node(0, 1), 1, topology.Minus),
	}, []string{"east->north at (1,0)"}, "mesh:3x3 cycle")
	draw("channel cycle", svg, err)
	m4, _ := topology.NewMesh(4, 4)
	svg, err = Partition(&props.PartitionEvidence{Grid: m4, Title: "pair", Violated: true,
		DDNs: []props.Subnetwork{{Name: "G0+", Directed: true, Nodes: []topology.NodeID{0, 5}, Channels: []topology.ChannelID{0, 1}}},
		Pair: []topology.NodeID{2, 0}, Caption: "G0+: (2,0) cannot reach (0,0)", HotChannels: []topology.ChannelID{3}, HotSubnetworks: []string{"G0+"}})
	draw("partition with a violation", svg, err)
	for name, svg := range pictures {
		bad, n, err := labelOverlaps(svg)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if n == 0 {
			t.Errorf("%s: no labels read", name)
		}
		for _, b := range bad {
			t.Errorf("%s: %s", name, b)
		}
	}
}

// TestLabelOverlapsCatches: the check finds a label on a node and labels on each
// other (a lane label and a destination label as an adaptive picture drew them,
// and a wait label on a node), not a number on its own badge; settleLabels moves the
// movable ones until it finds nothing.
func TestLabelOverlapsCatches(t *testing.T) {
	svg := []byte(`<svg xmlns="http://www.w3.org/2000/svg" font-size="11">
<circle cx="50.0" cy="80.0" r="13" fill="#f8f8f8"/>
<text x="50.0" y="83.0" text-anchor="middle" font-size="8">(0,1)</text>
<circle cx="45.0" cy="125.9" r="7" fill="#d00000"/><text x="45.0" y="128.9" fill="white" font-size="9" text-anchor="middle">2</text>
<text x="110.0" y="180.5" fill="#e69f00" font-size="9" text-anchor="middle" class="lbl">m1:1</text>
<text x="86.0" y="185.0" fill="#009e73" font-size="9" class="lbl">m2.d1</text>
<g font-size="9"><text x="52.0" y="90.0" class="wait-label" text-anchor="middle">m3 blocks m2.d1</text></g>
</svg>`)
	bad, _, err := labelOverlaps(svg)
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 3 {
		t.Errorf("found %d overlaps, want 3 (m1:1 on m2.d1, the wait label on the node and on its name):\n%s", len(bad), strings.Join(bad, "\n"))
	}
	settled := settleLabels(svg)
	if bad, _, _ := labelOverlaps(settled); len(bad) > 0 {
		t.Errorf("settled, still: %s\n%s", strings.Join(bad, "; "), settled)
	}
}
