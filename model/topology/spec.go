package topology

import (
	"fmt"
	"strconv"
	"strings"
)

// Topology is what every network offers generic code (the CLI, pictures, traces):
// its spec, its nodes and its directed channels with names for people.
type Topology interface {
	Spec() string
	Nodes() int
	Channels() int
	NodeName(v NodeID) string
	ChannelName(c ChannelID) string
}

// Parse turns a spec into a network of routers: "mesh:8x8", "torus:8x8x8",
// "hypercube:6", and the irregular networks: "file:PATH" (a BookSim2 anynet file, a JSON
// graph in TopologyFormat or a Graphviz DOT graph, told apart by their first word and
// read up to MaxTopologyFileBytes), "dragonfly:a=4,p=2,h=2" (a Dragonfly), "fattree:4,3"
// (a FatTree), BookSim2's "flatfly:k=4,n=2,c=4" (a FlatFly), "cmesh:k=4" (a CMesh) and
// "fly:k=2,n=3" (a Fly), "qtree:k=4,n=3" and "tree4:k=4,n=3" (a Tree), "random:8,10,1" (NewRandomNetwork) and a grid with failed links
// "mesh:8x8/faults=(1,1)-(2,1),(3,3)->(3,4)" (WithFaults). It is the one parser of
// network specs; the banyan MIN, which has switching elements instead of routers, has
// ParseBanyan. A file spec reads the file: the one I/O of this package. Bad or oversized
// specs are refused with an error of one line that names what is wrong; it never panics.
func Parse(spec string) (*Network, error) {
	t, err := parse(spec)
	if err != nil {
		return nil, err
	}
	g, ok := t.(*Network)
	if !ok {
		return nil, fmt.Errorf("topology %q is not a mesh, torus, hypercube or network of routers", spec)
	}
	return g, nil
}

// ParseBanyan turns the spec "banyan:N" into the N-node wrap-around broadcast banyan
// (NewBanyan); any other topology is refused with an error of one line.
func ParseBanyan(spec string) (*Banyan, error) {
	t, err := parse(spec)
	if err != nil {
		return nil, err
	}
	b, ok := t.(*Banyan)
	if !ok {
		return nil, fmt.Errorf("topology %q is not a banyan; use banyan:N", spec)
	}
	return b, nil
}

// parse reads any spec, a network of routers or a banyan.
func parse(spec string) (Topology, error) {
	s := strings.TrimSpace(spec)
	if s == "" {
		return nil, fmt.Errorf("topology is empty; give one such as mesh:8x8, torus:8x8x8, hypercube:6 or banyan:16")
	}
	if base, faults, ok := strings.Cut(s, FaultsSep); ok {
		g, err := Parse(base)
		if err != nil {
			return nil, err
		}
		if g.IsGraph() {
			return nil, fmt.Errorf("topology %q is an irregular network; this needs a mesh, torus or hypercube", base)
		}
		f, err := WithFaults(g, faults)
		if err != nil {
			return nil, fmt.Errorf("topology %q: faults: %v", spec, err)
		}
		return f, nil
	}
	kind, arg, ok := strings.Cut(s, ":")
	if !ok {
		return nil, fmt.Errorf("topology %q has no ':'; write KIND:SIZES such as mesh:8x8", spec)
	}
	kind = strings.ToLower(kind)
	wrap := func(err error) error { return fmt.Errorf("topology %q: %v", spec, err) }
	switch kind {
	case "mesh", "torus":
		if arg == "" {
			return nil, fmt.Errorf("topology %q has no sizes; write e.g. %s:8x8", spec, kind)
		}
		parts := strings.Split(arg, "x")
		if len(parts) > MaxDims {
			return nil, fmt.Errorf("topology %q has %d dimensions; at most %d are supported", spec, len(parts), MaxDims)
		}
		sizes := make([]int, len(parts))
		for i, p := range parts {
			k, err := parseSize(p)
			if err != nil {
				return nil, fmt.Errorf("topology %q: dimension %d: %v", spec, i+1, err)
			}
			sizes[i] = k
		}
		var g *Network
		var err error
		if kind == "mesh" {
			g, err = NewMesh(sizes...)
		} else {
			g, err = NewTorus(sizes...)
		}
		if err != nil {
			return nil, wrap(err)
		}
		return g, nil
	case "hypercube":
		n, err := parseSize(arg)
		if err != nil {
			return nil, fmt.Errorf("topology %q: dimension: %v", spec, err)
		}
		g, err := NewHypercube(n)
		if err != nil {
			return nil, wrap(err)
		}
		return g, nil
	case "file":
		g, err := readFile(arg)
		if err != nil {
			return nil, err
		}
		return g, nil
	case "dragonfly":
		g, err := parseDragonfly(arg)
		if err != nil {
			return nil, fmt.Errorf("topology %q: %v", spec, err)
		}
		return g, nil
	case "random":
		g, err := parseRandom(arg)
		if err != nil {
			return nil, fmt.Errorf("topology %q: %v", spec, err)
		}
		return g, nil
	case "fattree":
		g, err := parseFatTree(arg)
		if err != nil {
			return nil, fmt.Errorf("topology %q: %v", spec, err)
		}
		return g, nil
	case "flatfly", "cmesh", "fly":
		parse := map[string]func(string) (*Network, error){"flatfly": parseFlatFly, "cmesh": parseCMesh, "fly": parseFly}[kind]
		g, err := parse(arg)
		if err != nil {
			return nil, fmt.Errorf("topology %q: %v", spec, err)
		}
		return g, nil
	case "qtree", "tree4":
		g, err := parseTree(kind, arg)
		if err != nil {
			return nil, fmt.Errorf("topology %q: %v", spec, err)
		}
		return g, nil
	case "banyan":
		n, err := parseSize(arg)
		if err != nil {
			return nil, fmt.Errorf("topology %q: size: %v", spec, err)
		}
		b, err := NewBanyan(n)
		if err != nil {
			return nil, wrap(err)
		}
		return b, nil
	}
	return nil, fmt.Errorf("topology %q: unknown kind %q; use mesh, torus, hypercube, banyan, file, dragonfly, fattree, flatfly, cmesh, fly, qtree, tree4 or random", spec, kind)
}

// parseSize reads a decimal size without sign, refusing absurd lengths before Atoi.
func parseSize(p string) (int, error) {
	if p == "" {
		return 0, fmt.Errorf("size is missing")
	}
	if len(p) > 9 {
		return 0, fmt.Errorf("size %q is too large", p)
	}
	for _, r := range p {
		if r < '0' || r > '9' {
			return 0, fmt.Errorf("size %q is not a whole number", p)
		}
	}
	k, err := strconv.Atoi(p)
	if err != nil {
		return 0, fmt.Errorf("size %q is not a whole number", p)
	}
	return k, nil
}

// ParseNode reads a node of g as people write it on the command line: a node number
// ("5") or coordinates ("(1,2)", dimension 0 first), on a hypercube also its label as
// NodeName writes it ("101"); on a network of routers a name,
// or a number that is BookSim's terminal number where the network has terminals
// (terminals.go). The error is one line.
func (g *Network) ParseNode(s string) (NodeID, error) {
	s = strings.TrimSpace(s)
	if g.net != nil {
		return g.parseGraphNode(s)
	}
	if strings.HasPrefix(s, "(") {
		if !strings.HasSuffix(s, ")") {
			return 0, fmt.Errorf("%q has no closing parenthesis", s)
		}
		parts := strings.Split(s[1:len(s)-1], ",")
		if len(parts) != g.Dims() {
			return 0, fmt.Errorf("%q has %d coordinates; %s has %d dimensions", s, len(parts), g.Spec(), g.Dims())
		}
		coords := make([]int, len(parts))
		for d, p := range parts {
			x, err := strconv.Atoi(strings.TrimSpace(p))
			if err != nil || x < 0 || x >= g.Size(d) {
				return 0, fmt.Errorf("%q: coordinate %d must be 0..%d", s, d+1, g.Size(d)-1)
			}
			coords[d] = x
		}
		return g.Node(coords...), nil
	}
	if v, ok := g.hypercubeLabel(s); ok {
		return v, nil
	}
	x, err := strconv.Atoi(s)
	if err != nil || x < 0 || x >= g.Nodes() {
		if g.kind == Hypercube {
			return 0, fmt.Errorf("%q is not a node number 0..%d, a label of %d binary digits like %s, or coordinates like (0,1)", s, g.Nodes()-1, len(g.sizes), g.NodeName(NodeID(g.Nodes()-1)))
		}
		return 0, fmt.Errorf("%q is not a node number 0..%d or coordinates like (0,1)", s, g.Nodes()-1)
	}
	return NodeID(x), nil
}

// hypercubeLabel reads s as a hypercube node's label as NodeName writes it: exactly as
// many binary digits as the cube has dimensions, the highest dimension first ("101" is
// node 5 of hypercube:3). A label is never read as a decimal number, so that a node
// wormcheck prints can be given back (on hypercube:4, "0011" is node 3, not 11).
func (g *Network) hypercubeLabel(s string) (NodeID, bool) {
	if g.kind != Hypercube || len(s) != len(g.sizes) || len(s) < 2 || strings.Trim(s, "01") != "" {
		return 0, false
	}
	x, err := strconv.ParseUint(s, 2, 32)
	if err != nil {
		return 0, false
	}
	return NodeID(x), true
}

// ParseEndpoint is ParseNode for a node a message starts or ends at: on a network of
// routers with terminals it must be a terminal (Endpoint).
func (g *Network) ParseEndpoint(s string) (NodeID, error) {
	v, err := g.ParseNode(s)
	if err == nil && !g.Endpoint(v) {
		return 0, fmt.Errorf("%s is a router of %s; messages go between its terminals, %s", g.NodeName(v), g.Spec(), g.TerminalRange())
	}
	return v, err
}

// ParseRouter reads a router as a routing parameter names it (the root of up*/down*):
// its name as NodeName writes it, or its node id, never a terminal's number; else as
// ParseNode reads it.
func (g *Network) ParseRouter(s string) (NodeID, error) {
	if v, ok := g.NodeByName(s); ok {
		return v, nil
	}
	if n, err := strconv.Atoi(s); err == nil && n >= 0 && n < g.Nodes() {
		return NodeID(n), nil
	}
	return g.ParseNode(s)
}

// SplitList splits a comma-separated list of nodes or node pairs at the commas that are
// not inside parentheses, so that coordinates such as (1,2) stay whole: "0,(1,2),3" gives
// "0", "(1,2)" and "3". Items are not trimmed.
func SplitList(s string) []string {
	var items []string
	depth, start := 0, 0
	for i, r := range s {
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				items = append(items, s[start:i])
				start = i + 1
			}
		}
	}
	return append(items, s[start:])
}
