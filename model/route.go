package model

import "fmt"

// Hop is one channel of a routed path together with the virtual-channel class the worm
// must use on it (always 0 without dateline classes).
type Hop struct {
	Channel ChannelID
	Class   uint8
}

// DOR is deterministic dimension-order routing on a grid: the path corrects dimension
// Order[0] first, then Order[1], and so on (XY routing on a 2-D mesh, e-cube on a
// hypercube). On a torus each dimension goes the shortest way round; a tie (distance
// exactly k/2) goes the Plus way.
//
// With Dateline set, hops on a torus carry dateline virtual-channel classes (Dally and
// Seitz): a worm uses class 0 in a dimension until it takes that dimension's wrap-around
// channel, and class 1 from that hop on until it turns into the next dimension. The
// channel dependency graph of each class is then acyclic, which is what makes DOR on a
// torus deadlock-free (claim WH3); without the classes rings deadlock (WH2).
type DOR struct {
	Grid     *Grid
	Order    []int
	Dateline bool
}

// NewDOR returns dimension-order routing on g in the order 0, 1, ..., n-1, with dateline
// classes on tori.
func NewDOR(g *Grid) DOR {
	return DOR{Grid: g, Order: AscendingOrder(g.Dims()), Dateline: g.Kind() == Torus}
}

// AscendingOrder returns 0, 1, ..., n-1.
func AscendingOrder(n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	return o
}

// DescendingOrder returns n-1, ..., 1, 0 (e-cube with the highest dimension first, as
// 003 uses on the hypercube).
func DescendingOrder(n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = n - 1 - i
	}
	return o
}

// CheckOrder reports whether order is a permutation of the grid's dimensions.
func (r DOR) CheckOrder() error {
	if len(r.Order) != r.Grid.Dims() {
		return fmt.Errorf("dimension order %v has %d entries; the grid has %d dimensions", r.Order, len(r.Order), r.Grid.Dims())
	}
	seen := make([]bool, len(r.Order))
	for _, d := range r.Order {
		if d < 0 || d >= len(seen) || seen[d] {
			return fmt.Errorf("dimension order %v is not a permutation of 0..%d", r.Order, len(seen)-1)
		}
		seen[d] = true
	}
	return nil
}

// Offset returns how many hops the route from a to b takes along dimension d and in
// which direction. On a torus it is the shortest way, ties going Plus.
func (g *Grid) Offset(a, b NodeID, d int) (hops int, dir Direction) {
	k := g.sizes[d]
	delta := g.Coord(b, d) - g.Coord(a, d)
	if !g.Wraps(d) {
		if delta < 0 {
			return -delta, Minus
		}
		return delta, Plus
	}
	delta = ((delta % k) + k) % k
	if delta <= k-delta {
		return delta, Plus
	}
	return k - delta, Minus
}

// Distance returns the number of hops of the DOR route from a to b (the same for any
// dimension order).
func (g *Grid) Distance(a, b NodeID) int {
	n := 0
	for d := range g.sizes {
		h, _ := g.Offset(a, b, d)
		n += h
	}
	return n
}

// Hops returns the DOR path from src to dst as hops with their classes; the empty path
// when src == dst. Cost O(length).
func (r DOR) Hops(src, dst NodeID) []Hop {
	return r.AppendHops(nil, src, dst)
}

// AppendHops appends the DOR path from src to dst to buf and returns it.
func (r DOR) AppendHops(buf []Hop, src, dst NodeID) []Hop {
	g := r.Grid
	cur := src
	for _, d := range r.Order {
		n, dir := g.Offset(cur, dst, d)
		var class uint8
		for i := 0; i < n; i++ {
			c, next := g.Neighbor(cur, d, dir)
			if g.channels[c].Wrap && r.Dateline {
				class = 1
			}
			buf = append(buf, Hop{Channel: c, Class: class})
			cur = next
		}
	}
	return buf
}

// Path returns the DOR path from src to dst as a channel list p(src, dst).
func (r DOR) Path(src, dst NodeID) []ChannelID {
	return r.AppendPath(nil, src, dst)
}

// AppendPath appends the channels of the DOR path from src to dst to buf.
func (r DOR) AppendPath(buf []ChannelID, src, dst NodeID) []ChannelID {
	g := r.Grid
	cur := src
	for _, d := range r.Order {
		n, dir := g.Offset(cur, dst, d)
		for i := 0; i < n; i++ {
			c, next := g.Neighbor(cur, d, dir)
			buf = append(buf, c)
			cur = next
		}
	}
	return buf
}

// Classes returns how many virtual-channel classes the routing needs: 2 with dateline
// classes on a torus, else 1.
func (r DOR) Classes() int {
	if r.Dateline && r.Grid.Kind() == Torus {
		return 2
	}
	return 1
}

// IsDORPath reports whether the channel list p is exactly the DOR path from src to dst,
// and if not, says where it departs. Schedules supplied by users are checked with it.
func (r DOR) IsDORPath(src, dst NodeID, p []ChannelID) error {
	want := r.Path(src, dst)
	if len(want) != len(p) {
		return fmt.Errorf("path from %s to %s has %d channels; the routing's has %d", r.Grid.NodeName(src), r.Grid.NodeName(dst), len(p), len(want))
	}
	for i := range want {
		if want[i] != p[i] {
			if int(p[i]) < 0 || int(p[i]) >= r.Grid.Channels() {
				return fmt.Errorf("path from %s to %s: hop %d is channel %d, which does not exist", r.Grid.NodeName(src), r.Grid.NodeName(dst), i+1, p[i])
			}
			return fmt.Errorf("path from %s to %s: hop %d is %s; the routing takes %s", r.Grid.NodeName(src), r.Grid.NodeName(dst), i+1, r.Grid.ChannelName(p[i]), r.Grid.ChannelName(want[i]))
		}
	}
	return nil
}

// WrapAheadClasses returns the virtual-channel class of every hop of a DOR path under the
// two-class scheme of 004 Fig. 2: class 1 (a "p-channel") while the worm will still take
// the wrap-around channel of the dimension it is moving in, class 0 once it has taken it
// or when it never will. Like the dateline classes of DOR it makes each class's channel
// dependencies acyclic; it is the scheme U-torus and DCF are designed around.
func (g *Grid) WrapAheadClasses(path []ChannelID) []uint8 {
	vc := make([]uint8, len(path))
	for i := range path {
		d := g.channels[path[i]].Dim
		for j := i; j < len(path) && g.channels[path[j]].Dim == d; j++ {
			if g.channels[path[j]].Wrap {
				vc[i] = 1
				break
			}
		}
	}
	return vc
}

// WithWrapAheadClasses returns a copy of s whose unicasts carry the virtual-channel
// classes of 004 Fig. 2 (Grid.WrapAheadClasses), so that contention is judged per
// virtual channel. s must be on a grid.
func (s *Schedule) WithWrapAheadClasses() (*Schedule, error) {
	g, err := s.Grid()
	if err != nil {
		return nil, err
	}
	c := *s
	c.Unicasts = make([]Unicast, len(s.Unicasts))
	for i, u := range s.Unicasts {
		u.VC = g.WrapAheadClasses(u.Path)
		c.Unicasts[i] = u
	}
	return &c, nil
}
