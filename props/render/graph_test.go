package render

import (
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// TestGraphLayout checks the layouts of irregular networks: the file's coordinates kept
// in proportion, a circle otherwise, every node apart and inside the page, the same
// layout every time.
func TestGraphLayout(t *testing.T) {
	for _, spec := range []string{"random:9,12,1", "dragonfly:a=4,p=2,h=2", "fattree:4,3", "mesh:4x4/faults=0-1"} {
		g, err := topology.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		at, span := graphLayout(g)
		again, _ := graphLayout(g)
		for v, p := range at {
			if p.X < -1e-9 || p.Y < -1e-9 || p.X > span.X+1e-9 || p.Y > span.Y+1e-9 {
				t.Fatalf("%s: node %d at %v outside the span %v", spec, v, p, span)
			}
			if again[v] != p {
				t.Fatalf("%s: layout not deterministic", spec)
			}
			for w := 0; w < v; w++ {
				if at[w] == p {
					t.Fatalf("%s: nodes %d and %d drawn at the same place", spec, w, v)
				}
			}
		}
	}
	// a grid with faults keeps the grid: (1,0) is one cell right of (0,0)
	g, _ := topology.Parse("mesh:4x4/faults=0-1")
	at, _ := graphLayout(g)
	if at[1].X-at[0].X != 1 || at[1].Y != at[0].Y {
		t.Errorf("(0,0) at %v, (1,0) at %v", at[0], at[1])
	}
}

// TestGraphPictures draws a deadlock and a rank certificate on an irregular network.
func TestGraphPictures(t *testing.T) {
	g, err := topology.Parse("random:5,6,2")
	if err != nil {
		t.Fatal(err)
	}
	c0, c1 := topology.ChannelID(0), topology.ChannelID(1)
	svg, err := DrawFlit(FlitPicture{Title: "t", Grid: g, VCs: 1,
		Messages: []FlitMessage{{Name: "m0", Source: g.Channel(c0).From, Destinations: []topology.NodeID{g.Channel(c0).To}}},
		Holds:    []Hold{{Channel: c0, Message: 0, Flits: 1}},
		Blocked:  []Blocked{{Message: 0, At: g.Channel(c0).To, Wants: c1, Label: "m0"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"<svg", g.NodeName(4), "m0:1"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("flit picture lacks %q", want)
		}
	}
	ranks := []props.RankedChannel{{Channel: c0, Rank: 1}, {Channel: c1, Rank: 2}}
	svg, err = ChannelRanks(g, ranks, 1, "ranks", "sub")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(svg), "fill=\"#0072b2\">"); n != 2 {
		t.Errorf("%d rank labels; want 2", n)
	}
	if _, err := ChannelRanks(g, []props.RankedChannel{{Channel: 99, Rank: 1}}, 1, "", ""); err == nil {
		t.Errorf("a channel out of range was drawn")
	}
}
