package cdg

import (
	"fmt"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestDependenciesAgreeWithAnalyze checks that the exported graph is the graph Analyze
// decides: for every built-in on small meshes and tori, the same acyclicity, and, when
// Analyze searched every destination, the same vertices and edges, and a witness cycle
// of Analyze whose every dependency is an edge of the graph.
func TestDependenciesAgreeWithAnalyze(t *testing.T) {
	checked := 0
	for _, spec := range []string{"mesh:3x3", "mesh:4x4", "torus:4x4", "torus:3x3", "hypercube:3", "mesh:3x2x3"} {
		for _, name := range routing.Names() {
			if name == "nonminimal:B" {
				name = "nonminimal:1"
			}
			rel, err := routing.ByName(mustGrid(t, spec), name)
			if err != nil {
				continue
			}
			gr, err := Dependencies(rel)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Analyze(rel, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if (gr.Cycle() == nil) != res.Acyclic {
				t.Errorf("%s on %s: graph cycle %v, Analyze acyclic %v", name, spec, gr.Cycle(), res.Acyclic)
			}
			if res.Complete && (gr.Len() != res.Edges || len(gr.Vertices()) != res.Vertices) {
				t.Errorf("%s on %s: graph %d vertices %d edges, Analyze %d/%d", name, spec, len(gr.Vertices()), gr.Len(), res.Vertices, res.Edges)
			}
			for _, d := range res.Cycle {
				if !gr.Has(d.From, d.To) {
					t.Errorf("%s on %s: Analyze's cycle dependency %v -> %v is not an edge", name, spec, d.From, d.To)
				}
			}
			for _, e := range gr.Edges() {
				if gr.g.Channel(e.From.Channel).To != e.At || !gr.Held(e.From) || !gr.Held(e.To) {
					t.Fatalf("%s on %s: malformed edge %s", name, spec, gr.EdgeName(e))
				}
			}
			checked++
		}
	}
	if checked < 30 {
		t.Fatalf("checked %d graphs", checked)
	}
}

// ExampleDependencies lists the dependencies of west-first routing on a 2x2 mesh, with
// the turns they make: north->west and south->west, the turns west-first prohibits,
// do not appear, and the graph is acyclic (Glass & Ni).
func ExampleDependencies() {
	g, _ := topology.Parse("mesh:2x2")
	rel, _ := routing.ByName(g, "west-first")
	gr, _ := Dependencies(rel)
	for _, e := range gr.Edges() {
		fmt.Println(gr.EdgeName(e))
	}
	fmt.Println("acyclic:", gr.Cycle() == nil)
	// Output:
	// (0,0)->(1,0).vc0 -> (1,0)->(1,1).vc0 (east->north at (1,0))
	// (0,0)->(0,1).vc0 -> (0,1)->(1,1).vc0 (north->east at (0,1))
	// (1,0)->(0,0).vc0 -> (0,0)->(0,1).vc0 (west->north at (0,0))
	// (0,1)->(1,1).vc0 -> (1,1)->(1,0).vc0 (east->south at (1,1))
	// (0,1)->(0,0).vc0 -> (0,0)->(1,0).vc0 (south->east at (0,0))
	// (1,1)->(0,1).vc0 -> (0,1)->(0,0).vc0 (west->south at (0,1))
	// acyclic: true
}
