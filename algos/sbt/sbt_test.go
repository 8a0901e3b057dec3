package sbt

import (
	"fmt"
	"math/big"
	"testing"

	"github.com/wormcheck/wormcheck/algos/plan/plantest"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestExactlyOnceInNSteps: Reference 003 §2.2 ("every node will receive the message
// exactly once and in no later than n time steps"), n = 3..10, every base dimension.
func TestExactlyOnceInNSteps(t *testing.T) {
	for n := 3; n <= 10; n++ {
		h, _ := topology.NewHypercube(n)
		for base := 0; base < n; base++ {
			s, err := Build(h, topology.NodeID((n*37)%(1<<n)), base)
			if err != nil {
				t.Fatal(err)
			}
			if s.Steps() != n {
				t.Errorf("n=%d base=%d: %d steps", n, base, s.Steps())
			}
			for _, f := range []func(*model.Schedule) error{plantest.ExactlyOnce, plantest.Valid, plantest.StepwiseArcDisjoint} {
				if err := f(s); err != nil {
					t.Errorf("n=%d base=%d: %v", n, base, err)
				}
			}
		}
	}
}

// TestDistributions: Reference 003 eqs. (5), (6), (9), (10) and the fraction before (3).
func TestDistributions(t *testing.T) {
	for n := 2; n <= 12; n++ {
		h, _ := topology.NewHypercube(n)
		s, _ := Build(h, 0, n/2)
		d := Count(s, n)
		tot := big.NewInt(1<<n - 1)
		mean := new(big.Rat)
		for i := 1; i <= n; i++ {
			got := new(big.Rat).SetFrac(big.NewInt(d.Depth[i]), tot)
			if got.Cmp(Eq5(n, i)) != 0 {
				t.Errorf("n=%d eq5 i=%d: tree %v, formula %v", n, i, got, Eq5(n, i))
			}
			mean.Add(mean, new(big.Rat).Mul(big.NewRat(int64(i), 1), got))
		}
		if mean.Cmp(Eq6(n)) != 0 {
			t.Errorf("n=%d eq6: tree %v formula %v", n, mean, Eq6(n))
		}
		wmean, repl := new(big.Rat), int64(0)
		for i := 0; i < n; i++ {
			got := new(big.Rat).SetFrac(big.NewInt(d.Replications[i]), tot)
			if got.Cmp(Eq9(n, i)) != 0 {
				t.Errorf("n=%d eq9 i=%d: tree %v formula %v", n, i, got, Eq9(n, i))
			}
			wmean.Add(wmean, new(big.Rat).Mul(big.NewRat(int64(i), 1), got))
			if i > 0 {
				repl += d.Replications[i]
			}
		}
		if wmean.Cmp(Eq10(n)) != 0 {
			t.Errorf("n=%d eq10", n)
		}
		if new(big.Rat).SetFrac(big.NewInt(repl), tot).Cmp(Eq3Fraction(n)) != 0 {
			t.Errorf("n=%d eq3 fraction", n)
		}
	}
}

func TestBadInput(t *testing.T) {
	h, _ := topology.NewHypercube(3)
	if _, err := Build(h, 0, 3); err == nil {
		t.Error("base 3 accepted")
	}
	g, _ := topology.NewTorus(4, 4)
	if _, err := Build(g, 0, 0); err == nil {
		t.Error("torus accepted")
	}
}

func ExampleBuild() {
	h, _ := topology.NewHypercube(3)
	s, _ := Build(h, 0, 1)
	for _, u := range s.Unicasts {
		fmt.Print(u.Step, ":", h.NodeName(u.From), "->", h.NodeName(u.To), " ")
	}
	fmt.Println()
	// Output: 1:000->010 1:000->100 1:000->001 2:010->110 2:010->011 2:100->101 3:110->111
}

// TestCountDetectsOtherTrees: the distributions are counted, not assumed: separate
// addressing from the source (every node in step 1..N-1, the source replicating N-1
// times) does not match eq. (5) or eq. (9).
func TestCountDetectsOtherTrees(t *testing.T) {
	n := 4
	h, _ := topology.NewHypercube(n)
	s, _ := Build(h, 0, 0)
	// Re-parent every unicast to the source, one hop count per step kept: a star.
	star := *s
	star.Unicasts = append([]model.Unicast(nil), s.Unicasts...)
	for i := range star.Unicasts {
		star.Unicasts[i].From = 0
		star.Unicasts[i].Step = 1
	}
	d := Count(&star, n)
	tot := big.NewInt(1<<n - 1)
	if new(big.Rat).SetFrac(big.NewInt(d.Depth[1]), tot).Cmp(Eq5(n, 1)) == 0 {
		t.Error("a star matches eq. (5) at i = 1")
	}
	if new(big.Rat).SetFrac(big.NewInt(d.Replications[0]), tot).Cmp(Eq9(n, 0)) == 0 {
		t.Error("a star matches eq. (9) at i = 0")
	}
}
