package proofs

import (
	"testing"

	"github.com/wormcheck/wormcheck/algos/edn"
	"github.com/wormcheck/wormcheck/algos/unicastmc"
	"github.com/wormcheck/wormcheck/model"
)

// TestVCContentionFree: the per-virtual-channel check of NP8's note can fail (EDN on
// 16x16 contends on one class) and passes 001 §4.2's worked example.
func TestVCContentionFree(t *testing.T) {
	g, _ := model.NewTorus(16, 16)
	s, _ := edn.Build(g, 0)
	if ok, err := vcContentionFree(s); err != nil || ok {
		t.Errorf("EDN 16x16: %v %v; want a same-class contention", ok, err)
	}
	g8, _ := model.NewTorus(8, 8)
	p := func(i, j int) model.NodeID { return g8.Node(i, j) }
	u, _ := unicastmc.Build(g8, unicastmc.UTorus, unicastmc.Multicast{Source: p(4, 2), Destinations: []model.NodeID{p(0, 3), p(1, 1), p(2, 6), p(3, 4), p(5, 7), p(6, 0), p(6, 4)}})
	if ok, err := vcContentionFree(u); err != nil || !ok {
		t.Errorf("worked example: %v %v", ok, err)
	}
}

// TestPortPairs: two multicasts into one node at once occupy its port together.
func TestPortPairs(t *testing.T) {
	m, _ := model.NewMesh(4, 4)
	s, _ := unicastmc.BuildMany(m, unicastmc.UMesh, []unicastmc.Multicast{{Source: 0, Destinations: []model.NodeID{5}}, {Source: 10, Destinations: []model.NodeID{5}}})
	n, err := portPairs(s, np8Params[2])
	if err != nil || n != 1 {
		t.Errorf("port pairs %d, %v; want 1", n, err)
	}
}
