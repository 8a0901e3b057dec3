package checkertest

import (
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
)

// Bouncer is one message on a line of routers 0..N-1 that must reach router N-1 (where
// it is delivered): at each router it may move forward (action 1) or, routed
// adaptively and non-minimally, back (action 0, a misroute), except at router 0. With
// Budget >= 0 a message may misroute at most Budget times (the state counts its
// misroutes); with Budget < 0 there is no budget and the state is just the position.
//
// Known answers (N = 4): without a budget 4 states, 5 transitions, no deadlock, and a
// livelock under weak fairness: 0 -> 1 -> 0 forever (both directions are taken, so the
// cycle is fair); Progress (misroutes, position) breaks on the first backward move. With
// Budget 1: 8 states, 8 transitions, every transition increases the rank, so every run
// delivers. Reference: DESIGN.md claim RT6 (a misroute budget restores delivery).
type Bouncer struct {
	N      int // 2 <= N <= 255
	Budget int // < 0: unbounded; 0..255: at most Budget misroutes
}

// BouncerState is the message's router and, with a budget, its misroutes so far.
type BouncerState struct {
	At, Misroutes uint8
}

// Init returns the message at router 0.
func (Bouncer) Init() []BouncerState { return []BouncerState{{}} }

// Successors moves back (action 0) when allowed, then forward (action 1).
func (m Bouncer) Successors(s BouncerState, dst []checker.Transition[BouncerState]) []checker.Transition[BouncerState] {
	if int(s.At) == m.N-1 {
		return dst
	}
	if s.At > 0 && (m.Budget < 0 || int(s.Misroutes) < m.Budget) {
		back := BouncerState{At: s.At - 1, Misroutes: s.Misroutes}
		if m.Budget >= 0 {
			back.Misroutes++
		}
		dst = append(dst, checker.Transition[BouncerState]{Action: 0, Next: back})
	}
	return append(dst, checker.Transition[BouncerState]{Action: 1, Next: BouncerState{At: s.At + 1, Misroutes: s.Misroutes}})
}

// Encode appends the router and the misroutes.
func (Bouncer) Encode(s BouncerState, buf []byte) []byte { return append(buf, s.At, s.Misroutes) }

// Terminal reports whether the message has reached router N-1.
func (m Bouncer) Terminal(s BouncerState) bool { return int(s.At) == m.N-1 }

// Describe names the move.
func (Bouncer) Describe(s BouncerState, a checker.Action) string {
	if a == 0 {
		return fmt.Sprintf("message misroutes back from router %d to %d", s.At, s.At-1)
	}
	return fmt.Sprintf("message advances from router %d to %d", s.At, s.At+1)
}

// Progress ranks s by (misroutes, position), lexicographically: a forward move raises
// the position, a budgeted misroute the misroute count. Without a budget a misroute
// lowers the rank, which the explorer reports.
func (Bouncer) Progress(s BouncerState, buf []uint32) []uint32 {
	return append(buf, uint32(s.Misroutes), uint32(s.At))
}

// Server is a shared server with two clients: client 0 sends a stream of requests (it
// is served, action 0, and asks again, action 1, forever); client 1 has one request
// (message 1), served by action 2 when client 0 is waiting and 3 when client 0 has just
// been served, so that Action ids alone do not say these are the same transition; Task
// says so (class 2 for both). With Shared, client 1 can only be served while client 0
// is waiting (client 0 holds the server from being served until it asks again).
//
// Known answers: 4 states; 6 transitions unshared, 5 shared; no deadlock. Unshared, the
// cycle "serve 0, ask again" starves client 1 but leaves its service enabled in every
// state, so weak fairness (by Task) excludes it and the liveness verdict holds; judged by
// Action ids alone the two services are different transitions and the cycle is a
// counterexample. Shared, client 1's service is disabled on half the cycle: weak fairness
// allows the starvation, and the check reports it (kind starvation, prefix empty, cycle
// of 2 steps).
type Server struct {
	Shared bool
}

// ServerState says which requests are pending: bit 0 client 0's, bit 1 client 1's.
type ServerState uint8

// Init returns both requests pending.
func (Server) Init() []ServerState { return []ServerState{3} }

// Successors serves or re-arms client 0, then serves client 1 if it can be.
func (m Server) Successors(s ServerState, dst []checker.Transition[ServerState]) []checker.Transition[ServerState] {
	if s&1 != 0 {
		dst = append(dst, checker.Transition[ServerState]{Action: 0, Next: s &^ 1})
	} else {
		dst = append(dst, checker.Transition[ServerState]{Action: 1, Next: s | 1})
	}
	if s&2 != 0 && (!m.Shared || s&1 != 0) {
		a := checker.Action(2)
		if s&1 == 0 {
			a = 3
		}
		dst = append(dst, checker.Transition[ServerState]{Action: a, Next: s &^ 2})
	}
	return dst
}

// Encode appends the pending bits.
func (Server) Encode(s ServerState, buf []byte) []byte { return append(buf, byte(s)) }

// Terminal is false: client 0 never stops.
func (Server) Terminal(ServerState) bool { return false }

// Describe names the step.
func (Server) Describe(_ ServerState, a checker.Action) string {
	switch a {
	case 0:
		return "serve client 0"
	case 1:
		return "client 0 asks again"
	}
	return "serve client 1"
}

// Pending lists the pending requests: message i is client i's.
func (Server) Pending(s ServerState, dst []int) []int {
	for i := range 2 {
		if s&(1<<i) != 0 {
			dst = append(dst, i)
		}
	}
	return dst
}

// Task identifies client 1's service across states (actions 2 and 3 are one class).
func (Server) Task(_ ServerState, a checker.Action) uint64 { return uint64(min(a, 2)) }
