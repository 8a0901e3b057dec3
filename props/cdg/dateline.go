package cdg

import (
	"slices"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// datelineResult decides dimension-order routing with dateline classes (routing.DOR
// on a torus, dimensions in ascending order) without a search per destination. Its
// header states carry a VC class, so the class-based graph does not apply, but which
// of them are reachable has a product form: a header on channel c (dimension j, from
// v to u) with VC a is reachable toward d exactly when d agrees with u in every
// dimension before j (corrected first), d's coordinate in dimension j is one of the
// set Y(v_j, u_j, a) of coordinates whose one-dimensional route from some source
// coordinate crosses v_j -> u_j having crossed the wrap-around channel (a = 1) or not
// (a = 0), and d is anything in the dimensions after j (not yet corrected; the source
// agrees with u there). The states toward all destinations are then counted by
// multiplying, and the dependencies are found by routing one header per coordinate
// of Y (d agreeing with u elsewhere) and, for d_j = u_j, one per coordinate of each
// later dimension (dimension order reads only the first dimension in which d differs
// from u). TestClassResultMatchesSearch compares the verdicts with the search's.
//
// It returns nil when rel is not such a relation or the graph has a cycle (the search
// then reports the cycle as found from the first destinations).
func datelineResult(s *searcher) *Result {
	d, ok := s.rel.(routing.DOR)
	if !ok || !d.R.Dateline || !slices.Equal(d.R.Order, topology.AscendingOrder(s.dims)) || s.vcs != 2 {
		return nil
	}
	g := s.g
	// ys[j][(xv*k+xu)*2+a]: the destination coordinates Y(xv, xu, a) in dimension j.
	ys := make([][][]int, s.dims)
	for j := 0; j < s.dims; j++ {
		k := s.sizes[j]
		ys[j] = make([][]int, k*k*2)
		for src := 0; src < k; src++ {
			for dst := 0; dst < k; dst++ {
				if src == dst {
					continue
				}
				a, b := g.Node(coordAt(s.dims, j, src)...), g.Node(coordAt(s.dims, j, dst)...)
				hops, dir := g.Offset(a, b, j)
				x, crossed := src, 0
				for h := 0; h < hops; h++ {
					nx := x + 1
					if dir == topology.Minus {
						nx = x - 1
					}
					if nx < 0 || nx >= k {
						nx = (nx + k) % k
						crossed = 1
					}
					i := (x*k+nx)*2 + crossed
					if !slices.Contains(ys[j][i], dst) {
						ys[j][i] = append(ys[j][i], dst)
					}
					x = nx
				}
			}
		}
	}
	rec := newRecorder(s)
	var states int64
	var buf []routing.Output
	dst := make([]int, s.dims)
	for c := topology.ChannelID(0); int(c) < g.Channels(); c++ {
		ch := g.Channel(c)
		j := ch.Dim
		k := s.sizes[j]
		xv, xu := g.Coord(ch.From, j), g.Coord(ch.To, j)
		after := int64(1)
		for i := j + 1; i < s.dims; i++ {
			after *= int64(s.sizes[i])
		}
		for a := 0; a < 2; a++ {
			y := ys[j][(xv*k+xu)*2+a]
			if len(y) == 0 {
				continue
			}
			vtx := int(c)*2 + a
			rec.used[vtx] = true
			states += int64(len(y)) * after
			route := func() bool {
				h := routing.Header{At: ch.To, In: routing.Input{Channel: c, VC: a}, Src: ch.From, Dst: g.Node(dst...)}
				if h.Dst == h.At {
					return true
				}
				buf = s.rel.Route(h, buf[:0])
				if len(buf) == 0 {
					return false
				}
				for _, o := range buf {
					if s.checkOutput(h.At, h.Dst, o) != nil {
						return false
					}
					slot := vtx*rec.width + int(s.chPort[o.Channel])*2 + o.VC
					rec.edges[slot/64] |= 1 << (slot % 64)
				}
				return true
			}
			for i := range dst {
				dst[i] = g.Coord(ch.To, i)
			}
			for _, yj := range y {
				dst[j] = yj
				if !route() {
					return nil
				}
			}
			dst[j] = xu
			for i := j + 1; i < s.dims; i++ {
				for x := 0; x < s.sizes[i]; x++ {
					dst[i] = x
					if !route() {
						return nil
					}
				}
				dst[i] = g.Coord(ch.To, i)
			}
		}
	}
	adj, vertices, edges := s.adjacency(rec)
	if shortestCycle(adj) != nil {
		return nil
	}
	n := g.Nodes()
	return &Result{Relation: s.rel.Name(), Topology: g.Spec(), VCs: s.vcs, g: g,
		States: states, Destinations: n, Complete: true,
		Vertices: vertices, Edges: edges, Acyclic: true}
}

// coordAt returns the coordinates of the node with x in dimension j and 0 elsewhere.
func coordAt(dims, j, x int) []int {
	c := make([]int, dims)
	c[j] = x
	return c
}
