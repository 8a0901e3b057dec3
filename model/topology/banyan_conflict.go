package topology

import "fmt"

// BanyanPacket is one active source of a banyan pattern: a packet from node Source with
// header Dest (a unicast tag {d, d} or a region {min, max}).
//
// Reference: 002 §2.1 (active sources x_1..x_k and destinations y_1..y_k), §2.2 (regions).
type BanyanPacket struct {
	Source int    `json:"source"`
	Dest   Region `json:"dest"`
}

// String renders the packet as "3->9" or "3->[4,8]".
func (p BanyanPacket) String() string {
	if p.Dest.Min == p.Dest.Max {
		return fmt.Sprintf("%d->%d", p.Source, p.Dest.Min)
	}
	return fmt.Sprintf("%d->%v", p.Source, p.Dest)
}

// LinkConflict is the fact that makes a banyan pattern block: packets A and B (indices
// into the pattern) both need the directed channel Channel, the input link Label of
// stage Stage (Stage -1: the external output link to node Label). It is a fact of the
// network's wiring and the packets' region trees, so it lives with the banyan model; the
// nonblocking property over families of patterns (package props) and the algorithms
// that schedule conflict-free phases (package algos/banyan) both build on it.
type LinkConflict struct {
	A       int          `json:"a"`
	B       int          `json:"b"`
	PacketA BanyanPacket `json:"packet_a"`
	PacketB BanyanPacket `json:"packet_b"`
	Channel int          `json:"channel"`
	Stage   int          `json:"stage"`
	Label   int          `json:"label"`
	Link    string       `json:"link"`
}

// String renders the conflict for people.
func (c *LinkConflict) String() string {
	return fmt.Sprintf("packets %v and %v both need link %s", c.PacketA, c.PacketB, c.Link)
}

// FirstConflict decides whether the packets of one pattern, all sent at once through the
// broadcast banyan, block: two packets block if their trees (RegionTree) share a
// directed channel. It returns the first conflict in pattern order (the earliest packet
// whose tree meets an earlier one's, at the first shared channel of its tree), or nil if
// the pattern passes without blocking; a packet whose header does not fit the network is
// an error. Cost O(sum of tree sizes).
//
// Reference: 002 §2.1 (a banyan is blocking; Property 1 gives a nonblocking condition).
func (b *Banyan) FirstConflict(pkts []BanyanPacket) (*LinkConflict, error) {
	owner := make([]int32, b.Channels())
	for i := range owner {
		owner[i] = -1
	}
	for k, p := range pkts {
		tree, err := b.RegionTree(p.Source, p.Dest)
		if err != nil {
			return nil, fmt.Errorf("packet %d (%v): %v", k, p, err)
		}
		for _, l := range tree {
			if o := owner[l.Channel]; o >= 0 {
				s, a := b.Link(l.Channel)
				return &LinkConflict{A: int(o), B: k, PacketA: pkts[o], PacketB: p,
					Channel: int(l.Channel), Stage: s, Label: a, Link: b.ChannelName(l.Channel)}, nil
			}
			owner[l.Channel] = int32(k)
		}
	}
	return nil, nil
}
