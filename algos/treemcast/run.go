package treemcast

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
)

// CheckOptions configure checking one instance.
type CheckOptions struct {
	Prop      checker.Property // checker.PropDeadlock or checker.PropExactlyOnce
	Workers   int
	MaxStates int64 // 0 = unbounded
	// MaxMemoryBytes bounds the search's memory (checker.Options.MaxMemoryBytes); 0 =
	// unbounded.
	MaxMemoryBytes int64
	Symmetry       bool // state-level symmetry reduction (flit.Symmetric)
	// Reduction explores a deadlock property with partial-order reduction
	// (flit.Reduced) when the relation is minimal and Symmetry is off; Check's result
	// then counts the reduced graph's states. Invariant properties (exactly-once) are
	// always explored unreduced.
	Reduction bool
	Store     checker.StoreMode
	Context   context.Context
}

// Check explores one instance. For checker.PropDeadlock it looks for a reachable deadlock; for
// checker.PropExactlyOnce it checks, in every reachable state, the model's invariants (buffers,
// ownership, flit order, routes, exactly-once) and this package's independent twin of
// the TM3 ones (Invariants). A deadlock is reported under both properties (a deadlocked
// state never delivers). A relation that breaks its contract is an error; a model whose
// interning table filled (flit.ErrTableFull) gives Inconclusive.
func Check(in Instance, opt CheckOptions) (*checker.Result[flit.State], *flit.Model, error) {
	m, err := in.Model()
	if err != nil {
		return nil, nil, err
	}
	o := checker.Options[flit.State]{
		Workers:            opt.Workers,
		MaxStates:          opt.MaxStates,
		MaxMemoryBytes:     opt.MaxMemoryBytes,
		Store:              opt.Store,
		CheckDeadlock:      true,
		CheckLocalDeadlock: opt.Prop.LocalDeadlocks(),
		CheckLiveness:      true,
		Context:            opt.Context,
	}
	switch opt.Prop {
	case checker.PropDeadlock, checker.PropGlobalDeadlock, "":
	case checker.PropExactlyOnce:
		o.Invariants = append(m.Invariants(), Invariants(in, m)...)
	default:
		return nil, nil, fmt.Errorf("property %q is not supported by tree-mcast; use deadlock, global-deadlock or exactly-once", opt.Prop)
	}
	var sm *flit.Symmetric
	if opt.Symmetry {
		sm = Symmetric(in, m)
	}
	res, _, err := Explore(in, m, o, sm, opt.Reduction)
	if err != nil {
		return res, m, err
	}
	if merr := m.Err(); errors.Is(merr, flit.ErrTableFull) {
		// States built after the table filled are not faithful: no verdict.
		res = &checker.Result[flit.State]{Verdict: checker.Inconclusive, Reason: merr.Error(), Stats: res.Stats}
	} else if merr != nil {
		return nil, m, merr
	}
	return res, m, nil
}

// FirstPass bounds the unreduced search Explore runs before a reduced one.
const FirstPass = 1_000_000

// Symmetric is model m of instance in reduced by the symmetries of its grid that preserve
// its routing (flit.NewSymmetric, GridSymmetries).
func Symmetric(in Instance, m *flit.Model) *flit.Symmetric {
	return flit.NewSymmetric(m, flit.GridSymmetries(in.Grid, in.Config().Routing))
}

// Explore searches instance in (model m) with options o: under its symmetry group when
// sm (Symmetric's, built once by the caller, who may also describe it) is not nil, or
// with partial-order reduction where it is sound (reduction asked, no invariant
// property, an acyclic model: flit.Model.Acyclic, flit.Reduced), or plainly. With reduction, the unreduced search goes first, bounded by FirstPass
// states: a stubborn set runs the multicasts that interfere with nothing first, so a
// local deadlock among the others forms deeper in the reduced graph; the first pass
// finds shallow ones at their true depth and decides small instances outright, and the
// reduced search decides only when it reaches its bound. reduced names the reduction
// that produced the result ("stubborn"), "" for none.
func Explore(in Instance, m *flit.Model, o checker.Options[flit.State], sm *flit.Symmetric, reduction bool) (res *checker.Result[flit.State], reduced string, err error) {
	return ExploreFirstPass(in, m, o, sm, reduction, FirstPass)
}

// ExploreFirstPass is Explore with the unreduced first pass bounded by firstPass states
// instead of FirstPass; 0 skips it, so that the reduced search decides every instance
// (soundness tests of the reduction run it so on small instances, which the first pass
// would otherwise decide alone).
func ExploreFirstPass(in Instance, m *flit.Model, o checker.Options[flit.State], sm *flit.Symmetric, reduction bool, firstPass int64) (res *checker.Result[flit.State], reduced string, err error) {
	if sm != nil {
		o.Symmetry = true
		res, err = checker.Explore[flit.State](sm, o)
		return res, "", err
	}
	r := flit.NewReduced(m)
	if !reduction || len(o.Invariants) > 0 || !m.Acyclic() {
		res, err = checker.Explore[flit.State](m, o)
		return res, "", err
	}
	if firstPass > 0 {
		first := o
		if first.MaxStates == 0 || first.MaxStates > firstPass {
			first.MaxStates = firstPass
		}
		res, err = checker.Explore[flit.State](m, first)
		if err != nil || res.Verdict != checker.Inconclusive || o.MaxStates > 0 && o.MaxStates <= firstPass || o.Context != nil && o.Context.Err() != nil {
			return res, "", err
		}
	}
	res, err = checker.Explore[flit.State](r, o)
	return res, "stubborn", err
}

// TraceParams are the parameters saved in a tree-mcast trace file.
type TraceParams struct {
	Msgs    string `json:"msgs"`
	Pruning string `json:"pruning"`
	Length  int    `json:"length"`
	Buffers int    `json:"buffers"`
	Ports   string `json:"ports"`
	// Routing names a built-in routing relation, RoutingFile carries a routing file's
	// JSON (model/routing.Encode); both empty: dimension order.
	Routing     string          `json:"routing,omitempty"`
	RoutingFile json.RawMessage `json:"routing_file,omitempty"`
}

// TraceFile turns a violation of instance in (model m) into a saved trace. A deadlock's
// Violation text says what every input waits for (flit.Model.Waits), as Replay does.
func TraceFile(in Instance, m *flit.Model, prop checker.Property, v *checker.Violation[flit.State]) *tracefile.File {
	p, _ := json.Marshal(in.TraceParams())
	tf := &tracefile.File{
		Format:    tracefile.Format,
		Algorithm: "tree-mcast",
		Topology:  in.Grid.Spec(),
		Property:  prop,
		Semantics: "flit",
		Params:    p,
		Violation: violationText(m, v),
	}
	for _, st := range v.Trace.Steps[1:] {
		tf.Actions = append(tf.Actions, uint64(st.Action))
		tf.Labels = append(tf.Labels, st.Label)
	}
	if v.Kind == checker.KindLivelock || v.Kind == checker.KindStarvation {
		cs := v.CycleStart
		tf.CycleStart = &cs
	}
	return tf
}

// TraceParams returns the instance's parameters as a trace file saves them.
func (in Instance) TraceParams() TraceParams {
	p := TraceParams{Msgs: in.String(), Pruning: in.Params.Prune.String(), Length: in.Params.Length, Buffers: in.Params.Buffer, Ports: in.Params.Ports.String()}
	if in.Routing != nil {
		p.Routing, p.RoutingFile, _ = routing.Encode(in.Routing)
	}
	return p
}

func violationText(m *flit.Model, v *checker.Violation[flit.State]) string {
	switch v.Kind {
	case checker.KindDeadlock, checker.KindLocalDeadlock:
		return m.DeadlockText(v.Trace.Steps[len(v.Trace.Steps)-1].State, v.Kind == checker.KindLocalDeadlock)
	case checker.KindLivelock, checker.KindStarvation:
		return v.Message
	}
	return "invariant " + v.Invariant + ": " + v.Message
}

// RecordParams are the parameters a kept result of f records for members with params,
// checked for prop (checker.PropDeadlock when empty) with the visited store.
func (f Family) RecordParams(params Params, prop checker.Property, store checker.StoreMode) FamilyParams {
	p := FamilyParams{
		Pruning: params.Prune.String(), Length: params.Length, Buffers: params.Buffer,
		Ports: params.Ports.String(), Prop: propName(prop), Symmetry: f.Symmetry,
	}
	if store == checker.Fingerprint {
		p.Store = store.String()
	}
	if f.Relation != nil {
		var ok bool
		if p.Routing, p.RoutingFile, ok = routing.Encode(f.Relation); !ok {
			p.Routing = f.Relation.Name() // a user's Go relation: named, not saved
		}
	}
	return p
}

// MemberBytes is about what one enumerated member costs in memory (two multicasts with
// their destination slices, the member record and the symmetry map's share), used to
// refuse families whose enumeration would not fit in the memory budget.
const MemberBytes = 256

func propName(p checker.Property) checker.Property {
	if p == "" {
		return checker.PropDeadlock
	}
	return p
}
