package flit

import (
	"slices"
	"sync"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Reduced is a model with partial-order reduction: in each state it offers only the
// transitions of a stubborn set of messages (Valmari), so that worms that cannot
// interfere are not interleaved in every order. The reduced state graph keeps every
// deadlock state of the full one (no transition enabled, some flit undelivered): a
// stubborn set here satisfies Valmari's D1 (no sequence of transitions of other
// messages can enable, disable or change a transition of the set) and D2 (each enabled
// transition of the set stays enabled whatever the others do), and those two preserve
// every deadlock. Where the reachable graph is acyclic (Acyclic: see Progress)
// a local deadlock is reachable exactly when a global one is (docs/semantics.md), so the
// verdict of `deadlock` is preserved too, though the first local deadlock may be found
// deeper than without reduction. Invariants are checked only on the states the reduced
// search visits, so properties stated as invariants (exactly-once) must run unreduced.
//
// The set is built from one message with an enabled transition, closed under (1) every
// holder of a resource a member waits for or may take (buffer room, a virtual channel
// it is permitted, a delivery or injection channel), since its release would enable a
// member's transition; (2) every other message that may still allocate a virtual
// channel, delivery channel or injection channel a member may allocate now (their
// allocations conflict); and (3) under a pruning policy, every message waiting for a
// resource a member holds (a member's release would disable its prune). Among the
// closures of all seeds the one with the fewest enabled transitions is taken.
// "May still allocate" is over-approximated statically: the channels a message's
// headers can reach from its source under the relation (Reach). On a compacted model
// (Config.Compact) the same rules hold for its steps: a compacted step is a move
// followed by moves of the worm's own flits, which take nothing and only release.
//
// Runners use the reduction for deadlock checks only where the model is Acyclic (every
// message's header graph is: minimal relations, up*/down*, fat-tree NCA, dragonfly with
// classes, Duato's, most routing files), so that the reduced search decides local
// deadlock exactly; on a relation whose headers can come back to a channel class they
// search unreduced.
type Reduced struct {
	*Model
	reachOnce sync.Once
	reach     [][]uint64 // reach[i]: bit set of physical channels message i's headers can take
}

// NewReduced returns m with partial-order reduction.
func NewReduced(m *Model) *Reduced { return &Reduced{Model: m} }

// Successors returns the transitions of the stubborn set of s (all of them when no
// smaller set exists), in Model.Successors order.
func (r *Reduced) Successors(s State, dst []system.Transition[State]) []system.Transition[State] {
	keep := r.keep(&s)
	if keep == nil {
		return r.Model.Successors(s, dst)
	}
	n0 := len(dst)
	dst = r.Model.Successors(s, dst)
	k := n0
	for _, t := range dst[n0:] {
		if keep[r.actionMsg(&s, t.Action)] {
			dst[k] = t
			k++
		}
	}
	return dst[:k]
}

// EncodeSuccessors is Model.EncodeSuccessors restricted to the stubborn set.
func (r *Reduced) EncodeSuccessors(s State, buf []byte, yield func(a system.Action, enc []byte)) []byte {
	keep := r.keep(&s)
	if keep == nil {
		return r.Model.EncodeSuccessors(s, buf, yield)
	}
	return r.Model.EncodeSuccessors(s, buf, func(a system.Action, enc []byte) {
		if keep[r.actionMsg(&s, a)] {
			yield(a, enc)
		}
	})
}

// EncodeSuccessorsProgress is Model.EncodeSuccessorsProgress restricted to the stubborn
// set.
func (r *Reduced) EncodeSuccessorsProgress(s State, buf []byte, rbuf []uint32, yield func(a system.Action, enc []byte, rank []uint32)) ([]byte, []uint32) {
	keep := r.keep(&s)
	if keep == nil {
		return r.Model.EncodeSuccessorsProgress(s, buf, rbuf, yield)
	}
	return r.Model.EncodeSuccessorsProgress(s, buf, rbuf, func(a system.Action, enc []byte, rank []uint32) {
		if keep[r.actionMsg(&s, a)] {
			yield(a, enc, rank)
		}
	})
}

// EncodeSuccessorsBuild is Model.EncodeSuccessorsBuild restricted to the stubborn set.
func (r *Reduced) EncodeSuccessorsBuild(s State, buf []byte, rbuf []uint32, ranks bool, yield func(a system.Action, enc []byte, rank []uint32) bool, keepState func(State)) ([]byte, []uint32) {
	keep := r.keep(&s)
	if keep == nil {
		return r.Model.EncodeSuccessorsBuild(s, buf, rbuf, ranks, yield, keepState)
	}
	return r.Model.EncodeSuccessorsBuild(s, buf, rbuf, ranks, func(a system.Action, enc []byte, rank []uint32) bool {
		return keep[r.actionMsg(&s, a)] && yield(a, enc, rank)
	}, keepState)
}

// LocalDeadlock judges s on all its transitions, not the stubborn set's (the explorer
// hands it the reduced ones): a message outside the set is not stuck for not being in it.
func (r *Reduced) LocalDeadlock(s State, _ []system.Action) []int { return r.Model.Stuck(s) }

// actionMsg returns the message an action of s moves.
func (r *Reduced) actionMsg(s *State, a system.Action) int {
	_, input, _ := SplitAction(a)
	if input < len(s.Msgs) {
		return input
	}
	return int(s.VCs[input-len(s.Msgs)].Owner)
}

// keep returns the messages of the smallest stubborn set of s, or nil when it is every
// message with an enabled transition (no reduction in s).
func (r *Reduced) keep(s *State) []bool {
	sc := scratchPool.Get().(*scratch)
	defer sc.release()
	sc.st = r.steps(s, sc.st[:0], &sc.rb)
	n := len(s.Msgs)
	enabled := make([]int, n) // enabled transitions per message
	movers := 0
	for _, st := range sc.st {
		if enabled[st.c.msg] == 0 {
			movers++
		}
		enabled[st.c.msg]++
	}
	if movers <= 1 {
		return nil
	}
	r.reachOnce.Do(r.computeReach)
	deps := r.dependencies(s)
	var best []bool
	bestCost := len(sc.st)
	in := make([]bool, n)
	var work []int
	for seed := 0; seed < n && bestCost > 1; seed++ {
		if enabled[seed] == 0 || enabled[seed] >= bestCost {
			continue
		}
		clear(in)
		in[seed] = true
		cost := enabled[seed]
		work = append(work[:0], seed)
		for len(work) > 0 && cost < bestCost {
			m := work[len(work)-1]
			work = work[:len(work)-1]
			for _, i := range deps[m] {
				if !in[i] {
					in[i] = true
					cost += enabled[i]
					work = append(work, i)
				}
			}
		}
		if cost < bestCost {
			best, bestCost = slices.Clone(in), cost
		}
	}
	return best
}

// dependencies returns, per message of s, the messages its stubborn set must include
// with it: the interferers of each of its inputs (interferers) and, under a pruning
// policy, every message whose next address flit may take a channel it holds (its
// release there would disable that message's prune). One pass over the inputs.
func (r *Reduced) dependencies(s *State) [][]int {
	n := len(s.Msgs)
	deps := make([][]int, n)
	var rb []routing.Output
	var waiting [][]int // waiting[ch]: messages whose next address flit may take channel ch
	if r.cfg.Prune != PruneNone {
		waiting = make([][]int, len(r.chFrom))
	}
	r.cursors(s, func(c cursor) bool {
		deps[c.msg] = append(deps[c.msg], r.interferers(s, c, &rb)...)
		if waiting == nil {
			return true
		}
		f, aux, ok := r.nextFlit(s, c)
		if !ok || aux {
			return true
		}
		if di, isAddr := r.addrDest(c.msg, f); isAddr && !r.isDest(c.msg, di, c.at) {
			for _, ro := range r.permitted(s, c, di, &rb) {
				waiting[ro.Channel] = append(waiting[ro.Channel], c.msg)
			}
		}
		return true
	})
	if waiting != nil {
		for o := range s.VCs {
			if w := s.VCs[o].Owner; w >= 0 {
				deps[w] = append(deps[w], waiting[r.Channel(Out(o))]...)
			}
		}
	}
	return deps
}

// interferers returns the messages whose transitions can enable, disable or change a
// transition of input c (of message c.msg) in s: the holders of every resource its next
// flit waits for or may take, and every other message that may still allocate one of
// the free channels it may allocate. Repeats are harmless.
func (r *Reduced) interferers(s *State, c cursor, rb *[]routing.Output) []int {
	f, aux, ok := r.nextFlit(s, c)
	if !ok {
		return nil
	}
	var out []int
	if c.vc < 0 && s.Msgs[c.msg].Sent == 0 && !aux && r.cfg.Ports == OnePort {
		// The injection channel: whoever injects at this source, or may start to.
		for i := range s.Msgs {
			if i != c.msg && r.cfg.Messages[i].Source == c.at && !s.Msgs[i].Done {
				out = append(out, i)
			}
		}
	}
	in := &c.in
	di, isAddr := r.addrDest(c.msg, f)
	if aux || !isAddr {
		return out // room in its own channel: only its own flits move it
	}
	if r.isDest(c.msg, di, c.at) {
		for _, o := range in.Outs.Slice(r.tab) {
			if o == Eject {
				return out // a reserved delivery channel: its own
			}
		}
		// The delivery channels of this router: their holders, and every message that
		// may still deliver here.
		for _, o := range r.into[c.at] {
			if w := s.VCs[o].Owner; w >= 0 {
				out = append(out, int(w))
			}
		}
		for i := range s.Msgs {
			if i != c.msg && r.mayDeliver(s, i, c.at) {
				out = append(out, i)
			}
		}
		return out
	}
	outs := r.permitted(s, c, di, rb)
	if j, _ := r.reserved(in, outs); j >= 0 {
		return out // following its own reserved output
	}
	for _, ro := range outs {
		base := int(ro.Channel)*r.cfg.VCs + ro.VC*r.per
		for o := base; o < base+r.per; o++ {
			if w := s.VCs[o].Owner; w >= 0 {
				out = append(out, int(w))
				continue
			}
			for i := range s.Msgs {
				if i != c.msg && r.mayAllocate(s, i, ro.Channel) {
					out = append(out, i)
				}
			}
		}
	}
	return out
}

// mayAllocate reports whether message i may still take a virtual channel of physical
// channel ch: one of its address flits is undelivered and its headers can reach ch.
func (r *Reduced) mayAllocate(s *State, i int, ch topology.ChannelID) bool {
	return r.reach[i][int(ch)/64]&(1<<(int(ch)%64)) != 0 && r.routing(s, i)
}

// mayDeliver reports whether message i may still take a delivery channel at node v:
// v is one of its destinations whose address flit is undelivered.
func (r *Reduced) mayDeliver(s *State, i int, v topology.NodeID) bool {
	got := s.Msgs[i].Got.Slice(r.tab)
	for di, d := range r.cfg.Messages[i].Dests {
		if d == v && (di >= len(got) || got[di] == 0) {
			return true
		}
	}
	return false
}

// routing reports whether some address flit of message i is undelivered.
func (r *Reduced) routing(s *State, i int) bool {
	got := s.Msgs[i].Got.Slice(r.tab)
	for di := range r.cfg.Messages[i].Dests {
		if di >= len(got) || got[di] == 0 {
			return true
		}
	}
	return false
}

// computeReach fills reach: for each message, every physical channel a header of it can
// take from its source to any of its destinations under the relation (headerWalk).
func (r *Reduced) computeReach() {
	words := (len(r.chFrom) + 63) / 64
	r.reach = make([][]uint64, len(r.cfg.Messages))
	for i := range r.cfg.Messages {
		set := make([]uint64, words)
		r.headerWalk(i, func(_ routing.Header, _ int, outs []routing.Output) {
			for _, o := range outs {
				set[o.Channel/64] |= 1 << (o.Channel % 64)
			}
		})
		r.reach[i] = set
	}
}

var (
	_ system.SuccessorEncoder[State] = (*Reduced)(nil)
	_ system.LocalDeadlocker[State]  = (*Reduced)(nil)
	_ system.FrontierDecoder[State]  = (*Reduced)(nil)
)
