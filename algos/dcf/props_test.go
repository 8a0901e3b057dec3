package dcf

import (
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
)

func TestExactDepthTmp(t *testing.T) {
	for _, n := range []int{4, 8, 16, 32, 64} {
		g, _ := model.NewTorus(n, n)
		s, _ := Build(g, 0)
		if err := s.Check(); err != nil {
			t.Fatal(err)
		}
		st := time.Now()
		r, err := props.DecideDepth(s, props.DepthOptions{})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%d: cf=%v pairs=%d cleared=%v unsound=%d pieces=%d %v", n, r.ContentionFree, len(r.Pairs), r.Cleared, r.Unsound, r.Pieces, time.Since(st))
		for _, rep := range []*props.Report{props.Validity(s), props.ExactlyOnce(s), props.Stepwise(s)} {
			t.Logf("  %s %s %s", rep.Property, rep.Verdict, rep.Reason)
		}
	}
}
