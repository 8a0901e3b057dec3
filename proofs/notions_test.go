package proofs

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/props"
)

// notionRun is one run of the flit claims under a deadlock notion: each claim's verdict
// and the trail of its checks (every member's verdict, each check's witness length).
type notionRun struct {
	claims map[string]string
	trail  *Trail
}

// runNotion checks the claims ids at size under notion n, recording every check.
func runNotion(t *testing.T, ids []string, size Size, n Notion) notionRun {
	out := notionRun{claims: map[string]string{}, trail: new(Trail)}
	for _, id := range ids {
		c, ok := Lookup(id)
		if !ok {
			t.Fatalf("claim %s is not in the catalogue", id)
		}
		r := Check(context.Background(), c, Options{Size: size, Workers: 2, Notion: n, Trail: out.trail})
		if r.Outcome.Err != nil {
			t.Fatalf("%s (global %v, reduction %v): %v", id, n.Global, n.Reduction, r.Outcome.Err)
		}
		out.claims[id] = r.Outcome.Verdict
		t.Logf("%s (global %v, reduction %v): %s, %d states, %.1fs", id, n.Global, n.Reduction, r.Outcome.Verdict, r.Outcome.States, r.Seconds)
	}
	return out
}

// flitDeadlockClaims are the claims of the WH, TM, RT and MN groups whose semantics is
// flit: the ones whose members are checked for deadlock through runCheck.
func flitDeadlockClaims() []string {
	var ids []string
	for _, c := range catalogue {
		group := strings.TrimRight(c.ID, "0123456789B")
		if (group == "WH" || group == "TM" || group == "RT" || group == "MN") && strings.Contains(c.Semantics, "flit") {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// TestDeadlockNotionsAgree is the soundness test of local-deadlock detection and of
// partial-order reduction on the catalogue: every flit claim of the WH, TM, RT and MN
// groups is run three times, as prove runs it (local deadlock, unreduced), with the
// global notion, and with local deadlock and stubborn-set reduction deciding every
// member (no unreduced first pass); each claim's verdict and each member's that two runs
// both checked must agree, and a check's local witness (a family's shortest) is never
// longer than its global one. Otherwise the claims run at the default size; with -short at the quick
// size and without TM3 and MN6, whose members no notion changes (TM3 checks invariants,
// unreduced; MN6's bulk is the fast simulator).
func TestDeadlockNotionsAgree(t *testing.T) {
	size := Default
	ids := flitDeadlockClaims()
	if len(ids) < 10 {
		t.Fatalf("flit claims %v: the catalogue changed", ids)
	}
	if testing.Short() {
		size = Quick
		ids = slices.DeleteFunc(ids, func(id string) bool { return id == "TM3" || id == "MN6" })
	}
	base := runNotion(t, ids, size, Notion{})
	for _, n := range []Notion{{Global: true}, {Reduction: true}} {
		other := runNotion(t, ids, size, n)
		name := "reduction"
		if n.Global {
			name = "global deadlock"
		}
		for _, id := range ids {
			if base.claims[id] != other.claims[id] {
				t.Errorf("%s: %s as prove runs it, %s with %s", id, base.claims[id], other.claims[id], name)
			}
		}
		compared, violated := 0, 0
		for key, b := range base.trail.Checks {
			o, ok := other.trail.Checks[key]
			if !ok {
				continue // not checked in both runs
			}
			for i, bv := range b.Members {
				ov, ok := o.Members[i]
				if !ok || bv == props.Inconclusive || ov == props.Inconclusive {
					// Cut short: a family that stops at its first deadlock cancels the
					// members still running.
					continue
				}
				compared++
				if bv != ov {
					t.Errorf("%s member %d: %v as prove runs it, %v with %s", key, i, bv, ov, name)
					continue
				}
				if bv == props.Violated {
					violated++
				}
			}
			if n.Global && b.Steps > 0 && o.Steps > 0 && b.Steps > o.Steps {
				t.Errorf("%s: local witness of %d steps, global %d", key, b.Steps, o.Steps)
			}
		}
		if compared < 100 || violated == 0 {
			t.Errorf("%s: %d members compared, %d violated; want a real comparison", name, compared, violated)
		}
		t.Logf("%s: %d claims, %d members compared (%d violated)", name, len(ids), compared, violated)
	}
}
