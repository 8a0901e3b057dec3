package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/multinode"
	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// This file holds the network-partitioning family of 001: the `partition` command
// (subnetworks, DCNs, contention levels, P1-P5, strong connectivity, an SVG) and the
// `multinode` algorithm of `check` (the three-phase multi-node multicast schedule).

const partitionHelp = `wormcheck partition --topo T --type I..IV --h H [--delta D] [--json] [--svg F]

Builds the data-distributing networks (DDNs) of the given type and the data-collecting
networks (DCNs) of 001 (Wang, Tseng, Shiu & Sheu) on a 2-D torus or mesh, counts their
node and link contention levels (Definition 3) and judges P1-P5 and the strong
connectivity of every subnetwork under its own channels. The exit code is 0 when every
property holds, 1 when one is violated (e.g. a directed type on a mesh), 3 when an
isomorphism search was inconclusive.

Flags:
  --topo T      torus:SxT or mesh:SxT (h must divide both sides)
  --type T      I, II, III or IV (Definitions 4-7)
  --h H         dilation
  --delta D     Type III shift, 1..h-1 (default h/2)
  --json        one object: version, command, topology, type, h, delta, "subnetworks"
                (count), "dcns" (count), "node_level", "link_level", witnesses, properties,
                and every DDN's members
  --svg F       draw the DDNs (one colour each) and the DCN blocks to F

Examples:
  wormcheck partition --topo torus:16x16 --type III --h 4 --delta 2 --svg fig3.svg
  wormcheck partition --topo mesh:8x8 --type IV --h 2
`

func init() {
	registerCommand(&command{Name: "partition", Summary: "DDN/DCN subnetworks of 001, their contention levels and P1-P5", Help: partitionHelp, Run: runPartition})
	registerAlgo(algo{
		Name:    "multinode",
		Summary: "three-phase multi-node multicast over DDN/DCN subnetworks (001 §2.3, §4)",
		Props:   []string{"stepwise", "exactly-once"},
		Define:  defineMultinode,
	})
}

// partitionOptions are the parsed flags of `partition`.
type partitionOptions struct {
	Topo, Type string
	H, Delta   int
	JSON       bool
	SVG        string
}

// PartitionReport is the `partition --json` object (DESIGN.md: "subnetworks", "node_level",
// "link_level").
type PartitionReport struct {
	Version     string            `json:"version"`
	Command     string            `json:"command"`
	Topology    string            `json:"topology"`
	Type        string            `json:"type"`
	H           int               `json:"h"`
	Delta       int               `json:"delta,omitempty"`
	Subnetworks int               `json:"subnetworks"`
	DCNs        int               `json:"dcns"`
	NodeLevel   int               `json:"node_level"`
	LinkLevel   int               `json:"link_level"`
	NodeWitness string            `json:"node_witness"`
	LinkWitness string            `json:"link_witness"`
	DCNLevels   [2]int            `json:"dcn_levels"`
	Verdict     props.Verdict     `json:"verdict"`
	Properties  []partition.Check `json:"properties"`
	DDNs        []SubnetworkJSON  `json:"ddns"`
}

// SubnetworkJSON describes one DDN for people and scripts.
type SubnetworkJSON struct {
	Name        string   `json:"name"`
	Orientation string   `json:"orientation"`
	Members     []string `json:"members"`
	Channels    int      `json:"channels"`
}

// buildPartitionReport does the work of `partition` without any I/O, so tests and the
// lead's wiring can call it directly. Errors are bad input.
func buildPartitionReport(o partitionOptions) (*PartitionReport, *model.Grid, []partition.Subnetwork, []partition.Subnetwork, error) {
	if o.Topo == "" {
		return nil, nil, nil, nil, usagef("--topo is missing; e.g. --topo torus:16x16")
	}
	g, err := model.ParseGrid(o.Topo)
	if err != nil {
		return nil, nil, nil, nil, usagef("--topo: %v", err)
	}
	typ, err := partition.ParseType(o.Type)
	if err != nil {
		return nil, nil, nil, nil, usagef("--type: %v", err)
	}
	p := partition.Params{Type: typ, H: o.H, Delta: o.Delta}
	if typ == partition.TypeIII && p.Delta == 0 {
		p.Delta = max(1, o.H/2)
	}
	ddns, err := partition.DDNs(g, p)
	if err != nil {
		return nil, nil, nil, nil, usagef("%v", err)
	}
	dcns, err := partition.DCNs(g, p.H)
	if err != nil {
		return nil, nil, nil, nil, usagef("%v", err)
	}
	pr := partition.CheckProperties(g, ddns, dcns, partition.IsoOptions{})
	rep := &PartitionReport{Version: toolVersion(), Command: "partition", Topology: g.Spec(), Type: typ.String(), H: p.H, Delta: p.Delta,
		Subnetworks: len(ddns), DCNs: len(dcns), NodeLevel: pr.Levels.Node, LinkLevel: pr.Levels.Link,
		DCNLevels: [2]int{pr.DCNLevels.Node, pr.DCNLevels.Link}, Properties: pr.Checks, Verdict: props.Holds}
	if pr.Levels.NodeWitness != model.None {
		rep.NodeWitness = g.NodeName(pr.Levels.NodeWitness)
	}
	if pr.Levels.LinkWitness != model.None {
		rep.LinkWitness = g.ChannelName(pr.Levels.LinkWitness)
	}
	for _, c := range pr.Checks {
		switch {
		case c.Verdict == props.Violated:
			rep.Verdict = props.Violated
		case c.Verdict == props.Inconclusive && rep.Verdict == props.Holds:
			rep.Verdict = props.Inconclusive
		}
	}
	for _, s := range ddns {
		j := SubnetworkJSON{Name: s.Name, Orientation: s.Orientation.String(), Channels: len(s.Channels)}
		for _, v := range s.Nodes {
			j.Members = append(j.Members, g.NodeName(v))
		}
		rep.DDNs = append(rep.DDNs, j)
	}
	return rep, g, ddns, dcns, nil
}

// partitionText renders the report for people.
func partitionText(r *PartitionReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, Type %s, h=%d", r.Topology, r.Type, r.H)
	if r.Type == "III" {
		fmt.Fprintf(&b, ", delta=%d", r.Delta)
	}
	fmt.Fprintf(&b, ": %d DDNs, %d DCNs: %s\n", r.Subnetworks, r.DCNs, strings.ToUpper(r.Verdict.String()))
	fmt.Fprintf(&b, "  node contention level %d (e.g. %s), link contention level %d (e.g. %s)\n", r.NodeLevel, r.NodeWitness, r.LinkLevel, r.LinkWitness)
	fmt.Fprintf(&b, "  DCNs: node level %d, link level %d\n", r.DCNLevels[0], r.DCNLevels[1])
	for _, c := range r.Properties {
		fmt.Fprintf(&b, "  %-24s %s", c.Property, c.Verdict)
		if c.Witness != "" {
			fmt.Fprintf(&b, ": %s", c.Witness)
		}
		b.WriteByte('\n')
	}
	for _, s := range r.DDNs {
		members := s.Members
		more := ""
		if len(members) > 8 {
			members, more = members[:8], fmt.Sprintf(" ... (%d members)", len(s.Members))
		}
		fmt.Fprintf(&b, "  %-8s %-10s %4d channels  %s%s\n", s.Name, s.Orientation, s.Channels, strings.Join(members, " "), more)
	}
	return b.String()
}

func runPartition(ctx context.Context, e *env, args []string) (int, error) {
	var o partitionOptions
	fs := newFlagSet("partition")
	fs.StringVar(&o.Topo, "topo", "", "topology: torus:SxT or mesh:SxT")
	fs.StringVar(&o.Type, "type", "", "DDN type: I, II, III or IV")
	fs.IntVar(&o.H, "h", 0, "dilation h (divides both sides)")
	fs.IntVar(&o.Delta, "delta", 0, "Type III shift 1..h-1 (default h/2)")
	fs.BoolVar(&o.JSON, "json", false, "print one JSON object")
	fs.StringVar(&o.SVG, "svg", "", "draw the subnetworks to this SVG file")
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, errHelp) {
			fmt.Fprint(e.Stdout, partitionHelp)
			return exitHolds, nil
		}
		return 0, err
	}
	if o.Type == "" {
		return 0, usagef("--type is missing; use I, II, III or IV")
	}
	if o.H == 0 {
		return 0, usagef("--h is missing; give the dilation, e.g. --h 4")
	}
	rep, g, ddns, dcns, err := buildPartitionReport(o)
	if err != nil {
		return 0, err
	}
	if o.SVG != "" {
		pic, err := render.Partition(g, renderSubnetworks(ddns), renderSubnetworks(dcns), render.PartitionOptions{
			Title: fmt.Sprintf("DDN partition Type %s of %s, h=%d", o.Type, o.Topo, o.H)})
		if err != nil {
			return 0, err
		}
		if err := os.WriteFile(o.SVG, pic, 0o644); err != nil {
			return 0, fmt.Errorf("writing picture: %v", err)
		}
	}
	if o.JSON {
		if err := writeJSON(e.Stdout, rep); err != nil {
			return 0, err
		}
	} else {
		fmt.Fprint(e.Stdout, partitionText(rep))
	}
	return rep.Verdict.ExitCode(), nil
}

// multinodeFlags are the algorithm flags of `check --algo multinode`.
type multinodeFlags struct {
	Type           string
	H, Delta       int
	Sources, Dests int
	Hotspot        float64
	Select         string
	Phase2         string
	Compare        bool
	VC             bool
	// Latency options of --compare --latency (001 §4.4's flit-level comparison).
	Latency      bool
	LatencySeeds int
	Ts, L        int
	SharedCPU    bool
}

func defineMultinode(fs *flag.FlagSet, c *common) func(ctx context.Context) (*props.Report, error) {
	f := defineMultinodeFlags(fs)
	return func(ctx context.Context) (*props.Report, error) {
		start := time.Now()
		rep, err := runMultinode(c, *f)
		if err != nil {
			return nil, err
		}
		rep.Stats.Seconds = time.Since(start).Seconds()
		return rep, nil
	}
}

// defineMultinodeFlags adds the instance flags of the multi-node multicast to fs; `check
// --algo multinode` and `schedule --algo multinode` share them.
func defineMultinodeFlags(fs *flag.FlagSet) *multinodeFlags {
	f := &multinodeFlags{}
	fs.StringVar(&f.Type, "type", "III", "DDN type: I, II, III or IV")
	fs.IntVar(&f.H, "h", 4, "dilation h (divides both sides)")
	fs.IntVar(&f.Delta, "delta", 0, "Type III shift 1..h-1 (default h/2)")
	fs.IntVar(&f.Sources, "sources", 80, "number of multicasts (distinct random sources)")
	fs.IntVar(&f.Dests, "dests", 80, "destinations per multicast")
	fs.Float64Var(&f.Hotspot, "hotspot", 0.5, "hot-spot factor p in [0,1] (001 §4.4)")
	fs.StringVar(&f.Select, "select", "centralised", "Phase 1: centralised (round-robin), random or own (Types II, IV)")
	fs.StringVar(&f.Phase2, "phase2", "u-torus", "Phase 2 chain in the DDN: u-torus (SPU on a mesh) or u-mesh")
	fs.BoolVar(&f.VC, "vc", false, "judge contention per virtual channel with the two classes of 004 Fig. 2 (wrap-ahead), as U-torus is designed")
	fs.BoolVar(&f.Compare, "compare", false, "also build plain U-torus (SPU on a mesh) and every type, and print the comparison table")
	fs.BoolVar(&f.Latency, "latency", false, "with --compare: execute U-torus and 4IB..4IVB, 2IIIB, 2IVB at flit level and print their multicast latency (001 §4.4)")
	fs.IntVar(&f.LatencySeeds, "latency-seeds", 3, "with --latency: instances (seeds --seed, --seed+1, ...) to average over")
	fs.IntVar(&f.Ts, "ts", 300, "with --latency: start-up time in cycles (tc = 1)")
	fs.IntVar(&f.L, "L", 32, "with --latency: message length in flits")
	fs.BoolVar(&f.SharedCPU, "shared-cpu", false, "with --latency: one processor per node for all multicasts (default: one per multicast)")
	return f
}

// multinodeBuild is a built multinode instance with the parameters it was built from.
type multinodeBuild struct {
	g    *model.Grid
	in   multinode.Instance
	plan *multinode.Plan
	p    partition.Params
	sel  multinode.Selection
	ch   multinode.Chain
}

// buildMultinode parses the flags, draws the instance and builds the three-phase
// schedule. Errors are bad input.
func buildMultinode(topo string, seed int64, f multinodeFlags) (*multinodeBuild, error) {
	if topo == "" {
		return nil, usagef("--topo is missing; e.g. --topo torus:16x16")
	}
	g, err := model.ParseGrid(topo)
	if err != nil {
		return nil, usagef("--topo: %v", err)
	}
	typ, err := partition.ParseType(f.Type)
	if err != nil {
		return nil, usagef("--type: %v", err)
	}
	sel, err := multinode.ParseSelection(f.Select)
	if err != nil {
		return nil, usagef("--select: %v", err)
	}
	chain, err := multinode.ParseChain(f.Phase2)
	if err != nil {
		return nil, usagef("--phase2: %v", err)
	}
	p := partition.Params{Type: typ, H: f.H, Delta: f.Delta}
	if typ == partition.TypeIII && p.Delta == 0 {
		p.Delta = max(1, f.H/2)
	}
	in, err := multinode.Generate(g, multinode.GenOptions{Sources: f.Sources, Dests: f.Dests, Hotspot: f.Hotspot, Seed: uint64(seed)})
	if err != nil {
		return nil, usagef("%v", err)
	}
	plan, err := multinode.Build(in, multinode.Options{Partition: p, Select: sel, Phase2: chain, Seed: uint64(seed)})
	if err != nil {
		return nil, usagef("%v", err)
	}
	return &multinodeBuild{g: g, in: in, plan: plan, p: p, sel: sel, ch: chain}, nil
}

// multinodeScheduleFile builds the multinode schedule and returns it as a schedule file
// (model.MarshalSchedule), for the lead to wire into `wormcheck schedule --algo
// multinode`. Types III and IV, whose worms go the DDN's way round each ring (not always
// the shortest way), are written with "routing": "explicit" (model.Schedule.Explicit), so
// `wormcheck verify` accepts their paths as walks and judges them; Types I and II keep
// the strict DOR paths.
func multinodeScheduleFile(topo string, seed int64, f multinodeFlags) ([]byte, error) {
	b, err := buildMultinode(topo, seed, f)
	if err != nil {
		return nil, err
	}
	out, err := model.MarshalSchedule(&b.plan.Schedule)
	if err != nil {
		return nil, usagef("schedule: %v", err)
	}
	return out, nil
}

// runMultinode builds the instance and the schedule and judges the property.
func runMultinode(c *common, f multinodeFlags) (*props.Report, error) {
	b, err := buildMultinode(c.Topo, c.Seed, f)
	if err != nil {
		return nil, err
	}
	g, in, plan, p, sel, chain := b.g, b.in, b.plan, b.p, b.sel, b.ch
	typ := p.Type
	sched := plan.Schedule
	if f.VC {
		vc, err := sched.WithWrapAheadClasses()
		if err != nil {
			return nil, usagef("--vc: %v", err)
		}
		sched = *vc
	}
	r := multinode.Check(g, sched, plan.Dests)
	rep := &props.Report{
		Instance: props.Instance{Topology: g.Spec(), Algorithm: "multinode", Params: map[string]any{
			"type": typ.String(), "h": p.H, "delta": p.Delta, "sources": f.Sources, "dests": f.Dests,
			"hotspot": f.Hotspot, "select": sel.String(), "phase2": chain.String(), "vc": f.VC, "seed": c.Seed}},
		Property:  c.Prop,
		Semantics: "step",
		Verdict:   props.Holds,
		Stats:     props.Stats{Depth: r.Steps},
	}
	switch {
	case r.Invalid != "":
		rep.Verdict, rep.Reason = props.Violated, r.Invalid
		rep.Witness = map[string]string{"invalid": r.Invalid}
	case c.Prop == "stepwise" && r.Contended != nil:
		rep.Verdict = props.Violated
		rep.Reason = fmt.Sprintf("multicast %d: %s and %s share %s in step %d", r.Contended.GroupA, r.Contended.First, r.Contended.Second, r.Contended.ChannelName, r.Contended.Step)
		rep.Witness = r.Contended
	}
	var text strings.Builder
	fmt.Fprintf(&text, "%s: %d multicasts, %d unicasts in %d steps; %d contending pairs between multicasts, %d node conflicts, max channel load %d\n",
		multinode.SchemeName(p, sel), len(in.Multicasts), len(plan.Schedule.Unicasts), r.Steps, r.CrossPairs, r.NodeConflicts, r.MaxLoad)
	if f.Compare {
		parts := []partition.Params{{Type: partition.TypeI, H: f.H}, {Type: partition.TypeII, H: f.H}}
		if g.Kind() == model.Torus {
			parts = append(parts, partition.Params{Type: partition.TypeIII, H: f.H, Delta: max(1, f.H/2)}, partition.Params{Type: partition.TypeIV, H: f.H})
		}
		rows, err := multinode.Compare(in, parts, sel, uint64(c.Seed))
		if err != nil {
			return nil, usagef("%v", err)
		}
		text.WriteString(multinode.Table(rows))
		if f.Latency {
			if f.LatencySeeds < 1 {
				return nil, usagef("--latency-seeds is %d; it must be >= 1", f.LatencySeeds)
			}
			seeds := make([]uint64, f.LatencySeeds)
			for i := range seeds {
				seeds[i] = uint64(c.Seed) + uint64(i)
			}
			lrows, err := multinode.MeasureLatency(g, f.Sources, f.Dests, f.Hotspot, multinode.PaperSchemes(g),
				multinode.LatencyOptions{Ts: f.Ts, L: f.L, Seeds: seeds, SharedCPU: f.SharedCPU})
			if err != nil {
				return nil, usagef("--latency: %v", err)
			}
			text.WriteString(multinode.LatencyTable(lrows))
		}
	} else if f.Latency {
		return nil, usagef("--latency needs --compare")
	}
	rep.Text = text.String()
	return rep, nil
}

// renderSubnetworks converts subnetworks for props/render, which does not import algos.
func renderSubnetworks(subs []partition.Subnetwork) []render.Subnetwork {
	out := make([]render.Subnetwork, len(subs))
	for i, s := range subs {
		out[i] = render.Subnetwork{Name: s.Name, Directed: s.Orientation != partition.Undirected, Nodes: s.Nodes, Channels: s.Channels}
	}
	return out
}
