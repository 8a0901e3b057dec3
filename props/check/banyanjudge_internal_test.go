package check

import (
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// TestRegionsCatchesBrokenRouter feeds the regions judge routers that are wrong in one
// place each: a tree that drops its last output link for one region, and phase-1
// destinations shifted by one. Both must be violated with an instance witness.
func TestRegionsCatchesBrokenRouter(t *testing.T) {
	b, err := topology.NewBanyan(8)
	if err != nil {
		t.Fatal(err)
	}
	rep := &props.Report{}
	if err := judgeRegions(b, rep); err != nil || rep.Verdict != props.Holds || rep.Stats.Checked == 0 {
		t.Fatalf("banyan:8 regions: %v %v", rep, err)
	}
	dropLast := func(src int, h topology.Region) ([]topology.TreeLink, error) {
		tree, err := b.RegionTree(src, h)
		if src == 3 && h == (topology.Region{Min: 2, Max: 5}) {
			for i := len(tree) - 1; i >= 0; i-- {
				if s, _ := b.Link(tree[i].Channel); s < 0 {
					return append(tree[:i:i], tree[i+1:]...), err
				}
			}
		}
		return tree, err
	}
	shifted := func(src int, h topology.Region) ([]int, error) {
		ys, err := b.RegionDestinations(src, h)
		for i := range ys {
			ys[i]++
		}
		return ys, err
	}
	for name, rep := range map[string]*props.Report{"tree": {}, "phase 1": {}} {
		tree, dests := b.RegionTree, b.RegionDestinations
		if name == "tree" {
			tree = dropLast
		} else {
			dests = shifted
		}
		if err := regions(b, tree, dests, rep); err != nil {
			t.Fatal(err)
		}
		if rep.Verdict != props.Violated || rep.Witness == nil || rep.Witness.Kind != props.WitnessInstance {
			t.Errorf("broken %s: %v, want violated\n%s", name, rep.Verdict, rep)
		}
	}
}

// TestEnumerateFindsBlocking feeds the enumeration a sequence holding a blocking
// pattern (concentrated sources, destinations not monotone: 002 Property 1 without
// monotonicity): it must stop there with a pair witness and the pattern.
func TestEnumerateFindsBlocking(t *testing.T) {
	b, err := topology.NewBanyan(4)
	if err != nil {
		t.Fatal(err)
	}
	var blocking []topology.BanyanPacket
	for _, perm := range [][2]int{{0, 1}, {1, 0}, {0, 2}, {2, 0}, {0, 3}, {3, 0}, {1, 2}, {2, 1}, {1, 3}, {3, 1}, {2, 3}, {3, 2}} {
		pat := []topology.BanyanPacket{{Source: 0, Dest: topology.UnicastTag(perm[0])}, {Source: 1, Dest: topology.UnicastTag(perm[1])}, {Source: 2, Dest: topology.UnicastTag(3 - perm[0])}}
		if c, _ := b.FirstConflict(pat); c != nil {
			blocking = pat
			break
		}
	}
	if blocking == nil {
		t.Fatal("no blocking 3-packet pattern on banyan:4")
	}
	ok := []topology.BanyanPacket{{Source: 0, Dest: topology.UnicastTag(0)}}
	seq := func(yield func([]topology.BanyanPacket) bool) {
		_ = yield(ok) && yield(blocking) && yield(ok)
	}
	rep := &props.Report{}
	c, n, err := enumeratePatterns(b, seq, rep)
	if err != nil || c == nil || n != 2 || rep.Witness == nil || rep.Witness.Kind != props.WitnessPair {
		t.Errorf("enumeration over %v: conflict %v after %d patterns, err %v, witness %+v", blocking, c, n, err, rep.Witness)
	}
}
