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
