package proofs_test

import (
	"context"
	"flag"
	"testing"

	"github.com/wormcheck/wormcheck/proofs"
)

var (
	full = flag.Bool("full", false, "run the full claim families (about an hour), not the quick ones")
	def  = flag.Bool("default", false, "run the default claim families (minutes), not the quick ones")
)

// size is the family size the catalogue test runs: quick unless -default or -full.
func size() proofs.Size {
	switch {
	case *full:
		return proofs.Full
	case *def:
		return proofs.Default
	}
	return proofs.Quick
}

// TestCatalogue runs every registered claim (quick families unless -default or -full)
// and requires the verdict the catalogue expects. Reference: ../shared/DESIGN.md, claims
// catalogue.
func TestCatalogue(t *testing.T) {
	for _, c := range proofs.All() {
		t.Run(c.ID, func(t *testing.T) {
			r := proofs.Check(context.Background(), c, proofs.Options{Size: size(), Workers: 2})
			if r.Outcome.Err != nil {
				t.Fatalf("%s: %v", c.ID, r.Outcome.Err)
			}
			if !r.AsExpected() {
				t.Fatalf("%s: verdict %s, expected %s (%s)", c.ID, r.Outcome.Verdict, c.Expected, r.Outcome.Note)
			}
			t.Logf("%s %s: %s, %d instances, %d states, %.2fs", c.ID, c.Source, r.Outcome.Verdict, r.Outcome.Instances, r.Outcome.States, r.Seconds)
		})
	}
}
