package checker

import (
	"fmt"
	"time"
)

// Verdict is the three-valued outcome of a search.
type Verdict int

const (
	// Holds means the whole reachable state space was explored and no violation found.
	Holds Verdict = iota
	// Violated means a violation was found; Result.Violation holds a shortest trace.
	Violated
	// Inconclusive means a bound or cancellation stopped the search before it was
	// complete and no violation had been found; Result.Reason says which.
	Inconclusive
)

var verdictNames = [...]string{Holds: "holds", Violated: "violated", Inconclusive: "inconclusive"}

// String returns "holds", "violated" or "inconclusive", or "Verdict(n)" otherwise.
func (v Verdict) String() string {
	if v >= Holds && v <= Inconclusive {
		return verdictNames[v]
	}
	return fmt.Sprintf("Verdict(%d)", int(v))
}

// MarshalText encodes a verdict as its name, so that JSON reports say "holds",
// "violated" or "inconclusive".
func (v Verdict) MarshalText() ([]byte, error) {
	if v < Holds || v > Inconclusive {
		return nil, fmt.Errorf("checker: verdict %d is not holds, violated or inconclusive", int(v))
	}
	return []byte(verdictNames[v]), nil
}

// UnmarshalText decodes a verdict name written by MarshalText.
func (v *Verdict) UnmarshalText(b []byte) error {
	p, err := ParseVerdict(string(b))
	if err != nil {
		return err
	}
	*v = p
	return nil
}

// ParseVerdict returns the verdict named s ("holds", "violated" or "inconclusive").
func ParseVerdict(s string) (Verdict, error) {
	for i, n := range verdictNames {
		if n == s {
			return Verdict(i), nil
		}
	}
	return 0, fmt.Errorf("verdict %q is unknown; want holds, violated or inconclusive", s)
}

// ExitCode maps a verdict to the command-line exit code of DESIGN.md: 0 holds, 1
// violated, 3 inconclusive.
func (v Verdict) ExitCode() int {
	switch v {
	case Holds:
		return 0
	case Violated:
		return 1
	}
	return 3
}

// ViolationKind says what kind of property failure a Violation is. It is a type, not
// a string, so that a kind is compared with a kind (and a misspelt one does not compile).
type ViolationKind uint8

// The violation kinds.
const (
	// KindDeadlock is a global deadlock: a reachable non-Terminal state without successors.
	KindDeadlock ViolationKind = iota + 1
	// KindLocalDeadlock is a reachable state with a non-empty set of undelivered messages
	// none of which can ever move again (system.LocalDeadlocker), reported in the state
	// where it forms; Violation.Stuck lists the set.
	KindLocalDeadlock
	// KindInvariant is a reachable state that breaks one of Options.Invariants.
	KindInvariant
	// KindLivelock is a fair cycle on which some message is pending throughout and no
	// transition delivers anything (a lasso).
	KindLivelock
	// KindStarvation is a fair cycle on which some message is pending throughout while
	// others are delivered (a lasso).
	KindStarvation
)

var kindNames = [...]string{KindDeadlock: "deadlock", KindLocalDeadlock: "local-deadlock", KindInvariant: "invariant", KindLivelock: "livelock", KindStarvation: "starvation"}

// String returns the kind's name: "deadlock", "local-deadlock", "invariant", "livelock"
// or "starvation" ("ViolationKind(n)" otherwise).
func (k ViolationKind) String() string {
	if k >= KindDeadlock && k <= KindStarvation {
		return kindNames[k]
	}
	return fmt.Sprintf("ViolationKind(%d)", int(k))
}

// MarshalText encodes a kind as its name.
func (k ViolationKind) MarshalText() ([]byte, error) {
	if k < KindDeadlock || k > KindStarvation {
		return nil, fmt.Errorf("checker: violation kind %d is unknown", int(k))
	}
	return []byte(kindNames[k]), nil
}

// UnmarshalText decodes a kind name written by MarshalText.
func (k *ViolationKind) UnmarshalText(b []byte) error {
	for i, n := range kindNames {
		if n != "" && n == string(b) {
			*k = ViolationKind(i)
			return nil
		}
	}
	return fmt.Errorf("violation kind %q is unknown", b)
}

// IsLasso reports whether the kind's evidence is a lasso (a prefix and a cycle).
func (k ViolationKind) IsLasso() bool { return k == KindLivelock || k == KindStarvation }

// IsDeadlock reports whether the kind is a global or a local deadlock.
func (k ViolationKind) IsDeadlock() bool { return k == KindDeadlock || k == KindLocalDeadlock }

// Violation is a property failure with the evidence for it.
type Violation[S any] struct {
	Kind ViolationKind
	// Stuck is, for KindLocalDeadlock (and KindDeadlock where the model is a
	// system.LocalDeadlocker), the messages that can never move again, ascending.
	Stuck []int
	// Invariant is the violated invariant's name; empty for a deadlock.
	Invariant string
	// Message says what is wrong in the last state of Trace.
	Message string
	// Trace is a shortest path from an initial state to the violating state; Replay
	// re-executes it. For a lasso (KindLivelock, KindStarvation) it is a shortest path
	// to the cycle's first state followed by the cycle, and ReplayLasso re-checks it.
	Trace Trace[S]
	// CycleStart is, for a lasso, the index in Trace.Steps of the state the cycle
	// starts from and returns to (the last step's state); 0 for other kinds.
	CycleStart int
}

// Result is what Explore found.
type Result[S any] struct {
	Verdict   Verdict
	Violation *Violation[S] // non-nil exactly when Verdict is Violated
	Reason    string        // why the search is Inconclusive; empty otherwise
	Stats     Stats
	// Progress is the progress certificate of a system.Progressive model (nil for
	// other models): see ProgressResult.
	Progress *ProgressResult[S]
	// Liveness is the result of the liveness check that Options.CheckLiveness ran when
	// the progress measure was absent or broken; nil otherwise.
	Liveness *LivenessResult[S]
}

// Stats are the figures of a search.
type Stats struct {
	// States is the number of distinct (canonical, under Symmetry) states stored.
	States int64
	// Transitions is the number of transitions generated (including those to states
	// already seen).
	Transitions int64
	// Depth is the deepest BFS level expanded (0: only initial states).
	Depth         int
	Duration      time.Duration
	StatesPerSec  float64
	StoreBytes    int64   // estimated size of the visited store
	BytesPerState float64 // StoreBytes / States
	Workers       int
	// FingerprintCollisionBound is, in Fingerprint mode, the upper bound
	// States²/2^65 on the probability that two distinct states shared a fingerprint
	// (so that a state may have been missed); 0 in Exact mode.
	FingerprintCollisionBound float64
	// SpillBytes is, with Options.SpillDir, the largest size of the spill files (parent
	// records and the two frontier levels) at the end of a level; 0 otherwise.
	SpillBytes int64
}
