package banyan

import (
	"testing"

	"github.com/wormcheck/wormcheck/checker"
)

// TestProgressCertified: on the Fig. 4 instance and a two-message instance of N = 8 (small enough for the liveness graph),
// under every timing, arbitration policy, acquisition mode and drain model, the explorer
// finds the rank increasing on every transition it generates, and the liveness check on
// the explicit graph agrees with the deadlock verdict (no cycle, so the only way a
// message is not delivered is a deadlock).
func TestProgressCertified(t *testing.T) {
	for _, inst := range []struct {
		n    int
		msgs string
	}{{16, "1->5,6,7,8;15->7-12"}, {8, "0->1,2;3->2,3"}} {
		b := mustBanyan(t, inst.n)
		msgs, err := ParseMulticasts(inst.msgs, inst.n)
		if err != nil {
			t.Fatal(err)
		}
		for _, opt := range []Options{
			{Arbitration: Free}, {Arbitration: UpperFirst},
			{Arbitration: Free, Timing: Async}, {Arbitration: UpperFirst, Timing: Async, Acquire: Split},
			{Arbitration: UpperFirst, Flits: b.Stages() + 3}, {Arbitration: Free, Phase1Only: true},
		} {
			if inst.n == 16 {
				opt.Starts = []int{5, 7}
			}
			sys, err := NewSystem(b, msgs, opt)
			if err != nil {
				t.Fatal(err)
			}
			r := explore(t, sys)
			p := r.Progress
			if p == nil || p.Broken != nil || p.Checked != r.Stats.Transitions || p.Checked == 0 || (r.Verdict == checker.Holds) != p.Certified(r.Verdict) {
				t.Fatalf("%s %+v: progress %+v over %d transitions; want every transition checked, none broken", inst.msgs, opt, p, r.Stats.Transitions)
			}
			l, err := checker.CheckLiveness[State](sys, checker.LivenessOptions{MaxStates: 200000})
			if err != nil {
				t.Fatal(err)
			}
			if l.Verdict != r.Verdict || (r.Verdict == checker.Holds && (l.States != r.Stats.States || l.Transitions != r.Stats.Transitions)) {
				t.Fatalf("%s %+v: liveness %v on %d states/%d transitions, deadlock check %v on %d/%d", inst.msgs, opt,
					l.Verdict, l.States, l.Transitions, r.Verdict, r.Stats.States, r.Stats.Transitions)
			}
			if l.Violation != nil && l.Violation.Kind != checker.KindDeadlock {
				t.Fatalf("%s %+v: liveness found a %s in an acyclic graph", inst.msgs, opt, l.Violation.Kind)
			}
		}
	}
}
