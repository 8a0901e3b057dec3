package proofs

import (
	"context"
	"testing"

	"github.com/wormcheck/wormcheck/props"
)

// TestTMQuick runs TM1 in quick mode and checks its verdict and witness files (the
// catalogue test runs TM2 and TM3). Reference: 000 Fig. 3.
func TestTMQuick(t *testing.T) {
	for _, id := range []string{"TM1"} {
		c, ok := Lookup(id)
		if !ok {
			t.Fatalf("%s is not registered", id)
		}
		r := Check(context.Background(), c, Options{Size: Quick})
		t.Logf("%s: %s in %.1fs, %d instances, %d states: %s", id, r.Outcome.Verdict, r.Seconds, r.Outcome.Instances, r.Outcome.States, r.Outcome.Note)
		if !r.AsExpected() {
			t.Errorf("%s: verdict %s (err %v); want %s", id, r.Outcome.Verdict, r.Outcome.Err, c.Expected)
		}
		if r.Outcome.Verdict == Violated {
			if len(r.Outcome.Files["json"]) == 0 {
				t.Errorf("%s: no trace file", id)
			}
			if ev, ok := r.Outcome.Evidence.(*props.FlitEvidence); !ok || len(ev.Trace.Steps) < 2 {
				t.Errorf("%s: evidence %T is not the replayed run", id, r.Outcome.Evidence)
			}
		}
	}
}
