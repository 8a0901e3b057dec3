package topology

import (
	"fmt"
	"testing"
)

// Reference: 002 §2.2 — region routing reaches exactly [min, max].
func TestRegionTreeReachesExactlyTheRegion(t *testing.T) {
	for _, size := range []int{2, 4, 8, 16} {
		b, _ := NewBanyan(size)
		for src := 0; src < size; src++ {
			for lo := 0; lo < size; lo++ {
				for hi := lo; hi < size; hi++ {
					got, err := b.RegionDestinations(src, Region{lo, hi})
					if err != nil {
						t.Fatal(err)
					}
					if len(got) != hi-lo+1 {
						t.Fatalf("N=%d src %d [%d,%d] reaches %v", size, src, lo, hi, got)
					}
					for k, y := range got {
						if y != lo+k {
							t.Fatalf("N=%d src %d [%d,%d] reaches %v", size, src, lo, hi, got)
						}
					}
				}
			}
		}
	}
}

func TestRegionTreeIsATreeWithDistinctChannels(t *testing.T) {
	b, _ := NewBanyan(16)
	tree, err := b.RegionTree(3, Region{0, 15})
	if err != nil {
		t.Fatal(err)
	}
	// A full broadcast: 1 injection + 2 + 4 + 8 stage inputs + 16 outputs.
	if len(tree) != 31 {
		t.Fatalf("broadcast tree has %d links, want 31", len(tree))
	}
	seen := map[ChannelID]bool{}
	for k, l := range tree {
		if seen[l.Channel] {
			t.Fatalf("channel %s twice", b.ChannelName(l.Channel))
		}
		seen[l.Channel] = true
		if k > 0 && l.Parent >= k {
			t.Fatalf("link %d has parent %d after it", k, l.Parent)
		}
	}
}

func TestRegionUnicastTagFollowsRoute(t *testing.T) {
	b, _ := NewBanyan(32)
	for s := 0; s < 32; s++ {
		for d := 0; d < 32; d++ {
			tree, _ := b.RegionTree(s, UnicastTag(d))
			p := b.Route(s, d)
			if len(tree) != len(p) {
				t.Fatalf("%d->%d tree %d links, path %d", s, d, len(tree), len(p))
			}
			for k := range p {
				if tree[k].Channel != p[k] {
					t.Fatalf("%d->%d differ at %d", s, d, k)
				}
			}
		}
	}
}

func TestRegionStepRule(t *testing.T) {
	b, _ := NewBanyan(16)
	for _, tc := range []struct {
		i        int
		h        Region
		ports    int
		out0, o1 Region
	}{
		{3, Region{0b0100, 0b1000}, 3, Region{0b0100, 0b0111}, Region{0b1000, 0b1000}},
		{2, Region{0b0100, 0b0111}, 2, Region{}, Region{0b0100, 0b0111}},
		{1, Region{0b0100, 0b0111}, 3, Region{0b0100, 0b0101}, Region{0b0110, 0b0111}},
		{0, Region{0b0110, 0b0110}, 1, Region{0b0110, 0b0110}, Region{}},
	} {
		ports, out := b.RegionStep(tc.i, tc.h)
		if ports != tc.ports || (ports&1 != 0 && out[0] != tc.out0) || (ports&2 != 0 && out[1] != tc.o1) {
			t.Errorf("stage %d %v: ports %d out %v", tc.i, tc.h, ports, out)
		}
	}
}

func TestInputLabelAt(t *testing.T) {
	b, _ := NewBanyan(32)
	for s := 0; s < 32; s++ {
		for d := 0; d < 32; d++ {
			p := b.Route(s, d)
			for k := 0; k < b.Stages(); k++ {
				st, a := b.Link(p[k])
				if want := b.InputLabelAt(st, s, d); a != want {
					t.Fatalf("%d->%d stage %d label %05b, formula %05b", s, d, st, a, want)
				}
			}
		}
	}
}

func TestCheckRegionRefuses(t *testing.T) {
	b, _ := NewBanyan(8)
	for _, r := range []Region{{-1, 3}, {2, 8}, {5, 4}} {
		if b.CheckRegion(r) == nil {
			t.Errorf("%v accepted", r)
		}
	}
	if _, err := b.RegionTree(9, Region{0, 1}); err == nil {
		t.Error("source 9 accepted on banyan:8")
	}
}

// ExampleBanyan_RegionDestinations routes the region of 002 Fig. 2, [0100, 1000], on a
// 16-node banyan.
func ExampleBanyan_RegionDestinations() {
	b, _ := NewBanyan(16)
	ys, _ := b.RegionDestinations(0, Region{0b0100, 0b1000})
	fmt.Println(ys)
	// Output: [4 5 6 7 8]
}
