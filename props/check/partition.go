package check

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/multinode"
	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/model"
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
connected checks that every DDN is strongly connected under its own channels (001 §3.1-3.2).`,
		Properties: []Support{{props.PropLevels, props.SemStatic}, {props.PropP1P5, props.SemStatic}, {props.PropConnected, props.SemStatic}},
		Params: []Param{
			{"type", "", "DDN type: I, II, III or IV"},
			{"h", "0", "dilation h; it must divide both sides"},
			{"delta", "0", "Type III shift, 1..h-1 (0: h/2)"},
		},
		prepare: preparePartition,
	}
}

func preparePartition(r *request) (job, error) {
	if r.topology == "" {
		return nil, badf("--topo is missing; e.g. --topo torus:8x8")
	}
	g, err := model.ParseGrid(r.topology)
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
	ddns, err := partition.DDNs(g, p)
	if err != nil {
		return nil, badf("%v", err)
	}
	params := map[string]any{"type": typ.String(), "h": h}
	if typ == partition.TypeIII {
		params["delta"] = p.Delta
	}
	return func(context.Context) (*props.Report, error) {
		start := time.Now()
		rep := r.report(g.Spec(), params)
		rep.Command, rep.Verdict = "check", props.Holds
		var err error
		switch r.property {
		case props.PropLevels:
			subnetworks.Levels(g, p, ddns, rep)
		case props.PropP1P5:
			err = subnetworks.P1P5(g, p, ddns, rep)
		case props.PropConnected:
			subnetworks.Connected(g, p, ddns, rep)
		}
		rep.Stats.Seconds = time.Since(start).Seconds()
		return rep, err
	}, nil
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
		Properties: []Support{{props.PropStepwise, props.SemStep}, {props.PropExactlyOnce, props.SemStep}},
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
		schedule: func(r *request) (*model.Schedule, error) {
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
	g              *model.Grid
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
	g, err := model.ParseGrid(r.topology)
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
		case r.property == "stepwise" && res.Contended != nil:
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
			if g.Kind() == model.Torus {
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
