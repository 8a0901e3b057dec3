package gen_test

import (
	"context"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/gen"
)

// Reference: 002 Property 1, on random patterns of N = 64: monotone concentrated
// patterns and two-phase copies never block.
func TestMonotonePatternsNeverBlock(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(2002)
	params.MinSuccessfulTests = 200
	properties := gopter.NewProperties(params)
	b, err := topology.NewBanyan(64)
	if err != nil {
		t.Fatal(err)
	}
	for _, ord := range []banyan.Order{banyan.Ascending, banyan.Descending} {
		properties.Property("monotone concentrated patterns pass ("+ord.String()+")", prop.ForAll(
			func(pat []topology.BanyanPacket) bool {
				c, err := b.FirstConflict(pat)
				return err == nil && c == nil
			}, gen.MonotonePatterns(64, ord).G()))
	}
	properties.Property("two-phase copies pass", prop.ForAll(
		func(m banyan.Multicast, s int) bool {
			c, err := b.FirstConflict(banyan.Phase2(m, s%(65-m.Fanout()), 64))
			return err == nil && c == nil
		}, gen.BanyanMulticasts(64).G(), gen.IntRange(0, 63).G()))
	properties.TestingRun(t)
}

// TestRandomPlacements is WH1 and WH3 as seeded gopter properties: XY routing on a mesh
// and DOR with dateline classes on a torus hold on random placements. (The same search
// fails where it should: algos/unicast's TestSearchAgainstNaive and TestWH2Witness.)
func TestRandomPlacements(t *testing.T) {
	if testing.Short() {
		t.Skip("explores random instances")
	}
	params := gopter.DefaultTestParametersWithSeed(1987)
	params.MinSuccessfulTests = 40
	properties := gopter.NewProperties(params)
	mesh, _ := topology.NewMesh(4, 3)
	torus, _ := topology.NewTorus(5)
	holds := func(sp unicast.Spec) bool {
		m, err := unicast.Build(sp)
		if err != nil {
			return false
		}
		r := unicast.Search(context.Background(), m, 300_000, true)
		return r.Verdict != checker.Violated
	}
	properties.Property("XY on mesh:4x3 never deadlocks", prop.ForAll(holds, gen.UnicastSpecs(mesh, 3, 3, 2, unicast.DatelineAuto, model.OnePort).G()))
	properties.Property("dateline DOR on torus:5 never deadlocks", prop.ForAll(holds, gen.UnicastSpecs(torus, 4, 3, 2, unicast.DatelineOn, model.AllPort).G()))
	properties.TestingRun(t)
}

// TestSamplerRepeats: two samplers with one seed draw the same sequence, and the
// placements they draw are well formed.
func TestSamplerRepeats(t *testing.T) {
	a, b := gen.NewSampler(7), gen.NewSampler(7)
	for i := 0; i < 20; i++ {
		x, okx := gen.Draw(a, gen.Placements(9, 3))
		y, oky := gen.Draw(b, gen.Placements(9, 3))
		if !okx || !oky || len(x) == 0 || len(x) > 3 || len(x) != len(y) {
			t.Fatalf("draw %d: %v %v / %v %v", i, x, okx, y, oky)
		}
		for j := range x {
			if x[j] != y[j] || x[j].Src == x[j].Dst {
				t.Fatalf("draw %d: %v vs %v", i, x, y)
			}
		}
	}
}
