package checker_test

import (
	"math"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
)

var (
	allWorkers = []int{1, 2, 4}
	allStores  = []checker.StoreMode{checker.Exact, checker.Fingerprint}
)

// explore runs Explore and fails the test on an error.
func explore[S any](t *testing.T, m checker.Model[S], opt checker.Options[S]) *checker.Result[S] {
	t.Helper()
	res, err := checker.Explore(m, opt)
	if err != nil {
		t.Fatalf("Explore: %v", err)
	}
	return res
}

// wantViolation checks a Violated result: kind, trace length, and that the trace
// replays from the initial state to the same final state.
func wantViolation[S any](t *testing.T, m checker.Model[S], res *checker.Result[S], kind checker.ViolationKind, length int) {
	t.Helper()
	if res.Verdict != checker.Violated || res.Violation == nil {
		t.Fatalf("verdict %v (%s), want violated", res.Verdict, res.Reason)
	}
	v := res.Violation
	if v.Kind != kind {
		t.Errorf("kind %q, want %q (%s)", v.Kind, kind, v.Message)
	}
	if got := v.Trace.Len(); got != length {
		t.Errorf("trace length %d, want %d:\n%s", got, length, v.Trace)
	}
	init := -1
	first := string(m.Encode(v.Trace.Steps[0].State, nil))
	for i, s := range m.Init() {
		if string(m.Encode(s, nil)) == first {
			init = i
			break
		}
	}
	re, err := checker.Replay(m, init, v.Trace.Actions())
	if err != nil {
		t.Fatalf("Replay of the reported trace: %v", err)
	}
	last := func(tr checker.Trace[S]) string { return string(m.Encode(tr.Steps[len(tr.Steps)-1].State, nil)) }
	if last(re) != last(v.Trace) {
		t.Errorf("replay ends in a different state")
	}
}

func TestCountersExactCounts(t *testing.T) {
	m := checkertest.Counters{N: 3, K: 4}
	for _, w := range allWorkers {
		for _, store := range allStores {
			res := explore(t, m, checker.Options[checkertest.CountersState]{Workers: w, Store: store, CheckDeadlock: true})
			st := res.Stats
			if res.Verdict != checker.Holds || st.States != 64 || st.Transitions != 3*3*16 || st.Depth != 9 {
				t.Errorf("workers %d %v: %v states %d transitions %d depth %d; want holds 64 144 9",
					w, store, res.Verdict, st.States, st.Transitions, st.Depth)
			}
			if st.BytesPerState <= 0 || st.StoreBytes <= 0 || st.Workers != w {
				t.Errorf("workers %d %v: stats %+v", w, store, st)
			}
			wantBound := 0.0
			if store == checker.Fingerprint {
				wantBound = 64 * 64 / math.Exp2(65)
			}
			if st.FingerprintCollisionBound != wantBound {
				t.Errorf("%v: collision bound %g, want %g", store, st.FingerprintCollisionBound, wantBound)
			}
		}
	}
}

func TestTwoLocksDeadlock(t *testing.T) {
	m := checkertest.TwoLocks{}
	res := explore(t, m, checker.Options[checkertest.TwoLocksState]{})
	if res.Verdict != checker.Holds || res.Stats.States != 13 {
		t.Fatalf("without deadlock check: %v with %d states, want holds with 13", res.Verdict, res.Stats.States)
	}
	for _, w := range allWorkers {
		for _, store := range allStores {
			res := explore(t, m, checker.Options[checkertest.TwoLocksState]{Workers: w, Store: store, CheckDeadlock: true})
			wantViolation(t, m, res, checker.KindDeadlock, 2)
			want := "0 init\n1 P0 takes A\n2 P1 takes B\n"
			if got := res.Violation.Trace.String(); got != want {
				t.Errorf("trace\n%s want\n%s", got, want)
			}
			if got := res.Violation.Trace.Steps[2].State; got != (checkertest.TwoLocksState{1, 1}) {
				t.Errorf("deadlock state %v, want [1 1]", got)
			}
		}
	}
}

// TestPhilosophers pins the state counts (cross-checked by the naive search) and the
// deadlock depth N, with and without symmetry.
func TestPhilosophers(t *testing.T) {
	for _, tc := range []struct{ n, states, symStates int }{
		{2, 6, 4}, {3, 14, 6}, {4, 34, 11}, {5, 82, 18}, // states follow a(n) = 2a(n-1) + a(n-2)
	} {
		m := checkertest.Philosophers{N: tc.n}
		ref := naiveSearch[checkertest.PhilState](m)
		res := explore(t, m, checker.Options[checkertest.PhilState]{})
		if res.Verdict != checker.Holds || res.Stats.States != int64(tc.states) || len(ref.reach) != tc.states {
			t.Errorf("N=%d: %v with %d states (naive %d), want holds with %d", tc.n, res.Verdict, res.Stats.States, len(ref.reach), tc.states)
		}
		if len(ref.deadlocks) != 1 || ref.minDeadlockDist() != tc.n {
			t.Errorf("N=%d: naive search finds %d deadlocks at distance %d", tc.n, len(ref.deadlocks), ref.minDeadlockDist())
		}
		for _, sym := range []bool{false, true} {
			for _, w := range allWorkers {
				res := explore(t, m, checker.Options[checkertest.PhilState]{Workers: w, CheckDeadlock: true, Symmetry: sym})
				wantViolation(t, m, res, checker.KindDeadlock, tc.n)
			}
		}
		sym := explore(t, m, checker.Options[checkertest.PhilState]{Symmetry: true})
		if sym.Verdict != checker.Holds || sym.Stats.States != int64(tc.symStates) {
			t.Errorf("N=%d with symmetry: %v with %d states, want holds with %d", tc.n, sym.Verdict, sym.Stats.States, tc.symStates)
		}
	}
}
