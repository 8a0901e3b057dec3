package system

import "slices"

// WaitKind says what a blocked flit waits for.
type WaitKind uint8

// The kinds of wait. Each names one way forward a blocked flit has; Wait.Needs lists the
// resources that would open it.
const (
	// WaitRoom: a data (or re-injected) flit, or an address flit following an output its
	// message reserved, waits for buffer room in that virtual channel.
	WaitRoom WaitKind = iota
	// WaitOutput: an address flit waits for a free virtual channel among those its
	// routing relation permits (any one of Needs will do).
	WaitOutput
	// WaitEject: an address flit at its destination waits for a free delivery channel.
	WaitEject
	// WaitInject: a message waits for its source's injection channel.
	WaitInject
	// WaitNoRoute: the relation permits no output at all; nothing can ever open it.
	WaitNoRoute
	// WaitLink: a packet's head waits for a link (the banyan models).
	WaitLink
	// WaitPhase1: a phase-2 copy of a two-phase multicast waits for its message's
	// phase-1 packet to be received in full (the banyan models); Needs names that packet
	// (ID -1).
	WaitPhase1
)

var waitKindNames = [...]string{"room", "output", "eject", "inject", "no-route", "link", "phase-1"}

// String returns the kind's name ("room", "output", ...).
func (k WaitKind) String() string {
	if int(k) < len(waitKindNames) {
		return waitKindNames[k]
	}
	return "wait?"
}

// Resource is one thing a blocked flit could take: a model-specific id (a virtual channel
// for model/flit, a link for the banyan models, -1 where a kind has none) and the message
// that holds it (-1: nobody holds it).
type Resource struct {
	ID     int
	Holder int
}

// Wait is one blocked way forward of an undelivered message: the flit at input Input of
// message Waiter, standing at node (or link) At, can move as soon as any one of Needs is
// released, or, with All, only when every one of Needs is free at once (an atomic
// request of several links: a replicating banyan head takes both outputs together). A
// Wait with no Needs (WaitNoRoute) never opens.
type Wait struct {
	Waiter int
	Kind   WaitKind
	Input  int // the model's input index (its actions' input)
	At     int
	Flit   int // the position of the waiting flit in its message's format
	Needs  []Resource
	All    bool
}

// WaitGraph is the wait-for relation of one state, as data: which messages are
// undelivered, which of those have no enabled transition (Blocked), and every blocked
// way forward of the blocked ones with who holds what it needs. Models build it
// (model/flit's WaitFor, the banyan models' Waits); LocalDeadlock and Cycles read it.
type WaitGraph struct {
	// Undelivered[i]: message i still has a flit in the network or at its source.
	Undelivered []bool
	// Blocked[i]: message i is undelivered and has no enabled transition.
	Blocked []bool
	// Waits lists the blocked ways forward of the blocked messages, by message.
	Waits []Wait
}

// LocalDeadlock returns the largest set S of messages none of which can ever move again
// (ascending), or nil when there is none: S is the greatest fixed point of "m is blocked
// and every wait of m is closed by S", where a wait is closed by S when every one of its
// needs is held by a member of S, or, for an All wait, when some need is. Why it is
// permanent: a member of S has no enabled transition now; what would enable one is the
// release of a resource it needs (of every resource an All wait needs that is held),
// and resources are released only by transitions of their holders, which are members of
// S themselves. A global deadlock (no message can move) is the case S = every
// undelivered message.
//
// Reference: Stramaglia, Keiren & Zantema, "Deadlock in packet switching networks"
// (FSEN 2021), local deadlock. Cost O(rounds * needs), at most messages rounds.
func (g *WaitGraph) LocalDeadlock() []int {
	in := slices.Clone(g.Blocked)
	for changed := true; changed; {
		changed = false
		for _, w := range g.Waits {
			if in[w.Waiter] && !w.closedBy(in) {
				in[w.Waiter] = false
				changed = true
			}
		}
	}
	var out []int
	for i, b := range in {
		if b {
			out = append(out, i)
		}
	}
	return out
}

// closedBy reports whether the wait stays closed while the members of in (by message)
// keep what they hold: every need is held by a member, or, for an All wait, some need is.
func (w *Wait) closedBy(in []bool) bool {
	held := func(r Resource) bool { return r.Holder >= 0 && r.Holder < len(in) && in[r.Holder] }
	if w.All {
		return slices.ContainsFunc(w.Needs, held)
	}
	for _, r := range w.Needs {
		if !held(r) {
			return false
		}
	}
	return true
}

// Explained returns the messages a deadlock explanation is about: the local deadlock's
// set, or every blocked message when there is none (a state shown for another reason).
func (g *WaitGraph) Explained() []int {
	if set := g.LocalDeadlock(); set != nil {
		return set
	}
	var out []int
	for i, b := range g.Blocked {
		if b {
			out = append(out, i)
		}
	}
	return out
}

// WaitEdge is one edge of a wait-for cycle: message Waiter's wait Wait (an index into
// WaitGraph.Waits) needs resource Need (an index into that wait's Needs), which Holder
// holds.
type WaitEdge struct {
	Waiter, Wait, Need, Holder int
}

// Cycle returns one cycle of the wait-for graph among the messages of set (a
// LocalDeadlock result), in order around it: a depth-first search from the lowest
// member over waits and needs in the order the model gave them, so the same state
// always names the same cycle. Edges to a message's own resources (a worm waiting for
// its own buffer room) are skipped; nil when the members wait only on themselves or on
// messages that do not wait back (a stranded worm, a chain ending in a NoRoute wait).
func (g *WaitGraph) Cycle(set []int) []WaitEdge {
	n := len(g.Undelivered)
	member := make([]bool, n)
	for _, i := range set {
		if i >= 0 && i < n {
			member[i] = true
		}
	}
	out := make([][]WaitEdge, n)
	for wi, w := range g.Waits {
		if w.Waiter < 0 || w.Waiter >= n || !member[w.Waiter] {
			continue
		}
		for ni, r := range w.Needs {
			if r.Holder >= 0 && r.Holder < n && r.Holder != w.Waiter && member[r.Holder] {
				out[w.Waiter] = append(out[w.Waiter], WaitEdge{Waiter: w.Waiter, Wait: wi, Need: ni, Holder: r.Holder})
			}
		}
	}
	state := make([]uint8, n) // 0 new, 1 on the path, 2 done
	var path []WaitEdge
	var found []WaitEdge
	var dfs func(v int) bool
	dfs = func(v int) bool {
		state[v] = 1
		for _, e := range out[v] {
			switch state[e.Holder] {
			case 1:
				start := len(path)
				for k := range path {
					if path[k].Waiter == e.Holder {
						start = k
						break
					}
				}
				found = append(slices.Clone(path[start:]), e)
				return true
			case 0:
				path = append(path, e)
				if dfs(e.Holder) {
					return true
				}
				path = path[:len(path)-1]
			}
		}
		state[v] = 2
		return false
	}
	for i := 0; i < n; i++ {
		if member[i] && state[i] == 0 && dfs(i) {
			return found
		}
	}
	return nil
}

// WaitReporter is an optional Model extension: WaitFor returns the wait-for relation of
// a state as data (the explanation of a deadlock, and the input of LocalDeadlock).
type WaitReporter[S any] interface {
	WaitFor(s S) WaitGraph
}

// LocalDeadlocker is an optional Model extension that lets the explorer report a local
// deadlock in the state where it forms, long before every message is stuck:
// LocalDeadlock returns the largest set of undelivered messages of s none of which can
// ever move again (WaitGraph.LocalDeadlock), ascending, or nil. enabled are the actions
// of s's transitions (as Successors returns them; the explorer has them at hand), so
// that a model can answer nil at once when every undelivered message has one.
//
// The contract: a pure function of the state; non-empty in every non-Terminal state
// without successors (a global deadlock); and permanent: from a state where it returns
// S, no transition of a member of S is ever enabled again.
type LocalDeadlocker[S any] interface {
	LocalDeadlock(s S, enabled []Action) []int
}
