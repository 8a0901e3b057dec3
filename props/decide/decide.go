package decide

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/cdg"
)

// The exact decision (docs/semantics.md, "Deadlock configurations", states it in full).
//
// A deadlock configuration of a relation R is a non-empty set of worms, each a unicast
// from a source s to a destination d with a route: a sequence of header states from a
// header at s (legal: every hop is one R permits the header that takes it, with the
// header's input, source and misroutes as R reads them), and a non-empty suffix of
// that route which the worm holds (its tail first, its header last, the header not at
// d); no (channel, VC) is held by two worms; and every output R permits a worm's
// header is held by some worm (itself included). The channels of the route before the
// held suffix have been released by the worm's tail.
//
// Every deadlock the flit model reaches (global or local; any worm lengths, buffers,
// port model, one model VC per relation VC) gives one: the blocked worms, each holding
// the channels its flits occupy. So "no configuration" proves deadlock freedom for
// every length and buffer size, with no assumption on R: R may read a header's input,
// source and misroutes, and be incoherent (a suffix of a legal route need not be
// legal from its first node). Conversely a configuration is a deadlock the flit model
// reaches when its worms can be put in place from the empty network: props/check
// builds that schedule (worm i of length equal to the channels it holds, buffers of
// one flit) and confirms it with the flit model itself.
//
// Decide answers first with the sufficient conditions (Analyze: Dally & Seitz, Duato),
// then searches the configurations of the relation's header-state space exactly
// (space, finder): the fixed point of survivors prunes the states no configuration can
// use, and iterative deepening finds a configuration with the fewest worms, then the
// fewest channels, or proves there is none.

// Options bound the exact decision. A bound reached makes the verdict
// inconclusive, with the bound named; it is never a verdict.
type Options struct {
	// Analyze are the options of the sufficient conditions tried first.
	Analyze cdg.Options
	// MaxStates bounds the header states of the exact search (0: defaultMaxStates;
	// HeaderStatesWithin sizes it to a memory budget).
	MaxStates int64
	// MaxNodes bounds the search nodes (partial configurations tried; 0: 1<<24).
	MaxNodes int64
	// SkipSufficient skips the sufficient conditions (tests compare both ways).
	SkipSufficient bool
	// NoEscapeBound leaves the escape-ring bound (escape.go) out of the search by
	// fewest worms (tests compare both ways).
	NoEscapeBound bool
	// Context, when it ends (a signal, a time limit, a memory budget), stops the
	// decision within a second: inconclusive, with its cause as the bound. nil: never.
	Context context.Context
	// VCs is the network's virtual channels per physical channel when it has more than
	// the relation names (0: as many): a multiple of the relation's, each relation VC
	// owning as many of them as in the flit model (routing.Replicate), and the
	// decision is about that network. ProveRelation applies it.
	VCs int
	// NoScout skips the scout (scout.go), which looks for a configuration in the
	// header states toward a few destinations before the exact search of all of them.
	NoScout bool
	// Accept, when set, is asked about each configuration the search finds, in its
	// order; the search goes on past one it refuses (ProveRelation refuses one the flit
	// model does not reach from the empty network). MaxRefused refusals (0: 8) end it
	// inconclusive, and so does a search that finds no other configuration.
	Accept     func(*Configuration) bool
	MaxRefused int
}

// Method says which argument gave a Decision's verdict.
type Method string

// The methods of a decision.
const (
	ByCDG    Method = "cdg"    // the channel dependency graph is acyclic (Dally & Seitz)
	ByDuato  Method = "duato"  // Duato's condition on the escape subfunction
	BySearch Method = "search" // the exact search of configurations
	// ByEscapeRing: the escape-ring bound (escape.go) leaves no configuration.
	ByEscapeRing Method = "escape-ring"
)

// Decision is the exact verdict on one relation on one topology.
type Decision struct {
	Relation string        `json:"routing"`
	Topology string        `json:"topology"`
	VCs      int           `json:"vcs"`
	Verdict  props.Verdict `json:"verdict"`
	By       Method        `json:"by"`
	// Analysis is the result of the sufficient conditions (nil when skipped).
	Analysis *cdg.Result `json:"-"`
	// States counts the header states of the exact search (0 when it was not needed);
	// Survivors those a configuration can use (the fixed point); Nodes the partial
	// configurations tried.
	States    int64 `json:"header_states"`
	Survivors int64 `json:"survivors"`
	Nodes     int64 `json:"search_nodes"`
	// Configuration is the deadlock configuration of a violation; Minimal is true when
	// the search proved it has the fewest worms, and the fewest channels among those.
	// Otherwise NotMinimal says how far the proof went: the fewest worms proved
	// (FewestWorms), the fewest channels among them not; or neither, the configuration
	// then having the fewest channels and the fewest worms among those.
	Configuration *Configuration `json:"configuration,omitempty"`
	Minimal       bool           `json:"minimal"`
	FewestWorms   bool           `json:"fewest_worms"`
	NotMinimal    string         `json:"not_minimal,omitempty"`
	// Bound names the bound an inconclusive search reached.
	Bound string `json:"bound,omitempty"`
	// Exhausted is set on an inconclusive decision whose search ended with no
	// configuration left but those Accept refused: no bound was reached, and Bound says
	// why the refused ones do not make a verdict.
	Exhausted bool `json:"exhausted,omitempty"`
	// Refused counts the configurations found before this one that Accept refused.
	Refused int `json:"refused,omitempty"`
	// Excluded counts the configurations the search passed over because a worm of
	// theirs has no route on which it can be stuck, for any worm length and buffer
	// depth (gap.go): its route repeats a VC within the channels it holds.
	Excluded int64 `json:"excluded,omitempty"`
	// WormsRuledOut is how far the order by fewest worms got: no configuration has
	// that many worms or fewer (0: none ruled out, or nothing to rule out).
	WormsRuledOut int `json:"worms_ruled_out,omitempty"`
	// ScoutDestinations is the size of the sub-space the scout found its configuration
	// in (scout.go): the destinations its worms could head for; 0 when it found none.
	// FoundFirst is set when the configuration is the scout's: found first, in no
	// order, and the search for smaller ones stopped before it found one (NotMinimal
	// says where).
	ScoutDestinations int  `json:"scout_destinations,omitempty"`
	FoundFirst        bool `json:"found_first,omitempty"`
	// Ring is set when the configuration found first was built round one ring of the
	// torus (ring.go) rather than searched for.
	Ring bool `json:"ring,omitempty"`
	// EscapeBound is the escape-ring bound (escape.go): every configuration has at
	// least that many worms, so the search by fewest worms starts there (0: the
	// relation lacks the structure the bound needs).
	EscapeBound int `json:"escape_ring_bound,omitempty"`
	// EscapeChannels is the escape-ring bound on the (channel, VC) vertices a
	// configuration holds (0: none).
	EscapeChannels int `json:"escape_ring_channels,omitempty"`

	overStates bool // the header-state bound was reached

	g *topology.Network
}

// Configuration is a deadlock configuration: its worms and the channels they hold.
type Configuration struct {
	Worms    []ConfWorm `json:"worms"`
	Channels int        `json:"channels"`
}

// ConfWorm is one worm of a configuration: its source and destination, its whole
// route from its source (every (channel, VC) its header crossed, the header's last),
// how many of the route's last vertices it holds, and the outputs its header is
// permitted, every one held by a worm of the configuration.
type ConfWorm struct {
	Src   topology.NodeID `json:"src"`
	Dst   topology.NodeID `json:"dst"`
	Route []cdg.Vertex    `json:"route"`
	Held  int             `json:"held"`
	Waits []cdg.Vertex    `json:"waits"`
	// Misroutes is the header's misroute count (budgeted relations).
	Misroutes int `json:"misroutes,omitempty"`
}

// HeldVertices returns the vertices the worm holds, tail first.
func (w ConfWorm) HeldVertices() []cdg.Vertex { return w.Route[len(w.Route)-w.Held:] }

// Decide decides whether rel has a deadlock configuration on its topology: Holds when
// it has none (by a sufficient condition or the exhaustive search), Violated with a
// configuration, Inconclusive only when a bound of opt is reached. Errors are one line
// (a broken relation, as Analyze's).
func Decide(rel routing.Relation, opt Options) (*Decision, error) {
	if opt.MaxStates <= 0 {
		opt.MaxStates = defaultMaxStates
	}
	if opt.MaxNodes <= 0 {
		opt.MaxNodes = 1 << 24
	}
	g := rel.Grid()
	if g == nil {
		return nil, fmt.Errorf("routing %q has no topology", rel.Name())
	}
	d := &Decision{Relation: rel.Name(), Topology: g.Spec(), VCs: rel.VCs(), g: g}
	ctx := opt.Context
	halt := func(err error) (*Decision, error) {
		d.Verdict, d.Bound = props.Inconclusive, err.Error()
		return d, nil
	}
	if nv := int64(g.Channels()) * int64(rel.VCs()); nv > maxVertices {
		return halt(fmt.Errorf("the dependency graph would have %d (channel, VC) vertices, more than the %d the static decision holds", nv, maxVertices))
	}
	if !opt.SkipSufficient {
		if opt.Analyze.Context == nil {
			opt.Analyze.Context = ctx
		}
		res, err := cdg.Analyze(rel, opt.Analyze)
		if cdg.Stopped(err) {
			return halt(err)
		}
		if err != nil {
			return nil, err
		}
		d.Analysis = res
		switch {
		case res.Stranded == nil && res.Acyclic:
			d.Verdict, d.By = props.Holds, ByCDG
			return d, nil
		case res.Stranded == nil && res.DeadlockFree():
			d.Verdict, d.By = props.Holds, ByDuato
			return d, nil
		}
	}
	d.By = BySearch
	maxRefused := opt.MaxRefused
	if maxRefused <= 0 {
		maxRefused = 8
	}
	ref := &refusals{accept: opt.Accept, max: maxRefused}
	// A deadlock first: the scout searches the header states toward a few destinations
	// (scout.go); what it finds is a configuration of the whole space, so the exact
	// search below only has to look for smaller ones, and whatever stops it, the scout's
	// configuration is the answer.
	var first *Configuration
	var sc scouted
	if d.Analysis != nil && !opt.NoScout {
		first = ringScout(ctx, rel, ref)
		d.Ring = first != nil
		if first == nil {
			sc = scout(ctx, rel, d.Analysis, opt, ref)
			first, d.ScoutDestinations = sc.conf, sc.dests
		}
	}
	full := *d
	switch est := sc.estimate(g); {
	case first != nil && est > opt.MaxStates+opt.MaxStates/4:
		// The whole space would not fit: the scout's configuration is the answer.
		full.Verdict, full.Bound = props.Inconclusive, fmt.Sprintf("header states: the whole space would hold about %d (by the %d toward the scout's %s), more than the bound of %d", est, sc.states, plural(sc.dests, "destination"), opt.MaxStates)
	default:
		fctx := ctx
		if dl, ok := deadline(ctx); ok && first != nil {
			// With a configuration in hand, the search for smaller ones stops a margin
			// before the caller's deadline, so that the answer is in within it.
			m := marginBefore(time.Until(dl))
			c, cancel := context.WithDeadlineCause(ctx, dl.Add(-m), fmt.Errorf("%v before the deadline, to answer within it", m))
			defer cancel()
			fctx = c
		}
		if err := decideSpace(fctx, rel, &full, opt, ref, spaceSearch{upper: first}); err != nil {
			return nil, err
		}
	}
	full.Refused = ref.n
	full.Nodes += sc.nodes
	if first == nil || full.Verdict == props.Violated {
		return &full, nil
	}
	// The exact search stopped (a bound, the context, the refusals) before it found
	// a configuration as small as the scout's: the scout's is the answer, not proved
	// minimal.
	full.Verdict, full.Configuration, full.Minimal, full.FewestWorms, full.FoundFirst = props.Violated, first, false, false, true
	full.NotMinimal = "the search for smaller ones stopped: " + ruledOutText(full.WormsRuledOut, strings.TrimPrefix(full.Bound, "stopped: "))
	full.Bound, full.Exhausted = "", false
	return &full, nil
}

// ruledOutText says how far the search by fewest worms got before bound stopped it.
func ruledOutText(k int, bound string) string {
	if k <= 0 {
		return bound + "; no number of worms was ruled out"
	}
	return fmt.Sprintf("%s; configurations of up to %s were ruled out", bound, plural(k, "worm"))
}

// decideSpace searches the header-state space of rel toward the destinations dests
// (nil: every one) and fills d: violated with a configuration (the fewest worms, then
// the fewest channels, or how far that order got), holds when there is none,
// inconclusive when a bound, the context or the refusals stop it. upper, when set, is a
// configuration already found and accepted: the search then only looks for smaller
// ones, and upper is the answer when there are none (d.Minimal) or when the search
// stops first (d.Verdict inconclusive, d.WormsRuledOut saying how far it got). With
// how.probe, only probes for configurations of 1, 2, ... how.probe worms run (scout):
// violated with the first accepted, inconclusive when none is found.
func decideSpace(ctx context.Context, rel routing.Relation, d *Decision, opt Options, ref *refusals, how spaceSearch) error {
	dests, upper := how.dests, how.upper
	halt := func(err error) error {
		d.Verdict, d.Bound = props.Inconclusive, err.Error()
		return nil
	}
	sp, err := buildSpace(ctx, rel, opt.MaxStates, dests)
	if cdg.Stopped(err) {
		return halt(err)
	}
	var eb *cdg.StatesBound
	if errors.As(err, &eb) {
		d.Verdict, d.Bound = props.Inconclusive, "header states: "+eb.Error()
		d.States, d.overStates = eb.States, true
		return nil
	}
	if err != nil {
		return err
	}
	d.States = int64(sp.states())
	if h := sp.stranded; h != nil {
		// A header its source cannot inject: a deadlock of one worm holding nothing.
		d.Verdict, d.Minimal, d.FewestWorms = props.Violated, true, true
		d.Configuration = &Configuration{Worms: []ConfWorm{{Src: h.Src, Dst: h.Dst}}}
		return nil
	}
	// A header offered no output after its source is a deadlock of one worm holding
	// only the channel it arrived on: the fewest worms and channels there are after
	// the case above. The search below assumes every configuration closes a cycle of
	// waits, so these are taken here, shortest route first.
	for _, i := range sp.strandedStates() {
		c := &Configuration{Channels: 1}
		cw := ConfWorm{Src: topology.NodeID(sp.src[i]), Dst: topology.NodeID(sp.dst[i]), Held: 1, Misroutes: sp.misroutes(i)}
		for _, v := range sp.route(i) {
			cw.Route = append(cw.Route, sp.vertex(v))
		}
		c.Worms = []ConfWorm{cw}
		if upper != nil && len(upper.Worms) == 1 && upper.Channels <= 1 {
			break // as small as this: upper is minimal
		}
		if !ref.ask(c) {
			if err := ref.full(); err != nil {
				return halt(fmt.Errorf("%d stranded headers were found and the flit model reached none of them from the empty network (the bound is %d)", ref.n, ref.max))
			}
			continue
		}
		d.Verdict, d.Configuration, d.Minimal, d.FewestWorms, d.Refused = props.Violated, c, true, true, ref.n
		return nil
	}
	alive, header := sp.survivors()
	if err := stopped(ctx); err != nil {
		return halt(err)
	}
	vert := make([]bool, sp.vertices())
	for i, ok := range alive {
		if ok {
			d.Survivors++
			vert[sp.vtx[i]] = true
		}
	}
	maxC := 0
	for _, ok := range vert {
		if ok {
			maxC++
		}
	}
	f := newFinder(sp, alive, header, opt.MaxNodes)
	f.ctx, f.ref = ctx, ref
	defer func() { d.Excluded += f.excluded }()
	// No configuration is left, but those refused are not "none".
	holds := func() error {
		if upper != nil {
			// Nothing smaller than upper: it has the fewest worms, then the fewest
			// channels.
			d.Verdict, d.Configuration, d.Minimal, d.FewestWorms = props.Violated, upper, true, true
			return nil
		}
		if ref.n > 0 {
			d.Exhausted = true
			return halt(fmt.Errorf("the search found %d deadlock configurations and the flit model reached none of them from the empty network; it found no other", ref.n))
		}
		d.Verdict = props.Holds
		return nil
	}
	if how.probe == 0 && dests == nil && !opt.NoEscapeBound {
		d.EscapeBound, d.EscapeChannels = escapeBound(rel, sp)
		switch {
		case d.EscapeBound == escapeNone:
			d.EscapeBound, d.By = 0, ByEscapeRing
			d.Verdict = props.Holds
			if upper != nil {
				return fmt.Errorf("routing %s: the escape-ring bound leaves no configuration, yet one of %s was found (a bug)", rel.Name(), plural(len(upper.Worms), "worm"))
			}
			return nil
		case upper != nil && (d.EscapeBound > len(upper.Worms) || d.EscapeChannels > upper.Channels):
			return fmt.Errorf("routing %s: the escape-ring bound of %s and %s exceeds a configuration of %s on %s (a bug)", rel.Name(), plural(d.EscapeBound, "worm"), plural(d.EscapeChannels, "channel"), plural(len(upper.Worms), "worm"), plural(upper.Channels, "channel"))
		}
	}
	f.sym = sp.symmetry()
	f.lasso, f.adj = sp.lassos(alive, f.sym)
	cb := newCycleBounds(sp, alive, header)
	cb.sym = f.sym
	if how.probe == 0 {
		// The scout's probes go without the worm and cycle bounds: on a sub-space
		// without symmetry they may cost more than the probes they would prune.
		f.cb = cb
		f.bounds = sp.wormBoundsOf(alive, header, boundCycles, cb)
	}
	minLasso := maxC
	for _, l := range f.lasso {
		if l >= 0 {
			minLasso = min(minLasso, int(l))
		}
	}
	if err := stopped(ctx); err != nil {
		return halt(err)
	}
	if how.probe > 0 {
		return probe(d, f, how.probe, max(1, minLasso), min(maxC, scoutChannels), halt)
	}
	return searchOrdered(d, f, opt, maxC, minLasso, upper, holds, halt)
}

// spaceSearch says which space decideSpace searches and how: the destinations (nil:
// all), a configuration already found (upper), and, for the scout, the most worms its
// probes look for (0: the ordered search instead).
type spaceSearch struct {
	dests []bool
	upper *Configuration
	probe int
}

// probe looks for a configuration of at most most worms and from channels, then four
// times as many, and so on up to c (a wider bound makes every search node dearer: the
// corridors and chain bounds cover the states within the channels left), each run
// within scoutProbeNodes search nodes, every configuration found asked to ref (refused
// ones are passed over), and fills d: violated with the first accepted, not minimal;
// otherwise inconclusive.
func probe(d *Decision, f *finder, most, from, c int, halt func(error) error) error {
	for cc := min(from, c); ; cc = min(4*cc, c) {
		f.budget, f.stopped = f.nodes+scoutProbeNodes, false
		ok := f.run(most, cc)
		d.Nodes = f.nodes
		if f.halt != nil {
			return halt(f.halt)
		}
		if ok {
			d.Verdict, d.Configuration, d.Refused = props.Violated, f.conf, f.ref.n
			return nil
		}
		if !f.stopped && !f.cutK && !f.cutC || cc == c {
			break // none at all, or none within c
		}
	}
	d.Verdict, d.Bound = props.Inconclusive, "the probes found no configuration"
	return nil
}

// searchOrdered runs the finder f in the order of the fewest worms, then the fewest
// channels, and fills d (decideSpace says how upper counts). For k = 1, 2, ...: a probe
// with no bound on the channels (probeNodes nodes at most, nothing realised) looks for
// a configuration of at most k worms, which a permissive relation has at once; then an
// iterative deepening on the channels (skipping the levels below the cycle bound
// least(k)) finds the configuration of at most k worms with the fewest channels, or
// shows there is none once a level needs no more channels (when the probe or that
// level needed no more worms either, there is no configuration at all). The first k
// with one is the fewest worms; with upper, the search stops at its worms and looks
// only below its channels.
// That order spends at most a share of the nodes (minimalShare): proving that no
// configuration has fewer worms can cost far more than finding one. Past the share,
// a configuration of the fewest worms the probe found keeps that title without the
// fewest channels proved; without one the search deepens on channels alone (fewest
// channels, then fewest worms: fewestChannels).
func searchOrdered(d *Decision, f *finder, opt Options, maxC, minLasso int, upper *Configuration, holds func() error, halt func(error) error) error {
	cb := f.cb
	found := func(c *Configuration, minimal bool) error {
		d.Nodes, d.Refused = f.nodes, f.ref.n
		d.Verdict, d.Configuration, d.Minimal, d.FewestWorms = props.Violated, c, minimal, true
		return nil
	}
	share := max(1, opt.MaxNodes/minimalShare)
	k := max(1, d.EscapeBound)
	for ; k <= maxC; k++ {
		d.WormsRuledOut = k - 1
		atUpper := upper != nil && k >= len(upper.Worms)
		var probe *Configuration
		complete := false
		if !atUpper {
			f.probing, f.budget = true, min(share, f.nodes+probeNodes)
			if f.run(k, maxC) {
				probe = f.conf
			} else {
				complete = !f.stopped
			}
			f.probing, f.budget = false, share
			if f.halt != nil {
				d.Nodes = f.nodes
				return halt(f.halt)
			}
			f.stopped = f.nodes > share
			if f.stopped {
				break
			}
			if complete {
				if !f.cutK {
					break // no configuration of any number of worms
				}
				continue
			}
		}
		last := maxC // the channels the deepening goes up to
		if atUpper {
			last = upper.Channels - 1
		}
		c, asked := max(1, d.EscapeChannels), false
		for ; c <= last; c++ {
			// No configuration of at most k worms holds fewer than least(k) channels
			// (cycleBounds), so the levels below it are empty. It is asked for only
			// where it may save a search: at the first level not pruned whole by the
			// lassos (the levels below cost nothing), and below the channels of the
			// probe's configuration (at them the level finds one).
			if !asked && c >= minLasso && (probe == nil || c < probe.Channels) {
				asked = true
				c = max(c, int(min(int32(maxC), cb.bound(k))))
				if c > last {
					break
				}
			}
			if f.run(k, c) {
				return found(f.conf, true)
			}
			if f.stopped || !f.cutC {
				break
			}
		}
		if f.halt != nil {
			d.Nodes = f.nodes
			return halt(f.halt)
		}
		if atUpper {
			if !f.stopped {
				d.Nodes = f.nodes
				return holds() // nothing smaller than upper
			}
			found(upper, false)
			d.NotMinimal = fmt.Sprintf("it has the fewest worms, proved; the fewest channels among them are not: configurations of %s on fewer than %d channels were ruled out only up to %s, within %d search nodes", plural(k, "worm"), upper.Channels, plural(c-1, "channel"), f.nodes)
			return nil
		}
		if f.stopped && probe != nil && f.ref.ask(probe) {
			found(probe, false)
			d.NotMinimal = fmt.Sprintf("it has the fewest worms, proved; the fewest channels among them are not: configurations of %s on fewer than %d channels were ruled out only up to %s, within %d search nodes", plural(k, "worm"), probe.Channels, plural(c-1, "channel"), f.nodes)
			return nil
		}
		if f.stopped || !f.cutK {
			break
		}
	}
	d.Refused = f.ref.n
	if !f.stopped {
		d.Nodes = f.nodes
		if upper == nil {
			d.WormsRuledOut = 0 // none at all: nothing to count
		}
		return holds()
	}
	if f.halt != nil {
		d.Nodes = f.nodes
		return halt(f.halt)
	}
	return searchByChannels(d, f, opt, k, maxC, minLasso, upper, holds, halt)
}

// searchByChannels is the search by the fewest channels, then the fewest worms, that
// takes over when the order by fewest worms has spent its share of the nodes at k
// worms (k-1 ruled out): every configuration left has at least k worms, so at least k
// channels, and at least the least segment cycle's (cycleBounds.leastAny). With upper
// it looks below upper's channels only, and the smaller of what it finds and upper
// (fewest worms, then channels) is the answer.
func searchByChannels(d *Decision, f *finder, opt Options, k, maxC, minLasso int, upper *Configuration, holds func() error, halt func(error) error) error {
	fewer := fmt.Sprintf("the order by fewest worms stopped at %d search nodes, at %s, before it ruled out any", f.nodes, plural(k, "worm"))
	if k > 1 {
		fewer = fmt.Sprintf("configurations of up to %s were ruled out; the order by fewest worms stopped at %d search nodes, at %s", plural(k-1, "worm"), f.nodes, plural(k, "worm"))
	}
	last := maxC
	if upper != nil {
		last = upper.Channels - 1
	}
	f.budget, f.stopped = opt.MaxNodes, false
	for c := max(1, d.EscapeChannels, min(maxC, max(k, minLasso, int(min(int32(maxC), f.cb.leastAny()))))); c <= last; c++ {
		if f.run(maxC, c) {
			best := f.conf
			for k := 1; k < len(best.Worms); k++ {
				if f.run(k, c) {
					best = f.conf
					break
				}
				if f.stopped {
					break
				}
			}
			if upper != nil && (len(upper.Worms) < len(best.Worms) || len(upper.Worms) == len(best.Worms) && upper.Channels <= best.Channels) {
				best = upper
			}
			d.Nodes, d.Refused = f.nodes, f.ref.n
			d.Verdict, d.Configuration, d.NotMinimal = props.Violated, best, fewer
			return nil
		}
		d.Refused = f.ref.n
		if f.halt != nil {
			d.Nodes = f.nodes
			return halt(f.halt)
		}
		if f.stopped {
			break
		}
		if !f.cutC {
			if upper != nil {
				break // none below upper's channels; fewer worms not ruled out
			}
			d.Nodes = f.nodes
			return holds()
		}
	}
	d.Nodes = f.nodes
	if upper != nil {
		d.Verdict, d.Configuration, d.NotMinimal = props.Violated, upper, fewer
		return nil
	}
	d.Verdict, d.Bound = props.Inconclusive, fmt.Sprintf("search nodes: %s; by fewest channels the bound of %d nodes was reached", fewer, opt.MaxNodes)
	return nil
}

// answerMargin is how long before the caller's deadline the search for configurations
// smaller than the scout's stops, at most: realising and reporting the answer takes
// well under it.
const answerMargin = 2 * time.Second

// marginBefore returns the margin before a deadline left away: answerMargin, or a
// tenth of what is left where that is less (a one-second limit still gives the search
// for smaller configurations 0.9 s rather than none), rounded to milliseconds.
func marginBefore(left time.Duration) time.Duration {
	return min(answerMargin, max(left/10, 0)).Round(time.Millisecond)
}

// defaultMaxStates is the header-state bound of a decision not given one: about 1.3 GB
// at its peak (bytesPerHeaderState).
const defaultMaxStates = 1 << 23

// maxVertices bounds the (channel, VC) vertices of a relation the decision takes on
// (hypercube:18 has more): every graph of the decision has one entry per vertex, and
// a header-state search per destination one per vertex and source class.
const maxVertices = 1 << 22

// probeNodes bounds each probe for a configuration of at most k worms (Decide).
const probeNodes = 1 << 14

// minimalShare: the search by fewest worms may spend 1/minimalShare of the search
// nodes before the search by fewest channels takes over (Decide).
const minimalShare = 8

// boundCycles is how many arcs the worm bounds follow around a cycle (wormBounds).
const boundCycles = 12

// configuration turns the worms a search found into a Configuration with concrete
// routes: for each worm, a state of its tail set, the route that first reached it
// from its source, then the worm's own vertices through states of its sets.
func (sp *space) configuration(worms []*wormPart) *Configuration {
	c := &Configuration{}
	for _, w := range worms {
		st := w.sets[0][0]
		route := sp.route(st)
		src := sp.src[st]
		if r := w.route; r != nil {
			st, route, src = r.start, append(slices.Clone(r.prefix), w.path[0]), r.src
		}
		for i := 1; i < len(w.path); i++ {
			to, vs := sp.arcs(st)
			next := int32(-1)
			for j, t := range to {
				if vs[j] == w.path[i] && t >= 0 && slices.Contains(w.sets[i], t) {
					next = t
					break
				}
			}
			st = next
			route = append(route, w.path[i])
		}
		cw := ConfWorm{Src: topology.NodeID(src), Dst: topology.NodeID(sp.dst[st]), Held: len(w.path), Misroutes: sp.misroutes(st)}
		for _, v := range route {
			cw.Route = append(cw.Route, sp.vertex(v))
		}
		for _, v := range w.outs {
			cw.Waits = append(cw.Waits, sp.vertex(v))
		}
		c.Worms = append(c.Worms, cw)
		c.Channels += len(w.path)
	}
	return c
}

// key identifies a configuration by its worms' sources, destinations, routes and held
// channels, in the search's order of worms.
func (c *Configuration) key() string {
	return fmt.Sprint(c.Worms)
}

// vertex returns the (channel, VC) of vertex index v.
func (sp *space) vertex(v int32) cdg.Vertex {
	return cdg.Vertex{Channel: topology.ChannelID(int(v) / sp.vcs), VC: int(v) % sp.vcs}
}

// stopped is cdg.Stop: the decision stops as the analysis and the header-state search
// do, with one error that cdg.Stopped recognises.
func stopped(ctx context.Context) error { return cdg.Stop(ctx) }

// deadline returns ctx's deadline (nil: none).
func deadline(ctx context.Context) (time.Time, bool) {
	if ctx == nil {
		return time.Time{}, false
	}
	return ctx.Deadline()
}
