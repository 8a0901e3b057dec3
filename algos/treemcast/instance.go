// Package treemcast builds tree-based multicast instances with pruning (000 §2-§3) on
// the flit-level wormhole model of model/flit, enumerates families of them ("every pair of
// multicasts with up to K destinations on a grid"), splits families into shards, runs
// each member through the explorer and joins shard results.
//
// A multicast is a source and an ordered destination list: the worm (d1, data, d2..dn) of
// 000 Fig. 1 routes d1 first, so the order is part of the instance.
//
// Reference: 000 §2.1 (the mechanism), §3 and Lemma 1 (total pruning), Fig. 3 (two
// multicasts deadlocking without pruning), §5.1 (DOR routing; two virtual channels per
// physical channel on tori; 1 data flit; 2-flit queues).
package treemcast

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Multicast is one multicast message: its source and its destinations in worm order.
type Multicast struct {
	Source topology.NodeID
	Dests  []topology.NodeID
}

// Params are the router and message parameters of an instance.
type Params struct {
	Prune  flit.Prune // the pruning policy
	Length int        // data flits per message (000 §5.1 uses 1)
	Buffer int        // flits per virtual channel buffer
	Ports  flit.Ports // one-port (000 §5.3: one injection and one delivery channel) or all-port
}

// DefaultParams are 000 §5.3's: total pruning when a header finds no free output, one
// data flit, two-flit buffers, one injection and one delivery channel per node.
func DefaultParams() Params {
	return Params{Prune: flit.PruneOnNoFree, Length: 1, Buffer: 2, Ports: flit.OnePort}
}

// Instance is a set of multicasts on a grid with its parameters. Routing is the routing
// relation each address flit is routed with (000 §4: the router takes a reserved output
// among those the relation supplies first, else every free permitted output is a
// branch); nil means dimension order (XY on a 2-D mesh) with, on a torus, two dateline
// virtual channels per physical channel (000 §5.1, Dally and Seitz). The relation must
// be on Grid.
type Instance struct {
	Grid    *topology.Network
	Msgs    []Multicast
	Params  Params
	Routing routing.Relation
}

// Relation returns the instance's routing relation: Routing, or DOR (dateline classes
// on a torus with a wrapping dimension) when it is nil.
func (in Instance) Relation() routing.Relation {
	if in.Routing != nil {
		return in.Routing
	}
	return routing.NewDOR(in.Grid, in.VCs() == 2)
}

// VCs returns the virtual channels per physical channel: the relation's, which for the
// default DOR is 2 (dateline classes) on a torus with a wrapping dimension, 1 otherwise.
func (in Instance) VCs() int {
	if in.Routing != nil {
		return in.Routing.VCs()
	}
	for d := 0; d < in.Grid.Dims(); d++ {
		if in.Grid.Wraps(d) {
			return 2
		}
	}
	return 1
}

// Config returns the flit-level configuration of the instance.
func (in Instance) Config() flit.Config {
	msgs := make([]flit.Message, len(in.Msgs))
	for i, m := range in.Msgs {
		msgs[i] = flit.Message{Source: m.Source, Dests: append([]topology.NodeID(nil), m.Dests...), Length: in.Params.Length, Multicast: true}
	}
	cfg := flit.NewRelationConfig(in.Relation(), in.VCs(), in.Params.Buffer, in.Params.Ports, msgs)
	cfg.Net = flit.GridNetwork{Network: in.Grid}
	cfg.Prune = in.Params.Prune
	return cfg
}

// Model builds the flit-level model of the instance.
func (in Instance) Model() (*flit.Model, error) { return flit.New(in.Config()) }

// String renders the messages in the --msgs syntax.
func (in Instance) String() string { return FormatMsgs(in.Grid, in.Msgs) }

// FormatMsgs renders multicasts in the syntax ParseMsgs reads, e.g.
// "(0,0)->(2,0),(2,2);(2,2)->(0,2),(0,0)".
func FormatMsgs(g *topology.Network, msgs []Multicast) string {
	var b strings.Builder
	for i, m := range msgs {
		if i > 0 {
			b.WriteByte(';')
		}
		b.WriteString(coords(g, m.Source))
		b.WriteString("->")
		for j, d := range m.Dests {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString(coords(g, d))
		}
	}
	return b.String()
}

func coords(g *topology.Network, v topology.NodeID) string {
	if g.IsGraph() {
		return g.NodeName(v)
	}
	parts := make([]string, g.Dims())
	for d := range parts {
		parts[d] = strconv.Itoa(g.Coord(v, d))
	}
	return "(" + strings.Join(parts, ",") + ")"
}

// ParseMsgs reads multicasts: messages separated by ';', each "SRC->D1,D2,...,Dn" with
// nodes as coordinate tuples "(x,y)" (as many coordinates as the grid has dimensions);
// spaces are ignored. Destinations are in worm order (d1 first, 000 Fig. 1); a
// destination may not repeat or equal the source.
//
//	(0,0)->(2,0),(2,2);(2,2)->(0,2),(0,0)
func ParseMsgs(g *topology.Network, s string) ([]Multicast, error) {
	s = strings.ReplaceAll(s, " ", "")
	if s == "" {
		return nil, fmt.Errorf("msgs: empty; want e.g. \"(0,0)->(2,0),(2,2);(2,2)->(0,2)\"")
	}
	var out []Multicast
	for i, part := range strings.Split(s, ";") {
		src, dsts, ok := strings.Cut(part, "->")
		if !ok {
			return nil, fmt.Errorf("msgs: message %d %q has no \"->\"", i+1, part)
		}
		sv, rest, err := parseNode(g, src)
		if err != nil || rest != "" {
			if err == nil {
				err = fmt.Errorf("trailing %q", rest)
			}
			return nil, fmt.Errorf("msgs: message %d source: %v", i+1, err)
		}
		m := Multicast{Source: sv}
		for rest = dsts; ; {
			var d topology.NodeID
			d, rest, err = parseNode(g, rest)
			if err != nil {
				return nil, fmt.Errorf("msgs: message %d destination %d: %v", i+1, len(m.Dests)+1, err)
			}
			if d == sv {
				return nil, fmt.Errorf("msgs: message %d destination %s is its source", i+1, coords(g, d))
			}
			for _, e := range m.Dests {
				if e == d {
					return nil, fmt.Errorf("msgs: message %d lists destination %s twice", i+1, coords(g, d))
				}
			}
			m.Dests = append(m.Dests, d)
			if rest == "" {
				break
			}
			if rest[0] != ',' {
				return nil, fmt.Errorf("msgs: message %d: unexpected %q after destination %d", i+1, rest, len(m.Dests))
			}
			rest = rest[1:]
		}
		out = append(out, m)
	}
	return out, nil
}

// parseNode reads the node at the start of s (topology.Network.ParseEndpoint) and
// returns it and the rest: "(x,y,...)" on a grid, a node's name (or number) up to the
// next ',' outside parentheses on an irregular network.
func parseNode(g *topology.Network, s string) (topology.NodeID, string, error) {
	end := len(topology.SplitList(s)[0])
	if !g.IsGraph() {
		if !strings.HasPrefix(s, "(") {
			return 0, s, fmt.Errorf("%q does not start with a node \"(x,y)\"", s)
		}
		if end = strings.IndexByte(s, ')') + 1; end == 0 {
			return 0, s, fmt.Errorf("%q has no closing \")\"", s)
		}
	}
	v, err := g.ParseEndpoint(s[:end])
	return v, s[end:], err
}
