// Package pathbased builds the path-based multicast worms that 000 §5.2 compares with
// tree-based multicast on 2-D meshes: Dual-Path and Multipath (Lin, McKinley & Ni,
// "Deadlock-free multicast wormhole routing in 2-D mesh multicomputers", IEEE TPDS 5(8),
// 1994, 000's reference [21] via Ni & McKinley) and PM (Lin, McKinley & Esfahanian,
// "Adaptive multicast wormhole routing in 2D-mesh multicomputers", PARLE 1993, 000's
// reference [17]). A worm is a channel list that delivers a copy at each destination it
// passes (absorb and forward); the simulator (checker/sim) times them.
//
// The descriptions used: 000 §5.2 ("Dual-Path uses a deterministic routing algorithm
// based on Hamiltonian paths ... divides each multicast message into two independent
// messages"; "PM first routes a multicast message to its west-most destination following
// a deterministic path ... then reaches all remaining destinations using a minimal
// adaptive routing function between successive destinations ... cannot go west") and
// the published Dual-Path definition (Hamiltonian snake labelling, high- and
// low-channel subnetworks, routing function R). The search tool found no stored copy of
// either paper; the reconstructions below follow those statements and are checked by
// the tests (each destination reached once, no channel reused by a worm, Dual-Path
// worms monotone in the labelling, PM worms west-first).
package pathbased

import (
	"fmt"
	"sort"

	"github.com/wormcheck/wormcheck/model/topology"
)

// Worm is one path-based multicast message: the channels it crosses from the source and
// the 1-based hop counts at which it reaches each of its destinations, in order (the
// last equals len(Channels)).
type Worm struct {
	Channels []topology.ChannelID
	Drops    []int
}

// Label returns the Hamiltonian (boustrophedon) label of node v of a 2-D mesh with k0
// columns: rows are numbered upward, even rows run east and odd rows west, so
// L(x, y) = y*k0 + x for even y and y*k0 + k0-1-x for odd y. Consecutive labels are
// neighbours, so the labels trace a Hamiltonian path.
func Label(g *topology.Network, v topology.NodeID) int {
	k0 := g.Size(0)
	x, y := g.Coord(v, 0), g.Coord(v, 1)
	if y%2 == 0 {
		return y*k0 + x
	}
	return y*k0 + k0 - 1 - x
}

func check(g *topology.Network, src topology.NodeID, dests []topology.NodeID) error {
	if g.Kind() != topology.Mesh || g.Dims() != 2 {
		return fmt.Errorf("pathbased: %s is not a 2-D mesh; Dual-Path, Multipath and PM are defined on 2-D meshes", g.Spec())
	}
	seen := map[topology.NodeID]bool{}
	for _, d := range dests {
		if int(d) < 0 || int(d) >= g.Nodes() {
			return fmt.Errorf("pathbased: destination %d is not a node of %s", d, g.Spec())
		}
		if d == src || seen[d] {
			return fmt.Errorf("pathbased: destination %s is the source or repeated", g.NodeName(d))
		}
		seen[d] = true
	}
	return nil
}

// route follows the routing function R of the high-channel (up = true) or
// low-channel subnetwork from u to d and appends the channels: at each node it takes
// the neighbour whose label is closest to L(d) without passing it.
func route(g *topology.Network, u, d topology.NodeID, up bool, buf []topology.ChannelID) ([]topology.ChannelID, topology.NodeID) {
	ld := Label(g, d)
	for u != d {
		best, bestC := topology.NodeID(topology.None), topology.ChannelID(topology.None)
		bestL, found := 0, false
		for dim := 0; dim < 2; dim++ {
			for _, dir := range []topology.Direction{topology.Plus, topology.Minus} {
				c, v := g.Neighbor(u, dim, dir)
				if c == topology.None {
					continue
				}
				lv := Label(g, v)
				var ok bool
				var key int
				if up {
					ok, key = lv > Label(g, u) && lv <= ld, lv
				} else {
					ok, key = lv < Label(g, u) && lv >= ld, -lv
				}
				if ok && (!found || key > bestL) {
					best, bestC, bestL, found = v, c, key, true
				}
			}
		}
		buf = append(buf, bestC)
		u = best
	}
	return buf, u
}

// pathThrough builds one worm visiting dests in the given order along R.
func pathThrough(g *topology.Network, src topology.NodeID, dests []topology.NodeID, up bool) Worm {
	var w Worm
	u := src
	for _, d := range dests {
		w.Channels, u = route(g, u, d, up, w.Channels)
		w.Drops = append(w.Drops, len(w.Channels))
	}
	return w
}

func split(g *topology.Network, src topology.NodeID, dests []topology.NodeID) (high, low []topology.NodeID) {
	ls := Label(g, src)
	for _, d := range dests {
		if Label(g, d) > ls {
			high = append(high, d)
		} else {
			low = append(low, d)
		}
	}
	sort.Slice(high, func(i, j int) bool { return Label(g, high[i]) < Label(g, high[j]) })
	sort.Slice(low, func(i, j int) bool { return Label(g, low[i]) > Label(g, low[j]) })
	return high, low
}

// DualPath returns the Dual-Path worms of a multicast: the destinations with labels
// above the source's, in ascending label order, go in one worm through the high-channel
// subnetwork; the rest, in descending order, in one worm through the low-channel
// subnetwork. Each subnetwork's channel dependencies follow the labels, so both are
// acyclic (deadlock freedom).
//
// Reference: 000 §5.2; Lin, McKinley & Ni 1994.
func DualPath(g *topology.Network, src topology.NodeID, dests []topology.NodeID) ([]Worm, error) {
	if err := check(g, src, dests); err != nil {
		return nil, err
	}
	high, low := split(g, src, dests)
	var out []Worm
	if len(high) > 0 {
		out = append(out, pathThrough(g, src, high, true))
	}
	if len(low) > 0 {
		out = append(out, pathThrough(g, src, low, false))
	}
	return out, nil
}

// Multipath returns the Multipath worms (Lin, McKinley & Ni 1994): each of Dual-Path's
// two sets is split once more by the source's column (x >= x0 and x < x0), giving up to
// four worms that leave on different channels and run shorter paths.
func Multipath(g *topology.Network, src topology.NodeID, dests []topology.NodeID) ([]Worm, error) {
	if err := check(g, src, dests); err != nil {
		return nil, err
	}
	high, low := split(g, src, dests)
	x0 := g.Coord(src, 0)
	var out []Worm
	for i, set := range [][]topology.NodeID{high, low} {
		var east, west []topology.NodeID
		for _, d := range set {
			if g.Coord(d, 0) >= x0 {
				east = append(east, d)
			} else {
				west = append(west, d)
			}
		}
		for _, part := range [][]topology.NodeID{east, west} {
			if len(part) > 0 {
				out = append(out, pathThrough(g, src, part, i == 0))
			}
		}
	}
	return out, nil
}

// PM returns the PM worms of a multicast on a 2-D mesh under the west-first turn model
// (Glass & Ni): 000 §5.2 says PM first routes the message to its west-most destination
// along a deterministic path and then visits the remaining destinations with a minimal
// adaptive routing function that never goes west.
//
// Reconstruction. A single west-first worm cannot reach every destination set without a
// 180-degree turn (a column with destinations both above and below the row the worm
// enters it by), and 180-degree turns close two-channel dependency cycles (our
// simulator deadlocked on exactly that with a one-worm version). So, as Dual-Path does,
// the destinations are split into a north set (rows >= the source's) and a south set,
// one worm each. A worm goes west along the source row to its west-most destination
// column (or east to its first column when none lies west), then visits its columns
// eastward, sweeping each column in one vertical direction and alternating the direction
// from column to column (boustrophedon); before going east it extends its current
// vertical run so that it enters the next column beyond that column's far end. Every
// turn is then N->E, S->E, E->N, E->S, W->N or W->S: no turn into west after leaving
// the west phase and no 180-degree turn, so the channel dependencies are acyclic (Glass
// & Ni) and PM worms cannot deadlock each other. Between destinations the moves are a
// fixed choice among those the adaptive function allows (our worms carry routes).
//
// Reference: 000 §5.2; Lin, McKinley & Esfahanian 1993; Glass & Ni 1992 (000's [8]).
func PM(g *topology.Network, src topology.NodeID, dests []topology.NodeID) ([]Worm, error) {
	if err := check(g, src, dests); err != nil {
		return nil, err
	}
	ys := g.Coord(src, 1)
	var north, south []topology.NodeID
	for _, d := range dests {
		if g.Coord(d, 1) >= ys {
			north = append(north, d)
		} else {
			south = append(south, d)
		}
	}
	var out []Worm
	if len(north) > 0 {
		out = append(out, pmWorm(g, src, north, topology.Plus))
	}
	if len(south) > 0 {
		out = append(out, pmWorm(g, src, south, topology.Minus))
	}
	return out, nil
}

// pmWorm builds one PM worm whose destinations all lie on the side dir0 of the source
// row (dir0 = Plus: rows >= the source's). The west phase drops the destinations it
// passes on the source row; afterwards each column is entered from the west and swept in
// one vertical direction. Before going east the worm moves vertically in its current
// column only by continuing its last vertical direction (or freely after an east move),
// and always at least one step after the west phase, so it never turns back on itself.
func pmWorm(g *topology.Network, src topology.NodeID, dests []topology.NodeID, dir0 topology.Direction) Worm {
	isDest := map[topology.NodeID]bool{}
	for _, d := range dests {
		isDest[d] = true
	}
	var w Worm
	u := src
	const (
		none = iota
		west
		east
		north
		south
	)
	last := none
	step := func(dim int, dir topology.Direction) {
		c, v := g.Neighbor(u, dim, dir)
		w.Channels = append(w.Channels, c)
		u = v
		switch {
		case dim == 0 && dir == topology.Minus:
			last = west
		case dim == 0:
			last = east
		case dir == topology.Plus:
			last = north
		default:
			last = south
		}
	}
	minX := g.Coord(src, 0)
	for _, d := range dests {
		minX = min(minX, g.Coord(d, 0))
	}
	for g.Coord(u, 0) > minX {
		step(0, topology.Minus)
		if isDest[u] {
			w.Drops = append(w.Drops, len(w.Channels))
			delete(isDest, u)
		}
	}
	cols := map[int][]int{}
	var xs []int
	for _, d := range dests {
		if !isDest[d] {
			continue
		}
		x, y := g.Coord(d, 0), g.Coord(d, 1)
		if _, ok := cols[x]; !ok {
			xs = append(xs, x)
		}
		cols[x] = append(cols[x], y)
	}
	sort.Ints(xs)
	top := g.Size(1) - 1
	for _, x := range xs {
		rows := cols[x]
		sort.Ints(rows)
		lo, hi := rows[0], rows[len(rows)-1]
		y := g.Coord(u, 1)
		var sweep topology.Direction
		if x == g.Coord(u, 0) {
			// The first column, reached by the west phase or the source's own: every
			// row lies on the dir0 side of the current one.
			sweep = dir0
		} else {
			switch {
			case last == north || last == west && y < top:
				for g.Coord(u, 1) < hi || last == west {
					step(1, topology.Plus)
				}
				sweep = topology.Minus
			case last == south || last == west:
				for g.Coord(u, 1) > lo || last == west {
					step(1, topology.Minus)
				}
				sweep = topology.Plus
			case y <= lo:
				sweep = topology.Plus
			case y >= hi:
				sweep = topology.Minus
			default:
				for g.Coord(u, 1) < hi {
					step(1, topology.Plus)
				}
				sweep = topology.Minus
			}
			for g.Coord(u, 0) < x {
				step(0, topology.Plus)
			}
		}
		if sweep == topology.Minus {
			sort.Sort(sort.Reverse(sort.IntSlice(rows)))
		}
		for _, r := range rows {
			for g.Coord(u, 1) != r {
				step(1, sweep)
			}
			w.Drops = append(w.Drops, len(w.Channels))
		}
	}
	return w
}

// ByName returns the worm builder for "dual-path", "multipath" or "pm".
func ByName(name string) (func(*topology.Network, topology.NodeID, []topology.NodeID) ([]Worm, error), error) {
	switch name {
	case "dual-path":
		return DualPath, nil
	case "multipath":
		return Multipath, nil
	case "pm":
		return PM, nil
	}
	return nil, fmt.Errorf("pathbased: unknown algorithm %q; want dual-path, multipath or pm", name)
}
