package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/wormcheck/wormcheck/checker/progress"
	"github.com/wormcheck/wormcheck/props/check"
)

// Every command that computes takes --max-memory and --time-limit and stops, when either
// is reached or a signal arrives, within a second with a valid report: its own partial
// report where the library watches the context (check's searches, families and
// simulations, verify's decisions, sim, prove), else an inconclusive report that says
// what stopped it (budgeted). Commands whose output is one artefact (schedule, render,
// merge) write nothing when stopped and say so on stderr, exit 3; explore's
// --time-limit is how long it serves. dissector and slurm only write files and submit
// jobs: the check a Slurm task runs takes the flags after --.

// budget is a command's --max-memory (MiB) and --time-limit.
type budget struct {
	maxMemMB  int64
	timeLimit time.Duration
}

// defineBudget defines --max-memory and --time-limit on fs.
func defineBudget(fs *flag.FlagSet) *budget {
	b := &budget{}
	fs.Int64Var(&b.maxMemMB, "max-memory", progress.DefaultMemoryMiB(), "memory budget in MiB: the command stops, inconclusive, when the process comes within 5% of it (0 = none; default 3/4 of the memory available at the start)")
	fs.DurationVar(&b.timeLimit, "time-limit", 0, "stop, inconclusive, after this long (e.g. 10m; 0 = none)")
	return b
}

// context derives the command's context from ctx (which a signal cancels): it is also
// cancelled, with a cause naming the flag, when the process outgrows --max-memory and
// after --time-limit. Negative values are usage errors.
func (b *budget) context(ctx context.Context) (context.Context, func(), error) {
	return budgetContext(ctx, b.maxMemMB<<20, b.timeLimit)
}

func budgetContext(ctx context.Context, maxBytes int64, limit time.Duration) (context.Context, func(), error) {
	switch {
	case maxBytes < 0:
		return nil, nil, usagef("--max-memory must not be negative")
	case limit < 0:
		return nil, nil, usagef("--time-limit must not be negative")
	}
	restore := gcLimit(maxBytes)
	ctx, release := progress.Budget{MaxBytes: maxBytes, Limit: limit, MemoryName: "--max-memory", TimeName: "--time-limit"}.Context(ctx)
	return ctx, func() { release(); restore() }, nil
}

// gcLimit sets the garbage collector's soft limit to 90% of a memory budget of
// maxBytes (none for 0): the process then collects harder as it nears the budget, so
// that the budget's watcher, which reads the resident set and stops a run at 95% of
// the budget, stops it for what it keeps rather than for garbage not yet collected. The returned function restores the limit before (a command run in-process,
// as the tests do, leaves the process as it found it).
func gcLimit(maxBytes int64) (restore func()) {
	if maxBytes <= 0 {
		return func() {}
	}
	prev := debug.SetMemoryLimit(maxBytes - maxBytes/10)
	return func() { debug.SetMemoryLimit(prev) }
}

// stopGrace is how long a computation may take to return its own partial report after
// its context ends, before the command reports without it. When the memory budget
// ended it, memoryGrace: a computation that does not watch its context goes on
// allocating while it is waited for (hundreds of MB/s), so the wait is what the run may
// add beyond its budget.
const (
	stopGrace   = 500 * time.Millisecond
	memoryGrace = 20 * time.Millisecond
)

// errStopped is what budgeted returns when the context ended before f returned.
var errStopped = errors.New("stopped")

// budgeted runs f on its own goroutine and returns what it returns, unless ctx ends
// first and f has not returned stopGrace later (a computation that does not watch the
// context): then it returns errStopped, and f is left to the process's exit. A panic in
// f is an internal error.
func budgeted[T any](ctx context.Context, f func() (T, error)) (T, error) {
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- result{err: fmt.Errorf("%w: %v", check.ErrInternal, r)}
			}
		}()
		v, err := f()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
	}
	grace := stopGrace
	if errors.Is(context.Cause(ctx), progress.ErrMemory) {
		grace = memoryGrace
	}
	select {
	case r := <-done:
		return r.v, r.err
	case <-time.After(grace):
		var zero T
		return zero, errStopped
	}
}

// stopReason says what ended ctx, for a report: "interrupted" (a signal), or the cause
// (the time limit, the memory budget).
func stopReason(ctx context.Context) string {
	cause := context.Cause(ctx)
	if cause == nil || errors.Is(cause, context.Canceled) {
		return "interrupted"
	}
	return cause.Error()
}

// stoppedWithout reports, on stderr, that ctx stopped cmd before it had built what it
// writes (a schedule, a picture, a merged result: there is no partial one), and returns
// exit 3.
func stoppedWithout(ctx context.Context, e *env, cmd, what string) (int, error) {
	fmt.Fprintf(e.Stderr, "wormcheck %s: %s before %s was built; nothing written\n", cmd, stopReason(ctx), what)
	return exitInconclusive, nil
}

// readInput reads a file the user named, of kind k: at most k's cap lowered to half of
// a memory budget of maxBytes (the file and what is parsed from it must both fit), and
// stopped when ctx, the command's budget context, ends (a FIFO that never ends or has no
// writer). It returns errStopped when ctx ended first, else a usage error naming the file.
func readInput(ctx context.Context, path string, k check.FileKind, maxBytes int64) ([]byte, error) {
	data, err := check.ReadFile(ctx, path, k, maxBytes)
	switch {
	case err == nil:
		return data, nil
	case ctx.Err() != nil:
		return nil, errStopped
	}
	return nil, usagef("%v", err)
}

// read is readInput under b's memory budget.
func (b *budget) read(ctx context.Context, path string, k check.FileKind) ([]byte, error) {
	return readInput(ctx, path, k, b.maxMemMB<<20)
}

// stoppedReading reports a command stopped while it read its input file: exit 3, a note
// on stderr, nothing written.
func stoppedReading(ctx context.Context, e *env, cmd, path string) (int, error) {
	fmt.Fprintf(e.Stderr, "wormcheck %s: %s while %s was read; nothing was checked or written\n", cmd, stopReason(ctx), path)
	return exitInconclusive, nil
}
