package checker_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
)

// TestSwarmFindsThePhilosophersDeadlock: random walks on eight dining philosophers reach
// the one deadlock (every philosopher holding the left fork); the trace replays to it,
// has no state twice (loops are cut), and is at least as long as the BFS's shortest.
func TestSwarmFindsThePhilosophersDeadlock(t *testing.T) {
	m := checkertest.Philosophers{N: 8}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := checker.Swarm[checkertest.PhilState](m, checker.SwarmOptions[checkertest.PhilState]{Walkers: 2, Seed: 7, MaxDepth: 200, CheckDeadlock: true, Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.Violated || res.Violation.Kind != checker.KindDeadlock {
		t.Fatalf("verdict %v (%s); want the deadlock", res.Verdict, res.Reason)
	}
	tr := res.Violation.Trace
	last := tr.Steps[len(tr.Steps)-1].State
	if string(last) != strings.Repeat("\x01", 8) {
		t.Errorf("last state %q; want every philosopher holding the left fork", last)
	}
	seen := map[string]bool{}
	for _, st := range tr.Steps {
		k := string(m.Encode(st.State, nil))
		if seen[k] {
			t.Fatalf("state %q is on the trace twice: loops were not cut", st.State)
		}
		seen[k] = true
	}
	if _, err := checker.Replay[checkertest.PhilState](m, 0, tr.Actions()); err != nil {
		t.Fatal(err)
	}
	if tr.Len() < 8 {
		t.Errorf("trace of %d steps is shorter than the shortest deadlock (8)", tr.Len())
	}
}

// TestSwarmNeverHolds: with nothing to find, a swarm ends inconclusive and says what it
// covered; an invariant it can break, it breaks.
func TestSwarmNeverHolds(t *testing.T) {
	m := checkertest.Counters{N: 3, K: 4}
	res, err := checker.Swarm[checkertest.CountersState](m, checker.SwarmOptions[checkertest.CountersState]{Walkers: 2, Seed: 1, MaxWalks: 50, CheckDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.Inconclusive || res.Walks != 50 || !strings.Contains(res.Reason, "not a proof") {
		t.Fatalf("verdict %v, %d walks, reason %q", res.Verdict, res.Walks, res.Reason)
	}
	if res.Steps == 0 || res.Steps > 50*9 || res.Deepest != 9 {
		t.Errorf("%d transitions, deepest %d; a walk runs the counters to the end in 9 or stops at its depth bound", res.Steps, res.Deepest)
	}
	res, err = checker.Swarm[checkertest.CountersState](m, checker.SwarmOptions[checkertest.CountersState]{Walkers: 1, Seed: 3, MaxWalks: 10, Invariants: []checker.Invariant[checkertest.CountersState]{checkertest.SumBelow(5)}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.Violated || res.Violation.Kind != checker.KindInvariant || res.Violation.Trace.Len() != 5 {
		t.Fatalf("verdict %v %+v; want the invariant broken after 5 steps", res.Verdict, res.Violation)
	}
}

// TestSwarmFindsALivelock: on checkertest's Bouncer without a misroute budget, where the
// only message may go back and forth for ever, a walk that comes back to a state it visited is tried as a
// lasso, and the swarm reports the livelock that ReplayLasso confirms.
func TestSwarmFindsALivelock(t *testing.T) {
	m := checkertest.Bouncer{N: 4, Budget: -1}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := checker.Swarm[checkertest.BouncerState](m, checker.SwarmOptions[checkertest.BouncerState]{Walkers: 2, Seed: 5, MaxDepth: 100, CheckDeadlock: true, CheckLivelock: true, Context: ctx})
	if err != nil {
		t.Fatal(err)
	}
	if res.Verdict != checker.Violated || !res.Violation.Kind.IsLasso() {
		t.Fatalf("verdict %v %+v; want a lasso", res.Verdict, res.Violation)
	}
	v := res.Violation
	if _, f, err := checker.ReplayLasso[checkertest.BouncerState](m, 0, v.Trace.Actions(), v.CycleStart); err != nil || f.Kind != v.Kind {
		t.Fatalf("the lasso does not replay: %v %+v", err, f)
	}
}
