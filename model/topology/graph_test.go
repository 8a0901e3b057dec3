package topology

import (
	"os"
	"strings"
	"testing"
)

// TestTopologyFiles reads the example files and pins their nodes, channels, terminals
// and a few channel names (ids are ordered by source, then destination).
func TestTopologyFiles(t *testing.T) {
	for _, tc := range []struct {
		path                       string
		nodes, channels, terminals int
		firstChannel, lastChannel  string
		placed                     bool
	}{
		// BookSim2's own example (src/examples/anynet/anynet_file): 3 routers, 9 nodes.
		{"testdata/topo/booksim_example.anynet", 12, 24, 9, "r0->r1", "n8->r2", false},
		{"testdata/topo/ring_chord.anynet", 15, 32, 10, "r0->r1", "n9->r4", false},
		{"testdata/topo/soc.json", 4, 8, 1, "r0->r1", "cpu->r0", true},
		{"testdata/topo/ring.dot", 5, 10, 1, "a->b", "e->a", false},
	} {
		g, err := Parse("file:" + tc.path)
		if err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if g.Nodes() != tc.nodes || g.Channels() != tc.channels || g.Terminals() != tc.terminals {
			t.Errorf("%s: %d nodes, %d channels, %d terminals; want %d, %d, %d", tc.path, g.Nodes(), g.Channels(), g.Terminals(), tc.nodes, tc.channels, tc.terminals)
		}
		if a, b := g.ChannelName(0), g.ChannelName(ChannelID(g.Channels()-1)); a != tc.firstChannel || b != tc.lastChannel {
			t.Errorf("%s: channels %s .. %s; want %s .. %s", tc.path, a, b, tc.firstChannel, tc.lastChannel)
		}
		if _, ok := g.Position(0); ok != tc.placed {
			t.Errorf("%s: placed = %v", tc.path, ok)
		}
		if g.Spec() != "file:"+tc.path || g.Kind() != Graph || g.Dims() != 0 {
			t.Errorf("%s: spec %q kind %v dims %d", tc.path, g.Spec(), g.Kind(), g.Dims())
		}
		for c := ChannelID(0); int(c) < g.Channels(); c++ {
			if g.PortChannel(g.Channel(c).From, g.Port(c)) != c {
				t.Fatalf("%s: PortChannel(Port(%s)) is not the channel", tc.path, g.ChannelName(c))
			}
		}
	}
	// BookSim's link weight: the head->body channel only.
	g, err := Parse("file:testdata/topo/ring_chord.anynet")
	if err != nil {
		t.Fatal(err)
	}
	r1, _ := g.NodeByName("r1")
	r2, _ := g.NodeByName("r2")
	if w, back := g.Weight(g.ChannelBetween(r1, r2)), g.Weight(g.ChannelBetween(r2, r1)); w != 3 || back != 1 {
		t.Errorf("weights r1->r2 %d, r2->r1 %d; want 3, 1", w, back)
	}
}

// TestTopologyFileErrors checks that bad files are refused with one line naming the
// format, line and field.
func TestTopologyFileErrors(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"router 0 node 0 rooter 1\n", `anynet line 1, field 5: "rooter" is neither a link weight nor "router" or "node"`},
		{"router 0 router 1\nrouter 1 node x\n", `anynet line 2, field 4: id "x" is not a number`},
		{"router 0 node 0\nrouter 1 node 0\n", "anynet line 2, field 3: node 0 is connected to router 0 and router 1"},
		{"node 0 node 1\n", "anynet line 1, field 3: node 0 cannot connect to node 1"},
		{"router 0 router 0\n", "anynet line 1, field 3: router 0 is connected to itself"},
		{"router 0 router 1 0\n", "anynet line 1, field 5: link weight 0 must be"},
		{"router 0 router\n", "anynet line 1, field 3: router has no id"},
		{"router 0 node 0\nrouter 1 node 1\n", "network is not connected"},
		{`{"format": "wormcheck-topology/1", "routers": [{"name": "a"}, {"name": "b"}],
 "links": [{"from": "a", "to": "c"}]}`, `json line 2, field links[0].to: "c" is not a router`},
		{`{"format": "wormcheck-topology/1", "routers": [{"name": "a"}, {"name": "b"}],
 "links": [{"from": "a", "to": "b", "weight": "x"}]}`, "json line 2, field links[0].weight: expected int"},
		{`{"format": "wormcheck-topology/1", "routers": [{"name": "a", "x": 1}]}`, "json line 1, field routers[0]: give both x and y"},
		{`{"format": "wormcheck-topology/2"}`, `json field format: "wormcheck-topology/2"`},
		{`{"format": "wormcheck-topology/1",
  "routers": [{"name": "a", "colour": 1}]}`, `json line 2, field routers[0]: unknown field "colour"`},
		{"{\"format\": \n", "json line 2: the object is not closed"},
		{"graph { a -- b;\n c -> d }", "dot line 2: edge -> in a graph; use --"},
		{"digraph { a -> b\n subgraph x { c } }", "dot line 2: subgraphs are not supported"},
		{"graph { a -- b\n a [pos=\"1\"] }", `dot line 2: node a: pos "1" is not "x,y"`},
		{"graph { a -- b ", "dot line 1: the graph is not closed"},
		{"graph { a -- b -- a }", "is given twice"},
		{"graph { a:n -- b }", `dot line 1: node "a": ports (a:p) are not supported`},
	} {
		_, err := parseFile("file:t", []byte(tc.text))
		if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v; want one line containing %q", tc.text, err, tc.want)
		}
	}
	if _, err := Parse("file:testdata/topo/missing"); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing file: %v", err)
	}
}

// TestGenerators pins the sizes of generated dragonflies and fat-trees and checks
// that every arrangement joins each pair of groups exactly once.
func TestGenerators(t *testing.T) {
	for _, tc := range []struct {
		spec                       string
		nodes, channels, terminals int
	}{
		{"dragonfly:a=4,p=2,h=2", 36 + 72, 9*4*3 + 36*2 + 72*2, 72},
		{"dragonfly:a=2,p=1,h=1,g=3,arrangement=palmtree", 12, 3*2 + 3*2 + 12, 6},
		{"dragonfly:a=4,p=0,h=1,g=3,arrangement=relative", 12, 3*12 + 3*2, 0},
		{"fattree:4,3", 48 + 64, 2 * (2*16*4 + 64), 64},
		{"fattree:2,1", 3, 4, 2},
	} {
		g, err := Parse(tc.spec)
		if err != nil {
			t.Fatalf("%s: %v", tc.spec, err)
		}
		if g.Nodes() != tc.nodes || g.Channels() != tc.channels || g.Terminals() != tc.terminals {
			t.Errorf("%s: %d nodes, %d channels, %d terminals; want %d, %d, %d", tc.spec, g.Nodes(), g.Channels(), g.Terminals(), tc.nodes, tc.channels, tc.terminals)
		}
	}
	for _, arr := range Arrangements {
		d := Dragonfly{A: 3, P: 1, H: 2, G: 7, Arrangement: arr}
		g, err := NewDragonfly(d)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := g.DragonflyShape()
		joined := map[[2]int]int{}
		for c := ChannelID(0); int(c) < g.Channels(); c++ {
			ch := g.Channel(c)
			if g.Terminal(ch.From) || g.Terminal(ch.To) || s.Group(ch.From) == s.Group(ch.To) {
				continue
			}
			joined[[2]int{s.Group(ch.From), s.Group(ch.To)}]++
			if s.Gateway(s.Group(ch.From), s.Group(ch.To)) != ch.From {
				t.Errorf("%s: Gateway(%d,%d) is not %s", arr, s.Group(ch.From), s.Group(ch.To), g.NodeName(ch.From))
			}
		}
		for i := 0; i < 7; i++ {
			for j := 0; j < 7; j++ {
				if want := map[bool]int{true: 0, false: 1}[i == j]; joined[[2]int{i, j}] != want {
					t.Errorf("%s: groups %d->%d joined %d times", arr, i, j, joined[[2]int{i, j}])
				}
			}
		}
	}
	for _, bad := range []string{"dragonfly:a=4,p=2", "dragonfly:a=4,p=2,h=2,g=10", "dragonfly:a=2,p=1,h=1,arrangement=spiral", "fattree:1,3", "fattree:4", "fattree:64,3"} {
		if _, err := Parse(bad); err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v", bad, err)
		}
	}
}

// TestFaults removes links from a mesh and checks the canonical spec, the channel
// maps and the refusals.
func TestFaults(t *testing.T) {
	g, err := Parse("mesh:4x4/faults=(1,1)-(2,1),6->10")
	if err != nil {
		t.Fatal(err)
	}
	if want := "mesh:4x4/faults=(1,1)-(2,1),(2,1)->(2,2)"; g.Spec() != want {
		t.Errorf("spec %q; want %q", g.Spec(), want)
	}
	base, ok := g.FaultBase()
	if !ok || base.Spec() != "mesh:4x4" || g.Channels() != base.Channels()-3 {
		t.Fatalf("base %v, %d channels", base, g.Channels())
	}
	for c := ChannelID(0); int(c) < g.Channels(); c++ {
		b := g.BaseChannel(c)
		if g.FromBase(b) != c || base.Channel(b).From != g.Channel(c).From || base.Channel(b).To != g.Channel(c).To {
			t.Fatalf("channel %s maps to %s", g.ChannelName(c), base.ChannelName(b))
		}
	}
	if again, err := Parse(g.Spec()); err != nil || again.Spec() != g.Spec() {
		t.Errorf("the canonical spec does not parse back: %v", err)
	}
	for _, tc := range []struct{ spec, want string }{
		{"mesh:4x4/faults=(0,0)-(2,2)", "has no channel (0,0)->(2,2)"},
		{"mesh:4x4/faults=0-1,0-4", "network is not connected"},
		{"mesh:4x4/faults=", "the list of failed links is empty"},
		{"mesh:4x4/faults=0~1", "write A-B (both ways) or A->B"},
		{"banyan:8/faults=0-1", "not a mesh, torus, hypercube"},
	} {
		if _, err := Parse(tc.spec); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v; want %q", tc.spec, err, tc.want)
		}
	}
	if g, err := Parse("mesh:4x4/faults=0-1"); err != nil || g.RequireDims("XY routing") == nil {
		t.Errorf("a network with faults has dimensions: %v", err)
	}
	if _, err := Parse("random:6,8,1/faults=0-1"); err == nil || !strings.Contains(err.Error(), "irregular network") {
		t.Errorf("faults were laid over an irregular network: %v", err)
	}
}

// FuzzTopologyFile feeds any bytes to the three file parsers: they return a network or
// an error of one line, never panic, and a network they return is strongly connected
// with consistent ports.
func FuzzTopologyFile(f *testing.F) {
	for _, p := range []string{"booksim_example.anynet", "ring_chord.anynet", "soc.json", "ring.dot"} {
		data, err := os.ReadFile("testdata/topo/" + p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("digraph g { a -> b -> c -> a [weight=2]; c [terminal=true] }"))
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := parseFile("file:fuzz", data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of several lines: %q", err)
			}
			return
		}
		for c := ChannelID(0); int(c) < g.Channels(); c++ {
			if g.PortChannel(g.Channel(c).From, g.Port(c)) != c {
				t.Fatalf("port of %s", g.ChannelName(c))
			}
		}
		for v := NodeID(0); int(v) < g.Nodes(); v++ {
			if w, ok := g.NodeByName(g.NodeName(v)); !ok || w != v {
				t.Fatalf("name of node %d", v)
			}
		}
	})
}

// FuzzTopologySpec feeds any spec to parse (grids, generators, faults).
func FuzzTopologySpec(f *testing.F) {
	for _, s := range []string{"mesh:4x4/faults=(1,1)-(2,1),6->10", "dragonfly:a=2,p=1,h=1,arrangement=relative", "fattree:2,3", "torus:4x4/faults=0-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, spec string) {
		if strings.HasPrefix(strings.TrimSpace(spec), "file") {
			return // reads files: FuzzTopologyFile covers the parsers
		}
		if fuzzNodes(spec) > fuzzMaxNodes {
			return // seconds per input; the size limits have their own tests
		}
		tp, err := parse(spec)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("error of several lines: %q", err)
			}
			return
		}
		if g, ok := tp.(*Network); ok && g.IsGraph() {
			if _, err := parse(g.Spec()); err != nil {
				t.Fatalf("spec %q of %q does not parse: %v", g.Spec(), spec, err)
			}
		}
	})
}

// TestAnynetWeights reads BookSim2's README example of link weights ("Router 0 Router 1
// 10 Router 2 5": capitalised words, weights on the head->body channels only).
func TestAnynetWeights(t *testing.T) {
	g, err := parseFile("file:w", []byte("Router 0 Router 1 10 Router 2 5\nrouter 1 router 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	w := func(a, b string) int {
		u, _ := g.NodeByName(a)
		v, _ := g.NodeByName(b)
		return g.Weight(g.ChannelBetween(u, v))
	}
	if w("r0", "r1") != 10 || w("r1", "r0") != 1 || w("r0", "r2") != 5 || w("r2", "r0") != 1 || w("r1", "r2") != 1 {
		t.Errorf("weights r0->r1 %d, r1->r0 %d, r0->r2 %d, r2->r0 %d", w("r0", "r1"), w("r1", "r0"), w("r0", "r2"), w("r2", "r0"))
	}
	if g.Terminals() != 0 || len(g.Endpoints()) != 3 {
		t.Errorf("a network of routers only: %d terminals, %d endpoints", g.Terminals(), len(g.Endpoints()))
	}
}
