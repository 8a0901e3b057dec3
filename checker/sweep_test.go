package checker

import (
	"context"
	"sync/atomic"
	"testing"
)

// TestSweepOrderAndStop: whatever the worker count, visit sees the members in order, an
// early stop leaves the same visited prefix, and per-worker indices stay below workers.
func TestSweepOrderAndStop(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 8} {
		var seen []int
		var badWorker atomic.Bool
		err := Sweep(context.Background(), 100, workers, func(_ context.Context, w, i int) int {
			if w < 0 || w >= workers {
				badWorker.Store(true)
			}
			return i * i
		}, func(i, r int) bool {
			if r != i*i {
				t.Errorf("workers %d: member %d got %d", workers, i, r)
			}
			seen = append(seen, i)
			return i < 41
		})
		if err != nil {
			t.Fatalf("workers %d: %v", workers, err)
		}
		if badWorker.Load() {
			t.Errorf("workers %d: a worker index out of range", workers)
		}
		if len(seen) != 42 {
			t.Fatalf("workers %d: visited %d members, want 42", workers, len(seen))
		}
		for k, i := range seen {
			if k != i {
				t.Fatalf("workers %d: visit %d was member %d", workers, k, i)
			}
		}
	}
}

// TestSweepCancel: a cancelled context stops the sweep with ctx.Err(), and the members
// visited before the cancellation stay a prefix.
func TestSweepCancel(t *testing.T) {
	for _, workers := range []int{1, 4} {
		ctx, cancel := context.WithCancel(context.Background())
		visited := 0
		err := Sweep(ctx, 1000, workers, func(_ context.Context, _, i int) int { return i }, func(i, r int) bool {
			if i != visited {
				t.Fatalf("workers %d: member %d visited out of order", workers, i)
			}
			visited++
			if i == 10 {
				cancel()
			}
			return true
		})
		if err != context.Canceled {
			t.Fatalf("workers %d: err %v, want context.Canceled", workers, err)
		}
		if visited < 11 || visited == 1000 {
			t.Fatalf("workers %d: visited %d members", workers, visited)
		}
	}
}

// TestSweepPanic: a job that panics on a worker panics in the caller, where it can be
// recovered, for one worker and for several.
func TestSweepPanic(t *testing.T) {
	for _, workers := range []int{1, 3} {
		func() {
			defer func() {
				if p := recover(); p != "boom" {
					t.Errorf("workers %d: recovered %v, want boom", workers, p)
				}
			}()
			_ = Sweep(context.Background(), 50, workers, func(_ context.Context, _, i int) int {
				if i == 7 {
					panic("boom")
				}
				return i
			}, func(int, int) bool { return true })
			t.Errorf("workers %d: Sweep returned after a panicking job", workers)
		}()
	}
}
