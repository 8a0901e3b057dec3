package proofs

import (
	"math/rand"
	"testing"

	"github.com/wormcheck/wormcheck/algos/edn"
	"github.com/wormcheck/wormcheck/algos/unicastmc"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// TestVirtualChannelContention: judged per virtual channel (004 Fig. 2 classes), EDN on
// 16x16 still contends (its pair shares a class), while a U-torus multicast that contends
// per physical channel is contention-free; 001 §4.2's worked example is free either way.
func TestVirtualChannelContention(t *testing.T) {
	depth := func(s *model.Schedule) props.Verdict {
		return schedule.Depth(s, schedule.DepthOptions{NoTheorem1: true, NoGrid: true}).Verdict
	}
	perVC := func(s *model.Schedule) props.Verdict {
		vc, err := s.WithWrapAheadClasses()
		if err != nil {
			t.Fatal(err)
		}
		return depth(vc)
	}
	g, _ := topology.NewTorus(16, 16)
	s, _ := edn.Build(g, 0)
	if v := perVC(s); v != props.Violated {
		t.Errorf("EDN 16x16 per virtual channel: %s; want violated", v)
	}
	// The first physically contending multicast of NP8's random 16x16 family.
	rng := rand.New(rand.NewSource(8))
	found := false
	for i := 0; i < 40 && !found; i++ {
		src := topology.NodeID(rng.Intn(256))
		n := 1 + rng.Intn(60)
		seen := map[topology.NodeID]bool{src: true}
		var ds []topology.NodeID
		for len(ds) < n {
			if v := topology.NodeID(rng.Intn(256)); !seen[v] {
				seen[v] = true
				ds = append(ds, v)
			}
		}
		u, _ := unicastmc.Build(g, unicastmc.UTorus, unicastmc.Multicast{Source: src, Destinations: ds})
		if depth(u) == props.Violated {
			found = true
			if v := perVC(u); v != props.Holds {
				t.Errorf("U-torus from %d: per virtual channel %s; want holds", src, v)
			}
		}
	}
	if !found {
		t.Fatal("no physically contending U-torus multicast in NP8's family")
	}
	g8, _ := topology.NewTorus(8, 8)
	p := func(i, j int) topology.NodeID { return g8.Node(i, j) }
	u, _ := unicastmc.Build(g8, unicastmc.UTorus, unicastmc.Multicast{Source: p(4, 2), Destinations: []topology.NodeID{p(0, 3), p(1, 1), p(2, 6), p(3, 4), p(5, 7), p(6, 0), p(6, 4)}})
	if depth(u) != props.Holds || perVC(u) != props.Holds {
		t.Errorf("worked example contends")
	}
}
