package checkertest

import (
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
)

// Philosophers is Dijkstra's dining philosophers on a ring of N: philosopher i needs
// fork i (left) and fork (i+1) mod N (right). Its state is 0 (thinking), 1 (holds the
// left fork) or 2 (eating, holds both); action i steps philosopher i: 0 -> 1 when the
// left fork is free, 1 -> 2 when the right fork is free, 2 -> 0 releasing both. No
// state is Terminal.
//
// Known answers: exactly one deadlock, every philosopher holding its left fork, at
// depth N. Philosophers is a Canonicalizer: rotating the table is a symmetry, and the
// representative is the least rotation.
type Philosophers struct {
	N int // 2 <= N <= 255
}

// PhilState holds philosopher i's state in byte i.
type PhilState string

// Init returns everyone thinking.
func (m Philosophers) Init() []PhilState {
	b := make([]byte, m.N)
	return []PhilState{PhilState(b)}
}

// forkFree reports whether fork f is on the table.
func (m Philosophers) forkFree(s PhilState, f int) bool {
	left := s[f]              // philosopher f's left fork is f
	right := s[(f-1+m.N)%m.N] // philosopher f-1's right fork is f
	return left == 0 && right != 2
}

// Successors steps every philosopher that can move.
func (m Philosophers) Successors(s PhilState, dst []checker.Transition[PhilState]) []checker.Transition[PhilState] {
	for i := 0; i < m.N; i++ {
		var next byte
		switch s[i] {
		case 0:
			if !m.forkFree(s, i) {
				continue
			}
			next = 1
		case 1:
			if !m.forkFree(s, (i+1)%m.N) {
				continue
			}
			next = 2
		case 2:
			next = 0
		}
		b := []byte(s)
		b[i] = next
		dst = append(dst, checker.Transition[PhilState]{Action: checker.Action(i), Next: PhilState(b)})
	}
	return dst
}

// Encode appends the N state bytes.
func (Philosophers) Encode(s PhilState, buf []byte) []byte { return append(buf, s...) }

// Terminal is always false: the philosophers never finish.
func (Philosophers) Terminal(PhilState) bool { return false }

// Describe names philosopher i's step.
func (m Philosophers) Describe(s PhilState, a checker.Action) string {
	i := int(a)
	switch s[i] {
	case 0:
		return fmt.Sprintf("philosopher %d takes fork %d", i, i)
	case 1:
		return fmt.Sprintf("philosopher %d takes fork %d and eats", i, (i+1)%m.N)
	}
	return fmt.Sprintf("philosopher %d puts forks %d and %d down", i, i, (i+1)%m.N)
}

// Canonical returns the least rotation of s. Cost O(N^2).
func (m Philosophers) Canonical(s PhilState) PhilState {
	best := s
	for r := 1; r < m.N; r++ {
		if rot := s[r:] + s[:r]; rot < best {
			best = rot
		}
	}
	return best
}

// Decode inverts Encode (for Options.SpillDir).
func (m Philosophers) Decode(enc []byte) (PhilState, error) {
	if len(enc) != m.N {
		return "", fmt.Errorf("checkertest: philosophers encoding has %d bytes, want %d", len(enc), m.N)
	}
	for i, b := range enc {
		if b > 2 {
			return "", fmt.Errorf("checkertest: philosopher %d is in state %d, want 0..2", i, b)
		}
	}
	return PhilState(enc), nil
}
