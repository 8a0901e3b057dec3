package check

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// treeMcastAlgorithm is tree-based multicast with pruning (000 §2-§3) on a mesh with XY /
// dimension-order routing, or a torus with DOR and two dateline virtual channels, checked
// in the flit semantics.
func treeMcastAlgorithm() Algorithm {
	return Algorithm{
		Name:    "tree-mcast",
		Summary: "tree-based multicast with pruning (000), flit-level: --msgs or --family pairs:K",
		Doc: `Tree-based multicast with pruning (000 §2-§3): a worm branches at routers and, under a
pruning policy, drops branches that cannot proceed. Multicasts are separated by ';', each
SRC->D1,D2,...; nodes are coordinate tuples; destinations in worm order (d1 first, 000
Fig. 1). With family pairs:K every unordered pair of multicasts with 1..K destinations is
checked (sets in ascending order; ":ordered" for every order); symmetry keeps one pair per
orbit of mesh reflections. Pruning: none | on-no-free (alias total: 000 §4, a header finds
no free output) | on-stop (alias total-stall: 000 §3, whenever a branch stops; the default)
| partial. Property exactly-once (TM3) adds exactly-once delivery and XY branches as
invariants in every reachable state, plus deadlock. With --search swarm (and
--time-limit) randomised walks hunt in one instance for a local deadlock or a livelock
lasso; a deadlock found is minimised to the multicasts involved ("2 of 6 multicasts are
involved"), whose instance is searched exhaustively for the shortest trace; finding
nothing is inconclusive, never holds.`,
		Properties:      []Support{{checker.PropDeadlock, props.SemFlit}, {checker.PropGlobalDeadlock, props.SemFlit}, {checker.PropExactlyOnce, props.SemFlit}},
		DefaultProperty: checker.PropDeadlock,
		Families:        true,
		Params: []Param{
			{"msgs", "", `multicasts "SRC->D1,D2;SRC->D1": e.g. "(0,0)->(2,0),(2,2);(2,2)->(0,2),(0,0)"`},
			{"family", "", `check a family instead of --msgs: "pairs:K" or "pairs:K:ordered"`},
			{"shard", "0/1", `with family: check members i mod n ("i/n", 0 <= i < n)`},
			{"stop", "false", "with family: stop the shard at its first violation (a search for a witness, not a proof; the result is partial)"},
			{"pruning", "on-stop", "pruning policy: none, on-no-free (total), on-stop (total-stall) or partial"},
			{"length", "1", "data flits per message"},
			{"buffers", "2", "flits per virtual-channel buffer"},
			{"ports", "one", "port model: one or all"},
			routingParam,
		},
		merge:   mergeTreeMcast,
		prepare: prepareTreeMcast,
		replay:  replayTreeMcast,
	}
}

// TreeMulticast is the typed request of tree-based multicast with pruning (the
// registry's "tree-mcast", 000 §2-§3) in the flit semantics. Its Check takes the property
// (checker.PropDeadlock, checker.PropGlobalDeadlock or checker.PropExactlyOnce).
type TreeMulticast struct {
	// Instance is one instance: its grid, multicasts, parameters (a zero Length means 1
	// data flit, a zero Buffer 2 flits) and relation.
	Instance treemcast.Instance
	// Family, when not nil, checks its pairs of multicasts instead of Instance.Msgs
	// (Family.Grid and Instance.Grid must agree), the members Shard selects (zero: all),
	// stopping at the first violation with Stop; its mergeable result is Report.Result.
	Family *treemcast.Family
	Shard  treemcast.Shard
	Stop   bool
}

// Check checks t for property under opt, as Run does for the same instance given by
// name; errors wrapping ErrBadInput name the field at fault.
func (t TreeMulticast) Check(ctx context.Context, property checker.Property, opt Options) (*props.Report, error) {
	return Run(ctx, t, property, opt)
}

// jobFor validates t for property under opt and returns the job that checks it
// (Request).
func (t TreeMulticast) jobFor(property checker.Property, opt Options) (job, error) {
	if t.Instance.Grid == nil {
		return nil, badf("TreeMulticast.Instance.Grid is nil; give the topology (topology.Parse)")
	}
	return typedJob(treeMcastAlgorithm(), "TreeMulticast", t.Instance.Grid.Spec(), property, opt, t.prepare)
}

// prepareTreeMcast reads the registry's parameters into a TreeMulticast.
func prepareTreeMcast(r *request) (job, error) {
	if r.topology == "" {
		return nil, badf("--topo is missing; e.g. --topo mesh:3x3")
	}
	g, err := topology.Parse(r.topology)
	r.work.parses++
	if err != nil {
		return nil, badf("--topo: %v", err)
	}
	pr, err := flit.ParsePrune(r.str("pruning"))
	if err != nil {
		return nil, badf("--%v", err)
	}
	ports := r.str("ports")
	pm, err := model.ParsePortModel(ports)
	if err != nil || ports == "" {
		return nil, badf("--ports %q is unknown; use one or all", ports)
	}
	length, err := r.integer("length", 1, 16)
	if err != nil {
		return nil, err
	}
	buffers, err := r.integer("buffers", 1, flit.MaxBuffer)
	if err != nil {
		return nil, err
	}
	t := TreeMulticast{Instance: treemcast.Instance{Grid: g, Params: treemcast.Params{Prune: pr, Length: length, Buffer: buffers, Ports: pm}}}
	if t.Instance.Routing, err = relationOf(r, g); err != nil {
		return nil, err
	}
	msgs, family, shard := r.str("msgs"), r.str("family"), r.str("shard")
	if family != "" {
		if msgs != "" {
			return nil, badf("--family and --msgs exclude each other")
		}
		f, err := treemcast.ParseFamily(g, family)
		if err != nil {
			return nil, badf("--%v", err)
		}
		t.Family = &f
		if t.Shard, err = treemcast.ParseShard(shard); err != nil {
			return nil, badf("--%v", err)
		}
		if t.Stop, err = r.boolean("stop"); err != nil {
			return nil, err
		}
		return t.prepare(r)
	}
	if msgs == "" {
		return nil, badf("--msgs is missing; e.g. --msgs '(0,0)->(2,0),(2,2);(2,2)->(0,2),(0,0)' (or use --family pairs:K)")
	}
	if shard != "0/1" {
		return nil, badf("--shard needs --family")
	}
	if stop, err := r.boolean("stop"); err != nil || stop {
		return nil, badf("--stop needs --family")
	}
	if t.Instance.Msgs, err = treemcast.ParseMsgs(g, msgs); err != nil {
		return nil, badf("--%v", err)
	}
	return t.prepare(r)
}

// prepare validates t and returns the job that checks it.
func (t TreeMulticast) prepare(r *request) (job, error) {
	in := t.Instance
	if in.Params.Length == 0 {
		in.Params.Length = 1
	}
	if in.Params.Buffer == 0 {
		in.Params.Buffer = 2
	}
	switch {
	case in.Params.Length < 1 || in.Params.Length > 16:
		return nil, badf("%s %d is out of range; use 1..16", r.field("length", "Instance.Params.Length"), in.Params.Length)
	case in.Params.Buffer < 1 || in.Params.Buffer > flit.MaxBuffer:
		return nil, badf("%s %d is out of range; use 1..%d", r.field("buffers", "Instance.Params.Buffer"), in.Params.Buffer, flit.MaxBuffer)
	}
	if t.Family != nil {
		if r.opt.Swarm {
			return nil, badf("--search swarm hunts in one instance; give --msgs, not --family")
		}
		if len(in.Msgs) > 0 {
			return nil, badf("--family and --msgs exclude each other")
		}
		f := *t.Family
		if f.Grid == nil {
			f.Grid = in.Grid
		}
		if f.Grid.Spec() != in.Grid.Spec() {
			return nil, badf("%s is on %s but %s is %s", r.field("family", "Family.Grid"), f.Grid.Spec(), r.field("topo", "Instance.Grid"), in.Grid.Spec())
		}
		f.Symmetry = r.opt.Symmetry
		f.Relation = in.Routing
		sh := t.Shard
		if sh.Count == 0 {
			sh = treemcast.Shard{Index: 0, Count: 1}
		}
		return func(ctx context.Context) (*props.Report, error) {
			return treeMcastFamily(ctx, r, f, sh, in.Params, t.Stop)
		}, nil
	}
	if t.Stop || t.Shard.Count > 1 {
		return nil, badf("%s and %s need %s", r.field("shard", "Shard"), r.field("stop", "Stop"), r.field("family", "Family"))
	}
	if len(in.Msgs) == 0 {
		return nil, badf("--msgs is missing; e.g. --msgs '(0,0)->(2,0),(2,2);(2,2)->(0,2),(0,0)' (or use --family pairs:K)")
	}
	m, err := in.Model()
	r.work.builds++
	if err != nil {
		return nil, badf("%v", err)
	}
	if r.opt.Swarm {
		return func(ctx context.Context) (*props.Report, error) { return treeMcastSwarm(ctx, r, in, m) }, nil
	}
	if r.opt.Portfolio {
		return func(ctx context.Context) (*props.Report, error) {
			return portfolio{
				bfs:   func(ctx context.Context, r *request) (*props.Report, error) { return treeMcastOne(ctx, r, in, m) },
				swarm: func(ctx context.Context, r *request) (*props.Report, error) { return treeMcastSwarm(ctx, r, in, m) },
				stopped: func(why string) *props.Report {
					rep := treeMcastReport(in, r.property)
					rep.Verdict, rep.Reason = checker.Inconclusive, why
					return rep
				},
			}.run(ctx, r)
		}, nil
	}
	return func(ctx context.Context) (*props.Report, error) { return treeMcastOne(ctx, r, in, m) }, nil
}

// treeMcastSwarm hunts for a deadlock (or, for exactly-once, a broken invariant) of one
// instance with randomised walks and reports the minimised witness (treemcast.Swarm), or
// what the walks covered: inconclusive, never holds.
func treeMcastSwarm(ctx context.Context, r *request, in treemcast.Instance, m *flit.Model) (*props.Report, error) {
	opt := checker.SwarmOptions[flit.State]{
		Walkers: r.swarmWalkers(), Seed: uint64(r.opt.Seed), MaxDepth: r.opt.MaxDepth, CheckLocalDeadlock: r.property.LocalDeadlocks(),
		Progress: r.opt.Progress, ProgressLabel: "tree multicast on " + in.Grid.Spec(),
	}
	if r.property == checker.PropExactlyOnce {
		opt.Invariants = append(m.Invariants(), treemcast.Invariants(in, m)...)
	}
	res, err := treemcast.Swarm(ctx, in, m, opt)
	if err != nil {
		return nil, internalf("%v", err)
	}
	sw := res.Swarm
	rep := treeMcastReport(in, r.property)
	rep.Stats.States, rep.Stats.Transitions, rep.Stats.Depth = sw.Steps, sw.Steps, sw.Deepest
	rep.Stats.Seconds, rep.Stats.Search = sw.Duration.Seconds(), "swarm"
	if rep.Stats.Seconds > 0 {
		rep.Stats.StatesPerSec = float64(sw.Steps) / rep.Stats.Seconds
	}
	fig := map[string]float64{"walks": float64(sw.Walks), "walkers": float64(sw.Walkers), "walk_transitions": float64(sw.Steps)}
	rep.Figures = fig
	v := res.Violation
	if v == nil {
		rep.Verdict, rep.Reason = checker.Inconclusive, sw.Reason
		return rep, nil
	}
	rep.Verdict = checker.Violated
	fig["found_after_seconds"], fig["walk_steps"] = sw.FoundAfterSec, float64(res.WalkSteps)
	fig["involved"], fig["messages"] = float64(res.Involved), float64(res.Of)
	tf := treemcast.TraceFile(in, m, r.property, v)
	if v.Kind.IsLasso() {
		rep.Reason, rep.Trace, rep.Text = v.Message, tf, lassoText(tf.Labels, v.CycleStart)
		rep.Witness = props.FlitWitness(m, v.Trace, v.Message)
		markLasso(rep.Witness, v.Kind, v.CycleStart)
		rep.Evidence = treeMcastLasso(in, m, v)
	} else {
		rp, err := treemcast.ReplayOn(in, m, tf)
		r.work.replays++
		if err != nil {
			return nil, internalf("the swarm's witness does not replay: %v", err)
		}
		if err := treeMcastFiles(rep, tf, rp); err != nil {
			return nil, err
		}
	}
	rep.Text = res.SwarmNote() + "\n" + rep.Text
	if rep.Witness != nil {
		if rep.Witness.Figures == nil {
			rep.Witness.Figures = map[string]float64{}
		}
		for k, val := range fig {
			rep.Witness.Figures[k] = val
		}
	}
	return rep, nil
}

// treeMcastOne checks one instance.
func treeMcastOne(ctx context.Context, r *request, in treemcast.Instance, m *flit.Model) (*props.Report, error) {
	o := checkerOptions[flit.State](ctx, r)
	o.CheckDeadlock = true
	o.CheckLocalDeadlock = r.property.LocalDeadlocks()
	o.CheckLiveness = true
	if r.property == checker.PropExactlyOnce {
		o.Invariants = append(m.Invariants(), treemcast.Invariants(in, m)...)
	}
	symNote := ""
	var sm *flit.Symmetric
	if r.opt.Symmetry {
		sm = treemcast.Symmetric(in, m)
		symNote = fmt.Sprintf("symmetry: a group of %d automorphisms under which the instance and routing %s are invariant (%s)", sm.Group(), in.Config().Routing.Name(), strings.Join(sm.SymmetryNames(), "; "))
	}
	firstPass := int64(treemcast.FirstPass)
	if r.opt.ReducedOnly {
		firstPass = 0
	}
	res, reduction, err := treemcast.ExploreFirstPass(in, m, o, sm, r.opt.Reduction, firstPass)
	if err != nil {
		return nil, internalf("%v", err)
	}
	rep := treeMcastReport(in, r.property)
	defer func() { rep.Stats.Reduction = reduction }()
	if symNote != "" {
		rep.Notes = append(rep.Notes, symNote)
	}
	rep.Verdict = res.Verdict
	rep.Stats = props.SearchStats(res.Stats, o.Store)
	rep.Certificate = res.Certificate()
	switch res.Verdict {
	case checker.Inconclusive:
		rep.Reason = res.Reason
	case checker.Violated:
		tf := treemcast.TraceFile(in, m, r.property, res.Violation)
		if v := res.Violation; v.Kind == checker.KindLivelock || v.Kind == checker.KindStarvation {
			// A lasso: no last state shows it, so the deadlock replay does not apply.
			rep.Reason, rep.Trace, rep.Text = v.Message, tf, lassoText(tf.Labels, v.CycleStart)
			rep.Witness = props.FlitWitness(m, v.Trace, v.Message)
			markLasso(rep.Witness, v.Kind, v.CycleStart)
			rep.Evidence = treeMcastLasso(in, m, v)
			break
		}
		// Confirmed by one replay on the model the search explored (no second parse or
		// build); the pictures are drawn from that replay.
		rp, err := treemcast.ReplayOn(in, m, tf)
		r.work.replays++
		if err != nil {
			return nil, internalf("the witness does not replay: %v", err)
		}
		if err := treeMcastFiles(rep, tf, rp); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// treeMcastWitness fills a report's witness, trace, text, SVG and pcap from a trace file,
// replayed on the instance it names.
func treeMcastWitness(rep *props.Report, tf *tracefile.File) error {
	rp, err := treemcast.Replay(tf)
	if err != nil {
		return internalf("the witness does not replay: %v", err)
	}
	return treeMcastFiles(rep, tf, rp)
}

// treeMcastFiles fills a report's witness, trace, text and evidence from the replay rp
// of trace file tf.
func treeMcastFiles(rep *props.Report, tf *tracefile.File, rp *treemcast.Replayed) error {
	rep.Reason = tf.Violation
	rep.Witness = props.FlitWitness(rp.Model, rp.Trace, tf.Violation)
	rep.Trace = tf
	rep.Evidence = props.TraceEvidence(tf, rp.Model, rp.Trace, rp.Violation)
	rep.Text = traceText(tf.Labels)
	return nil
}

// treeMcastLasso is the evidence of a lasso v of instance in (model m): a livelock or
// starvation, whose cycle repeats forever.
func treeMcastLasso(in treemcast.Instance, m *flit.Model, v *checker.Violation[flit.State]) *props.FlitEvidence {
	return &props.FlitEvidence{Model: m, Trace: v.Trace, Violation: v.Message, Lasso: true, CycleStart: v.CycleStart,
		Title: "tree multicast on " + in.Grid.Spec() + ": " + v.Kind.String(), Subtitle: v.Message}
}

func treeMcastReport(in treemcast.Instance, prop checker.Property) *props.Report {
	tp := in.TraceParams()
	rep := &props.Report{
		Instance: props.Instance{Topology: in.Grid.Spec(), Algorithm: "tree-mcast", Params: map[string]any{
			"msgs": tp.Msgs, "pruning": tp.Pruning, "length": tp.Length, "buffers": tp.Buffers, "ports": tp.Ports, "vcs": in.VCs(),
		}},
		Property: prop, Semantics: "flit",
	}
	if in.Routing != nil {
		rep.Instance.Params["routing"] = in.Routing.Name()
	}
	return rep
}

// treeMcastFamily checks one shard of a family through the entry's one family driver,
// each member (a pair of multicasts) checked as one instance is (treeMcastOne); its
// mergeable result goes in Report.Result, and to Options.Checkpoint as members finish.
// Options.Resume continues an interrupted run's result; a cancelled ctx ends the run
// partial (verdict inconclusive), and one that ends while the members are being
// enumerated reports that nothing was checked.
func treeMcastFamily(ctx context.Context, r *request, f treemcast.Family, sh treemcast.Shard, params treemcast.Params, stop bool) (*props.Report, error) {
	if r.opt.SpillDir != "" {
		return nil, badf("--spill-dir is not supported by tree-mcast families; check one instance with --msgs")
	}
	start := time.Now()
	rep := treeMcastReport(treemcast.Instance{Grid: f.Grid, Params: params}, r.property)
	delete(rep.Instance.Params, "msgs")
	rep.Instance.Params["family"] = f.Spec()
	rep.Instance.Params["shard"] = sh.String()
	rep.Instance.Params["symmetry"] = f.Symmetry
	if need := f.Pairs() * treemcast.MemberBytes; r.opt.MaxMemoryBytes > 0 && need > float64(r.opt.MaxMemoryBytes) {
		return nil, badf("family %s on %v: enumerating its %.3g pairs takes about %.0f MiB, more than the memory budget of %d MiB (--max-memory)",
			f.Spec(), f.Grid, f.Pairs(), need/(1<<20), r.opt.MaxMemoryBytes>>20)
	}
	members, looked := f.MembersUntil(func() bool { return ctx.Err() != nil })
	if looked >= 0 {
		// Nothing was checked, so there is no result to merge or resume from.
		stopped := &treemcast.EnumerationStopped{Looked: looked, Pairs: f.Pairs(), Cause: context.Cause(ctx)}
		rep.Verdict, rep.Reason, rep.Text = props.Inconclusive, stopped.Error(), ""
		rep.Stats = props.Stats{Seconds: time.Since(start).Seconds(), Store: r.opt.Store.String()}
		return rep, nil
	}
	fr := familyRun[treemcast.FamilyParams]{algo: treemcast.Algorithm, name: f.Spec(), topology: f.Grid.Spec(),
		params: f.RecordParams(params, r.property, r.opt.Store), members: len(members), shard: sh, stop: stop,
		label: fmt.Sprintf("%s on %s, shard %s", f.Spec(), f.Grid.Spec(), sh),
		check: func(ctx context.Context, mr *request, k int) (*props.Report, family.Member, error) {
			mb := members[k]
			in := treemcast.Instance{Grid: f.Grid, Msgs: mb.Pair[:], Params: params, Routing: f.Relation}
			m, err := in.Model()
			if err != nil {
				return nil, family.Member{Msgs: in.String()}, badf("%v", err)
			}
			rep, err := treeMcastOne(ctx, mr, in, m)
			if err != nil {
				return nil, family.Member{Msgs: in.String()}, err
			}
			return rep, memberOf(rep, in.String(), int64(mb.Orbit)), nil
		}}
	out, err := runFamily(ctx, r, fr, treemcast.ParseFamilyResult)
	if err != nil {
		if errors.Is(err, ErrBadInput) || errors.Is(err, ErrInternal) {
			return nil, err
		}
		return nil, badf("%v", err)
	}
	rec := out.rec
	rep.Result, rep.Family = out.result, rec.Summary()
	rep.Instance.Params["members"] = rec.Members
	rep.Instance.Params["instances"] = rec.Instances
	rep.Instance.Params["covered"] = rec.Covered
	rep.Verdict = rec.Verdict
	secs := time.Since(start).Seconds()
	rep.Stats = props.Stats{States: rec.States, Transitions: rec.Transitions, Seconds: secs, StatesPerSec: float64(rec.States) / max(secs, 1e-9),
		Store: r.opt.Store.String(), CollisionBound: rec.CollisionBound}
	if r.opt.Reduction && !r.opt.Symmetry && r.property != checker.PropExactlyOnce {
		rep.Notes = append(rep.Notes, fmt.Sprintf("a member whose unreduced search passes %d states is decided by the partial-order-reduced search (stubborn sets), and its count is the reduced graph's", treemcast.FirstPass))
	}
	if rec.Verdict != props.Violated {
		rep.Certificate = rec.Certificates.Certificate()
	}
	text := fmt.Sprintf("%s on %s, shard %s: %d of %d members checked (%d pairs), %d violated, %d inconclusive", f.Spec(), f.Grid.Spec(), sh, rec.Instances, rec.Members, rec.Covered, rec.Violated, len(rec.Inconclusive))
	if w := rec.Witness; w != nil {
		if out.shown != nil {
			rep.Witness, rep.Trace, rep.Evidence, rep.Text = out.shown.Witness, out.shown.Trace, out.shown.Evidence, out.shown.Text
		} else if err := treeMcastWitness(rep, w.Trace); err != nil {
			return nil, err // the run this one resumed found it: replayed
		}
		rep.Reason = fmt.Sprintf("member %d (%s): %s", w.Index, w.Msgs, w.Trace.Violation)
		rep.Text = text + "\nshortest witness: member " + fmt.Sprint(w.Index) + " " + w.Msgs + "\n" + rep.Text
		return rep, nil
	}
	rep.Text = text
	if len(rec.Inconclusive) > 0 {
		rep.Reason = fmt.Sprintf("%d members reached a bound", len(rec.Inconclusive))
	}
	if rec.Partial {
		rep.Reason = fmt.Sprintf("stopped after %d of the shard's members", rec.Instances)
		if ctx.Err() != nil {
			rep.Reason = fmt.Sprintf("interrupted after %d of the shard's members; resume to continue", rec.Instances)
		}
	}
	return rep, nil
}

func replayTreeMcast(_ context.Context, tf *tracefile.File) (*props.Report, error) {
	rp, err := treemcast.Replay(tf)
	if err != nil {
		return nil, badf("%v", err)
	}
	rep := treeMcastReport(rp.Instance, tf.Property)
	if rp.Violation == "" {
		return nil, errNoViolation(tf)
	}
	if tf.Violation != "" && rp.Violation != tf.Violation {
		return nil, badf("trace file field \"violation\" is %q but the replay shows %q", tf.Violation, rp.Violation)
	}
	rep.Verdict = props.Violated
	if err := treeMcastWitness(rep, tf); err != nil {
		return nil, err
	}
	rep.Trace = nil
	return rep, nil
}
