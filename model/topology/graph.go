package topology

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Graph is the kind of an irregular network: named nodes, an explicit list of directed
// channels and no dimensions (Dims() == 0). Networks read from files (file:PATH),
// generated dragonflies and fat-trees, and meshes or tori with failed links are graphs.
//
// Code that needs dimensions (dimension order, turn models, odd-even, dateline classes,
// the collectives of the papers) refuses a graph with RequireDims; everything that only
// needs nodes and channels (the flit model, the explorer, channel dependency graphs, the
// simulator's unicasts, pictures) takes it as it takes a grid.
//
// Terminals: a node is a router with one injection and one ejection port (the flit
// model's node). A network that has terminals (BookSim's "node N", a file's "terminals",
// a generator's processing nodes) gives each terminal a node of its own, joined to its
// router by one channel each way. On such a network messages go between terminals only
// (Endpoint): routers are transit nodes, as in BookSim, and a routing relation need
// only route between terminals. A network without terminals (a NoC whose routers each
// have a core) sends between any two routers.
const Graph Kind = BanyanKind + 1

// Point is where a node is drawn, in arbitrary units (pictures scale them).
type Point struct{ X, Y float64 }

// GraphNode is one node of a network being built: its name (unique, without spaces),
// whether it is a terminal, and where to draw it when Placed.
type GraphNode struct {
	Name     string
	Terminal bool
	At       Point
	Placed   bool
}

// Link is one directed channel of a network being built, with its latency in cycles
// (BookSim's link weight; 0 means 1). Weights are kept for people and shortest paths;
// the flit semantics is untimed.
type Link struct {
	From, To NodeID
	Weight   int
}

// Limits on graphs, so that no file exhausts memory.
const (
	MaxGraphNodes    = 4096
	MaxGraphChannels = 1 << 16
)

// graph is what a Graph-kind network keeps besides the channels.
type graph struct {
	spec        string
	names       []string
	byName      map[string]NodeID // lookup only
	terminal    []bool
	anyTerminal bool
	at          []Point // nil: no node is placed
	out         [][]ChannelID
	port        []int32
	maxOut      int
	weight      []int
	shape       any      // *Dragonfly, *FatTree or *faulted: what a generator knows
	termNo      []int32  // BookSim's number of each terminal, -1 for a router (terminals.go)
	byTermNo    []NodeID // the terminal of each number
}

// NewGraph builds an irregular network from its nodes and directed links, under the
// given spec (what Spec returns and Parse accepts, e.g. "file:soc.json"). Channel
// ids are dense and ordered by source node, then destination node, whatever order the
// links come in; a channel's port (Port) is its index among its source's channels.
// The network must be strongly connected and have no parallel channels or self-loops;
// either all nodes are placed or none. Errors are one line.
func NewGraph(spec string, nodes []GraphNode, links []Link) (*Network, error) {
	return newGraph(spec, nodes, links, nil)
}

func newGraph(spec string, nodes []GraphNode, links []Link, shape any) (*Network, error) {
	n := len(nodes)
	switch {
	case n < 2:
		return nil, fmt.Errorf("network has %d nodes; it needs at least 2", n)
	case n > MaxGraphNodes:
		return nil, fmt.Errorf("network has %d nodes; at most %d are supported", n, MaxGraphNodes)
	case len(links) > MaxGraphChannels:
		return nil, fmt.Errorf("network has %d channels; at most %d are supported", len(links), MaxGraphChannels)
	}
	gr := &graph{spec: spec, names: make([]string, n), byName: make(map[string]NodeID, n), terminal: make([]bool, n), shape: shape}
	placed := 0
	for i, nd := range nodes {
		if err := checkNodeName(nd.Name); err != nil {
			return nil, fmt.Errorf("node %d: %v", i, err)
		}
		if _, dup := gr.byName[nd.Name]; dup {
			return nil, fmt.Errorf("node %q is listed twice", nd.Name)
		}
		gr.byName[nd.Name] = NodeID(i)
		gr.names[i] = nd.Name
		gr.terminal[i] = nd.Terminal
		gr.anyTerminal = gr.anyTerminal || nd.Terminal
		if nd.Placed {
			if math.IsNaN(nd.At.X) || math.IsInf(nd.At.X, 0) || math.IsNaN(nd.At.Y) || math.IsInf(nd.At.Y, 0) {
				return nil, fmt.Errorf("node %q: coordinates must be finite numbers", nd.Name)
			}
			placed++
		}
	}
	if placed != 0 && placed != n {
		return nil, fmt.Errorf("%d of %d nodes have coordinates; give them for every node or for none", placed, n)
	}
	if placed == n {
		gr.at = make([]Point, n)
		for i, nd := range nodes {
			gr.at[i] = nd.At
		}
	}
	ls := slices.Clone(links)
	for _, l := range ls {
		if l.From < 0 || int(l.From) >= n || l.To < 0 || int(l.To) >= n {
			return nil, fmt.Errorf("link %d->%d: no such node (0..%d)", l.From, l.To, n-1)
		}
		if l.From == l.To {
			return nil, fmt.Errorf("link %s->%s is a self-loop", gr.names[l.From], gr.names[l.To])
		}
		if l.Weight < 0 {
			return nil, fmt.Errorf("link %s->%s: weight %d is negative", gr.names[l.From], gr.names[l.To], l.Weight)
		}
	}
	slices.SortStableFunc(ls, func(a, b Link) int {
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.To, b.To))
	})
	g := &Network{kind: Graph, nodes: n, net: gr}
	gr.out = make([][]ChannelID, n)
	for i, l := range ls {
		if i > 0 && ls[i-1].From == l.From && ls[i-1].To == l.To {
			return nil, fmt.Errorf("link %s->%s is listed twice (parallel channels are not supported)", gr.names[l.From], gr.names[l.To])
		}
		c := ChannelID(len(g.channels))
		g.channels = append(g.channels, Channel{From: l.From, To: l.To, Dim: -1})
		gr.port = append(gr.port, int32(len(gr.out[l.From])))
		gr.out[l.From] = append(gr.out[l.From], c)
		gr.maxOut = max(gr.maxOut, len(gr.out[l.From]))
		w := l.Weight
		if w == 0 {
			w = 1
		}
		gr.weight = append(gr.weight, w)
	}
	if err := g.checkStronglyConnected(); err != nil {
		return nil, err
	}
	if err := gr.numberTerminals(); err != nil {
		return nil, err
	}
	return g, nil
}

// checkNodeName refuses names that would not survive the command line or a spec.
func checkNodeName(s string) error {
	if s == "" || len(s) > 64 {
		return fmt.Errorf("name %q must be 1..64 characters", s)
	}
	depth := 0
	for _, r := range s {
		switch {
		case r == '(':
			depth++
		case r == ')':
			depth--
		case r <= ' ' || r == ';' || r == '"' || r == '>' || r == 0x7f || r == ',' && depth == 0:
			return fmt.Errorf("name %q has a space, semicolon, quote, '>', control character or a comma outside parentheses", s)
		}
	}
	return nil
}

// checkStronglyConnected refuses a network where some node cannot reach another, naming
// one such pair: no routing could deliver between them.
func (g *Network) checkStronglyConnected() error {
	n := g.nodes
	in := make([][]ChannelID, n)
	for c, ch := range g.channels {
		in[ch.To] = append(in[ch.To], ChannelID(c))
	}
	for _, dir := range []bool{true, false} {
		seen := make([]bool, n)
		seen[0] = true
		queue := []NodeID{0}
		for len(queue) > 0 {
			v := queue[0]
			queue = queue[1:]
			next := g.net.out[v]
			if !dir {
				next = in[v]
			}
			for _, c := range next {
				u := g.channels[c].To
				if !dir {
					u = g.channels[c].From
				}
				if !seen[u] {
					seen[u] = true
					queue = append(queue, u)
				}
			}
		}
		for v := range seen {
			if !seen[v] {
				a, b := g.net.names[0], g.net.names[v]
				if !dir {
					a, b = b, a
				}
				return fmt.Errorf("network is not connected: %s cannot reach %s", a, b)
			}
		}
	}
	return nil
}

// IsGraph reports whether g is an irregular network (kind Graph).
func (g *Network) IsGraph() bool { return g.net != nil }

// RequireDims returns nil on a mesh, torus or hypercube, and on an irregular network an
// error of one line saying that what needs dimensions cannot run on it.
func (g *Network) RequireDims(what string) error {
	if g.net == nil {
		return nil
	}
	return fmt.Errorf("%s needs a mesh, torus or hypercube; %s is an irregular network without dimensions", what, g.Spec())
}

// Ports returns the largest number of channels that leave one node: 2 x Dims() on a
// grid (one slot per dimension and direction, some empty on a mesh's boundary), the
// largest out-degree on a graph. Port(c) is in [0, Ports()).
func (g *Network) Ports() int {
	if g.net != nil {
		return g.net.maxOut
	}
	return 2 * len(g.sizes)
}

// Port returns channel c's port at the node it leaves: dimension*2 + direction on a
// grid, its index among the node's channels (ordered by destination id) on a graph.
func (g *Network) Port(c ChannelID) int {
	if g.net != nil {
		return int(g.net.port[c])
	}
	ch := g.channels[c]
	return ch.Dim*2 + int(ch.Dir)
}

// AppendOut appends the channels leaving v, in port order, to buf and returns it.
func (g *Network) AppendOut(buf []ChannelID, v NodeID) []ChannelID {
	if g.net != nil {
		return append(buf, g.net.out[v]...)
	}
	for _, c := range g.slot[int(v)*len(g.sizes)*2 : (int(v)+1)*len(g.sizes)*2] {
		if c != None {
			buf = append(buf, c)
		}
	}
	return buf
}

// Terminal reports whether node v is a terminal (a processing node attached to one
// router). Grids have no terminals: every node is a router with its own port.
func (g *Network) Terminal(v NodeID) bool { return g.net != nil && g.net.terminal[v] }

// Terminals returns the number of terminal nodes (0 on grids).
func (g *Network) Terminals() int {
	if g.net == nil {
		return 0
	}
	n := 0
	for _, t := range g.net.terminal {
		if t {
			n++
		}
	}
	return n
}

// Position returns where node v of a graph is drawn, when the network gives coordinates.
func (g *Network) Position(v NodeID) (Point, bool) {
	if g.net == nil || g.net.at == nil {
		return Point{}, false
	}
	return g.net.at[v], true
}

// Weight returns channel c's latency in cycles (BookSim's link weight; 1 on grids).
func (g *Network) Weight(c ChannelID) int {
	if g.net == nil {
		return 1
	}
	return g.net.weight[c]
}

// NodeByName returns the node NodeName calls name (its inverse): a router's name on a
// network of routers, the binary address on a hypercube, "(x,y,...)" on a mesh or torus.
func (g *Network) NodeByName(name string) (NodeID, bool) {
	switch {
	case g.net != nil:
		v, ok := g.net.byName[name]
		return v, ok
	case g.kind == Hypercube:
		if len(name) != len(g.sizes) || strings.Trim(name, "01") != "" {
			return 0, false
		}
		x, err := strconv.ParseUint(name, 2, 32)
		return NodeID(x), err == nil
	case strings.HasPrefix(name, "("):
		v, err := g.ParseNode(name)
		return v, err == nil && g.NodeName(v) == name
	}
	return 0, false
}

// ChannelBetween returns the channel from a to b, or None.
func (g *Network) ChannelBetween(a, b NodeID) ChannelID {
	if g.net != nil {
		for _, c := range g.net.out[a] {
			if g.channels[c].To == b {
				return c
			}
		}
		return None
	}
	for _, c := range g.AppendOut(nil, a) {
		if g.channels[c].To == b {
			return c
		}
	}
	return None
}

// HopDistances returns the hop count of a shortest path from every node to dst (BFS
// over reversed channels). Cost O(nodes + channels).
func (g *Network) HopDistances(dst NodeID) []int {
	in := g.inChannels()
	dist := make([]int, g.nodes)
	for i := range dist {
		dist[i] = -1
	}
	dist[dst] = 0
	queue := []NodeID{dst}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, c := range in[v] {
			u := g.channels[c].From
			if dist[u] < 0 {
				dist[u] = dist[v] + 1
				queue = append(queue, u)
			}
		}
	}
	return dist
}

// inChannels lists the channels entering every node, in channel id order.
func (g *Network) inChannels() [][]ChannelID {
	in := make([][]ChannelID, g.nodes)
	for c, ch := range g.channels {
		in[ch.To] = append(in[ch.To], ChannelID(c))
	}
	return in
}

// Endpoint reports whether node v sends and receives messages: on a network with
// terminals only the terminals do (routers carry traffic through), elsewhere every
// node does. Routing relations need only route between endpoints.
func (g *Network) Endpoint(v NodeID) bool {
	return g.net == nil || !g.net.hasTerminals() || g.net.terminal[v]
}

// Endpoints returns the nodes that send and receive messages, in id order.
func (g *Network) Endpoints() []NodeID {
	out := make([]NodeID, 0, g.nodes)
	for v := NodeID(0); int(v) < g.nodes; v++ {
		if g.Endpoint(v) {
			out = append(out, v)
		}
	}
	return out
}

func (gr *graph) hasTerminals() bool { return gr.anyTerminal }

// PortChannel returns the channel leaving v through port p (Port's inverse), or None.
func (g *Network) PortChannel(v NodeID, p int) ChannelID {
	if g.net != nil {
		if p < 0 || p >= len(g.net.out[v]) {
			return None
		}
		return g.net.out[v][p]
	}
	return g.ChannelOut(v, p/2, Direction(p%2))
}
