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
// into one shared visited table without locks: a new state claims its slot by
// compare-and-swap (shared.go). Within a level, every discovery of a new state carries
// the key (the parent, and the index of the transition among the parent's successors);
// the store keeps, per new state, the least key seen (an atomic minimum), and the next
// frontier is ordered by that key. The set of states of each level, the recorded
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
// runs are reproducible), in an open-addressing table of one word a slot unless a lookup
// needs more (store.go), and one word of parent record: the id of its parent and the
// index of the transition taken from it (records.go); traces are rebuilt by Replay from
// an initial state, which re-derives the actions. In Exact mode the state's encoding is
// also kept (in an arena, arena.go) and compared on equal fingerprints, so no state is
// ever missed; an 8-byte encoding is not kept, since its fingerprint determines it
// (XXH64 is a bijection on 8-byte inputs: wordKeyed). With one worker, a model explored
// through Successors whose encodings have another length gets the same: a packer keys
// each encoding by the word of the bits in which it differs from the first initial
// state's, learned as the search goes, while they fit in a word (pack.go). In Fingerprint mode two states
// with equal fingerprints are taken to be the same state; as in TLC, if the n stored fingerprints behave as
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
// A SuccessorBuilder with one worker (and no SpillDir) builds each new state as it is
// stored, from the model's scratch copy, instead: one worker knows at once whether a
// successor is new, so nothing is rebuilt after the level.
//
// # Frontiers as encodings
//
// For a model that implements FrontierDecoder the levels hold encodings, not states:
// each worker rebuilds the state it expands in its own scratch (DecodeInto) and no state
// is built or kept per new successor. A frontier then costs its encodings and ids (about
// 20 bytes a state for model/flit's one-word encodings) where states may cost hundreds
// of bytes, and neither a SuccessorBuilder nor the building after the level is needed.
//
// # Larger than memory
//
// With Options.SpillDir the frontier and the parent records go to sequential files, as
// TLC's disk queue does, and memory holds only the visited set (fingerprints, and in
// Exact mode the encodings) plus one small entry per state of the level being built;
// the model must implement Decoder, which rebuilds frontier states from their
// encodings. Ids are then positions in breadth-first order, a trace is read back from
// the parents file, and the next frontier is written in least-key order (spill.go
// says how), so verdicts, counts and traces are those of the search in memory.
//
// # Symmetry
//
// With Options.Symmetry the store and the frontiers hold only Canonical
// representatives. A trace between representatives is mapped back to a concrete path
// of the model (at each step the first concrete successor whose representative is the
// next one), so every reported trace replays on the unreduced model.
package checker

import "github.com/wormcheck/wormcheck/model/system"

// The transition-system contract lives in model/system so that models (model/flit, the
// banyan and any-delay models, users' own) implement it without importing the explorer;
// these aliases keep checker.Model and friends the same types.
type (
	// Model is a transition system the explorer can search (system.Model).
	Model[S any] = system.Model[S]
	// Action identifies a transition among the successors of a state (system.Action).
	Action = system.Action
	// Transition is one enabled step (system.Transition).
	Transition[S any] = system.Transition[S]
	// Canonicalizer is the optional symmetry-reduction extension (system.Canonicalizer).
	Canonicalizer[S any] = system.Canonicalizer[S]
	// Invariant is a named state predicate (system.Invariant).
	Invariant[S any] = system.Invariant[S]
	// SuccessorEncoder is the optional encoded-successor extension (system.SuccessorEncoder).
	SuccessorEncoder[S any] = system.SuccessorEncoder[S]
	// SuccessorBuilder is the optional extension that builds the new successors as it
	// encodes them (system.SuccessorBuilder); used with one worker.
	SuccessorBuilder[S any] = system.SuccessorBuilder[S]
	// Decoder is the optional decoding extension that Options.SpillDir needs
	// (system.Decoder).
	Decoder[S any] = system.Decoder[S]
	// FrontierDecoder is the optional extension that lets the explorer keep frontiers as
	// encodings (system.FrontierDecoder).
	FrontierDecoder[S any] = system.FrontierDecoder[S]
	// LocalDeadlocker is the optional extension that Options.CheckLocalDeadlock needs
	// (system.LocalDeadlocker).
	LocalDeadlocker[S any] = system.LocalDeadlocker[S]
)
