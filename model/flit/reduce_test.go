package flit

import (
	"fmt"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/model/topology"
)

// deadlockStates returns the encodings of the deadlock states reachable in sys (no
// transition, not Terminal), sorted, and the number of reachable states, by a naive BFS.
func deadlockStates(sys system.Model[State]) ([]string, int) {
	seen := map[string]bool{}
	var dead []string
	queue := sys.Init()
	for _, s := range queue {
		seen[string(sys.Encode(s, nil))] = true
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		succ := sys.Successors(s, nil)
		if len(succ) == 0 && !sys.Terminal(s) {
			dead = append(dead, string(sys.Encode(s, nil)))
		}
		for _, tr := range succ {
			k := string(sys.Encode(tr.Next, nil))
			if !seen[k] {
				seen[k] = true
				queue = append(queue, tr.Next)
			}
		}
	}
	slices.Sort(dead)
	return dead, len(seen)
}

// TestReductionKeepsEveryDeadlock is the naive twin of the partial-order reduction: on
// the small instances (adaptive squares with free worms, rings, tree multicasts under
// every pruning policy, one-port sources) the reduced graph has exactly the full graph's
// deadlock states, and on the instances where it can it has fewer states.
func TestReductionKeepsEveryDeadlock(t *testing.T) {
	models := localDeadlockModels(t)
	g := grid(t, "mesh:3x3")
	models["dor-4-worms"] = mustNew(t, NewGridConfig(g, false, 1, 1, AllPort, unicasts(2, 0, 8, 8, 0, 2, 6, 6, 2)))
	models["dor-oneport-shared-source"] = mustNew(t, NewGridConfig(g, false, 1, 1, OnePort, unicasts(2, 0, 8, 0, 5, 4, 2, 8, 0)))
	fewer := 0
	for name, m := range models {
		if m.budget >= 0 {
			continue // misrouting: the reduction is not used (cyclic graphs)
		}
		full, nFull := deadlockStates(m)
		red, nRed := deadlockStates(NewReduced(m))
		if !slices.Equal(full, red) {
			t.Errorf("%s: %d deadlock states unreduced, %d reduced", name, len(full), len(red))
		}
		if nRed > nFull {
			t.Errorf("%s: the reduced graph has more states (%d) than the full one (%d)", name, nRed, nFull)
		}
		if nRed < nFull {
			fewer++
		}
		t.Logf("%s: %d -> %d states, %d deadlock states", name, nFull, nRed, len(full))
	}
	if fewer == 0 {
		t.Error("the reduction removed no state on any instance")
	}
}

// TestReductionOnRandomInstances: seeded random worm and multicast placements on small
// meshes and tori, every pruning policy and both port models: the reduced and full
// graphs have the same deadlock states.
func TestReductionOnRandomInstances(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261127)
	params.MinSuccessfulTests = 400
	if testing.Short() {
		params.MinSuccessfulTests = 100
	}
	p := gopter.NewProperties(params)
	p.Property("same deadlock states", prop.ForAll(func(seed uint64) string {
		m := randomReductionModel(t, seed)
		full, _ := deadlockStates(m)
		red, _ := deadlockStates(NewReduced(m))
		if !slices.Equal(full, red) {
			return fmt.Sprintf("seed %d (%v): %d deadlock states unreduced, %d reduced", seed, m.cfg.Messages, len(full), len(red))
		}
		return ""
	}, gen.UInt64()))
	p.TestingRun(t)
}

// randomReductionModel builds a small random instance from seed: 2-4 worms or
// multicasts on mesh:3x2, mesh:2x2 or torus:4, L 1-2, B 1-2, one or all ports, a random
// pruning policy, DOR or minimal adaptive routing.
func randomReductionModel(t testing.TB, seed uint64) *Model {
	x := seed*0x9e3779b97f4a7c15 + 1
	next := func(n int) int {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return int(x % uint64(n))
	}
	g := grid(t, []string{"mesh:3x2", "mesh:2x2", "torus:4"}[next(3)])
	nodes := g.Nodes()
	var msgs []Message
	for k := 0; k < 2+next(3); k++ {
		src := topology.NodeID(next(nodes))
		var dests []topology.NodeID
		for d := 0; d < 1+next(2); d++ {
			v := topology.NodeID(next(nodes))
			if v != src && !slices.Contains(dests, v) {
				dests = append(dests, v)
			}
		}
		if len(dests) == 0 {
			dests = []topology.NodeID{(src + 1) % topology.NodeID(nodes)}
		}
		msgs = append(msgs, Message{Source: src, Dests: dests, Length: 1 + next(2), Multicast: len(dests) > 1})
	}
	ports := []Ports{OnePort, AllPort}[next(2)]
	var cfg Config
	if g.Kind() == topology.Mesh && next(2) == 0 {
		cfg = NewRelationConfig(minimalAdaptive{g, 1}, 0, 1+next(2), ports, msgs)
	} else {
		dateline := g.Kind() == topology.Torus && next(2) == 0
		vcs := 1
		if dateline {
			vcs = 2
		}
		cfg = NewGridConfig(g, dateline, vcs, 1+next(2), ports, msgs)
	}
	cfg.Prune = []Prune{PruneNone, PruneOnNoFree, PruneOnStop, PrunePartial}[next(4)]
	return mustNew(t, cfg)
}

// TestReducedExplore: the explorer on the reduced model finds RT2's square deadlock and
// proves a DOR instance deadlock-free with fewer states.
func TestReducedExplore(t *testing.T) {
	g := grid(t, "mesh:3x3")
	sq := mustNew(t, NewRelationConfig(minimalAdaptive{g, 1}, 0, 1, AllPort, unicasts(2, 0, 4, 1, 3, 4, 0, 3, 1, 2, 8)))
	res, err := checker.Explore[State](NewReduced(sq), checker.Options[State]{CheckDeadlock: true, CheckLocalDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.Violated || !res.Violation.Kind.IsDeadlock() {
		t.Fatalf("reduced square: %v %+v", res.Verdict, res.Violation)
	}
	dor := mustNew(t, NewGridConfig(g, false, 1, 2, AllPort, unicasts(2, 0, 8, 8, 0, 2, 6, 6, 2)))
	full, err := checker.Explore[State](dor, checker.Options[State]{CheckDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	red, err := checker.Explore[State](NewReduced(dor), checker.Options[State]{CheckDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	if full.Verdict != checker.Holds || red.Verdict != checker.Holds || red.Stats.States >= full.Stats.States {
		t.Fatalf("DOR: full %v %d states, reduced %v %d states", full.Verdict, full.Stats.States, red.Verdict, red.Stats.States)
	}
	t.Logf("DOR 4 worms on mesh:3x3: %d -> %d states", full.Stats.States, red.Stats.States)
}

// BenchmarkReducedExplore times the explorer on the reduced and the full model of four
// DOR worms on mesh:3x3 that share channels and destinations (the reduction's cost per state against
// the states it saves).
func BenchmarkReducedExplore(b *testing.B) {
	g := grid(b, "mesh:3x3")
	m := mustNew(b, NewGridConfig(g, false, 1, 2, AllPort, unicasts(2, 0, 5, 1, 5, 3, 8, 4, 8, 6, 2)))
	for _, red := range []bool{false, true} {
		b.Run(fmt.Sprintf("reduced=%v", red), func(b *testing.B) {
			var sys system.Model[State] = m
			if red {
				sys = NewReduced(m)
			}
			var states int64
			for b.Loop() {
				res, err := checker.Explore[State](sys, checker.Options[State]{CheckDeadlock: true})
				if err != nil || res.Verdict != checker.Holds {
					b.Fatal(err, res.Verdict)
				}
				states = res.Stats.States
			}
			b.ReportMetric(float64(states), "states")
			b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
		})
	}
}
