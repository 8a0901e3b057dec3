package checkertest

import (
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
)

// TwoLocks is the classic lock-order deadlock: process 0 takes lock A then lock B,
// process 1 takes B then A; each then releases both and is done. A process's pc is 0
// (idle), 1 (holds its first lock), 2 (holds both) or 3 (done); action p steps
// process p.
//
// Known answers: 13 reachable states (the 16 pc pairs minus the 3 where both would
// hold one lock); one deadlock, pcs (1, 1), at depth 2; the state (3, 3) is Terminal.
type TwoLocks struct{}

// TwoLocksState is the pair of program counters.
type TwoLocksState [2]uint8

// Init returns both processes idle.
func (TwoLocks) Init() []TwoLocksState { return []TwoLocksState{{0, 0}} }

// holds reports whether process p holds lock l (0 = A, 1 = B) at pc.
func holds(p int, pc uint8, l int) bool {
	first := p // process 0 takes A first, process 1 takes B first
	return pc == 2 || (pc == 1 && l == first)
}

func (TwoLocks) free(s TwoLocksState, l int) bool {
	return !holds(0, s[0], l) && !holds(1, s[1], l)
}

// Successors steps each process whose next lock is free.
func (m TwoLocks) Successors(s TwoLocksState, dst []checker.Transition[TwoLocksState]) []checker.Transition[TwoLocksState] {
	for p := range 2 {
		next := s
		switch s[p] {
		case 0:
			if !m.free(s, p) {
				continue
			}
		case 1:
			if !m.free(s, 1-p) {
				continue
			}
		case 3:
			continue
		}
		next[p]++
		dst = append(dst, checker.Transition[TwoLocksState]{Action: checker.Action(p), Next: next})
	}
	return dst
}

// Encode appends the two pcs.
func (TwoLocks) Encode(s TwoLocksState, buf []byte) []byte { return append(buf, s[0], s[1]) }

// Terminal reports whether both processes are done.
func (TwoLocks) Terminal(s TwoLocksState) bool { return s == TwoLocksState{3, 3} }

// Describe names the step process p takes.
func (TwoLocks) Describe(s TwoLocksState, a checker.Action) string {
	locks := [2][2]string{{"A", "B"}, {"B", "A"}}
	p := int(a)
	switch s[p] {
	case 0:
		return fmt.Sprintf("P%d takes %s", p, locks[p][0])
	case 1:
		return fmt.Sprintf("P%d takes %s", p, locks[p][1])
	}
	return fmt.Sprintf("P%d releases A and B", p)
}

// Progress ranks s by the sum of the two pcs, which every step increases by one; it
// makes TwoLocks a system.Progressive model.
func (TwoLocks) Progress(s TwoLocksState, buf []uint32) []uint32 {
	return append(buf, uint32(s[0])+uint32(s[1]))
}
