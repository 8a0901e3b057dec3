package check

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/input"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// unicastAlgorithm is worms under the topology's base routing (XY / dimension order,
// dateline classes on tori), checked for deadlock in the flit semantics.
func unicastAlgorithm() Algorithm {
	return Algorithm{
		Name:    "unicast",
		Summary: "unicast worms under the base routing (XY / DOR, dateline VCs on tori), flit-level",
		Doc: `Worms SRC->DST under dimension-order routing (XY on meshes; on tori the shortest
direction with dateline virtual-channel classes, Dally & Seitz), every flit move one
transition. Nodes are numbers (dimension 0 fastest, so on mesh:3x3 node 5 is (2,1)) or
coordinates like (0,1). With family all-placements:K every connected placement of 1..K
worms with distinct (src,dst) pairs is checked (up to mesh reflections) and the first
deadlocked instance is reported (with --stop=false every member is checked and the
violated ones are counted); --shard i/n checks members i mod n, --result F keeps a
result file that --resume F continues and 'wormcheck merge' joins. Property deadlock
reports a local deadlock in the state where it forms: a set of worms none of which can
ever move again, whatever the others do (docs/semantics.md), so a deadlock among
free-running worms is found at the depth where it closes; global-deadlock reports only
states where nothing can move. Property liveness decides "every worm is eventually
delivered" under weak fairness on the whole reachable graph (checker.CheckLiveness): a
worm that can circle for ever under a non-minimal routing is a lasso. By default
(--search auto) the static decision of the relation under the instance's VCs comes
first: a relation with no deadlock configuration (or none of as few worms as these)
holds for every packet length, buffer depth and placement, so the instance holds with
no flit search; otherwise the exhaustive search decides, and when it has not within a
second, swarm walkers join it on the free cores, the first verdict answering
(docs/semantics.md, "Static verdicts and flit verdicts"). For liveness the static
holds decides too when every route of the worms is minimal. --search bfs runs the
exhaustive search alone; --search swarm --time-limit T the walkers alone (for
liveness they hunt deadlocks and livelock lassos). What walkers find is minimised to
the worms involved, whose instance alone is searched exhaustively (up to 2^18 states)
for the shortest trace, replayed on the full instance; finding nothing is
inconclusive.`,
		Properties:      []Support{{checker.PropDeadlock, props.SemFlit}, {checker.PropGlobalDeadlock, props.SemFlit}, {checker.PropLiveness, props.SemFlit}},
		DefaultProperty: checker.PropDeadlock,
		Families:        true,
		Params: []Param{
			{"msgs", "", `worms SRC->DST, comma-separated: "0->5,3->1" or "(0,1)->(2,2)"`},
			{"length", "2", "flits per worm"},
			{"buffers", "1", "flits of buffer per virtual channel"},
			{"vcs", "0", "virtual channels per physical channel (0 = the routing's classes)"},
			{"dateline", "auto", "dateline VC classes on tori: on, off or auto"},
			{"ports", "all", "port model: one or all"},
			{"family", "", `check a family instead of --msgs: "all-placements:K"`},
			{"shard", "0/1", `with family: check members i mod n ("i/n", 0 <= i < n)`},
			{"stop", "true", "with family: stop the shard at its first violated member (--stop=false checks them all and counts the violated)"},
			routingParam,
		},
		merge:   mergeUnicast,
		prepare: prepareUnicast,
		replay:  replayUnicast,
	}
}

// Unicast is the typed request of the unicast family (the registry's "unicast"): worms
// on a mesh, torus or hypercube under dimension-order routing (dateline classes on tori)
// or a routing relation, in the flit semantics. Its Check takes the property
// (checker.PropDeadlock, checker.PropGlobalDeadlock or checker.PropLiveness).
type Unicast struct {
	// Grid is the topology; Spec.Topology is ignored.
	Grid *topology.Network
	// Spec is the instance: the worms (Pairs), flits per worm (Length, 0 means 2), per
	// buffer (Buffer, 0 means 1), virtual channels, dateline, port model and relation;
	// for a family, every member's parameters but its worms, length and buffer.
	Spec unicast.Spec
	// Family, when not nil, checks its placements, each with every (length, buffer) of
	// Family.Params, instead of Spec.Pairs: the members Shard selects (zero: all), on
	// Options.Workers members at once, reporting the first deadlock; its mergeable
	// result is Report.Result.
	Family *unicast.Family
	Shard  family.Shard
	// CountAll, with Family, checks every member of the shard instead of stopping at
	// the first violated one, and the report counts the violated members (with the
	// shortest witness): for sweeps that want the full count.
	CountAll bool
}

// Check checks u for property under opt, as Run does for the same instance given by
// name; errors wrapping ErrBadInput name the field at fault.
func (u Unicast) Check(ctx context.Context, property checker.Property, opt Options) (*props.Report, error) {
	return Run(ctx, u, property, opt)
}

// jobFor validates u for property under opt and returns the job that checks it
// (Request).
func (u Unicast) jobFor(property checker.Property, opt Options) (job, error) {
	if u.Grid == nil {
		return nil, badf("Unicast.Grid is nil; give the topology (topology.Parse)")
	}
	return typedJob(unicastAlgorithm(), "Unicast", u.Grid.Spec(), property, opt, u.prepare)
}

// prepareUnicast reads the registry's parameters into a Unicast.
func prepareUnicast(r *request) (job, error) {
	var fileRel routing.Relation
	if spec := r.str("routing"); r.topology == "" && spec != "" && !routing.IsBuiltin(spec) && r.relation == nil {
		// a routing file that names its topology needs no --topo
		rel, err := routing.Resolve(nil, spec, r.readFile(input.Routing))
		if err != nil {
			if stop := r.readStopped(); stop != nil {
				return nil, stop
			}
			return nil, badf("--routing: %v", err)
		}
		fileRel, r.topology = rel, rel.Grid().Spec()
	}
	if r.topology == "" {
		return nil, badf("--topo is missing; e.g. --topo torus:4")
	}
	dl, err := unicast.ParseDateline(r.str("dateline"))
	if err != nil {
		return nil, badf("--dateline: %v", err)
	}
	pm, err := model.ParsePortModel(r.str("ports"))
	if err != nil {
		return nil, badf("--ports: %v", err)
	}
	length, err := r.integer("length", 1, flit.MaxFlits)
	if err != nil {
		return nil, err
	}
	buffers, err := r.integer("buffers", 1, unicast.MaxBuffer)
	if err != nil {
		return nil, err
	}
	vcs, err := r.integer("vcs", 0, 1<<20)
	if err != nil {
		return nil, err
	}
	u := Unicast{Spec: unicast.Spec{Topology: r.topology, Length: length, Buffer: buffers, VCs: vcs, Dateline: dl, Ports: pm}}
	if fileRel != nil {
		u.Grid, u.Spec.Routing = fileRel.Grid(), fileRel
	} else {
		u.Grid, err = u.Spec.Grid()
		r.work.parses++
		if err != nil {
			return nil, badf("--topo: %v", err)
		}
		if u.Spec.Routing, err = relationOf(r, u.Grid); err != nil {
			return nil, err
		}
	}
	msgs, fam, shard := r.str("msgs"), r.str("family"), r.str("shard")
	stop, err := r.boolean("stop")
	if err != nil {
		return nil, err
	}
	if !stop && fam == "" {
		return nil, badf("--stop=false needs --family")
	}
	u.CountAll = !stop
	if fam != "" {
		if msgs != "" {
			return nil, badf("--family and --msgs exclude each other")
		}
		k, ok := strings.CutPrefix(fam, "all-placements:")
		n, err := strconv.Atoi(k)
		if !ok || err != nil || n < 1 || n > 8 {
			return nil, badf("--family %q is unknown; use all-placements:K with K in 1..8", fam)
		}
		u.Family = &unicast.Family{MaxWorms: n, MinWorms: 1, Params: [][2]int{{length, buffers}}, Connected: true}
		if u.Shard, err = family.ParseShard(shard); err != nil {
			return nil, badf("--%v", err)
		}
	} else if shard != "0/1" {
		return nil, badf("--shard needs --family")
	} else if msgs == "" {
		return nil, badf("--msgs is missing; e.g. --msgs '0->2,1->3' (or use --family all-placements:K)")
	} else if u.Spec.Pairs, err = unicast.ParsePairs(u.Grid, msgs); err != nil {
		return nil, badf("--%v", err)
	}
	return u.prepare(r)
}

// prepare validates u and returns the job that checks it.
func (u Unicast) prepare(r *request) (job, error) {
	if r.opt.Symmetry {
		return nil, badf("--symmetry is not supported by --algo unicast (use --family, which reduces by mesh reflections)")
	}
	g, sp := u.Grid, u.Spec
	sp.Topology = g.Spec()
	if sp.Length == 0 {
		sp.Length = 2
	}
	if sp.Buffer == 0 {
		sp.Buffer = 1
	}
	switch {
	case sp.Length < 1 || sp.Length > flit.MaxFlits:
		return nil, badf("%s %d is out of range; use 1..%d", r.field("length", "Spec.Length"), sp.Length, flit.MaxFlits)
	case sp.Buffer < 1 || sp.Buffer > unicast.MaxBuffer:
		return nil, badf("%s %d is out of range; use 1..%d", r.field("buffers", "Spec.Buffer"), sp.Buffer, unicast.MaxBuffer)
	case sp.VCs < 0:
		return nil, badf("%s must not be negative", r.field("vcs", "Spec.VCs"))
	}
	if u.Family != nil {
		if len(sp.Pairs) > 0 {
			return nil, badf("--family and --msgs exclude each other")
		}
		if r.property == checker.PropLiveness {
			return nil, badf("--prop %s checks one instance (--msgs), not a family", checker.PropLiveness)
		}
		if r.opt.Swarm {
			return nil, badf("--search swarm hunts in one instance; give --msgs, not --family")
		}
		fam := *u.Family
		if len(fam.Params) == 0 {
			fam.Params = [][2]int{{sp.Length, sp.Buffer}}
		}
		if err := fam.CheckSize(g); err != nil {
			return nil, badf("--family %s: %v", fam.Spec(), err)
		}
		sh := u.Shard
		if sh.Count == 0 {
			sh = family.Shard{Index: 0, Count: 1}
		}
		return func(ctx context.Context) (*props.Report, error) {
			return unicastFamily(ctx, r, g, sp, fam, sh, !u.CountAll)
		}, nil
	}
	if u.Shard.Count > 1 {
		return nil, badf("%s needs %s", r.field("shard", "Shard"), r.field("family", "Family"))
	}
	if u.CountAll {
		return nil, badf("%s needs %s", r.field("stop=false", "CountAll"), r.field("family", "Family"))
	}
	if len(sp.Pairs) == 0 {
		if r.typed != "" {
			return nil, badf("Unicast.Spec.Pairs is empty; give the worms, or a Family")
		}
		return nil, badf("--msgs is missing; e.g. --msgs '0->2,1->3' (or use --family all-placements:K)")
	}
	m, err := unicast.BuildOn(g, sp)
	r.work.builds++
	if err != nil {
		return nil, badf("%v", err)
	}
	if r.opt.Swarm {
		// For liveness too: a walk's deadlock or weakly fair lasso (unicast.Swarm hunts
		// both) is a message never delivered.
		return func(ctx context.Context) (*props.Report, error) { return unicastSwarm(ctx, r, g, sp, m) }, nil
	}
	if r.opt.Static || r.opt.Portfolio {
		return func(ctx context.Context) (*props.Report, error) { return unicastPortfolio(ctx, r, g, sp, m) }, nil
	}
	if r.property == checker.PropLiveness {
		return func(ctx context.Context) (*props.Report, error) { return unicastLiveness(ctx, r, sp, m) }, nil
	}
	return func(ctx context.Context) (*props.Report, error) {
		opt := checkerOptions[flit.State](ctx, r)
		opt.Invariants = m.Invariants()
		opt.CheckLocalDeadlock = r.property.LocalDeadlocks()
		res := searchUnicast(r, m, opt)
		return unicastReport(sp, r.property, &res, &r.work), nil
	}, nil
}

// unicastFamily checks every member of family fam in shard sh with the parameters of
// sp (placement i/len(Params) with sizes Params[i%len(Params)]) through the entry's one
// family driver, each member searched as one instance is (searchUnicast), and reports
// the shortest deadlock (the kept result's witness), or holds when every member held;
// with stop false it checks every member and the report counts the violated ones. The
// kept result (unicast.FamilyRecord) goes in Report.Result. A cancelled ctx ends it
// inconclusive, the interrupted members not counted; a run resumed from its result
// continues it.
func unicastFamily(ctx context.Context, r *request, g *topology.Network, sp unicast.Spec, fam unicast.Family, sh family.Shard, stop bool) (*props.Report, error) {
	start := time.Now()
	places, _, err := fam.Placements(g, sp)
	if err != nil {
		return nil, badf("%v", err)
	}
	reduction := ""
	if r.opt.Reduction && (r.property == checker.PropDeadlock || r.property == checker.PropGlobalDeadlock) {
		reduction = "stubborn"
	}
	name := fam.Spec()
	f := familyRun[unicast.FamilyParams]{algo: unicast.Algorithm, name: name, topology: g.Spec(),
		params:  fam.RecordParams(sp, r.property, r.opt.MaxStates, r.opt.Store, reduction),
		members: len(places) * len(fam.Params), shard: sh, stop: stop, label: familyLabel(name, g.Spec(), sh),
		check: func(ctx context.Context, mr *request, i int) (*props.Report, family.Member, error) {
			ms := sp
			ms.Pairs, ms.Length, ms.Buffer = places[i/len(fam.Params)], fam.Params[i%len(fam.Params)][0], fam.Params[i%len(fam.Params)][1]
			msgs := ms.Worms()
			m, err := unicast.BuildOn(g, ms)
			if err != nil {
				return nil, family.Member{Msgs: msgs}, badf("%v", err)
			}
			opt := checkerOptions[flit.State](ctx, mr)
			opt.Progress, opt.Invariants, opt.CheckLocalDeadlock = nil, m.Invariants(), mr.property.LocalDeadlocks()
			res := searchUnicast(mr, m, opt)
			rep := unicastReport(ms, mr.property, &res, &mr.work)
			return rep, memberOf(rep, msgs, 0), nil
		}}
	out, err := runFamily(ctx, r, f, unicast.ParseFamilyRecord)
	if err != nil && ctx.Err() == nil {
		if errors.Is(err, ErrBadInput) || errors.Is(err, ErrInternal) {
			return nil, err
		}
		return nil, badf("%v", err)
	}
	rec := out.rec
	rep := out.shown
	if w := rec.Witness; w != nil && rep == nil {
		// The violation was found by the run this one resumed: its trace is replayed.
		s, res, err := unicast.ReplayTrace(w.Trace)
		r.work.parses++
		r.work.builds++
		r.work.replays++
		if err != nil {
			return nil, badf("resume: the witness of member %d does not replay: %v", w.Index, err)
		}
		rep = unicastReport(s, r.property, res, &r.work)
	}
	if rep != nil {
		w := rec.Witness
		rep.Reason = fmt.Sprintf("member %d of the family (%s) %s", w.Index, w.Msgs, w.Trace.Violation)
		if !stop {
			rep.Reason += fmt.Sprintf("; %d of %d members checked violated", rec.Violated, rec.Instances)
			rep.Figures = map[string]float64{"violated": float64(rec.Violated), "instances": float64(rec.Instances)}
			if rec.Partial && ctx.Err() != nil {
				rep.Notes = append(rep.Notes, fmt.Sprintf("interrupted after %d of the shard's members; resume to count the rest", rec.Instances))
			}
		}
		rep.Stats.States, rep.Stats.Transitions = rec.States, rec.Transitions
		rep.Stats.Seconds = time.Since(start).Seconds()
		rep.Stats.StatesPerSec = float64(rec.States) / max(rep.Stats.Seconds, 1e-9)
		rep.Result, rep.Family = out.result, rec.Summary()
		return rep, nil
	}
	total := unicast.Result{Store: r.opt.Store, States: rec.States, Transitions: rec.Transitions, Depth: out.depth, CollisionBound: rec.CollisionBound,
		Verdict: props.Holds}
	switch {
	case rec.Partial && ctx.Err() != nil:
		total.Verdict = props.Inconclusive
		of := (rec.Members - rec.Shard.Index + rec.Shard.Count - 1) / rec.Shard.Count // the shard's members
		total.Violation = fmt.Sprintf("interrupted after %d of %d instances (%d reached a bound)", rec.Instances, of, len(rec.Inconclusive))
	case len(rec.Inconclusive) > 0:
		total.Verdict = props.Inconclusive
		total.Violation = fmt.Sprintf("%d of %d instances reached a bound", len(rec.Inconclusive), rec.Instances)
	case rec.Verdict == props.Inconclusive:
		total.Verdict = props.Inconclusive
		total.Violation = fmt.Sprintf("stopped after %d of the shard's members", rec.Instances)
	}
	total.Seconds = time.Since(start).Seconds()
	total.Certificate = rec.Certificates.Certificate()
	sp.Pairs = nil
	if len(fam.Params) == 1 {
		sp.Length, sp.Buffer = fam.Params[0][0], fam.Params[0][1]
	}
	rep = unicastReport(sp, r.property, &total, &r.work)
	rep.Result, rep.Family = out.result, rec.Summary()
	rep.Instance.Params["family"] = name
	rep.Instance.Params["instances"] = rec.Instances
	if sh.Count > 1 {
		rep.Instance.Params["shard"] = sh.String()
		rep.Instance.Params["members"] = rec.Members
	}
	rep.Text = fmt.Sprintf("%d instances: every connected placement of 1..%d worms (worms that share no channel or port are decided by smaller placements)", rec.Instances, fam.MaxWorms)
	if sp.Routing != nil {
		rep.Text = fmt.Sprintf("%d instances: every placement of 1..%d worms under routing %s", rec.Instances, fam.MaxWorms, sp.Routing.Name())
	} else if g.Kind() == topology.Mesh {
		rep.Text += ", up to mesh reflections"
	}
	if sh.Count > 1 {
		rep.Text += fmt.Sprintf(" (shard %s: %d of the family's %d members)", sh, rec.Instances, rec.Members)
	}
	return rep, nil
}

// unicastReport turns a unicast search result into a Report with its witness, trace and
// pictures, drawn from the model and trace the result carries; a result without them
// is replayed once, counted in w.
func unicastReport(sp unicast.Spec, property checker.Property, res *unicast.Result, w *work) *props.Report {
	p := unicast.ParamsOf(sp)
	params := map[string]any{"msgs": p.Msgs, "length": p.Length, "buffers": p.Buffers, "vcs": p.VCs, "dateline": p.Dateline, "ports": p.Ports}
	if sp.Routing != nil {
		params["routing"] = sp.Routing.Name()
	}
	rep := &props.Report{
		Instance: props.Instance{Topology: sp.Topology, Algorithm: "unicast", Params: params},
		Property: property, Semantics: "flit", Verdict: res.Verdict,
		Stats: props.Stats{States: res.States, Transitions: res.Transitions, Depth: res.Depth, Seconds: res.Seconds,
			Store: res.Store.String(), CollisionBound: res.CollisionBound, Reduction: res.Reduction, Model: leanName(res.Lean)},
		Certificate: res.Certificate,
	}
	if res.ReductionNote != "" {
		rep.Notes = append(rep.Notes, res.ReductionNote)
	}
	if res.Transitions == 0 {
		rep.Stats.Store = "" // a replay or an empty family searched nothing
	}
	if res.Seconds > 0 {
		rep.Stats.StatesPerSec = float64(res.States) / res.Seconds
	}
	switch res.Verdict {
	case props.Violated:
		rep.Reason = res.Violation
		rep.Trace = unicast.TraceFile(sp, res)
		rep.Witness = props.LabelWitness(rep.Trace)
		m, tr, replayed, err := unicast.Witness(sp, res)
		if replayed {
			w.parses++
			w.builds++
			w.replays++
		}
		if err == nil {
			rep.Witness = props.FlitWitness(m, tr, res.Violation)
			title, sub := unicast.Titles(sp, res)
			rep.Evidence = &props.FlitEvidence{Model: m, Trace: tr, Violation: res.Violation, Lasso: res.Kind.IsLasso(), CycleStart: res.CycleStart,
				Title: title, Subtitle: sub, Notes: props.ViolationNotes(res.Violation)}
		}
		markLasso(rep.Witness, res.Kind, res.CycleStart)
		cycleStart := -1
		if rep.Witness != nil && rep.Witness.Kind == props.WitnessLasso {
			cycleStart = rep.Witness.CycleStart
		}
		rep.Text = lassoText(res.Labels(), cycleStart)
	case props.Inconclusive:
		rep.Reason = res.Violation
	}
	return rep
}

func replayUnicast(_ context.Context, tf *tracefile.File) (*props.Report, error) {
	sp, res, err := unicast.ReplayTrace(tf)
	if err != nil {
		return nil, badf("%v", err)
	}
	if res.Verdict == props.Holds {
		return nil, errNoViolation(tf)
	} else if tf.Violation != "" && res.Violation != tf.Violation {
		return nil, badf("trace file field \"violation\" is %q but the replay shows %q", tf.Violation, res.Violation)
	}
	rep := unicastReport(sp, tf.Property, res, new(work))
	rep.Trace = nil
	return rep, nil
}

// unicastLiveness decides checker.PropLiveness for one instance. The witness of a lasso names
// the instance in its Detail (topology and parameters) and lists the actions from the
// initial state, the cycle from CycleStart.
func unicastLiveness(ctx context.Context, r *request, sp unicast.Spec, m *flit.Model) (*props.Report, error) {
	start := time.Now()
	res, err := checker.CheckLiveness[flit.State](m, checker.LivenessOptions{MaxStates: r.opt.MaxStates, Context: ctx})
	if err != nil {
		return nil, internalf("%v", err)
	}
	// The lasso travels as a search result does, so that its report has the trace file
	// (--trace), picture and capture of a deadlock check's lasso, its shape kept.
	ur := &unicast.Result{Property: checker.PropLiveness, Verdict: res.Verdict, States: res.States, Transitions: res.Transitions,
		Seconds: time.Since(start).Seconds(), Model: m, Violation: res.Reason}
	if v := res.Violation; v != nil {
		ur.Trace, ur.Kind, ur.Violation = v.Trace, v.Kind, v.Message
		if v.Kind.IsLasso() {
			ur.CycleStart = v.CycleStart
		}
	}
	rep := unicastReport(sp, checker.PropLiveness, ur, new(work))
	rep.Stats.StatesPerSec = float64(res.States) / max(ur.Seconds, 1e-9)
	rep.Stats.Store = ""
	rep.Stats.Reduction = props.ReductionNone // CheckLiveness explores the model itself
	if rep.Witness != nil {
		rep.Witness.Detail = map[string]any{"topology": sp.Topology, "parameters": unicast.ParamsOf(sp)}
	}
	return rep, nil
}

// unicastSwarm hunts for a deadlock of one instance with randomised walks
// (r.swarmWalkers of them) and reports the minimised witness (unicast.Swarm), or what
// the walks covered.
func unicastSwarm(ctx context.Context, r *request, g *topology.Network, sp unicast.Spec, m *flit.Model) (*props.Report, error) {
	res, err := unicast.Swarm(ctx, g, sp, m, checker.SwarmOptions[flit.State]{
		Walkers: r.swarmWalkers(), Seed: uint64(r.opt.Seed), MaxDepth: r.opt.MaxDepth, CheckLocalDeadlock: r.property.LocalDeadlocks(),
		Invariants: m.Invariants(), Progress: r.opt.Progress, ProgressLabel: "unicast on " + sp.Topology,
	})
	if err != nil {
		return nil, internalf("%v", err)
	}
	rep := unicastReport(sp, r.property, &res.Result, &r.work)
	sw := res.Swarm
	rep.Stats.Store = ""
	rep.Stats.States, rep.Stats.Transitions, rep.Stats.Depth = sw.Steps, sw.Steps, sw.Deepest
	rep.Stats.Search = "swarm"
	if rep.Stats.Seconds > 0 {
		rep.Stats.StatesPerSec = float64(sw.Steps) / rep.Stats.Seconds
	}
	fig := map[string]float64{"walks": float64(sw.Walks), "walkers": float64(sw.Walkers), "walk_transitions": float64(sw.Steps)}
	if res.Verdict == props.Violated {
		fig["found_after_seconds"] = sw.FoundAfterSec
		fig["walk_steps"] = float64(res.WalkSteps)
		fig["involved"], fig["messages"] = float64(res.Involved), float64(res.Of)
		note := fmt.Sprintf("swarm: %d walkers, %d walks, %d transitions; walker %d found it in its walk %d after %.2fs",
			sw.Walkers, sw.Walks, sw.Steps, sw.Walker, sw.Walk, sw.FoundAfterSec)
		switch {
		case res.Kind.IsLasso():
			note += fmt.Sprintf(": the walk came back to a state it had visited, and the cycle is a weakly fair lasso (checker.ReplayLasso) of %d steps to it and %d round it.", res.CycleStart, res.WalkSteps-res.CycleStart)
		case res.Minimised:
			note += fmt.Sprintf(" (a trace of %d steps, loops cut). ", res.WalkSteps)
			note += fmt.Sprintf("%d of %d messages are involved; their instance alone, searched exhaustively (%d states), gives the shortest trace below, replayed on the full instance.", res.Involved, res.Of, res.SubStates)
		case res.SubStates > 0:
			note += fmt.Sprintf(" (a trace of %d steps, loops cut). ", res.WalkSteps)
			note += fmt.Sprintf("%d of %d messages are involved; their instance alone did not give its shortest trace within %d states, so the trace below is the swarm's own.", res.Involved, res.Of, res.SubStates)
		default:
			note += fmt.Sprintf(" (a trace of %d steps, loops cut). ", res.WalkSteps)
			note += fmt.Sprintf("%d of %d messages are involved; the trace below is the swarm's own.", res.Involved, res.Of)
		}
		rep.Text = note + "\n" + rep.Text
	}
	if rep.Witness != nil {
		if rep.Witness.Figures == nil {
			rep.Witness.Figures = map[string]float64{}
		}
		for k, v := range fig {
			rep.Witness.Figures[k] = v
		}
	}
	rep.Figures = fig
	return rep, nil
}

// searchUnicast searches one unicast instance, with partial-order reduction when the
// request asks for it (Options.Reduction) and the property is a deadlock property, on
// the lean model unless Options.FlitModel asks for the flit model itself.
func searchUnicast(r *request, m *flit.Model, opt checker.Options[flit.State]) unicast.Result {
	switch {
	case r.opt.FlitModel:
		return unicast.SearchFull(m, opt)
	case r.opt.Reduction && (r.property == checker.PropDeadlock || r.property == checker.PropGlobalDeadlock):
		if r.opt.ReducedOnly {
			return unicast.SearchReducedFirstPass(m, opt, 0)
		}
		return unicast.SearchReduced(m, opt)
	}
	return unicast.SearchWith(m, opt)
}

// leanName is props.Stats.Model for a search that ran on the lean model or not.
func leanName(lean bool) string {
	if lean {
		return "lean"
	}
	return ""
}
