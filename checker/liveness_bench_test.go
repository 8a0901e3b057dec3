package checker_test

import (
	"testing"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
)

// livenessBenchModel is two worms crossing mesh:3x3 corner to corner (0->8, 8->0) under
// nonminimal:2 routing, 2-flit worms, one-flit buffers: a cyclic reachable graph of
// 719,046 states and 2,543,700 transitions on which liveness holds.
func livenessBenchModel(b *testing.B) *flit.Model {
	sp := unicast.Spec{Topology: "mesh:3x3", Length: 2, Buffer: 1, Pairs: []unicast.Pair{{Src: 0, Dst: 8}, {Src: 8, Dst: 0}}}
	g, err := sp.Grid()
	if err != nil {
		b.Fatal(err)
	}
	if sp.Routing, err = routing.ByName(g, "nonminimal:2"); err != nil {
		b.Fatal(err)
	}
	m, err := unicast.BuildOn(g, sp)
	if err != nil {
		b.Fatal(err)
	}
	return m
}

// BenchmarkLiveness runs CheckLiveness on livenessBenchModel and reports states/s of the
// whole check and the bytes per state its graph keeps (Go heap after a collection).
func BenchmarkLiveness(b *testing.B) {
	m := livenessBenchModel(b)
	var states int64
	for b.Loop() {
		res, err := checker.CheckLiveness[flit.State](m, checker.LivenessOptions{})
		if err != nil || res.Verdict != checker.Holds || res.States != 719046 || res.Transitions != 2543700 {
			b.Fatalf("CheckLiveness: %+v, %v; want holds on 719046 states, 2543700 transitions", res, err)
		}
		states += res.States
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
	b.StopTimer()
	n, bytes, err := checker.LivenessGraphBytes[flit.State](m)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(bytes)/float64(n), "graph-bytes/state")
}
