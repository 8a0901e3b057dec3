package checkertest

import (
	"context"
	"sync"
	"sync/atomic"
)

// CountContext is a context cancelled by its own n-th look: Err returns nil for the first
// n calls and context.Canceled from then on (Done closes at that call), so that a test
// cuts a computation after a fixed amount of work, whatever the machine's speed.
type CountContext struct {
	context.Context
	left atomic.Int64
	once sync.Once
	done chan struct{}
}

// NewCountContext returns a CountContext that allows n looks.
func NewCountContext(n int64) *CountContext {
	c := &CountContext{Context: context.Background(), done: make(chan struct{})}
	c.left.Store(n)
	return c
}

// Err counts one look: nil while looks are left, context.Canceled after.
func (c *CountContext) Err() error {
	if c.left.Add(-1) >= 0 {
		return nil
	}
	c.once.Do(func() { close(c.done) })
	return context.Canceled
}

// Done is closed by the look that first returns context.Canceled.
func (c *CountContext) Done() <-chan struct{} { return c.done }
