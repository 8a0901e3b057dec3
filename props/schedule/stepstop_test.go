package schedule

import (
	"context"
	"testing"

	"github.com/wormcheck/wormcheck/algos/zblock"
	"github.com/wormcheck/wormcheck/checker/checkertest"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// newCountCtx is checkertest.NewCountContext: a context cancelled by its n-th look.
func newCountCtx(n int64) *checkertest.CountContext { return checkertest.NewCountContext(n) }

// TestStepChecksStopOnCancel cuts the step-semantics checks of a 16383-unicast Z_block
// broadcast by context looks (one every unicastEvery = 4096 unicasts of a pass): each
// ends inconclusive, saying how far it got, and holds with looks to spare. Validity
// reads the unicasts once per condition, so its 1st to 3rd looks fall in condition (1),
// the 4th to 7th in (2) and the 8th to 11th in (3).
func TestStepChecksStopOnCancel(t *testing.T) {
	g, err := topology.NewTorus(128, 128)
	if err != nil {
		t.Fatal(err)
	}
	s, err := zblock.Build(g, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		run   func(context.Context, *model.Schedule) *props.Report
		looks int64 // looks that find ctx alive
		want  string
	}{
		{"validity", ValidityContext, 0, "cancelled: context canceled while checking Definition 1 (1) (none had been checked); nothing was decided"},
		{"validity", ValidityContext, 3, "cancelled: context canceled while checking Definition 1 (2) (condition (1) held); nothing was decided"},
		{"validity", ValidityContext, 7, "cancelled: context canceled while checking Definition 1 (3) (conditions (1) to (2) held); nothing was decided"},
		{"exactly-once", ExactlyOnceContext, 1, "cancelled: context canceled in group 0 of 1 (groups before it served exactly once); nothing was decided"},
		{"stepwise", StepwiseContext, 2, "cancelled: context canceled after 12287 of 16383 unicasts, each arc-disjoint from the earlier ones of its step; nothing was decided"},
	} {
		r := c.run(newCountCtx(c.looks), s)
		if r.Verdict != props.Inconclusive || r.Reason != c.want {
			t.Errorf("%s cut after %d looks: %v, %q", c.name, c.looks, r.Verdict, r.Reason)
		}
		if r := c.run(newCountCtx(100), s); r.Verdict != props.Holds {
			t.Errorf("%s with looks to spare: %v, %q", c.name, r.Verdict, r.Reason)
		}
	}
}
