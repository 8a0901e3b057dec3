package check

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/multinode"
	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/subnetworks"
)

// The network-partitioning family of 001 (Wang, Tseng, Shiu & Sheu): the subnetworks
// (DDNs, DCNs) judged for their contention levels, P1-P5 and connectivity by
// props/subnetworks (the partition algorithm), and the three-phase multi-node multicast
// over them (the multinode algorithm).

func partitionAlgorithm() Algorithm {
	return Algorithm{
		Name:    "partition",
		Summary: "DDN/DCN subnetworks of a 2-D torus or mesh (001 Definitions 3-8): Table 1 levels, P1-P5, connectivity",
		Doc: `The data-distributing networks (DDNs, Types I-IV of 001 Definitions 4-7) and
data-collecting networks (DCNs, Definition 8) of a 2-D torus or mesh. levels checks the
node and link contention levels (Definition 3) against Table 1 (Lemmas 1-4: node level 1;
link level 1, h, 1 and h/2 for Types I-IV; Lemma 4 needs an even h); p1-p5 checks P1 (the
DDNs load nodes and links within 1 of each other), P2 (the DCNs are disjoint and cover),
P3 (every DDN meets every DCN), P4 and P5 (the DDNs, and the DCNs, are isomorphic);
connected checks that every DDN is strongly connected under its own channels (001 §3.1-3.2).
With --family sizes:LO-HI and --topo torus (or mesh) every LO..HI x LO..HI grid of that
kind is checked with every h dividing both sides and every Type III delta, for --type
(empty: every type), as the claims NP1-NP7 sweep it; --shard i/n checks members i mod n,
--result F keeps a result file that --resume F continues and 'wormcheck merge' joins,
and every violated member is counted unless --stop.`,
		Properties: []Support{{checker.PropLevels, props.SemStatic}, {checker.PropP1P5, props.SemStatic}, {checker.PropConnected, props.SemStatic}},
		Families:   true,
		Params: []Param{
			{"type", "", "DDN type: I, II, III or IV (with family: empty for every type)"},
			{"h", "0", "dilation h; it must divide both sides"},
			{"delta", "0", "Type III shift, 1..h-1 (0: h/2)"},
			{"family", "", `check a family instead of one grid: "sizes:LO-HI" with --topo torus or mesh`},
			{"shard", "0/1", `with family: check members i mod n ("i/n", 0 <= i < n)`},
			{"stop", "false", "with family: stop the shard at its first violation (the result is partial)"},
		},
		merge:   mergePartition,
		prepare: preparePartition,
	}
}

func preparePartition(r *request) (job, error) {
	if r.topology == "" {
		return nil, badf("Partition.Grid is nil; give the topology (topology.Parse)")
	}
	if fam := r.str("family"); fam != "" {
		return preparePartitionFamily(r, fam)
	}
	if r.str("shard") != "0/1" {
		return nil, badf("--shard needs --family")
	}
	if stop, err := r.boolean("stop"); err != nil || stop {
		return nil, badf("--stop needs --family")
	}
	g, err := topology.Parse(r.topology)
	if err != nil {
		return nil, badf("--topo: %v", err)
	}
	if r.str("type") == "" {
		return nil, badf("--type is missing; use I, II, III or IV")
	}
	typ, err := partition.ParseType(r.str("type"))
	if err != nil {
		return nil, badf("--type: %v", err)
	}
	h, err := r.integer("h", 1, 1<<16)
	if err != nil {
		return nil, err
	}
	delta, err := r.integer("delta", 0, 1<<16)
	if err != nil {
		return nil, err
	}
	p := partition.Params{Type: typ, H: h, Delta: delta}
	if typ == partition.TypeIII && p.Delta == 0 {
		p.Delta = max(1, h/2)
	}
	return Partition{Grid: g, Params: p}.prepare(r)
}

// Partition is the typed request of the partition family (the registry's "partition"):
// the DDNs of Params on a 2-D torus or mesh Grid, with their DCNs. Its Check takes the
// property (checker.PropLevels, checker.PropP1P5 or checker.PropConnected); Params must fit
// the grid (partition.Params.Validate: a Type III delta in 1..h-1).
type Partition struct {
	Grid   *topology.Network
	Params partition.Params
}

// Check checks p for property under opt, as Run does for the same instance given by
// name; errors wrapping ErrBadInput name the field at fault.
func (p Partition) Check(ctx context.Context, property checker.Property, opt Options) (*props.Report, error) {
	return Run(ctx, p, property, opt)
}

// jobFor validates p for property under opt and returns the job that checks it
// (Request).
func (p Partition) jobFor(property checker.Property, opt Options) (job, error) {
	if p.Grid == nil {
		return nil, badf("Partition.Grid is nil; give the topology (topology.Parse)")
	}
	return typedJob(partitionAlgorithm(), "Partition", p.Grid.Spec(), property, opt, p.prepare)
}

// prepare validates p and returns the job that checks it.
func (p Partition) prepare(r *request) (job, error) {
	if err := p.Params.Validate(p.Grid); err != nil {
		return nil, badf("%v", err)
	}
	return func(ctx context.Context) (*props.Report, error) {
		return partitionMember(ctx, r, p.Grid, p.Params)
	}, nil
}

// partitionMember builds the DDNs of p on g and judges them for the request's property.
// A cancelled ctx ends the long loops (building many DDNs, P4/P5's isomorphisms,
// connectivity) with verdict inconclusive.
func partitionMember(ctx context.Context, r *request, g *topology.Network, p partition.Params) (*props.Report, error) {
	start := time.Now()
	params := map[string]any{"type": p.Type.String(), "h": p.H}
	if p.Type == partition.TypeIII {
		params["delta"] = p.Delta
	}
	rep := r.report(g.Spec(), params)
	rep.Command, rep.Verdict = "check", props.Holds
	ddns, err := partition.DDNsContext(ctx, g, p)
	if err != nil && ctx.Err() != nil {
		rep.Verdict = props.Inconclusive
		rep.Reason = fmt.Sprintf("stopped (%v) while building the DDNs", err)
		rep.Stats.Seconds = time.Since(start).Seconds()
		return rep, nil
	} else if err != nil {
		return nil, badf("%v", err)
	}
	switch r.property {
	case checker.PropLevels:
		subnetworks.Levels(g, p, ddns, rep)
	case checker.PropP1P5:
		err = subnetworks.P1P5(ctx, g, p, ddns, rep)
	case checker.PropConnected:
		subnetworks.Connected(ctx, g, p, ddns, rep)
	}
	rep.Stats.Seconds = time.Since(start).Seconds()
	return rep, err
}

// preparePartitionFamily reads a partition family: the kind of grid (--topo torus or
// mesh), the sizes, the types, the shard and the result to resume.
func preparePartitionFamily(r *request, fam string) (job, error) {
	var kind topology.Kind
	switch r.topology {
	case "torus":
		kind = topology.Torus
	case "mesh":
		kind = topology.Mesh
	default:
		return nil, badf("--topo %q: with --family, give the kind of grid the family sweeps: torus or mesh", r.topology)
	}
	lo, hi, err := partition.ParseFamilySpec(fam)
	if err != nil {
		return nil, badf("--%v", err)
	}
	types := partition.Types()
	if t := r.str("type"); t != "" {
		typ, err := partition.ParseType(t)
		if err != nil {
			return nil, badf("--type: %v", err)
		}
		types = []partition.Type{typ}
	}
	if strings.TrimSpace(r.str("h")) != "0" {
		return nil, badf("--h: a family checks every h dividing both sides; leave it out")
	}
	if strings.TrimSpace(r.str("delta")) != "0" {
		return nil, badf("--delta: a family checks every Type III delta; leave it out")
	}
	sh, err := family.ParseShard(r.str("shard"))
	if err != nil {
		return nil, badf("--%v", err)
	}
	stop, err := r.boolean("stop")
	if err != nil {
		return nil, err
	}
	f := partitionFamilyRun{kind: kind, lo: lo, hi: hi, types: types, shard: sh, stop: stop}
	return func(ctx context.Context) (*props.Report, error) { return f.run(ctx, r) }, nil
}

// partitionFamilyRun is one shard of a partition family: partition.Family(kind, lo, hi,
// nil, types), its members checked by index through the entry's family driver.
type partitionFamilyRun struct {
	kind   topology.Kind
	lo, hi int
	types  []partition.Type
	shard  family.Shard
	stop   bool
}

// run checks the shard's members not in Options.Resume, in member order on Options.Workers
// members at once, and reports the family: holds when every member of the shard held,
// violated with the first violated member's own report (judged again from its index when
// the run it resumed found it), inconclusive when interrupted (the result, in
// Report.Result and to Options.Checkpoint, then resumes). Every violated member is
// counted unless f.stop.
func (f partitionFamilyRun) run(ctx context.Context, r *request) (*props.Report, error) {
	start := time.Now()
	members := partition.Family(f.kind, f.lo, f.hi, nil, f.types)
	kind := f.kind.String()
	spec := partition.FamilySpec(f.lo, f.hi)
	names := make([]string, len(f.types))
	for i, t := range f.types {
		names[i] = t.String()
	}
	label := fmt.Sprintf("partition %s on %s", spec, kind)
	if f.shard.Count > 1 {
		label += ", shard " + f.shard.String()
	}
	judge := func(ctx context.Context, mr *request, i int) (*props.Report, error) {
		in := members[i]
		g, err := topology.Parse(in.Topology)
		if err != nil {
			return nil, internalf("member %d: %v", i, err)
		}
		return partitionMember(ctx, mr, g, in.Params) // an error is named by family.Keep
	}
	fr := familyRun[partition.FamilyParams]{algo: partition.FamilyAlgorithm, name: spec, topology: kind,
		params: partition.FamilyParams{Types: names, Property: r.property}, members: len(members), shard: f.shard, stop: f.stop, label: label,
		check: func(ctx context.Context, mr *request, i int) (*props.Report, family.Member, error) {
			rep, err := judge(ctx, mr, i)
			if err != nil {
				return nil, family.Member{Msgs: members[i].String()}, err
			}
			m := family.Member{Outcome: family.Outcome{Verdict: rep.Verdict, States: rep.Stats.Checked}, Msgs: members[i].String()}
			if rep.Verdict == props.Violated {
				what := rep.Reason
				if rep.Witness != nil {
					what = rep.Witness.Violation
				}
				m.Trace = members[i].Witness(r.property, what)
			}
			return rep, m, nil
		}}
	out, err := runFamily(ctx, r, fr, partition.ParseFamilyRecord)
	if err != nil {
		if errors.Is(err, ErrBadInput) || errors.Is(err, ErrInternal) {
			return nil, err
		}
		return nil, internalf("%v", err)
	}
	rec, result, first := out.rec, out.result, out.shown
	if w := rec.Witness; w != nil && first == nil {
		// The witness was found by the run this one resumed: its member is judged
		// again, by index.
		if first, err = judge(ctx, r.member(), w.Index); err != nil {
			return nil, err
		}
	}
	rep := r.report(kind, map[string]any{"family": spec, "types": strings.Join(names, ","), "members": rec.Members, "instances": rec.Instances})
	if rec.Shard.Count > 1 {
		rep.Instance.Params["shard"] = rec.Shard.String()
	}
	rep.Command, rep.Verdict, rep.Result, rep.Family = "check", rec.Verdict, result, rec.Summary()
	secs := time.Since(start).Seconds()
	unit := "subnetworks" // what the members' judges examined
	if r.property == checker.PropP1P5 {
		unit = "properties"
	}
	rep.Stats = props.Stats{Checked: rec.States, Unit: unit, Seconds: secs}
	rep.Figures = map[string]float64{"members": float64(rec.Members), "instances": float64(rec.Instances), "violated": float64(rec.Violated),
		"inconclusive": float64(len(rec.Inconclusive))}
	rep.Text = fmt.Sprintf("%s of %s grids, Types %s, shard %s: %d of %d members checked, %d violated, %d inconclusive",
		spec, kind, strings.Join(names, ", "), rec.Shard, rec.Instances, rec.Members, rec.Violated, len(rec.Inconclusive))
	switch {
	case rec.Witness != nil:
		w := rec.Witness
		rep.Reason = fmt.Sprintf("member %d (%s): %s", w.Index, w.Msgs, w.Trace.Violation)
		rep.Witness = first.Witness
		if rec.Violated > 1 {
			rep.Reason += fmt.Sprintf("; %d members violated", rec.Violated)
		}
		if rec.Partial && ctx.Err() != nil {
			rep.Notes = append(rep.Notes, fmt.Sprintf("interrupted after %d of the shard's members; resume to count the rest", rec.Instances))
		}
	case rec.Partial && ctx.Err() != nil:
		rep.Reason = fmt.Sprintf("interrupted after %d of the shard's members; resume to continue", rec.Instances)
	case len(rec.Inconclusive) > 0:
		rep.Reason = fmt.Sprintf("%d members undecided (a bounded isomorphism search)", len(rec.Inconclusive))
	case rec.Partial:
		rep.Reason = fmt.Sprintf("stopped after %d of the shard's members", rec.Instances)
	}
	return rep, nil
}

func multinodeAlgorithm() Algorithm {
	return Algorithm{
		Name:    "multinode",
		Summary: "three-phase multi-node multicast over DDN/DCN subnetworks (001 §2.3, §4)",
		Doc: `The three-phase multi-node multicast of 001 §2.3: random multicasts (seeded, with a
hot-spot factor, 001 §4.4) are spread over the DDNs of a partition type (phase 1), sent
along a U-torus or U-mesh chain inside each DDN (phase 2) and collected in the DCNs
(phase 3). Stepwise contention is judged between multicasts. With compare, plain U-torus
(SPU on a mesh) and every type are built and tabulated; with latency, they are also
executed at flit level (001 §4.4's comparison).`,
		Properties: []Support{{checker.PropStepwise, props.SemStep}, {checker.PropExactlyOnce, props.SemStep}},
		Params: []Param{
			{"type", "III", "DDN type: I, II, III or IV"},
			{"h", "4", "dilation h (divides both sides)"},
			{"delta", "0", "Type III shift 1..h-1 (default h/2)"},
			{"sources", "80", "number of multicasts (distinct random sources)"},
			{"dests", "80", "destinations per multicast"},
			{"hotspot", "0.5", "hot-spot factor p in [0,1] (001 §4.4)"},
			{"select", "centralised", "Phase 1: centralised (round-robin), random or own (Types II, IV)"},
			{"phase2", "u-torus", "Phase 2 chain in the DDN: u-torus (SPU on a mesh) or u-mesh"},
			{"vc", "false", "judge contention per virtual channel with the two classes of 004 Fig. 2 (wrap-ahead), as U-torus is designed"},
			{"compare", "false", "also build plain U-torus (SPU on a mesh) and every type, and print the comparison table"},
			{"latency", "false", "with --compare: execute U-torus and 4IB..4IVB, 2IIIB, 2IVB at flit level and print their multicast latency (001 §4.4)"},
			{"latency-seeds", "3", "with --latency: instances (seeds --seed, --seed+1, ...) to average over"},
			{"ts", "300", "with --latency: start-up time in cycles (tc = 1)"},
			{"L", "32", "with --latency: message length in flits"},
			{"shared-cpu", "false", "with --latency: one processor per node for all multicasts (default: one per multicast)"},
		},
		prepare: prepareMultinode,
		schedule: func(_ context.Context, r *request) (*model.Schedule, error) {
			b, err := buildMultinode(r)
			if err != nil {
				return nil, err
			}
			// Types III and IV, whose worms go the DDN's way round each ring (not always
			// the shortest way), carry "routing": "explicit" (model.Schedule.Explicit), so
			// `wormcheck verify` accepts their paths as walks.
			s := b.plan.Schedule
			return &s, nil
		},
	}
}

// multinodeBuild is a built multinode instance with the parameters it was built from.
type multinodeBuild struct {
	g              *topology.Network
	in             multinode.Instance
	plan           *multinode.Plan
	p              partition.Params
	sel            multinode.Selection
	ch             multinode.Chain
	sources, dests int
	hotspot        float64
}

// buildMultinode reads the instance parameters, draws the instance and builds the
// three-phase schedule.
func buildMultinode(r *request) (*multinodeBuild, error) {
	if r.topology == "" {
		return nil, badf("--topo is missing; e.g. --topo torus:16x16")
	}
	g, err := topology.Parse(r.topology)
	if err != nil {
		return nil, badf("--topo: %v", err)
	}
	typ, err := partition.ParseType(r.str("type"))
	if err != nil {
		return nil, badf("--type: %v", err)
	}
	sel, err := multinode.ParseSelection(r.str("select"))
	if err != nil {
		return nil, badf("--select: %v", err)
	}
	chain, err := multinode.ParseChain(r.str("phase2"))
	if err != nil {
		return nil, badf("--phase2: %v", err)
	}
	h, err := r.integer("h", -1<<20, 1<<20)
	if err != nil {
		return nil, err
	}
	delta, err := r.integer("delta", -1<<20, 1<<20)
	if err != nil {
		return nil, err
	}
	sources, err := r.integer("sources", -1<<30, 1<<30)
	if err != nil {
		return nil, err
	}
	dests, err := r.integer("dests", -1<<30, 1<<30)
	if err != nil {
		return nil, err
	}
	hotspot, err := r.float("hotspot")
	if err != nil {
		return nil, err
	}
	p := partition.Params{Type: typ, H: h, Delta: delta}
	if typ == partition.TypeIII && p.Delta == 0 {
		p.Delta = max(1, h/2)
	}
	seed := uint64(r.opt.Seed)
	in, err := multinode.Generate(g, multinode.GenOptions{Sources: sources, Dests: dests, Hotspot: hotspot, Seed: seed})
	if err != nil {
		return nil, badf("%v", err)
	}
	plan, err := multinode.Build(in, multinode.Options{Partition: p, Select: sel, Phase2: chain, Seed: seed})
	if err != nil {
		return nil, badf("%v", err)
	}
	return &multinodeBuild{g: g, in: in, plan: plan, p: p, sel: sel, ch: chain, sources: sources, dests: dests, hotspot: hotspot}, nil
}

func prepareMultinode(r *request) (job, error) {
	b, err := buildMultinode(r)
	if err != nil {
		return nil, err
	}
	vc, err := r.boolean("vc")
	if err != nil {
		return nil, err
	}
	compare, err := r.boolean("compare")
	if err != nil {
		return nil, err
	}
	latency, err := r.boolean("latency")
	if err != nil {
		return nil, err
	}
	shared, err := r.boolean("shared-cpu")
	if err != nil {
		return nil, err
	}
	seeds, err := r.integer("latency-seeds", -1<<20, 1<<20)
	if err != nil {
		return nil, err
	}
	ts, err := r.integer("ts", -1<<30, 1<<30)
	if err != nil {
		return nil, err
	}
	flits, err := r.integer("L", -1<<30, 1<<30)
	if err != nil {
		return nil, err
	}
	if latency && !compare {
		return nil, badf("--latency needs --compare")
	}
	if latency && seeds < 1 {
		return nil, badf("--latency-seeds is %d; it must be >= 1", seeds)
	}
	sched := b.plan.Schedule
	if vc {
		v, err := sched.WithWrapAheadClasses()
		if err != nil {
			return nil, badf("--vc: %v", err)
		}
		sched = *v
	}
	return func(context.Context) (*props.Report, error) {
		start := time.Now()
		g, p := b.g, b.p
		res := multinode.Check(g, sched, b.plan.Dests)
		rep := r.report(g.Spec(), map[string]any{
			"type": p.Type.String(), "h": p.H, "delta": p.Delta, "sources": b.sources, "dests": b.dests,
			"hotspot": b.hotspot, "select": b.sel.String(), "phase2": b.ch.String(), "vc": vc, "seed": r.opt.Seed})
		rep.Verdict = props.Holds
		rep.Stats = props.Stats{Depth: res.Steps, Checked: int64(len(sched.Unicasts)), Unit: "unicasts"}
		switch {
		case res.Invalid != "":
			rep.Verdict, rep.Reason = props.Violated, res.Invalid
			rep.Witness = &props.Witness{Kind: props.WitnessInstance, Violation: res.Invalid, Detail: map[string]string{"invalid": res.Invalid}}
		case r.property == checker.PropStepwise && res.Contended != nil:
			rep.Verdict = props.Violated
			rep.Reason = fmt.Sprintf("multicast %d: %s and %s share %s in step %d", res.Contended.GroupA, res.Contended.First, res.Contended.Second, res.Contended.ChannelName, res.Contended.Step)
			rep.Witness = &props.Witness{Kind: props.WitnessPair, Violation: rep.Reason, Detail: res.Contended}
		}
		var text strings.Builder
		fmt.Fprintf(&text, "%s: %d multicasts, %d unicasts in %d steps; %d contending pairs between multicasts, %d node conflicts, max channel load %d\n",
			multinode.SchemeName(p, b.sel), len(b.in.Multicasts), len(b.plan.Schedule.Unicasts), res.Steps, res.CrossPairs, res.NodeConflicts, res.MaxLoad)
		if compare {
			h := p.H
			parts := []partition.Params{{Type: partition.TypeI, H: h}, {Type: partition.TypeII, H: h}}
			if g.Kind() == topology.Torus {
				parts = append(parts, partition.Params{Type: partition.TypeIII, H: h, Delta: max(1, h/2)}, partition.Params{Type: partition.TypeIV, H: h})
			}
			rows, err := compareSchemes(b.in, parts, b.sel, uint64(r.opt.Seed))
			if err != nil {
				return nil, badf("%v", err)
			}
			text.WriteString(schemeTable(rows))
			if latency {
				ss := make([]uint64, seeds)
				for i := range ss {
					ss[i] = uint64(r.opt.Seed) + uint64(i)
				}
				lrows, err := measureLatency(g, b.sources, b.dests, b.hotspot, multinode.PaperSchemes(g),
					latencyOptions{Ts: ts, L: flits, Seeds: ss, SharedCPU: shared})
				if err != nil {
					return nil, badf("--latency: %v", err)
				}
				text.WriteString(latencyTable(lrows))
			}
		}
		rep.Text = text.String()
		rep.Stats.Seconds = time.Since(start).Seconds()
		return rep, nil
	}, nil
}
