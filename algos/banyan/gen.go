package banyan

import (
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"

	"github.com/wormcheck/wormcheck/model"
)

// GenMulticast generates multicasts on N nodes: a source and a nonempty destination set,
// sorted (for users' gopter properties; shrinks toward fewer destinations).
func GenMulticast(size int) gopter.Gen {
	return gopter.CombineGens(gen.IntRange(0, size-1), gen.SliceOfN(size, gen.Bool())).
		SuchThat(func(v []any) bool {
			for _, in := range v[1].([]bool) {
				if in {
					return true
				}
			}
			return false
		}).
		Map(func(v []any) Multicast {
			m := Multicast{Source: v[0].(int)}
			for y, in := range v[1].([]bool) {
				if in {
					m.Dests = append(m.Dests, y)
				}
			}
			return m
		})
}

// GenMonotonePattern generates the unicast patterns of 002 Property 1 on N nodes with
// the given order: k >= 1 distinct destinations sorted by order, sent from the
// consecutive sources x..x+k-1 (plain concentration).
func GenMonotonePattern(size int, order Order) gopter.Gen {
	return GenMulticast(size).FlatMap(func(v any) gopter.Gen {
		m := v.(Multicast)
		return gen.IntRange(0, size-m.Fanout()).Map(func(x int) []model.BanyanPacket {
			pat := make([]model.BanyanPacket, m.Fanout())
			for l := range m.Dests {
				d := m.Dests[l]
				if order == Descending {
					d = m.Dests[m.Fanout()-1-l]
				}
				pat[l] = model.BanyanPacket{Source: x + l, Dest: model.UnicastTag(d)}
			}
			return pat
		})
	}, nil)
}
