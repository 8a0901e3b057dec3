package dcf

import (
	"fmt"
	"testing"

	"github.com/wormcheck/wormcheck/algos/plan/plantest"
	"github.com/wormcheck/wormcheck/model/topology"
)

// survives builds blk on n x n tori for each n and runs the naive checks: exactly-once,
// Definition 1, stepwise arc-disjointness and the timed run on plantest.Grid. It returns
// "" or the first failure.
func survives(blk Block, sizes []int) string {
	for _, n := range sizes {
		g, _ := topology.NewTorus(n, n)
		s, err := BuildWith(g, g.Node(1, 2), blk)
		if err != nil {
			return err.Error()
		}
		if err := plantest.ExactlyOnce(s); err != nil {
			return err.Error()
		}
		if err := plantest.Valid(s); err != nil {
			return err.Error()
		}
		if err := plantest.StepwiseArcDisjoint(s); err != nil {
			return err.Error()
		}
		for _, p := range plantest.Grid() {
			if _, ct := plantest.Timed(s, p); ct != nil {
				u, v := s.Unicasts[ct.A], s.Unicasts[ct.B]
				return fmt.Sprintf("%dx%d %+v: %s->%s (step %d) and %s->%s (step %d) on %s at %d", n, n, p,
					g.NodeName(u.From), g.NodeName(u.To), u.Step, g.NodeName(v.From), g.NodeName(v.To), v.Step, g.ChannelName(ct.Channel), ct.At)
			}
		}
	}
	return ""
}

// TestSearchCounts pins how many level_1 blocks each reading of the text admits, and
// how many of them survive the composed checks on 4x4 and 16x16.
// Reference: 004 §5.2, §6.1, Theorems 3-4 (Fig. 7 missing).
func TestSearchCounts(t *testing.T) {
	if testing.Short() {
		t.Skip("composes every candidate on 16x16")
	}
	cases := []struct {
		opt            SearchOptions
		blocks, on4x16 int
	}{
		{SearchOptions{PathsInside: true, OnlySharedPair: true, AllAt3: true}, 46, 0},
		{SearchOptions{PathsInside: true, OnlySharedPair: true}, 192, 60},
		{SearchOptions{OnlySharedPair: true, AllAt3: true}, 112, 38},
	}
	for _, c := range cases {
		cs := SearchLevel1(c.opt)
		good := 0
		for _, cand := range cs {
			if len(cand.Shared) != 1 {
				t.Errorf("%+v: candidate shares %d pairs; the proof of Theorem 4 says one", c.opt, len(cand.Shared))
			}
			if survives(cand.Block, []int{4, 16}) == "" {
				good++
			}
		}
		if len(cs) != c.blocks || good != c.on4x16 {
			t.Errorf("%+v: %d blocks, %d survive on 4x4+16x16; want %d, %d", c.opt, len(cs), good, c.blocks, c.on4x16)
		}
	}
}

// TestLevel1IsFirstSurvivor pins the reconstruction: Level1 is the first block of the
// default search that is contention-free (naive timed grid) on 4x4 through 64x64.
func TestLevel1IsFirstSurvivor(t *testing.T) {
	if testing.Short() {
		t.Skip("composes candidates up to 64x64")
	}
	for _, c := range SearchLevel1(DefaultSearch()) {
		if survives(c.Block, []int{4, 16}) != "" {
			continue
		}
		if r := survives(c.Block, []int{8, 32, 64}); r != "" {
			continue
		}
		if fmt.Sprint(c.Block) != fmt.Sprint(Level1()) {
			t.Fatalf("first survivor is %v; Level1 is %v", c.Block, Level1())
		}
		return
	}
	t.Fatal("no survivor")
}

// TestAllAt3ReadingFails shows the witness behind DC3's note: the literal reading's
// first block contends on 16x16.
func TestAllAt3ReadingFails(t *testing.T) {
	cs := SearchLevel1(SearchOptions{PathsInside: true, OnlySharedPair: true, AllAt3: true})
	r := survives(cs[0].Block, []int{16})
	if r == "" {
		t.Fatal("expected a contention")
	}
	t.Log(r)
}
