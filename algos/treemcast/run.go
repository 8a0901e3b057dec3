package treemcast

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
)

// The properties an instance is checked for.
const (
	PropDeadlock       = "deadlock"        // no reachable local deadlock (000 Lemma 1)
	PropGlobalDeadlock = "global-deadlock" // no reachable state where nothing can move
	PropExactlyOnce    = "exactly-once"    // TM3: exactly-once delivery along the XY paths
)

// LocalDeadlocks reports whether property prop is checked with local-deadlock detection
// (every property but PropGlobalDeadlock: a deadlocked state never delivers).
func LocalDeadlocks(prop string) bool { return prop != PropGlobalDeadlock }

// CheckOptions configure checking one instance.
type CheckOptions struct {
	Prop      string // PropDeadlock or PropExactlyOnce
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
		Workers:            opt.Workers,
		MaxStates:          opt.MaxStates,
		MaxMemoryBytes:     opt.MaxMemoryBytes,
		Store:              opt.Store,
		CheckDeadlock:      true,
		CheckLocalDeadlock: LocalDeadlocks(opt.Prop),
		CheckLiveness:      true,
		Context:            opt.Context,
	}
	switch opt.Prop {
	case PropDeadlock, PropGlobalDeadlock, "":
	case PropExactlyOnce:
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
func TraceFile(in Instance, m *flit.Model, prop string, v *checker.Violation[flit.State]) *tracefile.File {
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

// FamilyOptions configure RunFamily.
type FamilyOptions struct {
	Params  Params
	Prop    string
	Shard   Shard
	Workers int // explorer workers of each member's search
	// Pool is the size of the member pool (checker.Sweep): that many members are
	// checked at once; 0 means 1. Counts, verdict and witness do not depend on it.
	Pool      int
	MaxStates int64 // per instance; 0 = unbounded
	// MaxMemoryBytes bounds each member's search, and the enumeration of the members
	// (about MemberBytes each) must fit in it; 0 = unbounded.
	MaxMemoryBytes int64
	// Reduction checks each member with partial-order reduction where sound
	// (CheckOptions.Reduction); state counts are then the reduced graphs'.
	Reduction   bool
	Store       checker.StoreMode
	StopAtFirst bool // stop the shard at its first violation
	Limit       int  // check at most this many members of the shard (0 = all); the result is then partial
	Context     context.Context
	// Resume continues a result an earlier run of the same family, parameters and shard
	// wrote: the members it lists as checked are not checked again and its figures are
	// carried over, so that the finished result equals that of an uninterrupted run.
	Resume *FamilyResult
	// Checkpoint, if set, receives the result so far (Partial) after a member when
	// CheckpointEvery (or twenty times the last call's duration, if longer) has passed
	// since the last call, and the final result at the end;
	// an error from it ends the run with that error. A caller that writes each to disk
	// atomically leaves a resumable file whenever the process is killed.
	Checkpoint      func(*FamilyResult) error
	CheckpointEvery time.Duration // 0 = every second
	// Progress, if set, receives the progress line (package progress): members done of
	// the shard, states, rate, elapsed, ETA, memory.
	Progress io.Writer
	// Count, when not nil, is told the shard's member count first (total, 0, 0),
	// then each finished member (0, 1, states), from RunFamily's goroutine.
	Count func(total, done, states int64)
	// Member, when not nil, checks one member instead of Check (Prop, Workers,
	// MaxStates, MaxMemoryBytes, Store): the claims catalogue passes the one entry
	// (props/check.Run) here, which algos may not import. It is called from the pool's
	// workers.
	Member func(ctx context.Context, in Instance, prop string) (MemberResult, error)
}

// MemberResult is what checking one member of a family gives: its verdict and counts,
// its delivery certificate and, for a violation, the shortest trace.
type MemberResult struct {
	Verdict        checker.Verdict
	States         int64
	Transitions    int64
	CollisionBound float64              // the fingerprint store's collision bound (0 exact)
	Certificate    *checker.Certificate // nil for a violation
	Trace          *tracefile.File      // nil unless Verdict is Violated
}

// MemberBytes is about what one enumerated member costs in memory (two multicasts with
// their destination slices, the member record and the symmetry map's share), used to
// refuse families whose enumeration would not fit in the memory budget.
const MemberBytes = 256

// RunFamily checks the members of f in shard opt.Shard, in member order, on opt.Pool
// workers of the member pool (family.Keep over checker.Sweep), and returns the shard's
// result; sums, witness and checkpoints are made in member order, so they do not depend
// on Pool. A cancelled Context ends the run after the members being checked, whose
// interrupted searches are discarded (they are not members that reached a bound): the
// result is Partial and Resume continues it. When the Context ends while the members are
// being enumerated, before any is checked, RunFamily returns an *EnumerationStopped.
func RunFamily(f Family, opt FamilyOptions) (*FamilyResult, error) {
	ctx := opt.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if need := f.Pairs() * MemberBytes; opt.MaxMemoryBytes > 0 && need > float64(opt.MaxMemoryBytes) {
		return nil, fmt.Errorf("family %s on %v: enumerating its %.3g pairs takes about %.0f MiB, more than the memory budget of %d MiB (--max-memory)",
			f.Spec(), f.Grid, f.Pairs(), need/(1<<20), opt.MaxMemoryBytes>>20)
	}
	members, looked := f.members(func() bool { return ctx.Err() != nil })
	if looked >= 0 {
		return nil, &EnumerationStopped{Looked: looked, Pairs: f.Pairs(), Cause: context.Cause(ctx)}
	}
	params := FamilyParams{
		Pruning: opt.Params.Prune.String(), Length: opt.Params.Length, Buffers: opt.Params.Buffer,
		Ports: opt.Params.Ports.String(), Prop: propName(opt.Prop), Symmetry: f.Symmetry,
	}
	if opt.Store == checker.Fingerprint {
		params.Store = opt.Store.String()
	}
	if f.Relation != nil {
		var ok bool
		if params.Routing, params.RoutingFile, ok = routing.Encode(f.Relation); !ok {
			params.Routing = f.Relation.Name() // a user's Go relation: named, not saved
		}
	}
	r := family.NewResult(Algorithm, f.Spec(), f.Grid.Spec(), params, len(members), opt.Shard)
	ko := family.KeepOptions[FamilyParams]{
		Options: family.Options{Pool: opt.Pool, Limit: opt.Limit, StopAtFirst: opt.StopAtFirst, Progress: opt.Progress,
			Label: fmt.Sprintf("%s on %s, shard %s", f.Spec(), f.Grid.Spec(), r.Shard), Count: opt.Count, CheckpointEvery: opt.CheckpointEvery},
		Resume: opt.Resume, Checkpoint: opt.Checkpoint,
	}
	_, err := family.Keep(ctx, r, ko, func(ctx context.Context, _, k int) (struct{}, family.Member, error) {
		mb := members[k]
		in := Instance{Grid: f.Grid, Msgs: mb.Pair[:], Params: opt.Params, Routing: f.Relation}
		var res MemberResult
		if opt.Member != nil {
			var err error
			if res, err = opt.Member(ctx, in, propName(opt.Prop)); err != nil {
				return struct{}{}, family.Member{Msgs: in.String()}, err
			}
		} else {
			cr, m, err := Check(in, CheckOptions{Prop: opt.Prop, Workers: opt.Workers, MaxStates: opt.MaxStates, MaxMemoryBytes: opt.MaxMemoryBytes, Store: opt.Store, Context: ctx, Reduction: opt.Reduction})
			if err != nil {
				return struct{}{}, family.Member{Msgs: in.String()}, err
			}
			res = MemberResult{Verdict: cr.Verdict, States: cr.Stats.States, Transitions: cr.Stats.Transitions,
				CollisionBound: cr.Stats.FingerprintCollisionBound, Certificate: cr.Certificate()}
			if cr.Verdict == checker.Violated {
				res.Trace = TraceFile(in, m, propName(opt.Prop), cr.Violation)
			}
		}
		return struct{}{}, family.Member{Outcome: family.Outcome{Verdict: res.Verdict, States: res.States, Transitions: res.Transitions},
			Covered: int64(mb.Orbit), CollisionBound: res.CollisionBound, Certificate: res.Certificate, Msgs: in.String(), Trace: res.Trace}, nil
	}, nil)
	if err != nil {
		return nil, err
	}
	return r, nil
}

func propName(p string) string {
	if p == "" {
		return PropDeadlock
	}
	return p
}
