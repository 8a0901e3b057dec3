package check

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/props"
)

// ModelCheck says what RunModel checks on a transition system of the user's own.
type ModelCheck[S any] struct {
	// Name names the model in the report (Instance.Algorithm); "model" if empty.
	Name string
	// Deadlock checks that no reachable state that is not Terminal lacks successors.
	Deadlock bool
	// Invariants are checked on every reachable state, in order.
	Invariants []checker.Invariant[S]
}

// RunModel checks a transition system of the user's own (any checker.Model) through the
// entry, with the same options as Run, and returns the same Report: the property is
// "deadlock", "invariants" or "deadlock+invariants", the semantics is Options.Semantics
// (the user says which one the model encodes, e.g. "flit") or "model", and a violation's
// witness is a shortest trace with its initial-state index, its actions and the model's
// labels, which checker.Replay(m, w.Init, actions) re-executes. Options.Symmetry needs a
// model that is a checker.Canonicalizer.
func RunModel[S any](ctx context.Context, m checker.Model[S], c ModelCheck[S], opt Options) (*props.Report, error) {
	if m == nil {
		return nil, badf("no model")
	}
	if ctx == nil {
		ctx = context.Background()
	}
	var prop checker.Property
	switch {
	case c.Deadlock && len(c.Invariants) > 0:
		prop = checker.PropDeadlockInvariants
	case c.Deadlock:
		prop = checker.PropDeadlock
	case len(c.Invariants) > 0:
		prop = checker.PropInvariants
	default:
		return nil, badf("nothing to check: set ModelCheck.Deadlock or give invariants")
	}
	name, sem := c.Name, opt.Semantics
	if name == "" {
		name = "model"
	}
	if sem == "" {
		sem = "model"
	}
	a := Algorithm{Name: name, Properties: []Support{{prop, sem}}}
	r, err := newRequest(a, Instance{Algorithm: name}, prop, opt)
	if err != nil {
		return nil, err
	}
	o := checkerOptions[S](ctx, r)
	o.CheckDeadlock = c.Deadlock
	o.Invariants = c.Invariants
	o.Symmetry = opt.Symmetry
	res, err := checker.Explore[S](m, o)
	if err != nil {
		return nil, badf("%v", err)
	}
	rep := r.report("", nil)
	rep.Schema = props.ReportSchema
	rep.Verdict = res.Verdict
	rep.Stats = props.Stats{States: res.Stats.States, Transitions: res.Stats.Transitions, Depth: res.Stats.Depth,
		Seconds: res.Stats.Duration.Seconds(), StatesPerSec: res.Stats.StatesPerSec}
	switch res.Verdict {
	case checker.Inconclusive:
		rep.Reason = res.Reason
	case checker.Violated:
		v := res.Violation
		rep.Reason = v.Message
		if v.Kind != checker.KindDeadlock && v.Invariant != "" {
			rep.Reason = fmt.Sprintf("invariant %s: %s", v.Invariant, v.Message)
		}
		w := &props.Witness{Kind: props.WitnessTrace, Violation: rep.Reason}
		var labels []string
		if len(v.Trace.Steps) > 0 {
			w.Init = initIndex[S](m, v.Trace.Steps[0].State)
			for _, st := range v.Trace.Steps[1:] {
				w.Steps = append(w.Steps, props.TraceStep{Action: uint64(st.Action), Label: st.Label, Message: -1})
				labels = append(labels, st.Label)
			}
		}
		rep.Witness = w
		rep.Text = traceText(labels)
	}
	return rep, nil
}
