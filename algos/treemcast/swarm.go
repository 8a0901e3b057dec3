package treemcast

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
)

// SwarmResult is a swarm hunt on one tree-multicast instance: the walks' figures and,
// when they found something, the witness on the full instance.
type SwarmResult struct {
	Swarm *checker.SwarmResult[flit.State]
	// Violation is the witness: for a deadlock the minimised trace lifted to the full
	// instance (or the swarm's own when minimisation did not apply), for a livelock
	// lasso the walk's; nil when the swarm found nothing.
	Violation *checker.Violation[flit.State]
	// Involved is how many multicasts the deadlock involves (its local deadlock's set),
	// Of how many the instance has; WalkSteps is the length of the trace the swarm found,
	// before minimisation; Minimised says whether the smaller instance's exhaustive
	// search gave the witness, SubStates how many states that search explored.
	Involved, Of, WalkSteps int
	Minimised               bool
	SubStates               int64
}

// Swarm hunts for a deadlock, or a livelock lasso, of instance in (model m) with
// randomised walks (checker.Swarm), and minimises a deadlock it finds: the multicasts
// outside the local deadlock's set are dropped, the smaller instance is searched
// exhaustively for its shortest deadlock (with the time ctx has left), and that trace is
// lifted back to the full instance, where the dropped multicasts never leave their
// sources, and replayed there; if it does not replay as a deadlock the swarm's own trace
// is kept. A swarm that finds nothing leaves Violation nil: inconclusive, never holds.
func Swarm(ctx context.Context, in Instance, m *flit.Model, opt checker.SwarmOptions[flit.State]) (*SwarmResult, error) {
	opt.Context = ctx
	opt.CheckDeadlock = true
	opt.CheckLivelock = true
	sw, err := checker.Swarm[flit.State](m, opt)
	if err != nil {
		return nil, err
	}
	out := &SwarmResult{Swarm: sw, Of: len(in.Msgs)}
	if sw.Verdict != checker.Violated {
		return out, nil
	}
	v := sw.Violation
	out.Violation, out.WalkSteps, out.Involved = v, v.Trace.Len(), len(v.Stuck)
	if !v.Kind.IsDeadlock() || len(v.Stuck) == 0 || len(v.Stuck) >= len(in.Msgs) {
		return out, nil
	}
	acts, n, ok := minimise(ctx, in, v.Stuck, opt.CheckLocalDeadlock)
	out.SubStates = n
	if !ok {
		return out, nil
	}
	tr, err := checker.Replay[flit.State](m, 0, acts)
	if err != nil {
		return out, nil
	}
	last := tr.Steps[len(tr.Steps)-1].State
	lv := &checker.Violation[flit.State]{Kind: checker.KindLocalDeadlock, Trace: tr, Stuck: m.Stuck(last)}
	if len(m.Successors(last, nil)) == 0 && !m.Terminal(last) {
		lv.Kind = checker.KindDeadlock
	} else if !opt.CheckLocalDeadlock || len(lv.Stuck) == 0 {
		return out, nil
	}
	lv.Message = m.DeadlockText(last, opt.CheckLocalDeadlock)
	out.Violation, out.Minimised, out.Involved = lv, true, len(lv.Stuck)
	return out, nil
}

// MinimiseStates bounds the exhaustive search of a swarm deadlock's own multicasts:
// past it the walk's trace (loops cut) is the witness, since the verdict is known
// already and a shortest trace is not worth the check's whole time.
const MinimiseStates = 1 << 18

// minimise searches instance in reduced to the multicasts of stuck exhaustively
// (within MinimiseStates) for its shortest deadlock and returns that trace's actions lifted to the full instance
// (multicast k of the smaller instance is multicast stuck[k]; virtual channel inputs
// keep their index), with the smaller search's state count; ok is false when the
// smaller instance has no deadlock or its search did not finish.
func minimise(ctx context.Context, in Instance, stuck []int, local bool) ([]checker.Action, int64, bool) {
	sub := in
	sub.Msgs = nil
	for _, i := range stuck {
		sub.Msgs = append(sub.Msgs, in.Msgs[i])
	}
	sm, err := sub.Model()
	if err != nil {
		return nil, 0, false
	}
	r, err := checker.Explore[flit.State](sm, checker.Options[flit.State]{Context: ctx, CheckDeadlock: true, CheckLocalDeadlock: local, MaxStates: MinimiseStates})
	if err != nil || r.Verdict != checker.Violated || !r.Violation.Kind.IsDeadlock() {
		if err != nil || r == nil {
			return nil, 0, false
		}
		return nil, r.Stats.States, false
	}
	acts := r.Violation.Trace.Actions()
	lifted := make([]checker.Action, len(acts))
	nSub, nFull := len(sub.Msgs), len(in.Msgs)
	for k, a := range acts {
		kind, input, arg := flit.SplitAction(a)
		if input < nSub {
			input = stuck[input]
		} else {
			input = input - nSub + nFull
		}
		lifted[k] = flit.MakeAction(kind, input, arg)
	}
	return lifted, r.Stats.States, true
}

// SwarmNote says in one line what a swarm found, for the report: who found it and when,
// and for a minimised deadlock "k of n multicasts are involved".
func (r *SwarmResult) SwarmNote() string {
	sw := r.Swarm
	note := fmt.Sprintf("swarm: %d walkers, %d walks, %d transitions", sw.Walkers, sw.Walks, sw.Steps)
	if r.Violation == nil {
		return note + "; nothing found (a swarm samples the state graph: this is not a proof)"
	}
	note += fmt.Sprintf("; walker %d found it in its walk %d after %.2fs", sw.Walker, sw.Walk, sw.FoundAfterSec)
	switch {
	case r.Violation.Kind.IsLasso():
		return note + fmt.Sprintf(": the walk came back to a state it had visited, and the cycle is a weakly fair lasso of %d steps to it and %d round it.", r.Violation.CycleStart, r.WalkSteps-r.Violation.CycleStart)
	case r.Minimised:
		return note + fmt.Sprintf(" (a trace of %d steps, loops cut). %d of %d multicasts are involved; their instance alone, searched exhaustively (%d states), gives the shortest trace below, replayed on the full instance.", r.WalkSteps, r.Involved, r.Of, r.SubStates)
	case r.SubStates >= MinimiseStates:
		return note + fmt.Sprintf(" (a trace of %d steps, loops cut). %d of %d multicasts are involved; their instance alone did not give its shortest trace within %d states, so the trace below is the swarm's own.", r.WalkSteps, r.Involved, r.Of, r.SubStates)
	}
	return note + fmt.Sprintf(" (a trace of %d steps, loops cut). %d of %d multicasts are involved; the trace below is the swarm's own.", r.WalkSteps, r.Involved, r.Of)
}
