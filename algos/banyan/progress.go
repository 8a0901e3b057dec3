package banyan

import "math/bits"

// Packet progress values: a packet's value never decreases and every transition raises
// at least one (see Progress).
const (
	progressActive   = 1    // + links held
	progressDraining = 80   // + cycles drained (at most 255); above every active value
	progressDone     = 1024 // above every draining value
)

// Progress implements system.Progressive: the rank of s is the sum over packets of a
// value that only grows: 0 while a phase-2 copy waits for its phase-1 packet, 1 + the
// links it holds while active (a grant adds links the packet did not hold, and an active
// packet never releases one), progressDraining + the cycles drained while its tail
// drains (Options.Flits), and progressDone once done. Every transition grants at least
// one request or, in the lockstep timing, ticks a draining tail, so the sum strictly
// increases; the explorer checks it on every transition. Hence the reachable graph is
// acyclic and, with no deadlock, every multicast is delivered.
//
// Reference: 002 §3.2 (hold-and-wait with no release before delivery); DESIGN.md
// "Liveness".
func (sys *System) Progress(s State, buf []uint32) []uint32 {
	sum := uint32(0)
	for p, st := range s.Status {
		switch st {
		case active:
			sum += progressActive + uint32(bits.OnesCount64(s.Held[p]))
		case draining:
			sum += progressDraining + uint32(s.Drain[p])
		case done:
			sum += progressDone
		}
	}
	return append(buf, sum)
}

// Pending implements system.PendingMessages for the liveness check: message m is pending
// until every packet of it (its phase-1 packet and its phase-2 copies) is done.
func (sys *System) Pending(s State, dst []int) []int {
	for m := range sys.msgs {
		end := sys.packets
		if m+1 < len(sys.offset) {
			end = sys.offset[m+1]
		}
		for p := sys.offset[m]; p < end; p++ {
			if s.Status[p] != done {
				dst = append(dst, m)
				break
			}
		}
	}
	return dst
}
