package routing

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/topology"
)

// BookSim's routing functions on its networks with terminals: concentrated mesh
// (cmesh.cpp), flattened butterfly (flatfly_onchip.cpp), k-ary n-fly (dest_tag_fly),
// fat-tree (nca and anca), the trees qtree and tree4 (nca, anca), dragonfly (dragonfly.cpp) and anynet (anynet.cpp). A worm
// starts at a terminal, whose one channel to its router BookSim's injection gives any
// VC of the function's range; at its destination's router it leaves on the channel to
// the terminal. "The head came from a terminal" (BookSim's in_channel < c) is a head
// whose input channel leaves a terminal.

func init() {
	registerBookSim("dor_no_express_cmesh", bookSimFunc{build: cmeshFunc("dor_no_express", false, false)})
	registerBookSim("dor_cmesh", bookSimFunc{build: cmeshFunc("dor", true, false)})
	registerBookSim("xy_yx_no_express_cmesh", bookSimFunc{build: cmeshFunc("xy_yx_no_express", false, true)})
	registerBookSim("xy_yx_cmesh", bookSimFunc{build: cmeshFunc("xy_yx", true, true)})
	registerBookSim("ran_min_flatfly", bookSimFunc{build: flatflyFunc("ran_min", flatflyMin)})
	registerBookSim("xyyx_flatfly", bookSimFunc{build: flatflyFunc("xyyx", flatflyXYYX)})
	registerBookSim("adaptive_xyyx_flatfly", bookSimFunc{build: flatflyFunc("adaptive_xyyx", flatflyXYYX)})
	registerBookSim("valiant_flatfly", bookSimFunc{build: flatflyFunc("valiant", flatflyValiant)})
	registerBookSim("ugal_flatfly", bookSimFunc{build: flatflyFunc("ugal", flatflyUGAL(false))})
	registerBookSim("ugal_xyyx_flatfly", bookSimFunc{build: flatflyFunc("ugal_xyyx", flatflyUGAL(true))})
	registerBookSim("ugal_pni_flatfly", bookSimFunc{build: flatflyFunc("ugal_pni", flatflyUGALPNI)})
	registerBookSim("dest_tag_fly", bookSimFunc{build: destTagFly})
	registerBookSim("nca_fattree", bookSimFunc{build: ncaFatTree("nca")})
	registerBookSim("anca_fattree", bookSimFunc{build: ncaFatTree("anca")})
	registerBookSim("min_dragonflynew", bookSimFunc{build: minDragonfly})
	registerBookSim("ugal_dragonflynew", bookSimFunc{build: ugalDragonfly})
	registerBookSim("min_anynet", bookSimFunc{build: minAnynet})
	registerBookSim("nca_qtree", bookSimFunc{build: treeNCA("nca", "qtree")})
	registerBookSim("nca_tree4", bookSimFunc{build: treeNCA("nca", "tree4")})
	registerBookSim("anca_tree4", bookSimFunc{build: treeNCA("anca", "tree4")})
}

// fromTerminal reports whether h came from a terminal (or is at one).
func fromTerminal(g *topology.Network, h Header) bool {
	return h.In.Channel == Injection || g.Terminal(g.Channel(h.In.Channel).From)
}

// injectOr appends, for a header at a terminal, its channel to its router on VCs
// [0, nv-1] and reports true.
func injectOr(g *topology.Network, h Header, nv int, out *[]Output) bool {
	if !g.Terminal(h.At) {
		return false
	}
	var buf [2]topology.ChannelID
	*out = vcRange(*out, g.AppendOut(buf[:0], h.At)[0], 0, nv-1)
	return true
}

// cmeshFunc: dimension order XY (or YX) between routers, with express (BookSim's
// cmesh_next: over more than k/2-1 columns on the bottom or top row take the -y or +y
// express port, over more than k/2-1 rows on the left or right column the -x or +x
// one) or without; xyyx draws the order at the source (low half of the VCs XY, high
// half YX), as BookSim's xy_yx_cmesh, whose express threshold is 1.
func cmeshFunc(fn string, express, xyyx bool) bookSimBuilder {
	return func(g *topology.Network, nv int) (Relation, error) {
		m, ok := g.CMeshShape()
		if !ok {
			return nil, fmt.Errorf("routing booksim:%s needs a cmesh (topology cmesh:k=4); %s is not one", fn, g.Spec())
		}
		thr := m.K/2 - 1
		if xyyx {
			thr = 1
		}
		port := func(cur, dst topology.NodeID, yx bool) int {
			k := m.K
			cx, cy, dx, dy := int(cur)%k, int(cur)/k, int(dst)%k, int(dst)/k
			xport := func() int {
				far := cx-dx > thr || dx-cx > thr
				switch {
				case express && far && cy == 0:
					return topology.CMeshMinusY
				case express && far && cy == k-1:
					return topology.CMeshPlusY
				case cx < dx:
					return topology.CMeshPlusX
				}
				return topology.CMeshMinusX
			}
			yport := func() int {
				far := cy-dy > thr || dy-cy > thr
				switch {
				case express && far && cx == 0:
					return topology.CMeshMinusX
				case express && far && cx == k-1:
					return topology.CMeshPlusX
				case cy < dy:
					return topology.CMeshPlusY
				}
				return topology.CMeshMinusY
			}
			if yx && cy != dy || !yx && cx == dx {
				return yport()
			}
			return xport()
		}
		var lo, hi [2]int
		if xyyx {
			avail := nv / 2
			if avail == 0 {
				return nil, fmt.Errorf("routing booksim:%s,vcs=%d: it splits the VCs in two orders; it needs num_vcs >= 2", fn, nv)
			}
			lo, hi = [2]int{0, nv - 1 - avail}, [2]int{avail, nv - 1}
		}
		route := func(h Header, out []Output) []Output {
			if injectOr(g, h, nv, &out) {
				return out
			}
			r, dr := h.At, m.Router(h.Dst)
			if r == dr {
				return vcRange(out, g.ChannelBetween(r, h.Dst), 0, nv-1)
			}
			hop := func(yx bool) topology.ChannelID { return g.ChannelBetween(r, m.Neighbour(r, port(r, dr, yx))) }
			if !xyyx {
				return vcRange(out, hop(false), 0, nv-1)
			}
			xy, yx := true, true
			if !fromTerminal(g, h) {
				xy = h.In.VC < nv/2
				yx = !xy
			}
			if xy {
				out = vcRange(out, hop(false), lo[0], lo[1])
			}
			if yx {
				out = vcRange(out, hop(true), hi[0], hi[1])
			}
			return out
		}
		return newBookSim(fn, "cmesh", g, nv, nv, route), nil
	}
}

// flatflyCtx is what the flattened butterfly's functions read.
type flatflyCtx struct {
	g  *topology.Network
	f  *topology.FlatFly
	nv int
}

func flatflyFunc(fn string, f func(c flatflyCtx, fn string) (func(Header, []Output) []Output, int, error)) bookSimBuilder {
	return func(g *topology.Network, nv int) (Relation, error) {
		ff, ok := g.FlatFlyShape()
		if !ok {
			return nil, fmt.Errorf("routing booksim:%s needs a flattened butterfly (topology flatfly:k=4,n=2,c=4); %s is not one", fn, g.Spec())
		}
		route, vcs, err := f(flatflyCtx{g: g, f: ff, nv: nv}, fn)
		if err != nil {
			return nil, err
		}
		return newBookSim(fn, "flatfly", g, nv, vcs, route), nil
	}
}

// hop returns the channel BookSim's flatfly_outport (or flatfly_outport_yx with yx)
// takes from router r toward router dr: in the first (last) dimension whose digits
// differ, straight to dr's digit.
func (c flatflyCtx) hop(r, dr topology.NodeID, yx bool) topology.ChannelID {
	for i := 0; i < c.f.N; i++ {
		d := i
		if yx {
			d = c.f.N - 1 - i
		}
		if x := c.f.Digit(dr, d); c.f.Digit(r, d) != x {
			return c.g.ChannelBetween(r, c.f.WithDigit(r, d, x))
		}
	}
	return topology.None
}

// eject appends, at the destination's router, its channel to the destination on
// [0, nv-1] and reports true.
func (c flatflyCtx) eject(h Header, out *[]Output) bool {
	if c.f.Router(h.Dst) != h.At {
		return false
	}
	*out = vcRange(*out, c.g.ChannelBetween(h.At, h.Dst), 0, c.nv-1)
	return true
}

// flatflyMin is BookSim's ran_min (min_flatfly): despite its name, dimension order,
// lowest dimension first, on every VC.
func flatflyMin(c flatflyCtx, fn string) (func(Header, []Output) []Output, int, error) {
	return func(h Header, out []Output) []Output {
		if injectOr(c.g, h, c.nv, &out) || c.eject(h, &out) {
			return out
		}
		return vcRange(out, c.hop(h.At, c.f.Router(h.Dst), false), 0, c.nv-1)
	}, c.nv, nil
}

// flatflyXYYX: the dimension order drawn (xyyx) or chosen by credits (adaptive_xyyx)
// at the source router, ascending on the low half of the VCs, descending on the high
// half; after that the VC decides.
func flatflyXYYX(c flatflyCtx, fn string) (func(Header, []Output) []Output, int, error) {
	avail := c.nv / 2
	if avail == 0 {
		return nil, 0, fmt.Errorf("routing booksim:%s,vcs=%d: it splits the VCs in two orders; it needs num_vcs >= 2", fn, c.nv)
	}
	return func(h Header, out []Output) []Output {
		if injectOr(c.g, h, c.nv, &out) || c.eject(h, &out) {
			return out
		}
		dr := c.f.Router(h.Dst)
		xy, yx := true, true
		if !fromTerminal(c.g, h) {
			xy = h.In.VC < avail
			yx = !xy
		}
		if xy {
			out = vcRange(out, c.hop(h.At, dr, false), 0, c.nv-1-avail)
		}
		if yx {
			out = vcRange(out, c.hop(h.At, dr, true), avail, c.nv-1)
		}
		return out
	}, c.nv, nil
}

// flatflyValiant: at the source, an intermediate terminal drawn among all; dimension
// order to its router on the low half of the VCs, then to the destination on the high
// half; a head at the destination's router leaves there whatever its phase. The
// relation offers, in phase 0, a hop in every dimension above the one the head came
// in on, to every other router of it, and the start of phase 1 here.
func flatflyValiant(c flatflyCtx, fn string) (func(Header, []Output) []Output, int, error) {
	lo, hi, err := halves(fn, c.nv)
	if err != nil {
		return nil, 0, err
	}
	return func(h Header, out []Output) []Output {
		if injectOr(c.g, h, c.nv, &out) || c.eject(h, &out) {
			return out
		}
		dr := c.f.Router(h.Dst)
		if !fromTerminal(c.g, h) && inRange(h.In.VC, hi) {
			return vcRange(out, c.hop(h.At, dr, false), hi[0], hi[1])
		}
		out = c.anyHopAbove(h, out, lo, nil)
		return vcRange(out, c.hop(h.At, dr, false), hi[0], hi[1])
	}, c.nv, nil
}

// anyHopAbove appends, on VCs r, a hop to every other router in every dimension above
// the one h came in on (every dimension at the source router), in the order ascending
// or descending (yx), and only in dimensions where only (when not nil) is true.
func (c flatflyCtx) anyHopAbove(h Header, out []Output, r [2]int, only func(d int) bool) []Output {
	first := 0
	if !fromTerminal(c.g, h) {
		from := c.g.Channel(h.In.Channel).From
		for d := 0; d < c.f.N; d++ {
			if c.f.Digit(from, d) != c.f.Digit(h.At, d) {
				first = d + 1
			}
		}
	}
	for d := first; d < c.f.N; d++ {
		if only != nil && !only(d) {
			continue
		}
		for x := 0; x < c.f.K; x++ {
			if x != c.f.Digit(h.At, d) {
				out = vcRange(out, c.g.ChannelBetween(h.At, c.f.WithDigit(h.At, d, x)), r[0], r[1])
			}
		}
	}
	return out
}

// flatflyUGAL is BookSim's ugal_flatfly (and with xyyx ugal_xyyx_flatfly): at the
// source router, minimal (phase 2, the high half of the VCs) or, by comparing credits,
// toward an intermediate drawn in the box between source and destination (phase 1, the
// low half): its digit is the source's where source and destination agree, any other
// in the dimensions where they differ. Phase 1 goes in dimension order to the
// intermediate's router and then turns to phase 2. With xyyx the VCs are first split
// by the dimension order (low half ascending, high half descending) and each half by
// the phase. A phase-1 head passes through its destination's router without leaving.
func flatflyUGAL(xyyx bool) func(c flatflyCtx, fn string) (func(Header, []Output) []Output, int, error) {
	return func(c flatflyCtx, fn string) (func(Header, []Output) []Output, int, error) {
		// classes[order][phase-1]: the VC range of each (order, phase)
		var classes [2][2][2]int
		if !xyyx {
			lo, hi, err := halves(fn, c.nv)
			if err != nil {
				return nil, 0, err
			}
			classes[0] = [2][2]int{lo, hi}
		} else {
			if c.nv%4 != 0 {
				return nil, 0, fmt.Errorf("routing booksim:%s,vcs=%d: it splits the VCs by dimension order and then by phase; the relation tells the four classes apart only when num_vcs is a multiple of 4", fn, c.nv)
			}
			q := c.nv / 4
			for o := 0; o < 2; o++ {
				for p := 0; p < 2; p++ {
					classes[o][p] = [2]int{(2*o + p) * q, (2*o+p)*q + q - 1}
				}
			}
		}
		orders := 1
		if xyyx {
			orders = 2
		}
		return func(h Header, out []Output) []Output {
			if injectOr(c.g, h, c.nv, &out) {
				return out
			}
			dr := c.f.Router(h.Dst)
			src := fromTerminal(c.g, h)
			for o := 0; o < orders; o++ {
				ph, yx := 0, o == 1
				if !src {
					found := false
					for p := 0; p < 2; p++ {
						if inRange(h.In.VC, classes[o][p]) {
							ph, found = p+1, true
						}
					}
					if !found {
						continue
					}
				}
				if ph != 1 && c.eject(h, &out) { // phase 2 (or the source) at the destination's router
					return out
				}
				if ph == 2 {
					out = vcRange(out, c.hop(h.At, dr, yx), classes[o][1][0], classes[o][1][1])
					continue
				}
				if ph == 0 {
					// minimal, or an intermediate whose router is this one
					out = vcRange(out, c.hop(h.At, dr, yx), classes[o][1][0], classes[o][1][1])
				}
				out = c.ugalPhase1(h, out, classes[o][0], yx)
				if ph == 1 {
					// the intermediate's router is here: phase 2 from here
					if !c.eject(h, &out) {
						out = vcRange(out, c.hop(h.At, dr, yx), classes[o][1][0], classes[o][1][1])
					}
				}
			}
			return out
		}, c.nv, nil
	}
}

// flatflyUGALPNI is BookSim's ugal_pni_flatfly, UGAL "partially non-interfering": the
// choices of ugal_flatfly, each hop's VC range narrowed to one of K equal blocks named
// by the destination's coordinate in the dimension after the hop's (its router's digit
// there; after the last dimension its port at its router), so that worms toward
// different coordinates never share a VC there. The injection's range [0, nv-1] is
// narrowed by the destination router's first digit, an ejection's not at all. BookSim
// asserts k = c and at least one VC per block.
func flatflyUGALPNI(c flatflyCtx, fn string) (func(Header, []Output) []Output, int, error) {
	if c.f.K != c.f.C {
		return nil, 0, fmt.Errorf("routing booksim:%s needs k = c (BookSim asserts it: the blocks of VCs are named by a coordinate or a port); %s has k=%d, c=%d", fn, c.g.Spec(), c.f.K, c.f.C)
	}
	lo, hi, err := halves(fn, c.nv)
	if err != nil {
		return nil, 0, err
	}
	per := (lo[1] - lo[0] + 1) / c.f.K
	if per == 0 {
		return nil, 0, fmt.Errorf("routing booksim:%s,vcs=%d: it gives each of the k=%d coordinates VCs of its own in each phase; it needs num_vcs >= %d", fn, c.nv, c.f.K, 2*c.f.K)
	}
	ugal, _, _ := flatflyUGAL(false)(c, fn)
	return func(h Header, out []Output) []Output {
		n := len(out)
		out = ugal(h, out)
		kept := out[:n]
		for _, o := range out[n:] {
			if c.pniBlock(h, o, lo, hi, per) {
				kept = append(kept, o)
			}
		}
		return kept
	}, c.nv, nil
}

// pniBlock reports whether output o of header h is in the block of VCs ugal_pni gives
// it (flatflyUGALPNI): per VCs of its phase's range lo or hi, or of the injection's.
func (c flatflyCtx) pniBlock(h Header, o Output, lo, hi [2]int, per int) bool {
	ch := c.g.Channel(o.Channel)
	dr := c.f.Router(h.Dst)
	switch {
	case c.g.Terminal(ch.To):
		return true
	case c.g.Terminal(ch.From):
		return o.VC/(c.nv/c.f.K) == c.f.Digit(dr, 0)
	}
	next := c.f.N
	for d := 0; d < c.f.N; d++ {
		if c.f.Digit(ch.From, d) != c.f.Digit(ch.To, d) {
			next = d + 1
		}
	}
	coord := c.f.Port(h.Dst)
	if next < c.f.N {
		coord = c.f.Digit(dr, next)
	}
	base := lo[0]
	if inRange(o.VC, hi) {
		base = hi[0]
	}
	return (o.VC-base)/per == coord
}

// ugalPhase1 appends the phase-1 hops toward an intermediate in the box: in dimension
// order (descending with yx) after the dimension the head came in on, to any other
// digit in a dimension where here and the destination differ (the box's free
// dimensions: the unvisited digits are still the source's).
func (c flatflyCtx) ugalPhase1(h Header, out []Output, r [2]int, yx bool) []Output {
	dr := c.f.Router(h.Dst)
	free := func(d int) bool { return c.f.Digit(h.At, d) != c.f.Digit(dr, d) }
	if !yx {
		return c.anyHopAbove(h, out, r, free)
	}
	last := c.f.N - 1
	if !fromTerminal(c.g, h) {
		from := c.g.Channel(h.In.Channel).From
		for d := c.f.N - 1; d >= 0; d-- {
			if c.f.Digit(from, d) != c.f.Digit(h.At, d) {
				last = d - 1
			}
		}
	}
	for d := last; d >= 0; d-- {
		if !free(d) {
			continue
		}
		for x := 0; x < c.f.K; x++ {
			if x != c.f.Digit(h.At, d) {
				out = vcRange(out, c.g.ChannelBetween(h.At, c.f.WithDigit(h.At, d, x)), r[0], r[1])
			}
		}
	}
	return out
}

// treeNCA: BookSim's functions on its trees, qtree_nca, tree4_nca and tree4_anca: up
// until the router is an ancestor of the destination, then down the one way; every VC.
// On the quad tree the way up is one parent; on tree4 a leaf draws one of its two
// middle routers, a middle router one of the four roots (tree4_anca offers the four
// and its router picks by credits), and a root one of the two middle routers above the
// destination's leaves (both functions draw there).
func treeNCA(fn, kind string) bookSimBuilder {
	return func(g *topology.Network, nv int) (Relation, error) {
		if k, ok := g.BookSimTree(); !ok || k != kind {
			return nil, fmt.Errorf("routing booksim:%s needs BookSim's %s (topology %s:k=4,n=3); %s is not one", fn, kind, kind, g.Spec())
		}
		route := func(h Header, out []Output) []Output {
			if injectOr(g, h, nv, &out) {
				return out
			}
			var buf [4]topology.NodeID
			for _, next := range treeNext(g, kind, h, buf[:0]) {
				out = vcRange(out, g.ChannelBetween(h.At, next), 0, nv-1)
			}
			return out
		}
		return newBookSim(fn, kind, g, nv, nv, route), nil
	}
}

// treeNext appends the nodes BookSim's function on tree kind may send h's head to
// from its router (treeNCA).
func treeNext(g *topology.Network, kind string, h Header, out []topology.NodeID) []topology.NodeID {
	t, _ := g.TerminalNumber(h.Dst)
	lv, p := g.TreeRouter(h.At)
	if kind == "qtree" {
		d := t // the destination's ancestor on level lv+1 (the terminal below a leaf)
		for i := lv + 1; i < 3; i++ {
			d /= 4
		}
		switch {
		case p != d/4:
			return append(out, g.TreeNode(lv-1, p/4))
		case lv == 2:
			return append(out, h.Dst)
		}
		return append(out, g.TreeNode(lv+1, d))
	}
	switch {
	case lv == 0:
		return append(out, g.TreeNode(1, 2*(t/16)), g.TreeNode(1, 2*(t/16)+1))
	case lv == 1 && t/16 == p/2:
		return append(out, g.TreeNode(2, t/4))
	case lv == 1:
		return append(out, g.TreeNode(0, 0), g.TreeNode(0, 1), g.TreeNode(0, 2), g.TreeNode(0, 3))
	case t/4 == p:
		return append(out, h.Dst)
	}
	return append(out, g.TreeNode(1, 2*(p/4)), g.TreeNode(1, 2*(p/4)+1))
}

// destTagFly: destination-tag routing on a k-ary n-fly: stage s takes the output
// named by digit n-1-s of the destination; every VC.
func destTagFly(g *topology.Network, nv int) (Relation, error) {
	f, ok := g.FlyShape()
	if !ok {
		return nil, fmt.Errorf("routing booksim:dest_tag needs a k-ary n-fly (topology fly:k=2,n=3); %s is not one", g.Spec())
	}
	route := func(h Header, out []Output) []Output {
		if injectOr(g, h, nv, &out) {
			return out
		}
		s := f.Stage(h.At)
		t := int(h.Dst) - f.N*f.PerStage()
		if s == f.N-1 {
			return vcRange(out, g.ChannelBetween(h.At, h.Dst), 0, nv-1)
		}
		for i := s; i < f.N-1; i++ {
			t /= f.K
		}
		return vcRange(out, g.ChannelBetween(h.At, f.Next(h.At, t%f.K)), 0, nv-1)
	}
	return newBookSim("dest_tag", "fly", g, nv, nv, route), nil
}

// ncaFatTree: BookSim's nca (one up port drawn) and anca (the less loaded of two drawn)
// on a fat-tree: up on any up port until the switch is an ancestor of the
// destination, then down the one way; every VC.
func ncaFatTree(fn string) bookSimBuilder {
	return func(g *topology.Network, nv int) (Relation, error) {
		base, err := NewFatTreeNCA(g)
		if err != nil {
			return nil, fmt.Errorf("routing booksim:%s needs a fat-tree (topology fattree:K,N); %s is not one", fn, g.Spec())
		}
		route := func(h Header, out []Output) []Output {
			var buf [64]Output
			for _, o := range base.Route(h, buf[:0]) {
				out = vcRange(out, o.Channel, 0, nv-1)
			}
			return out
		}
		return newBookSim(fn, "fattree", g, nv, nv, route), nil
	}
}

// minDragonfly is BookSim's min_dragonflynew: minimal (local, global, local), VC 0
// until the global channel and VC 1 from it, also on the channel to the destination
// terminal; BookSim injects on any VC.
func minDragonfly(g *topology.Network, nv int) (Relation, error) {
	d, ok := g.DragonflyShape()
	if !ok || d.Arrangement != "absolute" || d.P != d.H || d.A != 2*d.P || d.G != d.A*d.H+1 {
		return nil, fmt.Errorf("routing booksim:min needs BookSim's dragonflynew (topology dragonfly:a=2p,p=p,h=p); %s is not one", g.Spec())
	}
	if nv < 2 {
		return nil, fmt.Errorf("routing booksim:min,vcs=%d: it takes VC 1 from the global channel on; it needs num_vcs >= 2", nv)
	}
	route := func(h Header, out []Output) []Output {
		if injectOr(g, h, nv, &out) {
			return out
		}
		c, global := dragonflyMinHop(g, d, h.At, h.Dst)
		vc := 0
		if global || !fromTerminal(g, h) && h.In.VC == 1 {
			vc = 1
		}
		return append(out, Output{Channel: c, VC: vc})
	}
	return newBookSim("min", "dragonflynew", g, nv, nv, route), nil
}

// ugalDragonfly is BookSim's ugal_dragonflynew (3 VCs, as it asserts): at the source
// router, minimal (phase 1: VC 1 until the global channel, VC 2 from it) or, by
// comparing credits, toward an intermediate router drawn in another group (phase 0,
// VC 0: minimal to it), then phase 1 from there; a destination in the source group
// is reached minimally on VC 2. Phase 0 on VC 0 is read apart in the source group (a
// local hop to the gateway, then the global channel) and in the intermediate group
// (at most one local hop to the intermediate): the relation reads the source's group.
func ugalDragonfly(g *topology.Network, nv int) (Relation, error) {
	d, ok := g.DragonflyShape()
	if !ok || d.Arrangement != "absolute" || d.P != d.H || d.A != 2*d.P || d.G != d.A*d.H+1 {
		return nil, fmt.Errorf("routing booksim:ugal needs BookSim's dragonflynew (topology dragonfly:a=2p,p=p,h=p); %s is not one", g.Spec())
	}
	if nv != 3 {
		return nil, fmt.Errorf("routing booksim:ugal,vcs=%d: BookSim asserts num_vcs = 3", nv)
	}
	minHop := func(at, dst topology.NodeID, vc int, out []Output) []Output {
		c, global := dragonflyMinHop(g, d, at, dst)
		if global && vc == 1 {
			vc = 2
		}
		return append(out, Output{Channel: c, VC: vc})
	}
	route := func(h Header, out []Output) []Output {
		if injectOr(g, h, nv, &out) {
			return out
		}
		ga, gd, gs := d.Group(h.At), d.Group(h.Dst), d.Group(h.Src)
		if fromTerminal(g, h) {
			if ga == gd {
				return minHop(h.At, h.Dst, 2, out)
			}
			out = minHop(h.At, h.Dst, 1, out)
			// phase 0 toward an intermediate router in another group: the hops toward
			// each such group
			first := len(out)
			for j := 0; j < d.G; j++ {
				if j == ga {
					continue
				}
				c, _ := dragonflyMinHop(g, d, h.At, topology.NodeID(j*d.A))
				dup := false
				for _, o := range out[first:] {
					dup = dup || o.Channel == c
				}
				if !dup {
					out = append(out, Output{Channel: c})
				}
			}
			return out
		}
		in := g.Channel(h.In.Channel)
		switch h.In.VC {
		case 1, 2:
			return minHop(h.At, h.Dst, h.In.VC, out)
		}
		// phase 0 (VC 0)
		global := d.Group(in.From) != ga
		switch {
		case ga == gs && !global: // at the gateway of the source group: its global channels
			var buf [64]topology.ChannelID
			for _, c := range g.AppendOut(buf[:0], h.At) {
				if to := g.Channel(c).To; !g.Terminal(to) && d.Group(to) != ga {
					out = append(out, Output{Channel: c})
				}
			}
			return out
		case global: // arrived in the intermediate group: here, or one local hop on
			var buf [64]topology.ChannelID
			for _, c := range g.AppendOut(buf[:0], h.At) {
				if to := g.Channel(c).To; !g.Terminal(to) && d.Group(to) == ga {
					out = append(out, Output{Channel: c})
				}
			}
		}
		// the intermediate router is here: phase 1
		return minHop(h.At, h.Dst, 1, out)
	}
	rel := newBookSim("ugal", "dragonflynew", g, nv, nv, route)
	rel.srcClass, rel.srcClasses = func(src topology.NodeID) int { return d.Group(src) }, d.G
	return bookSimSourced{rel}, nil
}

// minAnynet is BookSim's min_anynet: the next hop of a table BookSim builds from each
// router with Dijkstra's algorithm over the router channels' latencies (ties to the
// lower router id), one next hop per (router, destination router); every VC.
func minAnynet(g *topology.Network, nv int) (Relation, error) {
	if !g.IsGraph() {
		return nil, fmt.Errorf("routing booksim:min needs an anynet network (topology file:PATH); %s is a %s", g.Spec(), g.Kind())
	}
	next, routerOf, err := anynetTable(g)
	if err != nil {
		return nil, err
	}
	n := g.Nodes()
	route := func(h Header, out []Output) []Output {
		if injectOr(g, h, nv, &out) {
			return out
		}
		dr := routerOf[h.Dst]
		if dr == h.At {
			return vcRange(out, g.ChannelBetween(h.At, h.Dst), 0, nv-1)
		}
		c := next[int(h.At)*n+int(dr)]
		if c == topology.None {
			return out
		}
		return vcRange(out, c, 0, nv-1)
	}
	return newBookSim("min", "anynet", g, nv, nv, route), nil
}

// anynetTable computes BookSim's min_anynet table (AnyNet::route): from every router,
// Dijkstra's algorithm over the router-to-router channels weighted by their latency,
// taking the unvisited router of least distance (the lowest id on a tie) and relaxing
// only on a strictly shorter distance; the next hop toward router i is the first
// channel of the tree's path to it. next[r*n+i] is that channel (None for r = i);
// routerOf[t] is terminal t's router. Cost O(routers^2 x degree).
func anynetTable(g *topology.Network) (next []topology.ChannelID, routerOf []topology.NodeID, err error) {
	n := g.Nodes()
	if n > maxTableNodes {
		return nil, nil, fmt.Errorf("routing booksim:min: %s has %d nodes; at most %d", g.Spec(), n, maxTableNodes)
	}
	routerOf = make([]topology.NodeID, n)
	var routers []topology.NodeID
	var buf []topology.ChannelID
	for v := topology.NodeID(0); int(v) < n; v++ {
		routerOf[v] = v
		if !g.Terminal(v) {
			routers = append(routers, v)
			continue
		}
		out := g.AppendOut(buf[:0], v)
		if len(out) != 1 {
			return nil, nil, fmt.Errorf("routing booksim:min: terminal %s has %d channels out; BookSim's anynet joins a terminal to one router", g.NodeName(v), len(out))
		}
		routerOf[v] = g.Channel(out[0]).To
	}
	next = make([]topology.ChannelID, n*n)
	for i := range next {
		next[i] = topology.None
	}
	const inf = int(^uint(0) >> 1)
	dist := make([]int, n)
	prev := make([]topology.NodeID, n)
	done := make([]bool, n)
	for _, s := range routers {
		for _, r := range routers {
			dist[r], prev[r], done[r] = inf, topology.None, false
		}
		dist[s] = 0
		for range routers {
			u := topology.NodeID(topology.None)
			for _, r := range routers {
				if !done[r] && (u == topology.None || dist[r] < dist[u]) {
					u = r
				}
			}
			done[u] = true
			if dist[u] == inf {
				continue
			}
			for _, c := range g.AppendOut(buf[:0], u) {
				to := g.Channel(c).To
				if g.Terminal(to) {
					continue
				}
				if nd := dist[u] + g.Weight(c); nd < dist[to] {
					dist[to], prev[to] = nd, u
				}
			}
		}
		for _, r := range routers {
			if r == s || prev[r] == topology.None {
				continue
			}
			hop := r
			for prev[hop] != s {
				hop = prev[hop]
			}
			next[int(s)*n+int(r)] = g.ChannelBetween(s, hop)
		}
	}
	return next, routerOf, nil
}
