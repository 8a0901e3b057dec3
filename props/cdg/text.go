package cdg

import (
	"fmt"
	"io"
	"strings"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// Verdict is the static verdict on deadlock freedom: Holds when a sufficient condition
// proves it, Violated when a reachable header is offered nothing (it waits for ever),
// and Inconclusive otherwise: a cyclic graph is not a deadlock, and the explorer
// decides on small instances.
func (r *Result) Verdict() props.Verdict {
	switch {
	case r.Stranded != nil:
		return props.Violated
	case r.DeadlockFree():
		return props.Holds
	}
	return props.Inconclusive
}

// Reason says in one line why the verdict is what it is.
func (r *Result) Reason() string {
	switch {
	case r.Stranded != nil:
		return "a reachable header is offered no output: " + r.headerName(*r.Stranded)
	case r.Acyclic:
		return "the channel dependency graph is acyclic (Dally & Seitz; sufficient)"
	case r.Duato != nil && r.Duato.Decided && r.Duato.Acyclic && r.Duato.Connected:
		return "the escape subfunction is connected and its extended dependency graph is acyclic (Duato; sufficient), although the channel dependency graph is cyclic"
	}
	return "the dependency graph is cyclic; a cycle is not a deadlock by itself: explore small instances with `wormcheck check --routing`"
}

func (r *Result) vertexName(v Vertex) string {
	return fmt.Sprintf("%s.vc%d", r.g.ChannelName(v.Channel), v.VC)
}

func (r *Result) headerName(h routing.Header) string {
	in := "at its source"
	if h.In.Channel != routing.Injection {
		in = fmt.Sprintf("arrived on %s", r.vertexName(Vertex{h.In.Channel, h.In.VC}))
	}
	s := fmt.Sprintf("header %s->%s at %s, %s", r.g.NodeName(h.Src), r.g.NodeName(h.Dst), r.g.NodeName(h.At), in)
	if h.Misroutes > 0 {
		s += fmt.Sprintf(", %d misroutes", h.Misroutes)
	}
	return s
}

// Turn names the turn a dependency makes, in the turn model's words: "east->north at
// (1,0)", with the non-escape channels of an indirect dependency ("east~>north at
// (3,1) via 2 non-escape channels").
func (r *Result) Turn(d Dep) string {
	g := r.g
	at := g.Channel(d.To.Channel).From
	from, to := routing.ChannelDir(g, d.From.Channel), routing.ChannelDir(g, d.To.Channel)
	if g.IsGraph() { // no directions: the nodes the turn joins
		from, to = g.NodeName(g.Channel(d.From.Channel).From), g.NodeName(g.Channel(d.To.Channel).To)
	}
	if len(d.Via) == 0 {
		return fmt.Sprintf("%s->%s at %s", from, to, g.NodeName(at))
	}
	return fmt.Sprintf("%s~>%s at %s via %d non-escape channels", from, to, g.NodeName(at), len(d.Via))
}

// cycleWitness turns a cycle of dependencies into the one witness schema: edge i holds
// channel i and waits for channel i+1 (Holder), Turn the turn between them.
func (r *Result) cycleWitness(cyc []Dep, what string) *props.Witness {
	w := &props.Witness{Kind: props.WitnessCycle}
	var names []string
	for i, d := range cyc {
		w.Cycle = append(w.Cycle, props.CycleEdge{Message: i, Channel: r.g.ChannelName(d.From.Channel), VC: d.From.VC,
			Holder: (i + 1) % len(cyc), Turn: r.Turn(d)})
		names = append(names, r.vertexName(d.From))
	}
	w.Violation = fmt.Sprintf("%s of %d channels: %s -> back", what, len(cyc), strings.Join(names, " -> "))
	return w
}

// Witness returns the evidence of the verdict: the stranded header (kind instance),
// the extended graph's cycle when Duato's check found one, or the channel dependency
// cycle; nil when the relation is proved deadlock-free.
func (r *Result) Witness() *props.Witness {
	switch {
	case r.Stranded != nil:
		return &props.Witness{Kind: props.WitnessInstance, Violation: "stranded: " + r.headerName(*r.Stranded), Detail: r.Stranded}
	case r.DeadlockFree():
		return nil
	case r.Duato != nil && len(r.Duato.Cycle) > 0:
		return r.cycleWitness(r.Duato.Cycle, "extended channel dependency cycle")
	case len(r.Cycle) > 0:
		return r.cycleWitness(r.Cycle, "channel dependency cycle")
	}
	return nil
}

// CDGWitness returns the channel dependency cycle as a witness (nil if acyclic), also
// when Duato's condition proves the relation deadlock-free: the report of claim RT4
// shows both graphs.
func (r *Result) CDGWitness() *props.Witness {
	if len(r.Cycle) == 0 {
		return nil
	}
	return r.cycleWitness(r.Cycle, "channel dependency cycle")
}

// CycleChannels returns the channels of the witness cycle in order (the extended
// graph's when Duato's check found one), for pictures.
func (r *Result) CycleChannels() []topology.ChannelID {
	cyc := r.Cycle
	if r.Duato != nil && len(r.Duato.Cycle) > 0 {
		cyc = r.Duato.Cycle
	}
	var out []topology.ChannelID
	for _, d := range cyc {
		out = append(out, d.From.Channel)
	}
	return out
}

// WriteText prints the verdicts for people: both graphs, their cycles with the turns
// that close them and a header that makes each dependency, and which conditions are
// only sufficient.
func (r *Result) WriteText(w io.Writer) {
	fmt.Fprintf(w, "routing %s on %s (%d VC): %s\n", r.Relation, r.Topology, r.VCs, r.Verdict())
	fmt.Fprintf(w, "  %s\n", r.Reason())
	r.WriteConditions(w)
}

// WriteConditions prints both graphs' verdicts, without WriteText's first lines (the
// sufficient conditions' own verdict): the exact decision's report shows them under
// its verdict.
func (r *Result) WriteConditions(w io.Writer) {
	fmt.Fprintf(w, "channel dependency graph (Dally & Seitz): %d channels held, %d dependencies, %d reachable header states: ",
		r.Vertices, r.Edges, r.States)
	if r.Acyclic && r.Stranded != nil {
		fmt.Fprintln(w, "acyclic (no cyclic wait), but a header is stranded")
	} else if r.Acyclic {
		fmt.Fprintln(w, "acyclic => deadlock-free")
	} else {
		fmt.Fprint(w, "cyclic (not a proof of deadlock)")
		if !r.Complete {
			fmt.Fprintf(w, "; found after %d of %d destinations, figures until then", r.Destinations, r.g.Nodes())
		}
		fmt.Fprintln(w)
		r.writeCycle(w, r.Cycle)
	}
	if r.Stranded != nil {
		fmt.Fprintf(w, "stranded: %s is offered no output (a certain deadlock)\n", r.headerName(*r.Stranded))
	}
	d := r.Duato
	if d == nil {
		fmt.Fprintln(w, "Duato: the relation names no escape subfunction (not applicable)")
		return
	}
	fmt.Fprintf(w, "Duato (escape subfunction, %d escape channels): ", d.Escape)
	switch {
	case !d.Connected:
		fmt.Fprintf(w, "not connected: %s is offered no escape channel\n", r.headerName(*d.Unescaped))
	case !d.Decided:
		fmt.Fprintf(w, "undecided after %d refinements (%d extended dependencies)\n", d.Refinements, d.Edges)
	case d.Acyclic:
		fmt.Fprintf(w, "connected; extended dependency graph acyclic (passes: %d; dependencies that refined the first order: %d) => deadlock-free\n", d.Refinements, d.Edges)
	default:
		fmt.Fprintln(w, "connected; extended dependency graph cyclic (not a proof of deadlock)")
		r.writeCycle(w, d.Cycle)
	}
}

func (r *Result) writeCycle(w io.Writer, cyc []Dep) {
	for _, d := range cyc {
		fmt.Fprintf(w, "  %-22s %-34s", r.vertexName(d.From), r.Turn(d))
		if d.Src >= 0 {
			fmt.Fprintf(w, " (header %s->%s", r.g.NodeName(d.Src), r.g.NodeName(d.Dst))
		} else {
			fmt.Fprintf(w, " (header ->%s", r.g.NodeName(d.Dst))
		}
		for i, v := range d.Via {
			if i == 0 {
				fmt.Fprint(w, " via")
			}
			fmt.Fprintf(w, " %s", r.vertexName(v))
		}
		fmt.Fprintln(w, ")")
	}
}
