// Package system states the contract between a model and wormcheck's explorer: a
// transition system over explicit states, with initial states, the enabled transitions
// of a state in a deterministic order, a canonical encoding and a notion of proper end
// state. Models (model/flit, the banyan and any-delay models, a user's own) implement it
// without importing the explorer; package checker explores any Model.
//
// The contract every Model must keep: Successors is a pure function of the state and
// returns transitions in a deterministic order; Encode is canonical (two states are the
// same state if and only if their encodings are equal). The explorer relies on both for
// reproducible verdicts, state counts and traces whatever the worker count.
package system

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

// Progressive is an optional Model extension that certifies termination: Progress
// appends to buf a rank vector of s and returns it, and every transition must strictly
// increase the rank in lexicographic order (a shorter vector that is a prefix of a
// longer one is the smaller). A model whose every reachable transition increases its
// rank has an acyclic reachable graph, so every maximal run is finite: when the
// explorer also finds no deadlock, every run ends in a Terminal state, i.e. every
// message is delivered. The explorer checks the rank on every transition it generates
// and reports how many it checked; a transition that does not increase the rank voids
// the certificate (it is not itself a violation) and the liveness check decides
// delivery instead.
//
// The contract: Progress is a pure function of the state (equal encodings give equal
// ranks) and costs about as much as Encode; it may use buf's capacity.
//
// Reference: Manna & Pnueli, ranking functions over a well-founded order; DESIGN.md
// "Liveness".
type Progressive[S any] interface {
	Progress(s S, buf []uint32) []uint32
}

// CompareProgress compares two rank vectors lexicographically and returns -1, 0 or +1
// as a is less than, equal to or greater than b; a proper prefix is the smaller.
func CompareProgress(a, b []uint32) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		switch {
		case a[i] < b[i]:
			return -1
		case a[i] > b[i]:
			return 1
		}
	}
	switch {
	case len(a) < len(b):
		return -1
	case len(a) > len(b):
		return 1
	}
	return 0
}

// ProgressEncoder is an optional extension of a model that is both a SuccessorEncoder
// and Progressive: it yields each successor's rank beside its encoding, so that the
// explorer can check the progress measure on every transition without building the
// successors. A Progressive SuccessorEncoder without it is explored through Successors
// (same states, counts and traces, at the cost of building every successor).
//
// The contract: EncodeSuccessorsProgress yields exactly what EncodeSuccessors yields, in
// the same order, and with each transition rank = Progress(Next); enc and rank are valid
// only during the call to yield. buf and rbuf are scratch space returned for reuse.
type ProgressEncoder[S any] interface {
	EncodeSuccessorsProgress(s S, buf []byte, rbuf []uint32, yield func(a Action, enc []byte, rank []uint32)) ([]byte, []uint32)
}

// SuccessorBuilder is an optional extension of a SuccessorEncoder that builds, while it
// yields a successor's encoding, the successor itself when the explorer asks for it: an
// explorer that knows at once whether a successor is new (one worker) keeps the new ones
// from the model's scratch copy instead of rebuilding each with Successor afterwards
// (which repeats the step's enabling and its application).
//
// The contract: EncodeSuccessorsBuild yields exactly what EncodeSuccessorsProgress
// yields when ranks is set (rank nil otherwise), in the same order; when yield returns
// true the model calls keep once, before its next yield, with the state Successor(s, a)
// would return. enc, rank and the scratch are valid only during the call to yield.
type SuccessorBuilder[S any] interface {
	EncodeSuccessorsBuild(s S, buf []byte, rbuf []uint32, ranks bool, yield func(a Action, enc []byte, rank []uint32) bool, keep func(S)) ([]byte, []uint32)
}

// PendingMessages is an optional extension for the liveness check ("every message is
// eventually delivered"): Pending appends to dst the ids of the messages that s has not
// delivered yet and must still deliver, in increasing order. A transition delivers
// message m when m is pending in its source and not in its target. Without it, a state
// has one pending message, id 0, exactly when it is not Terminal.
type PendingMessages[S any] interface {
	Pending(s S, dst []int) []int
}

// Tasks is an optional extension that refines which transitions of different states are
// "the same transition" for weak fairness: Task returns the fairness class of the
// enabled transition a of s (for example "the header of worm 2 at its current router",
// or "process 1's next step"). Weak fairness requires that a class enabled in every
// state of a cycle is taken somewhere on it. Without it, the class of a transition is
// its Action.
type Tasks[S any] interface {
	Task(s S, a Action) uint64
}
