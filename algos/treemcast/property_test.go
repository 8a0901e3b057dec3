package treemcast

import (
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// genPair generates two multicasts on g with 1..3 destinations each, in any order.
func genPair(g *topology.Network) gopter.Gen {
	n := g.Nodes()
	mc := gen.SliceOfN(4, gen.IntRange(0, n-1)).Map(func(xs []int) Multicast {
		m := Multicast{Source: topology.NodeID(xs[0])}
		for _, x := range xs[1:] {
			d := topology.NodeID(x)
			dup := d == m.Source
			for _, e := range m.Dests {
				dup = dup || e == d
			}
			if !dup {
				m.Dests = append(m.Dests, d)
			}
		}
		if len(m.Dests) == 0 {
			m.Dests = []topology.NodeID{topology.NodeID((xs[0] + 1) % n)}
		}
		return m
	})
	return gopter.CombineGens(mc, mc, gen.IntRange(1, 2)).Map(func(v []any) Instance {
		p := DefaultParams()
		p.Buffer = v[2].(int)
		return Instance{Grid: g, Msgs: []Multicast{v[0].(Multicast), v[1].(Multicast)}, Params: p}
	})
}

// TestRandomPairsProperty checks, on random pairs of multicasts on a 3x3 mesh: with
// pruning wherever a branch stops, no deadlock and exactly-once delivery along XY paths
// (000 Lemma 1, §2); and the image of an instance under every routing-preserving
// symmetry has the same verdict and the same number of reachable states without pruning
// (the soundness of the symmetry reduction).
func TestRandomPairsProperty(t *testing.T) {
	g, _ := topology.NewMesh(3, 3)
	syms := flit.GridSymmetries(g, routing.NewDOR(g, true))
	params := gopter.DefaultTestParametersWithSeed(7)
	params.MinSuccessfulTests = 40
	if testing.Short() {
		params.MinSuccessfulTests = 15
	}
	props := gopter.NewProperties(params)
	props.Property("on-stop: deadlock-free, exactly once, XY branches", prop.ForAll(func(in Instance) bool {
		in.Params.Prune = flit.PruneOnStop
		res, _, err := Check(in, CheckOptions{Prop: checker.PropExactlyOnce})
		return err == nil && res.Verdict == checker.Holds
	}, genPair(g)))
	props.Property("symmetric images agree", prop.ForAll(func(in Instance) bool {
		in.Params.Prune = flit.PruneNone
		base, _, err := Check(in, CheckOptions{Prop: checker.PropDeadlock})
		if err != nil {
			return false
		}
		for _, s := range syms[1:] {
			img := in
			img.Msgs = []Multicast{mapMC(s, in.Msgs[0], false), mapMC(s, in.Msgs[1], false)}
			r, _, err := Check(img, CheckOptions{Prop: checker.PropDeadlock})
			if err != nil || r.Verdict != base.Verdict || r.Stats.States != base.Stats.States {
				return false
			}
		}
		return true
	}, genPair(g)))
	props.TestingRun(t)
}
