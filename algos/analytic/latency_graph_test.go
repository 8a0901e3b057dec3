package analytic

import (
	"math"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/routing/routingtest"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestMeanRouteHopsFatTree: on the 2-ary 2-tree a terminal reaches its sibling in 2 hops
// (terminal, leaf, terminal) and the two others in 4 (up to a root and down), so the
// mean over ordered terminal pairs is 10/3; the zero-load latency adds ts + L + tr.
func TestMeanRouteHopsFatTree(t *testing.T) {
	g, rel := routingtest.Builtin(t, "fattree:2,2", "fattree-nca")
	route := func(s, d topology.NodeID) ([]topology.Hop, error) { return routing.FirstPath(rel, s, d) }
	h, err := MeanRouteHops(g, route)
	if err != nil || math.Abs(h-10.0/3) > 1e-12 {
		t.Fatalf("mean route hops %v, %v; want 10/3", h, err)
	}
	e := LatencyModel(Traffic{Grid: g, Length: 8, Ts: 2, Tr: 1, Route: route})
	if e.Err != "" || math.Abs(e.Unicast-(2+10.0/3+8+1)) > 1e-12 {
		t.Errorf("zero-load latency %+v", e)
	}
}
