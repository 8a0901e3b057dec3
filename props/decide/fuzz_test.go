package decide

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// FuzzDecideRoutingFile sends routing files through the exact decision on a 2x2 and a
// 3x3 mesh: a file the parser accepts is decided without panic (an error only for a
// relation that breaks its contract), a violation's configuration is re-checked
// against the relation (legal routes, disjoint held channels, every permitted output
// held), and a bound gives inconclusive, never a verdict.
func FuzzDecideRoutingFile(f *testing.F) {
	for _, glob := range []string{"testdata/*.json", "../../model/routing/testdata/*.json"} {
		files, _ := filepath.Glob(glob)
		for _, p := range files {
			if data, err := os.ReadFile(p); err == nil {
				f.Add(data)
			}
		}
	}
	grids := []*topology.Network{}
	for _, spec := range []string{"mesh:2x2", "mesh:3x3"} {
		g, err := topology.Parse(spec)
		if err != nil {
			f.Fatal(err)
		}
		grids = append(grids, g)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, g := range grids {
			rel, err := routing.ParseFile(data, g)
			if err != nil {
				continue
			}
			d, err := Decide(rel, Options{MaxStates: 1 << 14, MaxNodes: 1 << 14})
			if err != nil {
				continue // a relation that offers a channel not leaving its router, etc.
			}
			switch d.Verdict {
			case props.Violated:
				checkConfiguration(t, rel, d.Configuration)
			case props.Inconclusive:
				if d.Bound == "" {
					t.Fatalf("inconclusive without a bound on %s", g.Spec())
				}
			}
		}
	})
}
