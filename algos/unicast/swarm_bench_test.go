package unicast

import (
	"context"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
)

// BenchmarkSwarmOddEven8x8 walks ten odd-even worms on mesh:8x8 (deadlock-free, so
// the swarm never stops early) for a fixed number of walks: transitions walked per
// second is the swarm's speed.
func BenchmarkSwarmOddEven8x8(b *testing.B) {
	_, _, m := routedInstance(b, "mesh:8x8", "odd-even", "(0,0)->(7,7),(7,0)->(0,7),(0,7)->(7,0),(7,7)->(0,0),(3,3)->(4,4),(4,3)->(3,4),(4,4)->(3,3),(3,4)->(4,3),(1,2)->(6,5),(6,2)->(1,5)")
	var steps int64
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		res, err := checker.Swarm[flit.State](m, checker.SwarmOptions[flit.State]{Walkers: 1, Seed: 1, MaxWalks: 200, CheckDeadlock: true, CheckLocalDeadlock: true, Invariants: m.Invariants(), Context: ctx})
		cancel()
		if err != nil || res.Verdict != checker.Inconclusive {
			b.Fatal(err, res.Verdict)
		}
		steps += res.Steps
	}
	b.ReportMetric(float64(steps)/b.Elapsed().Seconds(), "transitions/s")
}
