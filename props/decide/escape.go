package decide

import (
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// The escape-ring bound: a lower bound on the worms of every deadlock configuration of a
// relation with a dimension-order VC 0 on a torus without dateline classes (dor-1vc,
// duato-nodateline and relations like them), so that the search by fewest worms starts
// where configurations can exist, and answers "none" where no ring is long enough.
//
// The structure, checked on the relation itself (escapeStructure; nothing its name
// promises is trusted), for every header at its source and every header state not at
// its destination:
//
//	(M) every output is minimal: it takes the header one hop nearer its destination
//	    (the sum over dimensions of the ring or line distances drops by one);
//	(E) every output on VC 0 is in the lowest dimension with a non-zero distance;
//	(S) a header state (one holding a channel) has at least one output on VC 0;
//	(A) optionally, every VC-0 output's channel is an output on another VC too.
//
// Claim 1 (cycle). Under (M), (E), (S), every configuration has a cycle of worms w_1..w_c
// (indices mod c) in which w_{j+1} holds a VC-0 output e_j of w_j's header; every e_j is
// in one dimension d, one way s round it, and d wraps with a ring of k >= 4 nodes; and
// c >= ceil(k/L), L = floor(k/2) - 1.
// Proof. Every worm's header has a VC-0 output (S); pick one, e(w); it is held by some
// worm h(w). w -> h(w) is a function on a finite set, so it has a cycle. (M) makes every
// route minimal, so it never revisits a node and h(w) != w (w holds channels its header
// left behind). w_{j+1} took e_j on VC 0, so (E) put e_j in the lowest dimension d_j with
// a non-zero distance at that node: dimensions below d_j were at distance 0 there and,
// since every later hop is minimal (M), still are at w_{j+1}'s header, so d_{j+1} >= d_j;
// round the cycle every d_j is one d. Let r be w_{j+1}'s distance in d at e_j's tail
// (r <= floor(k/2)). After e_j it is r-1, still >= 1 at its header (e_{j+1} is in d),
// so r-1 < k/2 and the one way that shortens it is e_j's way s; every hop w_{j+1} took
// in d after e_j went that way, and e_{j+1} does. So w_{j+1}'s header is p_{j+1} hops
// along s past e_j's tail, 1 <= p_{j+1} <= r-1 <= L. Going round the cycle returns to
// e_1's tail, so the p_j add up to a positive multiple of k (d cannot be a line, and
// L >= 1 needs k >= 4): c*L >= k. The worms hold at least k vertices: w_{j+1} holds
// e_j and every vertex after it, p_{j+1} of them in d at least, and no two worms hold
// one vertex.
//
// Claim 2 (lanes). With (A) as well and L = 1 (k = 4 or 5), every configuration whose
// cycle lies in d has at least k + ceil(k/2) worms.
// Proof. c >= k by claim 1. The e_j are distinct (e_j = e_l gives w_{j+1} = w_{l+1}, so
// j = l round a cycle of the function), and by (A) each channel of e_j is also an output
// of w_j on some VC other than 0: c distinct (channel, VC) vertices u_j, each held by a
// worm. A cycle worm w_{l+1} has a route of at most floor(k/2) = 2 hops in d, one of
// them still ahead of its header: it holds exactly one channel in d, e_l, on VC 0, so it
// holds no u_j. Every other worm holds at most floor(k/2) = 2 channels in d, so at
// least ceil(c/2) of them hold the u_j: c + ceil(c/2) >= k + ceil(k/2) worms. They
// hold at least 2k vertices: the c vertices e_j (VC 0) and the c vertices u_j (other
// VCs), all distinct.
//
// So the bound is the least, over the wrapping dimensions d with k >= 4, of k +
// ceil(k/2) worms when L = 1 and (A) holds, else ceil(k/L); and of 2k vertices when
// L = 1 and (A) holds, else k; with no such dimension there is no configuration at
// all. Tests pin the bound against the exhaustive search on small tori
// and rings (dor-1vc meets it exactly on torus:4x4 and 5x5).

// escapeNone is escapeBound's answer when no configuration can exist.
const escapeNone = -1

// maxEscapePairs bounds the source headers (source, destination pairs) escapeBound
// asks the relation about; past it there is no bound.
const maxEscapePairs = 1 << 22

// escapeBound returns the escape-ring bound of the relation rel whose header states sp
// holds (the comment above): the least numbers of worms and of vertices a
// configuration has; 0, 0 when rel lacks the structure (or the network is too large to
// check it); escapeNone, 0 when no configuration exists. Cost O(endpoints^2 + states x
// outputs) x dimensions.
func escapeBound(rel routing.Relation, sp *space) (worms, vertices int) {
	g := sp.g
	if g.IsGraph() {
		return 0, 0
	}
	ok, lanes := escapeStructure(rel, sp)
	if !ok {
		return 0, 0
	}
	worms = escapeNone
	for d := range g.Dims() {
		k := g.Size(d)
		l := k/2 - 1
		if !g.Wraps(d) || l < 1 {
			continue
		}
		w, v := (k+l-1)/l, k
		if l == 1 && lanes {
			w, v = k+(k+1)/2, 2*k
		}
		if worms == escapeNone {
			worms, vertices = w, v
		}
		worms, vertices = min(worms, w), min(vertices, v)
	}
	return worms, vertices
}

// escapeStructure checks (M), (E) and (S) on rel's source headers and sp's states, and
// reports (A) besides; false when one fails, the network is too large, or sp's context
// ended.
func escapeStructure(rel routing.Relation, sp *space) (ok, lanes bool) {
	g := sp.g
	ends := g.Endpoints()
	if int64(len(ends))*int64(len(ends)) > maxEscapePairs {
		return false, false
	}
	var outs []routing.Output
	for i, src := range ends {
		if i%64 == 0 && stopped(sp.ctx) != nil {
			return false, false
		}
		for _, dst := range ends {
			if src == dst {
				continue
			}
			outs = rel.Route(routing.Header{At: src, In: routing.Input{Channel: routing.Injection}, Src: src, Dst: dst}, outs[:0])
			for _, o := range outs {
				if !escapeHop(g, src, dst, o.Channel, o.VC) {
					return false, false
				}
			}
		}
	}
	lanes = true
	for s := range int32(sp.states()) {
		if s%(1<<16) == 0 && stopped(sp.ctx) != nil {
			return false, false
		}
		if sp.atDst[s] {
			continue
		}
		at := g.Channel(topology.ChannelID(int(sp.vtx[s]) / sp.vcs)).To
		dst := topology.NodeID(sp.dst[s])
		_, vs := sp.arcs(s)
		escape := false
		for _, v := range vs {
			ch, vc := topology.ChannelID(int(v)/sp.vcs), int(v)%sp.vcs
			if !escapeHop(g, at, dst, ch, vc) {
				return false, false
			}
			if vc != 0 {
				continue
			}
			escape = true
			other := false
			for _, w := range vs {
				other = other || int(w)/sp.vcs == int(ch) && int(w)%sp.vcs != 0
			}
			lanes = lanes && other
		}
		if !escape {
			return false, false
		}
	}
	return true, lanes
}

// escapeHop reports whether channel ch on VC vc, offered to a header at node at toward
// dst, leaves at and is minimal (M) and, on VC 0, in the lowest dimension with a
// non-zero distance (E).
func escapeHop(g *topology.Network, at, dst topology.NodeID, ch topology.ChannelID, vc int) bool {
	c := g.Channel(ch)
	if c.From != at || gridDistance(g, c.To, dst) != gridDistance(g, at, dst)-1 {
		return false
	}
	if vc != 0 {
		return true
	}
	for d := range g.Dims() {
		if ringDistance(g, at, dst, d) != 0 {
			return g.Coord(c.To, d) != g.Coord(at, d)
		}
	}
	return false
}

// gridDistance is the length of a minimal path from a to b on a mesh, torus or
// hypercube: the sum of the dimensions' distances.
func gridDistance(g *topology.Network, a, b topology.NodeID) int {
	n := 0
	for d := range g.Dims() {
		n += ringDistance(g, a, b, d)
	}
	return n
}

// ringDistance is the distance from a to b in dimension d: round the shorter way of a
// ring, along a line otherwise.
func ringDistance(g *topology.Network, a, b topology.NodeID, d int) int {
	delta := g.Coord(b, d) - g.Coord(a, d)
	if delta < 0 {
		delta = -delta
	}
	if g.Wraps(d) {
		delta = min(delta, g.Size(d)-delta)
	}
	return delta
}
