package system

// Decoder is an optional Model extension that inverts Encode, so that a search can keep
// states on disk as encodings and rebuild them when it needs them (the explorer's
// frontier files, checker Options.SpillDir).
//
// The contract: for every reachable state s, Decode(Encode(s, nil)) returns a state
// with the same encoding as s (and so, by Encode's contract, the same state); Decode
// returns an error, never panics, on bytes Encode never produces.
type Decoder[S any] interface {
	Decode(enc []byte) (S, error)
}

// FrontierDecoder is an optional Model extension that rebuilds a state from its encoding
// in reusable memory. The explorer then keeps its frontiers as encodings and rebuilds
// each state when it expands it: a frontier costs its encodings (one word per state for
// model/flit) instead of its states, and no state is built or kept per new successor.
//
// The contract: DecodeInto returns the state whose encoding is enc, where enc is an
// encoding this model produced (Encode, EncodeSuccessors and the like) since it was
// built, using the memory of *scratch. *scratch starts as the zero S and is only ever
// passed back to DecodeInto; the result is valid until the next call with the same
// scratch, and whoever receives it (Successors, EncodeSuccessors, Progress, Terminal,
// invariants) must not keep it. The result must be indistinguishable from a state with
// encoding enc to every Model method. DecodeInto need not validate enc (Decode does) and
// should not allocate once scratch has grown.
type FrontierDecoder[S any] interface {
	DecodeInto(enc []byte, scratch *S) S
}
