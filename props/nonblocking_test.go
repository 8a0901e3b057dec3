package props

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wormcheck/wormcheck/model"
)

func uni(s, d int) BanyanPacket { return BanyanPacket{s, model.UnicastTag(d)} }

func TestCheckLinkConflicts(t *testing.T) {
	b, _ := model.NewBanyan(8)
	for _, tc := range []struct {
		name  string
		pkts  []BanyanPacket
		block bool
	}{
		{"identity", []BanyanPacket{uni(0, 0), uni(1, 1), uni(2, 2), uni(3, 3)}, false},
		{"same destination", []BanyanPacket{uni(0, 5), uni(3, 5)}, true},
		{"same source", []BanyanPacket{uni(2, 1), uni(2, 6)}, true},
		// 0 and 4 share the first SE (σ(0)=0, σ(4)=1) and both want its upper port.
		{"first SE", []BanyanPacket{uni(0, 0), uni(4, 1)}, true},
		{"first SE split", []BanyanPacket{uni(0, 0), uni(4, 7)}, false},
		{"broadcast vs unicast", []BanyanPacket{{1, model.Region{Min: 0, Max: 7}}, uni(3, 3)}, true},
	} {
		c, err := CheckLinkConflicts(b, tc.pkts)
		if err != nil {
			t.Fatal(err)
		}
		if (c != nil) != tc.block {
			t.Errorf("%s: conflict %v, want blocking %v", tc.name, c, tc.block)
		}
		if c != nil && (c.A >= c.B || model.ChannelID(c.Channel) < 0) {
			t.Errorf("%s: bad witness %+v", tc.name, c)
		}
	}
}

func TestCheckLinkConflictsRefusesBadPacket(t *testing.T) {
	b, _ := model.NewBanyan(8)
	if _, err := CheckLinkConflicts(b, []BanyanPacket{uni(0, 9)}); err == nil {
		t.Fatal("destination 9 accepted on banyan:8")
	}
}

func TestCheckNonblockingFindsWitness(t *testing.T) {
	b, _ := model.NewBanyan(4)
	// Family: every pair of unicasts from sources 0 and 1.
	fam := func(yield func([]BanyanPacket) bool) {
		buf := make([]BanyanPacket, 2)
		for d0 := 0; d0 < 4; d0++ {
			for d1 := 0; d1 < 4; d1++ {
				buf[0], buf[1] = uni(0, d0), uni(1, d1)
				if !yield(buf) {
					return
				}
			}
		}
	}
	res, err := CheckNonblocking(b, fam)
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != Violated || !slices.Equal(res.Pattern, []BanyanPacket{uni(0, 0), uni(1, 0)}) {
		t.Fatalf("got %+v", res)
	}
}

// ExampleCheckLinkConflicts shows two unicasts that need the same output link.
func ExampleCheckLinkConflicts() {
	b, _ := model.NewBanyan(8)
	c, _ := CheckLinkConflicts(b, []BanyanPacket{uni(0, 5), uni(3, 5)})
	fmt.Println(c)
	// Output: packets 0->5 and 3->5 both need link out5
}
