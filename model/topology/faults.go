package topology

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// FaultsSep joins a grid's spec and its failed links: "mesh:8x8/faults=(1,1)-(2,1)".
const FaultsSep = "/faults="

// faulted is what a grid with failed links remembers of the grid it came from: channel
// c of the network is channel base[c] of the grid; of[b] is the network's channel for
// the grid's channel b, or None where it failed.
type faulted struct {
	grid *Network
	base []ChannelID
	of   []ChannelID
}

// WithFaults returns grid g without the failed links in list, an irregular network on
// the same nodes (same ids and names, drawn at their coordinates). list is a
// comma-separated list of links, each "A-B" (both channels between A and B fail) or
// "A->B" (only the channel from A to B), where A and B are node numbers or coordinates
// as Network.ParseNode reads them: "(1,1)-(2,1),(3,3)->(3,4)" or "9-10". The network must
// stay strongly connected. Its spec lists the faults in a canonical order.
func WithFaults(g *Network, list string) (*Network, error) {
	if g.IsGraph() {
		return nil, fmt.Errorf("%s is already an irregular network; faults apply to a mesh, torus or hypercube", g.Spec())
	}
	if g.Nodes() > MaxGraphNodes {
		return nil, fmt.Errorf("%s has %d nodes; a network with faults may have at most %d", g.Spec(), g.Nodes(), MaxGraphNodes)
	}
	failed := make([]bool, g.Channels())
	items := SplitList(list)
	if strings.TrimSpace(list) == "" {
		return nil, fmt.Errorf("the list of failed links is empty; write links like (1,1)-(2,1) or 9->10")
	}
	for i, it := range items {
		it = strings.TrimSpace(it)
		a, b, one := strings.Cut(it, "->")
		if !one {
			var ok bool
			a, b, ok = cutDash(it)
			if !ok {
				return nil, fmt.Errorf("link %d %q: write A-B (both ways) or A->B (one way)", i+1, it)
			}
		}
		u, err := g.ParseNode(a)
		if err != nil {
			return nil, fmt.Errorf("link %d %q: %v", i+1, it, err)
		}
		v, err := g.ParseNode(b)
		if err != nil {
			return nil, fmt.Errorf("link %d %q: %v", i+1, it, err)
		}
		pairs := [][2]NodeID{{u, v}}
		if !one {
			pairs = append(pairs, [2]NodeID{v, u})
		}
		for _, p := range pairs {
			c := g.ChannelBetween(p[0], p[1])
			if c == None {
				return nil, fmt.Errorf("link %d %q: %s has no channel %s->%s", i+1, it, g.Spec(), g.NodeName(p[0]), g.NodeName(p[1]))
			}
			failed[c] = true
		}
	}
	nodes := make([]GraphNode, g.Nodes())
	for v := range nodes {
		nodes[v] = GraphNode{Name: g.NodeName(NodeID(v))}
		if g.Dims() <= 2 && g.Kind() != Hypercube {
			x, y := g.Coord(NodeID(v), 0), 0
			if g.Dims() == 2 {
				y = g.Coord(NodeID(v), 1)
			}
			nodes[v].At, nodes[v].Placed = Point{X: float64(x), Y: float64(y)}, true
		}
	}
	f := &faulted{grid: g, of: make([]ChannelID, g.Channels())}
	var links []Link
	var gone [][2]NodeID
	for c, ch := range g.channels {
		if failed[c] {
			gone = append(gone, [2]NodeID{ch.From, ch.To})
			continue
		}
		links = append(links, Link{From: ch.From, To: ch.To})
	}
	spec := g.Spec() + FaultsSep + faultList(g, gone)
	net, err := newGraph(spec, nodes, links, f)
	if err != nil {
		return nil, err
	}
	for c := range f.of {
		f.of[c] = None
	}
	for c, ch := range net.channels {
		b := g.ChannelBetween(ch.From, ch.To)
		f.base = append(f.base, b)
		f.of[b] = ChannelID(c)
	}
	return net, nil
}

// cutDash splits "A-B" at the dash between two nodes (coordinates hold no dashes).
func cutDash(s string) (string, string, bool) {
	depth := 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case '-':
			if depth == 0 {
				return s[:i], s[i+1:], true
			}
		}
	}
	return "", "", false
}

// faultList writes failed channels canonically: pairs failed both ways as "A-B" with
// A < B, single channels as "A->B", ordered by their nodes' ids.
func faultList(g *Network, gone [][2]NodeID) string {
	slices.SortFunc(gone, func(a, b [2]NodeID) int { return cmp.Or(cmp.Compare(a[0], b[0]), cmp.Compare(a[1], b[1])) })
	var items []string
	for _, p := range gone {
		back := slices.Contains(gone, [2]NodeID{p[1], p[0]})
		switch {
		case back && p[0] < p[1]:
			items = append(items, g.NodeName(p[0])+"-"+g.NodeName(p[1]))
		case !back:
			items = append(items, g.NodeName(p[0])+"->"+g.NodeName(p[1]))
		}
	}
	return strings.Join(items, ",")
}

// FaultBase returns, for a grid with failed links, the grid it came from.
func (g *Network) FaultBase() (*Network, bool) {
	if g.net == nil {
		return nil, false
	}
	f, ok := g.net.shape.(*faulted)
	if !ok {
		return nil, false
	}
	return f.grid, true
}

// BaseChannel returns, on a grid with failed links, the channel of the grid it came
// from that channel c is.
func (g *Network) BaseChannel(c ChannelID) ChannelID { return g.net.shape.(*faulted).base[c] }

// FromBase returns, on a grid with failed links, its channel for channel b of the grid
// it came from, or None where b failed.
func (g *Network) FromBase(b ChannelID) ChannelID { return g.net.shape.(*faulted).of[b] }
