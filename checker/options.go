package checker

import (
	"context"
	"fmt"
	"io"
	"time"
)

// StoreMode selects how the visited store remembers states.
type StoreMode int

const (
	// Exact stores every state's full canonical encoding: no false "already seen", at
	// a cost of len(encoding) plus about 40 bytes per state.
	Exact StoreMode = iota
	// Fingerprint stores a 64-bit xxHash64 fingerprint per state (about 40 bytes per
	// state whatever the encoding size). Two distinct states with equal fingerprints are
	// merged, which can hide states; Stats.FingerprintCollisionBound bounds the chance.
	Fingerprint
)

var storeModeNames = [...]string{Exact: "exact", Fingerprint: "fingerprint"}

// String returns "exact" or "fingerprint", or "StoreMode(n)" for an unknown value.
func (m StoreMode) String() string {
	if m.valid() {
		return storeModeNames[m]
	}
	return fmt.Sprintf("StoreMode(%d)", int(m))
}

func (m StoreMode) valid() bool { return m >= Exact && m <= Fingerprint }

// DefaultProgressEvery is the progress interval used when Options.ProgressEvery is 0.
const DefaultProgressEvery = time.Second

// Options configures Explore. The zero value is a complete exhaustive search with one
// worker, the exact store, no deadlock check and no invariant.
type Options[S any] struct {
	// Workers is the number of goroutines that expand each BFS level; 0 means 1. The
	// verdict, state count and trace do not depend on it.
	Workers int
	// MaxDepth bounds the search to states at most MaxDepth transitions from an initial
	// state; 0 means unbounded. A run that leaves undiscovered states beyond the bound is
	// Inconclusive, never Holds.
	MaxDepth int
	// MaxStates bounds the number of distinct stored states; 0 means unbounded.
	MaxStates int64
	// MaxMemoryBytes bounds memory; 0 means unbounded. It is checked against the visited
	// store's estimated size (Stats.StoreBytes) and, sampled every 20 ms between chunks of
	// work, against the Go heap (store, frontier states and not yet collected garbage), so
	// that one wide level cannot exhaust the machine. Reaching it gives Inconclusive. The
	// heap reading depends on garbage-collector timing, so a run close to the budget may
	// stop at a different point from one run to the next; it never turns into Holds.
	MaxMemoryBytes int64
	// Store selects the visited store: Exact (default) or Fingerprint.
	Store StoreMode
	// CheckDeadlock reports a reachable non-Terminal state without successors (a global
	// deadlock: KindDeadlock).
	CheckDeadlock bool
	// CheckLocalDeadlock reports the first reachable state in which a local deadlock
	// forms (KindLocalDeadlock): a set of messages none of which can ever move again,
	// whatever the others do. The model must be a LocalDeadlocker. A global deadlock is
	// a local one, so with CheckDeadlock too the local kind is found first; on its own
	// it still finds every global deadlock (Stuck is non-empty there). Every state is
	// checked, so a deadlock hidden among free-running messages is found at the depth
	// where it forms, not where the last free message stops.
	CheckLocalDeadlock bool
	// CheckLiveness makes an exhaustive search that found nothing also decide "every
	// message is eventually delivered": by the model's progress measure when it is a
	// system.Progressive whose rank increased on every transition, and otherwise by
	// CheckLiveness on the explicit reachable graph (bounded by MaxStates and Context),
	// whose livelock or starvation lasso then makes the verdict Violated.
	// Result.Certificate says which.
	CheckLiveness bool
	// Invariants are checked on every reachable state, in this order.
	Invariants []Invariant[S]
	// Symmetry explores symmetry-class representatives through the model's
	// Canonicalizer; Explore returns an error if the model does not implement it.
	Symmetry bool
	// Progress receives a progress line at most once per ProgressEvery, and a final
	// one when the search ends; nil means no progress output.
	Progress io.Writer
	// ProgressEvery is the progress interval; 0 means DefaultProgressEvery.
	ProgressEvery time.Duration
	// ProgressLabel starts every progress line (the instance's name); "" for none.
	ProgressLabel string
	// StopAtFirst stops a level as soon as any worker finds a violation. The default
	// finishes the level and reports the violation with the least (parent, transition)
	// key, which is the same for any worker count; with StopAtFirst and several workers
	// the reported violation is still a shortest one but may differ between runs.
	StopAtFirst bool
	// Context cancels the search; a cancelled search is Inconclusive. nil means
	// context.Background().
	Context context.Context
	// SpillDir, if set, keeps the frontier and the parent records in files in a private
	// directory under SpillDir (removed when the search ends) instead of memory, so that
	// memory holds only the visited set: searches larger than memory, as TLC's disk
	// queue does. The model must implement Decoder. Verdicts, counts and traces are the
	// same as without it; the store's figures and MaxMemoryBytes cover memory only.
	SpillDir string
}

// normalized returns a copy of o with defaults filled in, or an error naming the first
// invalid field.
func (o Options[S]) normalized() (Options[S], error) {
	switch {
	case o.Workers < 0:
		return o, fmt.Errorf("checker: Workers is %d; it must be 0 (one worker) or more", o.Workers)
	case o.MaxDepth < 0:
		return o, fmt.Errorf("checker: MaxDepth is %d; it must be 0 (unbounded) or more", o.MaxDepth)
	case o.MaxStates < 0:
		return o, fmt.Errorf("checker: MaxStates is %d; it must be 0 (unbounded) or more", o.MaxStates)
	case o.MaxMemoryBytes < 0:
		return o, fmt.Errorf("checker: MaxMemoryBytes is %d; it must be 0 (unbounded) or more", o.MaxMemoryBytes)
	case !o.Store.valid():
		return o, fmt.Errorf("checker: Store is %v; it must be Exact or Fingerprint", o.Store)
	case o.ProgressEvery < 0:
		return o, fmt.Errorf("checker: ProgressEvery is %v; it must be 0 (default %v) or more", o.ProgressEvery, DefaultProgressEvery)
	}
	for i, inv := range o.Invariants {
		if inv.Check == nil {
			return o, fmt.Errorf("checker: invariant %d (%q) has a nil Check", i, inv.Name)
		}
	}
	if o.Workers == 0 {
		o.Workers = 1
	}
	if o.ProgressEvery == 0 {
		o.ProgressEvery = DefaultProgressEvery
	}
	if o.Context == nil {
		o.Context = context.Background()
	}
	return o, nil
}
