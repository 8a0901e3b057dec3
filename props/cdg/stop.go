package cdg

import (
	"context"
	"errors"
	"time"
)

// stopErr is what the analysis and the exact search return when their context ended:
// it wraps the context's cause (a signal, --time-limit, the memory budget).
type stopErr struct{ cause error }

func (e stopErr) Error() string { return "stopped: " + e.cause.Error() }
func (e stopErr) Unwrap() error { return e.cause }

// stopped returns a stopErr when ctx (nil: never) has ended, else nil.
func stopped(ctx context.Context) error {
	if ctx == nil || ctx.Err() == nil {
		return nil
	}
	return stopErr{context.Cause(ctx)}
}

// Stopped reports whether err is a stop of Analyze or Decide by their context.
func Stopped(err error) bool {
	var s stopErr
	return errors.As(err, &s)
}

// deadline returns ctx's deadline (nil: none).
func deadline(ctx context.Context) (time.Time, bool) {
	if ctx == nil {
		return time.Time{}, false
	}
	return ctx.Deadline()
}
