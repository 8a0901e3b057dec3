package treemcast

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props"
)

// The properties an instance is checked for.
const (
	PropDeadlock    = "deadlock"     // no reachable deadlock (000 Lemma 1)
	PropExactlyOnce = "exactly-once" // TM3: exactly-once delivery along the XY paths
)

// CheckOptions configure checking one instance.
type CheckOptions struct {
	Prop      string // PropDeadlock or PropExactlyOnce
	Workers   int
	MaxStates int64 // 0 = unbounded
	Symmetry  bool  // state-level symmetry reduction (flit.Symmetric)
	Store     checker.StoreMode
	Context   context.Context
}

// Check explores one instance. For PropDeadlock it looks for a reachable deadlock; for
// PropExactlyOnce it checks, in every reachable state, the model's invariants (buffers,
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
		Workers:       opt.Workers,
		MaxStates:     opt.MaxStates,
		Store:         opt.Store,
		CheckDeadlock: true,
		CheckLiveness: true,
		Context:       opt.Context,
	}
	switch opt.Prop {
	case PropDeadlock, "":
	case PropExactlyOnce:
		o.Invariants = append(m.Invariants(), Invariants(in, m)...)
	default:
		return nil, nil, fmt.Errorf("property %q is not supported by tree-mcast; use deadlock or exactly-once", opt.Prop)
	}
	var res *checker.Result[flit.State]
	if opt.Symmetry {
		sm := flit.NewSymmetric(m, flit.GridSymmetries(in.Grid, in.Config().Routing))
		o.Symmetry = true
		res, err = checker.Explore[flit.State](sm, o)
	} else {
		res, err = checker.Explore[flit.State](m, o)
	}
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
func TraceFile(in Instance, m *flit.Model, prop string, v *checker.Violation[flit.State]) *props.TraceFile {
	p, _ := json.Marshal(in.TraceParams())
	tf := &props.TraceFile{
		Format:    props.TraceFormat,
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
	case checker.KindDeadlock:
		return "deadlock: " + m.Waits(v.Trace.Steps[len(v.Trace.Steps)-1].State)
	case checker.KindLivelock, checker.KindStarvation:
		return v.Message
	}
	return "invariant " + v.Invariant + ": " + v.Message
}

// FamilyOptions configure RunFamily.
type FamilyOptions struct {
	Params      Params
	Prop        string
	Shard       Shard
	Workers     int
	MaxStates   int64 // per instance; 0 = unbounded
	Store       checker.StoreMode
	StopAtFirst bool // stop the shard at its first violation
	Limit       int  // check at most this many members of the shard (0 = all); the result is then partial
	Context     context.Context
}

// RunFamily checks the members of f in shard opt.Shard and returns the shard's result.
func RunFamily(f Family, opt FamilyOptions) (*FamilyResult, error) {
	start := time.Now()
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	members := f.Members()
	shard := opt.Shard
	if shard.Count == 0 {
		shard = Shard{0, 1}
	}
	r := &FamilyResult{
		Format:   FamilyFormat,
		Family:   f.Spec(),
		Topology: f.Grid.Spec(),
		Params: FamilyParams{
			Pruning: opt.Params.Prune.String(), Length: opt.Params.Length, Buffers: opt.Params.Buffer,
			Ports: opt.Params.Ports.String(), Prop: propName(opt.Prop), Symmetry: f.Symmetry,
		},
		Members: len(members),
		Shard:   shard,
		Verdict: props.Holds,
	}
	if opt.Store == checker.Fingerprint {
		r.Params.Store = opt.Store.String()
	}
	for _, mb := range members {
		if !shard.Has(mb.Index) {
			continue
		}
		if opt.Limit > 0 && r.Instances >= opt.Limit {
			r.Partial = true
			break
		}
		if err := ctx.Err(); err != nil {
			r.Partial = true
			break
		}
		in := Instance{Grid: f.Grid, Msgs: mb.Pair[:], Params: opt.Params, Routing: f.Relation}
		res, m, err := Check(in, CheckOptions{Prop: opt.Prop, Workers: opt.Workers, MaxStates: opt.MaxStates, Store: opt.Store, Context: ctx})
		if err != nil {
			return nil, fmt.Errorf("member %d (%s): %w", mb.Index, in, err)
		}
		r.Instances++
		r.Covered += int64(mb.Orbit)
		r.States += res.Stats.States
		r.Transitions += res.Stats.Transitions
		r.CollisionBound += res.Stats.FingerprintCollisionBound
		r.Certificates.Add(res.Certificate())
		switch res.Verdict {
		case checker.Violated:
			r.Violated++
			w := &FamilyWitness{Index: mb.Index, Msgs: in.String(), Length: res.Violation.Trace.Len(), Trace: TraceFile(in, m, propName(opt.Prop), res.Violation)}
			if r.Witness == nil || w.less(r.Witness) {
				r.Witness = w
			}
		case checker.Inconclusive:
			r.Inconclusive = append(r.Inconclusive, mb.Index)
		}
		if r.Violated > 0 && opt.StopAtFirst {
			r.Partial = true
			break
		}
	}
	r.Seconds = time.Since(start).Seconds()
	r.Verdict = r.verdict()
	return r, nil
}

func propName(p string) string {
	if p == "" {
		return PropDeadlock
	}
	return p
}
