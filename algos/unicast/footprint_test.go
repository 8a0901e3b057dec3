package unicast

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// footprintCase is a topology and relation the footprint tests run on.
type footprintCase struct{ topo, rel string }

// footprintCases are deterministic, adaptive, escape-channel and violated relations
// (forgot-a-row, a routing file, strands one worm, so disconnected placements with a
// violated component occur; nonminimal:1 deadlocks with 2 worms, adaptive on
// hypercube:3 with 3) on the small networks; the non-short tier adds more.
func footprintCases(short bool) []footprintCase {
	cs := []footprintCase{{"mesh:3x2", "west-first"}, {"mesh:3x2", "adaptive"}, {"mesh:3x3", "strand.json"}}
	if !short {
		cs = append(cs, footprintCase{"mesh:3x2", "duato"}, footprintCase{"mesh:3x2", "nonminimal:1"},
			footprintCase{"mesh:3x3", "odd-even"}, footprintCase{"mesh:3x3", "duato"},
			footprintCase{"torus:3x3", "duato"}, footprintCase{"torus:3x3", "adaptive"}, footprintCase{"torus:3x3", "updown"},
			footprintCase{"hypercube:3", "adaptive"}, footprintCase{"hypercube:3", "duato"})
	}
	return cs
}

// footprintSetup parses a case and computes its footprints (L = 2, B = 1, all-port).
func footprintSetup(t *testing.T, c footprintCase) (*topology.Network, routing.Relation, Spec, *Footprints) {
	t.Helper()
	g, err := topology.Parse(c.topo)
	if err != nil {
		t.Fatal(err)
	}
	var rel routing.Relation
	if strings.HasSuffix(c.rel, ".json") {
		data, err := os.ReadFile(filepath.Join("..", "..", "model", "routing", "testdata", c.rel))
		if err != nil {
			t.Fatal(err)
		}
		rel, err = routing.ParseFile(data, g)
	} else {
		rel, err = routing.ByName(g, c.rel)
	}
	if err != nil {
		t.Fatal(err)
	}
	tmpl := Spec{Topology: c.topo, Length: 2, Buffer: 1, Ports: model.AllPort, Routing: rel}
	fp, err := NewFootprints(g, tmpl, nil, EndpointPairs(g))
	if err != nil {
		t.Fatal(err)
	}
	return g, rel, tmpl, fp
}

// statesOf searches placement ps unreduced and returns its reachable states and verdict.
func statesOf(t *testing.T, g *topology.Network, tmpl Spec, ps []Pair) (int64, checker.Verdict) {
	t.Helper()
	sp := tmpl
	sp.Pairs = ps
	m, err := BuildOn(g, sp)
	if err != nil {
		t.Fatal(err)
	}
	r := SearchFull(m, checker.Options[flit.State]{Context: context.Background()})
	return r.States, r.Verdict
}

// TestFootprintsExact checks the footprints against the flit model on every 2-worm
// placement: two worms that share no virtual channel of their footprints reach exactly
// the product of their single-worm state counts (they never constrain each other), and
// two that share one reach fewer (the state where both hold it is unreachable). So a
// footprint that missed a channel some worm can hold fails here.
func TestFootprintsExact(t *testing.T) {
	for _, c := range footprintCases(testing.Short()) {
		t.Run(c.topo+"/"+c.rel, func(t *testing.T) {
			g, _, tmpl, fp := footprintSetup(t, c)
			apart, shared := 0, 0
			Placements(EndpointPairs(g), 2, func(ps []Pair) bool {
				if len(ps) < 2 {
					return true
				}
				n, _ := statesOf(t, g, tmpl, ps)
				prod := fp.States(ps[0]) * fp.States(ps[1])
				if fp.Interact(ps, 0, 1) {
					shared++
					if n >= prod {
						t.Fatalf("%s: footprints share a channel, but %d states = %d x %d", FormatPairs(nil, ps), n, fp.States(ps[0]), fp.States(ps[1]))
					}
				} else {
					apart++
					if n != prod {
						t.Fatalf("%s: footprints disjoint, but %d states != %d x %d", FormatPairs(nil, ps), n, fp.States(ps[0]), fp.States(ps[1]))
					}
				}
				return true
			})
			if apart == 0 || shared == 0 {
				t.Fatalf("%d disjoint and %d sharing pairs: the test needs both", apart, shared)
			}
			t.Logf("%d 2-worm placements disjoint, %d sharing", apart, shared)
		})
	}
}

// TestFootprintComponents checks the removal lemma on the verdicts: every disconnected
// placement of up to 2 worms and of 3 (one in 200 on the 9-node networks, one in 5 of
// those for duato) is violated
// iff one of its components is, each searched on its own, unreduced. The cases include
// relations whose violations need 1, 2 and 3 worms, so disconnected placements that
// contain a violated component occur.
func TestFootprintComponents(t *testing.T) {
	for _, c := range footprintCases(testing.Short()) {
		t.Run(c.topo+"/"+c.rel, func(t *testing.T) {
			g, _, tmpl, fp := footprintSetup(t, c)
			verdicts := map[string]checker.Verdict{}
			verdict := func(ps []Pair) checker.Verdict {
				q := append([]Pair(nil), ps...)
				sort.Slice(q, func(i, j int) bool { return q[i].Src < q[j].Src || q[i].Src == q[j].Src && q[i].Dst < q[j].Dst })
				k := FormatPairs(nil, q)
				if v, ok := verdicts[k]; ok {
					return v
				}
				_, v := statesOf(t, g, tmpl, q)
				verdicts[k] = v
				return v
			}
			k3 := 0
			checked, bad := 0, 0
			step := 1 // every 3-worm placement on 6 nodes; one in 200 on 9
			if g.Nodes() > 6 {
				step = 200
			}
			if c.rel == "duato" {
				step *= 5 // duato's three worms take 10 times the states
			}
			Placements(EndpointPairs(g), 3, func(ps []Pair) bool {
				if len(ps) == 3 {
					if k3++; k3%step != 0 {
						return true
					}
				}
				comps := fp.Components(ps)
				if len(comps) == 1 {
					return true
				}
				any := false
				for _, comp := range comps {
					sub := make([]Pair, len(comp))
					for i, w := range comp {
						sub[i] = ps[w]
					}
					any = any || verdict(sub) == checker.Violated
				}
				whole := verdict(ps)
				if whole == checker.Inconclusive || (whole == checker.Violated) != any {
					t.Fatalf("%s: %v, components %v violated: %v", FormatPairs(nil, ps), whole, comps, any)
				}
				checked++
				if any {
					bad++
				}
				return true
			})
			if checked == 0 || c.rel == "strand.json" && bad == 0 {
				t.Fatalf("%d disconnected placements, %d violated: the test needs them", checked, bad)
			}
			t.Logf("%d disconnected placements, %d of them violated", checked, bad)
		})
	}
}

// TestRelationSymmetries checks the symmetry reduction of non-DOR families: under every
// symmetry flit.GridSymmetries keeps for a relation, every placement of up to 2 worms
// (one in 4 under a group of more than 8) and its image have the same state count and
// verdict; and a map it rejects (the
// reflection of x for west-first, which turns it into east-first) does change some
// placement's, so the comparison can fail.
func TestRelationSymmetries(t *testing.T) {
	cs := []footprintCase{{"mesh:3x2", "duato"}, {"mesh:3x2", "nonminimal:1"}}
	if !testing.Short() {
		cs = append(cs, footprintCase{"torus:3x3", "duato"}, footprintCase{"hypercube:3", "adaptive"}, footprintCase{"mesh:3x3", "west-first"})
	}
	for _, c := range cs {
		t.Run(c.topo+"/"+c.rel, func(t *testing.T) {
			g, rel, tmpl, _ := footprintSetup(t, c)
			syms := flit.GridSymmetries(g, rel)
			if len(syms) < 2 {
				t.Fatalf("%d symmetries: the test needs one besides the identity", len(syms))
			}
			n, k := 0, 0
			Placements(EndpointPairs(g), 2, func(ps []Pair) bool {
				if k++; len(syms) > 8 && k%4 != 0 {
					return true // a large group: one placement in 4 suffices
				}
				a, va := statesOf(t, g, tmpl, ps)
				for _, s := range syms[1:] {
					img := make([]Pair, len(ps))
					for i, p := range ps {
						img[i] = Pair{s.Node[p.Src], s.Node[p.Dst]}
					}
					if b, vb := statesOf(t, g, tmpl, img); a != b || va != vb {
						t.Fatalf("%s under %s: %d states %v, image %s %d states %v", FormatPairs(nil, ps), s.Name, a, va, FormatPairs(nil, img), b, vb)
					}
				}
				n++
				return true
			})
			t.Logf("%d placements x %d symmetries", n, len(syms)-1)
		})
	}
	t.Run("rejected", func(t *testing.T) {
		g, rel, tmpl, _ := footprintSetup(t, footprintCase{"mesh:3x2", "west-first"})
		reflect := make([]topology.NodeID, g.Nodes())
		for v := range reflect {
			c := g.Coords(topology.NodeID(v))
			c[0] = g.Size(0) - 1 - c[0]
			reflect[v] = g.Node(c...)
		}
		for _, s := range flit.GridSymmetries(g, rel) {
			if fmt.Sprint(s.Node) == fmt.Sprint(reflect) {
				t.Fatal("the reflection of x is kept for west-first")
			}
		}
		differ := false
		Placements(EndpointPairs(g), 2, func(ps []Pair) bool {
			img := make([]Pair, len(ps))
			for i, p := range ps {
				img[i] = Pair{reflect[p.Src], reflect[p.Dst]}
			}
			a, _ := statesOf(t, g, tmpl, ps)
			b, _ := statesOf(t, g, tmpl, img)
			differ = a != b
			return !differ
		})
		if !differ {
			t.Fatal("the reflection of x keeps every state count: the comparison cannot fail")
		}
	})
}
