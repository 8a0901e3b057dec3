package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/internal/atomicfile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/props"
)

// The tree-mcast algorithm: tree-based multicast with pruning (000 §2-§3) on a 2-D (or
// n-D) mesh with XY / dimension-order routing, or a torus with DOR and two dateline
// virtual channels, checked in the flit semantics.
//
//	--msgs "(0,0)->(2,0),(2,2);(2,2)->(0,2),(0,0)"
//	                     multicasts separated by ';', each SRC->D1,D2,...; nodes are
//	                     coordinate tuples; destinations in worm order (d1 first, 000 Fig. 1)
//	--family pairs:K[:ordered]   instead of --msgs: every unordered pair of multicasts with
//	                     1..K destinations (sets in ascending order; ":ordered" for every
//	                     order); --symmetry keeps one pair per orbit of mesh reflections
//	--shard i/n          check only members with index = i mod n (0 <= i < n)
//	--result F.json      write the family result that `wormcheck merge` joins
//	--pruning P          none | on-no-free (alias total: 000 §4, a header finds no free
//	                     output) | on-stop (alias total-stall: 000 §3, whenever a branch
//	                     stops; the default) | partial
//	--length L           data flits per message (default 1, 000 §5.1)
//	--buffers B          flits per virtual-channel buffer (default 2, 000 §5.1)
//	--ports one|all      one injection and one delivery channel per node (default), or all
//
// Properties: deadlock; exactly-once (TM3: exactly-once delivery and XY branches as
// invariants in every reachable state, plus deadlock).
func init() {
	registerAlgo(algo{
		Name:    "tree-mcast",
		Summary: "tree-based multicast with pruning (000), flit-level: --msgs or --family pairs:K",
		Props:   []string{treemcast.PropDeadlock, treemcast.PropExactlyOnce},
		Define:  defineTreeMcast,
		Replay:  replayTreeMcast,
	})
}

func defineTreeMcast(fs *flag.FlagSet, c *common) func(ctx context.Context) (*props.Report, error) {
	msgs := fs.String("msgs", "", `multicasts "SRC->D1,D2;SRC->D1": e.g. "(0,0)->(2,0),(2,2);(2,2)->(0,2),(0,0)"`)
	family := fs.String("family", "", `check a family instead of --msgs: "pairs:K" or "pairs:K:ordered"`)
	shard := fs.String("shard", "0/1", "with --family: check members i mod n (\"i/n\", 0 <= i < n)")
	result := fs.String("result", "", "with --family: write the family result (JSON, for wormcheck merge) to this `file`, updated as members finish")
	resume := fs.String("resume", "", "with --family: continue the result in this `file` (a missing file starts afresh); the result goes back to it unless --result names another")
	every := fs.Duration("checkpoint-every", time.Second, "with --result: rewrite the result file at most this often as members finish")
	pruning := fs.String("pruning", "on-stop", "pruning policy: none, on-no-free (total), on-stop (total-stall) or partial")
	length := fs.Int("length", 1, "data flits per message")
	buffers := fs.Int("buffers", 2, "flits per virtual-channel buffer")
	ports := fs.String("ports", "one", "port model: one or all")
	return func(ctx context.Context) (*props.Report, error) {
		if c.Topo == "" {
			return nil, usagef("--topo is missing; e.g. --topo mesh:3x3")
		}
		g, err := model.ParseGrid(c.Topo)
		if err != nil {
			return nil, usagef("--topo: %v", err)
		}
		pr, err := treemcast.ParsePrune(*pruning)
		if err != nil {
			return nil, usagef("--%v", err)
		}
		pm, err := treemcast.ParsePorts(*ports + "-port")
		if err != nil {
			return nil, usagef("--ports %q is unknown; use one or all", *ports)
		}
		if *length < 1 || *length > 16 {
			return nil, usagef("--length %d is out of range; use 1..16 data flits", *length)
		}
		if *buffers < 1 || *buffers > flit.MaxBuffer {
			return nil, usagef("--buffers %d is out of range; use 1..%d", *buffers, flit.MaxBuffer)
		}
		params := treemcast.Params{Prune: pr, Length: *length, Buffer: *buffers, Ports: pm}
		if *family != "" {
			if *msgs != "" {
				return nil, usagef("--family and --msgs exclude each other")
			}
			f, err := treemcast.ParseFamily(g, *family)
			if err != nil {
				return nil, usagef("--%v", err)
			}
			f.Symmetry = c.Symmetry
			sh, err := treemcast.ParseShard(*shard)
			if err != nil {
				return nil, usagef("--%v", err)
			}
			if *every <= 0 {
				return nil, usagef("--checkpoint-every %v must be positive", *every)
			}
			return treeMcastFamily(ctx, c, f, sh, params, *result, *resume, *every)
		}
		if *msgs == "" {
			return nil, usagef("--msgs is missing; e.g. --msgs '(0,0)->(2,0),(2,2);(2,2)->(0,2),(0,0)' (or use --family pairs:K)")
		}
		if *result != "" || *resume != "" || *shard != "0/1" {
			return nil, usagef("--result, --resume and --shard need --family")
		}
		ms, err := treemcast.ParseMsgs(g, *msgs)
		if err != nil {
			return nil, usagef("--%v", err)
		}
		in := treemcast.Instance{Grid: g, Msgs: ms, Params: params}
		if _, err := in.Model(); err != nil {
			return nil, usagef("%v", err)
		}
		return treeMcastOne(ctx, c, in)
	}
}

// treeMcastOne checks one instance with the common bounds.
func treeMcastOne(ctx context.Context, c *common, in treemcast.Instance) (*props.Report, error) {
	m, err := in.Model()
	if err != nil {
		return nil, usagef("%v", err)
	}
	o := checker.Options[flit.State]{
		Workers: c.Workers, MaxStates: c.MaxStates, MaxDepth: c.MaxDepth, MaxMemoryBytes: c.MaxMemMB << 20,
		CheckDeadlock: true, Progress: c.Progress, Context: ctx,
	}
	if c.Store == "fingerprint" {
		o.Store = checker.Fingerprint
	}
	if c.Prop == treemcast.PropExactlyOnce {
		o.Invariants = append(m.Invariants(), treemcast.Invariants(in, m)...)
	}
	var res *checker.Result[flit.State]
	if c.Symmetry {
		sm := flit.NewSymmetric(m, flit.GridSymmetries(in.Grid, in.Config().Routing))
		o.Symmetry = true
		res, err = checker.Explore[flit.State](sm, o)
	} else {
		res, err = checker.Explore[flit.State](m, o)
	}
	if err != nil {
		return nil, fmt.Errorf("internal error: %v", err)
	}
	rep := treeMcastReport(in, c.Prop)
	rep.Verdict = res.Verdict
	rep.Stats = props.Stats{States: res.Stats.States, Transitions: res.Stats.Transitions, Depth: res.Stats.Depth,
		Seconds: res.Stats.Duration.Seconds(), StatesPerSec: res.Stats.StatesPerSec}
	switch res.Verdict {
	case checker.Inconclusive:
		rep.Reason = res.Reason
	case checker.Violated:
		tf := treemcast.TraceFile(in, m, c.Prop, res.Violation)
		if err := treeMcastWitness(rep, tf); err != nil {
			return nil, err
		}
	}
	return rep, nil
}

// treeMcastWitness fills a report's witness, trace, text, SVG and pcap from a trace file.
func treeMcastWitness(rep *props.Report, tf *props.TraceFile) error {
	rp, err := treemcast.Replay(tf)
	if err != nil {
		return fmt.Errorf("internal error: the witness does not replay: %v", err)
	}
	files, err := rp.Files(tf)
	if err != nil {
		return fmt.Errorf("internal error: %v", err)
	}
	rep.Reason = tf.Violation
	rep.Witness = map[string]any{"trace": tf.Labels, "violation": tf.Violation, "steps": len(tf.Labels), "msgs": rp.Instance.String()}
	rep.Trace = tf
	rep.SVG, rep.PCAP = files["svg"], files["pcap"]
	var b strings.Builder
	fmt.Fprintf(&b, "shortest trace (%d steps):\n", len(tf.Labels))
	for i, l := range tf.Labels {
		fmt.Fprintf(&b, "%d %s\n", i+1, l)
	}
	rep.Text = b.String()
	return nil
}

func treeMcastReport(in treemcast.Instance, prop string) *props.Report {
	tp := in.TraceParams()
	return &props.Report{
		Instance: props.Instance{Topology: in.Grid.Spec(), Algorithm: "tree-mcast", Params: map[string]any{
			"msgs": tp.Msgs, "pruning": tp.Pruning, "length": tp.Length, "buffers": tp.Buffers, "ports": tp.Ports, "vcs": in.VCs(),
		}},
		Property: prop, Semantics: "flit",
	}
}

// treeMcastFamily checks one shard of a family and optionally writes its mergeable result:
// as members finish (at most once a second, atomically, so that a kill leaves a valid
// file) and at the end, also when a signal cancels the run. --resume continues a result
// file an earlier, interrupted run wrote.
func treeMcastFamily(ctx context.Context, c *common, f treemcast.Family, sh treemcast.Shard, params treemcast.Params, result, resume string, every time.Duration) (*props.Report, error) {
	start := time.Now()
	opt := treemcast.FamilyOptions{
		Params: params, Prop: c.Prop, Shard: sh, Workers: c.Workers, MaxStates: c.MaxStates,
		MaxMemoryBytes: c.MaxMemMB << 20, Context: ctx, Progress: c.Progress, CheckpointEvery: every,
	}
	if resume != "" {
		if result == "" {
			result = resume
		}
		data, err := os.ReadFile(resume)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// Nothing to continue: the first attempt of a (re)queued task.
		case err != nil:
			return nil, usagef("--resume: %v", err)
		default:
			if opt.Resume, err = treemcast.ParseFamilyResult(data); err != nil {
				return nil, usagef("--resume %s: %v", resume, err)
			}
		}
	}
	if result != "" {
		opt.Checkpoint = func(r *treemcast.FamilyResult) error {
			b, err := r.Marshal()
			if err != nil {
				return err
			}
			if err := atomicfile.WriteFile(result, append(b, '\n'), 0o644); err != nil {
				return fmt.Errorf("writing --result: %v", err)
			}
			return nil
		}
	}
	fr, err := treemcast.RunFamily(f, opt)
	if err != nil {
		return nil, usagef("%v", err)
	}
	rep := treeMcastReport(treemcast.Instance{Grid: f.Grid, Params: params}, c.Prop)
	delete(rep.Instance.Params, "msgs")
	rep.Instance.Params["family"] = f.Spec()
	rep.Instance.Params["shard"] = sh.String()
	rep.Instance.Params["symmetry"] = f.Symmetry
	rep.Instance.Params["members"] = fr.Members
	rep.Instance.Params["instances"] = fr.Instances
	rep.Instance.Params["covered"] = fr.Covered
	rep.Verdict = fr.Verdict
	secs := time.Since(start).Seconds()
	rep.Stats = props.Stats{States: fr.States, Transitions: fr.Transitions, Seconds: secs, StatesPerSec: float64(fr.States) / max(secs, 1e-9)}
	text := fmt.Sprintf("%s on %s, shard %s: %d of %d members checked (%d pairs), %d violated, %d inconclusive", f.Spec(), f.Grid.Spec(), sh, fr.Instances, fr.Members, fr.Covered, fr.Violated, len(fr.Inconclusive))
	if fr.Witness != nil {
		if err := treeMcastWitness(rep, fr.Witness.Trace); err != nil {
			return nil, err
		}
		rep.Reason = fmt.Sprintf("member %d (%s): %s", fr.Witness.Index, fr.Witness.Msgs, fr.Witness.Trace.Violation)
		rep.Text = text + "\nshortest witness: member " + fmt.Sprint(fr.Witness.Index) + " " + fr.Witness.Msgs + "\n" + rep.Text
	} else {
		rep.Text = text
		if len(fr.Inconclusive) > 0 {
			rep.Reason = fmt.Sprintf("%d members reached a bound", len(fr.Inconclusive))
		}
		if fr.Partial {
			rep.Reason = fmt.Sprintf("stopped after %d of the shard's members", fr.Instances)
			if ctx.Err() != nil {
				rep.Reason = fmt.Sprintf("interrupted after %d of the shard's members", fr.Instances)
			}
			if result != "" {
				rep.Reason += "; continue with --resume " + result
			}
		}
	}
	return rep, nil
}

func replayTreeMcast(ctx context.Context, tf *props.TraceFile) (*props.Report, error) {
	rp, err := treemcast.Replay(tf)
	if err != nil {
		return nil, err
	}
	rep := treeMcastReport(rp.Instance, tf.Property)
	if rp.Violation == "" {
		rep.Verdict = props.Holds
		rep.Reason = "the trace replays but its last state shows no violation"
		return rep, nil
	}
	if tf.Violation != "" && rp.Violation != tf.Violation {
		return nil, fmt.Errorf("trace file field \"violation\" is %q but the replay shows %q", tf.Violation, rp.Violation)
	}
	rep.Verdict = props.Violated
	if err := treeMcastWitness(rep, tf); err != nil {
		return nil, err
	}
	rep.Trace = nil
	return rep, nil
}
