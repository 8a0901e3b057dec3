package topology

import (
	"fmt"
	"testing"
)

func uni(s, d int) BanyanPacket { return BanyanPacket{s, UnicastTag(d)} }

func TestFirstConflict(t *testing.T) {
	b, _ := NewBanyan(8)
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
		{"broadcast vs unicast", []BanyanPacket{{1, Region{Min: 0, Max: 7}}, uni(3, 3)}, true},
	} {
		c, err := b.FirstConflict(tc.pkts)
		if err != nil {
			t.Fatal(err)
		}
		if (c != nil) != tc.block {
			t.Errorf("%s: conflict %v, want blocking %v", tc.name, c, tc.block)
		}
		if c != nil && (c.A >= c.B || ChannelID(c.Channel) < 0) {
			t.Errorf("%s: bad witness %+v", tc.name, c)
		}
	}
}

func TestFirstConflictRefusesBadPacket(t *testing.T) {
	b, _ := NewBanyan(8)
	if _, err := b.FirstConflict([]BanyanPacket{uni(0, 9)}); err == nil {
		t.Fatal("destination 9 accepted on banyan:8")
	}
}

// ExampleBanyan_FirstConflict shows two unicasts that need the same output link.
func ExampleBanyan_FirstConflict() {
	b, _ := NewBanyan(8)
	c, _ := b.FirstConflict([]BanyanPacket{uni(0, 5), uni(3, 5)})
	fmt.Println(c)
	// Output: packets 0->5 and 3->5 both need link out5
}
