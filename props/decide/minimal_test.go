package decide

import (
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// quadrant is a user's relation that is not invariant under the mesh's reflections or
// its swap of dimensions: minimal adaptive routing at the nodes of the upper right
// quadrant (x, y >= 2), dimension order elsewhere. Only the quadrant's square of four
// channels deadlocks.
type quadrant struct{ adaptive, xy routing.Relation }

func (q quadrant) Name() string            { return "quadrant" }
func (q quadrant) Grid() *topology.Network { return q.xy.Grid() }
func (q quadrant) VCs() int                { return 1 }
func (q quadrant) Route(h routing.Header, out []routing.Output) []routing.Output {
	g := q.xy.Grid()
	if g.Coord(h.At, 0) >= 2 && g.Coord(h.At, 1) >= 2 {
		return q.adaptive.Route(h, out)
	}
	return q.xy.Route(h, out)
}

// TestSymmetryVerified checks the automorphisms the search uses: the built-ins keep
// those of their network that they respect (minimal adaptive routing every one, so
// every vertex is in one orbit; dimension order on one VC the translations and, on odd
// rings, the reflections, not the swap of dimensions; on even rings its ties break
// toward Plus, so not the reflections either), and a relation that is not invariant
// keeps none: quadrant deadlocks only in the upper right quadrant, which a mesh
// reflection would map onto the lower left, where the search starts.
func TestSymmetryVerified(t *testing.T) {
	for _, c := range []struct {
		topo, name  string
		gens, orbit int
	}{
		{"torus:4x4", "adaptive", 5, 1}, {"hypercube:3", "adaptive", 5, 1}, {"torus:5x5", "dor-1vc", 4, 2},
		{"torus:4x4", "dor-1vc", 2, 4}, {"torus:5x3", "adaptive", 4, 2}, {"mesh:4x4", "west-first", 1, 24},
	} {
		rel, err := routing.ByName(mustGrid(t, c.topo), c.name)
		if err != nil {
			t.Fatal(err)
		}
		sp, err := buildSpace(t.Context(), rel, 1<<20, nil)
		if err != nil {
			t.Fatal(err)
		}
		sy := sp.symmetry()
		if len(sy.gens) != c.gens || sy.orbits() != c.orbit {
			t.Errorf("%s on %s: %d automorphisms, %d orbits; want %d, %d", c.name, c.topo, len(sy.gens), sy.orbits(), c.gens, c.orbit)
		}
	}
	g := mustGrid(t, "mesh:4x4")
	ad, _ := routing.ByName(g, "adaptive")
	xy, _ := routing.ByName(g, "dor")
	rel := quadrant{ad, xy}
	sp, err := buildSpace(t.Context(), rel, 1<<20, nil) // untrusted: one class per source
	if err != nil {
		t.Fatal(err)
	}
	if sy := sp.symmetry(); len(sy.gens) != 0 || sy.orbits() != sp.vertices() {
		t.Errorf("quadrant: %d automorphisms, %d orbits of %d vertices; want none", len(sy.gens), sy.orbits(), sp.vertices())
	}
	d, err := Decide(rel, Options{SkipSufficient: true})
	if err != nil {
		t.Fatal(err)
	}
	if d.Verdict != props.Violated || len(d.Configuration.Worms) != 4 || d.Configuration.Channels != 4 || !d.Minimal {
		t.Fatalf("quadrant: %s %+v, want four worms round the quadrant's square", d.Verdict, d.Configuration)
	}
	checkConfiguration(t, rel, d.Configuration)
}

// boundCases are the relations whose configurations the bound tests take apart.
var boundCases = []struct{ topo, name string }{
	{"torus:6x6", "adaptive"}, {"hypercube:3", "adaptive"}, {"torus:5x5", "dor-1vc"}, {"mesh:4x4", "adaptive"},
	{"mesh:4x4", "nonminimal"}, {"hypercube:3", "nonminimal"}, {"mesh:4x4", "nonminimal:1"}, {"torus:5x5", "adaptive"},
	{"torus:4x4", "nonminimal:2"}, {"mesh:3x3", "nonminimal"},
}

// foundConfigurations returns the first configurations the search finds for rel, at
// most max of them, by fewest worms and then channels (up to 10 channels), with no
// bound but the lassos.
func foundConfigurations(t *testing.T, rel routing.Relation, max int) (*finder, [][]*wormPart) {
	sp, err := buildSpace(t.Context(), rel, 1<<20, nil)
	if err != nil {
		t.Fatal(err)
	}
	alive, header := sp.survivors()
	f := newFinder(sp, alive, header, 1<<22)
	f.lasso, f.adj = sp.lassos(alive, nil)
	var out [][]*wormPart
	for k := 1; k <= 6 && len(out) < max; k++ {
		for c := 1; c <= 10 && len(out) < max; c++ {
			if f.run(k, c) {
				out = append(out, f.found)
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("%s on %s: no configuration", rel.Name(), rel.Grid().Spec())
	}
	return f, out
}

// occupy marks the vertices of worms held (f.occ, f.worms), and every other vertex free.
func (f *finder) occupy(worms []*wormPart) {
	clear(f.occ)
	f.worms = f.worms[:0]
	f.used = 0
	for _, w := range worms {
		f.place(w)
	}
}

// TestCorridorSound takes the worms of configurations apart: with the worm from vertex
// j on placed and its vertices i..j-1 free, the corridor of a growth from its tail to
// vertex i with exactly j-i vertices left holds, at each vertex k in between, a state of
// the worm's set there within k-i hops, as the growth needs. The growth is tight (it
// uses every vertex left) in many cases, so a corridor one vertex narrower fails.
func TestCorridorSound(t *testing.T) {
	tight := 0
	for _, c := range boundCases {
		rel, _ := routing.ByName(mustGrid(t, c.topo), c.name)
		f, confs := foundConfigurations(t, rel, 2)
		for _, conf := range confs {
			for wi, w := range conf {
				for j := 1; j < len(w.path); j++ {
					suffix := &wormPart{path: w.path[j:], sets: w.sets[j:], outs: w.outs}
					for i := 0; i < j; i++ {
						var others []*wormPart
						for wj, x := range conf {
							if wj != wi {
								others = append(others, x)
							}
						}
						f.occupy(append(others, suffix))
						near, ok, big := f.corridor(suffix, w.path[i], j-i)
						if big {
							continue // near's bound instead
						}
						if !ok {
							t.Fatalf("%s on %s: no corridor from vertex %d to vertex %d of a worm %v", c.name, c.topo, j, i, w.path)
						}
						for k := i; k < j; k++ {
							best := int32(-1)
							for _, st := range w.sets[k] {
								if h := corridorHops(near, st); h >= 0 && (best < 0 || h < best) {
									best = h
								}
							}
							if best < 0 || int(best) > k-i {
								t.Fatalf("%s on %s: worm %v, growth %d..%d: vertex %d is %d hops from the start in the corridor, want at most %d", c.name, c.topo, w.path, i, j, k, best, k-i)
							}
						}
						if j-i >= 2 {
							tight++
						}
					}
				}
			}
		}
	}
	if tight == 0 {
		t.Error("no growth of two or more vertices was checked")
	}
	t.Logf("%d growths of two or more vertices checked", tight)
}

// TestChainBoundSound takes configurations apart worm by worm: with the worms before
// the a-th placed, the chain bound of the a-th (J the worms from it on) after each
// prefix of it is at most the channels the configuration still holds beyond the
// placed worms and the prefix, and equals them in the cases counted tight (so a bound
// one higher fails).
func TestChainBoundSound(t *testing.T) {
	tight := 0
	for _, c := range boundCases {
		rel, _ := routing.ByName(mustGrid(t, c.topo), c.name)
		f, confs := foundConfigurations(t, rel, 2)
		f.cb = newCycleBounds(f.sp, f.alive, f.header)
		for _, conf := range confs {
			total := 0
			for _, w := range conf {
				total += len(w.path)
			}
			placedCh := 0
			for a := 0; a < len(conf); a++ {
				if a > 0 {
					placedCh += len(conf[a-1].path)
				}
				f.occupy(conf[:a])
				f.kMax = len(conf)
				left := total - placedCh
				tab := f.chainTable(a, left)
				w := conf[a]
				for i := 1; i <= len(w.path); i++ {
					need := f.chainNeed(tab, w.sets[i-1], i, len(conf)-a, left)
					rest := total - placedCh - i
					if need > rest {
						t.Fatalf("%s on %s: worm %d of %d %v after %d vertices: the chain bound is %d, the configuration holds %d more", c.name, c.topo, a, len(conf), w.path, i, need, rest)
					}
					if need == rest {
						tight++
					}
				}
			}
		}
	}
	if tight == 0 {
		t.Error("no tight chain bound was checked")
	}
	t.Logf("%d tight chain bounds", tight)
}
