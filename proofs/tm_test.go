package proofs

import (
	"context"
	"testing"
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
			for _, ext := range []string{"json", "svg", "pcap"} {
				if len(r.Outcome.Files[ext]) == 0 {
					t.Errorf("%s: no %s witness file", id, ext)
				}
			}
		}
	}
}
