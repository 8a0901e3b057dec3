package checkertest

import (
	"encoding/binary"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
)

// Counters is N independent counters, each counting up from 0 to K-1; action c
// increments counter c. The state packs counter c into byte c of a uint64.
//
// Known answers: K^N states, all reachable; N*(K-1)*K^(N-1) transitions; depth
// N*(K-1); the only state without successors, all counters at K-1, is Terminal, so
// there is no deadlock. SumBelow(t) is first violated at depth t.
//
// Work > 0 makes Successors spin for about Work*1 ns per call, to model a system whose
// successor generation dominates the search (for parallel speed-up benchmarks).
type Counters struct {
	N, K int // 1 <= N <= 8, 2 <= K <= 256
	Work int
}

// CountersState is a Counters state: counter c is byte c.
type CountersState uint64

// Counter returns counter c.
func (s CountersState) Counter(c int) int { return int(s >> (8 * c) & 0xff) }

// Init returns the state with every counter at 0.
func (m Counters) Init() []CountersState { return []CountersState{0} }

// Successors appends one transition per counter below K-1.
func (m Counters) Successors(s CountersState, dst []checker.Transition[CountersState]) []checker.Transition[CountersState] {
	if m.Work > 0 && spin(uint64(s), m.Work) == 0 {
		panic("checkertest: spin value 0") // probability 2^-64; keeps the spin alive
	}
	for c := 0; c < m.N; c++ {
		if s.Counter(c) < m.K-1 {
			dst = append(dst, checker.Transition[CountersState]{Action: checker.Action(c), Next: s + 1<<(8*c)})
		}
	}
	return dst
}

// Encode appends the N counter bytes.
func (m Counters) Encode(s CountersState, buf []byte) []byte {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(s))
	return append(buf, b[:m.N]...)
}

// Terminal reports whether every counter is at K-1.
func (m Counters) Terminal(s CountersState) bool {
	for c := 0; c < m.N; c++ {
		if s.Counter(c) != m.K-1 {
			return false
		}
	}
	return true
}

// Describe renders action c as "counter c: v -> v+1".
func (m Counters) Describe(s CountersState, a checker.Action) string {
	v := s.Counter(int(a))
	return fmt.Sprintf("counter %d: %d -> %d", a, v, v+1)
}

// SumBelow is the invariant "the counters sum to less than t".
func SumBelow(t int) checker.Invariant[CountersState] {
	return checker.Invariant[CountersState]{
		Name: fmt.Sprintf("sum<%d", t),
		Check: func(s CountersState) error {
			sum := 0
			for c := range 8 {
				sum += s.Counter(c)
			}
			if sum >= t {
				return fmt.Errorf("counters sum to %d, not below %d", sum, t)
			}
			return nil
		},
	}
}

// spin mixes x n times (xorshift-multiply); it stands for expensive successor work.
func spin(x uint64, n int) uint64 {
	x |= 1
	for range n {
		x ^= x >> 33
		x *= 0xff51afd7ed558ccd
	}
	return x
}

// Decode inverts Encode (for Options.SpillDir).
func (m Counters) Decode(enc []byte) (CountersState, error) {
	if len(enc) != m.N {
		return 0, fmt.Errorf("checkertest: counters encoding has %d bytes, want %d", len(enc), m.N)
	}
	var s CountersState
	for c, b := range enc {
		if int(b) >= m.K {
			return 0, fmt.Errorf("checkertest: counter %d is %d, want below %d", c, b, m.K)
		}
		s |= CountersState(b) << (8 * c)
	}
	return s, nil
}

// Progress ranks s by the sum of its counters, which every transition increases by one;
// it makes Counters a system.Progressive model.
func (m Counters) Progress(s CountersState, buf []uint32) []uint32 {
	sum := 0
	for c := 0; c < m.N; c++ {
		sum += s.Counter(c)
	}
	return append(buf, uint32(sum))
}
