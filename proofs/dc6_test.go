package proofs_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/proofs"
)

// TestDC6Findings pins what DC6 reports about the paper-tie Z_block (quick family): every
// instance valid, the 4x4 one depth contention-free, contention from 8x8 on, and the
// plus-tie variant invalid and contended on every size.
func TestDC6Findings(t *testing.T) {
	c, ok := proofs.Lookup("DC6")
	if !ok {
		t.Fatal("DC6 not registered")
	}
	r := proofs.Check(context.Background(), c, proofs.Options{Size: proofs.Quick})
	o := r.Outcome
	if o.Err != nil || o.Verdict != proofs.Violated {
		t.Fatalf("verdict %s, err %v", o.Verdict, o.Err)
	}
	want := map[string]float64{
		"depth_violated_4x4": 0, "depth_violated_8x8": 1, "depth_violated_16x16": 1,
		"plus_ties_valid_4x4": 0, "plus_ties_valid_8x8": 0, "plus_ties_valid_16x16": 0,
		"plus_ties_depth_violated_4x4": 1, "plus_ties_depth_violated_8x8": 1, "plus_ties_depth_violated_16x16": 1,
	}
	for k, v := range want {
		if got, ok := o.Figures[k]; !ok || got != v {
			t.Errorf("%s = %v (present %v), want %v", k, got, ok, v)
		}
	}
	for _, s := range []string{"9 of 9 instances valid", "depth contention-free on 4x4", "(2,0)->(2,1)"} {
		if !strings.Contains(o.Note, s) {
			t.Errorf("note lacks %q: %s", s, o.Note)
		}
	}
}
