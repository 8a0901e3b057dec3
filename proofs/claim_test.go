package proofs

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestCatalogueTable: every row of the table has a unique id that Lookup finds, says
// where it comes from and what it claims, and expects one of the three verdicts.
func TestCatalogueTable(t *testing.T) {
	seen := map[string]bool{}
	for _, c := range All() {
		if seen[c.ID] {
			t.Errorf("claim id %s appears twice", c.ID)
		}
		seen[c.ID] = true
		if got, ok := Lookup(c.ID); !ok || got.ID != c.ID {
			t.Errorf("Lookup(%q) = %q, %v", c.ID, got.ID, ok)
		}
		if c.ID == "" || c.Source == "" || c.Statement == "" || c.Semantics == "" {
			t.Errorf("claim %q: an empty id, source, statement or semantics", c.ID)
		}
		switch c.Expected {
		case ExpectHolds, ExpectViolated, ExpectMeasured:
		default:
			t.Errorf("claim %s expects %q", c.ID, c.Expected)
		}
	}
	if _, ok := Lookup("XX1"); ok {
		t.Error("Lookup found a claim that is not in the table")
	}
}

// TestEveryClaimRunsAtEverySize: each claim has at least one family at every size, and
// each family names itself.
func TestEveryClaimRunsAtEverySize(t *testing.T) {
	for _, c := range All() {
		for s := Quick; s < numSizes; s++ {
			n := 0
			for _, f := range c.Families {
				if f.Name == "" || f.Judge == nil {
					t.Errorf("%s: a family without a name or judge", c.ID)
				}
				if f.Sizes[s] != "" {
					n++
				}
			}
			if n == 0 {
				t.Errorf("%s: no family at size %s", c.ID, s)
			}
		}
	}
}

// TestCheckInterrupted: a claim whose context ends during its second family is
// inconclusive and marked Interrupted, counts what its families counted, and its note
// draws no conclusion (neither family's note survives, nor a witness or figures).
func TestCheckInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	started := make(chan struct{})
	c := Claim{ID: "X1", Expected: ExpectHolds, Families: []Family{
		{Name: "first", Sizes: [numSizes]string{"all", "all", "all"}, Judge: func(ctx context.Context, env Env) Outcome {
			return Outcome{Verdict: Holds, Instances: 3, States: 30, Note: "first: no deadlock", Witness: "w", Figures: map[string]float64{"f": 1}}
		}},
		{Name: "second", Sizes: [numSizes]string{"all", "all", "all"}, Judge: func(ctx context.Context, env Env) Outcome {
			env.Meter.Add(2, 20)
			close(started)
			<-ctx.Done()
			return cancelled(ctx, Outcome{Instances: 2, States: 20, Note: "second: no deadlock found"})
		}},
		{Name: "third", Sizes: [numSizes]string{"all", "all", "all"}, Judge: func(ctx context.Context, env Env) Outcome {
			t.Error("the third family ran after the interruption")
			return Outcome{Verdict: Holds}
		}},
	}}
	go func() {
		<-started
		cancel()
	}()
	r := Check(ctx, c, Options{Size: Quick})
	o := r.Outcome
	if o.Verdict != Inconclusive || !o.Interrupted || r.AsExpected() {
		t.Fatalf("verdict %s interrupted %v as expected %v", o.Verdict, o.Interrupted, r.AsExpected())
	}
	if o.Instances != 5 || o.States != 50 {
		t.Errorf("counted %d instances, %d states; want 5, 50", o.Instances, o.States)
	}
	if !strings.HasPrefix(o.Note, "interrupted") || strings.Contains(o.Note, "no deadlock") {
		t.Errorf("note %q", o.Note)
	}
	if o.Witness != nil || o.Figures != nil || o.Err != nil {
		t.Errorf("witness %v figures %v err %v", o.Witness, o.Figures, o.Err)
	}
}

// TestCheckCombines: Evidence families do not decide the verdict, the first violated
// family's witness is the claim's, an error makes the claim inconclusive.
func TestCheckCombines(t *testing.T) {
	fam := func(name string, evidence bool, o Outcome) Family {
		return Family{Name: name, Evidence: evidence, Sizes: [numSizes]string{"x", "x", "x"},
			Judge: func(context.Context, Env) Outcome { return o }}
	}
	cases := []struct {
		fams    []Family
		verdict string
		witness bool
	}{
		{[]Family{fam("a", false, Outcome{Verdict: Holds}), fam("b", true, Outcome{Verdict: Violated, Witness: "ev"})}, Holds, false},
		{[]Family{fam("a", false, Outcome{Verdict: Holds}), fam("b", false, Outcome{Verdict: Violated, Witness: "w"})}, Violated, true},
		{[]Family{fam("a", false, Outcome{Verdict: Inconclusive}), fam("b", false, Outcome{Verdict: Holds})}, Inconclusive, false},
		{[]Family{fam("a", false, Outcome{Verdict: Holds}), fam("b", true, Outcome{Verdict: Holds, Err: errors.New("disagree")})}, Inconclusive, false},
	}
	for i, tc := range cases {
		r := Check(context.Background(), Claim{ID: "X", Expected: ExpectHolds, Families: tc.fams}, Options{})
		if r.Outcome.Verdict != tc.verdict || (r.Outcome.Witness != nil) != tc.witness {
			t.Errorf("case %d: verdict %s witness %v; want %s, %v", i, r.Outcome.Verdict, r.Outcome.Witness, tc.verdict, tc.witness)
		}
	}
}
