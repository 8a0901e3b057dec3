package routing

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model/topology"
)

// geom caches a grid's coordinates so that relations route a header in a few
// comparisons: Route is called once per reachable header state by the static proofs
// (tens of millions of times on a 64x64 mesh), so it must not divide.
type geom struct {
	g     *topology.Network
	dims  int
	size  []int
	wraps []bool
	coord []int32 // coord[v*dims+d] is coordinate d of node v
}

func newGeom(g *topology.Network) geom {
	m := geom{g: g, dims: g.Dims(), size: g.Sizes(), wraps: make([]bool, g.Dims())}
	for d := range m.wraps {
		m.wraps[d] = g.Wraps(d)
	}
	m.coord = make([]int32, g.Nodes()*m.dims)
	for v := 0; v < g.Nodes(); v++ {
		for d := 0; d < m.dims; d++ {
			m.coord[v*m.dims+d] = int32(g.Coord(topology.NodeID(v), d))
		}
	}
	return m
}

// at returns coordinate d of node v.
func (m *geom) at(v topology.NodeID, d int) int { return int(m.coord[int(v)*m.dims+d]) }

// offset is topology.Network.Offset without divisions: the hops and direction of the
// shortest way from a to b along dimension d (ties on a ring go Plus), and tie=true
// when both ways round a ring are shortest.
func (m *geom) offset(a, b topology.NodeID, d int) (hops int, dir topology.Direction, tie bool) {
	delta := m.at(b, d) - m.at(a, d)
	if !m.wraps[d] {
		if delta < 0 {
			return -delta, topology.Minus, false
		}
		return delta, topology.Plus, false
	}
	k := m.size[d]
	if delta < 0 {
		delta += k
	}
	switch {
	case delta == 0:
		return 0, topology.Plus, false
	case 2*delta == k:
		return delta, topology.Plus, true
	case 2*delta < k:
		return delta, topology.Plus, false
	default:
		return k - delta, topology.Minus, false
	}
}

// out is the channel leaving v along d in direction dir (topology.None if none).
func (m *geom) out(v topology.NodeID, d int, dir topology.Direction) topology.ChannelID {
	return m.g.ChannelOut(v, d, dir)
}

// productive appends, for every dimension d in which h.At differs from h.Dst, the
// channel(s) that bring the header one hop closer to h.Dst on virtual channel vc: one
// per dimension, two where a ring is tied. Dimensions are visited in ascending order,
// Plus before Minus, so the order is deterministic.
func (m *geom) productive(h Header, vc int, out []Output) []Output {
	for d := 0; d < m.dims; d++ {
		n, dir, tie := m.offset(h.At, h.Dst, d)
		if n == 0 {
			continue
		}
		out = append(out, Output{Channel: m.out(h.At, d, dir), VC: vc})
		if tie {
			out = append(out, Output{Channel: m.out(h.At, d, topology.Minus), VC: vc})
		}
	}
	return out
}

// meshOnly returns an error unless g has no wrap-around channels (a mesh, a hypercube,
// or a torus whose rings are all of size 2) and, when dims > 0, exactly dims dimensions.
func meshOnly(name string, g *topology.Network, dims int) error {
	for d := 0; d < g.Dims(); d++ {
		if g.Wraps(d) {
			return fmt.Errorf("routing %q is defined on meshes; %s has wrap-around channels in dimension %d (use duato, or dor with dateline classes)", name, g.Spec(), d+1)
		}
	}
	if dims > 0 && g.Dims() != dims {
		return fmt.Errorf("routing %q is defined on %d-D meshes; %s has %d dimensions", name, dims, g.Spec(), g.Dims())
	}
	return nil
}

// DirName names a direction along dimension d for people: east/west (dimension 0,
// Plus/Minus) and north/south (dimension 1) on 2-D grids, "+x", "-y", "+z", "+d4", ...
// on others. These are the words of the turn model (Glass & Ni).
func DirName(g *topology.Network, d int, dir topology.Direction) string {
	if g.Dims() == 2 {
		return [2][2]string{{"east", "west"}, {"north", "south"}}[d][dir]
	}
	axis := fmt.Sprintf("d%d", d+1)
	if d < 3 {
		axis = string("xyz"[d])
	}
	return dir.String() + axis
}

// ChannelDir names the direction channel c moves in (see DirName); on an irregular
// network, which has no directions, the channel itself ("r1->r2").
func ChannelDir(g *topology.Network, c topology.ChannelID) string {
	if g.IsGraph() {
		return g.ChannelName(c)
	}
	ch := g.Channel(c)
	return DirName(g, ch.Dim, ch.Dir)
}
