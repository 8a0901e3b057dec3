package partition

import "github.com/wormcheck/wormcheck/model/topology"

// Levels are the contention levels of a set of subnetworks (001 Definition 3): Node is
// the largest number of subnetworks any one node is a member of, Link the largest number
// of subnetworks any one directed channel belongs to. NodeWitness and LinkWitness are the
// lowest-numbered node and channel attaining them (topology.None for an empty set);
// NodeCount and LinkCount hold the count of every node and channel, from which P1 and the
// minima are read.
type Levels struct {
	Node, Link           int
	NodeWitness          topology.NodeID
	LinkWitness          topology.ChannelID
	MinNode, MinLink     int
	NodeCount, LinkCount []int
}

// ComputeLevels counts, for every node and every channel of t, how many of the
// subnetworks hold it, and returns the maxima with their witnesses. Cost O(sum of the
// subnetworks' sizes + nodes + channels).
//
// Reference: 001 Definition 3.
func ComputeLevels(t topology.Topology, subs []Subnetwork) Levels {
	l := Levels{NodeWitness: topology.None, LinkWitness: topology.None,
		NodeCount: make([]int, t.Nodes()), LinkCount: make([]int, t.Channels())}
	for _, s := range subs {
		for _, v := range s.Nodes {
			l.NodeCount[v]++
		}
		for _, c := range s.Channels {
			l.LinkCount[c]++
		}
	}
	l.MinNode, l.MinLink = -1, -1
	for v, n := range l.NodeCount {
		if n > l.Node {
			l.Node, l.NodeWitness = n, topology.NodeID(v)
		}
		if l.MinNode < 0 || n < l.MinNode {
			l.MinNode = n
		}
	}
	for c, n := range l.LinkCount {
		if n > l.Link {
			l.Link, l.LinkWitness = n, topology.ChannelID(c)
		}
		if l.MinLink < 0 || n < l.MinLink {
			l.MinLink = n
		}
	}
	return l
}

// NodeContentionFree reports whether two subnetworks share no member node and
// LinkContentionFree whether they share no channel (001 Definition 2). They are the
// pairwise twins of "level <= 1", used to cross-check ComputeLevels.
func NodeContentionFree(a, b Subnetwork) bool {
	_, meet := Meets(a, b)
	return !meet
}

// LinkContentionFree reports whether a and b share no channel (001 Definition 2).
func LinkContentionFree(a, b Subnetwork) bool {
	i, j := 0, 0
	for i < len(a.Channels) && j < len(b.Channels) {
		switch {
		case a.Channels[i] == b.Channels[j]:
			return false
		case a.Channels[i] < b.Channels[j]:
			i++
		default:
			j++
		}
	}
	return true
}
