package cdg

import (
	"context"
	"errors"
)

// stopErr is what the analysis and the exact search return when their context ended:
// it wraps the context's cause (a signal, --time-limit, the memory budget).
type stopErr struct{ cause error }

func (e stopErr) Error() string { return "stopped: " + e.cause.Error() }
func (e stopErr) Unwrap() error { return e.cause }

// Stop returns the error with which the analysis, the header-state search and the
// exact decision (props/decide) stop when ctx (nil: never) has ended: it wraps the
// context's cause. It returns nil while ctx runs.
func Stop(ctx context.Context) error {
	if ctx == nil || ctx.Err() == nil {
		return nil
	}
	return stopErr{context.Cause(ctx)}
}

// Stopped reports whether err is a stop by a context (Stop), of Analyze,
// ReachableHeaders or the exact decision.
func Stopped(err error) bool {
	var s stopErr
	return errors.As(err, &s)
}
