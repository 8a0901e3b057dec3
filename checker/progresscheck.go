package checker

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/system"
)

// ProgressResult is what the explorer found about a Progressive model's rank: how many
// transitions it checked and the first one (least BFS key) that did not increase it.
//
// When Broken is nil and the search was exhaustive (Verdict Holds), every reachable
// transition increases the rank, so the reachable graph is acyclic and every maximal
// run is finite; with CheckDeadlock that means every run ends in a Terminal state, i.e.
// every message is delivered. Under Options.Symmetry the rank is checked on the edges
// between representatives, which is sound: a cycle of the model maps to a closed walk of
// representatives, which a strictly increasing rank forbids.
type ProgressResult[S any] struct {
	// Checked is the number of transitions whose rank was compared with their source's.
	Checked int64
	// Broken is the first transition that did not increase the rank, or nil.
	Broken *ProgressBreak[S]
}

// ProgressBreak is a transition whose target's rank is not greater than its source's:
// Trace leads to the source and ends with the offending transition.
type ProgressBreak[S any] struct {
	Trace   Trace[S]
	Message string
}

// Certified reports whether r certifies delivery for a search with verdict v: the search
// was exhaustive, found nothing, and every transition increased the rank.
func (r *ProgressResult[S]) Certified(v Verdict) bool {
	return r != nil && r.Broken == nil && v == Holds
}

// progressCheck is the explorer's side of the progress certificate.
type progressCheck[S any] struct {
	on      bool
	m       system.Progressive[S]
	enc     system.ProgressEncoder[S] // set when the SuccessorEncoder path yields ranks
	checked int64
	first   rankBreak // least break of the earliest level with one
	level   int       // the level of first
}

// initProgress turns the check on for a Progressive model. A SuccessorEncoder that does
// not also yield ranks is explored through Successors, so that every transition's target
// is at hand.
func (e *explorer[S]) initProgress() {
	p, ok := e.m.(system.Progressive[S])
	if !ok {
		return
	}
	e.prog = progressCheck[S]{on: true, m: p}
	if e.lazy != nil {
		if pe, ok := e.m.(system.ProgressEncoder[S]); ok {
			e.prog.enc = pe
		} else {
			e.lazy = nil
		}
	}
}

// rankBreak is a transition that does not increase the rank, keyed like a candidate.
type rankBreak struct {
	ok     bool
	idx    uint64 // frontier index of the source
	j      int    // index of the transition among the source's successors
	id     uint64 // store id of the source
	action Action
	cmp    int // CompareProgress(child, parent)
}

func (b rankBreak) less(c rankBreak) bool {
	if !c.ok {
		return b.ok
	}
	return b.ok && (b.idx < c.idx || (b.idx == c.idx && b.j < c.j))
}

// rankScratch is a worker's rank buffers, its count of checked transitions and its
// least break in the current level.
type rankScratch struct {
	parent, child []uint32
	checked       int64
	brk           rankBreak
}

// check compares child with parent for transition j of frontier state idx. Cost:
// O(length of the rank vector).
func (r *rankScratch) check(idx uint64, j int, id uint64, a Action) {
	r.checkChild(r.child, idx, j, id, a)
}

// checkChild is check of the rank child (which it does not retain): the encoded
// successor paths hand the model's rank over without storing it in the scratch (a
// pointer write per transition, with a write barrier while the collector runs).
func (r *rankScratch) checkChild(child []uint32, idx uint64, j int, id uint64, a Action) {
	r.checked++
	if c := system.CompareProgress(child, r.parent); c <= 0 {
		b := rankBreak{ok: true, idx: idx, j: j, id: id, action: a, cmp: c}
		if b.less(r.brk) {
			r.brk = b
		}
	}
}

// collect adds a worker's figures after level depth and resets them; the least break of
// the earliest level with one is kept, so it does not depend on the worker count.
func (p *progressCheck[S]) collect(r *rankScratch, depth int) {
	p.checked += r.checked
	if r.brk.ok && (!p.first.ok || (p.level == depth && r.brk.less(p.first))) {
		p.first, p.level = r.brk, depth
	}
	r.checked = 0
	r.brk = rankBreak{}
}

// fillProgress sets res.Progress for a Progressive model, rebuilding the break's trace.
func (e *explorer[S]) fillProgress(res *Result[S]) error {
	if !e.prog.on {
		return nil
	}
	pr := &ProgressResult[S]{Checked: e.prog.checked}
	if b := e.prog.first; b.ok {
		tr, err := e.rebuildTrace(b.id)
		if err != nil {
			return fmt.Errorf("checker: rebuilding the trace of a progress break: %w", err)
		}
		last := tr.Steps[len(tr.Steps)-1].State
		a, next, found := e.concreteStep(last, b.action)
		if !found {
			return fmt.Errorf("checker: the progress break's action %d is not enabled at the end of its replayed trace (%s)", b.action, e.suspect())
		}
		tr.Steps = append(tr.Steps, Step[S]{Action: a, Label: e.m.Describe(last, a), State: next})
		how := "keeps"
		if b.cmp < 0 {
			how = "decreases"
		}
		pr.Broken = &ProgressBreak[S]{Trace: tr, Message: fmt.Sprintf("progress: transition %d (%s) after %d steps %s the rank",
			a, tr.Steps[len(tr.Steps)-1].Label, tr.Len()-1, how)}
	}
	res.Progress = pr
	return nil
}

// concreteStep returns the transition of the concrete state last that matches action a
// of its stored representative: the same action without symmetry, otherwise the first
// successor of last whose representative is the representative's a-successor.
func (e *explorer[S]) concreteStep(last S, a Action) (Action, S, bool) {
	var zero S
	if e.canon == nil {
		for _, t := range e.m.Successors(last, nil) {
			if t.Action == a {
				return a, t.Next, true
			}
		}
		return 0, zero, false
	}
	var want []byte
	for _, t := range e.m.Successors(e.canon.Canonical(last), nil) {
		if t.Action == a {
			want = e.m.Encode(e.canon.Canonical(t.Next), nil)
			break
		}
	}
	if want == nil {
		return 0, zero, false
	}
	for _, t := range e.m.Successors(last, nil) {
		if string(e.m.Encode(e.canon.Canonical(t.Next), nil)) == string(want) {
			return t.Action, t.Next, true
		}
	}
	return 0, zero, false
}
