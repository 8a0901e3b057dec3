package treemcast

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/checker/family"

	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Family is "every pair of multicasts with up to K destinations on Grid": all unordered
// pairs {a, b} (a may equal b: two identical messages) of multicasts whose destination
// lists have 1..K distinct nodes other than the source. With Orders the destination lists
// are all sequences (the worm order is part of a multicast, 000 Fig. 1); without, each
// destination set is taken once, in ascending node order. With Symmetry only one
// representative per orbit of the grid's routing-preserving symmetries (flit.
// GridSymmetries: mesh reflections; torus translations where the routing allows them) is
// kept, and Member.Orbit says how many pairs it stands for.
//
// Members are numbered from 0 in a deterministic order (first multicast, then second, in
// the order of Multicasts); the numbering depends only on the family's fields.
//
// Relation is the members' routing relation (Instance.Routing; nil: dimension order).
// Symmetry reduction is sound only for relations GridSymmetries knows to be preserved
// (dimension order); for any other it keeps every pair.
type Family struct {
	Grid     *topology.Network
	K        int
	Orders   bool
	Symmetry bool
	Relation routing.Relation
}

// Bounds that keep enumeration small: K, and the number of pairs of a family.
const (
	MaxFamilyK     = 4
	MaxFamilyPairs = 50_000_000
)

// Pairs returns the number of pairs of the unreduced family (before symmetry).
func (f Family) Pairs() float64 {
	n := float64(len(f.Grid.Endpoints()))
	mc, term := 0.0, 1.0
	for k := 1; k <= f.K; k++ {
		term *= n - float64(k) // (n-1)(n-2)...(n-k) ordered choices
		c := term
		if !f.Orders {
			for j := 2; j <= k; j++ {
				c /= float64(j)
			}
		}
		mc += n * c
	}
	return mc * (mc + 1) / 2
}

// ParseFamily reads a family spec: "pairs:K" (destination sets) or "pairs:K:ordered"
// (every destination order).
func ParseFamily(g *topology.Network, spec string) (Family, error) {
	parts := strings.Split(spec, ":")
	if len(parts) < 2 || len(parts) > 3 || parts[0] != "pairs" {
		return Family{}, fmt.Errorf("family %q: want pairs:K or pairs:K:ordered", spec)
	}
	k, err := strconv.Atoi(parts[1])
	if err != nil || k < 1 || k > MaxFamilyK {
		return Family{}, fmt.Errorf("family %q: K is %q; it must be 1..%d", spec, parts[1], MaxFamilyK)
	}
	f := Family{Grid: g, K: k}
	if len(parts) == 3 {
		if parts[2] != "ordered" {
			return Family{}, fmt.Errorf("family %q: suffix %q is unknown; only \"ordered\"", spec, parts[2])
		}
		f.Orders = true
	}
	if p := f.Pairs(); p > MaxFamilyPairs {
		return Family{}, fmt.Errorf("family %q on %v has %.3g pairs; at most %d can be enumerated", spec, g, p, MaxFamilyPairs)
	}
	return f, nil
}

// Spec returns the family's spec as ParseFamily reads it.
func (f Family) Spec() string {
	s := fmt.Sprintf("pairs:%d", f.K)
	if f.Orders {
		s += ":ordered"
	}
	return s
}

// Multicasts returns every multicast of the family in enumeration order: by source, then
// by number of destinations, then lexicographically by destination list. Sources and
// destinations are the network's endpoints (topology.Network.Endpoint: the terminals of a
// network with terminals, every node otherwise).
func (f Family) Multicasts() []Multicast {
	n := f.Grid.Nodes()
	var out []Multicast
	for s := 0; s < n; s++ {
		if !f.Grid.Endpoint(topology.NodeID(s)) {
			continue // a router of a network with terminals sends nothing
		}
		for size := 1; size <= f.K; size++ {
			var rec func(prefix []topology.NodeID, used []bool, from int)
			rec = func(prefix []topology.NodeID, used []bool, from int) {
				if len(prefix) == size {
					out = append(out, Multicast{Source: topology.NodeID(s), Dests: append([]topology.NodeID(nil), prefix...)})
					return
				}
				start := 0
				if !f.Orders {
					start = from
				}
				for d := start; d < n; d++ {
					if d == s || used[d] || !f.Grid.Endpoint(topology.NodeID(d)) {
						continue
					}
					used[d] = true
					rec(append(prefix, topology.NodeID(d)), used, d+1)
					used[d] = false
				}
			}
			rec(nil, make([]bool, n), 0)
		}
	}
	return out
}

// Member is one instance of a family: its index, the pair of multicasts and how many
// pairs of the unreduced family it stands for (1 without symmetry).
type Member struct {
	Index int
	Pair  [2]Multicast
	Orbit int
}

// Routing returns the routing relation members use: Relation, or DOR with dateline
// classes on a torus.
func (f Family) Routing() routing.Relation {
	if f.Relation != nil {
		return f.Relation
	}
	return routing.NewDOR(f.Grid, true)
}

// Members enumerates the family. Cost O(|multicasts|^2 * |symmetries|).
func (f Family) Members() []Member {
	out, _ := f.MembersUntil(nil)
	return out
}

// enumerateEvery is how many pairs of multicasts members looks at between two questions
// to its stop function: tens of milliseconds with symmetry reduction, less without.
const enumerateEvery = 1 << 16

// EnumerationStopped is the error of a family run whose context ended while the members
// were being enumerated, before any was checked: Looked of the unreduced family's Pairs
// pairs had been looked at. Cause is what ended the Context.
type EnumerationStopped struct {
	Looked int64
	Pairs  float64
	Cause  error
}

func (e *EnumerationStopped) Error() string {
	return fmt.Sprintf("cancelled: %v while enumerating the family's members, after %d of %.0f pairs; no member was checked", e.Cause, e.Looked, e.Pairs)
}

// MembersUntil is Members that asks stop (when not nil) every enumerateEvery pairs
// whether to end; it returns the pairs looked at when stop said yes, else -1 with every
// member.
func (f Family) MembersUntil(stop func() bool) ([]Member, int64) {
	ms := f.Multicasts()
	var syms []flit.Symmetry
	if f.Symmetry {
		syms = flit.GridSymmetries(f.Grid, f.Routing())
	}
	key := make(map[uint64]int, len(ms))
	for i, m := range ms {
		key[mcKey(m)] = i
	}
	var out []Member
	var looked int64
	for i := range ms {
		for j := i; j < len(ms); j++ {
			if looked++; stop != nil && looked%enumerateEvery == 0 && stop() {
				return nil, looked
			}
			orbit := 1
			if len(syms) > 1 {
				var canon bool
				canon, orbit = f.canonicalPair(ms, key, syms, i, j)
				if !canon {
					continue
				}
			}
			out = append(out, Member{Index: len(out), Pair: [2]Multicast{ms[i], ms[j]}, Orbit: orbit})
		}
	}
	return out, -1
}

// canonicalPair reports whether pair (i, j) is the least of its orbit (as sorted index
// pairs) and the orbit's size.
func (f Family) canonicalPair(ms []Multicast, key map[uint64]int, syms []flit.Symmetry, i, j int) (bool, int) {
	var imgs [][2]int
	for _, s := range syms {
		a, oka := key[mcKey(mapMC(s, ms[i], !f.Orders))]
		b, okb := key[mcKey(mapMC(s, ms[j], !f.Orders))]
		if !oka || !okb {
			// Unreachable: symmetries map the family onto itself. Keep the pair rather
			// than lose it.
			return true, 1
		}
		if b < a {
			a, b = b, a
		}
		if a < i || (a == i && b < j) {
			return false, 0
		}
		imgs = append(imgs, [2]int{a, b})
	}
	sort.Slice(imgs, func(x, y int) bool {
		return imgs[x][0] < imgs[y][0] || imgs[x][0] == imgs[y][0] && imgs[x][1] < imgs[y][1]
	})
	distinct := 0
	for k := range imgs {
		if k == 0 || imgs[k] != imgs[k-1] {
			distinct++
		}
	}
	return true, distinct
}

func mapMC(s flit.Symmetry, m Multicast, set bool) Multicast {
	out := Multicast{Source: s.Node[m.Source], Dests: make([]topology.NodeID, len(m.Dests))}
	for k, d := range m.Dests {
		out.Dests[k] = s.Node[d]
	}
	// A destination set is kept in ascending order; its image is re-sorted so that it is
	// again a member of the family.
	if set {
		sort.Slice(out.Dests, func(a, b int) bool { return out.Dests[a] < out.Dests[b] })
	}
	return out
}

// mcKey packs a multicast into an integer: 12 bits per node (grids up to 4095 nodes in
// families; Members refuses larger), source first, then the destinations, then the count.
func mcKey(m Multicast) uint64 {
	k := uint64(m.Source)
	for _, d := range m.Dests {
		k = k<<12 | uint64(d)
	}
	return k<<3 | uint64(len(m.Dests))
}

// Shard is part i (0-based) of n of a family: the members whose index is i mod n. The
// Shard selects the members of a family run (family.Shard): member m is in shard
// i/n when m mod n is i.
type Shard = family.Shard

// ParseShard reads "i/n" with 0 <= i < n.
func ParseShard(s string) (Shard, error) { return family.ParseShard(s) }
