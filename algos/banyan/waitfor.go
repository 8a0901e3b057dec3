package banyan

import (
	"fmt"
	"math/bits"
	"strings"

	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/model/topology"
)

// WaitFor returns the wait-for relation of s as data (system.WaitGraph), with packets as
// its messages. A packet is blocked when it is undelivered, its tail is not draining and
// none of its requests has every link it asks for free; its waits are then one per
// request, as Successors forms them:
//   - a packet that holds nothing waits for its injection link (Input -1);
//   - a head at tree link k (Input k, At its channel) waits for its unheld children: with
//     atomic acquisition one wait for all of them together (All when there are two: both
//     must be free at once, so one held for ever closes it), with split acquisition one
//     wait per child;
//   - a phase-2 copy not yet ready waits for its message's phase-1 packet
//     (WaitPhase1): it becomes ready only when that packet has been received in full.
//
// Each need is a link (ID, its channel) with the packet that holds it (-1: free). A
// request whose links are all free counts as a way to move even when it loses this
// cycle's arbitration (upper-first): the winner then moves, so the loser is not stuck
// now. Cost: one pass over the packets' held links.
func (sys *System) WaitFor(s State) system.WaitGraph {
	owner := sys.owners(s)
	n := len(s.Status)
	g := system.WaitGraph{Undelivered: make([]bool, n), Blocked: make([]bool, n)}
	for p, st := range s.Status {
		g.Undelivered[p] = st != done
		switch st {
		case waiting:
			g.Blocked[p] = true
			g.Waits = append(g.Waits, system.Wait{Waiter: p, Kind: system.WaitPhase1, Input: -1, At: -1,
				Needs: []system.Resource{{ID: -1, Holder: sys.offset[sys.messageOf(p)]}}})
		case active:
			mark := len(g.Waits)
			var free bool
			g.Waits, free = sys.headWaits(s, owner, p, g.Waits)
			if free {
				g.Waits = g.Waits[:mark]
				continue
			}
			g.Blocked[p] = true
		}
	}
	return g
}

// headWaits appends to dst one wait per request of active packet p in s (see WaitFor)
// and reports whether some request has every link free.
func (sys *System) headWaits(s State, owner []int32, p int, dst []system.Wait) ([]system.Wait, bool) {
	sh := sys.shape(s, p)
	need := func(c topology.ChannelID) system.Resource { return system.Resource{ID: int(c), Holder: int(owner[c])} }
	free := false
	add := func(w system.Wait) {
		open := true
		for _, r := range w.Needs {
			if r.Holder >= 0 {
				open = false
			}
		}
		free = free || open
		w.All = len(w.Needs) > 1
		dst = append(dst, w)
	}
	if s.Held[p] == 0 {
		add(system.Wait{Waiter: p, Kind: system.WaitLink, Input: -1, At: -1, Needs: []system.Resource{need(sh.tree[0].Channel)}})
		return dst, free
	}
	for held := s.Held[p]; held != 0; held &= held - 1 {
		k := bits.TrailingZeros64(held)
		l := &sh.tree[k]
		w := system.Wait{Waiter: p, Kind: system.WaitLink, Input: k, At: int(l.Channel)}
		for c := 0; c < l.NumChildren; c++ {
			ci := l.Children[c]
			if s.Held[p]&(1<<uint(ci)) != 0 {
				continue
			}
			if sys.opt.Acquire == Split {
				add(system.Wait{Waiter: p, Kind: system.WaitLink, Input: k, At: int(l.Channel), Needs: []system.Resource{need(sh.tree[ci].Channel)}})
				continue
			}
			w.Needs = append(w.Needs, need(sh.tree[ci].Channel))
		}
		if len(w.Needs) > 0 {
			add(w)
		}
	}
	return dst, free
}

// messageOf returns the message packet p belongs to.
func (sys *System) messageOf(p int) int {
	m := 0
	for m+1 < len(sys.offset) && sys.offset[m+1] <= p {
		m++
	}
	return m
}

// LocalDeadlock implements system.LocalDeadlocker: the largest set of packets of s none
// of which can ever move again (system.WaitGraph.LocalDeadlock over WaitFor), ascending,
// or nil. It judges s from its state alone: a lockstep transition is a combination of
// grants, so enabled does not name one packet per action, and it is not read. Why the
// set is permanent, in both timings: its members hold their links until they are
// received in full, which needs a grant of their own; every request of a member asks
// for a link another member holds (for an atomic pair, one such link suffices), and a
// phase-2 member waits for a phase-1 member; so no member is ever granted anything, and
// none releases a link (docs/semantics.md, "Local deadlock in the banyan models").
func (sys *System) LocalDeadlock(s State, _ []system.Action) []int {
	g := sys.WaitFor(s)
	return g.LocalDeadlock()
}

// DeadlockText says what state s shows, as the explorer reports it: sys.Violation
// ("deadlock (starts ...): ...") when no packet can move and some is undelivered; with
// local, "local deadlock of P, Q (2 of 6 packets, starts ...): ..." with the waits of the
// members when some packets can never move again; "" otherwise. Replays of saved traces
// judge their last state with it.
func (sys *System) DeadlockText(s State, local bool) string {
	if len(sys.Successors(s, nil)) == 0 && !sys.Terminal(s) {
		return sys.Violation(s)
	}
	if !local {
		return ""
	}
	stuck := sys.LocalDeadlock(s, nil)
	if len(stuck) == 0 {
		return ""
	}
	member := make(map[int]bool, len(stuck))
	names := make([]string, len(stuck))
	for k, p := range stuck {
		member[p] = true
		names[k] = sys.PacketName(s, p)
	}
	var parts []string
	for _, w := range sys.Waits(s) {
		if member[w.WaiterIdx] && member[w.HolderIdx] {
			parts = append(parts, fmt.Sprintf("%s at %s waits for %s held by %s", w.Waiter, w.At, w.Link, w.Holder))
		}
	}
	return fmt.Sprintf("local deadlock of %s (%d of %d packets, starts %v): %s", strings.Join(names, ", "), len(stuck), len(s.Status), sys.StartsOf(s), strings.Join(parts, "; "))
}

var (
	_ system.WaitReporter[State]    = (*System)(nil)
	_ system.LocalDeadlocker[State] = (*System)(nil)
)
