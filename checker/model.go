// Package checker is wormcheck's explicit-state explorer: exhaustive and bounded
// breadth-first search over any transition system that implements Model, with deadlock
// detection, invariants, shortest replayable counterexamples, parallel workers and a
// visited store in exact or fingerprint mode.
//
// The contract every Model must keep: Successors is a pure function of the state and
// returns transitions in a deterministic order; Encode is canonical (two states are the
// same state if and only if their encodings are equal). The explorer relies on both for
// reproducible verdicts, state counts and traces whatever the worker count.
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
