// Package checker is wormcheck's explicit-state explorer: exhaustive and bounded
// breadth-first search over any transition system that implements Model, with deadlock
// detection, invariants, shortest replayable counterexamples, parallel workers and a
// visited store in exact or fingerprint mode.
//
// The contract every Model must keep: Successors is a pure function of the state and
// returns transitions in a deterministic order; Encode is canonical (two states are the
// same state if and only if their encodings are equal). The explorer relies on both for
// reproducible verdicts, state counts and traces whatever the worker count.
//
// # Search
//
// Explore is a level-synchronous breadth-first search: level d holds the states first
// reached after d transitions. Workers split a level's frontier and insert successors
// into a sharded visited store. Within a level, every discovery of a new state carries
// the key (index of the parent in the frontier, index of the transition among the
// parent's successors); the store keeps, per new state, the least key seen, and the
// next frontier is ordered by that key. The set of states of each level, the recorded
// parent of each state and the frontier order are therefore functions of the model
// alone, so the reported violation (the least key at the first level that has one) and
// its trace are the same for any worker count. Invariants and the deadlock check run
// when a state is expanded, so a violation at level d has a trace of length d, the
// shortest possible.
//
// A bounded search never claims Holds: MaxDepth stops at level MaxDepth and gives
// Inconclusive if some successor of that level is not stored yet (Holds if the search
// was in fact complete); MaxStates, MaxMemoryBytes and a cancelled Context give
// Inconclusive. A violation found before a bound is still reported as Violated.
//
// # Visited store
//
// For each state the store keeps only its 64-bit fingerprint (xxHash64, seed 0, so
// runs are reproducible), the id of its parent and the action taken from the parent;
// traces are rebuilt by Replay from an initial state. In Exact mode the state's
// encoding is also kept (in a per-shard byte arena) and compared on equal fingerprints,
// so no state is ever missed. In Fingerprint mode two states with equal fingerprints
// are taken to be the same state; as in TLC, if the n stored fingerprints behave as
// independent uniform 64-bit values, the probability that any two collide is at most
// n(n-1)/2 / 2^64 < n²/2^65 (about 3e-8 for a million states, 3e-2 for a billion);
// Stats.FingerprintCollisionBound reports this bound. A collision could only hide
// states (a possible false Holds), never invent a violation: every reported trace is
// replayed on the model and its violation re-checked before it is returned.
//
// # Encoded successors
//
// A model that also implements SuccessorEncoder hands the explorer only the action and
// encoding of each successor; the explorer hashes and stores those and builds, after the
// level, just the states it stored for the first time, each from its parent and the
// recorded action. The states, counts, order and traces are those of the plain path.
//
// # Symmetry
//
// With Options.Symmetry the store and the frontiers hold only Canonical
// representatives. A trace between representatives is mapped back to a concrete path
// of the model (at each step the first concrete successor whose representative is the
// next one), so every reported trace replays on the unreduced model.
package checker

// Model is a transition system the explorer can search. S is the model's state type;
// states handed to the explorer must not be mutated afterwards.
type Model[S any] interface {
	// Init returns the initial states, in a deterministic order.
	Init() []S
	// Successors appends to dst the transitions enabled in s, in a deterministic order,
	// and returns the extended slice. An empty result means s has no enabled transition.
	Successors(s S, dst []Transition[S]) []Transition[S]
	// Encode appends the canonical byte encoding of s to buf and returns it. Equal states
	// must have equal encodings and different states different encodings.
	Encode(s S, buf []byte) []byte
	// Terminal reports whether s is a proper end state (every message delivered). A state
	// with no enabled transition that is not Terminal is a deadlock.
	Terminal(s S) bool
	// Describe renders an action label for people (traces, SVG, JSON). It is called only
	// when a trace is printed, never in the search loop.
	Describe(from S, action Action) string
}

// Action identifies a transition among the successors of a state; its meaning belongs
// to the model (for example "flit of worm 2 advances on channel 17"). The explorer
// stores only actions and re-derives states by replay when it builds a trace.
type Action uint64

// Transition is one enabled step: the action taken and the state it leads to.
type Transition[S any] struct {
	Action Action
	Next   S
}

// Canonicalizer is an optional Model extension for symmetry reduction: Canonical maps a
// state to the representative of its symmetry class (for example the least encoding
// under mesh reflections or torus translations). The explorer stores and counts only
// representatives; it must be sound, i.e. symmetric states must have the same verdicts.
type Canonicalizer[S any] interface {
	Canonical(s S) S
}

// Invariant is a named predicate that must hold in every reachable state. Check returns
// nil when the state is fine and an error saying what is wrong otherwise.
type Invariant[S any] struct {
	Name  string
	Check func(S) error
}

// SuccessorEncoder is an optional Model extension for models whose states are costly to
// build: the explorer asks only for the encodings of a state's successors and builds,
// with Successor, just those it stores for the first time (usually a fraction of the
// transitions). It is not used with Options.Symmetry.
//
// The contract: EncodeSuccessors calls yield once for every transition Successors(s)
// returns, in the same order, with its Action and Encode(Next); Successor(s, a) returns
// a state with the same encoding as the Next of the transition of s with action a.
type SuccessorEncoder[S any] interface {
	// EncodeSuccessors yields (action, encoding) per transition of s in Successors
	// order. enc is valid only during the call to yield. buf is scratch space the model
	// may use for encodings; it returns the possibly grown buffer for reuse.
	EncodeSuccessors(s S, buf []byte, yield func(a Action, enc []byte)) []byte
	// Successor returns the target of the enabled transition a of s.
	Successor(s S, a Action) S
}
