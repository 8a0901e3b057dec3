package progress

import (
	"context"
	"fmt"
	"runtime/metrics"
	"time"
)

// ErrMemory is the cancellation cause WithMemoryLimit gives when the process outgrows
// its budget; context.Cause(ctx) returns it (wrapped with the figures).
var ErrMemory = fmt.Errorf("memory budget reached")

// WithMemoryLimit returns a context that is cancelled, with a cause wrapping ErrMemory,
// once the memory the process holds (Held: its resident set) exceeds 95% of limit
// bytes. It reads it every 50 ms while below half of that and more often as it comes
// near (SampleEvery), so that a run growing at hundreds of MB/s is caught within a few
// MB; the 5% left cover what one allocation adds at once (a slice that doubles) and
// what the run allocates while it stops, so that it ends within its budget. A limit of
// 0 or less only derives a cancellable context. Call the returned function to release
// the watcher.
//
// The reading counts garbage not yet collected: a caller that owns the process (the
// command line) should also set the garbage collector's soft limit a little below the
// budget (runtime/debug.SetMemoryLimit), so that the run is stopped by what it keeps,
// not by what it has dropped.
//
// It is for runs whose memory lives outside a checker's own accounting (a simulation's
// queues, a family's enumeration, a schedule's decision); Explore also bounds its
// searches itself (checker.Options.MaxMemoryBytes).
func WithMemoryLimit(parent context.Context, limit int64) (context.Context, context.CancelFunc) {
	return withMemoryLimit(parent, limit, "")
}

// withMemoryLimit is WithMemoryLimit whose cause names the limit as name, when given.
func withMemoryLimit(parent context.Context, limit int64, name string) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	if limit <= 0 {
		return ctx, func() { cancel(nil) }
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		stopAt := uint64(limit - limit/20)
		t := time.NewTimer(SampleEvery(Held(), stopAt))
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				held := Held()
				if held > stopAt {
					cause := fmt.Errorf("%w: the process holds %s, within 5%% of the %s allowed", ErrMemory, Bytes(held), Bytes(uint64(limit)))
					if name != "" {
						cause = fmt.Errorf("%w (%s)", cause, name)
					}
					cancel(cause)
					return
				}
				t.Reset(SampleEvery(held, stopAt))
			}
		}
	}()
	return ctx, func() {
		close(stop)
		<-done
		cancel(nil)
	}
}

// SampleEvery is how long a watcher of a memory budget of limit bytes waits before its
// next reading when used bytes are held: 50 ms up to half the limit, then in
// proportion to the room left (5 ms at 95%), and never less than 1 ms. A reading costs
// microseconds, so even the shortest interval costs well under 1% of a core.
func SampleEvery(used, limit uint64) time.Duration {
	const most, least = 50 * time.Millisecond, time.Millisecond
	if limit == 0 || used <= limit/2 {
		return most
	}
	if used >= limit {
		return least
	}
	d := time.Duration(float64(most) * float64(limit-used) / float64(limit/2))
	return max(d, least)
}

// Held returns the memory the process holds, in bytes: its resident set size where the
// system reports it (RSS), else what the Go runtime has mapped and not returned to the
// system (runtime/metrics, which does not stop the world).
func Held() uint64 {
	if rss := RSS(); rss > 0 {
		return rss
	}
	return GoHeld()
}

// GoHeld returns the memory the Go runtime holds from the system and has not released:
// heap, stacks and runtime metadata, mapped or in use (the runtime/metrics classes
// total minus heap/released). It does not stop the world.
func GoHeld() uint64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 || s[1].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64() - s[1].Value.Uint64()
}

// WithBudget is WithMemoryLimit and, for a limit > 0, a deadline limit from now whose
// cause says the time limit passed: the one budget of a run. The release function frees
// the watcher.
func WithBudget(parent context.Context, maxBytes int64, limit time.Duration) (context.Context, func()) {
	return Budget{MaxBytes: maxBytes, Limit: limit}.Context(parent)
}

// Budget is the one budget of a run: at most MaxBytes held (WithMemoryLimit; 0: no
// bound) and Limit of time (0: none). MemoryName and TimeName name the two limits in the
// causes as the caller's user knows them (a command's flags); empty, the causes say
// "the ... allowed" and "the time limit".
type Budget struct {
	MaxBytes             int64
	Limit                time.Duration
	MemoryName, TimeName string
}

// Context derives the budget's context from parent; the release function frees the
// watcher.
func (b Budget) Context(parent context.Context) (context.Context, func()) {
	ctx, release := withMemoryLimit(parent, b.MaxBytes, b.MemoryName)
	if b.Limit <= 0 {
		return ctx, release
	}
	name := b.TimeName
	if name == "" {
		name = "time limit"
	}
	tctx, cancel := context.WithTimeoutCause(ctx, b.Limit, fmt.Errorf("the %s of %v passed", name, b.Limit))
	return tctx, func() { cancel(); release() }
}
