package routing

import "github.com/wormcheck/wormcheck/model"

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
func NewOddEven(g *model.Grid) (*OddEven, error) {
	if err := meshOnly("odd-even", g, 2); err != nil {
		return nil, err
	}
	return &OddEven{m: newGeom(g)}, nil
}

// Name returns "odd-even".
func (o *OddEven) Name() string { return "odd-even" }

// Grid returns the relation's topology.
func (o *OddEven) Grid() *model.Grid { return o.m.g }

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
			out = append(out, Output{Channel: m.out(h.At, 1, model.Plus)})
		case e1 < 0:
			out = append(out, Output{Channel: m.out(h.At, 1, model.Minus)})
		}
	}
	switch {
	case e0 == 0:
		vertical()
	case e0 > 0:
		if e1 == 0 {
			return append(out, Output{Channel: m.out(h.At, 0, model.Plus)})
		}
		if d0%2 == 1 || e0 != 1 {
			out = append(out, Output{Channel: m.out(h.At, 0, model.Plus)})
		}
		if c0%2 == 1 || c0 == m.at(h.Src, 0) {
			vertical()
		}
	default:
		out = append(out, Output{Channel: m.out(h.At, 0, model.Minus)})
		if c0%2 == 0 {
			vertical()
		}
	}
	return out
}
