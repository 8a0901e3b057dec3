package checker

import (
	"context"
	"sync"
)

// Sweep checks the members 0..n-1 of an instance family on a pool of workers goroutines
// and hands their results to visit in member order, from the caller's goroutine. It is
// the one place where wormcheck runs family members in parallel: the family sweeps of
// algos (unicast placements, tree-multicast pairs, banyan pairs) and the claims
// catalogue all use it, so that a worker count means the same thing everywhere.
//
// job(ctx, w, i) computes member i on worker w (0 <= w < workers; a worker runs one job
// at a time, so per-worker scratch indexed by w needs no lock). visit(i, r) sees the
// results in ascending i whatever the worker count, so sums, "first violation" and
// early stops are deterministic: when visit returns false the sweep stops, results
// computed beyond that member are dropped, and the members after it are not started.
// When ctx is done the sweep stops starting members, waits for the running ones and
// returns ctx.Err(); the members already visited stay visited.
//
// A panic in a job is raised again from Sweep in the caller's goroutine.
//
// At most 2*workers results are computed ahead of visit, so memory stays bounded by
// the workers, not by n. Cost: n jobs plus O(n) channel operations.
func Sweep[R any](ctx context.Context, n, workers int, job func(ctx context.Context, w, i int) R, visit func(i int, r R) bool) error {
	if ctx == nil {
		ctx = context.Background()
	}
	workers = max(1, min(workers, n))
	if workers == 1 {
		for i := 0; i < n; i++ {
			if err := ctx.Err(); err != nil {
				return err
			}
			if !visit(i, job(ctx, 0, i)) {
				return nil
			}
		}
		return ctx.Err()
	}
	parent := ctx
	ctx, cancel := context.WithCancel(parent)
	defer cancel()
	type slot struct {
		done chan struct{}
		r    R
	}
	// Members are handed out in order through next; each has its own slot, and a
	// window of 2*workers tokens keeps the workers from running far ahead of visit.
	window := make(chan struct{}, 2*workers)
	next := make(chan int)
	slots := make([]*slot, n)
	var mu sync.Mutex
	get := func(i int) *slot {
		mu.Lock()
		defer mu.Unlock()
		if slots[i] == nil {
			slots[i] = &slot{done: make(chan struct{})}
		}
		return slots[i]
	}
	// A job that panics stops the sweep, and the panic is raised again in the caller's
	// goroutine, where the caller can recover it as it would from a sequential loop.
	var panicked any
	var panicOnce sync.Once
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Go(func() {
			defer func() {
				if p := recover(); p != nil {
					panicOnce.Do(func() { panicked = p })
					cancel()
					for range next {
						// Drain, so that the feeder is not left blocked.
					}
				}
			}()
			for i := range next {
				s := get(i)
				s.r = job(ctx, w, i)
				close(s.done)
			}
		})
	}
	// The feeder hands out members while the window has room.
	wg.Go(func() {
		defer close(next)
		for i := 0; i < n; i++ {
			select {
			case window <- struct{}{}:
			case <-ctx.Done():
				return
			}
			select {
			case next <- i:
			case <-ctx.Done():
				return
			}
		}
	})
	var err error
	for i := 0; i < n; i++ {
		s := get(i)
		select {
		case <-s.done:
		case <-ctx.Done():
			// The member may still finish; a cancelled sweep reports what it visited.
			err = ctx.Err()
		}
		if err != nil {
			break
		}
		r := s.r
		mu.Lock()
		slots[i] = nil // let the result be collected
		mu.Unlock()
		<-window
		if !visit(i, r) {
			break
		}
	}
	cancel()
	wg.Wait()
	if panicked != nil {
		panic(panicked)
	}
	if err != nil {
		return err
	}
	return parent.Err()
}
