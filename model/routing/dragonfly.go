package routing

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/topology"
)

// DragonflyMin is minimal routing on a dragonfly (Kim, Dally, Scott & Abts,
// "Technology-Driven, Highly-Scalable Dragonfly Topology", ISCA 2008, §4.1): a local
// channel to the router of the source group that holds the global link to the
// destination's group, that global channel, a local channel to the destination's router.
// With Classes, the hops up to the global channel take VC 0 and the global channel and
// the hops after it VC 1 (as BookSim's min_dragonflynew), which makes it deadlock-free;
// without them (one VC) the local channels of a group are both first and last hops, the
// channel dependency graph closes through the groups, and it deadlocks (claim AN3).
type DragonflyMin struct {
	g       *topology.Network
	d       *topology.Dragonfly
	Classes bool
}

// NewDragonflyMin returns minimal routing on dragonfly g, with or without its VC classes.
func NewDragonflyMin(g *topology.Network, classes bool) (*DragonflyMin, error) {
	d, ok := g.DragonflyShape()
	if !ok {
		return nil, fmt.Errorf("routing dragonfly-min needs a dragonfly (topology dragonfly:a=A,p=P,h=H); %s is not one", g.Spec())
	}
	return &DragonflyMin{g: g, d: d, Classes: classes}, nil
}

// Name returns "dragonfly-min", or "dragonfly-min-1vc" without classes.
func (r *DragonflyMin) Name() string {
	if r.Classes {
		return "dragonfly-min"
	}
	return "dragonfly-min-1vc"
}

// Grid returns the dragonfly.
func (r *DragonflyMin) Grid() *topology.Network { return r.g }

// VCs is 2 with classes, 1 without.
func (r *DragonflyMin) VCs() int {
	if r.Classes {
		return 2
	}
	return 1
}

// Route appends the one minimal hop of h.
func (r *DragonflyMin) Route(h Header, out []Output) []Output {
	c, global := dragonflyMinHop(r.g, r.d, h.At, h.Dst)
	if c == topology.None {
		return out
	}
	vc := 0
	if r.Classes && (global || h.In.Channel != Injection && h.In.VC == 1 || r.d.Group(h.At) == r.d.Group(h.Dst) && r.d.Router(h.At) == r.d.Router(h.Dst)) {
		vc = 1
	}
	return append(out, Output{Channel: c, VC: vc})
}

// dragonflyMinHop returns the next channel of the minimal route from node at toward dst
// and whether it is a global channel; None when at is dst.
func dragonflyMinHop(g *topology.Network, d *topology.Dragonfly, at, dst topology.NodeID) (topology.ChannelID, bool) {
	if at == dst {
		return topology.None, false
	}
	ra, rd := d.Router(at), d.Router(dst)
	switch {
	case at != ra: // a terminal: to its router
		return g.ChannelBetween(at, ra), false
	case ra == rd: // at the destination's router: to the terminal
		return g.ChannelBetween(at, dst), false
	}
	ga, gd := d.Group(at), d.Group(dst)
	if ga == gd {
		return g.ChannelBetween(at, rd), false
	}
	gw := d.Gateway(ga, gd)
	if gw != at {
		return g.ChannelBetween(at, gw), false
	}
	far := d.Gateway(gd, ga)
	return g.ChannelBetween(at, far), true
}

// DragonflyValiant is Valiant's randomised routing on a dragonfly (Kim et al., ISCA
// 2008, §4.1; Valiant & Brebner 1981): a worm goes minimally to some intermediate group
// other than its own, then minimally to its destination. As a relation it offers every
// intermediate group: at the source router, every global channel of that router and a
// local hop (VC 0) to every other router of the group, which must then take one of its
// own global channels. Three VC classes keep it deadlock-free: VC 0 in the source group
// and on the first global channel, VC 1 in the intermediate group and on the second
// global channel, VC 2 in the destination group. A worm whose intermediate group is
// its destination's goes on in VC 2. Within one group it routes minimally (VC 2).
type DragonflyValiant struct {
	g *topology.Network
	d *topology.Dragonfly
}

// NewDragonflyValiant returns Valiant routing on dragonfly g.
func NewDragonflyValiant(g *topology.Network) (*DragonflyValiant, error) {
	d, ok := g.DragonflyShape()
	if !ok {
		return nil, fmt.Errorf("routing dragonfly-valiant needs a dragonfly (topology dragonfly:a=A,p=P,h=H); %s is not one", g.Spec())
	}
	return &DragonflyValiant{g: g, d: d}, nil
}

// Name returns "dragonfly-valiant".
func (r *DragonflyValiant) Name() string { return "dragonfly-valiant" }

// Grid returns the dragonfly.
func (r *DragonflyValiant) Grid() *topology.Network { return r.g }

// VCs is 3.
func (r *DragonflyValiant) VCs() int { return 3 }

// Route appends the hops of h's phase: the detour to an intermediate group (VC 0), the
// way to the destination's group from there (VC 1), the last local and terminal hops
// (VC 2).
func (r *DragonflyValiant) Route(h Header, out []Output) []Output {
	g, d := r.g, r.d
	at := h.At
	ra := d.Router(at)
	if at != ra { // a terminal: to its router
		return append(out, Output{Channel: g.ChannelBetween(at, ra)})
	}
	ga, gd := d.Group(at), d.Group(h.Dst)
	fresh := h.In.Channel == Injection || g.Terminal(g.Channel(h.In.Channel).From)
	global := !fresh && d.Group(g.Channel(h.In.Channel).From) != ga
	phase := 0 // 0: source group, 1: intermediate group, 2: destination group
	switch {
	case ga == gd && (fresh || global || h.In.VC == 2):
		phase = 2
	case global && h.In.VC == 0 || !fresh && !global && h.In.VC == 1:
		phase = 1
	}
	if phase > 0 {
		c, _ := dragonflyMinHop(g, d, at, h.Dst)
		if c == topology.None {
			return out
		}
		return append(out, Output{Channel: c, VC: phase})
	}
	// Phase 0, in the source group: every global channel of this router; from the
	// source router also a local hop to every router that has one.
	var buf [64]topology.ChannelID
	for _, c := range g.AppendOut(buf[:0], at) {
		to := g.Channel(c).To
		if g.Terminal(to) {
			continue
		}
		if d.Group(to) != ga {
			out = append(out, Output{Channel: c})
		} else if fresh && r.hasGlobal(to) {
			out = append(out, Output{Channel: c})
		}
	}
	return out
}

// hasGlobal reports whether router v has a global channel.
func (r *DragonflyValiant) hasGlobal(v topology.NodeID) bool {
	var buf [64]topology.ChannelID
	for _, c := range r.g.AppendOut(buf[:0], v) {
		to := r.g.Channel(c).To
		if !r.g.Terminal(to) && r.d.Group(to) != r.d.Group(v) {
			return true
		}
	}
	return false
}

// FatTreeNCA is up/down routing on a k-ary n-tree through a nearest common ancestor
// (Petrini & Vanneschi, IPPS 1997, §3; BookSim's nca): a worm goes up, on any of the K
// up channels of each switch, until it reaches a switch that is an ancestor of its
// destination, then down the one path to it. Every route is up channels then down
// channels in the tree's level order, so the channel dependency graph is acyclic and
// the relation is deadlock-free (claim AN4). It routes between terminals.
type FatTreeNCA struct {
	g *topology.Network
	t *topology.FatTree
}

// NewFatTreeNCA returns up/down routing on fat-tree g.
func NewFatTreeNCA(g *topology.Network) (*FatTreeNCA, error) {
	t, ok := g.FatTreeShape()
	if !ok {
		return nil, fmt.Errorf("routing fattree-nca needs a fat-tree (topology fattree:K,N); %s is not one", g.Spec())
	}
	return &FatTreeNCA{g: g, t: t}, nil
}

// Name returns "fattree-nca".
func (r *FatTreeNCA) Name() string { return "fattree-nca" }

// Grid returns the fat-tree.
func (r *FatTreeNCA) Grid() *topology.Network { return r.g }

// VCs is 1.
func (r *FatTreeNCA) VCs() int { return 1 }

// Positional is true: Route reads At and Dst only.
func (r *FatTreeNCA) Positional() bool { return true }

// Route appends the down channel toward h.Dst from an ancestor of it, else every up
// channel. A destination that is not a terminal gets no output.
func (r *FatTreeNCA) Route(h Header, out []Output) []Output {
	t, g := r.t, r.g
	if t.Level(h.Dst) != t.N {
		return out
	}
	per := t.PerLevel()
	p := t.Word(h.Dst)
	l, w := t.Level(h.At), t.Word(h.At)
	if l == t.N { // a terminal: up to its leaf
		return append(out, Output{Channel: g.ChannelBetween(h.At, topology.NodeID((t.N-1)*per+w%per))})
	}
	ancestor := true
	for i := 0; i < l; i++ {
		if t.Digit(w, i) != t.Digit(p, i) {
			ancestor = false
			break
		}
	}
	if ancestor {
		if l == t.N-1 {
			return append(out, Output{Channel: g.ChannelBetween(h.At, h.Dst)})
		}
		child := w + (t.Digit(p, l)-t.Digit(w, l))*pow(t.K, l)
		return append(out, Output{Channel: g.ChannelBetween(h.At, topology.NodeID((l+1)*per+child))})
	}
	for x := 0; x < t.K; x++ {
		parent := w + (x-t.Digit(w, l-1))*pow(t.K, l-1)
		out = append(out, Output{Channel: g.ChannelBetween(h.At, topology.NodeID((l-1)*per+parent))})
	}
	return out
}

func pow(k, e int) int {
	p := 1
	for ; e > 0; e-- {
		p *= k
	}
	return p
}
