package flit

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Symmetry is an automorphism of a grid and its routing: a node permutation and the
// channel permutation it induces, such that the route between the images of two nodes is
// the image of their route, hop by hop and with the same virtual-channel class
// (Hops(φ(s), φ(d)) = φ(Hops(s, d))). Only such maps preserve the flit-level behaviour.
type Symmetry struct {
	Name    string               // e.g. "identity", "reflect x", "translate (1,0)"
	Node    []topology.NodeID    // Node[v] is the image of node v
	Channel []topology.ChannelID // Channel[c] is the image of channel c
}

// GridSymmetries returns the candidate symmetries of g, the identity first, that
// preserve routing relation r: a candidate is kept only if it maps every route of r onto
// a route of r, classes included. For dimension-order routing (routing.DOR) the
// candidates are the reflections of any set of dimensions (XY routing is kept by
// reflections, not by transposition, which turns XY into YX) and, on a torus, the
// translations; dimension order with dateline classes is not translation-invariant (the
// wrap-around channel carries the class change), so on a torus with dateline classes
// only the symmetries that fix the datelines survive. For any other relation (built-in,
// routing file or a user's Go relation) the candidates also permute dimensions of equal
// size, and each is checked header by header (relationPreserves: the relation's outputs
// for the image of a header are the images of its outputs, in order, with the same
// virtual channels and misroute flags); when that check would take more than
// maxSymmetryChecks calls of the relation, only the identity is returned, which is
// always sound. Cost O(|candidates| * nodes^2 * path length) for DOR, O(|candidates| *
// nodes^3 * inputs) relation calls otherwise.
func GridSymmetries(g *topology.Network, r routing.Relation) []Symmetry {
	var dor topology.DOR
	switch d := r.(type) {
	case routing.DOR:
		dor = d.R
	case *routing.DOR:
		dor = d.R
	default:
		return relationSymmetries(g, r)
	}
	if dor.Grid == nil || dor.Grid.Spec() != g.Spec() {
		s, _ := gridMap(g, 0, make([]int, g.Dims()))
		return []Symmetry{s}
	}
	var out []Symmetry
	for refl := 0; refl < 1<<g.Dims(); refl++ {
		for _, t := range translations(g) {
			s, ok := gridMap(g, refl, t)
			if ok && preserves(g, dor, s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// maxSymmetryChecks bounds the relation calls relationSymmetries makes.
const maxSymmetryChecks = 20_000_000

// translations returns the translation vectors of g: every vector on a torus, the zero
// vector otherwise.
func translations(g *topology.Network) [][]int {
	n := g.Dims()
	trans := [][]int{make([]int, n)}
	if g.Kind() != topology.Torus {
		return trans
	}
	for d := 0; d < n; d++ {
		var next [][]int
		for _, t := range trans {
			for k := 0; k < g.Size(d); k++ {
				u := append([]int(nil), t...)
				u[d] = k
				next = append(next, u)
			}
		}
		trans = next
	}
	return trans
}

// relationSymmetries returns the identity and every candidate automorphism of g
// (dimension permutations among equal sizes, reflections, torus translations) under
// which relation r is invariant, checked header by header (relationPreserves).
func relationSymmetries(g *topology.Network, r routing.Relation) []Symmetry {
	n := g.Dims()
	if n == 0 || g.IsGraph() {
		return []Symmetry{identity(g)} // no coordinates to map
	}
	id, _ := gridMapPerm(g, identityPerm(n), 0, make([]int, n))
	out := []Symmetry{id}
	into := channelsInto(g)
	inputs := 1
	for v := range into {
		inputs = max(inputs, 1+len(into[v])*r.VCs())
	}
	budget := 0
	if b, ok := r.(routing.Budgeted); ok {
		budget = b.MisrouteBudget()
	}
	perms := dimPerms(g)
	trans := translations(g)
	cands := len(perms)<<n*len(trans) - 1
	per := g.Nodes() * g.Nodes() * g.Nodes() * inputs * (max(budget, 0) + 1)
	if per <= 0 || cands*per > maxSymmetryChecks {
		return out
	}
	for _, perm := range perms {
		for refl := 0; refl < 1<<n; refl++ {
			for _, t := range trans {
				s, ok := gridMapPerm(g, perm, refl, t)
				if !ok || s.Name == "identity" {
					continue
				}
				if relationPreserves(g, r, s, into, max(budget, 0)) {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// identity returns the identity map of g's nodes and channels (gridMapPerm needs
// coordinates, which a network from a file does not have).
func identity(g *topology.Network) Symmetry {
	s := Symmetry{Name: "identity", Node: make([]topology.NodeID, g.Nodes()), Channel: make([]topology.ChannelID, g.Channels())}
	for v := range s.Node {
		s.Node[v] = topology.NodeID(v)
	}
	for c := range s.Channel {
		s.Channel[c] = topology.ChannelID(c)
	}
	return s
}

// channelsInto lists, per node of g, the channels entering it.
func channelsInto(g *topology.Network) [][]topology.ChannelID {
	into := make([][]topology.ChannelID, g.Nodes())
	for c := 0; c < g.Channels(); c++ {
		to := g.Channel(topology.ChannelID(c)).To
		into[to] = append(into[to], topology.ChannelID(c))
	}
	return into
}

// identityPerm returns 0..n-1.
func identityPerm(n int) []int {
	p := make([]int, n)
	for i := range p {
		p[i] = i
	}
	return p
}

// dimPerms returns the permutations of g's dimensions that map each dimension to one of
// the same size, the identity first.
func dimPerms(g *topology.Network) [][]int {
	n := g.Dims()
	var out [][]int
	var rec func(p []int, used []bool)
	rec = func(p []int, used []bool) {
		if len(p) == n {
			out = append(out, append([]int(nil), p...))
			return
		}
		d := len(p)
		for e := 0; e < n; e++ {
			if !used[e] && g.Size(e) == g.Size(d) {
				used[e] = true
				rec(append(p, e), used)
				used[e] = false
			}
		}
	}
	rec(nil, make([]bool, n))
	return out
}

// relationPreserves reports whether s maps every header of r to one whose outputs are
// the images of the original's outputs, in the same order, with the same virtual
// channels and misroute flags: every router, input (injection, or every channel into the
// router with every relation VC), source, destination and misroute count up to budget.
func relationPreserves(g *topology.Network, r routing.Relation, s Symmetry, into [][]topology.ChannelID, budget int) bool {
	var a, b []routing.Output
	for at := 0; at < g.Nodes(); at++ {
		ins := []routing.Input{{Channel: routing.Injection}}
		for _, c := range into[at] {
			for v := 0; v < r.VCs(); v++ {
				ins = append(ins, routing.Input{Channel: c, VC: v})
			}
		}
		for dst := 0; dst < g.Nodes(); dst++ {
			if dst == at {
				continue
			}
			for src := 0; src < g.Nodes(); src++ {
				for _, in := range ins {
					for mis := 0; mis <= budget; mis++ {
						h := routing.Header{At: topology.NodeID(at), In: in, Src: topology.NodeID(src), Dst: topology.NodeID(dst), Misroutes: mis}
						h2 := routing.Header{At: s.Node[at], In: in, Src: s.Node[src], Dst: s.Node[dst], Misroutes: mis}
						if in.Channel != routing.Injection {
							h2.In.Channel = s.Channel[in.Channel]
						}
						a = r.Route(h, a[:0])
						b = r.Route(h2, b[:0])
						if len(a) != len(b) {
							return false
						}
						for k := range a {
							if a[k].Channel < 0 || int(a[k].Channel) >= len(s.Channel) || b[k].Channel != s.Channel[a[k].Channel] || b[k].VC != a[k].VC || b[k].Misroute != a[k].Misroute {
								return false
							}
						}
					}
				}
			}
		}
	}
	return true
}

// gridMap builds the map x_d -> (reflect_d ? k_d-1-x_d : x_d) + t_d (mod k_d).
func gridMap(g *topology.Network, refl int, t []int) (Symmetry, bool) {
	return gridMapPerm(g, identityPerm(g.Dims()), refl, t)
}

// gridMapPerm builds the map that sends coordinate x_d to coordinate perm[d] of the
// image, reflected (k-1-x) when bit d of refl is set, then translated by t (mod k). A
// channel maps to the channel between the images of its ends; false when there is
// none, or when two channels join those nodes (a ring of two) and the direction is
// ambiguous under a permutation.
func gridMapPerm(g *topology.Network, perm []int, refl int, t []int) (Symmetry, bool) {
	n := g.Dims()
	s := Symmetry{Node: make([]topology.NodeID, g.Nodes()), Channel: make([]topology.ChannelID, g.Channels())}
	name := ""
	permuted := false
	for d := 0; d < n; d++ {
		permuted = permuted || perm[d] != d
	}
	if permuted {
		name += fmt.Sprintf(" permute %v", perm)
	}
	for d := 0; d < n; d++ {
		if refl&(1<<d) != 0 {
			name += fmt.Sprintf(" reflect %d", d)
		}
	}
	moved := false
	for _, x := range t {
		moved = moved || x != 0
	}
	if moved {
		name += fmt.Sprintf(" translate %v", t)
	}
	if name == "" {
		name = " identity"
	}
	s.Name = name[1:]
	c := make([]int, n)
	for v := 0; v < g.Nodes(); v++ {
		for d := 0; d < n; d++ {
			x := g.Coord(topology.NodeID(v), d)
			if refl&(1<<d) != 0 {
				x = g.Size(d) - 1 - x
			}
			c[perm[d]] = x + t[perm[d]]
		}
		s.Node[v] = g.Node(c...)
	}
	for ch := 0; ch < g.Channels(); ch++ {
		gc := g.Channel(topology.ChannelID(ch))
		from, to := s.Node[gc.From], s.Node[gc.To]
		s.Channel[ch] = topology.None
		if !permuted {
			for dir := topology.Plus; dir <= topology.Minus; dir++ {
				if c2, t2 := g.Neighbor(from, gc.Dim, dir); c2 != topology.None && t2 == to {
					s.Channel[ch] = c2
				}
			}
		} else {
			found := 0
			for dir := topology.Plus; dir <= topology.Minus; dir++ {
				if c2, t2 := g.Neighbor(from, perm[gc.Dim], dir); c2 != topology.None && t2 == to {
					s.Channel[ch] = c2
					found++
				}
			}
			if found > 1 {
				return s, false
			}
		}
		if s.Channel[ch] == topology.None {
			return s, false
		}
	}
	return s, true
}

func preserves(g *topology.Network, r topology.DOR, s Symmetry) bool {
	for a := 0; a < g.Nodes(); a++ {
		for b := 0; b < g.Nodes(); b++ {
			if a == b {
				continue
			}
			h := r.Hops(topology.NodeID(a), topology.NodeID(b))
			h2 := r.Hops(s.Node[a], s.Node[b])
			if len(h) != len(h2) {
				return false
			}
			for k := range h {
				if h2[k].Channel != s.Channel[h[k].Channel] || h2[k].Class != h[k].Class {
					return false
				}
			}
		}
	}
	return true
}

// instanceSym is a symmetry of the network that maps the model's message set onto
// itself: message i goes to message Msg[i].
type instanceSym struct {
	Symmetry
	Msg []int
}

// Symmetric is a Model with a system.Canonicalizer: the symmetries of its instance (the
// network symmetries that map the set of messages onto itself, each message to one with
// the image source, the image destinations in the same order and the same length). The
// representative of a state is its image with the least encoding. This is sound because
// every such map sends reachable states to reachable states with the same enabled moves
// up to renaming, so deadlocks and the model's invariants are preserved.
//
// Messages that are identical are matched first-unused in order, so swapping two
// identical messages is not exploited (the reduction may be smaller than the full group
// allows; it is never unsound).
type Symmetric struct {
	*Model
	syms []instanceSym
}

// NewSymmetric returns m with the symmetries among cands that map its messages onto
// themselves; the identity is always among them.
func NewSymmetric(m *Model, cands []Symmetry) *Symmetric {
	sm := &Symmetric{Model: m}
	msgs := m.Config().Messages
	for _, c := range cands {
		perm := make([]int, len(msgs))
		used := make([]bool, len(msgs))
		ok := true
		for i, a := range msgs {
			perm[i] = -1
			for j, b := range msgs {
				if !used[j] && imageOf(c, a, b) {
					perm[i], used[j] = j, true
					break
				}
			}
			if perm[i] < 0 {
				ok = false
				break
			}
		}
		if ok && len(c.Channel) == m.Config().Net.Channels() {
			sm.syms = append(sm.syms, instanceSym{Symmetry: c, Msg: perm})
		}
	}
	return sm
}

func imageOf(c Symmetry, a, b Message) bool {
	if a.Multicast != b.Multicast || a.Length != b.Length || len(a.Dests) != len(b.Dests) || c.Node[a.Source] != b.Source {
		return false
	}
	for k, d := range a.Dests {
		if c.Node[d] != b.Dests[k] {
			return false
		}
	}
	return true
}

// Group returns the number of instance symmetries in use (1: only the identity).
func (sm *Symmetric) Group() int { return len(sm.syms) }

// SymmetryNames returns the names of the instance symmetries in use.
func (sm *Symmetric) SymmetryNames() []string {
	out := make([]string, len(sm.syms))
	for i, s := range sm.syms {
		out[i] = s.Name
	}
	return out
}

// Canonical returns the image of s with the least order key (Model.orderKey, the
// layout Encode had before it was made compact) among its images under the instance
// symmetries. Cost O(group * state size).
func (sm *Symmetric) Canonical(s State) State {
	if len(sm.syms) <= 1 {
		return s
	}
	best := s
	bestEnc := sm.orderKey(s, nil)
	var buf []byte
	for _, sy := range sm.syms[1:] {
		img := sm.image(s, sy)
		buf = sm.orderKey(img, buf[:0])
		if bytes.Compare(buf, bestEnc) < 0 {
			best = img
			bestEnc = append(bestEnc[:0], buf...)
		}
	}
	return best
}

// Image returns the image of s under instance symmetry k (0 is the identity); for tests.
func (sm *Symmetric) Image(s State, k int) State { return sm.image(s, sm.syms[k]) }

func (sm *Symmetric) image(s State, sy instanceSym) State {
	nv := sm.Config().VCs
	mapOut := func(o Out) Out {
		if o == Eject {
			return Eject
		}
		return Out(int(sy.Channel[int(o)/nv])*nv + int(o)%nv)
	}
	mapIn := func(in Input) Input {
		if in.Outs.Len(sm.tab) == 0 {
			return in
		}
		outs := make([]Out, in.Outs.Len(sm.tab))
		for j, o := range in.Outs.Slice(sm.tab) {
			outs[j] = mapOut(o)
		}
		var cur Out
		if in.Cur >= 0 {
			cur = outs[in.Cur]
		}
		sort.Slice(outs, func(a, b int) bool { return outs[a] < outs[b] })
		r := Input{Outs: sm.tab.MakeOuts(outs), Cur: -1, Aux: in.Aux, Reinj: in.Reinj}
		if in.Cur >= 0 {
			for j, o := range outs {
				if o == cur {
					r.Cur = int8(j)
				}
			}
		}
		return r
	}
	t := State{Msgs: make([]Msg, len(s.Msgs)), VCs: make([]VC, len(s.VCs))}
	for i, g := range s.Msgs {
		g.In = mapIn(g.In)
		t.Msgs[sy.Msg[i]] = g
	}
	for o, v := range s.VCs {
		if v.Owner >= 0 {
			v.Owner = int8(sy.Msg[v.Owner])
		}
		v.In = mapIn(v.In)
		t.VCs[mapOut(Out(o))] = v
	}
	return t
}
