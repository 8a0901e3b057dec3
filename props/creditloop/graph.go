package creditloop

import (
	"context"
	"math/bits"
	"slices"

	"github.com/wormcheck/wormcheck/model/fabric"
)

// Channels numbers the channels of a fabric: one per linked port and VL, in node and
// port order, VL fastest. A channel is named by the port that drives the link, as
// ibdmchk names it; its buffer is at the far end.
type Channels struct {
	f        *fabric.Fabric
	base     []int32 // per node: the port index of its port 1
	portNode []int32 // per port index: node
	portNum  []uint8 // per port index: port number
	nvl      int
}

func newChannels(f *fabric.Fabric, nvl int) *Channels {
	c := &Channels{f: f, base: make([]int32, len(f.Nodes)), nvl: nvl}
	for i := range f.Nodes {
		c.base[i] = int32(len(c.portNode))
		for p := 1; p < len(f.Nodes[i].Ports); p++ {
			c.portNode = append(c.portNode, int32(i))
			c.portNum = append(c.portNum, uint8(p))
		}
	}
	return c
}

// Len is the number of channel ids.
func (c *Channels) Len() int { return len(c.portNode) * c.nvl }

// ID returns the id of a channel.
func (c *Channels) ID(h fabric.Hop) int32 {
	return (c.base[h.Node]+int32(h.Port)-1)*int32(c.nvl) + int32(h.VL)
}

// Hop returns the channel of an id.
func (c *Channels) Hop(id int32) fabric.Hop {
	p := id / int32(c.nvl)
	return fabric.Hop{Node: c.portNode[p], Port: c.portNum[p], VL: uint8(id % int32(c.nvl))}
}

// Name names a channel in ibdmchk's words (node description and GUID, port, VL).
func (c *Channels) Name(id int32) string { return c.f.HopName(c.Hop(id)) }

// PairStats are the figures of path reconstruction: every (source port, destination
// LID) route traced through the tables, how many reach their destination, the hop
// histogram of those that do, and the lost ones by how they end.
type PairStats struct {
	Pairs     int64
	Delivered int64
	// Hops[h] counts the delivered routes of h channels (links).
	Hops []int64
	// Lost counts the routes that end otherwise, by fabric.End.
	Lost map[string]int64
	// Errors lists the first lost routes (Options.MaxErrors), in source and
	// destination order.
	Errors []PathError
}

// PathError is one lost route.
type PathError struct {
	Src  fabric.PortRef
	DLID uint16
	Path fabric.Path
}

// graph is the channel dependency graph over (port, VL) channels: an arc c -> d when
// some route takes d right after c. Arcs are collected as one bit set per channel over
// the far node's ports and VLs (a channel's successors all leave the node its link
// reaches), then frozen into compressed rows.
type graph struct {
	ch    *Channels
	bits  [][]uint64 // per channel id: (port*nvl + vl) bits of its far node's channels
	first []int32
	to    []int32
}

func (g *graph) arc(from int32, next fabric.Hop) {
	b := g.bits[from]
	if b == nil {
		n := len(g.ch.f.Nodes[next.Node].Ports) * g.ch.nvl
		b = make([]uint64, (n+63)/64)
		g.bits[from] = b
	}
	k := int(next.Port)*g.ch.nvl + int(next.VL)
	b[k/64] |= 1 << (k % 64)
}

// freeze turns the bit sets into rows, arcs in increasing head order.
func (g *graph) freeze() {
	n := g.ch.Len()
	g.first = make([]int32, n+1)
	for v := range n {
		g.first[v] = int32(len(g.to))
		b := g.bits[v]
		if b == nil {
			continue
		}
		far := g.ch.f.Nodes[g.ch.Hop(int32(v)).Node].Ports[g.ch.Hop(int32(v)).Port].Remote.Node
		for w, word := range b {
			for word != 0 {
				k := w*64 + bits.TrailingZeros64(word)
				word &= word - 1
				g.to = append(g.to, g.ch.ID(fabric.Hop{Node: far, Port: uint8(k / g.ch.nvl), VL: uint8(k % g.ch.nvl)}))
			}
		}
		slices.Sort(g.to[g.first[v]:])
	}
	g.first[n] = int32(len(g.to))
	g.bits = nil
}

func (g *graph) out(v int32) []int32 { return g.to[g.first[v]:g.first[v+1]] }

// endpoints returns the source ports and destination LIDs of the traced routes: every
// CA and router port with a LID and a link, and with all every switch (port 0).
func endpoints(f *fabric.Fabric, all bool) ([]fabric.PortRef, []uint16) {
	var srcs []fabric.PortRef
	var dsts []uint16
	for i := range f.Nodes {
		n := &f.Nodes[i]
		if n.Kind == fabric.Switch {
			if all && n.Ports[0].LID != 0 {
				r := fabric.PortRef{Node: int32(i), Port: 0}
				srcs = append(srcs, r)
				dsts = append(dsts, f.LIDs(r)...)
			}
			continue
		}
		for p := 1; p < len(n.Ports); p++ {
			if n.Ports[p].LID != 0 && n.Ports[p].Remote.Valid() {
				r := fabric.PortRef{Node: int32(i), Port: uint8(p)}
				srcs = append(srcs, r)
				dsts = append(dsts, f.LIDs(r)...)
			}
		}
	}
	slices.Sort(dsts)
	return srcs, dsts
}

// walker traces every route to one destination at a time, remembering for each
// (channel, SL) where the rest of the route goes: each is followed once per destination.
type walker struct {
	f     *fabric.Fabric
	ch    *Channels
	g     *graph
	nsl   int
	stamp []uint32 // per (channel, SL): 2*gen while on the current walk, 2*gen+1 when done
	end   []fabric.End
	hops  []uint16
	gen   uint32
	stack []int32
}

// result returns how the route from channel h (on sl, to dlid) ends and how many
// channels it takes from h on, and records its arcs.
func (w *walker) result(h fabric.Hop, dlid uint16, sl uint8) (fabric.End, int) {
	w.stack = w.stack[:0]
	cur := h
	var end fabric.End
	var tail int
	for {
		id := w.ch.ID(cur)
		k := id*int32(w.nsl) + int32(sl)
		if w.stamp[k] == 2*w.gen+1 {
			end, tail = w.end[k], int(w.hops[k])
			break
		}
		if w.stamp[k] == 2*w.gen {
			end, tail = fabric.Loop, 0
			break
		}
		w.stamp[k] = 2 * w.gen
		w.stack = append(w.stack, k)
		next, e, ok := w.f.Next(cur, dlid, sl)
		if !ok {
			end, tail = e, 0
			break
		}
		w.g.arc(id, next)
		cur = next
	}
	for i := len(w.stack) - 1; i >= 0; i-- {
		k := w.stack[i]
		tail++
		w.stamp[k], w.end[k] = 2*w.gen+1, end
		if end == fabric.Loop {
			w.hops[k] = 0
		} else {
			w.hops[k] = uint16(min(tail, 0xFFFF))
		}
	}
	if end == fabric.Loop {
		return end, 0
	}
	return end, tail
}

// trace follows every route of the fabric to every destination, fills the pair
// figures and returns the dependency graph (not yet frozen). It watches ctx between
// destinations.
func trace(ctx context.Context, f *fabric.Fabric, ch *Channels, srcs []fabric.PortRef, dsts []uint16, nsl, maxErrors int, done *counters) (*graph, PairStats, error) {
	g := &graph{ch: ch, bits: make([][]uint64, ch.Len())}
	w := &walker{f: f, ch: ch, g: g, nsl: nsl, stamp: make([]uint32, ch.Len()*nsl), end: make([]fabric.End, ch.Len()*nsl), hops: make([]uint16, ch.Len()*nsl)}
	st := PairStats{Lost: map[string]int64{}}
	lost := func(src fabric.PortRef, dlid uint16) {
		if len(st.Errors) < maxErrors {
			st.Errors = append(st.Errors, PathError{Src: src, DLID: dlid, Path: f.Route(src, dlid)})
		}
	}
	for di, dlid := range dsts {
		if di%64 == 0 {
			if ctx.Err() != nil {
				return nil, st, ctx.Err()
			}
			done.dests.Store(int64(di))
			done.routes.Store(st.Pairs)
		}
		w.gen++
		owner := f.Owner(dlid)
		for _, src := range srcs {
			if src == owner || (src.Port == 0 && owner.Node == src.Node) {
				continue
			}
			st.Pairs++
			sl := f.PathSL.SL(src, dlid)
			h, end, ok := f.First(src, dlid, sl)
			hops := 0
			if ok {
				end, hops = w.result(h, dlid, sl)
			}
			if end == fabric.Delivered {
				st.Delivered++
				for len(st.Hops) <= hops {
					st.Hops = append(st.Hops, 0)
				}
				st.Hops[hops]++
				continue
			}
			st.Lost[end.String()]++
			lost(src, dlid)
		}
	}
	return g, st, nil
}
