package booksim_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/wormcheck/wormcheck/model/booksim"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/decide"
)

// TestExampleNetworks maps each of BookSim2's eight example configurations (as
// testdata/examples models them) to a network and a relation wormcheck builds.
func TestExampleNetworks(t *testing.T) {
	for _, tc := range []struct {
		file, topo, function string
		nodes, terminals     int
		vcs, buffer, length  int
	}{
		{"anynet_config", "file:testdata/examples/anynet_file", "min_anynet", 12, 9, 1, 3, 1},
		{"cmeshconfig", "cmesh:k=4,n=2,c=4,xr=2,yr=2", "dor_no_express_cmesh", 80, 64, 16, 8, 1},
		{"dragonflyconfig", "dragonfly:a=8,p=4,h=4", "min_dragonflynew", 33*8 + 33*8*4, 33 * 8 * 4, 2, 256, 10},
		{"fattree_config", "fattree:4,3", "nca_fattree", 48 + 64, 64, 4, 16, 1},
		{"flatflyconfig", "flatfly:k=4,n=2,c=4,x=4,y=4,xr=2,yr=2", "ran_min_flatfly", 80, 64, 8, 4, 1},
		{"mesh88_lat", "mesh:8x8", "dor_mesh", 64, 0, 8, 8, 20},
		{"singleconfig", "fly:k=10,n=1", "dest_tag_fly", 11, 10, 8, 8, 1},
		{"torus88", "torus:8x8", "dim_order_torus", 64, 0, 2, 8, 1},
	} {
		path := filepath.Join("testdata/examples", tc.file)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		c, err := booksim.Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		m, err := c.Map(filepath.Dir(path))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if m.Topology != tc.topo || m.Buffer != tc.buffer || m.Length != tc.length {
			t.Errorf("%s: %+v; want topology %s, buffer %d, length %d", tc.file, m, tc.topo, tc.buffer, tc.length)
		}
		g, err := topology.Parse(m.Topology)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		if g.Nodes() != tc.nodes || g.Terminals() != tc.terminals {
			t.Errorf("%s: %d nodes, %d terminals; want %d, %d", tc.file, g.Nodes(), g.Terminals(), tc.nodes, tc.terminals)
		}
		rel, err := routing.ByName(g, m.Routing)
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		b, ok := rel.(interface{ Function() string })
		if !ok || b.Function() != tc.function || rel.VCs() != tc.vcs {
			t.Errorf("%s: relation %s (%d VCs); want BookSim's %s on %d", tc.file, rel.Name(), rel.VCs(), tc.function, tc.vcs)
		}
	}
}

// TestExampleVerdicts decides each example's routing function on its network at its
// VCs (the static decision of `wormcheck routing --booksim`): all eight hold, each by
// its acyclic channel dependency graph.
func TestExampleVerdicts(t *testing.T) {
	if testing.Short() {
		t.Skip("decides networks of up to 1320 nodes (seconds)")
	}
	files, _ := filepath.Glob("testdata/examples/*")
	for _, path := range files {
		if filepath.Base(path) == "anynet_file" {
			continue
		}
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		c, err := booksim.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		m, err := c.Map(filepath.Dir(path))
		if err != nil {
			t.Fatal(err)
		}
		rep, err := decide.Prove(context.Background(), m.Topology, m.Routing, os.ReadFile)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if rep.Verdict != props.Holds || rep.Analysis == nil || !rep.Analysis.Acyclic {
			t.Errorf("%s: %s on %s: %s (%s); want holds by an acyclic channel dependency graph", path, m.Routing, m.Topology, rep.Verdict, rep.Reason)
		}
	}
}
