package main

import (
	"context"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// The unicast algorithm: worms under the topology's base routing (XY / dimension order,
// dateline classes on tori), checked for deadlock in the flit semantics.
//
//	--msgs "0->5,3->1"   worms as SRC->DST; nodes are numbers (dimension 0 fastest, so on
//	                     mesh:3x3 node 5 is (2,1)) or coordinates like (0,1)->(2,2)
//	--length L           flits per worm (header, body, tail), default 2
//	--buffers B          flits of buffer per virtual channel, default 1
//	--vcs V              virtual channels per physical channel (0 = the routing's classes)
//	--dateline on|off|auto   dateline VC classes on tori (auto = on for tori)
//	--ports one|all      one injection and ejection channel per node, or unlimited
//	--family all-placements:K   instead of --msgs: every connected placement of 1..K
//	                     worms with distinct (src,dst) pairs (up to mesh reflections; see
//	                     unicast.Connected); reports the first deadlocked instance
func init() {
	registerAlgo(algo{
		Name:    "unicast",
		Summary: "unicast worms under the base routing (XY / DOR, dateline VCs on tori), flit-level",
		Props:   []string{"deadlock"},
		Define:  defineUnicast,
		Replay:  replayUnicast,
	})
}

func defineUnicast(fs *flag.FlagSet, c *common) func(ctx context.Context) (*props.Report, error) {
	msgs := fs.String("msgs", "", `worms SRC->DST, comma-separated: "0->5,3->1" or "(0,1)->(2,2)"`)
	length := fs.Int("length", 2, "flits per worm")
	buffers := fs.Int("buffers", 1, "flits of buffer per virtual channel")
	vcs := fs.Int("vcs", 0, "virtual channels per physical channel (0 = the routing's classes)")
	dateline := fs.String("dateline", "auto", "dateline VC classes on tori: on, off or auto")
	ports := fs.String("ports", "all", "port model: one or all")
	family := fs.String("family", "", `check a family instead of --msgs: "all-placements:K"`)
	return func(ctx context.Context) (*props.Report, error) {
		if c.Topo == "" {
			return nil, usagef("--topo is missing; e.g. --topo torus:4")
		}
		if c.Symmetry {
			return nil, usagef("--symmetry is not supported by --algo unicast (use --family, which reduces by mesh reflections)")
		}
		dl, err := unicast.ParseDateline(*dateline)
		if err != nil {
			return nil, usagef("--dateline: %v", err)
		}
		pm, err := unicast.ParsePorts(*ports)
		if err != nil {
			return nil, usagef("--ports: %v", err)
		}
		if *length < 1 || *length > flit.MaxFlits {
			return nil, usagef("--length %d is out of range; use 1..%d", *length, flit.MaxFlits)
		}
		if *buffers < 1 || *buffers > flit.MaxBuffer {
			return nil, usagef("--buffers %d is out of range; use 1..%d", *buffers, flit.MaxBuffer)
		}
		sp := unicast.Spec{Topology: c.Topo, Length: *length, Buffer: *buffers, VCs: *vcs, Dateline: dl, Ports: pm}
		g, err := sp.Grid()
		if err != nil {
			return nil, usagef("--topo: %v", err)
		}
		sp.Topology = g.Spec()
		opt := checker.Options[flit.State]{
			Workers: c.Workers, MaxStates: c.MaxStates, MaxDepth: c.MaxDepth,
			MaxMemoryBytes: c.MaxMemMB << 20, Progress: c.Progress, Context: ctx,
		}
		if c.Store == "fingerprint" {
			opt.Store = checker.Fingerprint
		}
		if *family != "" {
			if *msgs != "" {
				return nil, usagef("--family and --msgs exclude each other")
			}
			k, ok := strings.CutPrefix(*family, "all-placements:")
			n, err := strconv.Atoi(k)
			if !ok || err != nil || n < 1 || n > 8 {
				return nil, usagef("--family %q is unknown; use all-placements:K with K in 1..8", *family)
			}
			return unicastFamily(ctx, sp, n, opt)
		}
		if *msgs == "" {
			return nil, usagef("--msgs is missing; e.g. --msgs '0->2,1->3' (or use --family all-placements:K)")
		}
		if sp.Pairs, err = unicast.ParsePairs(g, *msgs); err != nil {
			return nil, usagef("--%v", err)
		}
		m, err := unicast.BuildOn(g, sp)
		if err != nil {
			return nil, usagef("%v", err)
		}
		opt.Invariants = m.Invariants()
		r := unicast.SearchWith(m, opt)
		return unicastReport(sp, &r), nil
	}
}

// unicastFamily checks every canonical placement of 1..k worms and reports the first
// deadlock, or holds when every instance held.
func unicastFamily(ctx context.Context, sp unicast.Spec, k int, opt checker.Options[flit.State]) (*props.Report, error) {
	g, _ := sp.Grid()
	fam := unicast.Family{Topology: sp.Topology, MaxWorms: k, MinWorms: 1, Params: [][2]int{{sp.Length, sp.Buffer}}, VCs: sp.VCs, Dateline: sp.Dateline, Ports: sp.Ports, Connected: true}
	start := time.Now()
	var total unicast.Result
	instances, inconclusive := 0, 0
	for _, ps := range fam.Placements(g) {
		if ctx.Err() != nil {
			inconclusive++
			break
		}
		s := sp
		s.Pairs = ps
		m, err := unicast.BuildOn(g, s)
		if err != nil {
			return nil, usagef("%v", err)
		}
		o := opt
		o.Progress = nil
		o.Invariants = m.Invariants()
		r := unicast.SearchWith(m, o)
		instances++
		total.States += r.States
		total.Transitions += r.Transitions
		total.Depth = max(total.Depth, r.Depth)
		switch r.Verdict {
		case props.Violated:
			rep := unicastReport(s, &r)
			rep.Stats.States, rep.Stats.Transitions = total.States, total.Transitions
			rep.Stats.Seconds = time.Since(start).Seconds()
			rep.Stats.StatesPerSec = float64(total.States) / max(rep.Stats.Seconds, 1e-9)
			rep.Reason = fmt.Sprintf("instance %d of the family (%s) %s", instances, unicast.FormatPairs(ps), r.Violation)
			return rep, nil
		case props.Inconclusive:
			inconclusive++
		}
	}
	total.Verdict = props.Holds
	if inconclusive > 0 {
		total.Verdict = props.Inconclusive
		total.Violation = fmt.Sprintf("%d of %d instances reached a bound", inconclusive, instances)
	}
	total.Seconds = time.Since(start).Seconds()
	sp.Pairs = nil
	rep := unicastReport(sp, &total)
	rep.Instance.Params["family"] = fmt.Sprintf("all-placements:%d", k)
	rep.Instance.Params["instances"] = instances
	rep.Text = fmt.Sprintf("%d instances: every connected placement of 1..%d worms (worms that share no channel or port are decided by smaller placements)", instances, k)
	if g.Kind() == model.Mesh {
		rep.Text += ", up to mesh reflections"
	}
	return rep, nil
}

func unicastReport(sp unicast.Spec, r *unicast.Result) *props.Report {
	p := unicast.ParamsOf(sp)
	params := map[string]any{"msgs": p.Msgs, "length": p.Length, "buffers": p.Buffers, "vcs": p.VCs, "dateline": p.Dateline, "ports": p.Ports}
	rep := &props.Report{
		Instance: props.Instance{Topology: sp.Topology, Algorithm: "unicast", Params: params},
		Property: "deadlock", Semantics: "flit", Verdict: r.Verdict,
		Stats: props.Stats{States: r.States, Transitions: r.Transitions, Depth: r.Depth, Seconds: r.Seconds},
	}
	if r.Seconds > 0 {
		rep.Stats.StatesPerSec = float64(r.States) / r.Seconds
	}
	switch r.Verdict {
	case props.Violated:
		rep.Reason = r.Violation
		rep.Witness = map[string]any{"trace": r.Labels, "violation": r.Violation, "steps": len(r.Labels)}
		rep.Trace = unicast.TraceFile(sp, r)
		if r.Actions != nil {
			if m, tr, err := unicast.ReplayWitness(sp, r); err == nil {
				title, sub := unicast.Titles(sp, r)
				rep.SVG, rep.PCAP, _ = render.FlitFiles(m, tr, nil, title, sub, render.TraceNotes(r.Violation))
			}
		}
		var b strings.Builder
		fmt.Fprintf(&b, "shortest trace (%d steps):\n", len(r.Labels))
		for i, l := range r.Labels {
			fmt.Fprintf(&b, "%d %s\n", i+1, l)
		}
		rep.Text = b.String()
	case props.Inconclusive:
		rep.Reason = r.Violation
	}
	return rep
}

func replayUnicast(ctx context.Context, tf *props.TraceFile) (*props.Report, error) {
	sp, viol, err := unicast.ReplayTrace(tf)
	if err != nil {
		return nil, err
	}
	r := unicast.Result{Verdict: props.Violated, Violation: viol, Labels: tf.Labels}
	for _, a := range tf.Actions {
		r.Actions = append(r.Actions, checker.Action(a))
	}
	if viol == "" {
		r.Verdict = props.Holds
		r.Violation = "the trace replays but its last state shows no violation"
	} else if tf.Violation != "" && viol != tf.Violation {
		return nil, fmt.Errorf("trace file field \"violation\" is %q but the replay shows %q", tf.Violation, viol)
	}
	rep := unicastReport(sp, &r)
	if r.Verdict == props.Holds {
		rep.Reason = r.Violation
	}
	rep.Trace = nil
	return rep, nil
}
