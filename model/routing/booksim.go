package routing

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/model/topology"
)

// BookSim2's routing functions as relations (src/routefunc.cpp and the networks'
// own files). A BookSim routing function is called once for a packet's head flit at
// each router and returns an output port and a range of virtual channels; some draw
// at random (an intermediate node, a dimension order, an up port) or compare credits,
// and some keep state in the flit (its phase, its intermediate). As a relation each
// offers, at every router, every (channel, VC) BookSim could return there for a head
// flit that arrived on that (channel, VC), over every draw and every credit count:
// bookSimRelation.Route. Where BookSim's hidden state (the phase) decides the outputs,
// the relation reads it from the VC the head arrived on, which BookSim's VC ranges keep
// apart; a configuration whose ranges overlap (an odd num_vcs for a two-phase
// function) is refused, as is a function whose hidden state no VC reveals.
//
// Every route BookSim takes is a route of the relation. BookSim draws once and waits
// for that output; the flit model lets a header take any free permitted output and
// counts it stuck only when all are held. So a deadlock of the relation is one BookSim
// reaches with the draws that chose the held outputs; a cycle-free channel dependency
// graph of the relation proves BookSim's function deadlock-free too (its dependencies
// are among the relation's); a relation shown deadlock-free only by the exact search
// covers BookSim's function when every draw is at the source, before the worm holds a
// channel (xy_yx), and otherwise covers the adaptive reading only (docs/booksim.md).

// bookSimPrefix starts the name of a BookSim routing function as a built-in relation:
// "booksim:FUNC" or "booksim:FUNC,vcs=N", FUNC as a configuration's routing_function
// writes it; the topology part of BookSim's name (FUNC_mesh, FUNC_torus, ...) is the
// network's. Without vcs, BookSim's default num_vcs (16).
const bookSimPrefix = "booksim:"

// bookSimDefaultVCs is BookSim's default num_vcs.
const bookSimDefaultVCs = 16

// bookSimRelation is one BookSim2 routing function on one network with num_vcs
// virtual channels.
type bookSimRelation struct {
	fn, topo string // routing_function and BookSim's topology name
	g        *topology.Network
	nv       int // num_vcs
	vcs      int // VCs(): one more than the highest VC the function returns
	route    func(h Header, out []Output) []Output
	// srcClass, when set, is the class of the worm's source the function reads
	// (SourceClass); srcClasses is its range.
	srcClass   func(src topology.NodeID) int
	srcClasses int
	// draws: BookSim returns one port it draws (or picks by credits) where the relation
	// offers all, after the worm holds channels (CommitsDraws).
	draws bool
}

// CommitsDraws reports whether BookSim's function draws one of the outputs the relation
// offers, after the worm holds a channel, and waits for that one alone: then a verdict
// the exact search alone gives covers the relation's adaptive reading, not BookSim's
// draws (the channel dependency graph's covers both).
func (r *bookSimRelation) CommitsDraws() bool { return r.draws }

// Name returns "booksim:FUNC,vcs=N".
func (r *bookSimRelation) Name() string {
	return bookSimPrefix + r.fn + ",vcs=" + strconv.Itoa(r.nv)
}

// Function returns BookSim's name of the function, FUNC_TOPOLOGY (as its registry
// spells it, e.g. dim_order_torus).
func (r *bookSimRelation) Function() string { return r.fn + "_" + r.topo }

// Grid returns the network.
func (r *bookSimRelation) Grid() *topology.Network { return r.g }

// VCs is one more than the highest virtual channel the function returns (num_vcs for
// most; 1 for chaos, which uses VC 0 only).
func (r *bookSimRelation) VCs() int { return r.vcs }

// Route appends what BookSim could return for h (see the file comment).
func (r *bookSimRelation) Route(h Header, out []Output) []Output { return r.route(h, out) }

// bookSimSourced is a bookSimRelation whose function reads the worm's source.
type bookSimSourced struct{ *bookSimRelation }

// SourceClasses returns the number of source classes.
func (r bookSimSourced) SourceClasses() int { return r.srcClasses }

// SourceClass returns the class of h's source.
func (r bookSimSourced) SourceClass(h Header) int { return r.srcClass(h.Src) }

// bookSimEscaping is a bookSimRelation with Duato's escape channels (min_adapt: the
// dimension-order VCs).
type bookSimEscaping struct {
	*bookSimRelation
	escape func(o Output) bool
}

// Escape reports whether o is one of the escape VCs.
func (r bookSimEscaping) Escape(h Header, o Output) bool { return r.escape(o) }

// bookSimBuilder builds one function on a network: nv is num_vcs.
type bookSimBuilder func(g *topology.Network, nv int) (Relation, error)

// bookSimFunc is one entry of BookSim's registry: the builder, or why wormcheck
// refuses the function and the nearest relation it has.
type bookSimFunc struct {
	build   bookSimBuilder
	refused string
}

// bookSimRegistry maps BookSim's registry names (FUNC_TOPOLOGY, as routefunc.cpp and
// the networks register them) to their relations.
var bookSimRegistry = map[string]bookSimFunc{}

func registerBookSim(name string, f bookSimFunc) { bookSimRegistry[name] = f }

// bookSimFunctions lists BookSim's registry names, sorted, with the reason for each
// one wormcheck refuses ("" for the ones it maps).
func bookSimFunctions() [][2]string {
	var out [][2]string
	for name, f := range bookSimRegistry {
		out = append(out, [2]string{name, f.refused})
	}
	slices.SortFunc(out, func(a, b [2]string) int { return strings.Compare(a[0], b[0]) })
	return out
}

// bookSimTopology returns BookSim's name of g's topology (mesh, torus, cmesh, flatfly,
// fly, fattree, dragonflynew, qtree, tree4, anynet), or "" when BookSim has none like it.
func bookSimTopology(g *topology.Network) string {
	switch {
	case g == nil:
		return ""
	case !g.IsGraph() && g.Kind() == topology.Torus:
		return "torus"
	case !g.IsGraph():
		return "mesh" // meshes and hypercubes (a 2-ary n-mesh)
	}
	if _, ok := g.CMeshShape(); ok {
		return "cmesh"
	}
	if _, ok := g.FlatFlyShape(); ok {
		return "flatfly"
	}
	if _, ok := g.FlyShape(); ok {
		return "fly"
	}
	if _, ok := g.FatTreeShape(); ok {
		return "fattree"
	}
	if _, ok := g.DragonflyShape(); ok {
		return "dragonflynew"
	}
	if kind, ok := g.BookSimTree(); ok {
		return kind
	}
	if _, ok := g.FaultBase(); ok {
		return ""
	}
	return "anynet"
}

// parseBookSimName splits "booksim:FUNC[,vcs=N]" into FUNC and N (BookSim's default
// when absent).
func parseBookSimName(name string) (fn string, nv int, err error) {
	rest, ok := strings.CutPrefix(name, bookSimPrefix)
	if !ok {
		return "", 0, fmt.Errorf("routing %q is not a BookSim function (booksim:FUNC[,vcs=N])", name)
	}
	fn, opt, hasOpt := strings.Cut(rest, ",")
	nv = bookSimDefaultVCs
	if hasOpt {
		v, ok := strings.CutPrefix(opt, "vcs=")
		n, err := strconv.Atoi(v)
		if !ok || err != nil || n < 1 || n > 64 {
			return "", 0, fmt.Errorf("routing %q: write booksim:FUNC,vcs=N with N in 1..64 (BookSim's num_vcs)", name)
		}
		nv = n
	}
	if fn == "" {
		return "", 0, fmt.Errorf("routing %q: the function is missing; e.g. booksim:dim_order", name)
	}
	return fn, nv, nil
}

// NewBookSim returns BookSim's routing function fn with nv virtual channels on g, or an
// error of one line: a function BookSim does not have for g's topology, one wormcheck
// refuses (naming the nearest relation it has), or a num_vcs the function cannot use.
func NewBookSim(g *topology.Network, fn string, nv int) (Relation, error) {
	topo := bookSimTopology(g)
	if topo == "" {
		return nil, fmt.Errorf("routing booksim:%s: %s is not a network BookSim builds (mesh, torus, cmesh, flatfly, fly, fattree, dragonflynew, anynet)", fn, g.Spec())
	}
	key := fn + "_" + topo
	f, ok := bookSimRegistry[key]
	if !ok {
		var on []string
		for name := range bookSimRegistry {
			if t, ok := strings.CutPrefix(name, fn+"_"); ok && bookSimRegistry[name].refused == "" {
				on = append(on, t)
			}
		}
		slices.Sort(on)
		if len(on) > 0 {
			return nil, fmt.Errorf("BookSim has no routing function %s (%s is registered for %s)", key, fn, strings.Join(on, ", "))
		}
		return nil, fmt.Errorf("BookSim has no routing function %s; its functions for %s are %s", key, topo, strings.Join(bookSimFunctionsFor(topo), ", "))
	}
	if f.refused != "" {
		return nil, fmt.Errorf("BookSim's %s is not a relation: %s", key, f.refused)
	}
	return f.build(g, nv)
}

// bookSimFunctionsFor lists the functions wormcheck maps for a topology.
func bookSimFunctionsFor(topo string) []string {
	var out []string
	for name, f := range bookSimRegistry {
		if fn, ok := strings.CutSuffix(name, "_"+topo); ok && f.refused == "" {
			out = append(out, fn)
		}
	}
	slices.Sort(out)
	return out
}

// vcRange appends (c, vc) for every vc in [lo, hi].
func vcRange(out []Output, c topology.ChannelID, lo, hi int) []Output {
	for vc := lo; vc <= hi; vc++ {
		out = append(out, Output{Channel: c, VC: vc})
	}
	return out
}

// halves returns BookSim's two classes of [0, nv-1] (vcEnd -= avail and vcBegin +=
// avail with avail = nv/2), and an error when they overlap (odd nv) or one is empty,
// since the relation tells the classes apart by the VC.
func halves(fn string, nv int) (lo, hi [2]int, err error) {
	avail := nv / 2
	if avail == 0 || nv%2 != 0 {
		return lo, hi, fmt.Errorf("routing booksim:%s,vcs=%d: BookSim splits the VCs in two classes ([0, nv-1-nv/2] and [nv/2, nv-1]); with an odd num_vcs they share a VC and the relation cannot tell them apart; give an even num_vcs of at least 2", fn, nv)
	}
	return [2]int{0, nv - 1 - avail}, [2]int{avail, nv - 1}, nil
}

// inRange reports whether vc is in r.
func inRange(vc int, r [2]int) bool { return vc >= r[0] && vc <= r[1] }

func newBookSim(fn, topo string, g *topology.Network, nv, vcs int, route func(Header, []Output) []Output) *bookSimRelation {
	return &bookSimRelation{fn: fn, topo: topo, g: g, nv: nv, vcs: vcs, route: route, draws: drawsMidRoute[fn+"_"+topo]}
}

// drawsMidRoute lists the functions that return one port they draw (RandomInt) or pick
// by credits where the relation offers every possible one, at a router where the worm
// already holds channels: an intermediate drawn at the source that later hops follow
// (romm, valiant, ugal), a tie's direction drawn on entering a ring (the tori), an up
// port drawn at every switch (the fat-tree). xy_yx and xyyx draw only at the source,
// before the worm holds a channel, and are not listed.
var drawsMidRoute = map[string]bool{
	"romm_mesh": true, "valiant_mesh": true, "dim_order_torus": true, "dim_order_bal_torus": true,
	"dim_order_ni_torus": true, "min_adapt_torus": true, "valiant_flatfly": true, "ugal_flatfly": true,
	"ugal_xyyx_flatfly": true, "ugal_pni_flatfly": true, "nca_fattree": true, "anca_fattree": true, "ugal_dragonflynew": true,
	"nca_tree4": true, "anca_tree4": true,
}
