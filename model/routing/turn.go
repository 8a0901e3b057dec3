package routing

import "github.com/wormcheck/wormcheck/model/topology"

// TurnKind names one of the turn-model relations of Glass & Ni.
type TurnKind uint8

// The turn-model relations. Each prohibits just enough turns to break every cycle of
// the mesh's channel dependency graph, and is minimal and partially adaptive on one
// virtual channel. Directions: east/west are dimension 0 Plus/Minus, north/south are
// dimension 1 Plus/Minus (DirName).
const (
	// WestFirst routes a header west first, if it must go west at all, and then
	// adaptively among east, north and south: the turns north->west and south->west are
	// prohibited.
	WestFirst TurnKind = iota
	// NorthLast routes a header north last: adaptively among east, west and south while
	// any of them is productive, and north only when it is the one productive
	// direction; the turns north->east and north->west are prohibited.
	NorthLast
	// NegativeFirst routes a header adaptively in the negative directions first and
	// then adaptively in the positive ones: every turn from a positive into a negative
	// direction is prohibited. It is defined on n-D meshes and hypercubes.
	NegativeFirst
)

var turnNames = [...]string{"west-first", "north-last", "negative-first"}

// String returns the relation's command-line name.
func (k TurnKind) String() string {
	if int(k) < len(turnNames) {
		return turnNames[k]
	}
	return "turn(?)"
}

// Turn is a minimal turn-model relation on one virtual channel.
//
// Reference: Glass & Ni, "The Turn Model for Adaptive Routing" (ISCA 1992; J. ACM
// 1994): in a 2-D mesh the eight 90-degree turns form two abstract cycles; prohibiting
// one turn of each (west-first, north-last, negative-first) leaves a channel dependency
// graph without cycles, so the relation is deadlock-free on one virtual channel. The
// static proof in props/cdg checks exactly that (claim RT1).
//
// Turn relations are refused on grids with wrap-around channels: the turn model does
// not break the ring cycles of a torus without extra virtual channels. West-first and
// north-last are refused on grids that are not 2-D; negative-first accepts n-D meshes
// and hypercubes (where it is the p-cube routing of Glass & Ni).
type Turn struct {
	Kind TurnKind
	m    geom
}

// NewTurn returns the turn-model relation k on g, or an error naming why g does not
// fit it.
func NewTurn(g *topology.Network, k TurnKind) (*Turn, error) {
	dims := 2
	if k == NegativeFirst {
		dims = 0
	}
	if err := meshOnly(k.String(), g, dims); err != nil {
		return nil, err
	}
	return &Turn{Kind: k, m: newGeom(g)}, nil
}

// Name returns "west-first", "north-last" or "negative-first".
func (t *Turn) Name() string { return t.Kind.String() }

// Grid returns the relation's topology.
func (t *Turn) Grid() *topology.Network { return t.m.g }

// VCs is 1: the turn model needs no virtual channels.
func (t *Turn) VCs() int { return 1 }

// Route appends the productive directions the turn rule permits, in dimension order.
// Cost O(dimensions).
func (t *Turn) Route(h Header, out []Output) []Output {
	m := &t.m
	switch t.Kind {
	case WestFirst:
		if n, dir, _ := m.offset(h.At, h.Dst, 0); n > 0 && dir == topology.Minus {
			return append(out, Output{Channel: m.out(h.At, 0, topology.Minus)})
		}
		return m.productive(h, 0, out)
	case NorthLast:
		start := len(out)
		for d := 0; d < m.dims; d++ {
			n, dir, _ := m.offset(h.At, h.Dst, d)
			if n > 0 && !(d == 1 && dir == topology.Plus) {
				out = append(out, Output{Channel: m.out(h.At, d, dir)})
			}
		}
		if len(out) == start {
			return append(out, Output{Channel: m.out(h.At, 1, topology.Plus)})
		}
		return out
	default: // NegativeFirst
		for _, want := range [2]topology.Direction{topology.Minus, topology.Plus} {
			start := len(out)
			for d := 0; d < m.dims; d++ {
				if n, dir, _ := m.offset(h.At, h.Dst, d); n > 0 && dir == want {
					out = append(out, Output{Channel: m.out(h.At, d, dir)})
				}
			}
			if len(out) > start {
				return out
			}
		}
		return out
	}
}

// Positional is true: Route does not read In.
func (t *Turn) Positional() bool { return true }
