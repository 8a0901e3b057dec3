package check

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// The banyan family: self-routing patterns (banyan-route) and the two-phase multicast
// with its arbitration policies (two-phase). Reference: 002 §2-§3.

func banyanRouteAlgorithm() Algorithm {
	return Algorithm{
		Name:    "banyan-route",
		Summary: "self-routing (unicast tags, region headers) of one pattern or a Property 1 family in the broadcast banyan",
		Doc: `Self-routing in the broadcast banyan (002 §2): a pattern of packets (unicast tags, or
a destination range as one region header) is nonblocking iff no two packets share a link.
Without a pattern a family is checked: monotone (002 Property 1: concentrated sources and
monotone destinations never block; order and concentration select the variant) or
two-phase (Theorem 1: every destination set and start of the phase-2 copies).`,
		Properties: []Support{{checker.PropNonblocking, props.SemStatic}},
		Params: []Param{
			{"pattern", "", `one pattern: packets "0->3,1->5,2->4-7" (a range is a region header); without it a family is checked`},
			{"family", "monotone", "family without --pattern: monotone (Property 1, --order, --concentration) or two-phase (Theorem 1, every destination set and start)"},
			{"order", "ascending", "monotone family: ascending, descending or any (not monotone)"},
			{"concentration", "plain", "monotone family: plain, cyclic (sources consecutive modulo N) or scattered (not concentrated)"},
			{"wrap", "false", "two-phase family: let the copies s..s+f-1 wrap past N-1"},
			{"method", "pairs", "monotone family: pairs (the pair reduction) or enumerate (every pattern, N <= 16; the naive twin)"},
		},
		prepare: prepareBanyanRoute,
	}
}

func twoPhaseAlgorithm() Algorithm {
	return Algorithm{
		Name:    "two-phase",
		Summary: "two-phase multicast of 002 §3.1 on the wrap-around MIN; deadlock under an arbitration policy, or Theorem 1's nonblocking",
		Doc: `The two-phase multicast of 002 §3.1 on the wrap-around MIN: phase 1 sends a region
copy to a start s, phase 2 replicates to the destinations. Deadlock is explored under a
switch-element arbitration policy (free: every choice; upper-first: 002 Theorem 2), in
lockstep or asynchronous timing; nonblocking checks Theorem 1 statically for every start.`,
		Properties:      []Support{{checker.PropDeadlock, props.SemFlit}, {checker.PropGlobalDeadlock, props.SemFlit}, {checker.PropNonblocking, props.SemStatic}},
		DefaultProperty: checker.PropDeadlock,
		Params: []Param{
			{"msgs", "", `multicasts "1->5,6,7,8;15->7-12" (';' between messages, ranges a-b)`},
			{"arbitration", "free", "SE arbitration: free (every choice explored) or upper-first (002 Theorem 2)"},
			{"timing", "lockstep", "lockstep (slotted: every head requests each cycle) or async (one grant per step, every interleaving)"},
			{"acquire", "atomic", "a replicating head takes both outputs at once (atomic) or one at a time (split)"},
			{"starts", "", "phase-1 start s of each message, e.g. 5,7 (default: every start 0..N-f)"},
			{"phase1-only", "false", "model only the phase-1 region copies"},
			{"flits", "0", "lockstep worm length L >= n+1: tails drain one link per cycle (0: release every link when the last branch arrives)"},
		},
		merge: mergeBanyanPairs, results: banyan.PairAlgorithm,
		prepare: prepareTwoPhase,
		replay:  replayTwoPhase,
	}
}

func banyanTopo(spec string) (*topology.Banyan, error) {
	if spec == "" {
		return nil, badf("BanyanRoute.Banyan is nil; give the banyan (topology.ParseBanyan)")
	}
	b, err := topology.ParseBanyan(spec)
	if err != nil {
		return nil, badf("%v", err)
	}
	return b, nil
}

func prepareBanyanRoute(r *request) (job, error) {
	b, err := banyanTopo(r.topology)
	if err != nil {
		return nil, err
	}
	q := BanyanRoute{Banyan: b}
	if q.Wrap, err = r.boolean("wrap"); err != nil {
		return nil, err
	}
	pattern, family := r.str("pattern"), r.str("family")
	order, conc, method := r.str("order"), r.str("concentration"), r.str("method")
	switch {
	case pattern != "":
		if q.Pattern, err = banyan.ParsePattern(pattern, b.Nodes()); err != nil {
			return nil, badf("--%v", err)
		}
	case family == "monotone":
		if q.Order, err = banyan.ParseOrder(order); err != nil {
			return nil, badf("--%v", err)
		}
		if q.Concentration, err = banyan.ParseConcentration(conc); err != nil {
			return nil, badf("--%v", err)
		}
		switch method {
		case "enumerate":
			q.Enumerate = true
		case "pairs":
		default:
			return nil, badf("--method %q is unknown; use pairs or enumerate", method)
		}
	case family == "two-phase":
		q.TwoPhase = true
	default:
		return nil, badf("--family %q is unknown; use monotone or two-phase", family)
	}
	return q.prepare(r)
}

// BanyanRoute is the typed request of self-routing in the broadcast banyan (the
// registry's "banyan-route"), checked for checker.PropNonblocking: the one Pattern when it
// is not empty, else a family: Property 1's monotone family (Order, Concentration; by
// the pair reduction, or with Enumerate by listing every pattern, N <= 16), or with
// TwoPhase Theorem 1's family (every destination set and start of the phase-2 copies,
// Wrap letting them wrap past N-1).
//
// Reference: 002 §2 Property 1, §3.1 Theorem 1.
type BanyanRoute struct {
	Banyan        *topology.Banyan
	Pattern       []topology.BanyanPacket
	Order         banyan.Order
	Concentration banyan.Concentration
	Enumerate     bool
	TwoPhase      bool
	Wrap          bool
}

// Check checks q for property under opt, as Run does for the same instance given by
// name; errors wrapping ErrBadInput name the field at fault.
func (q BanyanRoute) Check(ctx context.Context, property checker.Property, opt Options) (*props.Report, error) {
	return Run(ctx, q, property, opt)
}

// jobFor validates q for property under opt and returns the job that checks it
// (Request).
func (q BanyanRoute) jobFor(property checker.Property, opt Options) (job, error) {
	if q.Banyan == nil {
		return nil, badf("BanyanRoute.Banyan is nil; give the banyan (topology.ParseBanyan)")
	}
	return typedJob(banyanRouteAlgorithm(), "BanyanRoute", q.Banyan.Spec(), property, opt, q.prepare)
}

// prepare validates q and returns the job that checks it.
func (q BanyanRoute) prepare(r *request) (job, error) {
	b := q.Banyan
	rep := r.report(b.Spec(), map[string]any{})
	rep.Verdict = props.Holds
	var run func(context.Context) (*topology.LinkConflict, int64, error)
	unit := "patterns"
	switch {
	case len(q.Pattern) > 0:
		pat := q.Pattern
		rep.Instance.Params["pattern"] = banyan.FormatPattern(pat)
		run = func(context.Context) (*topology.LinkConflict, int64, error) {
			conflict, err := b.FirstConflict(pat)
			if err != nil {
				return nil, 0, badf("--pattern: %v", err)
			}
			if conflict != nil {
				rep.Witness = conflictWitness(conflict, &BanyanConflict{Pattern: pat})
				// The blocking pattern's capture (--pcap): every link of every packet's
				// tree, the shared one twice.
				recs, err := banyan.PatternRecords(b, pat)
				if err != nil {
					return nil, 0, internalf("capture: %v", err)
				}
				rep.Evidence = &props.BanyanEvidence{Banyan: b, Conflict: conflict, Capture: recs}
			}
			rep.Text = fmt.Sprintf("1 pattern of %d packets checked", len(pat))
			return conflict, 1, nil
		}
	case !q.TwoPhase:
		o, cc := q.Order, q.Concentration
		rep.Instance.Params["family"], rep.Instance.Params["order"], rep.Instance.Params["concentration"] = "monotone", o.String(), cc.String()
		unit = "source/destination pairs"
		switch {
		case q.Enumerate && b.Nodes() > maxEnumerate:
			return nil, badf("--method enumerate: banyan:%d has too many patterns; enumerate up to banyan:%d", b.Nodes(), maxEnumerate)
		case q.Enumerate && (o != banyan.Ascending && o != banyan.Descending || cc != banyan.Plain && cc != banyan.Cyclic):
			return nil, badf("--method enumerate lists monotone patterns only: use --order ascending or descending and --concentration plain or cyclic")
		case q.Enumerate:
			rep.Instance.Params["method"], unit = "enumerate", "patterns"
			run = func(context.Context) (*topology.LinkConflict, int64, error) { return enumerateMonotone(b, o, cc, rep) }
		}
		if run != nil {
			break
		}
		run = func(ctx context.Context) (*topology.LinkConflict, int64, error) {
			t, err := banyan.NewPathTable(b, r.opt.MaxMemoryBytes)
			if err != nil {
				return nil, 0, errBound{err.Error()}
			}
			res, err := banyan.Property1ByPairs(ctx, t, o, cc)
			if ctx.Err() != nil {
				return nil, res.Pairs, errBound{fmt.Sprintf("interrupted after %d source/destination pairs", res.Pairs)}
			}
			if err != nil {
				return nil, 0, internalf("%v", err)
			}
			if res.Conflict != nil {
				rep.Witness = conflictWitness(res.Conflict, &BanyanConflict{Pattern: res.Pattern})
			}
			rep.Text = fmt.Sprintf("%d source/destination pairs checked (a pattern blocks iff two of its packets share a link)", res.Pairs)
			return res.Conflict, res.Pairs, nil
		}
	default:
		wrap := q.Wrap
		rep.Instance.Params["family"], rep.Instance.Params["wrap"] = "two-phase", wrap
		unit = "(destination set, start) instances"
		run = func(context.Context) (*topology.LinkConflict, int64, error) {
			t, err := banyan.NewPathTable(b, r.opt.MaxMemoryBytes)
			if err != nil {
				return nil, 0, errBound{err.Error()}
			}
			res, err := banyan.CheckTheorem1(t, wrap)
			if err != nil {
				return nil, 0, badf("--topo: %v", err)
			}
			if res.Conflict != nil {
				rep.Witness = conflictWitness(res.Conflict, &BanyanConflict{Dests: res.Dests, Start: &res.Start})
			}
			rep.Text = fmt.Sprintf("%d destination sets, %d (set, start) instances", res.Sets, res.Instances)
			rep.Figures = map[string]float64{"sets": float64(res.Sets), "instances": float64(res.Instances)}
			return res.Conflict, res.Instances, nil
		}
	}
	return func(ctx context.Context) (*props.Report, error) {
		start := time.Now()
		conflict, checked, err := run(ctx)
		rep.Stats = staticStats(checked, unit, time.Since(start))
		if bound, ok := err.(errBound); ok {
			rep.Verdict, rep.Reason, rep.Text = props.Inconclusive, bound.reason, ""
			return rep, nil
		}
		if err != nil {
			return nil, err
		}
		if conflict != nil {
			rep.Verdict = props.Violated
			rep.Text = strings.TrimSpace(rep.Text + "\n" + conflict.String())
			if rep.Evidence == nil {
				rep.Evidence = &props.BanyanEvidence{Banyan: b, Conflict: conflict}
			}
		}
		return rep, nil
	}, nil
}

// errBound is a bound that stops a static check: the report is inconclusive with the
// reason.
type errBound struct{ reason string }

func (e errBound) Error() string { return e.reason }

// conflictWitness is the witness of a blocking pattern: the two packets that share a
// link (kind pair), with the pattern in Detail.
func conflictWitness(c *topology.LinkConflict, detail *BanyanConflict) *props.Witness {
	detail.Conflict = c
	return &props.Witness{Kind: props.WitnessPair, Violation: c.String(), Detail: detail}
}

// BanyanConflict is the detail of a blocking witness of banyan-route (Witness.Detail):
// the two packets that need one link (Conflict) with the pattern that has them, or the
// message (or destination set) and start whose phase-2 copies they are.
type BanyanConflict struct {
	Conflict *topology.LinkConflict  `json:"conflict"`
	Dests    []int                   `json:"dests,omitempty"`
	Message  string                  `json:"message,omitempty"`
	Pattern  []topology.BanyanPacket `json:"pattern,omitempty"`
	Start    *int                    `json:"start,omitempty"`
}

// banyanWitness is the witness of a two-phase deadlock: the trace from its initial start
// combination, the wait-for cycle among the packets of its last state, and the starts
// and every wait-for edge in Detail.
func banyanWitness(sys *banyan.System, last banyan.State, tf *tracefile.File) *props.Witness {
	w := props.LabelWitness(tf)
	g := sys.WaitFor(last)
	for _, e := range g.Cycle(g.Explained()) {
		link := topology.ChannelID(g.Waits[e.Wait].Needs[e.Need].ID)
		w.Cycle = append(w.Cycle, props.CycleEdge{Message: e.Waiter, Channel: sys.Banyan().ChannelName(link), Holder: e.Holder})
	}
	detail := map[string]any{"starts": sys.StartsOf(last), "waits": sys.Waits(last)}
	if stuck := g.LocalDeadlock(); tf.Property.LocalDeadlocks() && stuck != nil {
		detail["stuck"] = stuck
	}
	w.Detail = detail
	return w
}

// staticStats are the figures of a static check: what it counted (patterns, pairs,
// instances) in States, since there is no state space.
func staticStats(n int64, unit string, d time.Duration) props.Stats {
	return props.Stats{Checked: n, Unit: unit, Seconds: d.Seconds()}
}

func prepareTwoPhase(r *request) (job, error) {
	b, err := banyanTopo(r.topology)
	if err != nil {
		return nil, err
	}
	msgs := r.str("msgs")
	if msgs == "" {
		return nil, badf("--msgs is missing; give multicasts such as \"1->5,6,7,8;15->7-12\"")
	}
	phase1, err := r.boolean("phase1-only")
	if err != nil {
		return nil, err
	}
	flits, err := r.integer("flits", 0, 1<<16)
	if err != nil {
		return nil, err
	}
	p := banyan.Params{Msgs: msgs, Arbitration: r.str("arbitration"), Timing: r.str("timing"), Acquire: r.str("acquire"), Phase1Only: phase1, Flits: flits}
	if starts := r.str("starts"); starts != "" {
		for _, f := range strings.Split(starts, ",") {
			v, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				return nil, badf("--starts: %q is not a number", f)
			}
			p.Starts = append(p.Starts, v)
		}
	}
	sys, err := p.Build(b)
	if err != nil {
		return nil, badf("--%v", err)
	}
	return twoPhaseJob(r, b, sys, p)
}

// TwoPhase is the typed request of the two-phase multicast of 002 §3.1 on the
// wrap-around banyan (the registry's "two-phase"). Its Check takes the property
// (checker.PropDeadlock in the flit semantics, checker.PropNonblocking for Theorem 1).
type TwoPhase struct {
	Banyan  *topology.Banyan
	Msgs    []banyan.Multicast
	Options banyan.Options
}

// Check checks t for property under opt, as Run does for the same instance given by
// name; errors wrapping ErrBadInput name the field at fault.
func (t TwoPhase) Check(ctx context.Context, property checker.Property, opt Options) (*props.Report, error) {
	return Run(ctx, t, property, opt)
}

// jobFor validates t for property under opt and returns the job that checks it
// (Request).
func (t TwoPhase) jobFor(property checker.Property, opt Options) (job, error) {
	if t.Banyan == nil {
		return nil, badf("TwoPhase.Banyan is nil; give the banyan (topology.ParseBanyan)")
	}
	return typedJob(twoPhaseAlgorithm(), "TwoPhase", t.Banyan.Spec(), property, opt, func(r *request) (job, error) {
		sys, err := banyan.NewSystem(t.Banyan, t.Msgs, t.Options)
		if err != nil {
			return nil, badf("--msgs: %v", err)
		}
		var ms []string
		for _, m := range t.Msgs {
			ms = append(ms, m.String())
		}
		o := t.Options
		p := banyan.Params{Msgs: strings.Join(ms, ";"), Arbitration: o.Arbitration.String(), Timing: o.Timing.String(), Acquire: o.Acquire.String(),
			Starts: o.Starts, Phase1Only: o.Phase1Only, Flits: o.Flits}
		return twoPhaseJob(r, t.Banyan, sys, p)
	})
}

// twoPhaseJob is the check of the two-phase system sys built from p on b.
func twoPhaseJob(r *request, b *topology.Banyan, sys *banyan.System, p banyan.Params) (job, error) {
	msgs := p.Msgs
	params := map[string]any{"msgs": msgs, "arbitration": p.Arbitration, "timing": p.Timing, "acquire": p.Acquire}
	if p.Starts != nil {
		params["starts"] = p.Starts
	}
	if p.Flits != 0 {
		params["flits"] = p.Flits
	}
	rep := r.report(b.Spec(), params)
	if r.property == checker.PropNonblocking {
		return func(context.Context) (*props.Report, error) { return twoPhaseNonblocking(b, sys, p, rep) }, nil
	}
	if r.opt.Symmetry {
		return nil, badf("--symmetry is not supported by --algo two-phase")
	}
	return func(ctx context.Context) (*props.Report, error) {
		opt := checkerOptions[banyan.State](ctx, r)
		opt.CheckDeadlock = true
		opt.CheckLocalDeadlock = r.property.LocalDeadlocks()
		opt.CheckLiveness = true
		res, err := checker.Explore[banyan.State](sys, opt)
		if err != nil {
			return nil, internalf("%v", err)
		}
		rep.Stats = props.SearchStats(res.Stats, opt.Store)
		rep.Certificate = res.Certificate()
		rep.Verdict = res.Verdict
		rep.Figures = map[string]float64{banyan.FigStartCombinations: float64(len(sys.Init()))}
		switch res.Verdict {
		case checker.Holds:
			rep.Text = fmt.Sprintf("no deadlock from any of %d start combinations (%s timing, %s acquisition, %s arbitration)", len(sys.Init()), p.Timing, p.Acquire, p.Arbitration)
		case checker.Inconclusive:
			rep.Reason = res.Reason
		case checker.Violated:
			tr := res.Violation.Trace
			tf, err := banyan.DeadlockTrace(sys, "two-phase", r.property, tr)
			if err != nil {
				return nil, internalf("%v", err)
			}
			last := tr.Steps[len(tr.Steps)-1].State
			rep.Trace = tf
			rep.Witness = banyanWitness(sys, last, tf)
			rep.Text = tr.String() + tf.Violation
			if rep.Evidence, err = banyanDeadlock(sys, tr); err != nil {
				return nil, internalf("%v", err)
			}
		}
		return rep, nil
	}, nil
}

// twoPhaseNonblocking checks 002 Theorem 1 for each message: its phase-2 copies, from
// every start explored, do not block each other.
func twoPhaseNonblocking(b *topology.Banyan, sys *banyan.System, p banyan.Params, rep *props.Report) (*props.Report, error) {
	start := time.Now()
	rep.Verdict = props.Holds
	var n int64
	for mi, m := range sys.Messages() {
		ss := banyan.ValidStarts(b.Nodes(), m.Fanout(), false)
		if p.Starts != nil {
			ss = []int{p.Starts[mi]}
		}
		for _, s := range ss {
			n++
			pat := banyan.Phase2(m, s, b.Nodes())
			c, err := b.FirstConflict(pat)
			if err != nil {
				return nil, internalf("%v", err)
			}
			if c != nil {
				rep.Verdict = props.Violated
				at := s
				rep.Witness = conflictWitness(c, &BanyanConflict{Message: m.String(), Start: &at, Pattern: pat})
				rep.Text = fmt.Sprintf("message %v, start %d: %v", m, s, c)
				rep.Evidence = &props.BanyanEvidence{Banyan: b, Conflict: c}
				rep.Stats = staticStats(n, "(message, start) instances", time.Since(start))
				return rep, nil
			}
		}
	}
	rep.Stats = staticStats(n, "(message, start) instances", time.Since(start))
	rep.Text = fmt.Sprintf("%d (message, start) instances: the phase-2 copies never block each other", n)
	return rep, nil
}

func replayTwoPhase(_ context.Context, tf *tracefile.File) (*props.Report, error) {
	ok, why, sys, tr, err := banyan.ReplayDeadlockTrace(tf)
	if err != nil {
		return nil, badf("%v", err)
	}
	var params map[string]any
	_ = json.Unmarshal(tf.Params, &params)
	rep := &props.Report{Instance: props.Instance{Topology: tf.Topology, Algorithm: tf.Algorithm, Params: params},
		Property: tf.Property, Semantics: "flit", Verdict: props.Holds}
	rep.Stats.Depth = len(tf.Actions)
	if ok {
		rep.Verdict = props.Violated
		rep.Witness = banyanWitness(sys, tr.Steps[len(tr.Steps)-1].State, tf)
		rep.Witness.Violation = why
		rep.Text = "confirmed: " + why
		if rep.Evidence, err = banyanDeadlock(sys, tr); err != nil {
			return nil, internalf("%v", err)
		}
		return rep, nil
	}
	return nil, badf("%v (%s)", errNoViolation(tf), why)
}

// banyanDeadlock is the evidence of a deadlocked trace tr of sys, in its last state s:
// every packet that holds links or waits (one still at its source holds none and is
// named all the same), the links the heads wait for (held by another packet), the
// wait-for edges as notes, and the trace's capture records.
func banyanDeadlock(sys *banyan.System, tr checker.Trace[banyan.State]) (*props.BanyanEvidence, error) {
	s := tr.Steps[len(tr.Steps)-1].State
	b, opt := sys.Banyan(), sys.Options()
	ev := &props.BanyanEvidence{Banyan: b, Title: fmt.Sprintf("%s deadlock, %s arbitration, %s: starts %v", b.Spec(), opt.Arbitration, opt.Timing, sys.StartsOf(s))}
	waiting := map[int]bool{}
	for _, wt := range sys.Waits(s) {
		waiting[wt.WaiterIdx] = true
		ev.Contested = append(ev.Contested, topology.ChannelID(wt.Channel))
		ev.Notes = append(ev.Notes, fmt.Sprintf("%s at %s waits for %s, held by %s", wt.Waiter, wt.At, wt.Link, wt.Holder))
	}
	for p := range s.Held {
		cs := sys.HeldChannels(s, p)
		switch {
		case len(cs) > 0:
			ev.Packets = append(ev.Packets, props.BanyanPath{Name: sys.PacketName(s, p), Channels: cs})
		case waiting[p]:
			ev.Packets = append(ev.Packets, props.BanyanPath{Name: sys.PacketName(s, p) + " (holds no link yet: waits at its source)"})
		}
	}
	var err error
	ev.Capture, err = banyan.TraceRecords(sys, tr)
	return ev, err
}
