package topology

import (
	"fmt"
	"strings"
)

// NodeID numbers the processing nodes of a topology densely from 0. On a grid the id of
// coordinate (x_0, ..., x_{n-1}) is x_0 + k_0*(x_1 + k_1*(x_2 + ...)): dimension 0 varies
// fastest, so on a 2-D mesh the node (x, y) is x + k_0*y.
type NodeID int32

// ChannelID numbers the directed physical channels of a topology densely from 0. The
// numbering is stable: it depends only on the topology spec.
type ChannelID int32

// None marks a missing node or channel.
const None = -1

// Kind says which family a grid belongs to.
type Kind uint8

// The grid families. A hypercube of dimension n is the mesh 2x2x...x2 (n times); it is
// kept as its own kind so that specs and pictures say what the user asked for.
const (
	Mesh Kind = iota
	Torus
	Hypercube
	BanyanKind
)

var kindNames = [...]string{"mesh", "torus", "hypercube", "banyan", "graph"}

// String returns the spec prefix of the kind ("mesh", "torus", ...).
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// Direction is the sense in which a grid channel moves along its dimension.
type Direction int8

// The two directions along a dimension.
const (
	Plus  Direction = 0
	Minus Direction = 1
)

// Sign returns +1 for Plus and -1 for Minus.
func (d Direction) Sign() int {
	if d == Minus {
		return -1
	}
	return 1
}

func (d Direction) String() string {
	if d == Minus {
		return "-"
	}
	return "+"
}

// Channel describes one directed physical channel of a network: it leaves From and
// enters To, moving along dimension Dim in direction Dir (Dim is -1 on a graph, which
// has no dimensions; its channels have ports, Network.Port). Wrap is true for the
// wrap-around channels of a torus (from k-1 to 0 going Plus, from 0 to k-1 going Minus);
// these are the dateline channels.
type Channel struct {
	From, To NodeID
	Dim      int
	Dir      Direction
	Wrap     bool
}

// Network is a network of routers joined by directed physical channels: a grid (an
// n-dimensional mesh, torus (k-ary n-cube) or binary hypercube) or an irregular network
// of kind Graph (a dragonfly, a fat-tree, a random network, a network read from a file,
// a grid with failed links; graph.go). On a grid Sizes[d] is the number of nodes along
// dimension d. On a torus every node has a Plus and a Minus channel in every dimension,
// except that a dimension of size 2 is wired as on a mesh (one channel each way between
// the two nodes, no wrap-around); on a mesh the boundary nodes lack the channels that
// would leave the grid.
//
// Channel ids are dense: on a grid, for node v (in id order), dimension d (ascending) and
// direction Plus then Minus, each existing channel gets the next id.
type Network struct {
	kind     Kind
	sizes    []int
	strides  []int
	nodes    int
	slot     []ChannelID // slot[(v*dims+d)*2+dir] = channel id or None
	channels []Channel
	net      *graph // set for kind Graph (graph.go)
}

// NewMesh builds the mesh with the given sizes per dimension.
func NewMesh(sizes ...int) (*Network, error) { return newGrid(Mesh, sizes) }

// NewTorus builds the torus (k-ary n-cube with wrap-around channels) with the given sizes.
func NewTorus(sizes ...int) (*Network, error) { return newGrid(Torus, sizes) }

// NewHypercube builds the binary n-cube: 2^n nodes, node ids are the binary addresses
// and dimension d flips bit d.
func NewHypercube(n int) (*Network, error) {
	if n < 1 || n > MaxHypercubeDim {
		return nil, fmt.Errorf("hypercube dimension %d out of range; it must be 1..%d", n, MaxHypercubeDim)
	}
	sizes := make([]int, n)
	for i := range sizes {
		sizes[i] = 2
	}
	return newGrid(Hypercube, sizes)
}

// Limits on the sizes a spec may ask for, so that no input exhausts memory.
const (
	MaxDimSize      = 4096
	MaxDims         = 8
	MaxNodes        = 1 << 20
	MaxHypercubeDim = 20
)

func newGrid(kind Kind, sizes []int) (*Network, error) {
	if len(sizes) == 0 {
		return nil, fmt.Errorf("%v needs at least one dimension", kind)
	}
	if len(sizes) > MaxDims && kind != Hypercube {
		return nil, fmt.Errorf("%v has %d dimensions; at most %d are supported", kind, len(sizes), MaxDims)
	}
	nodes := 1
	for d, k := range sizes {
		if k < 2 || k > MaxDimSize {
			return nil, fmt.Errorf("dimension %d has size %d; sizes must be 2..%d", d+1, k, MaxDimSize)
		}
		nodes *= k
		if nodes > MaxNodes {
			return nil, fmt.Errorf("%v has more than %d nodes", kind, MaxNodes)
		}
	}
	g := &Network{kind: kind, sizes: append([]int(nil), sizes...), nodes: nodes}
	g.strides = make([]int, len(sizes))
	s := 1
	for d, k := range sizes {
		g.strides[d] = s
		s *= k
	}
	dims := len(sizes)
	g.slot = make([]ChannelID, nodes*dims*2)
	g.channels = make([]Channel, 0, gridChannels(kind, sizes, nodes))
	for v := 0; v < nodes; v++ {
		for d := 0; d < dims; d++ {
			x := (v / g.strides[d]) % sizes[d]
			for dir := Plus; dir <= Minus; dir++ {
				i := (v*dims+d)*2 + int(dir)
				g.slot[i] = None
				nx, wrap, ok := g.step(x, d, dir)
				if !ok {
					continue
				}
				to := v + (nx-x)*g.strides[d]
				g.slot[i] = ChannelID(len(g.channels))
				g.channels = append(g.channels, Channel{From: NodeID(v), To: NodeID(to), Dim: d, Dir: dir, Wrap: wrap})
			}
		}
	}
	return g, nil
}

// gridChannels counts the channels of the grid of the given kind and sizes (nodes in
// all): along a dimension of k nodes, two per node on a ring (k > 2 with wrap-around),
// else two per pair of neighbours.
func gridChannels(kind Kind, sizes []int, nodes int) int {
	n := 0
	for _, k := range sizes {
		if kind == Torus && k > 2 {
			n += 2 * nodes
		} else {
			n += 2 * (k - 1) * (nodes / k)
		}
	}
	return n
}

// channelBytes is what one channel of a grid costs in memory: its Channel (24 bytes)
// and its share of the slots (a node's outputs by dimension and direction; two per
// channel on a hypercube).
const channelBytes = 32

// GridBytes returns how many nodes and channels the mesh, torus or hypercube spec names
// has and the bytes its channels take, without building it, so that a caller with a
// memory budget can refuse a network that alone would exceed it; ok is false for any
// other spec, a network with failed links included, and for a spec Parse refuses.
func GridBytes(spec string) (bytes, nodes, channels int64, ok bool) {
	nodes, channels, ok = gridSize(spec)
	return channels * channelBytes, nodes, channels, ok
}

// gridSize returns how many nodes and channels the mesh, torus or hypercube spec names
// has, without building it; ok is false as for GridBytes.
func gridSize(spec string) (nodes, channels int64, ok bool) {
	kind, arg, found := strings.Cut(strings.ToLower(strings.TrimSpace(spec)), ":")
	if !found || strings.Contains(arg, FaultsSep) {
		return 0, 0, false
	}
	var sizes []int
	var k Kind
	switch kind {
	case "mesh", "torus":
		k = Mesh
		if kind == "torus" {
			k = Torus
		}
		parts := strings.Split(arg, "x")
		if len(parts) > MaxDims {
			return 0, 0, false
		}
		for _, p := range parts {
			s, err := parseSize(p)
			if err != nil || s < 2 || s > MaxDimSize {
				return 0, 0, false
			}
			sizes = append(sizes, s)
		}
	case "hypercube":
		d, err := parseSize(arg)
		if err != nil || d < 1 || d > MaxHypercubeDim {
			return 0, 0, false
		}
		k = Hypercube
		for range d {
			sizes = append(sizes, 2)
		}
	default:
		return 0, 0, false
	}
	n := 1
	for _, s := range sizes {
		if n *= s; n > MaxNodes {
			return 0, 0, false
		}
	}
	return int64(n), int64(gridChannels(k, sizes, n)), true
}

// step moves coordinate x one hop along dimension d in direction dir; ok is false where
// the grid has no such channel.
func (g *Network) step(x, d int, dir Direction) (nx int, wrap, ok bool) {
	k := g.sizes[d]
	if dir == Plus {
		if x+1 < k {
			return x + 1, false, true
		}
		if g.kind == Torus && k > 2 {
			return 0, true, true
		}
		return 0, false, false
	}
	if x > 0 {
		return x - 1, false, true
	}
	if g.kind == Torus && k > 2 {
		return k - 1, true, true
	}
	return 0, false, false
}

// Kind returns the grid's family.
func (g *Network) Kind() Kind { return g.kind }

// Dims returns the number of dimensions.
func (g *Network) Dims() int { return len(g.sizes) }

// Size returns the number of nodes along dimension d.
func (g *Network) Size(d int) int { return g.sizes[d] }

// Sizes returns a copy of the sizes per dimension.
func (g *Network) Sizes() []int { return append([]int(nil), g.sizes...) }

// Nodes returns the number of processing nodes.
func (g *Network) Nodes() int { return g.nodes }

// Channels returns the number of directed physical channels; ids are 0..Channels()-1.
func (g *Network) Channels() int { return len(g.channels) }

// Channel returns the description of channel c.
func (g *Network) Channel(c ChannelID) Channel { return g.channels[c] }

// Wraps reports whether dimension d has wrap-around channels.
func (g *Network) Wraps(d int) bool { return g.kind == Torus && g.sizes[d] > 2 }

// Coord returns coordinate d of node v. Cost O(1).
func (g *Network) Coord(v NodeID, d int) int { return (int(v) / g.strides[d]) % g.sizes[d] }

// Coords returns all coordinates of node v.
func (g *Network) Coords(v NodeID) []int {
	c := make([]int, len(g.sizes))
	for d := range c {
		c[d] = g.Coord(v, d)
	}
	return c
}

// Node returns the node at the given coordinates, reduced modulo the sizes (so that
// torus arithmetic such as x+k/2 can be passed straight in).
func (g *Network) Node(coords ...int) NodeID {
	v := 0
	for d, x := range coords {
		k := g.sizes[d]
		v += (((x % k) + k) % k) * g.strides[d]
	}
	return NodeID(v)
}

// Neighbor returns the channel leaving v along dimension d in direction dir and the node
// it enters, or (None, None) where there is no such channel.
func (g *Network) Neighbor(v NodeID, d int, dir Direction) (ChannelID, NodeID) {
	c := g.slot[(int(v)*len(g.sizes)+d)*2+int(dir)]
	if c == None {
		return None, None
	}
	return c, g.channels[c].To
}

// ChannelOut returns the channel leaving v along dimension d in direction dir, or None.
func (g *Network) ChannelOut(v NodeID, d int, dir Direction) ChannelID {
	return g.slot[(int(v)*len(g.sizes)+d)*2+int(dir)]
}

// Spec returns the canonical spec of the grid, as Parse accepts it.
func (g *Network) Spec() string {
	if g.net != nil {
		return g.net.spec
	}
	if g.kind == Hypercube {
		return fmt.Sprintf("hypercube:%d", len(g.sizes))
	}
	parts := make([]string, len(g.sizes))
	for d, k := range g.sizes {
		parts[d] = fmt.Sprint(k)
	}
	return g.kind.String() + ":" + strings.Join(parts, "x")
}

// String returns the spec.
func (g *Network) String() string { return g.Spec() }

// NodeName renders node v for people: its coordinates "(x,y)" on meshes and tori, its
// binary address on hypercubes, its name on a graph.
func (g *Network) NodeName(v NodeID) string {
	if g.net != nil {
		return g.net.names[v]
	}
	if g.kind == Hypercube {
		return fmt.Sprintf("%0*b", len(g.sizes), int(v))
	}
	var b strings.Builder
	b.WriteByte('(')
	for d := range g.sizes {
		if d > 0 {
			b.WriteByte(',')
		}
		fmt.Fprint(&b, g.Coord(v, d))
	}
	b.WriteByte(')')
	return b.String()
}

// ChannelName renders channel c for people, e.g. "(1,2)->(2,2)".
func (g *Network) ChannelName(c ChannelID) string {
	ch := g.channels[c]
	return g.NodeName(ch.From) + "->" + g.NodeName(ch.To)
}
