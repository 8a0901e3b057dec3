package routing

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/topology"
)

// BookSim's routing functions on meshes and tori (src/routefunc.cpp). BookSim numbers a
// k-ary n-cube's routers as wormcheck numbers a grid's nodes (dimension 0 fastest),
// its port 2d is the Plus channel of dimension d and 2d+1 the Minus one, and a head
// flit that arrived on a channel of dimension d "comes in on port 2d or 2d+1" (routing
// reads only the dimension and the direction, Header.In).

func init() {
	for _, fn := range []string{"dim_order", "dor"} {
		registerBookSim(fn+"_mesh", bookSimFunc{build: kncube(fn, "mesh", dimOrderMesh)})
	}
	registerBookSim("dim_order_ni_mesh", bookSimFunc{build: kncube("dim_order_ni", "mesh", dimOrderNIMesh)})
	registerBookSim("dim_order_pni_mesh", bookSimFunc{build: kncube("dim_order_pni", "mesh", dimOrderPNIMesh)})
	registerBookSim("xy_yx_mesh", bookSimFunc{build: kncube("xy_yx", "mesh", xyYXMesh)})
	registerBookSim("adaptive_xy_yx_mesh", bookSimFunc{build: kncube("adaptive_xy_yx", "mesh", xyYXMesh)})
	registerBookSim("romm_mesh", bookSimFunc{build: kncube("romm", "mesh", rommMesh)})
	registerBookSim("valiant_mesh", bookSimFunc{build: kncube("valiant", "mesh", valiantMesh)})
	registerBookSim("min_adapt_mesh", bookSimFunc{build: escaping(kncube("min_adapt", "mesh", minAdaptMesh), func(o Output) bool { return o.VC == 0 })})
	registerBookSim("planar_adapt_mesh", bookSimFunc{build: kncube("planar_adapt", "mesh", planarAdaptMesh)})
	registerBookSim("chaos_mesh", bookSimFunc{build: kncube("chaos", "mesh", chaosMesh)})
	registerBookSim("dim_order_torus", bookSimFunc{build: kncube("dim_order", "torus", dimOrderTorus(false))})
	registerBookSim("dim_order_bal_torus", bookSimFunc{build: kncube("dim_order_bal", "torus", dimOrderTorus(true))})
	registerBookSim("dim_order_ni_torus", bookSimFunc{build: kncube("dim_order_ni", "torus", dimOrderNITorus)})
	registerBookSim("min_adapt_torus", bookSimFunc{build: escaping(kncube("min_adapt", "torus", minAdaptTorus), func(o Output) bool { return o.VC <= 1 })})
	registerBookSim("chaos_torus", bookSimFunc{build: kncube("chaos", "torus", chaosTorus)})
	registerBookSim("romm_ni_mesh", bookSimFunc{refused: "its per-destination VCs do not separate the phase (to the intermediate or to the destination) the flit keeps, so the outputs of a head depend on state no relation reads; the nearest is booksim:romm (phases on separate VCs)"})
	registerBookSim("valiant_torus", bookSimFunc{refused: "it passes an uninitialised ring partition on every hop that continues in a dimension (ring_part is set only on turns), so its VC use is undefined; the nearest is booksim:dim_order or booksim:valiant on a mesh"})
	registerBookSim("valiant_ni_torus", bookSimFunc{refused: "it passes an uninitialised ring partition on every hop that continues in a dimension, and its per-destination VCs hide the phase; the nearest is booksim:dim_order_ni"})
}

// escaping marks the outputs escape says are Duato's escape channels of the relations
// b builds.
func escaping(b bookSimBuilder, escape func(o Output) bool) bookSimBuilder {
	return func(g *topology.Network, nv int) (Relation, error) {
		rel, err := b(g, nv)
		if err != nil {
			return nil, err
		}
		return bookSimEscaping{bookSimRelation: rel.(*bookSimRelation), escape: escape}, nil
	}
}

// kncubeCtx is what the functions of this file read of their network.
type kncubeCtx struct {
	g  *topology.Network
	nv int
	// dor and rod are dimension-order routing on g, dimension 0 first and last.
	dor, rod topology.DOR
}

// kncube wraps a function of this file into a builder: it checks the network kind
// (mesh or torus) and lets the function size its VCs.
func kncube(fn, topo string, f func(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error)) bookSimBuilder {
	return func(g *topology.Network, nv int) (Relation, error) {
		if g.IsGraph() {
			return nil, fmt.Errorf("routing booksim:%s needs a %s; %s is not one", fn, topo, g.Spec())
		}
		if topo == "torus" {
			for d := 0; d < g.Dims(); d++ {
				if !g.Wraps(d) {
					return nil, fmt.Errorf("routing booksim:%s: %s has a dimension of %d; BookSim's torus needs k >= 3 (with k = 2 it joins two routers twice)", fn, g.Spec(), g.Size(d))
				}
			}
		}
		dor, rod := topology.NewDOR(g), topology.NewDOR(g)
		rod.Order = topology.DescendingOrder(g.Dims())
		route, vcs, err := f(kncubeCtx{g: g, nv: nv, dor: dor, rod: rod}, fn)
		if err != nil {
			return nil, err
		}
		return newBookSim(fn, topo, g, nv, vcs, route), nil
	}
}

// dorNext is BookSim's dor_next_mesh: the dimension dimension-order routing corrects
// first (topology.DOR.Next; the last dimension first with descending), and the
// direction toward dst on the mesh, never round a ring.
func (k kncubeCtx) dorNext(at, dst topology.NodeID, descending bool) (int, topology.Direction) {
	r := k.dor
	if descending {
		r = k.rod
	}
	_, d := r.Next(at, dst)
	if d >= 0 && k.g.Coord(at, d) > k.g.Coord(dst, d) {
		return d, topology.Minus
	}
	return d, topology.Plus
}

// arrivedIn returns the dimension and direction of h's input channel (-1 at injection).
func (k kncubeCtx) arrivedIn(h Header) (int, topology.Direction) {
	if h.In.Channel == Injection {
		return -1, topology.Plus
	}
	ch := k.g.Channel(h.In.Channel)
	return ch.Dim, ch.Dir
}

func dimOrderMesh(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error) {
	return func(h Header, out []Output) []Output {
		d, dir := k.dorNext(h.At, h.Dst, false)
		return vcRange(out, k.g.ChannelOut(h.At, d, dir), 0, k.nv-1)
	}, k.nv, nil
}

// dimOrderNIMesh: dimension order, each destination on its own nv/nodes VCs.
func dimOrderNIMesh(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error) {
	per := k.nv / k.g.Nodes()
	if per == 0 {
		return nil, 0, fmt.Errorf("routing booksim:%s,vcs=%d: it gives each of the %d destinations num_vcs/%d VCs; it needs num_vcs >= %d", fn, k.nv, k.g.Nodes(), k.g.Nodes(), k.g.Nodes())
	}
	return func(h Header, out []Output) []Output {
		d, dir := k.dorNext(h.At, h.Dst, false)
		lo := int(h.Dst) * per
		return vcRange(out, k.g.ChannelOut(h.At, d, dir), lo, lo+per-1)
	}, k.g.Nodes() * per, nil
}

// dimOrderPNIMesh: dimension order, the VCs split by the destination's coordinate in
// the dimension of the output.
func dimOrderPNIMesh(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error) {
	size := k.g.Size(0)
	for d := 1; d < k.g.Dims(); d++ {
		size = max(size, k.g.Size(d))
	}
	per := k.nv / size
	if per == 0 {
		return nil, 0, fmt.Errorf("routing booksim:%s,vcs=%d: it splits the VCs by a coordinate of %d values; it needs num_vcs >= %d", fn, k.nv, size, size)
	}
	return func(h Header, out []Output) []Output {
		d, dir := k.dorNext(h.At, h.Dst, false)
		lo := k.g.Coord(h.Dst, d) * per
		return vcRange(out, k.g.ChannelOut(h.At, d, dir), lo, lo+per-1)
	}, size * per, nil
}

// xyYXMesh: at the source, dimension order ascending on the low half of the VCs or
// descending on the high half (BookSim draws, or with adaptive_xy_yx compares
// credits); after that the VC a head arrived on decides (below nv/2: ascending).
func xyYXMesh(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error) {
	lo, hi, err := halves(fn, k.nv)
	avail := k.nv / 2
	if avail == 0 {
		return nil, 0, err
	}
	if err != nil { // BookSim's own rule reads the VC: below avail is XY, whatever overlaps
		lo, hi = [2]int{0, k.nv - 1 - avail}, [2]int{avail, k.nv - 1}
	}
	return func(h Header, out []Output) []Output {
		xy, yx := true, true
		if h.In.Channel != Injection {
			xy = h.In.VC < avail
			yx = !xy
		}
		if xy {
			d, dir := k.dorNext(h.At, h.Dst, false)
			out = vcRange(out, k.g.ChannelOut(h.At, d, dir), lo[0], lo[1])
		}
		if yx {
			d, dir := k.dorNext(h.At, h.Dst, true)
			out = vcRange(out, k.g.ChannelOut(h.At, d, dir), hi[0], hi[1])
		}
		return out
	}, k.nv, nil
}

// phaseRoute is the two-phase route of romm and valiant on a mesh: phase 0 goes in
// dimension order to an intermediate router on the low half of the VCs, phase 1 from
// there to the destination on the high half. BookSim draws the intermediate at the
// source (valiant: any router; romm: one in the box between source and destination);
// the relation offers every hop toward every intermediate the head's path so far is
// consistent with. box: only intermediates between source and destination.
func phaseRoute(k kncubeCtx, fn string, box bool) (func(Header, []Output) []Output, int, error) {
	lo, hi, err := halves(fn, k.nv)
	if err != nil {
		return nil, 0, err
	}
	g := k.g
	return func(h Header, out []Output) []Output {
		ind, indir := k.arrivedIn(h)
		if h.In.Channel != Injection && inRange(h.In.VC, hi) {
			d, dir := k.dorNext(h.At, h.Dst, false)
			return vcRange(out, g.ChannelOut(h.At, d, dir), hi[0], hi[1])
		}
		// Phase 0 (or at the source): the intermediate's coordinates below the
		// dimension the head moves in are reached; in that dimension it may go on in
		// its direction; in a higher one it may start either way (romm: toward dst).
		for d := max(ind, 0); d < g.Dims(); d++ {
			x, y := g.Coord(h.At, d), g.Coord(h.Dst, d)
			for _, dir := range []topology.Direction{topology.Plus, topology.Minus} {
				if d == ind && dir != indir {
					continue
				}
				if box && (x == y || (y > x) != (dir == topology.Plus)) {
					continue
				}
				if c := g.ChannelOut(h.At, d, dir); c != topology.None {
					out = vcRange(out, c, lo[0], lo[1])
				}
			}
		}
		// the intermediate is here: phase 1 from here
		d, dir := k.dorNext(h.At, h.Dst, false)
		return vcRange(out, g.ChannelOut(h.At, d, dir), hi[0], hi[1])
	}, k.nv, nil
}

func rommMesh(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error) {
	return phaseRoute(k, fn, true)
}

func valiantMesh(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error) {
	return phaseRoute(k, fn, false)
}

// minAdaptMesh: every minimal direction on VCs 1..nv-1 (priority 1), and dimension
// order on VC 0, the escape (priority 0); a head on VC 0 stays on VC 0.
func minAdaptMesh(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error) {
	g := k.g
	return func(h Header, out []Output) []Output {
		if h.In.Channel == Injection || h.In.VC != 0 {
			for d := 0; d < g.Dims(); d++ {
				x, y := g.Coord(h.At, d), g.Coord(h.Dst, d)
				if x == y {
					continue
				}
				dir := topology.Plus
				if y < x {
					dir = topology.Minus
				}
				out = vcRange(out, g.ChannelOut(h.At, d, dir), 1, k.nv-1)
			}
		}
		d, dir := k.dorNext(h.At, h.Dst, false)
		return append(out, Output{Channel: g.ChannelOut(h.At, d, dir)})
	}, k.nv, nil
}

// planarAdaptMesh is BookSim's planar_adapt_mesh without faults (Chien & Kim): in
// adaptive plane n (the first dimension not done, skipping dimension 0 for a head
// that came in on dimension 0 on the lower two thirds of the VCs), a hop in dimension
// n on the top third, or a minimal hop in dimension n+1 (mod the dimensions) on the
// first third when dimension n increases and the second when it decreases.
func planarAdaptMesh(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error) {
	m := k.nv / 3
	if m == 0 {
		return nil, 0, fmt.Errorf("routing booksim:%s,vcs=%d: it splits the VCs in three; it needs num_vcs >= 3", fn, k.nv)
	}
	g := k.g
	return func(h Header, out []Output) []Output {
		ind, _ := k.arrivedIn(h)
		n := 0
		for ; n < g.Dims(); n++ {
			if g.Coord(h.At, n) != g.Coord(h.Dst, n) && !(ind == 0 && n == 0 && h.In.VC < 2*m) {
				break
			}
		}
		if n == g.Dims() {
			return out // BookSim asserts: no plane
		}
		inc := g.Coord(h.At, n) < g.Coord(h.Dst, n)
		dir := topology.Minus
		if inc {
			dir = topology.Plus
		}
		out = vcRange(out, g.ChannelOut(h.At, n, dir), 2*m, k.nv-1)
		n1 := (n + 1) % g.Dims()
		lo := 0
		if !inc {
			lo = m
		}
		x, y := g.Coord(h.At, n1), g.Coord(h.Dst, n1)
		if x == y {
			return out
		}
		dir1 := topology.Plus
		if y < x {
			dir1 = topology.Minus
		}
		// BookSim drops a hop back the way the head came (only possible with faults)
		if h.In.Channel != Injection {
			if in := g.Channel(h.In.Channel); in.Dim == n1 && in.Dir != dir1 {
				return out
			}
		}
		return vcRange(out, g.ChannelOut(h.At, n1, dir1), lo, lo+m-1)
	}, k.nv, nil
}

// chaosMesh: every minimal direction, on VC 0 only.
func chaosMesh(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error) {
	g := k.g
	return func(h Header, out []Output) []Output {
		for d := 0; d < g.Dims(); d++ {
			x, y := g.Coord(h.At, d), g.Coord(h.Dst, d)
			if x < y {
				out = append(out, Output{Channel: g.ChannelOut(h.At, d, topology.Plus)})
			} else if x > y {
				out = append(out, Output{Channel: g.ChannelOut(h.At, d, topology.Minus)})
			}
		}
		return out
	}, 1, nil
}

// torusTurn is BookSim's dor_next_torus for a head turning into dimension d (or
// starting at its source): the shortest direction, either on a tie (BookSim draws),
// and each direction's ring partitions. Without balance the partition is 1 when
// BookSim's test says the route crosses the dateline between k-1 and 0 (as written:
// going Minus it tests dst < cur, so the classes of that direction are the other way
// round, which is deadlock-free too); with balance (Cray's) 1 for a route that wraps, 0
// for one that crosses the middle, either otherwise.
func torusTurn(k, cur, dst int, balance bool) (dirs []topology.Direction, parts [2][]int) {
	dist2 := k - 2*((dst-cur+k)%k)
	if dist2 >= 0 {
		dirs = append(dirs, topology.Plus)
	}
	if dist2 <= 0 {
		dirs = append(dirs, topology.Minus)
	}
	mid := (k - 1) / 2
	for _, dir := range dirs {
		var p []int
		switch {
		case !balance && dir == topology.Plus:
			p = []int{b2i(cur > dst)}
		case !balance:
			p = []int{b2i(dst < cur)}
		case dir == topology.Plus && cur > dst, dir == topology.Minus && cur < dst:
			p = []int{1}
		case dir == topology.Plus && cur <= mid && dst > mid, dir == topology.Minus && cur > mid && dst <= mid:
			p = []int{0}
		default:
			p = []int{0, 1}
		}
		parts[dir] = p
	}
	return dirs, parts
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// dimOrderTorus: dimension order with BookSim's ring partitions: the partition is
// chosen when the head turns into a dimension and kept, on its half of the VCs, until
// it turns again.
func dimOrderTorus(balance bool) func(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error) {
	return func(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error) {
		lo, hi, err := halves(fn, k.nv)
		if err != nil {
			return nil, 0, err
		}
		half := [2][2]int{lo, hi}
		g := k.g
		return func(h Header, out []Output) []Output {
			d, _ := k.dorNext(h.At, h.Dst, false)
			ind, indir := k.arrivedIn(h)
			if ind == d { // going on in the dimension, in its partition
				p := half[b2i(inRange(h.In.VC, hi))]
				return vcRange(out, g.ChannelOut(h.At, d, indir), p[0], p[1])
			}
			dirs, parts := torusTurn(g.Size(d), g.Coord(h.At, d), g.Coord(h.Dst, d), balance)
			for _, dir := range dirs {
				for _, p := range parts[dir] {
					out = vcRange(out, g.ChannelOut(h.At, d, dir), half[p][0], half[p][1])
				}
			}
			return out
		}, k.nv, nil
	}
}

// dimOrderNITorus: dimension order on a torus, each destination on its own VCs, the
// direction of a tie drawn when the head turns.
func dimOrderNITorus(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error) {
	per := k.nv / k.g.Nodes()
	if per == 0 {
		return nil, 0, fmt.Errorf("routing booksim:%s,vcs=%d: it gives each of the %d destinations num_vcs/%d VCs; it needs num_vcs >= %d", fn, k.nv, k.g.Nodes(), k.g.Nodes(), k.g.Nodes())
	}
	g := k.g
	return func(h Header, out []Output) []Output {
		lo := int(h.Dst) * per
		d, _ := k.dorNext(h.At, h.Dst, false)
		ind, indir := k.arrivedIn(h)
		if ind == d {
			return vcRange(out, g.ChannelOut(h.At, d, indir), lo, lo+per-1)
		}
		dirs, _ := torusTurn(g.Size(d), g.Coord(h.At, d), g.Coord(h.Dst, d), false)
		for _, dir := range dirs {
			out = vcRange(out, g.ChannelOut(h.At, d, dir), lo, lo+per-1)
		}
		return out
	}, g.Nodes() * per, nil
}

// minAdaptTorus: on VCs 2.. (or at the source) every minimal direction on VC 3 (a tie
// goes Minus), and the escape: dimension order with ring partitions on VC 0 or 1, its
// partition chosen afresh as at a source; on VC 0 or 1 dimension order only.
func minAdaptTorus(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error) {
	if k.nv < 4 {
		return nil, 0, fmt.Errorf("routing booksim:%s,vcs=%d: it routes adaptively on VC 3 and escapes on VCs 0 and 1; it needs num_vcs >= 4", fn, k.nv)
	}
	g := k.g
	return func(h Header, out []Output) []Output {
		d, _ := k.dorNext(h.At, h.Dst, false)
		if h.In.Channel == Injection || h.In.VC > 1 {
			for n := 0; n < g.Dims(); n++ {
				x, y := g.Coord(h.At, n), g.Coord(h.Dst, n)
				if x == y {
					continue
				}
				dir := topology.Minus
				if g.Size(n)-2*((y-x+g.Size(n))%g.Size(n)) > 0 {
					dir = topology.Plus
				}
				out = append(out, Output{Channel: g.ChannelOut(h.At, n, dir), VC: 3})
			}
		} else if ind, indir := k.arrivedIn(h); ind == d {
			return append(out, Output{Channel: g.ChannelOut(h.At, d, indir), VC: h.In.VC})
		}
		dirs, parts := torusTurn(g.Size(d), g.Coord(h.At, d), g.Coord(h.Dst, d), false)
		for _, dir := range dirs {
			out = append(out, Output{Channel: g.ChannelOut(h.At, d, dir), VC: parts[dir][0]})
		}
		return out
	}, 4, nil
}

// chaosTorus: every minimal direction (both on a tie), on VC 0 only.
func chaosTorus(k kncubeCtx, fn string) (func(Header, []Output) []Output, int, error) {
	g := k.g
	return func(h Header, out []Output) []Output {
		for d := 0; d < g.Dims(); d++ {
			x, y := g.Coord(h.At, d), g.Coord(h.Dst, d)
			if x == y {
				continue
			}
			dist2 := g.Size(d) - 2*((y-x+g.Size(d))%g.Size(d))
			if dist2 >= 0 {
				out = append(out, Output{Channel: g.ChannelOut(h.At, d, topology.Plus)})
			}
			if dist2 <= 0 {
				out = append(out, Output{Channel: g.ChannelOut(h.At, d, topology.Minus)})
			}
		}
		return out
	}, 1, nil
}
