package flit

import (
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/system"
)

// WaitFor returns the wait-for relation of s as data (system.WaitGraph): which messages
// are undelivered, which of those have no enabled transition, and for each input of a
// blocked message with a flit to send, what that flit waits for and who holds it. The
// classification follows inputSteps case by case, so a wait exists exactly where
// inputSteps offers nothing:
//   - WaitRoom: a data or re-injected flit, or an address flit that follows an output its
//     message reserved, needs room in that virtual channel (held by the VC's owner, whose
//     head flit must move on first);
//   - WaitOutput: an address flit needs a free virtual channel among every (channel, VC)
//     its relation permits; each model VC of each is a need, held by its owner;
//   - WaitEject: an address flit at its destination needs a free delivery channel, held
//     by the worms that have reserved one at that router;
//   - WaitInject: a message not yet injected needs its source's injection channel (one
//     port), held by the message injecting there;
//   - WaitNoRoute: the relation permits no output (never opens).
//
// Cost: one pass over the inputs and, for blocked messages, the relation's outputs.
func (m *Model) WaitFor(s State) system.WaitGraph {
	moving := m.moving(&s)
	return m.waitGraph(&s, moving)
}

// Stuck returns the largest set of messages of s none of which can ever move again,
// ascending, or nil: LocalDeadlock with s's enabled transitions computed here.
func (m *Model) Stuck(s State) []int {
	sc := scratchPool.Get().(*scratch)
	defer sc.release()
	sc.st = m.steps(&s, sc.st[:0], &sc.rb)
	acts := make([]system.Action, len(sc.st))
	for k, st := range sc.st {
		acts[k] = st.a
	}
	return m.LocalDeadlock(s, acts)
}

// LocalDeadlock returns the largest set of messages of s none of which can ever move
// again (system.LocalDeadlocker), ascending, or nil; enabled are the actions of s's
// transitions. It builds no wait-for graph when every undelivered message has an
// enabled transition, the common case, at a cost of one pass over the messages and
// virtual channels and no allocation.
func (m *Model) LocalDeadlock(s State, enabled []system.Action) []int {
	n := len(s.Msgs)
	var small [2]uint64
	moving := small[:]
	if n > 128 {
		moving = make([]uint64, (n+63)/64)
	}
	for _, a := range enabled {
		_, input, _ := SplitAction(a)
		i := input
		if input >= n {
			i = int(s.VCs[input-n].Owner)
		}
		moving[i/64] |= 1 << (i % 64)
	}
	blocked := false
	for i := range s.Msgs {
		if !s.Msgs[i].Done && moving[i/64]&(1<<(i%64)) == 0 {
			blocked = true
			break
		}
	}
	if !blocked {
		for o := range s.VCs {
			if i := int(s.VCs[o].Owner); i >= 0 && moving[i/64]&(1<<(i%64)) == 0 {
				blocked = true
				break
			}
		}
	}
	if !blocked {
		return nil
	}
	mv := make([]bool, n)
	for i := range mv {
		mv[i] = moving[i/64]&(1<<(i%64)) != 0
	}
	g := m.waitGraph(&s, mv)
	return g.LocalDeadlock()
}

// DeadlockText says what state s shows, as the explorer reports it: "deadlock: ..."
// (Waits) when nothing can move and some message is undelivered; with local, "local
// deadlock of m0, m1 (2 of 5 messages): ..." when some messages can never move again
// (Stuck); "" otherwise. Replays of saved traces judge their last state with it.
func (m *Model) DeadlockText(s State, local bool) string {
	if len(m.Successors(s, nil)) == 0 && !m.Terminal(s) {
		return "deadlock: " + m.Waits(s)
	}
	if !local {
		return ""
	}
	stuck := m.Stuck(s)
	if len(stuck) == 0 {
		return ""
	}
	names := make([]string, len(stuck))
	for k, i := range stuck {
		names[k] = fmt.Sprintf("m%d", i)
	}
	return fmt.Sprintf("local deadlock of %s (%d of %d messages): %s", strings.Join(names, ", "), len(stuck), len(s.Msgs), m.Waits(s))
}

// moving reports, per message, whether some input of it has an enabled transition.
func (m *Model) moving(s *State) []bool {
	sc := scratchPool.Get().(*scratch)
	defer sc.release()
	out := make([]bool, len(s.Msgs))
	sc.st = m.steps(s, sc.st[:0], &sc.rb)
	for _, st := range sc.st {
		out[st.c.msg] = true
	}
	return out
}

// undelivered reports, per message, whether its source has flits left or it holds a
// virtual channel.
func (m *Model) undelivered(s *State) []bool {
	out := make([]bool, len(s.Msgs))
	for i := range s.Msgs {
		out[i] = !s.Msgs[i].Done
	}
	for o := range s.VCs {
		if w := s.VCs[o].Owner; w >= 0 {
			out[w] = true
		}
	}
	return out
}

// waitGraph builds the wait-for graph of s for the given movers (see WaitFor).
func (m *Model) waitGraph(s *State, moving []bool) system.WaitGraph {
	g := system.WaitGraph{Undelivered: m.undelivered(s), Blocked: make([]bool, len(s.Msgs))}
	for i, u := range g.Undelivered {
		g.Blocked[i] = u && !moving[i]
	}
	var rb []routing.Output
	m.cursors(s, func(c cursor) bool {
		if g.Blocked[c.msg] {
			if w, ok := m.inputWait(s, c, &rb); ok {
				g.Waits = append(g.Waits, w)
			}
		}
		return true
	})
	return g
}

// inputWait is the wait of input c of a blocked message (one with no enabled
// transition); ok is false when the input has nothing to send.
func (m *Model) inputWait(s *State, c cursor, rb *[]routing.Output) (system.Wait, bool) {
	f, aux, ok := m.nextFlit(s, c)
	if !ok {
		return system.Wait{}, false
	}
	w := system.Wait{Waiter: c.msg, Input: c.input, At: int(c.at), Flit: int(f)}
	owner := func(o Out) system.Resource { return system.Resource{ID: int(o), Holder: int(s.VCs[o].Owner)} }
	if c.vc < 0 && s.Msgs[c.msg].Sent == 0 && !aux && m.injectBusy(s, c.at) {
		w.Kind = WaitInject
		for i := range s.Msgs {
			if g := &s.Msgs[i]; m.cfg.Messages[i].Source == c.at && g.Sent > 0 && !g.Done {
				w.Needs = append(w.Needs, system.Resource{ID: -1, Holder: i})
			}
		}
		return w, true
	}
	in := &c.in
	di, isAddr := m.addrDest(c.msg, f)
	if aux || !isAddr {
		w.Kind = WaitRoom
		if o := in.Outs.At(m.tab, int(in.Cur)); o >= 0 {
			w.Needs = []system.Resource{owner(o)}
		}
		return w, true
	}
	if m.isDest(c.msg, di, c.at) {
		w.Kind = WaitEject
		for _, o := range m.into[c.at] {
			if v := &s.VCs[o]; v.Owner >= 0 && v.In.Outs != 0 && v.In.Outs.At(m.tab, 0) == Eject {
				w.Needs = append(w.Needs, owner(Out(o)))
			}
		}
		return w, true
	}
	outs := m.permitted(s, c, di, rb)
	if j, _ := m.reserved(in, outs); j >= 0 {
		w.Kind = WaitRoom
		if o := in.Outs.At(m.tab, j); o >= 0 {
			w.Needs = []system.Resource{owner(o)}
		}
		return w, true
	}
	if len(outs) == 0 {
		w.Kind = WaitNoRoute
		return w, true
	}
	w.Kind = WaitOutput
	for _, r := range outs {
		base := int(r.Channel)*m.cfg.VCs + r.VC*m.per
		for o := base; o < base+m.per; o++ {
			w.Needs = append(w.Needs, owner(Out(o)))
		}
	}
	return w, true
}

// The wait kinds, as model/system names them.
const (
	WaitRoom    = system.WaitRoom
	WaitOutput  = system.WaitOutput
	WaitEject   = system.WaitEject
	WaitInject  = system.WaitInject
	WaitNoRoute = system.WaitNoRoute
)

var (
	_ system.WaitReporter[State]    = (*Model)(nil)
	_ system.LocalDeadlocker[State] = (*Model)(nil)
)
