package props

import (
	"slices"
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

func uni(s, d int) topology.BanyanPacket {
	return topology.BanyanPacket{Source: s, Dest: topology.UnicastTag(d)}
}

func TestCheckNonblockingFindsWitness(t *testing.T) {
	b, _ := topology.NewBanyan(4)
	// Family: every pair of unicasts from sources 0 and 1.
	fam := func(yield func([]topology.BanyanPacket) bool) {
		buf := make([]topology.BanyanPacket, 2)
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
	if res.Verdict != Violated || !slices.Equal(res.Pattern, []topology.BanyanPacket{uni(0, 0), uni(1, 0)}) {
		t.Fatalf("got %+v", res)
	}
}
