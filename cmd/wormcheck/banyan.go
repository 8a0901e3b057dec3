package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
)

// The banyan family: self-routing patterns (banyan-route) and the two-phase multicast
// with its arbitration policies (two-phase). Reference: 002 §2-§3.
func init() {
	registerAlgo(algo{
		Name:    "banyan-route",
		Summary: "self-routing (unicast tags, region headers) of one pattern or a Property 1 family in the broadcast banyan",
		Props:   []string{"nonblocking"},
		Define:  defineBanyanRoute,
	})
	registerAlgo(algo{
		Name:    "two-phase",
		Summary: "two-phase multicast of 002 §3.1 on the wrap-around MIN; deadlock under an arbitration policy, or Theorem 1's nonblocking",
		Props:   []string{"deadlock", "nonblocking"},
		Define:  defineTwoPhase,
		Replay:  replayTwoPhase,
	})
}

func banyanTopo(spec string) (*model.Banyan, error) {
	if spec == "" {
		return nil, usagef("--topo is missing; give a banyan such as banyan:16")
	}
	t, err := model.ParseTopology(spec)
	if err != nil {
		return nil, usagef("%v", err)
	}
	b, ok := t.(*model.Banyan)
	if !ok {
		return nil, usagef("--topo %q is not a banyan; use banyan:N", spec)
	}
	return b, nil
}

func defineBanyanRoute(fs *flag.FlagSet, c *common) func(ctx context.Context) (*props.Report, error) {
	pattern := fs.String("pattern", "", `one pattern: packets "0->3,1->5,2->4-7" (a range is a region header); without it a family is checked`)
	family := fs.String("family", "monotone", "family without --pattern: monotone (Property 1, --order, --concentration) or two-phase (Theorem 1, every destination set and start)")
	order := fs.String("order", "ascending", "monotone family: ascending, descending or any (not monotone)")
	conc := fs.String("concentration", "plain", "monotone family: plain, cyclic (sources consecutive modulo N) or scattered (not concentrated)")
	wrap := fs.Bool("wrap", false, "two-phase family: let the copies s..s+f-1 wrap past N-1")
	return func(ctx context.Context) (*props.Report, error) {
		b, err := banyanTopo(c.Topo)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		rep := &props.Report{Instance: props.Instance{Topology: b.Spec(), Algorithm: "banyan-route", Params: map[string]any{}},
			Property: "nonblocking", Semantics: "static", Verdict: props.Holds}
		var conflict *props.LinkConflict
		var checked int64
		switch {
		case *pattern != "":
			pat, err := banyan.ParsePattern(*pattern, b.Nodes())
			if err != nil {
				return nil, usagef("--%v", err)
			}
			rep.Instance.Params["pattern"] = *pattern
			if conflict, err = props.CheckLinkConflicts(b, pat); err != nil {
				return nil, usagef("--pattern: %v", err)
			}
			checked = 1
			rep.Witness = map[string]any{"pattern": pat, "conflict": conflict}
		case *family == "monotone":
			o, err := banyan.ParseOrder(*order)
			if err != nil {
				return nil, usagef("--%v", err)
			}
			cc, err := banyan.ParseConcentration(*conc)
			if err != nil {
				return nil, usagef("--%v", err)
			}
			rep.Instance.Params["family"], rep.Instance.Params["order"], rep.Instance.Params["concentration"] = "monotone", o.String(), cc.String()
			r, err := banyan.Property1ByPairs(banyan.NewPathTable(b), o, cc)
			if err != nil {
				return nil, err
			}
			conflict, checked = r.Conflict, r.Pairs
			if conflict != nil {
				rep.Witness = map[string]any{"pattern": r.Pattern, "conflict": conflict}
			}
			rep.Text = fmt.Sprintf("%d source/destination pairs checked (a pattern blocks iff two of its packets share a link)", r.Pairs)
		case *family == "two-phase":
			rep.Instance.Params["family"], rep.Instance.Params["wrap"] = "two-phase", *wrap
			r, err := banyan.CheckTheorem1(banyan.NewPathTable(b), *wrap)
			if err != nil {
				return nil, usagef("--topo: %v", err)
			}
			conflict, checked = r.Conflict, r.Instances
			if conflict != nil {
				rep.Witness = map[string]any{"dests": r.Dests, "start": r.Start, "conflict": conflict}
			}
			rep.Text = fmt.Sprintf("%d destination sets, %d (set, start) instances", r.Sets, r.Instances)
		default:
			return nil, usagef("--family %q is unknown; use monotone or two-phase", *family)
		}
		rep.Stats = staticStats(checked, time.Since(start))
		if conflict != nil {
			rep.Verdict = props.Violated
			rep.Text = strings.TrimSpace(rep.Text + "\n" + conflict.String())
			rep.SVG = conflictPicture(b, conflict)
		}
		return rep, nil
	}
}

func staticStats(n int64, d time.Duration) props.Stats {
	st := props.Stats{States: n, Seconds: d.Seconds()}
	if d > 0 {
		st.StatesPerSec = float64(n) / d.Seconds()
	}
	return st
}

// conflictPicture draws the two packets of a blocking witness and their shared link.
func conflictPicture(b *model.Banyan, c *props.LinkConflict) []byte {
	return banyan.ConflictSVG(b,
		banyan.SVGPacket{Name: c.PacketA.String(), Channels: banyan.TreeChannels(b, c.PacketA.Source, c.PacketA.Dest)},
		banyan.SVGPacket{Name: c.PacketB.String(), Channels: banyan.TreeChannels(b, c.PacketB.Source, c.PacketB.Dest)},
		model.ChannelID(c.Channel))
}

func defineTwoPhase(fs *flag.FlagSet, c *common) func(ctx context.Context) (*props.Report, error) {
	msgs := fs.String("msgs", "", `multicasts "1->5,6,7,8;15->7-12" (';' between messages, ranges a-b)`)
	arb := fs.String("arbitration", "free", "SE arbitration: free (every choice explored) or upper-first (002 Theorem 2)")
	timing := fs.String("timing", "lockstep", "lockstep (slotted: every head requests each cycle) or async (one grant per step, every interleaving)")
	acquire := fs.String("acquire", "atomic", "a replicating head takes both outputs at once (atomic) or one at a time (split)")
	starts := fs.String("starts", "", "phase-1 start s of each message, e.g. 5,7 (default: every start 0..N-f)")
	phase1 := fs.Bool("phase1-only", false, "model only the phase-1 region copies")
	flits := fs.Int("flits", 0, "lockstep worm length L >= n+1: tails drain one link per cycle (0: release every link when the last branch arrives)")
	return func(ctx context.Context) (*props.Report, error) {
		b, err := banyanTopo(c.Topo)
		if err != nil {
			return nil, err
		}
		if *msgs == "" {
			return nil, usagef("--msgs is missing; give multicasts such as \"1->5,6,7,8;15->7-12\"")
		}
		p := banyan.Params{Msgs: *msgs, Arbitration: *arb, Timing: *timing, Acquire: *acquire, Phase1Only: *phase1, Flits: *flits}
		if *starts != "" {
			for _, f := range strings.Split(*starts, ",") {
				v, err := strconv.Atoi(strings.TrimSpace(f))
				if err != nil {
					return nil, usagef("--starts: %q is not a number", f)
				}
				p.Starts = append(p.Starts, v)
			}
		}
		sys, err := p.Build(b)
		if err != nil {
			return nil, usagef("--%v", err)
		}
		params := map[string]any{"msgs": *msgs, "arbitration": *arb, "timing": *timing, "acquire": *acquire}
		if p.Starts != nil {
			params["starts"] = p.Starts
		}
		if p.Flits != 0 {
			params["flits"] = p.Flits
		}
		rep := &props.Report{Instance: props.Instance{Topology: b.Spec(), Algorithm: "two-phase", Params: params}, Property: c.Prop}
		if c.Prop == "nonblocking" {
			return twoPhaseNonblocking(b, sys, p, rep)
		}
		if c.Symmetry {
			return nil, usagef("--symmetry is not supported by --algo two-phase")
		}
		opt := checker.Options[banyan.State]{CheckDeadlock: true, Workers: c.Workers, MaxStates: c.MaxStates,
			MaxDepth: c.MaxDepth, MaxMemoryBytes: c.MaxMemMB << 20, Progress: c.Progress, Context: ctx}
		if c.Store == "fingerprint" {
			opt.Store = checker.Fingerprint
		}
		res, err := checker.Explore[banyan.State](sys, opt)
		if err != nil {
			return nil, err
		}
		rep.Semantics = "flit"
		rep.Stats = props.Stats{States: res.Stats.States, Transitions: res.Stats.Transitions, Depth: res.Stats.Depth,
			Seconds: res.Stats.Duration.Seconds(), StatesPerSec: res.Stats.StatesPerSec}
		switch res.Verdict {
		case checker.Holds:
			rep.Verdict = props.Holds
			rep.Text = fmt.Sprintf("no deadlock from any of %d start combinations (%s timing, %s acquisition, %s arbitration)", len(sys.Init()), *timing, *acquire, *arb)
		case checker.Inconclusive:
			rep.Verdict, rep.Reason = props.Inconclusive, res.Reason
		case checker.Violated:
			rep.Verdict = props.Violated
			tr := res.Violation.Trace
			tf, err := banyan.DeadlockTrace(sys, "two-phase", tr)
			if err != nil {
				return nil, err
			}
			last := tr.Steps[len(tr.Steps)-1].State
			rep.Trace = tf
			rep.Witness = map[string]any{"starts": sys.StartsOf(last), "trace": tf.Labels, "waits": sys.Waits(last), "violation": tf.Violation}
			rep.Text = tr.String() + tf.Violation
			rep.SVG = banyan.DeadlockSVG(sys, last)
			if rep.PCAP, err = banyan.TracePCAP(sys, tr); err != nil {
				return nil, err
			}
		}
		return rep, nil
	}
}

// twoPhaseNonblocking checks 002 Theorem 1 for each message: its phase-2 copies, from
// every start explored, do not block each other.
func twoPhaseNonblocking(b *model.Banyan, sys *banyan.System, p banyan.Params, rep *props.Report) (*props.Report, error) {
	start := time.Now()
	rep.Semantics, rep.Verdict = "static", props.Holds
	var n int64
	for mi, m := range sys.Messages() {
		ss := banyan.ValidStarts(b.Nodes(), m.Fanout(), false)
		if p.Starts != nil {
			ss = []int{p.Starts[mi]}
		}
		for _, s := range ss {
			n++
			pat := banyan.Phase2(m, s, b.Nodes())
			c, err := props.CheckLinkConflicts(b, pat)
			if err != nil {
				return nil, err
			}
			if c != nil {
				rep.Verdict = props.Violated
				rep.Witness = map[string]any{"message": m.String(), "start": s, "pattern": pat, "conflict": c}
				rep.Text = fmt.Sprintf("message %v, start %d: %v", m, s, c)
				rep.SVG = conflictPicture(b, c)
				rep.Stats = staticStats(n, time.Since(start))
				return rep, nil
			}
		}
	}
	rep.Stats = staticStats(n, time.Since(start))
	rep.Text = fmt.Sprintf("%d (message, start) instances: the phase-2 copies never block each other", n)
	return rep, nil
}

func replayTwoPhase(ctx context.Context, tf *props.TraceFile) (*props.Report, error) {
	ok, why, sys, tr, err := banyan.ReplayDeadlockTrace(tf)
	if err != nil {
		return nil, err
	}
	var params map[string]any
	_ = json.Unmarshal(tf.Params, &params)
	rep := &props.Report{Instance: props.Instance{Topology: tf.Topology, Algorithm: tf.Algorithm, Params: params},
		Property: "deadlock", Semantics: "flit", Verdict: props.Holds, Witness: map[string]any{"violation": why}}
	rep.Stats.Depth = len(tf.Actions)
	if ok {
		rep.Verdict = props.Violated
		rep.Text = "confirmed: " + why
		rep.SVG = banyan.DeadlockSVG(sys, tr.Steps[len(tr.Steps)-1].State)
		rep.PCAP, _ = banyan.TracePCAP(sys, tr)
	} else {
		rep.Reason = why
	}
	return rep, nil
}
