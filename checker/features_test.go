package checker_test

import (
	"context"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
)

type counters = checker.Options[checkertest.CountersState]

func TestInvariantViolation(t *testing.T) {
	m := checkertest.Counters{N: 3, K: 4}
	for _, w := range allWorkers {
		for _, store := range allStores {
			res := explore(t, m, counters{Workers: w, Store: store, Invariants: []checker.Invariant[checkertest.CountersState]{checkertest.SumBelow(5)}})
			wantViolation(t, m, res, checker.KindInvariant, 5)
			v := res.Violation
			if v.Invariant != "sum<5" || v.Message != "counters sum to 5, not below 5" {
				t.Errorf("violation %q: %q", v.Invariant, v.Message)
			}
			// The least key: counter 0 first, as far as it goes (3), then counter 1.
			want := []checker.Action{0, 0, 0, 1, 1}
			if got := v.Trace.Actions(); !slices.Equal(got, want) {
				t.Errorf("workers %d %v: actions %v, want %v", w, store, got, want)
			}
		}
	}
}

// TestRingSymmetry checks exact counts with and without symmetry, and that the
// invariant violation is found at depth 2N-1 either way with a concrete trace.
func TestRingSymmetry(t *testing.T) {
	const n = 5
	m := checkertest.Ring{N: n}
	for _, sym := range []bool{false, true} {
		res := explore(t, m, checker.Options[checkertest.RingState]{Symmetry: sym, CheckDeadlock: true})
		want := int64(n << n)
		if sym {
			want = 1 << n
		}
		if res.Verdict != checker.Holds || res.Stats.States != want {
			t.Errorf("symmetry %v: %v with %d states, want holds with %d", sym, res.Verdict, res.Stats.States, want)
		}
		for _, w := range allWorkers {
			for _, store := range allStores {
				res := explore(t, m, checker.Options[checkertest.RingState]{Workers: w, Store: store, Symmetry: sym,
					Invariants: []checker.Invariant[checkertest.RingState]{checkertest.NotAllSet(n)}})
				wantViolation(t, m, res, checker.KindInvariant, 2*n-1)
				if last := res.Violation.Trace.Steps[2*n-1].State; last.Bits != 1<<n-1 {
					t.Errorf("symmetry %v: last state %+v is not all set", sym, last)
				}
			}
		}
	}
}

func TestSymmetryNeedsCanonicalizer(t *testing.T) {
	_, err := checker.Explore(checkertest.TwoLocks{}, checker.Options[checkertest.TwoLocksState]{Symmetry: true})
	if err == nil || !strings.Contains(err.Error(), "does not implement Canonicalizer") {
		t.Errorf("err = %v, want a missing-Canonicalizer error", err)
	}
}

func TestBounds(t *testing.T) {
	m := checkertest.Counters{N: 3, K: 4} // 64 states, depth 9
	sum := []checker.Invariant[checkertest.CountersState]{checkertest.SumBelow(3)}
	for _, tc := range []struct {
		name   string
		opt    counters
		want   checker.Verdict
		reason string
		states int64
	}{
		{"depth 3 of 9", counters{MaxDepth: 3}, checker.Inconclusive, "depth bound 3 reached", 20},
		{"depth 8 of 9", counters{MaxDepth: 8}, checker.Inconclusive, "depth bound 8 reached", 63},
		{"depth 9 is exhaustive", counters{MaxDepth: 9}, checker.Holds, "", 64},
		{"depth 20", counters{MaxDepth: 20}, checker.Holds, "", 64},
		{"states 10", counters{MaxStates: 10}, checker.Inconclusive, "state budget 10 exhausted", -1},
		{"states 64", counters{MaxStates: 64}, checker.Holds, "", 64},
		{"memory", counters{MaxMemoryBytes: 100}, checker.Inconclusive, "memory budget 100 bytes exhausted", -1},
		{"violation before the depth bound", counters{MaxDepth: 4, Invariants: sum}, checker.Violated, "", -1},
		{"violation before the state budget", counters{MaxStates: 30, Invariants: sum}, checker.Violated, "", -1},
		{"violation beyond the depth bound", counters{MaxDepth: 2, Invariants: sum}, checker.Inconclusive, "depth bound 2 reached", 10},
	} {
		for _, w := range allWorkers {
			tc.opt.Workers = w
			res := explore(t, m, tc.opt)
			if res.Verdict != tc.want || !strings.HasPrefix(res.Reason, tc.reason) || (tc.states >= 0 && res.Stats.States != tc.states) {
				t.Errorf("%s, workers %d: %v %q with %d states; want %v %q with %d",
					tc.name, w, res.Verdict, res.Reason, res.Stats.States, tc.want, tc.reason, tc.states)
			}
		}
	}
}

func TestCancelledContext(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m := checkertest.Counters{N: 4, K: 16}
	for _, w := range allWorkers {
		res := explore(t, m, counters{Workers: w, Context: ctx})
		if res.Verdict != checker.Inconclusive || res.Reason != "cancelled: context canceled" {
			t.Errorf("workers %d: %v %q, want inconclusive after cancel", w, res.Verdict, res.Reason)
		}
	}
}

func TestStopAtFirst(t *testing.T) {
	m := checkertest.Philosophers{N: 4}
	for _, w := range allWorkers {
		res := explore(t, m, checker.Options[checkertest.PhilState]{Workers: w, CheckDeadlock: true, StopAtFirst: true})
		wantViolation(t, m, res, checker.KindDeadlock, 4)
	}
}

func TestReplay(t *testing.T) {
	m := checkertest.TwoLocks{}
	tr, err := checker.Replay(m, 0, []checker.Action{0, 0, 0, 1})
	if err != nil || tr.Len() != 4 || tr.Steps[4].State != (checkertest.TwoLocksState{3, 1}) {
		t.Fatalf("Replay = %v, %v", tr, err)
	}
	// P0 takes A, P1 takes B: now P0 cannot take B and the state is a deadlock.
	_, err = checker.Replay(m, 0, []checker.Action{0, 1, 0})
	want := "replay: step 3: action 0 is not enabled after step 2; enabled: none (no enabled transition)"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	_, err = checker.Replay(m, 0, []checker.Action{0, 0, 0, 1, 7})
	want = `replay: step 5: action 7 is not enabled after step 4; enabled: 1 "P1 takes A"`
	if err == nil || err.Error() != want {
		t.Errorf("err = %v\nwant %s", err, want)
	}
	if _, err = checker.Replay(m, 1, nil); err == nil || !strings.Contains(err.Error(), "initial state 1 does not exist") {
		t.Errorf("err = %v, want an initial-state error", err)
	}
}

func TestInvalidOptions(t *testing.T) {
	for _, opt := range []counters{
		{Workers: -1}, {MaxDepth: -1}, {MaxStates: -1}, {MaxMemoryBytes: -1}, {Store: 7}, {ProgressEvery: -1},
		{Invariants: []checker.Invariant[checkertest.CountersState]{{Name: "nil"}}},
	} {
		if _, err := checker.Explore(checkertest.Counters{N: 1, K: 2}, opt); err == nil {
			t.Errorf("options %+v accepted", opt)
		}
	}
	if _, err := checker.Explore(checkertest.Graph{}, checker.Options[int]{}); err == nil {
		t.Errorf("a model without initial states was accepted")
	}
}

// lockedBuffer is a concurrency-safe writer for progress output.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func TestProgress(t *testing.T) {
	var out lockedBuffer
	m := checkertest.Counters{N: 3, K: 4}
	explore(t, m, counters{Progress: &out})
	line := regexp.MustCompile(`^states \d+  [0-9.]+[kMG]? states/s  elapsed \d+s  heap \d+MiB(  rss \d+MiB)?  frontier \d+  depth \d+$`)
	lines := strings.Split(strings.TrimSuffix(out.b.String(), "\n"), "\n")
	for _, l := range lines {
		if !line.MatchString(l) {
			t.Errorf("progress line %q", l)
		}
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "states 64 ") {
		t.Errorf("final progress line %q, want 64 states", last)
	}
}

func TestVerdictString(t *testing.T) {
	for v, want := range map[checker.Verdict]string{checker.Holds: "holds", checker.Violated: "violated",
		checker.Inconclusive: "inconclusive", 9: "Verdict(9)"} {
		if v.String() != want {
			t.Errorf("%d.String() = %q, want %q", int(v), v.String(), want)
		}
	}
	if checker.Fingerprint.String() != "fingerprint" || checker.StoreMode(5).String() != "StoreMode(5)" {
		t.Errorf("StoreMode names")
	}
}

// fatStates is a chain model whose states each carry 1 MiB of payload that the encoding
// ignores: the visited store stays tiny while the frontier and garbage grow, so only the
// heap reading of MaxMemoryBytes can stop it.
type fatStates struct{}

type fatState struct {
	n       int
	payload []byte
}

func (fatStates) Init() []fatState { return []fatState{{0, make([]byte, 1<<20)}} }
func (fatStates) Successors(s fatState, dst []checker.Transition[fatState]) []checker.Transition[fatState] {
	if s.n >= 1000 {
		return dst
	}
	for a := range 2 {
		p := make([]byte, 1<<20)
		p[0] = byte(a)
		dst = append(dst, checker.Transition[fatState]{Action: checker.Action(a), Next: fatState{2*s.n + 1 + a, p}})
	}
	return dst
}
func (fatStates) Encode(s fatState, buf []byte) []byte     { return append(buf, byte(s.n), byte(s.n>>8)) }
func (fatStates) Terminal(fatState) bool                   { return true }
func (fatStates) Describe(fatState, checker.Action) string { return "step" }

// TestMemoryBudgetCoversFrontiers: a 64 MiB budget stops a search whose store is a few
// kilobytes but whose frontier states hold hundreds of megabytes.
func TestMemoryBudgetCoversFrontiers(t *testing.T) {
	for _, w := range allWorkers {
		res, err := checker.Explore[fatState](fatStates{}, checker.Options[fatState]{Workers: w, MaxMemoryBytes: 64 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if res.Verdict != checker.Inconclusive || !strings.Contains(res.Reason, "Go heap") {
			t.Fatalf("workers %d: %v %q, want inconclusive on the heap", w, res.Verdict, res.Reason)
		}
	}
}
