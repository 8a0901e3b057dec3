package multinode

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/model/topology"
)

// send is one unicast of a chain multicast: From sends to To in Step (1-based, relative
// to the start of the multicast).
type send struct {
	From, To topology.NodeID
	Step     int
}

// Chain says how a unicast-based multicast walks its sorted node list.
type Chain uint8

// The chain multicasts of 001 §4.2 and §5.1.
const (
	// UTorus (Robinson et al.) rotates the sorted list so that the source leads, then the
	// holder of a sublist sends to the node at its middle (index ceil(n/2)) and both go on
	// with their halves. On a mesh this is SPU (Kesavan and Panda).
	UTorus Chain = iota
	// UMesh (McKinley et al.) keeps the sorted list as it is: the holder of a sublist
	// sends to the nearest end of the half it is not in.
	UMesh
)

// String returns "u-torus" or "u-mesh".
func (c Chain) String() string {
	if c == UMesh {
		return "u-mesh"
	}
	return "u-torus"
}

// ParseChain reads "u-torus" (also "spu") or "u-mesh".
func ParseChain(s string) (Chain, error) {
	switch s {
	case "u-torus", "spu":
		return UTorus, nil
	case "u-mesh":
		return UMesh, nil
	}
	return 0, fmt.Errorf("chain %q is unknown; use u-torus (spu on a mesh) or u-mesh", s)
}

// xMajor orders nodes with coordinate 0 (the first routed dimension) as the major key:
// p_{i,j} < p_{i',j'} iff i < i' or i = i' and j < j' (001 §4.2 step 1).
func xMajor(g *topology.Network) func(a, b topology.NodeID) int {
	return func(a, b topology.NodeID) int {
		for d := 0; d < g.Dims(); d++ {
			if c := cmp.Compare(g.Coord(a, d), g.Coord(b, d)); c != 0 {
				return c
			}
		}
		return 0
	}
}

// chainSends returns the unicasts that multicast from src to dests (src excluded from
// them) with the given chain, over nodes sorted by order (descending if reverse). Every
// node sends at most once per step and the multicast takes ceil(log2(1+|dests|)) steps.
func chainSends(g *topology.Network, c Chain, src topology.NodeID, dests []topology.NodeID, reverse bool) []send {
	seq := make([]topology.NodeID, 0, len(dests)+1)
	seq = append(seq, src)
	for _, d := range dests {
		if d != src {
			seq = append(seq, d)
		}
	}
	ord := xMajor(g)
	slices.SortFunc(seq, func(a, b topology.NodeID) int {
		if reverse {
			return ord(b, a)
		}
		return ord(a, b)
	})
	seq = slices.Compact(seq)
	at := slices.Index(seq, src)
	var out []send
	if c == UTorus {
		seq = append(seq[at:], seq[:at]...)
		var rec func(lo, hi, step int)
		rec = func(lo, hi, step int) {
			if hi-lo <= 1 {
				return
			}
			mid := lo + (hi-lo+1)/2
			out = append(out, send{seq[lo], seq[mid], step})
			rec(lo, mid, step+1)
			rec(mid, hi, step+1)
		}
		rec(0, len(seq), 1)
		return out
	}
	var rec func(lo, hi, holder, step int)
	rec = func(lo, hi, holder, step int) {
		if hi-lo <= 1 {
			return
		}
		mid := lo + (hi-lo+1)/2
		if holder < mid {
			out = append(out, send{seq[holder], seq[mid], step})
			rec(lo, mid, holder, step+1)
			rec(mid, hi, mid, step+1)
			return
		}
		out = append(out, send{seq[holder], seq[mid-1], step})
		rec(lo, mid, mid-1, step+1)
		rec(mid, hi, holder, step+1)
	}
	rec(0, len(seq), at, 1)
	return out
}
