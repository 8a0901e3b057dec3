package routing

import "github.com/wormcheck/wormcheck/model/topology"

// onFaults runs a relation of a grid on the same grid with failed links
// (topology.WithFaults): a header's input is translated to the grid's channel, the grid
// relation routes it, and outputs on failed channels are dropped. A header whose every
// output failed is offered nothing: the relation strands it, which the explorer and the
// static proof report (dimension order does that on any fault on a route).
type onFaults struct {
	base Relation
	g    *topology.Network
}

// newOnFaults wraps base (on g's fault base) for g.
func newOnFaults(base Relation, g *topology.Network) Relation {
	r := onFaults{base: base, g: g}
	_, esc := base.(Escaping)
	_, pos := base.(Positional)
	switch {
	case esc && pos:
		return escapingPositionalOnFaults{escapingOnFaults{r}}
	case esc:
		return escapingOnFaults{r}
	case pos:
		return positionalOnFaults{r}
	}
	return r
}

func (r onFaults) Name() string            { return r.base.Name() }
func (r onFaults) Grid() *topology.Network { return r.g }
func (r onFaults) VCs() int                { return r.base.VCs() }

// baseHeader translates h's input channel to the grid's.
func (r onFaults) baseHeader(h Header) Header {
	if h.In.Channel != Injection {
		h.In.Channel = r.g.BaseChannel(h.In.Channel)
	}
	return h
}

// Route appends the grid relation's outputs that did not fail, on this network's
// channels, in the grid relation's order.
func (r onFaults) Route(h Header, out []Output) []Output {
	n := len(out)
	out = r.base.Route(r.baseHeader(h), out)
	kept := out[:n]
	for _, o := range out[n:] {
		if c := r.g.FromBase(o.Channel); c != topology.None {
			o.Channel = c
			kept = append(kept, o)
		}
	}
	return kept
}

type escapingOnFaults struct{ onFaults }

// Escape asks the grid relation about o on the grid's channel.
func (r escapingOnFaults) Escape(h Header, o Output) bool {
	o.Channel = r.g.BaseChannel(o.Channel)
	return r.base.(Escaping).Escape(r.baseHeader(h), o)
}

type positionalOnFaults struct{ onFaults }

func (r positionalOnFaults) Positional() bool { return r.base.(Positional).Positional() }

type escapingPositionalOnFaults struct{ escapingOnFaults }

func (r escapingPositionalOnFaults) Positional() bool { return r.base.(Positional).Positional() }
