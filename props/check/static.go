package check

import (
	"context"
	"fmt"
	"time"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/decide"
)

// Static first: a unicast deadlock check asks the exact static decision about the
// instance's routing relation before (and beside) the flit search. docs/semantics.md,
// "Static verdicts and flit verdicts", states what each static verdict implies:
//
//   - holds (no deadlock configuration of the relation under the instance's virtual
//     channels): no placement of worms deadlocks, for any packet length, buffer depth or
//     port model, so the instance holds for deadlock and global-deadlock; and for
//     liveness too when the instance's header graphs are acyclic (flit.Model.Acyclic:
//     no header comes back to a channel class it left, as on every minimal route; then
//     every run ends, and ends with every message delivered).
//   - violated: some placement of worms deadlocks, or a configuration exists that the
//     flit model may not reach; neither is about these worms, so the flit search decides,
//     unless the configuration's worms are proved the fewest and outnumber the
//     instance's: a deadlock of the instance would be a configuration of no more worms
//     than it has, so it holds, as above.
//   - inconclusive: a bound was reached; the flit search decides.

// staticCovers is the line a static "holds" report gives for why it decides the instance.
const staticCovers = "this covers every packet length, buffer depth, placement of worms and port model: a flit deadlock of any instance of this relation and these virtual channels would be a deadlock configuration, and there is none (docs/semantics.md)"

// staticRelation returns the relation the instance's network routes by: sp's relation,
// or, when the instance has more virtual channels than the relation uses, the relation
// with each of its virtual channels split into that many copies (vcCopies), as the
// flit model splits them.
func staticRelation(g *topology.Network, sp unicast.Spec) (routing.Relation, error) {
	rel, err := sp.Relation(g)
	if err != nil {
		return nil, err
	}
	if sp.VCs == 0 || sp.VCs == rel.VCs() {
		return rel, nil
	}
	if sp.VCs%rel.VCs() != 0 {
		return nil, fmt.Errorf("vcs %d is not a multiple of routing %s's %d virtual channels", sp.VCs, rel.Name(), rel.VCs())
	}
	return splitVCs(rel, sp.VCs/rel.VCs()), nil
}

// decideStatic decides instance sp's relation statically (cdg.Decide: the sufficient
// conditions, then the exact search of deadlock configurations) under the instance's
// virtual channels, within ctx and a quarter of the memory budget, and says what the
// answer means for the instance. It never fails: a relation the decision refuses is an
// inconclusive static answer, and the flit search decides. m is the instance's flit
// model, asked whether its header graphs are acyclic (liveness).
func decideStatic(ctx context.Context, r *request, g *topology.Network, sp unicast.Spec, m *flit.Model) (st *props.Static, decides bool) {
	start := time.Now()
	st = &props.Static{Topology: g.Spec(), Verdict: props.Inconclusive}
	defer func() { st.Seconds = time.Since(start).Seconds() }()
	rel, err := staticRelation(g, sp)
	if err != nil {
		st.Reason, st.Covers = err.Error(), "the static decision does not apply: the flit search decides"
		return st, false
	}
	st.Routing, st.VCs = rel.Name(), rel.VCs()
	if r.property == checker.PropLiveness && !m.Acyclic() {
		st.Reason = "not asked for liveness"
		st.Covers = "liveness: a header of these worms can come back to a channel class it left, so a worm may circle for ever although nothing deadlocks; the flit search decides"
		return st, false
	}
	d, err := decide.Decide(rel, decide.Options{Context: ctx, MaxStates: decide.HeaderStatesWithin(r.opt.MaxMemoryBytes / 4),
		Accept: func(*decide.Configuration) bool { return true }})
	if err != nil {
		st.Reason, st.Covers = err.Error(), "the static decision refused the relation: the flit search decides"
		return st, false
	}
	st.Verdict, st.By, st.Reason, st.HeaderStates = d.Verdict, string(d.By), d.Reason(), d.States
	if d.Analysis != nil {
		st.HeaderStates += d.Analysis.States
	}
	switch d.Verdict {
	case props.Holds:
		st.Covers = staticCovers
		return st, true
	case props.Violated:
		if n, fewest := len(d.Configuration.Worms), d.FewestWorms; fewest && n > len(sp.Pairs) {
			// A deadlock of these worms would be a configuration of at most len(sp.Pairs)
			// worms (its stuck worms that hold channels), and none has fewer than n.
			st.FewestWorms = n
			st.Covers = fmt.Sprintf("every deadlock configuration of this relation has at least %d worms (the fewest, proved) and these are %d: no placement of %d or fewer worms deadlocks, at any packet length, buffer depth or port model (docs/semantics.md)", n, len(sp.Pairs), len(sp.Pairs))
			return st, true
		}
		st.Covers = "some placement of worms can deadlock under this relation (not necessarily these worms, and a configuration need not be reachable from the empty network): the flit search of these worms decides"
	default:
		st.Covers = "the static decision did not finish: the flit search decides"
	}
	return st, false
}

// staticReport is the report of a unicast instance the static decision st decided
// (holds), for property: no flit search ran. Its certificate says whether delivery
// follows too (acyclic header graphs: every run ends, so ends delivered).
func staticReport(sp unicast.Spec, property checker.Property, st *props.Static, m *flit.Model) *props.Report {
	rep := unicastReport(sp, property, &unicast.Result{Verdict: props.Holds, Seconds: st.Seconds}, new(work))
	rep.Stats = props.Stats{Seconds: st.Seconds, Checked: max(st.HeaderStates, 1), Unit: "header states", Search: "static"}
	rep.Static = st
	rep.Reason = fmt.Sprintf("routing %s is deadlock-free on %s with %s (static decision), so these worms are, at every packet length and buffer depth", st.Routing, st.Topology, vcsText(st.VCs))
	if st.Verdict == props.Violated {
		these := fmt.Sprintf("these %d worms hold", len(sp.Pairs))
		if len(sp.Pairs) == 1 {
			these = "this worm holds"
		}
		rep.Reason = fmt.Sprintf("routing %s on %s with %s deadlocks only with %d or more worms (static decision), so %s, at every packet length and buffer depth", st.Routing, st.Topology, vcsText(st.VCs), st.FewestWorms, these)
	}
	rep.Notes = append(rep.Notes, "the flit search did not run: --search bfs runs it")
	if m.Acyclic() {
		rep.Certificate = &props.Certificate{Kind: props.CertStatic,
			Note: "no deadlock (static decision), and no header of these worms can come back to a channel class it left (acyclic header graphs), so every run ends: every message is delivered"}
	} else {
		rep.Certificate = &props.Certificate{Kind: "none",
			Note: "no deadlock (static decision); delivery is not established: a header of these worms can come back to a channel class it left, so the flit progress measure does not show that every run ends (--prop liveness decides)"}
	}
	return rep
}

// splitVCs returns rel with each of its virtual channels split into per copies: the
// relation the flit model routes by when an instance has per model VCs for each of
// rel's (flit.Config: rel's VC r owns the model's VCs r*per .. r*per+per-1, and a header
// may take any free one). Its headers see rel's VC of their input, so rel routes them as
// it would; its outputs are every copy of rel's, in rel's order. A misroute budget and
// an escape subfunction carry over; rel's optional promises do not, so the static
// decision treats the result as a user's relation (one source class per node).
func splitVCs(rel routing.Relation, per int) routing.Relation {
	s := vcSplit{rel: rel, per: per}
	e, esc := rel.(routing.Escaping)
	b, bud := rel.(routing.Budgeted)
	switch {
	case esc && bud:
		return struct {
			vcSplit
			routing.Budgeted
			splitEscape
		}{s, b, splitEscape{e, per}}
	case esc:
		return struct {
			vcSplit
			splitEscape
		}{s, splitEscape{e, per}}
	case bud:
		return struct {
			vcSplit
			routing.Budgeted
		}{s, b}
	}
	return s
}

// vcSplit is splitVCs' relation.
type vcSplit struct {
	rel routing.Relation
	per int
}

func (v vcSplit) Name() string            { return v.rel.Name() }
func (v vcSplit) Grid() *topology.Network { return v.rel.Grid() }
func (v vcSplit) VCs() int                { return v.rel.VCs() * v.per }

// Route appends every copy of each output rel permits the header seen with its input's
// VC class. Cost: rel's Route and O(outputs * per).
func (v vcSplit) Route(h routing.Header, out []routing.Output) []routing.Output {
	if h.In.Channel != routing.Injection {
		h.In.VC /= v.per
	}
	n0 := len(out)
	out = v.rel.Route(h, out)
	k := len(out) - n0
	for range k * (v.per - 1) {
		out = append(out, routing.Output{})
	}
	for i := k - 1; i >= 0; i-- { // from the back, so that no output is overwritten unread
		o := out[n0+i]
		for c := range v.per {
			out[n0+i*v.per+c] = routing.Output{Channel: o.Channel, VC: o.VC*v.per + c, Misroute: o.Misroute}
		}
	}
	return out
}

// splitEscape is rel's escape subfunction on the split VCs: a copy is an escape output
// when rel's output is.
type splitEscape struct {
	e   routing.Escaping
	per int
}

func (s splitEscape) Escape(h routing.Header, o routing.Output) bool {
	if h.In.Channel != routing.Injection {
		h.In.VC /= s.per
	}
	o.VC /= s.per
	return s.e.Escape(h, o)
}

// vcsText is "1 VC", "2 VCs".
func vcsText(n int) string {
	if n == 1 {
		return "1 VC"
	}
	return fmt.Sprintf("%d VCs", n)
}
