package dcf

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/wormcheck/wormcheck/algos/plan/plantest"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestSizes checks exactly-once delivery, validity and the step count on every supported
// size up to 64x64. Reference: 004 Theorem 2, Corollaries 1-2 (d steps on 2^d x 2^d).
func TestSizes(t *testing.T) {
	cases := []struct {
		n, steps int
		prime    bool
	}{
		{4, 2, false}, {8, 3, true}, {16, 4, false}, {32, 5, true}, {64, 6, false},
	}
	for _, c := range cases {
		g, _ := topology.NewTorus(c.n, c.n)
		sh, err := ShapeOf(g)
		if err != nil || sh.Prime != c.prime || sh.Steps() != c.steps {
			t.Fatalf("%dx%d: shape %+v, %v", c.n, c.n, sh, err)
		}
		for _, src := range []topology.NodeID{0, topology.NodeID(g.Nodes() - 1), g.Node(c.n/2, 1)} {
			s, err := Build(g, src)
			if err != nil {
				t.Fatal(err)
			}
			if s.Steps() != c.steps || len(s.Unicasts) != g.Nodes()-1 {
				t.Errorf("%dx%d from %d: %d steps, %d unicasts", c.n, c.n, src, s.Steps(), len(s.Unicasts))
			}
			for _, check := range []func(*model.Schedule) error{plantest.ExactlyOnce, plantest.Valid, plantest.StepwiseArcDisjoint} {
				if err := check(s); err != nil {
					t.Errorf("%dx%d from %d: %v", c.n, c.n, src, err)
				}
			}
		}
	}
}

// TestUnsupported refuses sizes the paper does not cover.
func TestUnsupported(t *testing.T) {
	for _, spec := range [][]int{{2, 2}, {6, 6}, {4, 8}, {12, 12}, {3, 3}} {
		g, _ := topology.NewTorus(spec...)
		if _, err := Build(g, 0); err == nil {
			t.Errorf("%v: no error", spec)
		}
	}
	m, _ := topology.NewMesh(4, 4)
	if _, err := Build(m, 0); err == nil {
		t.Error("mesh accepted")
	}
	g, _ := topology.NewTorus(4, 4)
	if _, err := Build(g, 16); err == nil {
		t.Error("bad source accepted")
	}
}

// TestFormulaOnGrid compares the naive timed run with §6.1's formula on a parameter grid.
// Reference: 004 §6.1 (claim DC7).
func TestFormulaOnGrid(t *testing.T) {
	for _, n := range []int{4, 8, 16, 32} {
		g, _ := topology.NewTorus(n, n)
		sh, _ := ShapeOf(g)
		s, _ := Build(g, g.Node(3, 1))
		for _, p := range plantest.Grid() {
			got, ct := plantest.Timed(s, p)
			if ct != nil {
				t.Fatalf("%dx%d %+v: contention %+v", n, n, p, *ct)
			}
			want := Formula(sh, Times{Ts: float64(p.Ts), Tc: float64(p.Tc), Tr: float64(p.Tr), L: int(p.L)})
			if float64(got) != want {
				t.Errorf("%dx%d %+v: timed %d, formula %g", n, n, p, got, want)
			}
		}
	}
}

// TestTranslation checks that the schedule from any source is the translate of the one
// from node 0 (torus symmetry), by gopter over random sources.
func TestTranslation(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(4)
	params.MinSuccessfulTests = 30
	props := gopter.NewProperties(params)
	g, _ := topology.NewTorus(16, 16)
	base, _ := Build(g, 0)
	props.Property("translate of the origin's schedule", prop.ForAll(func(x, y int) bool {
		s, err := Build(g, g.Node(x, y))
		if err != nil || len(s.Unicasts) != len(base.Unicasts) {
			return false
		}
		want := map[[3]int]bool{}
		for _, u := range base.Unicasts {
			f := g.Node(g.Coord(u.From, 0)+x, g.Coord(u.From, 1)+y)
			to := g.Node(g.Coord(u.To, 0)+x, g.Coord(u.To, 1)+y)
			want[[3]int{int(f), int(to), u.Step*100 + u.Order}] = true
		}
		for _, u := range s.Unicasts {
			if !want[[3]int{int(u.From), int(u.To), u.Step*100 + u.Order}] {
				return false
			}
		}
		return plantest.ExactlyOnce(s) == nil
	}, gen.IntRange(0, 15), gen.IntRange(0, 15)))
	props.TestingRun(t)
}

func BenchmarkBuild64(b *testing.B) {
	g, _ := topology.NewTorus(64, 64)
	for i := 0; i < b.N; i++ {
		if _, err := Build(g, 0); err != nil {
			b.Fatal(err)
		}
	}
}

func ExampleBuild() {
	g, _ := topology.NewTorus(4, 4)
	s, _ := Build(g, 0)
	for _, u := range s.Unicasts[:4] {
		fmt.Println(u.Step, u.Order, g.NodeName(u.From), "->", g.NodeName(u.To), len(u.Path), "hops")
	}
	// Output:
	// 1 1 (0,0) -> (2,1) 3 hops
	// 1 2 (0,0) -> (3,3) 2 hops
	// 1 3 (0,0) -> (0,2) 2 hops
	// 1 4 (0,0) -> (0,3) 1 hops
}
