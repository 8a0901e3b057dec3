// Package routing states routing relations: for a header at a router that arrived on an
// input (channel, virtual channel) and is heading to a destination, the ordered set of
// permitted outputs (channel, virtual channel). A deterministic routing function is the
// one-element case. The flit model branches on every free permitted output, so a
// relation's verdicts cover every selection function.
//
// Reference: Duato, "A New Theory of Deadlock-Free Adaptive Routing in Wormhole
// Networks" (routing relation R: C x N -> P(C), channel dependency graphs); Dally &
// Seitz (dimension order, dateline virtual channels).
package routing

import "github.com/wormcheck/wormcheck/model/topology"

// Injection is the Input.Channel of a header still at its source (it has not yet
// crossed a network channel).
const Injection topology.ChannelID = topology.None

// Input is where a header waits: the network channel it arrived on (Injection at its
// source) and the virtual channel it holds there.
type Input struct {
	Channel topology.ChannelID
	VC      int
}

// Output is one permitted next hop: a physical channel leaving the router and the
// virtual channel the header must take on it. Misroute marks a hop that does not bring
// the header closer to its destination (non-minimal relations only).
type Output struct {
	Channel  topology.ChannelID
	VC       int
	Misroute bool
}

// Header is what a relation may read of a worm when it routes it: where it is, how it
// arrived, its source and destination, and how many misroutes it has taken so far
// (counted by the model only for a relation that is Budgeted; 0 otherwise).
type Header struct {
	At        topology.NodeID
	In        Input
	Src, Dst  topology.NodeID
	Misroutes int
}

// Relation is a routing relation on a grid. Route is called only with h.At != h.Dst
// (delivery is the model's business) and must be a pure function of h: the same header
// gets the same outputs in the same order.
type Relation interface {
	// Name is the relation's name as the command line spells it ("dor", "west-first").
	Name() string
	// Grid is the topology the relation routes on.
	Grid() *topology.Network
	// VCs is the number of virtual channels per physical channel the relation uses;
	// every Output.VC is in [0, VCs()).
	VCs() int
	// Route appends the permitted outputs for h to out, most preferred first, and
	// returns the extended slice. An empty result for a header not at its destination
	// means the relation strands it (the model reports that as a deadlock).
	Route(h Header, out []Output) []Output
}

// Budgeted is implemented by non-minimal relations that bound how often a worm may
// misroute: the model then counts each worm's misroutes (a bounded counter in the state)
// and passes it in Header.Misroutes. A non-minimal relation without a budget sees
// Misroutes = 0 always, so its state space stays finite and livelock shows as a cycle.
type Budgeted interface {
	MisrouteBudget() int
}

// DOR is dimension-order routing as a relation: the one output topology.DOR's path takes
// from h.At, on virtual channel 0, or on a torus with dateline classes the class of
// Dally & Seitz (1 from the wrap-around channel of a dimension until the worm turns into
// the next dimension, 0 otherwise). It is the relation of today's unicast and tree
// multicast checks (claims WH1-WH3, TM1-TM3).
type DOR struct {
	R topology.DOR
}

// NewDOR returns dimension-order routing on g (dimension 0 first), with dateline classes
// on tori when dateline is set.
func NewDOR(g *topology.Network, dateline bool) DOR {
	r := topology.NewDOR(g)
	r.Dateline = dateline && g.Kind() == topology.Torus
	return DOR{R: r}
}

// Name returns "dor", or "dor-1vc" on a grid with wrap-around channels without
// dateline classes.
func (d DOR) Name() string {
	if !d.R.Dateline {
		for dim := 0; dim < d.R.Grid.Dims(); dim++ {
			if d.R.Grid.Wraps(dim) {
				return "dor-1vc"
			}
		}
	}
	return "dor"
}

// Positional is true without dateline classes: Route then reads only At and Dst.
func (d DOR) Positional() bool { return !d.R.Dateline }

// Grid returns the relation's topology.
func (d DOR) Grid() *topology.Network { return d.R.Grid }

// VCs is 2 with dateline classes, 1 without.
func (d DOR) VCs() int {
	if d.R.Dateline {
		return 2
	}
	return 1
}

// Route appends the single dimension-order output of h (topology.DOR.Next) with its
// dateline class. Cost O(dimensions).
func (d DOR) Route(h Header, out []Output) []Output {
	c, dim := d.R.Next(h.At, h.Dst)
	if c == topology.None {
		return out
	}
	g, vc := d.R.Grid, 0
	if d.R.Dateline {
		if g.Channel(c).Wrap {
			vc = 1
		} else if h.In.Channel != Injection && g.Channel(h.In.Channel).Dim == dim && h.In.VC == 1 {
			vc = 1
		}
	}
	return append(out, Output{Channel: c, VC: vc})
}

// SourceClasser is implemented by relations whose Route reads Header.Src (odd-even
// does). SourceClass(h) is a number in [0, SourceClasses()) such that two headers that
// differ only in Src but have the same class get the same outputs; the static proofs
// use it to merge headers that route alike. A relation that does not implement it must
// not read Src.
type SourceClasser interface {
	SourceClasses() int
	SourceClass(h Header) int
}

// Escaping is implemented by relations designed with Duato's theory: Escape(h, o)
// reports whether output o of header h belongs to the routing subfunction R1 (the
// escape channels). The static proof checks that R1 is connected and that its extended
// channel dependency graph is acyclic.
//
// Reference: Duato, IEEE TPDS 4(12), 1993, Definitions 5-8 and Theorem 1.
type Escaping interface {
	Escape(h Header, o Output) bool
}

// Positional is implemented by relations whose Route does not read Header.In when
// Positional() is true: it reads At, Dst, and Src only through SourceClass (and
// Misroutes when Budgeted). A header's state is then its node and class, and the static
// proofs search node states instead of (channel, VC) states: several times fewer.
type Positional interface {
	Positional() bool
}

// EscapeOrdered is an optional hint of an Escaping relation: EscapeRank(c, vc) ranks
// the escape (channel, VC) pairs in an order its designer expects every dependency of
// the extended channel dependency graph to follow (any int; only the order matters),
// and returns -1 for a pair that is not an escape channel. The static proof starts from
// this order and refines it where a dependency contradicts it: a wrong hint costs time,
// never a wrong verdict.
type EscapeOrdered interface {
	EscapeRank(c topology.ChannelID, vc int) int
}

// EscapeLeveled is an optional coarsening of EscapeOrdered: EscapeLevel(c, vc) is a
// level of an escape pair such that a lower level always means an earlier EscapeRank
// (ties allowed, broken by the rank). The static proof checks Duato's order by classes
// with levels when the relation is routing.DestClassed: a dependency between two
// pairs of strictly increasing level follows the order whatever the tie-breaks.
type EscapeLeveled interface {
	EscapeLevel(c topology.ChannelID, vc int) int
}

// DestClassed is an optional promise of a Positional relation that reads neither Src
// (no SourceClasser, or a SourceReached one: then "the same outputs" below is for
// headers of the same source class) nor Misroutes (not Budgeted): its outputs depend on the
// destination only through one class per dimension. DestClass(dim, x, y) is the class,
// in dimension dim, of a header whose router has coordinate x toward a destination
// with coordinate y (any int; only equality matters). The promise: two headers whose
// routers and destinations give the same class in every dimension are offered the same
// outputs as ports — the same (dimension, direction, VC, Misroute) in the same order,
// and for an Escaping relation the same escape outputs — even at different routers.
// For minimal relations on meshes the class is the sign of the offset; on rings it
// adds the tie (both ways shortest).
//
// The static proof (props/cdg) then finds the channel dependency graph from one route
// per combination of classes that neighbouring routers can see, instead of one search
// per destination: milliseconds on a 64x64 mesh. A relation that does not keep the
// promise gets a wrong graph, so only relations whose rules are stated per direction
// should implement it; routing files never do.
type DestClassed interface {
	DestClass(dim, x, y int) int
}

// SourceReached is an optional promise of a DestClassed relation that reads Src
// through SourceClasser (odd-even): ReachedFrom(at, dst, sc) returns a source from
// which a header toward dst reaches router at (at != dst) with source class sc, or
// false when no source does. The promise: whether one does depends only on at and the
// classes of (at, dst); headers of the same source class and classes are offered the
// same outputs as ports; and the source class of a header after a hop depends only on
// its class before and the hop, not on which source it came from.
//
// The static proof (props/cdg) then finds the channel dependency graph by classes, as
// for DestClassed, routing one header per combination of classes and source class
// that neighbouring routers see, instead of one search of header states per
// destination. A relation that breaks the promise gets a wrong graph: implement it only
// with a proof of which classes are reachable (see OddEven.ReachedFrom).
type SourceReached interface {
	ReachedFrom(at, dst topology.NodeID, sc int) (src topology.NodeID, ok bool)
}

// destClass is the class of geom.offset: 0 at the destination's coordinate, 1 Plus, 2
// Minus, 3 tied (both ways round a ring are shortest).
func destClass(k int, wraps bool, x, y int) int {
	delta := y - x
	if delta == 0 {
		return 0
	}
	if !wraps {
		if delta > 0 {
			return 1
		}
		return 2
	}
	if delta < 0 {
		delta += k
	}
	switch {
	case 2*delta == k:
		return 3
	case 2*delta < k:
		return 1
	default:
		return 2
	}
}

// DestClass is the sign of the offset (and the tie on a ring): without dateline
// classes dimension order reads nothing else of the destination. With dateline classes
// the relation is not Positional and the promise is not used.
func (d DOR) DestClass(dim, x, y int) int {
	return destClass(d.R.Grid.Size(dim), d.R.Grid.Wraps(dim), x, y)
}

// DestClass is the sign of the offset: the turn rules read nothing else.
func (t *Turn) DestClass(dim, x, y int) int {
	return destClass(t.m.size[dim], t.m.wraps[dim], x, y)
}

// DestClass is the sign of the offset and the tie on a ring: productive reads
// nothing else.
func (a *Adaptive) DestClass(dim, x, y int) int {
	return destClass(a.m.size[dim], a.m.wraps[dim], x, y)
}

// DestClass is the sign of the offset (and the tie on a ring) and, on a ring, whether
// the escape hop's wrap-around channel still lies ahead (its dateline class): the
// adaptive outputs read the first, the escape output both.
func (d *Duato) DestClass(dim, x, y int) int {
	m := &d.m
	c := destClass(m.size[dim], m.wraps[dim], x, y)
	if !d.wraps || !m.wraps[dim] || c == 0 {
		return c
	}
	k := m.size[dim]
	delta := y - x
	if delta < 0 {
		delta += k
	}
	n, dir := delta, topology.Plus
	if 2*delta > k {
		n, dir = k-delta, topology.Minus
	}
	ahead := false
	if dir == topology.Plus {
		ahead = x != k-1 && x+n >= k
	} else {
		ahead = x != 0 && x-n < 0
	}
	if ahead {
		return c + 4
	}
	return c
}
