package routing

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

// walkAll follows every route rel offers from every endpoint to every other one (depth
// first, at most limit hops) and calls visit with each complete path; it fails on a
// stranded header, an output that does not leave the router or a VC out of range.
func walkAll(t *testing.T, rel Relation, limit int, visit func(src, dst topology.NodeID, path []Output)) {
	t.Helper()
	g := rel.Grid()
	var path []Output
	var walk func(h Header)
	walk = func(h Header) {
		if h.At == h.Dst {
			visit(h.Src, h.Dst, path)
			return
		}
		if len(path) >= limit {
			t.Fatalf("%s on %s: %s->%s longer than %d hops: %v", rel.Name(), g.Spec(), g.NodeName(h.Src), g.NodeName(h.Dst), limit, path)
		}
		outs := rel.Route(h, nil)
		if len(outs) == 0 {
			t.Fatalf("%s on %s: header %s->%s stranded at %s", rel.Name(), g.Spec(), g.NodeName(h.Src), g.NodeName(h.Dst), g.NodeName(h.At))
		}
		for _, o := range outs {
			if o.Channel < 0 || int(o.Channel) >= g.Channels() || g.Channel(o.Channel).From != h.At || o.VC < 0 || o.VC >= rel.VCs() {
				t.Fatalf("%s on %s: bad output %+v at %s", rel.Name(), g.Spec(), o, g.NodeName(h.At))
			}
			path = append(path, o)
			walk(Header{At: g.Channel(o.Channel).To, In: Input{Channel: o.Channel, VC: o.VC}, Src: h.Src, Dst: h.Dst})
			path = path[:len(path)-1]
		}
	}
	for _, s := range g.Endpoints() {
		for _, d := range g.Endpoints() {
			if s != d {
				walk(Header{At: s, In: Input{Channel: Injection}, Src: s, Dst: d})
			}
		}
	}
}

// TestGraphRelationsRoutes checks every route of the relations of irregular networks:
// up*/down* never goes up after down and marks exactly its non-shortening hops as
// misroutes; shortest paths and fat-tree NCA take the hop distance; dragonfly minimal
// takes at most one global channel and its VC class switches to 1 at it; Valiant's VCs
// never decrease and it takes at most two global channels; routes reach their
// destinations.
func TestGraphRelationsRoutes(t *testing.T) {
	nets := []string{"random:7,9,1", "random:8,12,2", "mesh:4x4/faults=(1,1)-(2,1),(0,3)-(1,3)",
		"dragonfly:a=2,p=1,h=1", "dragonfly:a=3,p=1,h=1,g=4,arrangement=relative", "dragonfly:a=2,p=2,h=2,arrangement=palmtree",
		"fattree:2,3", "fattree:3,2", "file:../topology/testdata/topo/ring_chord.anynet", "file:../topology/testdata/topo/soc.json"}
	for _, spec := range nets {
		g, err := topology.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		dist := make([][]int, g.Nodes())
		for v := range dist {
			dist[v] = g.HopDistances(topology.NodeID(v))
		}
		for _, name := range []string{"updown", "updown:3", "shortest-path", "dragonfly-min", "dragonfly-min-1vc", "dragonfly-valiant", "fattree-nca"} {
			rel, err := ByName(g, name)
			if err != nil {
				if strings.HasPrefix(name, "dragonfly") || name == "fattree-nca" {
					continue // not this kind of network
				}
				t.Fatalf("%s on %s: %v", name, spec, err)
			}
			routes := 0
			walkAll(t, rel, 4*g.Nodes(), func(src, dst topology.NodeID, path []Output) {
				routes++
				where := fmt.Sprintf("%s on %s: %s->%s", name, spec, g.NodeName(src), g.NodeName(dst))
				switch r := rel.(type) {
				case *UpDown:
					down := false
					for _, o := range path {
						if r.Up(o.Channel) && down {
							t.Fatalf("%s goes up after down", where)
						}
						down = down || !r.Up(o.Channel)
						at := g.Channel(o.Channel).From
						if mis := dist[dst][g.Channel(o.Channel).To] >= dist[dst][at]; mis != o.Misroute {
							t.Fatalf("%s: hop %s Misroute %v", where, g.ChannelName(o.Channel), o.Misroute)
						}
					}
				case *ShortestPath, *FatTreeNCA:
					if len(path) != dist[dst][src] {
						t.Fatalf("%s takes %d hops; the distance is %d", where, len(path), dist[dst][src])
					}
				case *DragonflyMin, *DragonflyValiant:
					d, _ := g.DragonflyShape()
					globals, vc := 0, 0
					for _, o := range path {
						ch := g.Channel(o.Channel)
						global := !g.Terminal(ch.From) && !g.Terminal(ch.To) && d.Group(ch.From) != d.Group(ch.To)
						if global {
							globals++
						}
						if o.VC < vc {
							t.Fatalf("%s: VC falls from %d to %d at %s", where, vc, o.VC, g.ChannelName(o.Channel))
						}
						if m, ok := rel.(*DragonflyMin); ok && m.Classes && global && o.VC != 1 {
							t.Fatalf("%s: global channel %s on VC %d", where, g.ChannelName(o.Channel), o.VC)
						}
						vc = o.VC
					}
					max := 1
					if _, ok := rel.(*DragonflyValiant); ok {
						max = 2
					}
					if globals > max || d.Group(src) == d.Group(dst) && globals > 0 {
						t.Fatalf("%s takes %d global channels", where, globals)
					}
				}
			})
			if routes == 0 && len(g.Endpoints()) > 1 {
				t.Fatalf("%s on %s: no route", name, spec)
			}
		}
	}
}

// TestGraphRelationsRefuse checks that relations refuse networks they do not fit with
// one line, and that grid relations name the relations that route any network.
func TestGraphRelationsRefuse(t *testing.T) {
	for _, tc := range []struct{ spec, name, want string }{
		{"random:5,6,1", "dor", "needs a mesh, torus or hypercube; random:5,6,1 is an irregular network"},
		{"random:5,6,1", "dragonfly-min", "needs a dragonfly"},
		{"mesh:4x4", "fattree-nca", "needs a fat-tree"},
		{"random:5,6,1", "updown:r9", "root"},
		{"mesh:4x4/faults=0-1", "odd-even", "reads the source of a worm"},
		{"mesh:4x4/faults=0-1", "nonminimal:1", "counts misroutes"},
	} {
		g, err := topology.Parse(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ByName(g, tc.name); err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s on %s: error %v; want %q", tc.name, tc.spec, err, tc.want)
		}
	}
}

// TestTableOnGraph reads a routing table whose "in" and "out" name neighbours, and
// refuses turn rules on an irregular network.
func TestTableOnGraph(t *testing.T) {
	g, err := topology.Parse("file:../topology/testdata/topo/ring4.dot")
	if err != nil {
		t.Fatal(err)
	}
	file := `{"format": "wormcheck-routing/1", "name": "cw", "vcs": 2, "table": [
		{"router": "a", "out": ["b"]}, {"router": "b", "in": "a", "out": ["c.vc1"]}, {"router": "b", "out": ["c"]},
		{"router": "c", "out": ["d"]}, {"router": "d", "out": ["a"]}]}`
	rel, err := ParseFile([]byte(file), g)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := g.NodeByName("a")
	b, _ := g.NodeByName("b")
	c, _ := g.NodeByName("c")
	in := g.ChannelBetween(a, b)
	out := rel.Route(Header{At: b, In: Input{Channel: in}, Src: a, Dst: c}, nil)
	if len(out) != 1 || out[0].Channel != g.ChannelBetween(b, c) || out[0].VC != 1 {
		t.Errorf("at b from a: %+v; want b->c on VC 1", out)
	}
	for _, bad := range []struct{ file, want string }{
		{`{"format": "wormcheck-routing/1", "name": "x", "rules": []}`, "turn rules need a mesh"},
		{`{"format": "wormcheck-routing/1", "name": "x", "table": [{"router": "a", "out": ["c"]}]}`, "table[0].out[0]: a has no channel to c"},
		{`{"format": "wormcheck-routing/1", "name": "x", "table": [{"router": "a", "in": "c", "out": ["b"]}]}`, "table[0].in: no channel arrives at a from c"},
	} {
		if _, err := ParseFile([]byte(bad.file), g); err == nil || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("error %v; want %q", err, bad.want)
		}
	}
}

// TestUpDownNeverUpAfterDown asks up*/down* at every header state a down channel leads
// to, reachable or not, for every destination: it offers no up channel there.
func TestUpDownNeverUpAfterDown(t *testing.T) {
	for _, spec := range []string{"random:9,14,3", "mesh:5x5/faults=(1,1)-(2,1),(3,3)-(3,4)"} {
		g, err := topology.Parse(spec)
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewUpDown(g, 2)
		if err != nil {
			t.Fatal(err)
		}
		for c := topology.ChannelID(0); int(c) < g.Channels(); c++ {
			if r.Up(c) {
				continue
			}
			at := g.Channel(c).To
			for dst := topology.NodeID(0); int(dst) < g.Nodes(); dst++ {
				if dst == at {
					continue
				}
				for _, o := range r.Route(Header{At: at, In: Input{Channel: c}, Dst: dst}, nil) {
					if r.Up(o.Channel) {
						t.Fatalf("%s: after down channel %s toward %s it offers up channel %s", spec, g.ChannelName(c), g.NodeName(dst), g.ChannelName(o.Channel))
					}
				}
			}
		}
	}
}

// TestFirstPath: the most preferred route of a lone worm is a walk from source to
// destination whose classes are the relation's VCs; dragonfly minimal takes class 1 from
// its global channel on; a stranded worm is an error.
func TestFirstPath(t *testing.T) {
	g, err := topology.Parse("dragonfly:a=2,p=1,h=1")
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := ByName(g, "dragonfly-min")
	s, _ := g.NodeByName("g0r0t0")
	d, _ := g.NodeByName("g2r1t0")
	hops, err := FirstPath(rel, s, d)
	if err != nil {
		t.Fatal(err)
	}
	var path []topology.ChannelID
	classes := ""
	for _, h := range hops {
		path = append(path, h.Channel)
		classes += fmt.Sprint(h.Class)
	}
	if err := g.CheckWalk(s, d, path); err != nil {
		t.Fatal(err)
	}
	if classes != "00111" { // t->r, local, global, local, r->t
		t.Errorf("classes %s along %v", classes, path)
	}
	f, _ := topology.Parse("mesh:3x3/faults=(1,0)-(2,0)")
	dor, _ := ByName(f, "dor")
	if _, err := FirstPath(dor, 0, 2); err == nil || !strings.Contains(err.Error(), "strands") {
		t.Errorf("dor across a failed link: %v", err)
	}
}
