package topology

import (
	"testing"
)

// TestBookSimNetworks builds BookSim2's concentrated and multistage networks and checks
// their sizes and the terminal numbering BookSim's own formulas give.
func TestBookSimNetworks(t *testing.T) {
	for _, tc := range []struct {
		spec                      string
		nodes, channels, terminal int
	}{
		// 16 routers, 64 terminals; 2*3*16 inter-router channels each way... 16*2*3 = 96 directed, plus 2*64
		{"flatfly:k=4,n=2,c=4", 16 + 64, 16*2*3 + 2*64, 64},
		{"flatfly:k=4,n=2,c=4,x=4,y=4,xr=2,yr=2", 16 + 64, 16*2*3 + 2*64, 64},
		{"flatfly:k=2,n=3,c=1", 8 + 8, 8*3 + 2*8, 8},
		{"cmesh:k=4", 16 + 64, 16*4 + 2*64, 64},
		{"fly:k=10,n=1", 1 + 10, 20, 10},
		{"fly:k=2,n=3", 12 + 8, 8*2 + 2*8, 8},
	} {
		g, err := Parse(tc.spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		if g.Nodes() != tc.nodes || g.Channels() != tc.channels || g.Terminals() != tc.terminal {
			t.Errorf("%s: %d nodes, %d channels, %d terminals; want %d, %d, %d", tc.spec, g.Nodes(), g.Channels(), g.Terminals(), tc.nodes, tc.channels, tc.terminal)
		}
	}
}

// TestBookSimNumbering pins, on small instances, the terminals of each router and the
// express channels as BookSim's source computes them (cmesh.cpp's link formula and its
// comment "the first node has 0,1,8,9", flatfly_transformation, fly's _InChannel).
func TestBookSimNumbering(t *testing.T) {
	routerOf := func(g *Network, name string) string {
		v, ok := g.NodeByName(name)
		if !ok {
			t.Fatalf("%s has no node %s", g.Spec(), name)
		}
		return g.NodeName(g.Channel(g.AppendOut(nil, v)[0]).To)
	}
	for _, spec := range []string{"cmesh:k=4", "flatfly:k=4,n=2,c=4"} {
		g, err := Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		for term, router := range map[string]string{"n0": "r0", "n1": "r0", "n8": "r0", "n9": "r0", "n2": "r1", "n11": "r1",
			"n16": "r4", "n25": "r4", "n63": "r15", "n54": "r15", "n38": "r11"} {
			if got := routerOf(g, term); got != router {
				t.Errorf("%s: %s is on %s; BookSim puts it on %s", spec, term, got, router)
			}
		}
	}
	g, _ := Parse("cmesh:k=4")
	m, _ := g.CMeshShape()
	for _, tc := range []struct {
		r    NodeID
		port int
		to   NodeID
	}{
		{0, CMeshMinusX, 8}, {0, CMeshMinusY, 2}, {0, CMeshPlusX, 1}, {0, CMeshPlusY, 4},
		{3, CMeshPlusX, 11}, {3, CMeshMinusY, 1}, {15, CMeshPlusX, 7}, {15, CMeshPlusY, 13},
		{5, CMeshMinusX, 4}, {5, CMeshMinusY, 1}, {12, CMeshMinusX, 4}, {13, CMeshPlusY, 15},
	} {
		if got := m.Neighbour(tc.r, tc.port); got != tc.to || g.ChannelBetween(tc.r, tc.to) == None {
			t.Errorf("cmesh:k=4 router %d port %d leads to %d; BookSim joins it to %d", tc.r, tc.port, got, tc.to)
		}
	}
	g, _ = Parse("fly:k=2,n=3")
	f, _ := g.FlyShape()
	for _, tc := range []struct {
		r    NodeID
		port int
		to   NodeID
	}{
		// stage 0 sets digit 1 of the address, stage 1 digit 0
		{0, 0, 4}, {0, 1, 6}, {1, 0, 5}, {3, 0, 5}, {4, 1, 9}, {6, 0, 10}, {7, 0, 10},
	} {
		if got := f.Next(tc.r, tc.port); got != tc.to || g.ChannelBetween(tc.r, tc.to) == None {
			t.Errorf("fly:k=2,n=3 router %d port %d leads to %d; want %d", tc.r, tc.port, got, tc.to)
		}
	}
	for term, in := range map[string][2]string{"n0": {"r0.0", "r2.0"}, "n5": {"r0.2", "r2.2"}, "n7": {"r0.3", "r2.3"}} {
		v, _ := g.NodeByName(term)
		out := g.AppendOut(nil, v)
		var from string
		for c := 0; c < g.Channels(); c++ {
			if g.Channel(ChannelID(c)).To == v {
				from = g.NodeName(g.Channel(ChannelID(c)).From)
			}
		}
		if len(out) != 1 || g.NodeName(g.Channel(out[0]).To) != in[0] || from != in[1] {
			t.Errorf("fly:k=2,n=3 %s injects into %v and is delivered by %s; want %v", term, out, from, in)
		}
	}
}

// TestBookSimLatencies pins the channel latencies BookSim gives cmesh and flatfly
// channels with use_noc_latency (its default): the terminal columns and rows a channel
// spans, as cmesh.cpp and flatfly_onchip.cpp compute them (the simulator reads them as
// channel weights).
func TestBookSimLatencies(t *testing.T) {
	for _, tc := range []struct {
		spec, from, to string
		want           int
	}{
		{"cmesh:k=4", "r0", "r1", 2},
		{"cmesh:k=4", "r3", "r11", 4}, // express along the right edge: 2*k/2
		{"cmesh:k=4", "r0", "r2", 4},  // express along the bottom edge
		{"cmesh:k=4", "n0", "r0", 1},
		{"flatfly:k=4,n=2,c=4", "r0", "r3", 6},  // three columns of two terminals
		{"flatfly:k=4,n=2,c=4", "r0", "r12", 6}, // three rows of two terminals
		{"flatfly:k=4,n=2,c=4", "r5", "r6", 2},
		{"flatfly:k=4,n=2,c=4", "r0", "n9", 1},
		{"flatfly:k=2,n=2,c=16", "r0", "n0", 3}, // xr = yr = 4: ileng counts two beyond the middle each way
		{"flatfly:k=2,n=2,c=16", "r0", "n1", 2},
		{"flatfly:k=4,n=2,c=9", "r0", "n0", 1}, // xr = yr = 3: every terminal within one of the middle
	} {
		g, err := Parse(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := g.NodeByName(tc.from)
		b, _ := g.NodeByName(tc.to)
		c := g.ChannelBetween(a, b)
		if c == None || g.Weight(c) != tc.want {
			t.Errorf("%s %s->%s: weight %d; BookSim's latency is %d", tc.spec, tc.from, tc.to, g.Weight(c), tc.want)
		}
	}
}
