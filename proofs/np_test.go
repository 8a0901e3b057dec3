package proofs

import (
	"context"
	"testing"
)

// TestNPFamily runs NP1-NP7 in quick mode (full with -np.full... see TestNPFull) and
// requires the catalogue's verdicts.
func TestNPQuick(t *testing.T) {
	for _, id := range []string{"NP1", "NP2", "NP3", "NP4", "NP5", "NP6", "NP7"} {
		c, ok := Lookup(id)
		if !ok {
			t.Fatalf("%s not registered", id)
		}
		r := Run(context.Background(), c, Options{Quick: true})
		if r.Outcome.Err != nil {
			t.Fatalf("%s: %v", id, r.Outcome.Err)
		}
		t.Logf("%s: %s, %d instances, %.2fs; %s; witness %+v", id, r.Outcome.Verdict, r.Outcome.Instances, r.Seconds, r.Outcome.Note, r.Outcome.Witness)
		if !r.AsExpected() {
			t.Errorf("%s: verdict %s, expected %s", id, r.Outcome.Verdict, c.Expected)
		}
	}
}
