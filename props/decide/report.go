package decide

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/cdg"
)

// Report is the static decision of a routing relation on a whole topology (`wormcheck
// routing`): the report (property deadlock, semantics static, the exact verdict), the
// sufficient conditions' analysis with both graphs' figures, the exact decision, and
// the CDG's own cycle even when a condition proves the relation. For a violation the
// witness is the deadlock configuration (kind configuration) with, in its steps, the
// flit moves that reach it from the empty network, and Trace is the saved-trace form of
// those moves (`replay` re-runs it). Encoded as JSON it is the report's fields followed
// by "analysis", "decision" and "cdg_witness".
type Report struct {
	props.Report
	Analysis   *cdg.Result    `json:"analysis"`
	Decision   *Decision      `json:"decision"`
	CDGWitness *props.Witness `json:"cdg_witness"`
	// Realisation is the configuration put in place in the flit model (violations).
	Realisation *Realisation `json:"-"`

	rel routing.Relation
}

// Prove decides the relation spec (a built-in name, or a routing file read with read)
// on topology topo, which may be "" when the file names its own: ProveRelation, which
// ctx stops. Errors are bad input (props.ErrBadInput) naming the topology or the routing.
func Prove(ctx context.Context, topo, spec string, read func(string) ([]byte, error)) (*Report, error) {
	return ProveWith(ctx, topo, spec, read, Options{})
}

// ProveWith is Prove with the decision's bounds given (the command line sizes the
// header states to its memory budget: HeaderStatesWithin).
func ProveWith(ctx context.Context, topo, spec string, read func(string) ([]byte, error), opt Options) (*Report, error) {
	var g *topology.Network
	if topo != "" {
		var err error
		if g, err = topology.Parse(topo); err != nil {
			return nil, props.BadInputf("topology %q: %v", topo, err)
		}
	} else if routing.IsBuiltin(spec) {
		return nil, props.BadInputf("routing %s: a built-in routing needs a topology", spec)
	}
	rel, err := routing.Resolve(g, spec, read)
	if err != nil {
		return nil, props.BadInputf("routing %s: %v", spec, err)
	}
	return ProveRelation(ctx, rel, opt)
}

// Within returns the options of a decision whose header states fit a memory
// budget of maxMemoryBytes (0: unknown; HeaderStatesWithin): the one mapping of a
// command's --max-memory onto the static decision, whichever command runs it. Its
// --time-limit reaches the decision as the context's deadline.
func Within(maxMemoryBytes int64) Options {
	// The dependency graph's search may take three quarters of it: the network, the
	// relation and the runtime hold the rest.
	return Options{MaxStates: HeaderStatesWithin(maxMemoryBytes), Analyze: cdg.Options{MaxBytes: maxMemoryBytes / 4 * 3}}
}

// bytesPerHeaderState is what one header state of the exact search costs at its peak,
// with the graphs and bounds built over the space: 150 to 190 bytes measured (mesh:64x64
// adaptive, 33 million states in 4.8 GB; torus:64x64 dor-1vc in 3.1 GB).
const bytesPerHeaderState = 200

// HeaderStatesWithin returns the header-state bound (Options.MaxStates) that keeps
// the exact search within a memory budget of the given bytes: the default bound when
// the budget is unknown (0), else what the budget holds, at least 2^12 and at most 2^28.
func HeaderStatesWithin(bytes int64) int64 {
	n := bytes / bytesPerHeaderState
	switch {
	case bytes <= 0:
		return defaultMaxStates
	case n < 1<<12:
		return 1 << 12
	case n > 1<<28:
		return 1 << 28
	}
	return n
}

// ProveRelation decides whether relation rel (a built-in, a routing file or a user's Go
// relation) has a deadlock configuration on its topology (Decide: the sufficient
// conditions first, then the exact search), and for a configuration builds the flit
// instance and the moves that reach it (Realise). A configuration the flit model does
// not reach from the empty network is refused, and the search goes on to the next one
// in its order (Options.Accept; notes count the refusals). The verdict is holds or
// violated; inconclusive when a bound of opt was reached (among them the refusals'),
// and, within a second, when ctx ends. Errors are bad input (a props.FieldError)
// naming Options.VCs or the Relation.
func ProveRelation(ctx context.Context, rel routing.Relation, opt Options) (*Report, error) {
	start := time.Now()
	rel, err := routing.Replicate(rel, opt.VCs)
	if err != nil {
		return nil, props.FieldErrorf("{Options.VCs}: %v", err)
	}
	if opt.Context == nil {
		opt.Context = ctx
	}
	realised := map[string]*Realisation{} // by Configuration.key; lookup only
	var unreached []string
	unproved := 0 // refusals the explorer did not settle (see Unreachable)
	if opt.Accept == nil {
		opt.Accept = func(c *Configuration) bool {
			r, err := Realise(ctx, rel, c)
			if err != nil {
				unreached = append(unreached, err.Error())
				if u, ok := err.(*Unreachable); !ok || !u.Proved {
					unproved++
				}
				return false
			}
			realised[c.key()] = r
			return true
		}
	}
	d, err := Decide(rel, opt)
	if err != nil {
		return nil, props.FieldErrorf("{Relation}: %v", err)
	}
	switch {
	case len(unreached) == 0:
	case d.Verdict == props.Inconclusive && d.Exhausted && unproved == 0:
		d.Bound = fmt.Sprintf("every deadlock configuration there is is one the flit model cannot reach: the search found %d (in the static sense of Verbeek & Schmaltz), and the explorer showed each unreachable from the empty network with worms as long as the channels they hold and buffers of one flit, from every source that can hold those channels; so no flit deadlock with buffers of one flit, for any worm length (docs/semantics.md); larger buffers are not decided: check --algo unicast --routing with --buffers", len(unreached))
	case d.Verdict == props.Violated && d.Minimal && unproved > 0:
		d.Minimal = false
		d.NotMinimal = fmt.Sprintf("%d smaller configurations found before it were refused without the explorer settling whether the flit model reaches them", unproved)
	}
	res := d.Analysis
	r := &Report{
		Report: props.Report{
			Schema:    props.ReportSchema,
			Command:   "routing",
			Instance:  props.Instance{Topology: d.Topology, Algorithm: d.Relation, Params: map[string]any{"vcs": d.VCs}},
			Property:  checker.PropDeadlock,
			Semantics: "static",
			Verdict:   d.Verdict,
			Reason:    d.Reason(),
		},
		Analysis: res, Decision: d, rel: rel,
	}
	if res != nil {
		r.CDGWitness = res.CDGWitness()
		r.Stats.States = res.States
	}
	r.Stats.States += d.States
	if len(unreached) > 0 {
		r.Notes = append(r.Notes, fmt.Sprintf("%d deadlock configurations before this answer were not reached from the empty network by the flit model; the first: %s", len(unreached), unreached[0]))
	}
	if d.Verdict == props.Violated {
		real := realised[d.Configuration.key()]
		if real == nil {
			// A stranded header (no search), or a caller's own Accept.
			real, err = Realise(ctx, rel, d.Configuration)
		}
		if err == nil {
			err = reachedAnswer(rel, d, real)
			r.Reason = d.Reason()
		}
		w := d.Witness()
		if err != nil {
			r.Verdict = props.Inconclusive
			r.Reason = "a deadlock configuration exists but the flit model did not reach it: " + err.Error()
		} else {
			r.Realisation = real
			r.Trace = unicast.TraceFile(real.Spec, &real.Result)
			if w.Steps, err = real.steps(); err != nil {
				return nil, err
			}
			if len(real.Moved) > 0 {
				r.Notes = append(r.Notes, fmt.Sprintf("from the sources the configuration found names the flit model reaches no deadlock; with %s it does: the explorer found the moves, and the configuration shown is the one they reach", movedText(d, real)))
			} else if !real.Scheduled {
				r.Notes = append(r.Notes, "the worms' released channels cross each other's held ones: the explorer found the moves, and the configuration shown is the one they reach")
			}
		}
		r.Witness = w
	} else if d.Verdict == props.Inconclusive && res != nil {
		r.Witness = res.Witness()
	}
	if r.Evidence, err = r.evidence(); err != nil {
		return nil, fmt.Errorf("routing %s on %s: %v", d.Relation, d.Topology, err)
	}
	r.Stats.Seconds = time.Since(start).Seconds()
	return r, nil
}

// evidence is what a picture of the decision shows on the topology: for a violation,
// the deadlocked state the configuration's moves reach (every worm on the channels it
// holds, each blocked header and what it waits for); otherwise the cycle that leaves the
// sufficient conditions unproven, else the CDG's own cycle (which Duato's condition or
// the exact search overcame); where the CDG is acyclic, its certificate: every held
// channel numbered in a topological order (ranks). nil when there is nothing to show.
func (r *Report) evidence() (props.Evidence, error) {
	if real := r.Realisation; real != nil {
		m, tr, _, err := unicast.Witness(real.Spec, &real.Result)
		if err != nil {
			return nil, err
		}
		d := r.Decision
		title := fmt.Sprintf("%s on %s: %s", d.Relation, d.Topology, r.Witness.Violation)
		sub := fmt.Sprintf("static decision, %s: violated; realised with worms %s, %s, buffers 1, in %d moves",
			plural(d.VCs, "VC"), real.Spec.Worms(), lengthsText(real.Spec), real.Result.Trace.Len())
		return &props.FlitEvidence{Model: m, Trace: tr, Violation: real.Result.Violation, Title: title, Subtitle: sub}, nil
	}
	res := r.Analysis
	if res == nil {
		return nil, nil
	}
	w := res.Witness()
	if w == nil || w.Kind != props.WitnessCycle {
		w = res.CDGWitness()
	}
	if (w == nil || len(w.Cycle) == 0) && res.Acyclic && res.Stranded == nil {
		return r.ranks()
	}
	if w == nil || len(w.Cycle) == 0 {
		return nil, nil
	}
	what, _, _ := strings.Cut(w.Violation, ":")
	if r.Verdict == props.Holds {
		// The relation is deadlock-free although its CDG is cyclic: the cycle is shown
		// as harmless, with the verdict and its reason first.
		return &props.CycleEvidence{Grid: r.rel.Grid(), Cycle: w, Proven: r.Reason,
			Title:    fmt.Sprintf("%s on %s: holds; the channel dependency graph is cyclic, not a deadlock", res.Relation, res.Topology),
			Subtitle: fmt.Sprintf("static check, %s: holds (%s)", plural(res.VCs, "VC"), strings.TrimPrefix(what, "channel dependency "))}, nil
	}
	return &props.CycleEvidence{Grid: r.rel.Grid(), Cycle: w, Title: fmt.Sprintf("%s on %s: %s", res.Relation, res.Topology, what),
		Subtitle: fmt.Sprintf("static check, %s: %s", plural(res.VCs, "VC"), r.Verdict)}, nil
}

// SetVersion sets the tool version the JSON object names (props.Body).
func (r *Report) SetVersion(v string) { r.Version = v }

// Conditions are the figures that say which condition proved the relation: FigCDGAcyclic always, and
// FigDuatoProved and FigEscapeVertices where the relation has an escape subfunction.
func (r *Report) Conditions() map[string]float64 {
	res := r.Analysis
	if res == nil {
		return nil
	}
	figs := map[string]float64{FigCDGAcyclic: b2f(res.Acyclic)}
	if d := res.Duato; d != nil {
		figs[FigDuatoProved] = b2f(d.Connected && d.Decided && d.Acyclic)
		figs[FigEscapeVertices] = float64(d.Escape)
	}
	return figs
}

// b2f is 1 for true, 0 for false: a yes/no figure.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// WriteText writes the verdict, the sufficient conditions (Result.WriteConditions),
// the exact decision (Decision.WriteText), how the configuration was reached, and the
// seconds it took.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "routing %s on %s (%s): %s\n  %s\n", r.Decision.Relation, r.Decision.Topology, plural(r.Decision.VCs, "VC"), r.Verdict, r.Reason)
	if r.Analysis != nil {
		r.Analysis.WriteConditions(w)
	}
	r.Decision.writeText(w, r.Decision.Reason() != r.Reason)
	if real := r.Realisation; real != nil {
		how := "scheduled worm by worm"
		if len(real.Moved) > 0 {
			how = "found by the explorer with " + movedText(r.Decision, real)
		} else if !real.Scheduled {
			how = "found by the explorer"
		}
		fmt.Fprintf(w, "realised in the flit model (worms %s, %s, buffers 1; %s): %d moves from the empty network reach %s\n",
			real.Spec.Worms(), lengthsText(real.Spec), how, real.Result.Trace.Len(), real.Result.Violation)
	}
	fmt.Fprintf(w, "%.3fs\n", r.Stats.Seconds)
}

// reachedAnswer makes d's configuration the one real's moves end in (reachedConfiguration):
// the same unless the explorer found the moves and reached another deadlock than the
// configuration searched for, or its worms from other sources; a different one keeps
// "minimal" only when it is as small, and says which was found.
func reachedAnswer(rel routing.Relation, d *Decision, real *Realisation) error {
	if real.Scheduled || len(d.Configuration.Worms) == 0 || d.Configuration.Channels == 0 {
		return nil // along the configuration's own routes, or a strand at its source
	}
	reached, err := reachedConfiguration(rel, real)
	if err != nil {
		return err
	}
	found := d.Configuration
	if reached.key() == found.key() {
		return nil
	}
	d.Configuration = reached
	if len(reached.Worms) != len(found.Worms) || reached.Channels != found.Channels {
		d.Minimal, d.FewestWorms, d.FoundFirst = false, false, false
		d.NotMinimal = fmt.Sprintf("the flit model's moves put in place another deadlock than the configuration found (%s on %s), which it does not reach", plural(len(found.Worms), "worm"), plural(found.Channels, "channel"))
	}
	return nil
}

// movedText names the worms a realisation injects at other sources than the
// configuration's: "m0 injected at (1)".
func movedText(d *Decision, real *Realisation) string {
	var parts []string
	for _, i := range real.Moved {
		parts = append(parts, fmt.Sprintf("m%d injected at %s", i, d.g.NodeName(real.Spec.Pairs[i].Src)))
	}
	return strings.Join(parts, ", ")
}

// lengthsText names the worm lengths of a realised instance.
func lengthsText(sp unicast.Spec) string {
	if len(sp.Lengths) == 0 {
		return fmt.Sprintf("length %d", sp.Length)
	}
	return fmt.Sprintf("lengths %v", sp.Lengths)
}

// Figures of a static routing report (Report.Figures): FigCDGAcyclic is 1 when the
// channel dependency graph is acyclic (Dally & Seitz 1987, Theorem 1: deadlock-free),
// else 0; FigDuatoProved is 1 when Duato's condition holds (the escape subfunction is
// connected and its extended dependency graph acyclic, Duato 1993, Theorem 1), 0 when
// it was tried and failed, absent when the relation has no escape subfunction;
// FigEscapeVertices counts the (channel, VC) pairs the escape subfunction offers.
// Claims that say which condition proves a relation (proofs' RT1-RT4) read them.
const (
	FigCDGAcyclic     = "cdg_acyclic"
	FigDuatoProved    = "duato_proved"
	FigEscapeVertices = "escape_vertices"
)

// ranks is the certificate of an acyclic channel dependency graph: its vertices
// numbered in a topological order (Kahn's, smallest vertex first), so every dependency
// goes up.
func (r *Report) ranks() (props.Evidence, error) {
	res := r.Analysis
	gr, err := cdg.Dependencies(r.rel)
	if err != nil {
		return nil, err
	}
	vs := gr.Vertices()
	index := make(map[cdg.Vertex]int, len(vs)) // lookup only
	for i, v := range vs {
		index[v] = i
	}
	indeg := make([]int, len(vs))
	for _, v := range vs {
		for _, w := range gr.Succ(v) {
			indeg[index[w]]++
		}
	}
	var ready []int
	for i := range vs {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	var ranks []props.RankedChannel
	for len(ready) > 0 {
		slices.Sort(ready)
		i := ready[0]
		ready = ready[1:]
		ranks = append(ranks, props.RankedChannel{Channel: vs[i].Channel, VC: vs[i].VC, Rank: len(ranks) + 1})
		for _, w := range gr.Succ(vs[i]) {
			if indeg[index[w]]--; indeg[index[w]] == 0 {
				ready = append(ready, index[w])
			}
		}
	}
	if len(ranks) != len(vs) {
		return nil, fmt.Errorf("the dependency graph has a cycle after all (%d of %d vertices ranked)", len(ranks), len(vs))
	}
	return &props.RanksEvidence{Grid: r.rel.Grid(), VCs: res.VCs, Ranks: ranks,
		Title:    fmt.Sprintf("%s on %s: an acyclic channel dependency graph", res.Relation, res.Topology),
		Subtitle: fmt.Sprintf("static check, %s: %s; every dependency goes to a larger number", plural(res.VCs, "VC"), res.Verdict())}, nil
}
