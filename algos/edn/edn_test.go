package edn

import (
	"fmt"
	"testing"

	"github.com/wormcheck/wormcheck/algos/plan/plantest"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// TestPatternIsFirst pins the reconstruction to the first tile of the search.
func TestPatternIsFirst(t *testing.T) {
	ts := Search()
	if len(ts) != 72 {
		t.Errorf("search finds %d tiles; pinned 72", len(ts))
	}
	if fmt.Sprint(ts[0]) != fmt.Sprint(Pattern()) {
		t.Fatalf("Search()[0] = %v; Pattern() = %v", ts[0], Pattern())
	}
	// With one-hop covers only (strict domination) nothing is left: the top level's
	// ties at distance k/2 force two dominating nodes onto the +x channel.
	strict := 0
	for _, tl := range ts {
		ok := true
		cs := [4]Cell{{}, tl.Dominating[0], tl.Dominating[1], tl.Dominating[2]}
		for i, cov := range tl.Covers {
			for _, c := range cov {
				if dist(Cell{c.X - cs[i].X, c.Y - cs[i].Y}) != 1 {
					ok = false
				}
			}
		}
		if ok {
			strict++
		}
	}
	if strict != 0 {
		t.Errorf("%d tiles with one-hop covers; expected none", strict)
	}
}

// TestSizes: exactly once, valid, stepwise arc-disjoint, d steps on 2^d x 2^d for
// d = 2..6. Reference: 004 §4 (EDN needs d steps and is stepwise contention-free).
func TestSizes(t *testing.T) {
	for d := 2; d <= 6; d++ {
		n := 1 << d
		g, _ := topology.NewTorus(n, n)
		for _, src := range []topology.NodeID{0, g.Node(n-1, n/2)} {
			s, err := Build(g, src)
			if err != nil {
				t.Fatal(err)
			}
			if s.Steps() != d {
				t.Errorf("%dx%d: %d steps", n, n, s.Steps())
			}
			for _, f := range []func(*model.Schedule) error{plantest.ExactlyOnce, plantest.Valid, plantest.StepwiseArcDisjoint} {
				if err := f(s); err != nil {
					t.Errorf("%dx%d: %v", n, n, err)
				}
			}
		}
	}
}

// TestEveryTileDepth counts how many of the admissible tiles are depth contention-free
// on 16x16 (exact decision), so that DC5's verdict is not an artefact of the choice.
func TestEveryTileDepth(t *testing.T) {
	if testing.Short() {
		t.Skip("72 exact decisions")
	}
	g, _ := topology.NewTorus(16, 16)
	cf := 0
	for _, tl := range Search() {
		s, _ := BuildWith(g, 0, tl)
		r, err := schedule.DecideDepth(s, schedule.DepthOptions{NoTheorem1: true})
		if err != nil {
			t.Fatal(err)
		}
		if r.ContentionFree {
			cf++
		}
	}
	if cf != DepthFreeTiles16 {
		t.Errorf("%d of 72 tiles depth contention-free on 16x16; pinned %d", cf, DepthFreeTiles16)
	}
}

func TestFormulaContentionFreeCase(t *testing.T) {
	// On 4x4 the pinned tile has no contention at ts = 200: its simulated completion must
	// equal the formula there.
	g, _ := topology.NewTorus(4, 4)
	s, _ := Build(g, 0)
	p := props.Params{Ts: 200, Tr: 3, Tc: 1, L: 5}
	tm, err := schedule.Simulate(s, p)
	if err != nil {
		t.Fatal(err)
	}
	want := Formula(1, false, Times{Ts: 200, Tr: 3, Tc: 1, L: 5})
	if tm.First == nil && float64(tm.Completion) != want {
		t.Errorf("completion %d, formula %g", tm.Completion, want)
	}
}

func TestUnsupported(t *testing.T) {
	for _, n := range []int{2, 6, 12} {
		g, _ := topology.NewTorus(n, n)
		if _, err := Build(g, 0); err == nil {
			t.Errorf("%d accepted", n)
		}
	}
}

func ExampleBuild() {
	g, _ := topology.NewTorus(4, 4)
	s, _ := Build(g, 0)
	fmt.Println(len(s.Unicasts), "unicasts in", s.Steps(), "steps")
	// Output: 15 unicasts in 2 steps
}
