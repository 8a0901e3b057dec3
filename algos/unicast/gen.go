package unicast

import (
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/wormcheck/wormcheck/model"
)

// GenPlacement is a gopter generator of placements on a topology of n nodes: 1..maxWorms
// worms with distinct (src, dst) pairs, src != dst, in the order drawn. It shrinks by
// dropping worms. Use it in property tests of routing functions, e.g. "XY routing never
// deadlocks on random placements" (see the package tests).
func GenPlacement(n, maxWorms int) gopter.Gen {
	pairs := AllPairs(n)
	return gen.SliceOfN(maxWorms, gen.IntRange(0, len(pairs)-1)).
		SuchThat(func(ix []int) bool { return len(ix) > 0 }).
		Map(func(ix []int) []Pair {
			seen := map[int]bool{}
			var out []Pair
			for _, i := range ix {
				if !seen[i] {
					seen[i] = true
					out = append(out, pairs[i])
				}
			}
			return out
		})
}

// GenSpec generates unicast instances on grid g: a placement of up to maxWorms worms,
// L in 1..maxLength and B in 1..maxBuffer, with the given dateline mode and ports.
func GenSpec(g *model.Grid, maxWorms, maxLength, maxBuffer int, dl Dateline, ports model.PortModel) gopter.Gen {
	return gopter.CombineGens(GenPlacement(g.Nodes(), maxWorms), gen.IntRange(1, maxLength), gen.IntRange(1, maxBuffer)).
		Map(func(v []any) Spec {
			return Spec{Topology: g.Spec(), Pairs: v[0].([]Pair), Length: v[1].(int), Buffer: v[2].(int), Dateline: dl, Ports: ports}
		})
}
