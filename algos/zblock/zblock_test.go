package zblock

import (
	"fmt"
	"testing"

	"github.com/wormcheck/wormcheck/algos/plan/plantest"
	"github.com/wormcheck/wormcheck/model"
)

// TestSizes: exactly once in d steps on 2^d x 2^d, d = 2..6. Reference: 004 §5.1.
func TestSizes(t *testing.T) {
	for d := 2; d <= 6; d++ {
		n := 1 << d
		g, _ := model.NewTorus(n, n)
		for _, src := range []model.NodeID{0, g.Node(n-1, 1)} {
			s, err := Build(g, src)
			if err != nil {
				t.Fatal(err)
			}
			if s.Steps() != d {
				t.Errorf("%dx%d: %d steps", n, n, s.Steps())
			}
			if err := plantest.ExactlyOnce(s); err != nil {
				t.Errorf("%dx%d: %v", n, n, err)
			}
		}
	}
}

// TestTopLevelTie documents that the top level's unit (X-δ, Y+δ) lies at exactly half the
// ring (δ = k/2), so shortest-path DOR with ties going Plus routes it +x first, like the
// unit (X+δ, Y): Definition 1 condition 3 fails in step 1.
func TestTopLevelTie(t *testing.T) {
	g, _ := model.NewTorus(8, 8)
	s, _ := Build(g, 0)
	if err := plantest.Valid(s); err == nil {
		t.Fatal("expected a first-channel clash in step 1")
	}
	if err := plantest.StepwiseArcDisjoint(s); err == nil {
		t.Fatal("expected a shared channel in step 1")
	}
}

func TestTimedGrid(t *testing.T) {
	for _, n := range []int{4, 8, 16} {
		g, _ := model.NewTorus(n, n)
		s, _ := Build(g, 0)
		bad := 0
		for _, p := range plantest.Grid() {
			if _, ct := plantest.Timed(s, p); ct != nil {
				bad++
			}
		}
		t.Logf("%dx%d: %d of %d grid points contend", n, n, bad, len(plantest.Grid()))
	}
}

func TestUnsupported(t *testing.T) {
	for _, n := range []int{2, 6, 12} {
		g, _ := model.NewTorus(n, n)
		if _, err := Build(g, 0); err == nil {
			t.Errorf("%d: accepted", n)
		}
	}
}

func ExampleBuild() {
	g, _ := model.NewTorus(4, 4)
	s, _ := Build(g, 0)
	for _, u := range s.Unicasts[:3] {
		fmt.Println(u.Step, g.NodeName(u.From), "->", g.NodeName(u.To))
	}
	// Output:
	// 1 (0,0) -> (2,0)
	// 1 (0,0) -> (0,2)
	// 1 (0,0) -> (2,2)
}
