package progress

import (
	"context"
	"fmt"
	"runtime/metrics"
	"time"
)

// ErrMemory is the cancellation cause WithMemoryLimit gives when the heap outgrows its
// budget; context.Cause(ctx) returns it (wrapped with the figures).
var ErrMemory = fmt.Errorf("memory budget reached")

// WithMemoryLimit returns a context that is cancelled, with a cause wrapping ErrMemory,
// once the Go heap (live and not yet collected objects) exceeds limit bytes; it samples
// the heap every 50 ms through runtime/metrics, which does not stop the world. A limit
// of 0 or less only derives a cancellable context. Call the returned function to release
// the watcher.
//
// It is for runs whose memory lives outside a checker's own accounting (a simulation's
// queues, a family's enumeration); Explore bounds its searches itself
// (checker.Options.MaxMemoryBytes).
func WithMemoryLimit(parent context.Context, limit int64) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancelCause(parent)
	if limit <= 0 {
		return ctx, func() { cancel(nil) }
	}
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				metrics.Read(sample)
				if sample[0].Value.Kind() != metrics.KindUint64 {
					return
				}
				if heap := sample[0].Value.Uint64(); heap > uint64(limit) {
					cancel(fmt.Errorf("%w: the heap holds %s, more than the %s allowed (--max-memory)", ErrMemory, Bytes(heap), Bytes(uint64(limit))))
					return
				}
			}
		}
	}()
	return ctx, func() {
		close(stop)
		<-done
		cancel(nil)
	}
}
