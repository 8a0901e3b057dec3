package decide

import (
	"fmt"
	"io"
	"strings"

	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/cdg"
)

// Reason says in one line why the decision is what it is.
func (d *Decision) Reason() string {
	switch {
	case d.By == ByCDG:
		return "the channel dependency graph is acyclic (Dally & Seitz): no deadlock configuration"
	case d.By == ByDuato:
		return "the escape subfunction is connected and its extended dependency graph is acyclic (Duato): no deadlock configuration"
	case d.By == ByEscapeRing:
		return "every route is minimal and VC 0 is dimension order, and no ring of the torus has 4 nodes or more: no cycle of VC-0 waits, so no deadlock configuration (the escape-ring bound, docs/semantics.md)"
	case d.Verdict == props.Holds && d.Excluded > 0:
		return fmt.Sprintf("no deadlock configuration exists (exact search: %d header states, %d can take part in one, %d partial configurations tried; %d passed over, a worm of each having no route it can be stuck on, for any worm length and buffer depth: its route re-enters a channel within the channels it holds)", d.States, d.Survivors, d.Nodes, d.Excluded)
	case d.Verdict == props.Holds:
		return fmt.Sprintf("no deadlock configuration exists (exact search: %d header states, %d can take part in one, %d partial configurations tried)", d.States, d.Survivors, d.Nodes)
	case d.Verdict == props.Violated && d.Configuration.Channels == 0:
		w := d.Configuration.Worms[0]
		return fmt.Sprintf("a header %s->%s is stranded at its source (offered no output): a deadlock of one worm", d.g.NodeName(w.Src), d.g.NodeName(w.Dst))
	case d.Verdict == props.Violated:
		c := d.Configuration
		min := ""
		if d.Minimal {
			min = "minimal "
		}
		return fmt.Sprintf("a %sdeadlock configuration: %s holding %s, every header's permitted outputs held", min, plural(len(c.Worms), "worm"), plural(c.Channels, "channel"))
	case d.Exhausted:
		return d.Bound
	}
	return "the exact search reached a bound: " + d.Bound
}

func (d *Decision) vertexName(v cdg.Vertex) string {
	return fmt.Sprintf("%s.vc%d", d.g.ChannelName(v.Channel), v.VC)
}

// holderOf returns the worm of c that holds v, or -1.
func (c *Configuration) holderOf(v cdg.Vertex) int {
	for i, w := range c.Worms {
		for _, h := range w.HeldVertices() {
			if h == v {
				return i
			}
		}
	}
	return -1
}

// Witness returns the configuration as a witness of kind configuration (nil without one).
func (d *Decision) Witness() *props.Witness {
	c := d.Configuration
	if c == nil {
		return nil
	}
	cw := &props.ConfigurationWitness{Channels: c.Channels, Minimal: d.Minimal}
	var held []string
	for i, w := range c.Worms {
		x := props.ConfigurationWorm{Message: i, Src: d.g.NodeName(w.Src), Dst: d.g.NodeName(w.Dst), Held: w.Held}
		for _, v := range w.Route {
			x.Route = append(x.Route, d.vertexName(v))
		}
		for _, v := range w.Waits {
			x.Waits = append(x.Waits, props.WaitOutput{Channel: d.g.ChannelName(v.Channel), VC: v.VC, Holder: c.holderOf(v)})
		}
		cw.Worms = append(cw.Worms, x)
		held = append(held, fmt.Sprintf("m%d %s->%s", i, d.g.NodeName(w.Src), d.g.NodeName(w.Dst)))
	}
	return &props.Witness{Kind: props.WitnessConfiguration, Configuration: cw,
		Violation: fmt.Sprintf("deadlock configuration of %s holding %s: %s", plural(len(c.Worms), "worm"), plural(c.Channels, "channel"), strings.Join(held, ", "))}
}

// plural is "1 worm", "2 worms".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// WriteText prints the decision for people: the verdict, how it was reached and, for a
// violation, every worm of the configuration with its route, the channels it holds and
// the outputs its header waits for (and who holds them).
func (d *Decision) WriteText(w io.Writer) { d.writeText(w, true) }

// writeText is WriteText, with the reason line left out when withReason is false (a
// report whose headline says it already).
func (d *Decision) writeText(w io.Writer, withReason bool) {
	by := ""
	if d.By != "" {
		by = " by " + string(d.By)
	}
	fmt.Fprintf(w, "exact decision (deadlock configurations): %s%s\n", d.Verdict, by)
	if withReason {
		fmt.Fprintf(w, "  %s\n", d.Reason())
	}
	c := d.Configuration
	if c == nil {
		return
	}
	order := "fewest worms, then fewest channels"
	switch {
	case d.Minimal:
	case d.FoundFirst && d.Ring:
		order = "found first, built round one ring of the torus; not proved minimal: " + d.NotMinimal
	case d.FoundFirst:
		order = fmt.Sprintf("found first, among the header states toward %s; not proved minimal: %s", plural(d.ScoutDestinations, "destination"), d.NotMinimal)
	case d.FewestWorms:
		order = "fewest worms, then fewest channels; not proved minimal: " + d.NotMinimal
	default:
		order = "fewest channels, then fewest worms; not proved to have the fewest worms: " + d.NotMinimal
	}
	fmt.Fprintf(w, "configuration (%s):\n", order)
	if d.EscapeBound > 0 {
		fmt.Fprintf(w, "  (every configuration has at least %s on %s: the escape-ring bound, docs/semantics.md)\n", plural(d.EscapeBound, "worm"), plural(d.EscapeChannels, "channel"))
	}
	for i, cw := range c.Worms {
		fmt.Fprintf(w, "  m%d %s->%s", i, d.g.NodeName(cw.Src), d.g.NodeName(cw.Dst))
		if len(cw.Route) == 0 {
			fmt.Fprintln(w, ": stranded at its source (offered no output)")
			continue
		}
		if rel := len(cw.Route) - cw.Held; rel > 0 {
			fmt.Fprintf(w, " released %s, holds", plural(rel, "channel"))
		} else {
			fmt.Fprint(w, " holds")
		}
		for _, v := range cw.HeldVertices() {
			fmt.Fprintf(w, " %s", d.vertexName(v))
		}
		fmt.Fprint(w, "; waits for")
		if len(cw.Waits) == 0 {
			fmt.Fprint(w, " nothing: it is stranded (offered no output)")
		}
		for _, v := range cw.Waits {
			fmt.Fprintf(w, " %s (m%d)", d.vertexName(v), c.holderOf(v))
		}
		fmt.Fprintln(w)
	}
}
