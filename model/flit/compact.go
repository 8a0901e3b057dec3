package flit

import (
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/system"
)

// Compacted worms (Config.Compact).
//
// A local move is a KindMove or a KindFollow: a flit of a worm moves from one of its
// inputs into an output that input has reserved, a channel the worm holds or its
// ejection channel. Under PruneNone a local move t of worm w has three properties:
//
//  1. Whether t is enabled and what it does depend on w's local state alone: the room
//     in a buffer of w's own channel (an ejection channel always has room).
//  2. t takes nothing. It may release a channel (the tail left it), the source's
//     injection channel (the last flit left the source) or an ejection channel (the
//     last flit was delivered); releasing only enables other moves. A prune, which
//     a release could disable, does not exist under PruneNone.
//  3. So t and any other transition u enabled with it commute: each stays enabled after
//     the other, and both orders reach the same state. (u of another worm writes
//     nothing of w's; u of w is at another input, which writes other buffers than t
//     reads or writes, or is a header move, which only makes room.)
//
// Local moves terminate (each advances a flit along its worm's own channels) and commute
// with each other, so every maximal sequence of them from a state s ends in the same
// state, compact(s) (Newman's lemma). A compacted model has, from a compact state s, one
// transition per other (visible) transition u of s, to compact(u(s)); only u's worm can
// have local moves in u(s), so compactWorm compacts that worm alone. Then:
//
//   - every state of the compacted model is reachable in the uncompacted one;
//   - for every reachable state s of the uncompacted model, compact(s) is reachable in
//     the compacted one (induction on a path to s: a local step keeps compact(s); a
//     visible step u from s is enabled in compact(s) by 3, and compact(u(s)) =
//     compact(u(compact(s))));
//   - a state with no enabled transition is compact, so both models have the same
//     global deadlocks; a local deadlock S of s (docs/semantics.md) is one of compact(s),
//     since its members have no local move and the local moves of others touch nothing
//     S holds; so both models have a local deadlock, on any state graph, cyclic or not;
//   - a fair lasso (a weakly fair cycle with a message pending) of either model gives one
//     of the other: docs/semantics.md "Compacted worms" has the argument;
//   - delivery counts only grow and terminal states are compact, so exactly-once is
//     violated in one model if and only if in the other.
//
// A trace of the compacted model is a trace of the uncompacted one once every step is
// followed by the local moves it implies: Unfold returns those actions, which replay on
// Full's model (and on any model of the same configuration without Compact).

// compactWorm applies worm w's local moves to s, whose messages and channels the caller
// owns, until none is enabled, logging the channels written in log (nil: none) and
// handing each move's action to rec (nil: none), in the order applied: the first
// enabled local move among w's inputs in Successors order, again and again. cands are
// the channels w may hold besides those log names (its channels before the step that
// led to s); nil, or a full log, scans every channel. Local moves take no channel, so
// w's channels are among those.
func (m *Model) compactWorm(s *State, w int, cands []int32, log *touched, rec func(system.Action), rb *[]routing.Output) {
	var candA [48]int32
	chans := candA[:0]
	if cands == nil || log == nil || log.full {
		for o := range s.VCs {
			if int(s.VCs[o].Owner) == w {
				chans = append(chans, int32(o))
			}
		}
	} else {
		chans = append(chans, cands...)
		chans = append(chans, log.idx[:log.n]...)
		slices.Sort(chans)
		chans = slices.Compact(chans)
	}
	var stA [2]succStep
	for {
		st, ok := m.firstLocal(s, w, chans, stA[:0], rb)
		if !ok {
			return
		}
		if rec != nil {
			rec(st.a)
		}
		m.applyInto(s, st, s, log)
	}
}

// firstLocal returns the first enabled local move of worm w in s among its source and
// the channels chans it holds, in Successors order.
func (m *Model) firstLocal(s *State, w int, chans []int32, buf []succStep, rb *[]routing.Output) (succStep, bool) {
	if !s.Msgs[w].Done {
		c := cursor{input: w, msg: w, vc: -1, at: m.cfg.Messages[w].Source, in: s.Msgs[w].In}
		if st, ok := m.localStep(s, c, buf, rb); ok {
			return st, true
		}
	}
	for _, o := range chans {
		v := &s.VCs[o]
		if int(v.Owner) != w {
			continue
		}
		c := cursor{input: len(s.Msgs) + int(o), msg: w, vc: int(o), at: m.vcTo[o], in: v.In}
		if st, ok := m.localStep(s, c, buf, rb); ok {
			return st, true
		}
	}
	return succStep{}, false
}

// localStep returns input c's enabled transition if it is a local move (the only
// transition its input then has).
func (m *Model) localStep(s *State, c cursor, buf []succStep, rb *[]routing.Output) (succStep, bool) {
	sts := m.inputSteps(s, c, buf[:0], rb)
	if len(sts) == 1 && (sts[0].k == KindMove || sts[0].k == KindFollow) {
		return sts[0], true
	}
	return succStep{}, false
}

// Compacts reports whether m's transitions are compacted (Config.Compact without a
// pruning policy).
func (m *Model) Compacts() bool { return m.compact }

// Full returns the model of m's configuration without Compact and LowestVC (m itself
// when it has neither), built once: the model a lean model's trace replays on after
// Unfold. For a model Lean returned, it is the model Lean was called on.
func (m *Model) Full() *Model {
	if !m.compact && !m.lowest {
		return m
	}
	m.fullOnce.Do(func() {
		cfg := m.cfg
		cfg.Compact, cfg.LowestVC = false, false
		m.full, _ = New(cfg) // m's configuration is valid
	})
	return m.full
}

// Lean returns the model a search of m runs on, built once: m's configuration with
// Compact (unless a pruning policy rules it out) and, where m is Acyclic and some
// virtual channels of a channel are interchangeable (vcgroups.go), LowestVC; m itself
// when neither applies or m has them already. Its Full is m. It keeps every global and local deadlock of m (up to a
// permutation of interchangeable virtual channels) and, being compacted only where the
// graph may have cycles, every fair lasso; a witness found on it is Unfold-ed and
// replayed on m.
func (m *Model) Lean() *Model {
	if m.compact || m.lowest {
		return m
	}
	compact := m.cfg.Prune == PruneNone
	lowest := m.Acyclic() && m.interchangeable()
	if !compact && !lowest {
		return m
	}
	m.leanOnce.Do(func() {
		cfg := m.cfg
		cfg.Compact, cfg.LowestVC = compact, lowest
		l, _ := build(cfg, m.groups) // m's configuration is valid
		l.fullOnce.Do(func() { l.full = m })
		m.lean = l
	})
	return m.lean
}

// Unfold returns the actions of the full model (Full) that run the actions acts of m
// from the initial state: each action followed by the local moves m's compaction
// applies after it, in that order (a lowest-VC choice is one of the full model's). at[i] is the index in full of
// acts[i], and at[len(acts)] is len(full), so a lasso's cycle start maps through at. It
// fails, naming the step, if an action is not enabled. Cost: one expansion of the
// uncompacted model per action, and a scan of the channels per action.
func (m *Model) Unfold(acts []system.Action) (full []system.Action, at []int, err error) {
	u := m.Full()
	s := u.Init()[0]
	var rb []routing.Output
	var sts []succStep
	for i, a := range acts {
		at = append(at, len(full))
		sts = u.steps(&s, sts[:0], &rb)
		k := slices.IndexFunc(sts, func(st succStep) bool { return st.a == a })
		if k < 0 {
			return nil, nil, fmt.Errorf("unfold: step %d: action %#x is not enabled", i+1, uint64(a))
		}
		t := u.applyTo(&s, sts[k])
		full = append(full, a)
		if m.compact {
			t.Msgs = slices.Clone(t.Msgs) // applyTo may share them with s
			u.compactWorm(&t, sts[k].c.msg, nil, nil, func(b system.Action) { full = append(full, b) }, &rb)
			t.sums = sums{} // the step's sums do not count the local moves
		}
		s = t
	}
	return full, append(at, len(full)), nil
}
