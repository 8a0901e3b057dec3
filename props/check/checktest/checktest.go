// Package checktest holds test helpers for users' own CI: run an instance or a schedule
// through the entry (package props/check) and fail the test with the witness text when
// the verdict is not the expected one. Every helper calls t.Helper, so the failure is
// reported at the caller's line.
//
//	func TestMyBroadcast(t *testing.T) {
//		s := myBroadcast(t) // a *model.Schedule, e.g. from algos/plan.Builder
//		checktest.RequireHolds(t, checktest.RunSchedule(t, s, "depth"))
//	}
package checktest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// Run checks one instance for one property through check.Run (with the options given,
// or the zero Options) and fails the test at once on an error: bad input in a test is a
// bug of the test.
func Run(t testing.TB, in check.Instance, property checker.Property, opt ...check.Options) *props.Report {
	t.Helper()
	rep, err := check.Run(context.Background(), in, property, options(opt))
	if err != nil {
		t.Fatalf("check %s on %s for %s: %v", in.Algorithm, in.Topology, property, err)
	}
	return rep
}

// Checker is a typed request of the entry: check.Unicast, check.TreeMulticast,
// check.TwoPhase.
type Checker interface {
	Check(ctx context.Context, property checker.Property, opt check.Options) (*props.Report, error)
}

// Check checks a typed request for one property (with the options given, or the zero
// Options) and fails the test at once on an error.
func Check(t testing.TB, c Checker, property checker.Property, opt ...check.Options) *props.Report {
	t.Helper()
	rep, err := c.Check(context.Background(), property, options(opt))
	if err != nil {
		t.Fatalf("check %T for %s: %v", c, property, err)
	}
	return rep
}

// RunSchedule judges one property of a schedule through check.RunSchedule and fails the
// test at once on an error (a schedule that is not well formed).
func RunSchedule(t testing.TB, s *model.Schedule, property checker.Property, opt ...check.Options) *props.Report {
	t.Helper()
	rep, err := check.RunSchedule(context.Background(), s, property, options(opt))
	if err != nil {
		t.Fatalf("check schedule for %s: %v", property, err)
	}
	return rep
}

// RunModel checks a transition system of the user's own through check.RunModel and fails
// the test at once on an error.
func RunModel[S any](t testing.TB, m checker.Model[S], c check.ModelCheck[S], opt ...check.Options) *props.Report {
	t.Helper()
	rep, err := check.RunModel(context.Background(), m, c, options(opt))
	if err != nil {
		t.Fatalf("check model %s: %v", c.Name, err)
	}
	return rep
}

func options(opt []check.Options) check.Options {
	if len(opt) > 0 {
		return opt[0]
	}
	return check.Options{}
}

// RequireHolds fails the test unless rep holds, printing the report with its witness (a
// shortest trace, the contending pair, the bound that was reached).
func RequireHolds(t testing.TB, rep *props.Report) {
	t.Helper()
	if rep == nil {
		t.Fatal("no report")
		return
	}
	if rep.Verdict != props.Holds {
		t.Fatalf("want holds, got %s\n%s", rep.Verdict, Explain(rep))
	}
}

// RequireViolated fails the test unless rep is violated with a witness, and, when the
// report carries a replayable trace, unless check.Replay re-executes it to the same
// violation. It returns the witness for further assertions.
func RequireViolated(t testing.TB, rep *props.Report) *props.Witness {
	t.Helper()
	if rep == nil {
		t.Fatal("no report")
		return nil
	}
	if rep.Verdict != props.Violated || rep.Witness == nil {
		t.Fatalf("want violated with a witness, got %s\n%s", rep.Verdict, Explain(rep))
		return nil
	}
	if rep.Trace != nil && rep.Trace.Algorithm != "" {
		again, err := check.Replay(context.Background(), rep.Trace)
		if err != nil {
			t.Fatalf("the witness does not replay: %v\n%s", err, Explain(rep))
			return nil
		}
		if again.Verdict != props.Violated {
			t.Fatalf("the witness replays to %s, not to the violation\n%s", again.Verdict, Explain(rep))
			return nil
		}
	}
	return rep.Witness
}

// Explain renders a report for a test failure: the report as `wormcheck check` prints it
// and, for a trace witness, the initial-state index it starts from and the wait-for
// cycle of its last state.
func Explain(rep *props.Report) string {
	var b strings.Builder
	b.WriteString(rep.String())
	if w := rep.Witness; w != nil && (w.Kind == props.WitnessTrace || w.Kind == props.WitnessLasso) {
		fmt.Fprintf(&b, "  from initial state %d, %d steps", w.Init, len(w.Steps))
		if rep.Trace != nil {
			b.WriteString("; save rep.Trace and run 'wormcheck replay' on it to re-execute")
		}
		b.WriteByte('\n')
		for i, e := range w.Cycle {
			fmt.Fprintf(&b, "  cycle %d: m%d waits at %s (vc%d) for m%d\n", i+1, e.Message, e.Channel, e.VC, e.Holder)
		}
	}
	return b.String()
}
