package decide

import (
	"context"
	"errors"
	"fmt"
	"slices"

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
	// Context, when it ends (a signal, a time limit, a memory budget), stops the
	// decision within a second: inconclusive, with its cause as the bound. nil: never.
	Context context.Context
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
	sp, err := buildSpace(ctx, rel, opt.MaxStates)
	if cdg.Stopped(err) {
		return halt(err)
	}
	var eb *cdg.StatesBound
	if errors.As(err, &eb) {
		d.Verdict, d.Bound = props.Inconclusive, "header states: "+eb.Error()
		d.States = eb.States
		return d, nil
	}
	if err != nil {
		return nil, err
	}
	d.States = int64(sp.states())
	if h := sp.stranded; h != nil {
		// A header its source cannot inject: a deadlock of one worm holding nothing.
		d.Verdict, d.Minimal, d.FewestWorms = props.Violated, true, true
		d.Configuration = &Configuration{Worms: []ConfWorm{{Src: h.Src, Dst: h.Dst}}}
		return d, nil
	}
	// A header offered no output after its source is a deadlock of one worm holding
	// only the channel it arrived on: the fewest worms and channels there are after
	// the case above. The search below assumes every configuration closes a cycle of
	// waits, so these are taken here, shortest route first.
	strandRefused, maxRefused := 0, opt.MaxRefused
	if maxRefused <= 0 {
		maxRefused = 8
	}
	for _, i := range sp.strandedStates() {
		c := &Configuration{Channels: 1}
		cw := ConfWorm{Src: topology.NodeID(sp.src[i]), Dst: topology.NodeID(sp.dst[i]), Held: 1, Misroutes: sp.misroutes(i)}
		for _, v := range sp.route(i) {
			cw.Route = append(cw.Route, sp.vertex(v))
		}
		c.Worms = []ConfWorm{cw}
		if opt.Accept != nil && !opt.Accept(c) {
			if strandRefused++; strandRefused >= maxRefused {
				return halt(fmt.Errorf("%d stranded headers were found and the flit model reached none of them from the empty network (the bound is %d)", strandRefused, maxRefused))
			}
			continue
		}
		d.Verdict, d.Configuration, d.Minimal, d.FewestWorms, d.Refused = props.Violated, c, true, true, strandRefused
		return d, nil
	}
	alive, header := sp.survivors()
	if err := stopped(ctx); err != nil {
		return halt(err)
	}
	var vert []bool = make([]bool, sp.vertices())
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
	f.ctx = ctx
	f.accept, f.maxRefused = opt.Accept, maxRefused
	f.refused = strandRefused // a refused strand is not "none": the search cannot find it
	// No configuration is left, but those refused are not "none".
	holds := func() (*Decision, error) {
		if f.refused > 0 {
			d.Exhausted = true
			return halt(fmt.Errorf("the search found %d deadlock configurations and the flit model reached none of them from the empty network; it found no other", f.refused))
		}
		d.Verdict = props.Holds
		return d, nil
	}
	f.lasso, f.adj = sp.lassos(alive)
	f.sym = sp.symmetry()
	cb := newCycleBounds(sp, alive, header)
	cb.sym, f.cb = f.sym, cb
	f.bounds = sp.wormBoundsOf(alive, header, boundCycles, cb)
	minLasso := maxC
	for _, l := range f.lasso {
		if l >= 0 {
			minLasso = min(minLasso, int(l))
		}
	}
	if err := stopped(ctx); err != nil {
		return halt(err)
	}
	// Fewest worms first, then fewest channels. For k = 1, 2, ...: a probe with no
	// bound on the channels (probeNodes nodes at most, nothing realised) looks for a
	// configuration of at most k worms, which a permissive relation has at once; then
	// an iterative deepening on the channels (skipping the levels below the cycle
	// bound least(k)) finds the configuration of at most k worms with the fewest
	// channels, or shows there is none once a level needs no more channels (when the
	// probe or that level needed no more worms either, there is no configuration at
	// all). The first k with one is the fewest worms.
	// That order spends at most a share of the nodes (minimalShare): proving that no
	// configuration has fewer worms can cost far more than finding one. Past the share,
	// a configuration of the fewest worms the probe found keeps that title without the
	// fewest channels proved; without one the search deepens on channels alone (fewest
	// channels, then fewest worms), which reaches a configuration of a permissive
	// relation sooner, and it is not proved to have the fewest worms.
	share := max(1, opt.MaxNodes/minimalShare)
	k := 1
	for ; k <= maxC; k++ {
		accept := f.accept
		f.accept, f.budget = nil, min(share, f.nodes+probeNodes)
		var probe *Configuration
		complete := false
		if f.run(k, maxC) {
			probe = f.conf
		} else {
			complete = !f.stopped
		}
		f.accept, f.budget = accept, share
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
		c, asked := 1, false
		for ; c <= maxC; c++ {
			// No configuration of at most k worms holds fewer than least(k) channels
			// (cycleBounds), so the levels below it are empty. It is asked for only
			// where it may save a search: at the first level not pruned whole by the
			// lassos (the levels below cost nothing), and below the channels of the
			// probe's configuration (at them the level finds one).
			if !asked && c >= minLasso && (probe == nil || c < probe.Channels) {
				asked = true
				c = max(c, int(min(int32(maxC), cb.bound(k))))
			}
			if f.run(k, c) {
				d.Nodes, d.Refused = f.nodes, f.refused
				d.Verdict, d.Configuration, d.Minimal, d.FewestWorms = props.Violated, f.conf, true, true
				return d, nil
			}
			if f.stopped || !f.cutC {
				break
			}
		}
		if f.halt != nil {
			d.Nodes = f.nodes
			return halt(f.halt)
		}
		if f.stopped && probe != nil && (f.accept == nil || f.accept(probe)) {
			d.Nodes, d.Refused = f.nodes, f.refused
			d.Verdict, d.Configuration = props.Violated, probe
			d.FewestWorms = true
			d.NotMinimal = fmt.Sprintf("it has the fewest worms, proved; the fewest channels among them are not: configurations of %s on fewer than %d channels were ruled out only up to %s, within %d search nodes", plural(k, "worm"), probe.Channels, plural(c-1, "channel"), f.nodes)
			return d, nil
		}
		if f.stopped || !f.cutK {
			break
		}
	}
	d.Refused = f.refused
	if !f.stopped {
		d.Nodes = f.nodes
		return holds()
	}
	if f.halt != nil {
		d.Nodes = f.nodes
		return halt(f.halt)
	}
	fewer := fmt.Sprintf("the order by fewest worms stopped at %d search nodes, at %s, before it ruled out any", f.nodes, plural(k, "worm"))
	if k > 1 {
		fewer = fmt.Sprintf("configurations of up to %s were ruled out; the order by fewest worms stopped at %d search nodes, at %s", plural(k-1, "worm"), f.nodes, plural(k, "worm"))
	}
	f.budget, f.stopped = opt.MaxNodes, false
	// Every configuration left has at least k worms (fewer were ruled out), so at
	// least k channels, and at least the least segment cycle's (cycleBounds.leastAny).
	for c := max(1, min(maxC, max(k, minLasso, int(min(int32(maxC), cb.leastAny()))))); c <= maxC; c++ {
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
			d.Nodes, d.Refused = f.nodes, f.refused
			d.Verdict = props.Violated
			d.Configuration = best
			d.NotMinimal = fewer
			return d, nil
		}
		d.Refused = f.refused
		if f.halt != nil {
			d.Nodes = f.nodes
			return halt(f.halt)
		}
		if f.stopped {
			break
		}
		if !f.cutC {
			d.Nodes = f.nodes
			return holds()
		}
	}
	d.Nodes = f.nodes
	d.Verdict, d.Bound = props.Inconclusive, fmt.Sprintf("search nodes: %s; by fewest channels the bound of %d nodes was reached", fewer, opt.MaxNodes)
	return d, nil
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
		cw := ConfWorm{Src: topology.NodeID(sp.src[w.sets[0][0]]), Dst: topology.NodeID(sp.dst[st]), Held: len(w.path), Misroutes: sp.misroutes(st)}
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
