package sim

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// maxEagerPairs bounds the endpoint pairs whose routes newRouteTable computes before the
// run (about 40 MB of hops at 8 bytes each on a dragonfly's 5-hop routes): within it, a
// relation that strands any worm is refused before the first cycle; beyond it, routes
// are computed when a message first needs them and a stranded worm fails the run then.
const maxEagerPairs = 1 << 20

// Selection is how a worm's route picks among the outputs a relation permits at a hop:
// the simulator's worms are source-routed, one route per pair of endpoints.
type Selection uint8

// The selection functions. SelectFirst takes the most preferred output
// (routing.FirstPath): on an adaptive relation every worm takes the same first choice, so
// a fat-tree's up-going worms all climb through its first root. SelectHash spreads pairs
// over the permitted outputs by a hash of (source, destination, router), as ECMP spreads
// flows: each pair keeps one route, different pairs take different ones.
const (
	SelectFirst Selection = iota
	SelectHash
)

// String returns "first" or "hash".
func (s Selection) String() string {
	switch s {
	case SelectFirst:
		return "first"
	case SelectHash:
		return "hash"
	}
	return fmt.Sprintf("Selection(%d)", uint8(s))
}

// Choose returns the selection function for routing.SelectPath.
func (s Selection) Choose() func(routing.Header, []routing.Output) int {
	if s == SelectHash {
		return hashChoose
	}
	return func(routing.Header, []routing.Output) int { return 0 }
}

// hashChoose picks outs[mix(src, dst, at) mod len(outs)] (the finaliser of MurmurHash3).
func hashChoose(h routing.Header, outs []routing.Output) int {
	x := uint64(h.Src)<<42 ^ uint64(h.Dst)<<21 ^ uint64(h.At)
	x ^= x >> 33
	x *= 0xff51afd7ed558ccd
	x ^= x >> 33
	x *= 0xc4ceb9fe1a85ec53
	x ^= x >> 33
	return int(x % uint64(len(outs)))
}

// Path returns the route sel gives a worm from src to dst under rel
// (routing.SelectPath): the route the simulator's worm takes.
func (s Selection) Path(rel routing.Relation, src, dst topology.NodeID) ([]topology.Hop, error) {
	return routing.SelectPath(rel, src, dst, s.Choose())
}

// routeTable is a routing relation's route for every ordered pair of endpoints under a
// selection function, computed once. Routes live in one slice; off[i*E+j] .. off[i*E+j+1] is the route from endpoint i
// to endpoint j (empty for i = j), or off[i*E+j] < 0 while not yet computed (lazy mode).
type routeTable struct {
	rel    routing.Relation
	sel    Selection
	idx    []int32 // node -> endpoint index, or -1
	ends   []topology.NodeID
	off    []int64 // eager: E*E+1 offsets into hops
	hops   []topology.Hop
	lazy   map[int64][]topology.Hop // beyond maxEagerPairs
	eager  bool
	endsSq int64 // E*E
}

// newRouteTable computes rel's routes between all pairs of ends when there are at most
// eagerPairs of them (maxEagerPairs), failing on the first pair the relation strands.
// Cost O(pairs x hops x outputs).
func newRouteTable(rel routing.Relation, sel Selection, ends []topology.NodeID, eagerPairs int64) (*routeTable, error) {
	g := rel.Grid()
	t := &routeTable{rel: rel, sel: sel, ends: ends, idx: make([]int32, g.Nodes())}
	for i := range t.idx {
		t.idx[i] = -1
	}
	for i, v := range ends {
		t.idx[v] = int32(i)
	}
	E := int64(len(ends))
	t.endsSq = E * E
	if t.endsSq > eagerPairs {
		t.lazy = map[int64][]topology.Hop{}
		return t, nil
	}
	t.eager = true
	t.off = make([]int64, 0, t.endsSq+1)
	for _, s := range ends {
		for _, d := range ends {
			t.off = append(t.off, int64(len(t.hops)))
			if s == d {
				continue
			}
			hops, err := sel.Path(rel, s, d)
			if err != nil {
				return nil, err
			}
			t.hops = append(t.hops, hops...)
		}
	}
	t.off = append(t.off, int64(len(t.hops)))
	return t, nil
}

// path returns the route from endpoint s to endpoint d; the caller must not modify it.
func (t *routeTable) path(s, d topology.NodeID) ([]topology.Hop, error) {
	k := int64(t.idx[s])*int64(len(t.ends)) + int64(t.idx[d])
	if t.eager {
		return t.hops[t.off[k]:t.off[k+1]], nil
	}
	if h, ok := t.lazy[k]; ok {
		return h, nil
	}
	h, err := t.sel.Path(t.rel, s, d)
	if err != nil {
		return nil, err
	}
	t.lazy[k] = h
	return h, nil
}

// portCounts returns the injection and delivery ports of an all-port node of g: one per
// channel leaving it and one per channel entering it, numbered by topology.Network.Port (2 x Dims() on
// a grid, the largest out- and in-degree on a graph).
func portCounts(g *topology.Network) (in, out int) {
	if !g.IsGraph() {
		return 2 * g.Dims(), 2 * g.Dims()
	}
	deg := make([]int, g.Nodes())
	for c := 0; c < g.Channels(); c++ {
		deg[g.Channel(topology.ChannelID(c)).To]++
	}
	out = 1
	for _, d := range deg {
		out = max(out, d)
	}
	return max(g.Ports(), 1), out
}
