package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/dcf"
	"github.com/wormcheck/wormcheck/algos/edn"
	"github.com/wormcheck/wormcheck/algos/plan"
	"github.com/wormcheck/wormcheck/algos/sbt"
	"github.com/wormcheck/wormcheck/algos/unicastmc"
	"github.com/wormcheck/wormcheck/algos/zblock"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// The unicast-based collectives: broadcasts DCF, Z_block and EDN on 2-D tori (004), SBT
// on hypercubes (003), and the one-port multicasts separate addressing, U-mesh, U-torus
// and SPU (001). Each builds a model.Schedule, judged by RunSchedule.

// scheduleSupport lists the schedule properties with the semantics each is decided in
// (package props/schedule), in the order help lists them.
func scheduleSupport() []Support {
	return []Support{
		{checker.PropStepwise, props.SemStep},
		{checker.PropDepth, props.SemTimed},
		{checker.PropExactlyOnce, props.SemStep},
		{checker.PropSteps, props.SemStep},
		{checker.PropStepsExact, props.SemStep},
		{checker.PropNodeContention, props.SemTimed},
		{checker.PropAnyDelay, props.SemAnyDelay},
		{checker.PropValidity, props.SemStep},
	}
}

// collectiveAlgorithms are the schedule-building collectives of the registry: all of
// them, or only the one named only (none if no collective has that name), so that
// Lookup, called once per check, builds one entry rather than eight.
func collectiveAlgorithms(only string) []Algorithm {
	type c struct{ name, summary, doc string }
	cs := []c{
		{"dcf", "DCF broadcast on a 4^k or 2·4^k square torus, all-port (004 §5.2; Fig. 7 reconstructed)",
			"The depth contention-free (DCF) broadcast of Hou, Wang & Hsu (004 §5.2) on an all-port 4^k x 4^k torus (k phases of two steps over 16-cell DCF blocks) or 2·4^k x 2·4^k torus (a final Z_block step), dimension-order routing; package algos/dcf documents the reconstruction of Fig. 7."},
		{"zblock", "Z_block broadcast on a 2^d x 2^d torus, all-port (004 §5.1)",
			"The Z_block broadcast of Hou, Wang & Hsu (004 §5.1, Figs. 5-6) on an all-port 2^d x 2^d torus: d steps, in each every informed node sends to the sources of the three other units of its block."},
		{"edn", "EDN broadcast on a 4^k or 2·4^k square torus, all-port (Tsai & McKinley; reconstructed)",
			"A reconstruction of the extended-dominating-node (EDN) broadcast of Tsai & McKinley (IEEE TPDS 7(8), 1996), the algorithm 004 compares DCF against, on an all-port 2^d x 2^d torus; package algos/edn says which facts it is rebuilt from."},
		{"sbt", "spanning binomial tree broadcast on a hypercube, all-port, rotating base (003 §2.2)",
			"The spanning binomial tree (SBT) broadcast of 003 §2.2 on an all-port binary n-cube: n steps of recursive doubling, dimensions taken in the order base, base+1, ... (mod n) (Abraham & Padmanabhan's rotating base)."},
		{"separate", "separate addressing multicast, one-port",
			"Separate addressing (003 §2.2, 001 §1): the source sends to every destination, one unicast per step, in chain order; one-port."},
		{"umesh", "U-mesh multicast, one-port (McKinley et al.; 001 §5.1)",
			"U-mesh (McKinley, Xu, Esfahanian & Ni, IEEE TPDS 5(12), 1994, reviewed in 001 §5.1): recursive doubling on the dimension-ordered chain of the source and destinations; one-port."},
		{"utorus", "U-torus multicast, one-port (Robinson et al.; 001 §4.2)",
			"U-torus (Robinson, McKinley & Cheng, IEEE TPDS 6(10), 1995, reviewed in 001 §4.2): the chain rotated so that the source leads, then recursive doubling; one-port. On a torus it contends per physical channel (claim NP8) but not per virtual-channel class."},
		{"spu", "source-partitioned U-mesh multicast, one-port (Kesavan & Panda; 001 §5.1)",
			"SPU, source-partitioned U-mesh (Kesavan & Panda, reviewed in 001 §5.1): U-torus's rotation applied on a mesh; one-port."},
	}
	out := make([]Algorithm, 0, len(cs))
	for _, c := range cs {
		if only != "" && c.name != only {
			continue
		}
		name := c.name
		sup := scheduleSupport()
		params := []Param{
			{"source", "0", "source node: a number or coordinates like (1,2)"},
			{"dests", "", `multicast destinations: "3,5,(1,2)" or "all"`},
			{"multicasts", "", `several multicasts: "SRC:D,D;SRC:D,D"`},
			{"ports", "", "port model override: one or all"},
			{"base", "0", "SBT base dimension"},
			{"steps", "0", "claimed step count: --prop steps checks at most this many (0: the lower bound only), steps-exact exactly this many"},
		}
		switch name {
		case "zblock":
			params = append(params, Param{"ties", "paper", "tie directions at distance k/2: paper (004 Fig. 6(b)'s, the unit (X-δ, Y+δ) the Minus way round) or plus (DOR's default rule)"})
		case "sbt":
			sup = append(sup, Support{checker.PropDistributions, props.SemStatic})
		case "separate", "umesh", "utorus", "spu":
			sup = append(sup, Support{checker.PropPortPairs, props.SemTimed}, Support{checker.PropChainBound, props.SemTimed})
			params = append(params, Param{"point", "", "timing point of --prop port-pairs and chain-bound as ts,tr,tc,L (e.g. 300,0,1,32); empty: for port-pairs the 128 points of props/schedule.DefaultGrid, for chain-bound 001 §4.4's three"})
		case "dcf", "edn":
			sup = append(sup, Support{checker.PropFormula, props.SemTimed}, Support{checker.PropFlitContention, props.SemSim})
			params = append(params, Param{"point", "", "timing point of --prop formula and flit-contention as ts,tr,tc,L (e.g. 200,200,1,32); empty: for formula the 128 points of props/schedule.DefaultGrid"})
		}
		out = append(out, Algorithm{
			Name: name, Summary: c.summary, Doc: c.doc,
			Properties: sup,
			Params:     params,
			prepare:    func(r *request) (job, error) { return prepareCollective(name, r) },
			schedule:   func(ctx context.Context, r *request) (*model.Schedule, error) { return buildCollective(ctx, name, r) },
			replay:     replaySchedule,
		})
	}
	return out
}

// maxDepthNodes bounds the networks the depth property is checked on: the decision is
// pairwise over channel-sharing unicasts and cross-checked by timed simulations, so its
// cost grows faster than the node count, and past this size a run would take long
// enough to look hung.
const maxDepthNodes = 512 * 512

func prepareCollective(name string, r *request) (job, error) {
	if r.topology == "" {
		return nil, badf("--topo is missing; e.g. --topo torus:16x16")
	}
	if r.property == checker.PropDepth { // the size bound is depth's: other checks build the topology once
		if g, err := topology.Parse(r.topology); err == nil && g.Nodes() > maxDepthNodes {
			return nil, errDepthSize(g)
		}
	}
	c, err := collectiveOf(name, r)
	if err != nil {
		return nil, err
	}
	return c.prepare(r)
}

// errDepthSize refuses the depth check of a broadcast on g, which has more than
// maxDepthNodes nodes.
func errDepthSize(g *topology.Network) error {
	return badf("--topo %s: a broadcast has %d unicasts; the exact depth check (pairwise, with timed simulations) takes about 20 s at 65536 unicasts and grows faster than that, so it is refused above %d nodes (512x512)",
		g.Spec(), g.Nodes()-1, maxDepthNodes)
}

// Collective is the typed request of the unicast-based collectives (the registry's
// dcf, zblock, edn, sbt, separate, umesh, utorus and spu): Algorithm, one of those
// names, builds its schedule on Grid, which is judged for a schedule property as
// RunSchedule judges it, or for one of the algorithm's own (formula, flit-contention,
// distributions, port-pairs, chain-bound). Options.Steps is the claimed step count of
// steps and steps-exact.
type Collective struct {
	Algorithm string
	Grid      *topology.Network
	// Source is a broadcast's source (dcf, zblock, edn, sbt); Multicasts are the
	// multicasts of separate, umesh, utorus and spu.
	Source     topology.NodeID
	Multicasts []unicastmc.Multicast
	// Base is SBT's base dimension; PlusTies makes Z_block break ties at distance k/2
	// the positive way (DOR's default rule) instead of 004 Fig. 6(b)'s way.
	Base     int
	PlusTies bool
	// Ports, when not nil, overrides the algorithm's port model.
	Ports *model.PortModel
	// Point, when not nil, is the one timing point of formula, flit-contention,
	// port-pairs and chain-bound, instead of their defaults.
	Point *props.Params

	given map[string]string // the parameters by name, when Run parsed them: saved with a trace
}

// Check checks c for property under opt, as Run does for the same instance given by
// name; errors wrapping ErrBadInput name the field at fault.
func (c Collective) Check(ctx context.Context, property checker.Property, opt Options) (*props.Report, error) {
	return Run(ctx, c, property, opt)
}

// jobFor validates c for property under opt and returns the job that checks it
// (Request).
func (c Collective) jobFor(property checker.Property, opt Options) (job, error) {
	if c.Grid == nil {
		return nil, badf("Collective.Grid is nil; give the topology (topology.Parse)")
	}
	as := collectiveAlgorithms(c.Algorithm)
	if len(as) != 1 {
		return nil, badf("Collective.Algorithm %q is not a collective; use dcf, zblock, edn, sbt, separate, umesh, utorus or spu", c.Algorithm)
	}
	return typedJob(as[0], "Collective", c.Grid.Spec(), property, opt, c.prepare)
}

// prepare validates c, builds its schedule and returns the job that checks it.
func (c Collective) prepare(r *request) (job, error) {
	name := c.Algorithm
	if r.property == checker.PropDepth && c.Grid.Nodes() > maxDepthNodes {
		return nil, errDepthSize(c.Grid)
	}
	s, err := c.build(nil)
	if err != nil {
		return nil, err
	}
	switch r.property {
	case checker.PropFormula:
		return prepareFormula(name, s, c.Point, r)
	case checker.PropDistributions:
		return prepareDistributions(s, r)
	case checker.PropPortPairs:
		return preparePortPairs(s, c.Point, r)
	case checker.PropChainBound:
		return prepareChainBound(s, c.Point, r)
	case checker.PropFlitContention:
		return prepareFlitContention(name, s, c.Point, r)
	}
	return func(ctx context.Context) (*props.Report, error) {
		start := time.Now()
		rep, err := RunSchedule(ctx, s, r.property, r.opt)
		if err != nil {
			return nil, err
		}
		rep.Instance.Algorithm = name
		rep.Instance.Params = map[string]any{"source": s.Topology.NodeName(s.Sources[0]), "ports": s.Ports.String(), "unicasts": len(s.Unicasts), "steps": s.Steps()}
		if name == "sbt" {
			rep.Instance.Params["base"] = c.Base
		}
		if len(s.Sources) > 1 {
			rep.Instance.Params["multicasts"] = len(s.Sources)
		}
		if rep.Stats.Seconds == 0 {
			rep.Stats.Seconds = time.Since(start).Seconds()
		}
		// The evidence is the schedule whatever the verdict: its picture is one panel per
		// step, or the contending pair with its timeline, titled by the algorithm.
		rep.Evidence = &props.ScheduleEvidence{Schedule: s, Contention: rep.ScheduleWitness(),
			Title: fmt.Sprintf("%s on %s from %s", name, c.Grid.Spec(), s.Topology.NodeName(s.Sources[0]))}
		if rep.Trace != nil {
			// The any-delay trace names the instance, so that Replay rebuilds the
			// schedule and re-executes it.
			rep.Trace.Algorithm = name
			rep.Trace.Topology = c.Grid.Spec()
			rep.Trace.Params, _ = json.Marshal(c.traceParams())
		}
		return rep, nil
	}, nil
}

// replaySchedule re-executes a saved any-delay trace of a schedule-building algorithm:
// it rebuilds the schedule from the trace's algorithm, topology and parameters and
// replays the worm events on the any-delay model.
func replaySchedule(ctx context.Context, tf *tracefile.File) (*props.Report, error) {
	if tf.Property != checker.PropAnyDelay {
		return nil, badf("trace file field \"property\" is %q; schedule traces are any-delay traces", tf.Property)
	}
	var params map[string]string
	if err := json.Unmarshal(tf.Params, &params); err != nil {
		return nil, badf("trace file field \"parameters\": %v", err)
	}
	s, err := BuildSchedule(ctx, Instance{Algorithm: tf.Algorithm, Topology: tf.Topology, Params: params}, Options{})
	if err != nil {
		return nil, err
	}
	rep, err := schedule.ReplayAnyDelay(s, tf)
	if err != nil {
		return nil, badf("%v", err)
	}
	rep.Instance.Algorithm = tf.Algorithm
	return rep, nil
}

// buildCollective parses the topology and parameters and builds the schedule; when ctx
// ends during the build it returns the builder's *plan.Stopped error.
func buildCollective(ctx context.Context, name string, r *request) (*model.Schedule, error) {
	c, err := collectiveOf(name, r)
	if err != nil {
		return nil, err
	}
	return c.build(func() bool { return ctx.Err() != nil })
}

// collectiveOf reads the topology and parameters of collective name into its typed
// request; the timing point only for the properties that take one.
func collectiveOf(name string, r *request) (Collective, error) {
	c := Collective{Algorithm: name, given: r.given()}
	if r.topology == "" {
		return c, badf("--topo is missing; e.g. --topo torus:16x16")
	}
	g, err := topology.Parse(r.topology)
	if err != nil {
		return c, badf("--topo: %v", err)
	}
	if g.IsGraph() {
		return c, badf("--topo %s: --algo %s needs a mesh, torus or hypercube", r.topology, name)
	}
	c.Grid = g
	srcArg := r.str("source")
	if strings.TrimSpace(srcArg) == "" {
		srcArg = "0"
	}
	if c.Source, err = g.ParseNode(srcArg); err != nil {
		return c, badf("--source: %v", err)
	}
	dests, multicasts, ports := r.str("dests"), r.str("multicasts"), r.str("ports")
	if c.Base, err = r.integer("base", 0, 64); err != nil {
		return c, err
	}
	if r.opt.Steps, err = r.integer("steps", 0, 1<<20); err != nil {
		return c, err
	}
	switch name {
	case "zblock":
		switch ties := r.str("ties"); ties {
		case "paper":
		case "plus":
			c.PlusTies = true
		default:
			return c, badf("--ties %q is unknown; use paper or plus", ties)
		}
	case "separate", "umesh", "utorus", "spu":
		if c.Multicasts, err = parseMulticasts(g, c.Source, dests, multicasts); err != nil {
			return c, err
		}
	}
	switch strings.ToLower(ports) {
	case "":
	case "one":
		c.Ports = new(model.OnePort)
	case "all":
		c.Ports = new(model.AllPort)
	default:
		return c, badf("--ports %q is unknown; use one or all", ports)
	}
	switch r.property {
	case checker.PropFormula, checker.PropPortPairs, checker.PropChainBound, checker.PropFlitContention:
		if pt := strings.TrimSpace(r.str("point")); pt != "" {
			p, err := parsePoint(pt)
			if err != nil {
				return c, badf("--point %v", err)
			}
			c.Point = &p
		}
	}
	return c, nil
}

// build builds c's schedule.
func (c Collective) build(stop func() bool) (*model.Schedule, error) {
	g, src, name := c.Grid, c.Source, c.Algorithm
	if int(src) < 0 || int(src) >= g.Nodes() {
		return nil, badf("--source: node %d is not on %s", src, g.Spec())
	}
	var s *model.Schedule
	var err error
	switch name {
	case "dcf":
		s, err = dcf.BuildStop(g, src, stop)
	case "zblock":
		opt := zblock.Options{Ties: zblock.PaperTies, Stop: stop}
		if c.PlusTies {
			opt.Ties = zblock.PlusTies
		}
		s, err = zblock.BuildWith(g, src, opt)
	case "edn":
		s, err = edn.BuildStop(g, src, stop)
	case "sbt":
		s, err = sbt.BuildStop(g, src, c.Base, stop)
	case "separate", "umesh", "utorus", "spu":
		sch, _ := unicastmc.ParseScheme(name)
		if len(c.Multicasts) == 0 {
			return nil, badf(`--dests is missing; give destinations such as "3,5,(1,2)" or "all"`)
		}
		s, err = unicastmc.BuildManyStop(g, sch, c.Multicasts, stop)
	default:
		return nil, badf("--algo %q is not a collective", name)
	}
	if stopped := (*plan.Stopped)(nil); errors.As(err, &stopped) {
		return nil, err // not bad input: the caller's ctx ended the build
	}
	if err != nil {
		return nil, badf("--algo %s: %v", name, err)
	}
	if c.Ports != nil {
		s.Ports = *c.Ports
	}
	return s, nil
}

// traceParams are the parameters a saved trace of c names its instance by, as the
// command line spells them, so that Replay rebuilds the schedule (BuildSchedule).
func (c Collective) traceParams() map[string]string {
	if c.given != nil {
		return c.given
	}
	g := c.Grid
	p := map[string]string{"source": g.NodeName(c.Source)}
	if len(c.Multicasts) > 0 {
		parts := make([]string, len(c.Multicasts))
		for i, m := range c.Multicasts {
			ds := make([]string, len(m.Destinations))
			for j, d := range m.Destinations {
				ds[j] = g.NodeName(d)
			}
			parts[i] = g.NodeName(m.Source) + ":" + strings.Join(ds, ",")
		}
		p["multicasts"] = strings.Join(parts, ";")
	}
	if c.Base != 0 {
		p["base"] = strconv.Itoa(c.Base)
	}
	if c.Algorithm == "zblock" {
		p["ties"] = map[bool]string{false: "paper", true: "plus"}[c.PlusTies]
	}
	if c.Ports != nil {
		p["ports"] = map[model.PortModel]string{model.OnePort: "one", model.AllPort: "all"}[*c.Ports]
	}
	return p
}

// parseMulticasts reads multicasts ("SRC:D,D;SRC:D,D"), or the source with dests.
func parseMulticasts(g *topology.Network, src topology.NodeID, dests, multicasts string) ([]unicastmc.Multicast, error) {
	if multicasts != "" {
		if strings.TrimSpace(dests) != "" {
			return nil, badf("--dests and --multicasts: give one; --multicasts names the destinations of every multicast")
		}
		var out []unicastmc.Multicast
		for i, part := range strings.Split(multicasts, ";") {
			sp, dl, ok := strings.Cut(part, ":")
			if !ok {
				return nil, badf("--multicasts: multicast %d %q has no ':'; write SRC:D,D", i+1, part)
			}
			s, err := g.ParseNode(sp)
			if err != nil {
				return nil, badf("--multicasts: multicast %d source: %v", i+1, err)
			}
			ds, err := parseNodeList(g, s, dl)
			if err != nil {
				return nil, badf("--multicasts: multicast %d: %v", i+1, err)
			}
			out = append(out, unicastmc.Multicast{Source: s, Destinations: ds})
		}
		return out, nil
	}
	if strings.TrimSpace(dests) == "" {
		return nil, badf(`--dests is missing; give destinations such as "3,5,(1,2)" or "all"`)
	}
	ds, err := parseNodeList(g, src, dests)
	if err != nil {
		return nil, badf("--dests: %v", err)
	}
	return []unicastmc.Multicast{{Source: src, Destinations: ds}}, nil
}

// parseNodeList reads a comma list of nodes (numbers, or coordinates "(x,y)" whose commas
// belong to the coordinates), or "all" for every node but src. A destination equal to
// src or listed twice is an error.
func parseNodeList(g *topology.Network, src topology.NodeID, list string) ([]topology.NodeID, error) {
	if strings.TrimSpace(list) == "all" {
		var out []topology.NodeID
		for v := 0; v < g.Nodes(); v++ {
			if topology.NodeID(v) != src {
				out = append(out, topology.NodeID(v))
			}
		}
		return out, nil
	}
	seen := map[topology.NodeID]bool{}
	var out []topology.NodeID
	for _, it := range topology.SplitList(list) {
		v, err := g.ParseNode(it)
		if err != nil {
			return nil, err
		}
		if v == src {
			return nil, fmt.Errorf("destination %s is the source", g.NodeName(v))
		}
		if seen[v] {
			return nil, fmt.Errorf("destination %s is listed twice", g.NodeName(v))
		}
		seen[v] = true
		out = append(out, v)
	}
	return out, nil
}
