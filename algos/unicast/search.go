package unicast

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
)

// Result is the outcome of searching one flit model: the verdict, the figures, and for a
// violation the shortest trace (actions from the initial state, with labels) and what
// its last state shows.
type Result struct {
	// Property is the property checked: "deadlock" (local deadlocks, the default of
	// the command line) or "global-deadlock" (states where nothing can move).
	Property    checker.Property
	Verdict     checker.Verdict
	States      int64
	Transitions int64
	Depth       int
	Violation   string
	// Kind is the kind of the violation (a global or local deadlock, an invariant, a
	// livelock or starvation lasso); 0 unless Verdict is Violated.
	Kind checker.ViolationKind
	// Stuck is, for a deadlock, the messages that can never move again.
	Stuck []int
	// Model is the model searched, and Trace, for a violation, the shortest trace with
	// its states, the one shape a result keeps its witness in (Actions, Labels and
	// Final read it): a report draws and captures it as it is, without rebuilding the
	// model or replaying the actions.
	Model         *flit.Model
	Trace         checker.Trace[flit.State]
	Seconds       float64
	BytesPerState float64
	// CycleStart is, for a livelock or starvation lasso, the index into Actions() where
	// the repeated cycle begins (the state after Actions[:CycleStart] is the one the
	// cycle returns to); 0 otherwise.
	CycleStart int
	// Certificate says how the verdict knows every message is delivered (the model's
	// progress measure, or the liveness check when the measure breaks).
	Certificate *checker.Certificate
	// Store is the visited store used; CollisionBound its fingerprint collision bound
	// (0 in exact mode).
	Store          checker.StoreMode
	CollisionBound float64
	// Reduction names the partial-order reduction the search used ("stubborn": the
	// stubborn sets of flit.Reduced), "" for none; ReductionNote says why none was used
	// where one was asked for.
	Reduction     string
	ReductionNote string
	// Lean says the search ran on the lean model (flit.Model.Lean: every step a worm's
	// move and the moves of its own flits it enables, and a header's lowest free virtual
	// channel of a class), so States and Depth count its states and steps; the trace is
	// unfolded into Model's own steps.
	Lean bool
}

// Actions are the witness trace's actions, in order (none without a violation).
func (r *Result) Actions() []checker.Action {
	if len(r.Trace.Steps) == 0 {
		return nil
	}
	return r.Trace.Actions()
}

// Labels are the witness trace's actions for people, in order.
func (r *Result) Labels() []string {
	var out []string
	for i := 1; i < len(r.Trace.Steps); i++ {
		out = append(out, r.Trace.Steps[i].Label)
	}
	return out
}

// Final is the witness trace's last state (the zero state without a trace).
func (r *Result) Final() flit.State {
	if len(r.Trace.Steps) == 0 {
		return flit.State{}
	}
	return r.Trace.Steps[len(r.Trace.Steps)-1].State
}

// Search explores every reachable state of m breadth-first with checker.Explore, up to
// maxStates distinct states (0 = no bound), checking for deadlocks (a non-terminal state
// with no enabled transition) and, with invariants, the model's invariants. A violation
// comes with a shortest trace; reaching the bound gives Inconclusive, never Holds, and so
// does a model whose Err is set after the search (a relation that broke its contract, a
// full interning table), with the error as its text.
func Search(ctx context.Context, m *flit.Model, maxStates int64, invariants bool) Result {
	opt := checker.Options[flit.State]{MaxStates: maxStates, CheckDeadlock: true, Context: ctx}
	if invariants {
		opt.Invariants = m.Invariants()
	}
	return SearchWith(m, opt)
}

// SearchWith is Search with the explorer's options given in full (workers, store,
// bounds, progress); deadlock checking is always on, and so is the liveness decision
// (checker.Options.CheckLiveness): a Holds comes with a certificate that every message
// is delivered, and a livelock or starvation is a violation with a lasso.
//
// The search runs on m's lean model (flit.Model.Lean: compacted worms, the lowest free
// virtual channel of a class) with no invariants or m's own (Model.Invariants; the lean
// model checks its own), since a caller's invariant may read the states it skips. It
// keeps every global and local deadlock and every fair lasso of m, and its state count
// does not grow with packet length and buffer depth (docs/semantics.md "Compacted
// worms"); its witness is unfolded and replayed on m, so Result.Model is m and the
// trace is m's.
func SearchWith(m *flit.Model, opt checker.Options[flit.State]) Result {
	cm, opt := lean(m, opt)
	return search(cm, cm, opt)
}

// SearchFull is SearchWith on m itself, not its lean model: every flit move its own
// step and every free virtual channel a header's choice. It is the reference the lean
// search is tested against, and what a caller that needs the states the lean model
// skips asks for (a shortest trace counted in flit moves).
func SearchFull(m *flit.Model, opt checker.Options[flit.State]) Result {
	return search(m, m, opt)
}

// SearchReduced is SearchWith with partial-order reduction (flit.Reduced) where it is
// sound for the deadlock property: when every message's header graph is acyclic
// (flit.Model.Acyclic: minimal relations, up*/down*, fat-tree NCA, dragonfly with
// classes, Duato's, most routing files), so the reachable graph is acyclic and the
// reduced graph's deadlocks decide local deadlocks too. Otherwise (a relation whose
// headers can come back to a channel class) it searches without it and says why in
// ReductionNote.
//
// A stubborn set runs the worms that interfere with nothing first, so a local deadlock
// among the others shows deeper in the reduced graph than where it forms. So the
// unreduced search goes first, bounded by FirstPass states: it finds shallow local
// deadlocks at their true depth (with a shortest trace) and decides small instances
// outright; only when it reaches its bound does the reduced search decide. Both passes
// are deterministic, so verdicts, counts and traces are reproducible.
func SearchReduced(m *flit.Model, opt checker.Options[flit.State]) Result {
	return SearchReducedFirstPass(m, opt, FirstPass)
}

// SearchReducedFirstPass is SearchReduced with the unreduced first pass bounded by
// firstPass states instead of FirstPass; 0 skips it, so that the reduced search decides
// every instance (soundness tests of the reduction run it so on small instances, which
// the first pass would otherwise decide alone).
func SearchReducedFirstPass(m *flit.Model, opt checker.Options[flit.State], firstPass int64) Result {
	cm, opt := lean(m, opt)
	r := flit.NewReduced(cm)
	if !cm.Acyclic() {
		res := search(cm, cm, opt)
		res.ReductionNote = "no partial-order reduction: a header can come back to a channel class it left (the relation misroutes), so the state graph may have cycles, where partial-order reduction would not preserve local deadlocks"
		return res
	}
	if firstPass <= 0 {
		res := search(cm, r, opt)
		res.Reduction = "stubborn"
		res.ReductionNote = "the reduced search decided (no unreduced first pass)"
		if res.Verdict == checker.Inconclusive {
			res.ReductionNote = "the reduced search ran alone (no unreduced first pass) and stopped undecided"
		}
		return res
	}
	first := opt
	if first.MaxStates == 0 || first.MaxStates > firstPass {
		first.MaxStates = firstPass
	}
	res := search(cm, cm, first)
	if res.Verdict != checker.Inconclusive || opt.MaxStates > 0 && opt.MaxStates <= firstPass || opt.Context != nil && opt.Context.Err() != nil {
		return res
	}
	done := res.States
	res = search(cm, r, opt)
	res.Reduction = "stubborn"
	res.ReductionNote = fmt.Sprintf("the unreduced search stopped at %d states without a violation; the reduced search decided", done)
	if res.Verdict == checker.Inconclusive {
		res.ReductionNote = fmt.Sprintf("the unreduced search stopped at %d states without a violation; the reduced search took over and stopped undecided too", done)
	}
	return res
}

// FirstPass bounds the unreduced search SearchReduced runs before the reduced one.
const FirstPass = 1_000_000

// lean returns the model a search of m runs on and its options: m's lean model
// with its own invariants when opt has none or m's own, else m and opt.
func lean(m *flit.Model, opt checker.Options[flit.State]) (*flit.Model, checker.Options[flit.State]) {
	cm := m.Lean()
	if cm == m {
		return m, opt
	}
	if len(opt.Invariants) > 0 {
		own := m.Invariants()
		if len(own) != len(opt.Invariants) {
			return m, opt
		}
		for i := range own {
			if own[i].Name != opt.Invariants[i].Name {
				return m, opt
			}
		}
		opt.Invariants = cm.Invariants()
	}
	return cm, opt
}

// search explores sys (cm itself, or cm reduced) with the deadlock and liveness checks
// and reports on cm's full model (cm itself when it is not lean): a witness is unfolded
// (flit.Model.Unfold) and replayed there.
func search(cm *flit.Model, sys checker.Model[flit.State], opt checker.Options[flit.State]) Result {
	opt.CheckDeadlock = true
	opt.CheckLiveness = true
	r, err := checker.Explore[flit.State](sys, opt)
	if err != nil {
		return Result{Verdict: checker.Inconclusive, Violation: err.Error()}
	}
	m := cm.Full()
	res := Result{Property: PropertyOf(opt), Model: m, States: r.Stats.States, Transitions: r.Stats.Transitions, Depth: r.Stats.Depth, Seconds: r.Stats.Duration.Seconds(), BytesPerState: r.Stats.BytesPerState,
		Certificate: r.Certificate(), Store: opt.Store, CollisionBound: r.Stats.FingerprintCollisionBound, Lean: cm != m}
	switch r.Verdict {
	case checker.Holds:
		res.Verdict = checker.Holds
	case checker.Violated:
		res.Verdict = checker.Violated
		v := r.Violation
		tr, cycle, err := unfold(cm, v)
		if err != nil {
			return Result{Verdict: checker.Inconclusive, Violation: "internal: " + err.Error(), Model: m}
		}
		res.Trace = tr
		res.Kind, res.Stuck = v.Kind, v.Stuck
		switch v.Kind {
		case checker.KindDeadlock:
			res.Violation = "deadlock: " + Blocked(m, res.Final())
		case checker.KindLocalDeadlock:
			res.Violation = m.DeadlockText(res.Final(), true)
		case checker.KindLivelock, checker.KindStarvation:
			res.Violation, res.CycleStart = v.Message, cycle
		default:
			res.Violation = fmt.Sprintf("invariant %s: %s", v.Invariant, v.Message)
		}
	default:
		res.Verdict = checker.Inconclusive
		res.Violation = r.Reason
	}
	err = cm.Err()
	if err == nil {
		err = m.Err()
	}
	if err != nil {
		// The search explored states the model could not build faithfully (a relation
		// that broke its contract, or a full interning table): no verdict.
		res.Verdict, res.Violation, res.Trace = checker.Inconclusive, err.Error(), checker.Trace[flit.State]{}
	}
	return res
}

// unfold returns violation v of cm's search as a trace of cm's full model, and the
// index there where a lasso's cycle starts: v's trace itself when cm is not lean, else
// its unfolding (flit.Model.Unfold) replayed.
func unfold(cm *flit.Model, v *checker.Violation[flit.State]) (checker.Trace[flit.State], int, error) {
	if cm.Full() == cm {
		return v.Trace, v.CycleStart, nil
	}
	full, at, err := cm.Unfold(v.Trace.Actions())
	if err != nil {
		return checker.Trace[flit.State]{}, 0, err
	}
	tr, err := checker.Replay[flit.State](cm.Full(), 0, full)
	if err != nil {
		return checker.Trace[flit.State]{}, 0, fmt.Errorf("the unfolded witness does not replay: %w", err)
	}
	return tr, at[v.CycleStart], nil
}

// PropertyOf names the deadlock property a search with opt checks: "deadlock" with
// local-deadlock detection, "global-deadlock" without.
func PropertyOf(opt checker.Options[flit.State]) checker.Property {
	if opt.CheckLocalDeadlock {
		return checker.PropDeadlock
	}
	return checker.PropGlobalDeadlock
}

// Labels renders the actions of a trace from m's initial state. An action that is not
// enabled where it stands (a trace file edited by hand) is labelled as such, and so is
// every action after it: only an enabled action is described (Describe of an arbitrary
// action number may index past the network).
func Labels(m *flit.Model, acts []checker.Action) []string {
	labels := make([]string, 0, len(acts))
	s := m.Init()[0]
	var succ []checker.Transition[flit.State]
	for i, a := range acts {
		succ = m.Successors(s, succ[:0])
		found := false
		for _, t := range succ {
			if t.Action == a {
				labels = append(labels, m.Describe(s, a))
				s, found = t.Next, true
				break
			}
		}
		if !found {
			labels = append(labels, "not possible here: "+NotEnabled(m, s, a, succ))
			for range acts[i+1:] {
				labels = append(labels, "not replayed")
			}
			break
		}
	}
	return labels
}

// Replay re-executes actions from m's initial state; it fails if an action is not
// enabled. It returns the final state.
func Replay(m *flit.Model, acts []checker.Action) (flit.State, error) {
	s := m.Init()[0]
	var succ []checker.Transition[flit.State]
	for i, a := range acts {
		succ = m.Successors(s, succ[:0])
		found := false
		for _, t := range succ {
			if t.Action == a {
				s, found = t.Next, true
				break
			}
		}
		if !found {
			return s, fmt.Errorf("trace step %d is not possible in the model: %s", i+1, NotEnabled(m, s, a, succ))
		}
	}
	return s, nil
}

// Blocked summarises a deadlocked state: which message waits at which router.
func Blocked(m *flit.Model, s flit.State) string {
	return m.Waits(s)
}
