package routing_test

import (
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// impostor routes as adaptive does under adaptive's name, from outside this package's
// types: a saved trace must not call it the built-in.
type impostor struct{ *routing.Adaptive }

// TestEncode checks how saved traces name relations: a built-in by its name, a routing
// file by its JSON, and not a type of another package under a built-in's name.
func TestEncode(t *testing.T) {
	g, err := topology.Parse("mesh:3x3")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"adaptive", "shortest-path", "nonminimal:2", "updown"} {
		rel, err := routing.ByName(g, name)
		if err != nil {
			t.Fatal(err)
		}
		if n, file, ok := routing.Encode(rel); !ok || n != name || file != nil {
			t.Errorf("%s: encoded as %q %s %v", name, n, file, ok)
		}
	}
	if n, _, ok := routing.Encode(impostor{routing.NewAdaptive(g)}); ok {
		t.Errorf("a type of another package named adaptive: encoded as %q", n)
	}
}
