package proofs

import (
	"context"
	"testing"
)

func TestSimClaimsQuick(t *testing.T) {
	for _, id := range []string{"HB3", "MN7"} {
		c, ok := Lookup(id)
		if !ok {
			t.Fatalf("%s not registered", id)
		}
		r := Run(context.Background(), c, Options{Quick: true})
		if !r.AsExpected() {
			t.Fatalf("%s: %+v", id, r.Outcome)
		}
		t.Logf("%s %.1fs: %s", id, r.Seconds, r.Outcome.Note)
	}
}
