package topology

import (
	"fmt"
	"strconv"
)

// CMesh is the shape of a concentrated mesh as BookSim2 builds it
// (src/networks/cmesh.cpp; Balfour & Dally, ICS 2006): K by K routers, router (x, y)
// is router number y*K + x, joined to its mesh neighbours, with four terminals laid
// out 2 by 2. Routers on the edges have express channels where a mesh would have none:
// the -x port of a router on the left edge (and the +x port on the right edge) joins it
// to the router K/2 rows away on the same edge, the -y port on the bottom edge (and +y
// on the top edge) to the router K/2 columns away. BookSim numbers the terminals row by
// row over the 2K by 2K layout: terminal t belongs to router ((t mod 2K) div 2,
// (t div 2K) div 2).
//
// Node ids: router r is node r, named "r<r>"; the terminal BookSim numbers t is node
// K*K + t, named "n<t>". BookSim's ports: 0..3 the terminals (row-major in the 2 by 2
// block), then +x, -x, +y, -y (Port*).
type CMesh struct {
	K int
}

// The network ports of a cmesh router after its four terminal ports.
const (
	CMeshPlusX  = 4
	CMeshMinusX = 5
	CMeshPlusY  = 6
	CMeshMinusY = 7
)

// parseCMesh builds a concentrated mesh from "k=K[,n=2,c=4]" (BookSim's keys; its cmesh
// asserts n = 2 and c = 4).
func parseCMesh(arg string) (*Network, error) {
	kv, err := parseKeyValues(arg, []string{"k", "n", "c", "x", "y", "xr", "yr"}, "k=4[,n=2,c=4]")
	if err != nil {
		return nil, err
	}
	k, ok := kv["k"]
	if !ok {
		return nil, fmt.Errorf("k is missing; write k=4")
	}
	want := map[string]int{"n": 2, "c": 4, "xr": 2, "yr": 2, "x": k, "y": k}
	for _, key := range []string{"n", "c", "xr", "yr", "x", "y"} {
		if v, ok := kv[key]; ok && v != want[key] {
			return nil, fmt.Errorf("%s = %d; BookSim's cmesh takes %s = %d only (n = 2, c = 4, xr = yr = 2, x = y = k)", key, v, key, want[key])
		}
	}
	return NewCMesh(k)
}

// NewCMesh builds the K by K concentrated mesh. K must be even and at least 4: BookSim
// pairs the edge routers K/2 apart, and with K = 2 its express channels would run
// beside the mesh channels.
func NewCMesh(k int) (*Network, error) {
	if k < 4 || k%2 != 0 || k > 28 {
		return nil, fmt.Errorf("k is %d; a cmesh needs an even k in 4..28 (BookSim pairs edge routers k/2 apart)", k)
	}
	m := CMesh{K: k}
	routers := k * k
	nodes := make([]GraphNode, routers*5)
	var links []Link
	one := func(a, b NodeID, w int) { links = append(links, Link{From: a, To: b, Weight: w}) }
	for r := 0; r < routers; r++ {
		x, y := r%k, r/k
		nodes[r] = GraphNode{Name: "r" + strconv.Itoa(r), Placed: true, At: Point{X: float64(3*x) + 0.5, Y: float64(3*y) + 0.5}}
		for p := 0; p < 4; p++ {
			t := m.TerminalAt(NodeID(r), p)
			v := NodeID(routers + t)
			nodes[v] = GraphNode{Name: "n" + strconv.Itoa(t), Terminal: true, Placed: true,
				At: Point{X: float64(3*x+p%2) + 0.3, Y: float64(3*y+p/2) + 0.3}}
			one(NodeID(r), v, 1)
			one(v, NodeID(r), 1)
		}
		for port := CMeshPlusX; port <= CMeshMinusY; port++ {
			one(NodeID(r), m.Neighbour(NodeID(r), port), m.latency(NodeID(r), port))
		}
	}
	cm := m
	return newGraph(fmt.Sprintf("cmesh:k=%d", k), nodes, links, &cm)
}

// latency is BookSim's latency (use_noc_latency, its default) of router r's channel
// out of port: the 2 terminal columns (rows) a mesh hop crosses, k/2 times 2 for an
// express channel (cmesh.cpp: cX = cY = 2).
func (m *CMesh) latency(r NodeID, port int) int {
	x, y := int(r)%m.K, int(r)/m.K
	express := port == CMeshPlusX && x == m.K-1 || port == CMeshMinusX && x == 0 ||
		port == CMeshPlusY && y == m.K-1 || port == CMeshMinusY && y == 0
	if express {
		return 2 * m.K / 2
	}
	return 2
}

// CMeshShape returns the shape of a concentrated mesh.
func (g *Network) CMeshShape() (*CMesh, bool) {
	if g.net == nil {
		return nil, false
	}
	m, ok := g.net.shape.(*CMesh)
	return m, ok
}

// Neighbour returns the router that router r's network port (CMeshPlusX..CMeshMinusY)
// leads to: the mesh neighbour, or on the edge the router of its express channel.
func (m *CMesh) Neighbour(r NodeID, port int) NodeID {
	k := m.K
	x, y := int(r)%k, int(r)/k
	half := func(v int) int {
		if v < k/2 {
			return v + k/2
		}
		return v - k/2
	}
	switch port {
	case CMeshPlusX:
		if x == k-1 {
			return NodeID(half(y)*k + x)
		}
		x++
	case CMeshMinusX:
		if x == 0 {
			return NodeID(half(y)*k + x)
		}
		x--
	case CMeshPlusY:
		if y == k-1 {
			return NodeID(y*k + half(x))
		}
		y++
	case CMeshMinusY:
		if y == 0 {
			return NodeID(y*k + half(x))
		}
		y--
	}
	return NodeID(y*k + x)
}

// TerminalAt returns the BookSim number of router r's terminal at port p < 4.
func (m *CMesh) TerminalAt(r NodeID, p int) int {
	x, y := int(r)%m.K, int(r)/m.K
	return 2*m.K*(2*y+p/2) + 2*x + p%2
}

// Terminal returns the node of the terminal BookSim numbers t.
func (m *CMesh) Terminal(t int) NodeID { return NodeID(m.K*m.K + t) }

// Router returns the router of node v: v itself for a router, its router for a terminal
// (BookSim's CMesh::NodeToRouter).
func (m *CMesh) Router(v NodeID) NodeID {
	if int(v) < m.K*m.K {
		return v
	}
	t := int(v) - m.K*m.K
	return NodeID((t/(2*m.K))/2*m.K + (t%(2*m.K))/2)
}
