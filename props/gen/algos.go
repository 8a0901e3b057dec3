package gen

import (
	oldrand "math/rand"

	"github.com/leanovate/gopter"
	gg "github.com/leanovate/gopter/gen"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// The generators of the algorithms' own instances, for users' property tests: unicast
// placements and instances (algos/unicast), banyan multicasts and 002 Property 1's
// patterns (algos/banyan). gopter is a dependency of tests and of this package only.

// Placements generates placements on a topology of n nodes: 1..maxWorms worms with
// distinct (src, dst) pairs, src != dst, in the order drawn. It shrinks by dropping worms.
// Use it in property tests of routing functions, e.g. "XY routing never deadlocks on
// random placements".
func Placements(n, maxWorms int) Gen[[]unicast.Pair] {
	pairs := unicast.AllPairs(n)
	return Gen[[]unicast.Pair](gg.SliceOfN(maxWorms, gg.IntRange(0, len(pairs)-1)).
		SuchThat(func(ix []int) bool { return len(ix) > 0 }).
		Map(func(ix []int) []unicast.Pair {
			seen := map[int]bool{}
			var out []unicast.Pair
			for _, i := range ix {
				if !seen[i] {
					seen[i] = true
					out = append(out, pairs[i])
				}
			}
			return out
		}))
}

// UnicastSpecs generates unicast instances on grid g: a placement of up to maxWorms
// worms, L in 1..maxLength and B in 1..maxBuffer, with the given dateline mode and ports.
func UnicastSpecs(g *topology.Network, maxWorms, maxLength, maxBuffer int, dl unicast.Dateline, ports model.PortModel) Gen[unicast.Spec] {
	return Gen[unicast.Spec](gopter.CombineGens(gopter.Gen(Placements(g.Nodes(), maxWorms)), gg.IntRange(1, maxLength), gg.IntRange(1, maxBuffer)).
		Map(func(v []any) unicast.Spec {
			return unicast.Spec{Topology: g.Spec(), Pairs: v[0].([]unicast.Pair), Length: v[1].(int), Buffer: v[2].(int), Dateline: dl, Ports: ports}
		}))
}

// BanyanMulticasts generates multicasts on a banyan of size nodes: a source and a
// nonempty destination set, sorted; it shrinks toward fewer destinations.
func BanyanMulticasts(size int) Gen[banyan.Multicast] {
	return Gen[banyan.Multicast](gopter.CombineGens(gg.IntRange(0, size-1), gg.SliceOfN(size, gg.Bool())).
		SuchThat(func(v []any) bool {
			for _, in := range v[1].([]bool) {
				if in {
					return true
				}
			}
			return false
		}).
		Map(func(v []any) banyan.Multicast {
			m := banyan.Multicast{Source: v[0].(int)}
			for y, in := range v[1].([]bool) {
				if in {
					m.Dests = append(m.Dests, y)
				}
			}
			return m
		}))
}

// MonotonePatterns generates the unicast patterns of 002 Property 1 on a banyan of size
// nodes with the given order: k >= 1 distinct destinations sorted by order, sent from the
// consecutive sources x..x+k-1 (plain concentration).
func MonotonePatterns(size int, order banyan.Order) Gen[[]topology.BanyanPacket] {
	return Gen[[]topology.BanyanPacket](gopter.Gen(BanyanMulticasts(size)).FlatMap(func(v any) gopter.Gen {
		m := v.(banyan.Multicast)
		return gg.IntRange(0, size-m.Fanout()).Map(func(x int) []topology.BanyanPacket {
			pat := make([]topology.BanyanPacket, m.Fanout())
			for l := range m.Dests {
				d := m.Dests[l]
				if order == banyan.Descending {
					d = m.Dests[m.Fanout()-1-l]
				}
				pat[l] = topology.BanyanPacket{Source: x + l, Dest: topology.UnicastTag(d)}
			}
			return pat
		})
	}, nil))
}

// Bools generates n booleans, IntRange an int in lo..hi, Bool one boolean.
func Bools(n int) Gen[[]bool]      { return Gen[[]bool](gg.SliceOfN(n, gg.Bool())) }
func IntRange(lo, hi int) Gen[int] { return Gen[int](gg.IntRange(lo, hi)) }
func Bool() Gen[bool]              { return Gen[bool](gg.Bool()) }

// Sampler draws values one after another from one seeded random stream, outside
// gopter's runner: the same seed gives the same sequence of values whatever is drawn
// (the claims catalogue's samples).
type Sampler struct{ p *gopter.GenParameters }

// NewSampler returns a sampler seeded with seed.
func NewSampler(seed int64) *Sampler {
	p := gopter.DefaultGenParameters()
	p.Rng = oldrand.New(oldrand.NewSource(seed))
	return &Sampler{p: p}
}

// Draw draws the next value of g from s; ok is false when the generator found none.
func Draw[T any](s *Sampler, g Gen[T]) (v T, ok bool) {
	x, ok := gopter.Gen(g)(s.p).Retrieve()
	if !ok {
		return v, false
	}
	v, ok = x.(T)
	return v, ok
}
