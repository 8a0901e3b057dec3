package partition

import (
	"slices"

	"github.com/wormcheck/wormcheck/model/scc"
	"github.com/wormcheck/wormcheck/model/topology"
)

// digraph is a subnetwork seen as a directed graph on its vertices (members and channel
// ends), with dense local indices.
type digraph struct {
	verts  []topology.NodeID // local index -> node, ascending
	member []bool
	out    [][]int32
	in     [][]int32
}

func (s Subnetwork) digraph(g *topology.Network) *digraph {
	d := &digraph{verts: s.Vertices(g)}
	n := len(d.verts)
	d.member = make([]bool, n)
	d.out = make([][]int32, n)
	d.in = make([][]int32, n)
	idx := func(v topology.NodeID) int32 {
		i, _ := slices.BinarySearch(d.verts, v)
		return int32(i)
	}
	for _, v := range s.Nodes {
		d.member[idx(v)] = true
	}
	for _, c := range s.Channels {
		ch := g.Channel(c)
		a, b := idx(ch.From), idx(ch.To)
		d.out[a] = append(d.out[a], b)
		d.in[b] = append(d.in[b], a)
	}
	return d
}

// Reachability is the answer of StronglyConnected. Connected is true when every member
// node reaches every other member node over the subnetwork's own channels (relaying
// through non-member end nodes is allowed). Otherwise From cannot reach To: both are
// members, and that pair is the witness. Components is the number of strongly connected
// components (Tarjan) that contain at least one member.
type Reachability struct {
	Connected  bool
	From, To   topology.NodeID
	Components int
}

// StronglyConnected decides whether the members of s are mutually reachable using only
// the channels of s. Tarjan's algorithm (iterative) counts the strongly connected
// components that hold members; when there is more than one, a forward search from the
// lowest member (or, if that reaches every member, a backward one) names an unreachable
// pair. Cost O(|V| + |C'|).
//
// Reference: 001 §3.1 ("each node in a subnetwork remains reachable by all other nodes
// in the subnetwork. Otherwise, routing would be difficult") and §3.2 (directed
// subnetworks on a mesh are not).
func StronglyConnected(g *topology.Network, s Subnetwork) Reachability {
	r := Reachability{Connected: true, From: topology.None, To: topology.None}
	if len(s.Nodes) == 0 {
		return r
	}
	d := s.digraph(g)
	comp := d.tarjan()
	seen := map[int32]bool{}
	for i, m := range d.member {
		if m && !seen[comp[i]] {
			seen[comp[i]] = true
			r.Components++
		}
	}
	if r.Components <= 1 {
		return r
	}
	r.Connected = false
	first := -1
	for i, m := range d.member {
		if m {
			first = i
			break
		}
	}
	fwd := d.reach(first, d.out)
	for i, m := range d.member {
		if m && !fwd[i] {
			r.From, r.To = d.verts[first], d.verts[i]
			return r
		}
	}
	bwd := d.reach(first, d.in)
	for i, m := range d.member {
		if m && !bwd[i] {
			r.From, r.To = d.verts[i], d.verts[first]
			return r
		}
	}
	return r // unreachable: more than one member component means some pair fails
}

// reach returns the vertices reachable from start along adj.
func (d *digraph) reach(start int, adj [][]int32) []bool {
	seen := make([]bool, len(d.verts))
	seen[start] = true
	stack := []int32{int32(start)}
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, w := range adj[v] {
			if !seen[w] {
				seen[w] = true
				stack = append(stack, w)
			}
		}
	}
	return seen
}

// tarjan returns a component number per vertex (scc.Components, iterative, so that
// a 4096-node ring cannot exhaust the stack).
func (d *digraph) tarjan() []int32 {
	comp, _ := scc.Components(len(d.verts), nil, scc.Lists(d.out))
	return comp
}
