package routing

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/topology"
)

// Adaptive is minimal fully adaptive routing on one virtual channel: every channel that
// brings the header one hop closer to its destination is permitted (both ways round a
// tied ring). Its channel dependency graph has every turn, so it is cyclic on any 2-D
// mesh of at least 2x2, and the cycle is a real deadlock (claim RT2).
//
// Reference: Dally & Seitz, "Deadlock-Free Message Routing in Multiprocessor
// Interconnection Networks" (IEEE TC 36(5), 1987): a routing function whose channel
// dependency graph is cyclic can deadlock; Duato (IEEE TPDS 4(12), 1993) §1 uses this
// relation as the motivating example for escape channels.
type Adaptive struct {
	m geom
}

// NewAdaptive returns minimal fully adaptive routing on g (any mesh, torus or
// hypercube).
func NewAdaptive(g *topology.Network) *Adaptive { return &Adaptive{m: newGeom(g)} }

// Name returns "adaptive".
func (a *Adaptive) Name() string { return "adaptive" }

// Grid returns the relation's topology.
func (a *Adaptive) Grid() *topology.Network { return a.m.g }

// VCs is 1.
func (a *Adaptive) VCs() int { return 1 }

// Route appends every productive channel on VC 0, in dimension order. Cost
// O(dimensions).
func (a *Adaptive) Route(h Header, out []Output) []Output { return a.m.productive(h, 0, out) }

// Duato is Duato's fully adaptive minimal routing with a dimension-order escape
// subnetwork: the last virtual channel of every physical channel is adaptive (every
// productive channel), the others are escape channels routed in dimension order
// (dimension 0 first). On a mesh or hypercube there is one escape VC (VC 0, e-cube on
// the hypercube) and VCs() = 2; on a grid with wrap-around channels there are two
// escape VCs with dateline classes (VC 0 while the ring's wrap-around channel is still
// ahead of the header, VC 1 on it and after it) and VCs() = 3. Outputs list the
// adaptive choices first and the escape channel last, as a router prefers them. A
// header may return from an escape channel to an adaptive one.
//
// The escape VC class is a function of the header's position and destination only, not
// of how it arrived, so that the extended channel dependency graph stays acyclic when
// headers come back from adaptive channels (a header that crossed a ring's wrap-around
// channel on an adaptive VC must not re-enter the escape ring below the dateline).
//
// Reference: Duato, "A New Theory of Deadlock-Free Adaptive Routing in Wormhole
// Networks" (IEEE TPDS 4(12), 1993), Theorem 1 and the example of §4 (a connected
// routing subfunction R1 — here the escape VCs — whose extended channel dependency graph
// has no cycles makes R deadlock-free although R's own channel dependency graph is
// cyclic); Dally & Seitz 1987 for the dateline classes. Claim RT4.
type Duato struct {
	m      geom
	escape int // number of escape VCs (1 or 2); the adaptive VC is escape
	wraps  bool
	name   string
}

// NewDuato returns Duato's relation on g.
func NewDuato(g *topology.Network) *Duato {
	d := &Duato{m: newGeom(g), escape: 1, name: "duato"}
	for _, w := range d.m.wraps {
		if w {
			d.wraps, d.escape = true, 2
		}
	}
	return d
}

// newDuatoNoDateline returns Duato's structure without dateline classes, as relations
// are often first written: VC 1 fully adaptive and minimal, VC 0 dimension order with
// no dateline, VCs() = 2 on every grid. On a mesh or hypercube it is Duato's relation;
// on a torus the escape rings are cyclic, Duato's condition fails, and worms that fill
// a ring's escape VCs while the adaptive VCs they wait for are held deadlock, with more
// worms the larger the torus (the exact decision's multi-VC case).
func newDuatoNoDateline(g *topology.Network) *Duato {
	return &Duato{m: newGeom(g), escape: 1, name: "duato-nodateline"}
}

// Name returns "duato" or "duato-nodateline".
func (d *Duato) Name() string { return d.name }

// Grid returns the relation's topology.
func (d *Duato) Grid() *topology.Network { return d.m.g }

// VCs is 2 on meshes and hypercubes, 3 on tori (2 without dateline classes).
func (d *Duato) VCs() int { return d.escape + 1 }

// Escape reports whether o is in the escape subfunction: its VC is an escape VC.
func (d *Duato) Escape(_ Header, o Output) bool { return o.VC < d.escape }

// Route appends the adaptive outputs, then the escape output. Cost O(dimensions).
func (d *Duato) Route(h Header, out []Output) []Output {
	out = d.m.productive(h, d.escape, out)
	return d.escapeHop(h, out)
}

// escapeHop appends the dimension-order escape hop of h with its dateline class.
func (d *Duato) escapeHop(h Header, out []Output) []Output {
	m := &d.m
	for dim := 0; dim < m.dims; dim++ {
		n, dir, _ := m.offset(h.At, h.Dst, dim)
		if n == 0 {
			continue
		}
		vc := 0
		if d.wraps && m.wraps[dim] {
			// Class 0 while the wrap-around channel lies strictly ahead, class 1 on it
			// and after it (or when the ring is never wrapped on this route).
			x, k := m.at(h.At, dim), m.size[dim]
			ahead := false
			if dir == topology.Plus {
				ahead = x != k-1 && x+n >= k
			} else {
				ahead = x != 0 && x-n < 0
			}
			if !ahead {
				vc = 1
			}
		}
		return append(out, Output{Channel: m.out(h.At, dim, dir), VC: vc})
	}
	return out
}

// nonMinimal is adaptive routing that may misroute, on one virtual channel: it permits
// every productive channel and, after them, every other channel leaving the router
// except the reverse of the one the header arrived on, each marked Misroute. So a
// misroute never turns back (180 degrees), but a productive hop may: after a misroute
// the way back is productive, and the header may take it (a productive U-turn). Without a budget a header may misroute forever, so it can livelock (claim
// RT6); BudgetedNonMinimal bounds the misroutes.
//
// Reference: the misrouting of chaos and deflection routers (Konstantinidou & Snyder,
// "The Chaos Router", IEEE TC 43(12), 1994) and the misroute bound of Glass & Ni's
// nonminimal turn model; stated here without a turn restriction so that the state graph
// can show both livelock (no budget) and its cure (a budget).
type nonMinimal struct {
	m      geom
	budget int // < 0: unbounded
}

// newNonMinimal returns the non-minimal relation on g without a misroute budget.
func newNonMinimal(g *topology.Network) *nonMinimal { return &nonMinimal{m: newGeom(g), budget: -1} }

// Name returns "nonminimal".
func (n *nonMinimal) Name() string { return "nonminimal" }

// Grid returns the relation's topology.
func (n *nonMinimal) Grid() *topology.Network { return n.m.g }

// VCs is 1.
func (n *nonMinimal) VCs() int { return 1 }

// budgetedNonMinimal is NonMinimal with a misroute budget: a header that has misrouted
// Budget times is routed minimally, so every route is at most 2*Budget hops longer than
// a minimal one and no header can circle for ever. It implements Budgeted, so the model
// counts each worm's misroutes.
type budgetedNonMinimal struct {
	nonMinimal
}

// newBudgetedNonMinimal returns the non-minimal relation on g with misroute budget b
// (b >= 0).
func newBudgetedNonMinimal(g *topology.Network, b int) (*budgetedNonMinimal, error) {
	if b < 0 || b > MaxMisrouteBudget {
		return nil, fmt.Errorf("misroute budget %d out of range; it must be 0..%d", b, MaxMisrouteBudget)
	}
	return &budgetedNonMinimal{nonMinimal{m: newGeom(g), budget: b}}, nil
}

// MaxMisrouteBudget bounds a misroute budget, so that the misroute counter of the
// model's state and the static proof's header classes stay small.
const MaxMisrouteBudget = 64

// Name returns "nonminimal:B".
func (n *budgetedNonMinimal) Name() string { return fmt.Sprintf("nonminimal:%d", n.budget) }

// MisrouteBudget returns the budget.
func (n *budgetedNonMinimal) MisrouteBudget() int { return n.budget }

// Route appends the productive channels, then (while the budget allows) the misroutes
// in dimension order. Cost O(dimensions).
func (n *nonMinimal) Route(h Header, out []Output) []Output {
	m := &n.m
	start := len(out)
	out = m.productive(h, 0, out)
	if n.budget >= 0 && h.Misroutes >= n.budget {
		return out
	}
	back := topology.ChannelID(topology.None)
	if h.In.Channel != Injection {
		ch := m.g.Channel(h.In.Channel)
		back = m.out(h.At, ch.Dim, 1-ch.Dir)
	}
	for d := 0; d < m.dims; d++ {
		for dir := topology.Plus; dir <= topology.Minus; dir++ {
			c := m.out(h.At, d, dir)
			if c == topology.None || c == back || contains(out[start:], c) {
				continue
			}
			out = append(out, Output{Channel: c, Misroute: true})
		}
	}
	return out
}

func contains(outs []Output, c topology.ChannelID) bool {
	for _, o := range outs {
		if o.Channel == c {
			return true
		}
	}
	return false
}

// Positional is true: Route does not read In.
func (a *Adaptive) Positional() bool { return true }

// Positional is true: Route does not read In.
func (d *Duato) Positional() bool { return true }

// EscapeRank orders the escape channels as dimension-order routing uses them:
// dimension, then direction (Plus before Minus: a tied ring may be left Plus for Minus,
// never back), then dateline class, then position along the direction (the wrap-around
// channel first in class 1), then the other coordinates. Every dependency of the
// extended graph follows this order (Duato 1993, §4 argues it for meshes).
func (d *Duato) EscapeRank(c topology.ChannelID, vc int) int {
	key := d.EscapeLevel(c, vc)
	if key < 0 {
		return -1
	}
	return key*d.m.g.Nodes() + int(d.m.g.Channel(c).From)
}

// EscapeLevel is EscapeRank without the tie-break by node: dimension, direction,
// dateline class and position along the direction. Along a minimal route the level of
// the escape hops offered strictly increases after an escape hop is taken (the header
// has moved past its position, or on to a later class or dimension).
func (d *Duato) EscapeLevel(c topology.ChannelID, vc int) int {
	if vc >= d.escape {
		return -1
	}
	m := &d.m
	ch := m.g.Channel(c)
	k := m.size[ch.Dim]
	x := m.at(ch.From, ch.Dim)
	pos := x
	if ch.Dir == topology.Minus {
		pos = k - 1 - x
	}
	if ch.Wrap {
		pos = -1
	}
	return ((ch.Dim*2+int(ch.Dir))*2+vc)*(k+1) + pos + 1
}
