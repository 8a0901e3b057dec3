package cdg

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props"
)

// stateKey describes header state s of sp without its index: its vertex, destination,
// class and whether it is at its destination, and its arcs as (vertex, the successor's
// vertex and class, or -1 for delivered), sorted.
func stateKey(sp *space, s int32) string {
	to, vs := sp.arcs(s)
	var arcs []string
	for i, t := range to {
		if t < 0 {
			arcs = append(arcs, fmt.Sprintf("%d>deliver", vs[i]))
			continue
		}
		arcs = append(arcs, fmt.Sprintf("%d>%d/%d", vs[i], sp.vtx[t], sp.cls[t]))
	}
	slices.Sort(arcs)
	return fmt.Sprintf("v%d d%d c%d %v %v", sp.vtx[s], sp.dst[s], sp.cls[s], sp.atDst[s], arcs)
}

// TestSubspaceIsRestriction checks the scout's premise: the space built toward a
// subset of the destinations holds exactly the states of the whole space toward them,
// with the same arcs (so a configuration found in it is one of the whole space), and
// nothing toward the others.
func TestSubspaceIsRestriction(t *testing.T) {
	for _, c := range []struct{ topo, name string }{
		{"mesh:4x4", "adaptive"}, {"torus:4x4", "nonminimal:1"}, {"hypercube:4", "adaptive"},
		{"torus:5x5", "dor-1vc"}, {"mesh:3x3", "odd-even"},
	} {
		g := mustGrid(t, c.topo)
		rel, err := routing.ByName(g, c.name)
		if err != nil {
			t.Fatal(err)
		}
		full, err := buildSpace(t.Context(), rel, 1<<22, nil)
		if err != nil {
			t.Fatal(err)
		}
		dests := make([]bool, g.Nodes())
		for d := 0; d < g.Nodes(); d += 3 {
			dests[d] = true
		}
		sub, err := buildSpace(t.Context(), rel, 1<<22, dests)
		if err != nil {
			t.Fatal(err)
		}
		for d := range g.Nodes() {
			var want, got []string
			if dests[d] {
				for s := full.dstFirst[d]; s < full.dstFirst[d+1]; s++ {
					want = append(want, stateKey(full, s))
				}
			}
			for s := sub.dstFirst[d]; s < sub.dstFirst[d+1]; s++ {
				got = append(got, stateKey(sub, s))
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(want, got) {
				t.Fatalf("%s on %s, destination %d: the sub-space has %d states, the whole space %d (or other arcs)", c.name, c.topo, d, len(got), len(want))
			}
		}
	}
}

// TestScoutFindsFirst checks the scout on networks whose whole space is large: it finds
// a configuration of the whole relation (checked from the definition, route by route)
// in the states toward a handful of destinations, small and realised in the flit model.
func TestScoutFindsFirst(t *testing.T) {
	cases := []struct {
		topo, name      string
		worms, channels int // at most
	}{
		{"mesh:32x32", "adaptive", 4, 4}, {"torus:32x32", "nonminimal:1", 2, 2},
		{"hypercube:8", "adaptive", 3, 6}, {"mesh:24x24", "shortest-path", 4, 4},
	}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		g := mustGrid(t, c.topo)
		rel, err := routing.ByName(g, c.name)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Analyze(rel, Options{Context: t.Context()})
		if err != nil {
			t.Fatal(err)
		}
		realised := 0
		ref := &refusals{max: 8, accept: func(cf *Configuration) bool {
			_, err := Realise(t.Context(), rel, cf)
			if err == nil {
				realised++
			}
			return err == nil
		}}
		sc := scout(t.Context(), rel, res, DecideOptions{MaxStates: 1 << 23}, ref)
		if sc.conf == nil {
			t.Fatalf("%s on %s: the scout found nothing", c.name, c.topo)
		}
		checkConfiguration(t, rel, sc.conf)
		if realised == 0 || len(sc.conf.Worms) > c.worms || sc.conf.Channels > c.channels || sc.dests > 16 {
			t.Errorf("%s on %s: %d worms on %d channels toward %d destinations (realised %d); want at most %d on %d", c.name, c.topo, len(sc.conf.Worms), sc.conf.Channels, sc.dests, realised, c.worms, c.channels)
		}
	}
}

// TestSearchBelowUpper checks the exact search given a configuration already found
// (the scout's): on small networks it ends with the same fewest worms and channels as
// the search without one, proved minimal, and it answers the given configuration when
// nothing is smaller. The configurations given are the first the probes find, which
// are often not minimal.
func TestSearchBelowUpper(t *testing.T) {
	given, beaten := 0, 0
	for _, spec := range []string{"mesh:3x3", "torus:4x4", "hypercube:3", "mesh:4x3"} {
		for _, name := range []string{"adaptive", "nonminimal", "nonminimal:1", "nonminimal:2", "shortest-path", "dor-1vc"} {
			rel, err := routing.ByName(mustGrid(t, spec), name)
			if err != nil {
				continue
			}
			want, err := Decide(rel, DecideOptions{SkipSufficient: true})
			if err == nil && want.Verdict == props.Holds {
				continue // dor-1vc on a mesh
			}
			if err != nil || want.Verdict != props.Violated || !want.Minimal {
				t.Fatalf("%s on %s: %v %+v", name, spec, err, want)
			}
			var first Decision
			if err := decideSpace(t.Context(), rel, &first, DecideOptions{MaxStates: 1 << 22, MaxNodes: 1 << 22}, &refusals{}, spaceSearch{probe: scoutWorms}); err != nil || first.Configuration == nil {
				t.Fatalf("%s on %s: no probe configuration: %v %s", name, spec, err, first.Bound)
			}
			upper := first.Configuration
			var got Decision
			if err := decideSpace(t.Context(), rel, &got, DecideOptions{MaxStates: 1 << 22, MaxNodes: 1 << 24}, &refusals{}, spaceSearch{upper: upper}); err != nil {
				t.Fatal(err)
			}
			w, g := want.Configuration, got.Configuration
			if got.Verdict != props.Violated || !got.Minimal || len(g.Worms) != len(w.Worms) || g.Channels != w.Channels {
				t.Errorf("%s on %s: below %d worms on %d channels: %s %v, minimal %v; without it %d worms on %d channels", name, spec, len(upper.Worms), upper.Channels, got.Verdict, g, got.Minimal, len(w.Worms), w.Channels)
				continue
			}
			checkConfiguration(t, rel, g)
			given++
			if g != upper {
				beaten++
			} else if smaller(w, upper) {
				t.Errorf("%s on %s: the given configuration kept, but %d worms on %d channels exist", name, spec, len(w.Worms), w.Channels)
			}
		}
	}
	if beaten == 0 || beaten == given {
		t.Errorf("%d decisions given a configuration, %d found a smaller one: both ways should occur", given, beaten)
	}
	t.Logf("%d decisions given a configuration, %d found a smaller one", given, beaten)
}
