package sim

import (
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/routing"
)

// maxEagerPairs bounds the endpoint pairs whose routes newRouteTable computes before the
// run (about 40 MB of hops at 8 bytes each on a dragonfly's 5-hop routes): within it, a
// relation that strands any worm is refused before the first cycle; beyond it, routes
// are computed when a message first needs them and a stranded worm fails the run then.
const maxEagerPairs = 1 << 20

// routeTable is a routing relation's route for every ordered pair of endpoints
// (routing.FirstPath): the simulator's worms are source-routed, and the relation is
// deterministic under "the most preferred output", so each pair has one route, computed
// once. Routes live in one slice; off[i*E+j] .. off[i*E+j+1] is the route from endpoint i
// to endpoint j (empty for i = j), or off[i*E+j] < 0 while not yet computed (lazy mode).
type routeTable struct {
	rel    routing.Relation
	idx    []int32 // node -> endpoint index, or -1
	ends   []model.NodeID
	off    []int64 // eager: E*E+1 offsets into hops
	hops   []model.Hop
	lazy   map[int64][]model.Hop // beyond maxEagerPairs
	eager  bool
	endsSq int64 // E*E
}

// newRouteTable computes rel's routes between all pairs of ends when there are at most
// eagerPairs of them (maxEagerPairs), failing on the first pair the relation strands.
// Cost O(pairs x hops x outputs).
func newRouteTable(rel routing.Relation, ends []model.NodeID, eagerPairs int64) (*routeTable, error) {
	g := rel.Grid()
	t := &routeTable{rel: rel, ends: ends, idx: make([]int32, g.Nodes())}
	for i := range t.idx {
		t.idx[i] = -1
	}
	for i, v := range ends {
		t.idx[v] = int32(i)
	}
	E := int64(len(ends))
	t.endsSq = E * E
	if t.endsSq > eagerPairs {
		t.lazy = map[int64][]model.Hop{}
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
			hops, err := routing.FirstPath(rel, s, d)
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
func (t *routeTable) path(s, d model.NodeID) ([]model.Hop, error) {
	k := int64(t.idx[s])*int64(len(t.ends)) + int64(t.idx[d])
	if t.eager {
		return t.hops[t.off[k]:t.off[k+1]], nil
	}
	if h, ok := t.lazy[k]; ok {
		return h, nil
	}
	h, err := routing.FirstPath(t.rel, s, d)
	if err != nil {
		return nil, err
	}
	t.lazy[k] = h
	return h, nil
}

// portCounts returns the injection and delivery ports of an all-port node of g: one per
// channel leaving it and one per channel entering it, numbered by Grid.Port (2 x Dims() on
// a grid, the largest out- and in-degree on a graph).
func portCounts(g *model.Grid) (in, out int) {
	if !g.IsGraph() {
		return 2 * g.Dims(), 2 * g.Dims()
	}
	deg := make([]int, g.Nodes())
	for c := 0; c < g.Channels(); c++ {
		deg[g.Channel(model.ChannelID(c)).To]++
	}
	out = 1
	for _, d := range deg {
		out = max(out, d)
	}
	return max(g.Ports(), 1), out
}
