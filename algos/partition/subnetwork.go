package partition

import (
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/model/topology"
)

// Orientation says which directed channels a subnetwork may hold: both directions of its
// links (Undirected, Types I and II and every DCN), only positive links (Positive) or only
// negative links (Negative). Routing inside a directed subnetwork must follow it.
type Orientation uint8

// The orientations of 001's subnetworks.
const (
	Undirected Orientation = iota
	Positive
	Negative
)

var orientationNames = [...]string{"undirected", "positive", "negative"}

// String returns "undirected", "positive" or "negative".
func (o Orientation) String() string {
	if int(o) < len(orientationNames) {
		return orientationNames[o]
	}
	return fmt.Sprintf("Orientation(%d)", o)
}

// Subnetwork is G' = (V', C') of 001 Definition 1: a set of member nodes and a set of
// directed channels of the network. The end nodes of a channel in C' need not be in V':
// such nodes only relay worms passing through; only member nodes may inject a worm into
// the subnetwork or retrieve one from it (see CanInject).
//
// Invariant: Nodes and Channels are strictly ascending (NewSubnetwork sorts and
// deduplicates), so membership is a binary search.
type Subnetwork struct {
	Name        string
	Orientation Orientation
	Nodes       []topology.NodeID
	Channels    []topology.ChannelID
}

// NewSubnetwork returns the subnetwork with the given members and channels, sorted and
// without duplicates. The slices are copied.
func NewSubnetwork(name string, o Orientation, nodes []topology.NodeID, channels []topology.ChannelID) Subnetwork {
	n := slices.Clone(nodes)
	slices.Sort(n)
	n = slices.Compact(n)
	c := slices.Clone(channels)
	slices.Sort(c)
	c = slices.Compact(c)
	return Subnetwork{Name: name, Orientation: o, Nodes: n, Channels: c}
}

// HasNode reports whether v is a member node. Cost O(log |V'|).
func (s Subnetwork) HasNode(v topology.NodeID) bool {
	_, ok := slices.BinarySearch(s.Nodes, v)
	return ok
}

// HasChannel reports whether channel c belongs to the subnetwork. Cost O(log |C'|).
func (s Subnetwork) HasChannel(c topology.ChannelID) bool {
	_, ok := slices.BinarySearch(s.Channels, c)
	return ok
}

// CanInject reports whether node v may initiate a worm into the subnetwork or retrieve
// one from it: only member nodes may (001 Definition 1, third remark). A non-member end
// node of a channel can only relay.
func (s Subnetwork) CanInject(v topology.NodeID) bool { return s.HasNode(v) }

// Relays returns the end nodes of the subnetwork's channels that are not members, in
// ascending order: the nodes that may only pass worms on.
func (s Subnetwork) Relays(g *topology.Network) []topology.NodeID {
	var out []topology.NodeID
	for _, c := range s.Channels {
		ch := g.Channel(c)
		for _, v := range [2]topology.NodeID{ch.From, ch.To} {
			if !s.HasNode(v) {
				out = append(out, v)
			}
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Vertices returns V' together with the end nodes of C', ascending: the vertex set of
// the subnetwork seen as a directed graph.
func (s Subnetwork) Vertices(g *topology.Network) []topology.NodeID {
	out := slices.Clone(s.Nodes)
	for _, c := range s.Channels {
		ch := g.Channel(c)
		out = append(out, ch.From, ch.To)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Validate reports the first node or channel id that does not exist in t.
func (s Subnetwork) Validate(t topology.Topology) error {
	for _, v := range s.Nodes {
		if v < 0 || int(v) >= t.Nodes() {
			return fmt.Errorf("subnetwork %s: node %d does not exist in %s", s.Name, v, t.Spec())
		}
	}
	for _, c := range s.Channels {
		if c < 0 || int(c) >= t.Channels() {
			return fmt.Errorf("subnetwork %s: channel %d does not exist in %s", s.Name, c, t.Spec())
		}
	}
	return nil
}

// Meets reports whether two subnetworks share a member node, and the lowest such node.
func Meets(a, b Subnetwork) (topology.NodeID, bool) {
	i, j := 0, 0
	for i < len(a.Nodes) && j < len(b.Nodes) {
		switch {
		case a.Nodes[i] == b.Nodes[j]:
			return a.Nodes[i], true
		case a.Nodes[i] < b.Nodes[j]:
			i++
		default:
			j++
		}
	}
	return topology.None, false
}

// Intersections returns, for every DDN a and DCN b, the member nodes they share
// (ascending): out[a][b] = ddns[a] ∩ dcns[b]. Cost O(sum of sizes + len(ddns)*len(dcns)).
func Intersections(ddns, dcns []Subnetwork) [][][]topology.NodeID {
	owner := dcnOwners(dcns)
	out := make([][][]topology.NodeID, len(ddns))
	for a, s := range ddns {
		out[a] = make([][]topology.NodeID, len(dcns))
		for _, v := range s.Nodes {
			if int(v) < len(owner) {
				for _, k := range owner[v] {
					out[a][k] = append(out[a][k], v)
				}
			}
		}
	}
	return out
}

// Common returns the member nodes two subnetworks share, ascending.
func Common(a, b Subnetwork) []topology.NodeID {
	var out []topology.NodeID
	i, j := 0, 0
	for i < len(a.Nodes) && j < len(b.Nodes) {
		switch {
		case a.Nodes[i] == b.Nodes[j]:
			out = append(out, a.Nodes[i])
			i++
			j++
		case a.Nodes[i] < b.Nodes[j]:
			i++
		default:
			j++
		}
	}
	return out
}
