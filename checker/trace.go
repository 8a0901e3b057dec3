package checker

import (
	"bytes"
	"fmt"
	"strings"
)

// Trace is a path through a model: Steps[0] is an initial state (Label "init", Action
// unused) and each later step is the Action taken from the previous step's State, its
// Label (Model.Describe) and the State it leads to. len(Steps)-1 is the trace length.
type Trace[S any] struct {
	Steps []Step[S]
}

// Step is one state of a Trace and the action that led to it.
type Step[S any] struct {
	Action Action
	Label  string
	State  S
}

// Len returns the number of transitions in t (len(t.Steps)-1, or 0 for an empty trace).
func (t Trace[S]) Len() int {
	if len(t.Steps) == 0 {
		return 0
	}
	return len(t.Steps) - 1
}

// Actions returns the actions of t after the initial state; with the initial state's
// index it is everything Replay needs.
func (t Trace[S]) Actions() []Action {
	var as []Action
	for _, st := range t.Steps[min(1, len(t.Steps)):] {
		as = append(as, st.Action)
	}
	return as
}

// String renders t one step per line: "0 init", then "k label".
func (t Trace[S]) String() string {
	var b strings.Builder
	for i, st := range t.Steps {
		fmt.Fprintf(&b, "%d %s\n", i, st.Label)
	}
	return b.String()
}

// Replay re-executes actions from the initial state m.Init()[init] and returns the
// trace. At each step it takes the first successor with the given action; it fails,
// naming the step and the enabled actions, if an action is not enabled. Cost: one
// Successors call per action plus one Describe per step.
func Replay[S any](m Model[S], init int, actions []Action) (Trace[S], error) {
	inits := m.Init()
	if init < 0 || init >= len(inits) {
		return Trace[S]{}, fmt.Errorf("replay: initial state %d does not exist; the model has %d initial states", init, len(inits))
	}
	s := inits[init]
	steps := make([]Step[S], 0, len(actions)+1)
	steps = append(steps, Step[S]{Label: "init", State: s})
	var dst []Transition[S]
	for k, a := range actions {
		dst = m.Successors(s, dst[:0])
		found := -1
		for i, t := range dst {
			if t.Action == a {
				found = i
				break
			}
		}
		if found < 0 {
			return Trace[S]{Steps: steps}, fmt.Errorf("replay: step %d: action %d is not enabled after step %d; enabled: %s",
				k+1, a, k, describeEnabled(m, s, dst))
		}
		steps = append(steps, Step[S]{Action: a, Label: m.Describe(s, a), State: dst[found].Next})
		s = dst[found].Next
	}
	return Trace[S]{Steps: steps}, nil
}

// describeEnabled lists up to 8 enabled actions as `17 "label"`, or "none (no enabled
// transition)".
func describeEnabled[S any](m Model[S], s S, ts []Transition[S]) string {
	if len(ts) == 0 {
		return "none (no enabled transition)"
	}
	parts := make([]string, 0, 9)
	for i, t := range ts {
		if i == 8 {
			parts = append(parts, fmt.Sprintf("and %d more", len(ts)-8))
			break
		}
		parts = append(parts, fmt.Sprintf("%d %q", t.Action, m.Describe(s, t.Action)))
	}
	return strings.Join(parts, ", ")
}

// rebuildTrace returns the trace to stored state id: it follows parent records back to
// an initial state, re-derives the action of each recorded transition index from the
// stored (under symmetry, canonical) states, and replays the actions. Under symmetry the
// actions apply to canonical representatives, so it first maps them to a concrete path
// (concretize); the returned trace is always one Replay accepts on the unreduced model.
func (e *explorer[S]) rebuildTrace(id uint64) (Trace[S], error) {
	var rev []uint32
	init := -1
	for steps := 0; ; steps++ {
		if steps > e.depth+1 {
			return Trace[S]{}, fmt.Errorf("checker: internal: parent chain of state %d is longer than the search depth %d", id, e.depth)
		}
		rec, err := e.record(id)
		if err != nil {
			return Trace[S]{}, err
		}
		if rec.parent == noParent {
			init = int(rec.trans)
			break
		}
		rev = append(rev, rec.trans)
		id = rec.parent
	}
	inits := e.m.Init()
	if init >= len(inits) {
		return Trace[S]{}, fmt.Errorf("checker: the stored trace starts at initial state %d of %d (%s)", init, len(inits), e.suspect())
	}
	s := e.stored(inits[init])
	actions := make([]Action, len(rev))
	var dst []Transition[S]
	for i := range rev {
		j := rev[len(rev)-1-i]
		dst = e.m.Successors(s, dst[:0])
		if int(j) >= len(dst) {
			return Trace[S]{}, fmt.Errorf("checker: step %d of the stored trace takes transition %d of a state with %d (%s)", i+1, j, len(dst), e.suspect())
		}
		actions[i] = dst[j].Action
		s = e.stored(dst[j].Next)
	}
	if e.canon != nil {
		var err error
		if actions, err = e.concretize(init, actions); err != nil {
			return Trace[S]{}, err
		}
	}
	return Replay(e.m, init, actions)
}

// stored returns s as the store keeps it: its canonical representative under symmetry.
func (e *explorer[S]) stored(s S) S {
	if e.canon != nil {
		return e.canon.Canonical(s)
	}
	return s
}

// concretize turns a path of actions between canonical representatives into a path of
// the unreduced model from Init()[init]: at each step it takes the first concrete
// successor whose representative is the next representative of the path. A sound
// Canonicalizer guarantees one exists.
func (e *explorer[S]) concretize(init int, actions []Action) ([]Action, error) {
	c := e.m.Init()[init]
	s := e.canon.Canonical(c)
	out := make([]Action, 0, len(actions))
	var dst []Transition[S]
	var want, got []byte
	for k, a := range actions {
		dst = e.m.Successors(s, dst[:0])
		found := false
		for _, t := range dst {
			if t.Action == a {
				s = e.canon.Canonical(t.Next)
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("checker: internal: stored action %d at step %d is not enabled in the representative (nondeterministic Successors or Canonical?)", a, k+1)
		}
		want = e.m.Encode(s, want[:0])
		dst = e.m.Successors(c, dst[:0])
		found = false
		for _, t := range dst {
			got = e.m.Encode(e.canon.Canonical(t.Next), got[:0])
			if bytes.Equal(got, want) {
				out = append(out, t.Action)
				c = t.Next
				found = true
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("checker: symmetry is unsound at step %d: no successor of the concrete state is symmetric to the representative reached by action %d (check the model's Canonical)", k+1, a)
		}
	}
	return out, nil
}
