package checkertest

import (
	"fmt"
	"math/bits"

	"github.com/wormcheck/wormcheck/checker"
)

// Ring is a token ring of N nodes, each with one bit. The node holding the token may
// toggle its bit (action i+1 for node i) or pass the token on (action 0).
//
// Known answers: N*2^N reachable states, none without successors; with symmetry
// (rotations of the ring; the representative has the token at node 0) 2^N. The
// invariant NotAllSet is first violated at depth 2N-1 (N toggles, N-1 passes).
type Ring struct {
	N int // 2 <= N <= 32
}

// RingState is the token's position and the bits, node i in bit i.
type RingState struct {
	Token uint8
	Bits  uint32
}

// Init returns the token at node 0 and every bit clear.
func (Ring) Init() []RingState { return []RingState{{}} }

// Successors lists the pass, then the toggle of the token holder's bit.
func (m Ring) Successors(s RingState, dst []checker.Transition[RingState]) []checker.Transition[RingState] {
	pass := s
	pass.Token = uint8((int(s.Token) + 1) % m.N)
	toggle := s
	toggle.Bits ^= 1 << s.Token
	return append(dst,
		checker.Transition[RingState]{Action: 0, Next: pass},
		checker.Transition[RingState]{Action: checker.Action(s.Token) + 1, Next: toggle})
}

// Encode appends the token and the 4 bytes of bits.
func (Ring) Encode(s RingState, buf []byte) []byte {
	return append(buf, s.Token, byte(s.Bits), byte(s.Bits>>8), byte(s.Bits>>16), byte(s.Bits>>24))
}

// Terminal is always false.
func (Ring) Terminal(RingState) bool { return false }

// Describe names the action.
func (Ring) Describe(s RingState, a checker.Action) string {
	if a == 0 {
		return fmt.Sprintf("node %d passes the token", s.Token)
	}
	return fmt.Sprintf("node %d toggles its bit", a-1)
}

// Canonical rotates the ring so that the token is at node 0: node i's bit moves to
// bit (i - Token) mod N.
func (m Ring) Canonical(s RingState) RingState {
	t, n := uint(s.Token), uint(m.N)
	mask := uint32(1<<n - 1) // 1<<32 - 1 wraps to all ones
	return RingState{Token: 0, Bits: (s.Bits>>t | s.Bits<<(n-t)) & mask}
}

// NotAllSet is the invariant "some bit is clear".
func NotAllSet(n int) checker.Invariant[RingState] {
	return checker.Invariant[RingState]{
		Name: "not-all-set",
		Check: func(s RingState) error {
			if bits.OnesCount32(s.Bits) == n {
				return fmt.Errorf("all %d bits are set", n)
			}
			return nil
		},
	}
}

// Decode inverts Encode (for Options.SpillDir).
func (m Ring) Decode(enc []byte) (RingState, error) {
	if len(enc) != 5 || int(enc[0]) >= m.N {
		return RingState{}, fmt.Errorf("checkertest: ring encoding %x is not a token below %d and 4 bytes of bits", enc, m.N)
	}
	return RingState{Token: enc[0], Bits: uint32(enc[1]) | uint32(enc[2])<<8 | uint32(enc[3])<<16 | uint32(enc[4])<<24}, nil
}
