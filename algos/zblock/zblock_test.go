package zblock

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wormcheck/wormcheck/algos/plan/plantest"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// TestSizes: exactly once in d steps on 2^d x 2^d, d = 2..6. Reference: 004 §5.1.
func TestSizes(t *testing.T) {
	for d := 2; d <= 6; d++ {
		n := 1 << d
		g, _ := topology.NewTorus(n, n)
		for _, src := range []topology.NodeID{0, g.Node(n-1, 1)} {
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

// TestTopLevelTie: the top level's unit (X-δ, Y+δ) lies at exactly half the ring (δ =
// k/2). With PlusTies (DOR's default) it leaves by +x, like the unit (X+δ, Y): Definition
// 1 condition 3 fails in step 1. With PaperTies (004 Fig. 6(b)) it leaves by -x through
// the wrap-around and the three sends of step 1 use three channels.
func TestTopLevelTie(t *testing.T) {
	for _, n := range []int{4, 8, 16, 32, 64} {
		g, _ := topology.NewTorus(n, n)
		plus, _ := BuildPlusTies(g, 0)
		if err := plantest.Valid(plus); err == nil {
			t.Errorf("%dx%d plus ties: expected a first-channel clash in step 1", n, n)
		}
		if err := plantest.StepwiseArcDisjoint(plus); err == nil {
			t.Errorf("%dx%d plus ties: expected a shared channel in step 1", n, n)
		}
		paper, _ := Build(g, 0)
		if err := plantest.Valid(paper); err != nil {
			t.Errorf("%dx%d paper ties: %v", n, n, err)
		}
		if err := plantest.StepwiseArcDisjoint(paper); err != nil {
			t.Errorf("%dx%d paper ties: %v", n, n, err)
		}
		first := map[topology.ChannelID]bool{}
		for _, u := range paper.Unicasts[:3] {
			first[u.Path[0]] = true
		}
		u := paper.Unicasts[2]
		if ch := g.Channel(u.Path[0]); len(first) != 3 || ch.Dim != 0 || ch.Dir != topology.Minus || !ch.Wrap {
			t.Errorf("%dx%d: (X-δ, Y+δ) leaves by %s", n, n, g.ChannelName(u.Path[0]))
		}
	}
}

// TestPaperTiesPaths: every path of the paper-tie Z_block is minimal and differs from
// the DOR path only where a dimension ties (the schedule passes Check with TiesEither and
// fails the strict check); the strict version's paths are exactly DOR's.
func TestPaperTiesPaths(t *testing.T) {
	for _, n := range []int{4, 8, 16} {
		g, _ := topology.NewTorus(n, n)
		r := topology.NewDOR(g)
		s, err := Build(g, g.Node(1, n-1))
		if err != nil {
			t.Fatal(err)
		}
		if s.Ties != model.TiesEither {
			t.Fatalf("ties %v", s.Ties)
		}
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		differ := 0
		for _, u := range s.Unicasts {
			if len(u.Path) != g.Distance(u.From, u.To) {
				t.Errorf("%s->%s: %d hops", g.NodeName(u.From), g.NodeName(u.To), len(u.Path))
			}
			if r.IsDORPath(u.From, u.To, u.Path) != nil {
				differ++
				if u.Step != 1 {
					t.Errorf("%s->%s in step %d differs from DOR; only the top level ties", g.NodeName(u.From), g.NodeName(u.To), u.Step)
				}
			}
		}
		if differ != 1 {
			t.Errorf("%dx%d: %d paths differ from DOR, want 1 (the unit (X-δ, Y+δ))", n, n, differ)
		}
		strict := *s
		strict.Ties = model.TiesPlus
		if strict.Check() == nil {
			t.Errorf("%dx%d: strict check accepts the paper's Minus tie", n, n)
		}
		// The schedule file round-trips with "ties": "either".
		b, err := model.MarshalSchedule(s)
		if err != nil {
			t.Fatal(err)
		}
		back, err := model.ParseSchedule(b)
		if err != nil || back.Ties != model.TiesEither || len(back.Unicasts) != len(s.Unicasts) {
			t.Fatalf("round trip: %v", err)
		}
		for i := range s.Unicasts {
			if !slices.Equal(back.Unicasts[i].Path, s.Unicasts[i].Path) {
				t.Fatalf("round trip changed path %d", i)
			}
		}
		plus, _ := BuildPlusTies(g, g.Node(1, n-1))
		if plus.Ties != model.TiesPlus || plus.Check() != nil {
			t.Errorf("plus-tie schedule: ties %v, check %v", plus.Ties, plus.Check())
		}
	}
}

// TestDepthFinding records what the exact depth decision says about the paper-tie
// Z_block (claim DC6 reports it): depth contention-free on 4x4 (the one channel-sharing
// pair no Theorem 1 condition clears meets tail-to-head: (0,0)->(2,2) releases (2,0)->(2,1)
// at 3ts+2tc+L·tc, exactly when (2,0)'s second send can take it at tr = 0), contended from
// 8x8 on; the plus-tie version contends on every size.
func TestDepthFinding(t *testing.T) {
	for _, c := range []struct {
		n           int
		paper, plus checker.Verdict
	}{{4, checker.Holds, checker.Violated}, {8, checker.Violated, checker.Violated}, {16, checker.Violated, checker.Violated}} {
		g, _ := topology.NewTorus(c.n, c.n)
		s, _ := Build(g, 0)
		p, _ := BuildPlusTies(g, 0)
		if v := schedule.Depth(s, schedule.DepthOptions{}).Verdict; v != c.paper {
			t.Errorf("%dx%d paper ties: depth %s, want %s", c.n, c.n, v, c.paper)
		}
		if v := schedule.Depth(p, schedule.DepthOptions{}).Verdict; v != c.plus {
			t.Errorf("%dx%d plus ties: depth %s, want %s", c.n, c.n, v, c.plus)
		}
	}
}

func TestTimedGrid(t *testing.T) {
	for _, n := range []int{4, 8, 16} {
		g, _ := topology.NewTorus(n, n)
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
	g4, _ := topology.NewTorus(4, 4)
	if _, err := BuildWith(g4, 0, Options{Ties: Ties(9)}); err == nil {
		t.Error("unknown tie rule accepted")
	}
	for _, n := range []int{2, 6, 12} {
		g, _ := topology.NewTorus(n, n)
		if _, err := Build(g, 0); err == nil {
			t.Errorf("%d: accepted", n)
		}
	}
}

func ExampleBuild() {
	g, _ := topology.NewTorus(4, 4)
	s, _ := Build(g, 0)
	for _, u := range s.Unicasts[:3] {
		fmt.Println(u.Step, g.NodeName(u.From), "->", g.NodeName(u.To))
	}
	// Output:
	// 1 (0,0) -> (2,0)
	// 1 (0,0) -> (0,2)
	// 1 (0,0) -> (2,2)
}
