package checker_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
)

// recorder is an invariant that never fails and records every state it is asked
// about: since Explore checks invariants once per stored state, it yields Explore's
// reachable set.
type recorder[S any] struct {
	mu   sync.Mutex
	m    checker.Model[S]
	seen map[string]int
}

func (r *recorder[S]) invariant() checker.Invariant[S] {
	r.seen = map[string]int{}
	return checker.Invariant[S]{Name: "record", Check: func(s S) error {
		r.mu.Lock()
		r.seen[string(r.m.Encode(s, nil))]++
		r.mu.Unlock()
		return nil
	}}
}

// differential compares Explore with the naive search on m for every worker count and
// store: the same reachable set (each state checked once), the same verdict on
// deadlocks, a shortest deadlock trace ending in a naive deadlock, and, across worker
// counts, identical counts and traces. It returns a description of the first
// difference, or "".
func differential[S any](m checker.Model[S]) string {
	ref := naiveSearch(m)
	var first *checker.Result[S]
	for _, store := range allStores {
		for _, w := range allWorkers {
			rec := &recorder[S]{m: m}
			res, err := checker.Explore(m, checker.Options[S]{Workers: w, Store: store, Invariants: []checker.Invariant[S]{rec.invariant()}})
			if err != nil {
				return err.Error()
			}
			if res.Verdict != checker.Holds || res.Stats.States != int64(len(ref.reach)) || len(rec.seen) != len(ref.reach) {
				return fmt.Sprintf("%v workers %d: %v with %d states (%d checked), naive %d", store, w, res.Verdict, res.Stats.States, len(rec.seen), len(ref.reach))
			}
			for k, n := range rec.seen {
				if _, ok := ref.reach[k]; !ok || n != 1 {
					return fmt.Sprintf("%v workers %d: state %x checked %d times, in naive set: %v", store, w, k, n, ok)
				}
			}
			res, err = checker.Explore(m, checker.Options[S]{Workers: w, Store: store, CheckDeadlock: true})
			if err != nil {
				return err.Error()
			}
			if d := ref.minDeadlockDist(); d < 0 {
				if res.Verdict != checker.Holds {
					return fmt.Sprintf("%v workers %d: %v but naive finds no deadlock", store, w, res.Verdict)
				}
			} else {
				if res.Verdict != checker.Violated || res.Violation.Trace.Len() != d {
					return fmt.Sprintf("%v workers %d: %v, naive finds a deadlock at distance %d", store, w, res.Verdict, d)
				}
				tr := res.Violation.Trace
				if _, ok := ref.deadlocks[string(m.Encode(tr.Steps[d].State, nil))]; !ok {
					return fmt.Sprintf("%v workers %d: trace ends in a state the naive search does not call a deadlock", store, w)
				}
			}
			if first == nil {
				first = res
			} else if res.Verdict != first.Verdict || res.Stats.States != first.Stats.States || res.Stats.Transitions != first.Stats.Transitions ||
				(res.Violation != nil && !slices.Equal(res.Violation.Trace.Actions(), first.Violation.Trace.Actions())) {
				return fmt.Sprintf("%v workers %d: result differs from exact with 1 worker", store, w)
			}
		}
	}
	return ""
}

func TestDifferentialToyModels(t *testing.T) {
	for name, diff := range map[string]func() string{
		"counters 3x4":   func() string { return differential[checkertest.CountersState](checkertest.Counters{N: 3, K: 4}) },
		"two locks":      func() string { return differential[checkertest.TwoLocksState](checkertest.TwoLocks{}) },
		"philosophers 5": func() string { return differential[checkertest.PhilState](checkertest.Philosophers{N: 5}) },
		"ring 4":         func() string { return differential[checkertest.RingState](checkertest.Ring{N: 4}) },
	} {
		if d := diff(); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
}

// TestDifferentialRandomGraphs runs the differential check on random graphs (fixed
// seed, so CI is reproducible).
func TestDifferentialRandomGraphs(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20240601)
	params.MinSuccessfulTests = 300
	props := gopter.NewProperties(params)
	props.Property("Explore matches the naive search on every worker count and store", prop.ForAll(
		func(g checkertest.Graph) (bool, error) {
			if d := differential[int](g); d != "" {
				return false, fmt.Errorf("%s", d)
			}
			return true, nil
		},
		checkertest.GenGraph(40),
	))
	props.TestingRun(t)
}

// TestWorkersSameTraceLargerGraph pins worker-count independence on a level wide
// enough to be split across workers: many equal-length deadlock paths.
func TestWorkersSameTraceWideLevel(t *testing.T) {
	m := checkertest.Counters{N: 4, K: 8}
	inv := []checker.Invariant[checkertest.CountersState]{checkertest.SumBelow(14)}
	var want []checker.Action
	for _, w := range allWorkers {
		for _, store := range allStores {
			res := explore(t, m, counters{Workers: w, Store: store, Invariants: inv})
			wantViolation(t, m, res, checker.KindInvariant, 14)
			got := res.Violation.Trace.Actions()
			if want == nil {
				want = got
			} else if !slices.Equal(got, want) {
				t.Errorf("workers %d %v: actions %v, want %v", w, store, got, want)
			}
		}
	}
}
