// Package routingtest holds test helpers for code that takes a routing relation: the
// network a spec names with a built-in relation on it, failing the test where either
// is refused.
package routingtest

import (
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Builtin returns the network spec names (topology.Parse) and the built-in relation
// name on it (routing.ByName), failing t where either is refused.
func Builtin(t testing.TB, spec, name string) (*topology.Network, routing.Relation) {
	t.Helper()
	g, err := topology.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := routing.ByName(g, name)
	if err != nil {
		t.Fatal(err)
	}
	return g, rel
}
