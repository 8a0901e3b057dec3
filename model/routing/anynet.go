package routing

import (
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/model/topology"
)

// maxTableNodes bounds the networks the table-driven relations of this file (up*/down*,
// shortest paths) accept: they keep a distance per pair of nodes.
const maxTableNodes = topology.MaxGraphNodes

// distTable holds one hop count per (destination, node) pair: at[dst*n+v].
type distTable struct {
	n  int
	at []int16
}

func (t *distTable) get(dst, v topology.NodeID) int { return int(t.at[int(dst)*t.n+int(v)]) }

// unreachable marks a pair with no path in a distTable.
const unreachable = int16(32767)

// ShortestPath offers every next hop that lies on a shortest path to the destination
// (minimal routing over the whole graph, all shortest next hops, one virtual channel),
// on any network. It is cyclic in general: on a network with a ring the channel
// dependency graph closes and worms can deadlock (claim AN2). BookSim's anynet routes
// with one of these next hops (min_anynet, a table from Dijkstra's algorithm).
type ShortestPath struct {
	g    *topology.Network
	dist distTable
}

// NewShortestPath computes the hop distances of g (cost O(nodes x channels)).
func NewShortestPath(g *topology.Network) (*ShortestPath, error) {
	if g.Nodes() > maxTableNodes {
		return nil, fmt.Errorf("routing shortest-path: %s has %d nodes; at most %d", g.Spec(), g.Nodes(), maxTableNodes)
	}
	r := &ShortestPath{g: g, dist: distTable{n: g.Nodes(), at: make([]int16, g.Nodes()*g.Nodes())}}
	for dst := topology.NodeID(0); int(dst) < g.Nodes(); dst++ {
		for v, d := range g.HopDistances(dst) {
			if d < 0 {
				d = int(unreachable)
			}
			r.dist.at[int(dst)*g.Nodes()+v] = int16(d)
		}
	}
	return r, nil
}

// Name returns "shortest-path".
func (r *ShortestPath) Name() string { return "shortest-path" }

// Grid returns the network.
func (r *ShortestPath) Grid() *topology.Network { return r.g }

// VCs is 1.
func (r *ShortestPath) VCs() int { return 1 }

// Positional is true: Route reads At and Dst only.
func (r *ShortestPath) Positional() bool { return true }

// Route appends every channel from h.At to a node one hop nearer h.Dst, in port order.
func (r *ShortestPath) Route(h Header, out []Output) []Output {
	d := r.dist.get(h.Dst, h.At)
	var buf [16]topology.ChannelID
	for _, c := range r.g.AppendOut(buf[:0], h.At) {
		if r.dist.get(h.Dst, r.g.Channel(c).To) == d-1 {
			out = append(out, Output{Channel: c})
		}
	}
	return out
}

// UpDown is up*/down* routing (Autonet: Schroeder et al., "Autonet: a High-speed,
// Self-configuring Local Area Network Using Point-to-point Links", IEEE JSAC 9(8),
// 1991): a breadth-first spanning tree from a root gives every node a level; a channel
// is "up" when it enters a node nearer the root (lower level, ties broken by the lower
// node id) and "down" otherwise. A legal route takes zero or more up channels, then
// zero or more down channels, never up after down; the relation offers every next hop
// of a shortest legal route. Every channel dependency then follows the order up
// channels by descending, down channels by ascending (level, id), so the channel
// dependency graph is acyclic and the relation is deadlock-free on every connected
// network (claim AN1).
type UpDown struct {
	g    *topology.Network
	root topology.NodeID
	key  []int32 // key[v]: level*n + v, the order "up" follows
	// d0: legal hops left from a node that may still go up; d1: from one that may only
	// go down; sp: hops of a shortest path, legal or not (to mark misroutes).
	d0, d1 distTable
	sp     *ShortestPath
	up     []bool // up[c]: channel c goes up (Up), computed once
}

// NewUpDown builds up*/down* on g from a breadth-first tree rooted at root (the tree
// follows channels either way). It fails when some endpoint cannot reach another by
// a legal route (one-way links can cause that).
func NewUpDown(g *topology.Network, root topology.NodeID) (*UpDown, error) {
	n := g.Nodes()
	if n > maxTableNodes {
		return nil, fmt.Errorf("routing updown: %s has %d nodes; at most %d", g.Spec(), n, maxTableNodes)
	}
	if root < 0 || int(root) >= n {
		return nil, fmt.Errorf("routing updown: root %d is not a node (0..%d)", root, n-1)
	}
	sp, err := NewShortestPath(g)
	if err != nil {
		return nil, err
	}
	r := &UpDown{g: g, root: root, key: make([]int32, n), sp: sp,
		d0: distTable{n: n, at: make([]int16, n*n)}, d1: distTable{n: n, at: make([]int16, n*n)}}
	adj := make([][]topology.NodeID, n)
	for c := 0; c < g.Channels(); c++ {
		ch := g.Channel(topology.ChannelID(c))
		adj[ch.From] = append(adj[ch.From], ch.To)
		adj[ch.To] = append(adj[ch.To], ch.From)
	}
	level := make([]int, n)
	for i := range level {
		level[i] = -1
	}
	level[root] = 0
	queue := []topology.NodeID{root}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, u := range adj[v] {
			if level[u] < 0 {
				level[u] = level[v] + 1
				queue = append(queue, u)
			}
		}
	}
	order := make([]topology.NodeID, n) // ascending key
	for v := range order {
		r.key[v] = int32(level[v]*n + v)
		order[v] = topology.NodeID(v)
	}
	slices.SortFunc(order, func(a, b topology.NodeID) int { return int(r.key[a] - r.key[b]) })
	r.up = make([]bool, g.Channels())
	for c := range r.up {
		ch := g.Channel(topology.ChannelID(c))
		r.up[c] = r.key[ch.To] < r.key[ch.From]
	}
	// Each node's down and up neighbours, once: the tables below visit them n times.
	downs, ups := make([][]topology.NodeID, n), make([][]topology.NodeID, n)
	for c := range r.up {
		ch := g.Channel(topology.ChannelID(c))
		if r.up[c] {
			ups[ch.From] = append(ups[ch.From], ch.To)
		} else {
			downs[ch.From] = append(downs[ch.From], ch.To)
		}
	}
	for dst := topology.NodeID(0); int(dst) < n; dst++ {
		d0, d1 := r.d0.at[int(dst)*n:int(dst+1)*n], r.d1.at[int(dst)*n:int(dst+1)*n]
		for i := range d1 {
			d0[i], d1[i] = unreachable, unreachable
		}
		d1[dst] = 0
		// down channels enter larger keys: settle nodes from the largest key down
		for i := n - 1; i >= 0; i-- {
			u := order[i]
			for _, v := range downs[u] {
				if d1[v] != unreachable && d1[v]+1 < d1[u] {
					d1[u] = d1[v] + 1
				}
			}
		}
		// up channels enter smaller keys: settle from the smallest key up
		for _, u := range order {
			d0[u] = d1[u]
			for _, v := range ups[u] {
				if d0[v] != unreachable && d0[v]+1 < d0[u] {
					d0[u] = d0[v] + 1
				}
			}
		}
		for src := topology.NodeID(0); int(src) < n; src++ {
			if d0[src] == unreachable && g.Endpoint(src) && g.Endpoint(dst) {
				return nil, fmt.Errorf("routing updown: no up*/down* route from %s to %s on %s (a one-way link?)", g.NodeName(src), g.NodeName(dst), g.Spec())
			}
		}
	}
	return r, nil
}

// Name returns "updown", or "updown:ROOT" for a root other than node 0.
func (r *UpDown) Name() string {
	if r.root == 0 {
		return "updown"
	}
	return "updown:" + r.g.NodeName(r.root)
}

// Grid returns the network.
func (r *UpDown) Grid() *topology.Network { return r.g }

// VCs is 1.
func (r *UpDown) VCs() int { return 1 }

// Up reports whether channel c goes up (toward the root).
func (r *UpDown) Up(c topology.ChannelID) bool { return r.up[c] }

// Route appends every next hop of a shortest legal route: up or down channels from a
// header that has not gone down yet, down channels only after a down channel. A hop
// that does not shorten the header's distance to its destination (up*/down* routes
// are not minimal) is marked Misroute.
func (r *UpDown) Route(h Header, out []Output) []Output {
	downOnly := h.In.Channel != Injection && !r.Up(h.In.Channel)
	d := r.d0.get(h.Dst, h.At)
	if downOnly {
		d = r.d1.get(h.Dst, h.At)
	}
	var buf [16]topology.ChannelID
	for _, c := range r.g.AppendOut(buf[:0], h.At) {
		v := r.g.Channel(c).To
		mis := r.sp.dist.get(h.Dst, v) >= r.sp.dist.get(h.Dst, h.At)
		if r.Up(c) {
			if !downOnly && r.d0.get(h.Dst, v) == d-1 {
				out = append(out, Output{Channel: c, Misroute: mis})
			}
		} else if r.d1.get(h.Dst, v) == d-1 {
			out = append(out, Output{Channel: c, Misroute: mis})
		}
	}
	return out
}

// FirstPath returns the route rel gives a lone worm from src to dst under the selection
// function "always the most preferred output": its channels with the virtual channel of
// each hop as the hop's class. It is what a timed simulator that routes worms on source
// paths (checker/sim) needs to run any relation on any network; it fails on a stranded
// header or a route longer than the network has channels. Cost O(hops x outputs).
func FirstPath(rel Relation, src, dst topology.NodeID) ([]topology.Hop, error) {
	return SelectPath(rel, src, dst, func(Header, []Output) int { return 0 })
}

// SelectPath is FirstPath under the selection function choose: at each hop the worm
// takes outs[choose(h, outs)] (an index into the non-empty permitted outputs; out of
// range is taken modulo len(outs)). A deterministic choose gives one route per pair, a
// subset of the relation's: deadlock freedom proved by an acyclic channel dependency
// graph carries over to it, one that rests on escape channels (Duato) does not.
func SelectPath(rel Relation, src, dst topology.NodeID, choose func(h Header, outs []Output) int) ([]topology.Hop, error) {
	g := rel.Grid()
	h := Header{At: src, In: Input{Channel: Injection}, Src: src, Dst: dst}
	var hops []topology.Hop
	var buf []Output
	for h.At != dst {
		buf = rel.Route(h, buf[:0])
		if len(buf) == 0 {
			return nil, fmt.Errorf("routing %q strands a worm %s->%s at %s", rel.Name(), g.NodeName(src), g.NodeName(dst), g.NodeName(h.At))
		}
		if len(hops) >= g.Channels() {
			return nil, fmt.Errorf("routing %q gives a worm %s->%s a route longer than %d hops", rel.Name(), g.NodeName(src), g.NodeName(dst), g.Channels())
		}
		i := choose(h, buf) % len(buf)
		if i < 0 {
			i += len(buf)
		}
		o := buf[i]
		hops = append(hops, topology.Hop{Channel: o.Channel, Class: uint8(o.VC)})
		h = Header{At: g.Channel(o.Channel).To, In: Input{Channel: o.Channel, VC: o.VC}, Src: src, Dst: dst, Misroutes: h.Misroutes}
		if o.Misroute {
			h.Misroutes++
		}
	}
	return hops, nil
}
