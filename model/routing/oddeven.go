package routing

import "github.com/wormcheck/wormcheck/model/topology"

// OddEven is Chiu's odd-even turn model on a 2-D mesh, minimal and partially adaptive
// on one virtual channel. Columns are dimension-0 coordinates (column 0 is even); east
// is dimension 0 Plus and north dimension 1 Plus.
//
// Reference: Chiu, "The Odd-Even Turn Model for Adaptive Routing" (IEEE TPDS 11(7),
// 2000), rules 1-2 and procedure ROUTE. Rule 1: no east->north or east->south turn at a
// node in an even column. Rule 2: no north->west or south->west turn at a node in an
// odd column. ROUTE, for a header at column c0 with source column s0 and destination
// (d0, d1), offers:
//   - north or south alone when it is in the destination's column;
//   - eastbound (d0 > c0): east alone when in the destination's row; otherwise north or
//     south if c0 is odd or c0 = s0 (a turn out of east is allowed there, or there was
//     no east hop yet), and east unless the destination is one column ahead in an even
//     column (the header could not turn into it there);
//   - westbound: west, and north or south too when c0 is even.
//
// The rules depend on the source column, so the relation reads Header.Src; it reports
// the one bit it reads through SourceClass, which lets the static proof merge headers
// that route alike.
type OddEven struct {
	m geom
}

// NewOddEven returns the odd-even relation on g, a 2-D grid without wrap-around
// channels.
func NewOddEven(g *topology.Network) (*OddEven, error) {
	if err := meshOnly("odd-even", g, 2); err != nil {
		return nil, err
	}
	return &OddEven{m: newGeom(g)}, nil
}

// Name returns "odd-even".
func (o *OddEven) Name() string { return "odd-even" }

// Grid returns the relation's topology.
func (o *OddEven) Grid() *topology.Network { return o.m.g }

// VCs is 1.
func (o *OddEven) VCs() int { return 1 }

// SourceClasses is 2: a header is or is not still in its source column.
func (o *OddEven) SourceClasses() int { return 2 }

// SourceClass is 1 when the header is in its source's column (c0 = s0), 0 otherwise;
// it is all Route reads of Header.Src.
func (o *OddEven) SourceClass(h Header) int {
	if o.m.at(h.At, 0) == o.m.at(h.Src, 0) {
		return 1
	}
	return 0
}

// Route appends the outputs of Chiu's ROUTE procedure (see the type's doc), east or
// west before north or south. Cost O(1).
func (o *OddEven) Route(h Header, out []Output) []Output {
	m := &o.m
	c0, c1 := m.at(h.At, 0), m.at(h.At, 1)
	d0, d1 := m.at(h.Dst, 0), m.at(h.Dst, 1)
	e0, e1 := d0-c0, d1-c1
	vertical := func() {
		switch {
		case e1 > 0:
			out = append(out, Output{Channel: m.out(h.At, 1, topology.Plus)})
		case e1 < 0:
			out = append(out, Output{Channel: m.out(h.At, 1, topology.Minus)})
		}
	}
	switch {
	case e0 == 0:
		vertical()
	case e0 > 0:
		if e1 == 0 {
			return append(out, Output{Channel: m.out(h.At, 0, topology.Plus)})
		}
		if d0%2 == 1 || e0 != 1 {
			out = append(out, Output{Channel: m.out(h.At, 0, topology.Plus)})
		}
		if c0%2 == 1 || c0 == m.at(h.Src, 0) {
			vertical()
		}
	default:
		out = append(out, Output{Channel: m.out(h.At, 0, topology.Minus)})
		if c0%2 == 0 {
			vertical()
		}
	}
	return out
}

// Positional is true: Route reads At, Dst and (through SourceClass) Src, not In.
func (o *OddEven) Positional() bool { return true }

// DestClass is, in dimension 1, the sign of the offset; in dimension 0 (columns) the
// kind of the offset — 0 (in the destination's column), 1 (one column east), 2 (two
// or more east), 3 (west) — times 2 plus the parity of the header's column x. That is
// all Route reads of the columns: c0's parity, the sign of e0, whether e0 is 1, and
// d0's parity only when e0 is 1 (then d0 = x+1). With SourceClass it fixes the
// outputs as ports (the routing.DestClassed promise, with the source class).
func (o *OddEven) DestClass(dim, x, y int) int {
	if dim != 0 {
		return destClass(o.m.size[dim], false, x, y)
	}
	kind := 3
	switch {
	case y == x:
		kind = 0
	case y == x+1:
		kind = 1
	case y > x+1:
		kind = 2
	}
	return kind*2 + x%2
}

// ReachedFrom returns a source from which a header toward dst reaches at (not dst) in
// source class sc, or false when none does. Class 1 (in the source's column) is every
// header at its source. Class 0 needs a source in another column; since every output
// is minimal, a header's column offset never changes sign and it enters the
// destination's column only by a horizontal hop, so:
//   - d0 < c0 (westbound): the source lies east of c0, so c0 must not be the last
//     column; the neighbour east of at is one (west is always offered);
//   - d0 > c0 (eastbound): the source lies west, so c0 >= 1; the neighbour west of at
//     is one (its e0 is 2 or more, so east is offered);
//   - d0 = c0: the header entered the column from the east (a column east exists; the
//     east neighbour is a source) or from the west at a row other than d1, where east
//     is offered only when d0 is odd (Chiu's rule 1 at an even column); the west
//     neighbour is then a source.
//
// It reads the columns only through c0, the sign of e0 and (when e0 = 0) d0's parity,
// which DestClass shows; the class after a hop is the class before a vertical hop and
// 0 after a horizontal one, whatever the source. Together these are the
// routing.SourceReached promise that lets the static proof build the channel
// dependency graph by classes (props/cdg).
func (o *OddEven) ReachedFrom(at, dst topology.NodeID, sc int) (topology.NodeID, bool) {
	m := &o.m
	if at == dst {
		return 0, false
	}
	if sc == 1 {
		return at, true
	}
	if sc != 0 {
		return 0, false
	}
	c0, c1 := m.at(at, 0), m.at(at, 1)
	d0 := m.at(dst, 0)
	last := m.size[0] - 1
	switch {
	case d0 < c0 && c0 < last, d0 == c0 && c0 < last:
		return m.g.Node(c0+1, c1), true
	case d0 > c0 && c0 >= 1, d0 == c0 && d0%2 == 1:
		return m.g.Node(c0-1, c1), true
	}
	return 0, false
}
