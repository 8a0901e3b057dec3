package partition

import (
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
)

func gopterParams() *gopter.TestParameters {
	p := gopter.DefaultTestParametersWithSeed(1)
	p.MinSuccessfulTests = 80
	return p
}

// randomParams picks a family on an (a*h) x (b*h) torus from generated integers.
func randomParams(a, b, h, ty, d int) (*topology.Network, Params, bool) {
	s, t := a*h, b*h
	if s < 3 || t < 3 {
		return nil, Params{}, false
	}
	g, _ := topology.NewTorus(s, t)
	p := Params{Type: Types()[ty], H: h}
	if p.Type == TypeIII {
		if h < 2 {
			return nil, Params{}, false
		}
		p.Delta = 1 + d%(h-1)
	}
	return g, p, true
}

// TestTable1OnRandomTori: on random tori the counted levels are Table 1's (Type IV for
// even h), P1-P5 hold and every DDN and DCN is strongly connected.
//
// Reference: 001 Lemmas 1-4, Table 1, P1-P5, §3.1.
func TestTable1OnRandomTori(t *testing.T) {
	ps := gopter.NewProperties(gopterParams())
	ps.Property("levels, P1-P5 and connectivity", prop.ForAll(
		func(a, b, h, ty, d int) bool {
			g, p, ok := randomParams(a, b, h, ty, d)
			if !ok {
				return true
			}
			ddns, err := DDNs(g, p)
			if err != nil {
				t.Log(err)
				return false
			}
			dcns, _ := DCNs(g, h)
			pr := CheckProperties(g, ddns, dcns, IsoOptions{})
			want := map[Type]int{TypeI: 1, TypeII: h, TypeIII: 1, TypeIV: (h + 1) / 2}[p.Type]
			if pr.Levels.Node != 1 || pr.Levels.Link != want {
				t.Logf("%v %v: levels %d/%d, want 1/%d", g, p, pr.Levels.Node, pr.Levels.Link, want)
				return false
			}
			for _, c := range pr.Checks {
				if c.Verdict != checker.Holds {
					t.Logf("%v %v: %s %s %s", g, p, c.Property, c.Verdict, c.Witness)
					return false
				}
			}
			return true
		},
		gen.IntRange(1, 5), gen.IntRange(1, 5), gen.IntRange(1, 6), gen.IntRange(0, 3), gen.IntRange(0, 10)))
	ps.TestingRun(t)
}

// TestIsomorphicSymmetryAgainstSearch is the differential test of the isomorphism check:
// on small tori, the grid-symmetry path and the general search (colour refinement plus
// backtracking, NoSymmetry) agree on pairs of DDNs, on a DDN against a damaged copy of
// another, and the maps they return are isomorphisms.
func TestIsomorphicSymmetryAgainstSearch(t *testing.T) {
	decided := map[checker.Verdict]int{}
	defer func() {
		t.Logf("search decided: %v", decided)
		if decided[checker.Holds] == 0 || decided[checker.Violated] == 0 {
			t.Errorf("the search never decided both ways: %v", decided)
		}
	}()
	ps := gopter.NewProperties(gopterParams())
	ps.Property("symmetry and search agree", prop.ForAll(
		func(a, b, h, ty, d, i, j, cut int) bool {
			g, p, ok := randomParams(a, b, h, ty, d)
			if !ok || g.Nodes() > 64 {
				return true
			}
			ddns, _ := DDNs(g, p)
			x, y := ddns[i%len(ddns)], ddns[j%len(ddns)]
			if cut%3 == 0 && len(y.Channels) > 1 {
				y = NewSubnetwork(y.Name+"'", y.Orientation, y.Nodes, append(append([]topology.ChannelID{}, y.Channels[:cut%len(y.Channels)]...), y.Channels[cut%len(y.Channels)+1:]...))
			}
			fast := Isomorphic(g, x, y, IsoOptions{})
			slow := Isomorphic(g, x, y, IsoOptions{NoSymmetry: true})
			decided[slow.Verdict]++
			if slow.Verdict == checker.Inconclusive {
				return true
			}
			if fast.Verdict != slow.Verdict {
				t.Logf("%v %v %s vs %s: symmetry %+v, search %+v", g, p, x.Name, y.Name, fast, slow)
				return false
			}
			for _, r := range []IsoResult{fast, slow} {
				if r.Verdict == checker.Holds && !isIsomorphism(g, x, y, r.Map) {
					t.Logf("%v %v: map via %s is not an isomorphism", g, p, r.Via)
					return false
				}
			}
			return true
		},
		gen.IntRange(1, 3), gen.IntRange(1, 3), gen.IntRange(1, 4), gen.IntRange(0, 3), gen.IntRange(0, 5),
		gen.IntRange(0, 20), gen.IntRange(0, 20), gen.IntRange(0, 100)))
	ps.TestingRun(t)
}

// isIsomorphism checks a vertex map directly: a bijection from x's vertices onto y's
// that sends members to members and channels to channels.
func isIsomorphism(g *topology.Network, x, y Subnetwork, m []topology.NodeID) bool {
	vx, vy := x.Vertices(g), y.Vertices(g)
	if len(m) != len(vx) || len(vx) != len(vy) {
		return false
	}
	img := map[topology.NodeID]topology.NodeID{}
	seen := map[topology.NodeID]bool{}
	for i, v := range vx {
		if seen[m[i]] {
			return false
		}
		seen[m[i]] = true
		img[v] = m[i]
	}
	for _, v := range x.Nodes {
		if !y.HasNode(img[v]) {
			return false
		}
	}
	if len(x.Nodes) != len(y.Nodes) || len(x.Channels) != len(y.Channels) {
		return false
	}
	for _, c := range x.Channels {
		ch := g.Channel(c)
		ic := channelBetween(g, img[ch.From], img[ch.To])
		if ic == topology.None || !y.HasChannel(ic) {
			return false
		}
	}
	return true
}
