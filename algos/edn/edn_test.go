package edn

import (
	"testing"

	"github.com/wormcheck/wormcheck/algos/plan/plantest"
	"github.com/wormcheck/wormcheck/model"
)

func TestSearchSurvey(t *testing.T) {
	ts := Search()
	t.Logf("%d tiles", len(ts))
	cf := 0
	for i, tl := range ts {
		ok := true
		for _, n := range []int{4, 16} {
			g, _ := model.NewTorus(n, n)
			s, _ := BuildWith(g, g.Node(1, 1), tl)
			if plantest.ExactlyOnce(s) != nil || plantest.Valid(s) != nil || plantest.StepwiseArcDisjoint(s) != nil {
				ok = false
				t.Logf("tile %d invalid on %d", i, n)
				break
			}
			for _, p := range plantest.Grid() {
				if _, c := plantest.Timed(s, p); c != nil {
					ok = false
					break
				}
			}
		}
		if ok {
			cf++
			t.Logf("depth-CF tile %d: %v", i, tl)
		}
	}
	t.Logf("%d of %d depth CF on grid", cf, len(ts))
	t.Logf("first: %v", ts[0])
}
