package topology

import (
	"slices"
	"strings"
	"testing"
)

// TestBookSimTrees builds BookSim's qtree and tree4 and checks their sizes and, for a
// router of each level, the nodes its ports lead to as qtree.cpp and tree4.cpp connect
// them (in the order of the ports); other sizes are refused, as BookSim asserts.
func TestBookSimTrees(t *testing.T) {
	for _, c := range []struct {
		spec              string
		routers, channels int
		ports             map[string]string
	}{
		{"qtree:k=4,n=3", 21, 168, map[string]string{
			"r0.0": "r1.0 r1.1 r1.2 r1.3", "r1.2": "r2.8 r2.9 r2.10 r2.11 r0.0", "r2.5": "n20 n21 n22 n23 r1.1", "n7": "r2.1"}},
		{"tree4:", 28, 256, map[string]string{
			"r0.1": "r1.0 r1.1 r1.2 r1.3 r1.4 r1.5 r1.6 r1.7", "r1.3": "r2.4 r2.5 r2.6 r2.7 r0.0 r0.1 r0.2 r0.3",
			"r2.5": "n20 n21 n22 n23 r1.2 r1.3", "n63": "r2.15"}},
	} {
		g, err := Parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		kind, ok := g.BookSimTree()
		if !ok || !strings.HasPrefix(c.spec, kind) || g.Nodes() != c.routers+64 || g.Channels() != c.channels {
			t.Errorf("%s: kind %q, %d nodes, %d channels; want %d routers + 64 terminals, %d channels", c.spec, kind, g.Nodes(), g.Channels(), c.routers, c.channels)
		}
		for name, want := range c.ports {
			v, ok := g.NodeByName(name)
			if !ok {
				t.Fatalf("%s has no node %s", c.spec, name)
			}
			var got []string
			for _, ch := range g.AppendOut(nil, v) {
				got = append(got, g.NodeName(g.Channel(ch).To))
			}
			if slices.Sort(got); !slices.Equal(got, sorted(strings.Fields(want))) {
				t.Errorf("%s: %s sends to %v; want %s", c.spec, name, got, want)
			}
			if !g.Terminal(v) {
				if h, p := g.TreeRouter(v); g.TreeNode(h, p) != v || g.NodeName(v) != "r"+string(rune('0'+h))+"."+strings.Split(name, ".")[1] {
					t.Errorf("%s: %s is level %d position %d", c.spec, name, h, p)
				}
			}
		}
	}
	for _, spec := range []string{"qtree:k=8,n=3", "tree4:n=2", "qtree:c=4"} {
		if _, err := Parse(spec); err == nil {
			t.Errorf("%s: accepted; BookSim asserts k=4, n=3", spec)
		}
	}
}

func sorted(s []string) []string {
	slices.Sort(s)
	return s
}
