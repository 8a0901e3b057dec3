package decide

import (
	"slices"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Symmetry: automorphisms of the network that the relation respects, found by checking
// them against the header-state space, and the orbits of (channel, VC) vertices they
// generate, for the search (find.go) and the cycle bounds (segments.go).
//
// Whether a configuration exists, and of how many worms and channels, depends only on
// the space as a graph of states labelled by vertices: a worm is a path of states (each
// reached from a source), a header's outputs are the vertices of its arcs. So a
// permutation g of the vertices and a bijection phi of the states with
// vtx(phi(s)) = g(vtx(s)), "at its destination" kept, and the arcs of s, (t, w), mapped
// one to one onto the arcs of phi(s), (phi(t), g(w)) (a delivered arc onto a delivered
// arc), map every configuration onto one of as many worms and channels. The search
// then needs to start only from one vertex of each orbit (find.go says how).
//
// The candidates come from the network's shape, not from the relation: translations
// along the rings of a torus, a reflection of every dimension (on the hypercube the
// flip of a bit), and swaps of two dimensions of the same size; each is a permutation
// pi of the nodes, g maps channel a->b to channel pi(a)->pi(b), keeping the VC, and phi
// maps a state toward d to the state toward pi(d) at g's vertex, with the same
// misroutes and the source class of the image header. A candidate is kept only when
// that phi is a bijection of the space that carries the arcs as above, checked state by
// state and arc by arc, so a relation that is not invariant (a user's, a routing file's,
// dimension order under a reflection) simply loses that candidate: nothing the relation
// promises is trusted. Irregular networks get no candidates.

// symmetry is the verified automorphisms (their maps of vertices) and the orbits.
type symmetry struct {
	gens [][]int32 // per generator: the image of each vertex
	// orb[v] is v's orbit, numbered in the order of the orbits' least vertices; rep[o]
	// is orbit o's least vertex.
	orb []int32
	rep []int32
	// via[v], from[v]: v = gens[via[v]](from[v]), from[v] nearer rep[orb[v]] (a tree of
	// each orbit rooted at its least vertex; via -1 at the root).
	via, from []int32
	// order lists the vertices orbit by orbit, each in the breadth-first order of its
	// tree (from[v] before v).
	order []int32
}

// trivialSymmetry is no automorphism but the identity: every vertex its own orbit.
func trivialSymmetry(nv int) *symmetry {
	sy := &symmetry{orb: make([]int32, nv), rep: make([]int32, nv), via: make([]int32, nv), from: make([]int32, nv), order: make([]int32, nv)}
	for v := range nv {
		sy.orb[v], sy.rep[v], sy.via[v], sy.from[v], sy.order[v] = int32(v), int32(v), -1, int32(v), int32(v)
	}
	return sy
}

// orbits returns how many orbits there are.
func (sy *symmetry) orbits() int { return len(sy.rep) }

// maxSymmetryTable bounds the table of one destination's states (vertices x classes)
// that checking a candidate needs; past it the space gets no symmetry.
const maxSymmetryTable = 1 << 24

// symmetry finds the candidates of the network's shape under which the space is
// invariant (gridAutomorphisms, checked by automorphic) and their orbits. Cost, per
// candidate, O(states + arcs log outputs).
func (sp *space) symmetry() *symmetry {
	nv := sp.vertices()
	sy := trivialSymmetry(nv)
	if int64(nv)*int64(sp.classes) > maxSymmetryTable {
		return sy
	}
	for _, pi := range gridAutomorphisms(sp.g) {
		if stopped(sp.ctx) != nil {
			break
		}
		if gv := sp.automorphic(pi); gv != nil {
			sy.gens = append(sy.gens, gv)
		}
	}
	sy.build()
	return sy
}

// build computes the orbits of the generators and a tree of each, breadth first from
// its least vertex. Cost O(vertices x generators).
func (sy *symmetry) build() {
	nv := len(sy.orb)
	sy.rep = sy.rep[:0]
	for v := range nv {
		sy.orb[v], sy.via[v], sy.from[v] = -1, -1, int32(v)
	}
	queue := sy.order[:0]
	for v := range nv {
		if sy.orb[v] >= 0 {
			continue
		}
		o := int32(len(sy.rep))
		sy.rep = append(sy.rep, int32(v))
		sy.orb[v] = o
		start := len(queue)
		queue = append(queue, int32(v))
		for i := start; i < len(queue); i++ {
			u := queue[i]
			for gi, gen := range sy.gens {
				w := gen[u]
				if sy.orb[w] < 0 {
					sy.orb[w], sy.via[w], sy.from[w] = o, int32(gi), u
					queue = append(queue, w)
				}
			}
		}
	}
	sy.order = queue
}

// gridAutomorphisms returns candidate automorphisms of a mesh, torus or hypercube as
// permutations of its nodes: the translation by one along each ring of a torus, the
// reflection of each dimension (x -> -x on a ring, x -> k-1-x otherwise; on the
// hypercube the flip of a bit) and the swap of each dimension with the next one of the
// same size and wiring. None for an irregular network.
func gridAutomorphisms(g *topology.Network) [][]topology.NodeID {
	if g.IsGraph() {
		return nil
	}
	dims := g.Dims()
	perm := func(f func(x []int)) []topology.NodeID {
		pi := make([]topology.NodeID, g.Nodes())
		x := make([]int, dims)
		for v := range pi {
			for d := range x {
				x[d] = g.Coord(topology.NodeID(v), d)
			}
			f(x)
			pi[v] = g.Node(x...)
		}
		return pi
	}
	var out [][]topology.NodeID
	for d := range dims {
		k := g.Size(d)
		if g.Wraps(d) {
			out = append(out, perm(func(x []int) { x[d] = (x[d] + 1) % k }))
			out = append(out, perm(func(x []int) { x[d] = (k - x[d]) % k }))
		} else {
			out = append(out, perm(func(x []int) { x[d] = k - 1 - x[d] }))
		}
	}
	for d := range dims {
		for e := d + 1; e < dims; e++ {
			if g.Size(e) == g.Size(d) && g.Wraps(e) == g.Wraps(d) {
				out = append(out, perm(func(x []int) { x[d], x[e] = x[e], x[d] }))
				break
			}
		}
	}
	return out
}

// automorphic checks candidate pi against the space (the symmetry comment above) and
// returns its map of vertices, or nil when it is not an automorphism of the space.
// Cost O(states + arcs log outputs).
func (sp *space) automorphic(pi []topology.NodeID) []int32 {
	g := sp.g
	nv := sp.vertices()
	chMap := make([]topology.ChannelID, g.Channels())
	hit := make([]bool, g.Channels())
	for c := range chMap {
		ch := g.Channel(topology.ChannelID(c))
		m := g.ChannelBetween(pi[ch.From], pi[ch.To])
		if m == topology.None || hit[m] {
			return nil
		}
		chMap[c], hit[m] = m, true
	}
	gv := make([]int32, nv)
	for v := range gv {
		gv[v] = int32(int(chMap[v/sp.vcs])*sp.vcs + v%sp.vcs)
	}
	// phi, destination by destination: a table of the image destination's states by
	// vertex and class, then each state's image looked up in it.
	n := sp.states()
	phi := make([]int32, n)
	table := make([]int32, nv*sp.classes) // state+1; -1 once taken
	for d := range g.Nodes() {
		if d%64 == 0 && stopped(sp.ctx) != nil {
			return nil
		}
		lo, hi := sp.dstFirst[d], sp.dstFirst[d+1]
		e := int(pi[d])
		elo, ehi := sp.dstFirst[e], sp.dstFirst[e+1]
		if hi-lo != ehi-elo {
			return nil
		}
		for t := elo; t < ehi; t++ {
			table[int(sp.vtx[t])*sp.classes+int(sp.cls[t])] = t + 1
		}
		ok := true
		for s := lo; s < hi && ok; s++ {
			c, ok2 := sp.imageClass(s, pi, chMap, topology.NodeID(e))
			if !ok2 {
				ok = false
				break
			}
			key := int(gv[sp.vtx[s]])*sp.classes + int(c)
			t := table[key] - 1
			if t < 0 || sp.atDst[t] != sp.atDst[s] {
				ok = false
				break
			}
			phi[s], table[key] = t, -1
		}
		for t := elo; t < ehi; t++ {
			table[int(sp.vtx[t])*sp.classes+int(sp.cls[t])] = 0
		}
		if !ok {
			return nil
		}
	}
	// The arcs: those of s, mapped, are those of phi(s).
	var a, b []uint64
	for s := range int32(n) {
		if s%(1<<16) == 0 && stopped(sp.ctx) != nil {
			return nil
		}
		to, vs := sp.arcs(s)
		pto, pvs := sp.arcs(phi[s])
		if len(to) != len(pto) {
			return nil
		}
		a, b = a[:0], b[:0]
		for i, t := range to {
			mt := int32(-1)
			if t >= 0 {
				mt = phi[t]
			}
			a = append(a, uint64(uint32(mt))<<32|uint64(gv[vs[i]]))
			b = append(b, uint64(uint32(pto[i]))<<32|uint64(pvs[i]))
		}
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			return nil
		}
	}
	return gv
}

// imageClass returns the class of the image of state s under pi (toward dst, its
// image destination): the same misroutes, and the source class the space's classes
// give the image header; false when that class is out of range.
func (sp *space) imageClass(s int32, pi []topology.NodeID, chMap []topology.ChannelID, dst topology.NodeID) (int32, bool) {
	m := sp.cls[s] % int32(sp.nmis)
	if sp.sc == nil {
		return m, true
	}
	v := sp.vtx[s]
	c := chMap[int(v)/sp.vcs]
	h := routing.Header{At: sp.g.Channel(c).To, In: routing.Input{Channel: c, VC: int(v) % sp.vcs},
		Src: pi[sp.src[s]], Dst: dst, Misroutes: int(m)}
	k := sp.sc.SourceClass(h)
	if k < 0 || k >= sp.classes/sp.nmis {
		return 0, false
	}
	return int32(k*sp.nmis) + m, true
}
