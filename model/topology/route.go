package topology

import (
	"fmt"
	"slices"
)

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
	Grid     *Network
	Order    []int
	Dateline bool
}

// NewDOR returns dimension-order routing on g in the order 0, 1, ..., n-1, with dateline
// classes on tori.
func NewDOR(g *Network) DOR {
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

// TieDirs chooses, per dimension, which way a DOR path goes round a ring where both ways
// are minimal (a tie: the destination lies exactly k/2 hops away on a ring of even size
// k). Bit d set means dimension d's tie goes Minus; the zero value sends every tie Plus,
// the default of DOR. Bits of dimensions that are not tied for a given (src, dst) have no
// effect. Reference: 004 Fig. 6(b), whose view of the 4x4 torus sends the Z_block unit
// (X-δ, Y+δ) the Minus way in x although δ = k/2 is a tie.
type TieDirs uint32

// TiesMinus returns the TieDirs whose ties in the given dimensions go Minus.
func TiesMinus(dims ...int) TieDirs {
	var t TieDirs
	for _, d := range dims {
		t |= 1 << uint(d)
	}
	return t
}

// Dir returns the direction a tie in dimension d takes.
func (t TieDirs) Dir(d int) Direction {
	if d >= 0 && d < 32 && t&(1<<uint(d)) != 0 {
		return Minus
	}
	return Plus
}

// Tied reports whether the route from a to b along dimension d is a tie: d wraps and b
// lies exactly half-way round the ring from a, so both directions are minimal.
func (g *Network) Tied(a, b NodeID, d int) bool {
	if !g.Wraps(d) {
		return false
	}
	k := g.sizes[d]
	delta := ((g.Coord(b, d)-g.Coord(a, d))%k + k) % k
	return delta != 0 && 2*delta == k
}

// OffsetTies is Offset with the tie directions t: a tied dimension goes t.Dir(d).
func (g *Network) OffsetTies(a, b NodeID, d int, t TieDirs) (hops int, dir Direction) {
	hops, dir = g.Offset(a, b, d)
	if t != 0 && t.Dir(d) == Minus && g.Tied(a, b, d) {
		dir = Minus
	}
	return hops, dir
}

// Offset returns how many hops the route from a to b takes along dimension d and in
// which direction. On a torus it is the shortest way, ties going Plus.
func (g *Network) Offset(a, b NodeID, d int) (hops int, dir Direction) {
	k := g.sizes[d]
	delta := g.Coord(b, d) - g.Coord(a, d)
	if !g.Wraps(d) {
		if delta < 0 {
			return -delta, Minus
		}
		return delta, Plus
	}
	if delta < 0 { // delta is in (-k, k): one addition instead of two divisions
		delta += k
	}
	if delta <= k-delta {
		return delta, Plus
	}
	return k - delta, Minus
}

// Distance returns the number of hops of the DOR route from a to b (the same for any
// dimension order).
func (g *Network) Distance(a, b NodeID) int {
	n := 0
	for d := range g.sizes {
		h, _ := g.Offset(a, b, d)
		n += h
	}
	return n
}

// Next returns the first channel of the DOR path from at to dst and its dimension, or
// None and -1 when at == dst: the one step of dimension-order routing that every path of
// this type, routing.DOR and BookSim's dimension-order functions take.
func (r DOR) Next(at, dst NodeID) (ChannelID, int) {
	for _, d := range r.Order {
		if n, dir := r.Grid.Offset(at, dst, d); n > 0 {
			c, _ := r.Grid.Neighbor(at, d, dir)
			return c, d
		}
	}
	return None, -1
}

// Hops returns the DOR path from src to dst as hops with their classes; the empty path
// when src == dst. Cost O(length).
func (r DOR) Hops(src, dst NodeID) []Hop {
	return r.AppendHops(nil, src, dst)
}

// AppendHops appends the DOR path from src to dst to buf and returns it.
func (r DOR) AppendHops(buf []Hop, src, dst NodeID) []Hop {
	return r.AppendHopsTies(buf, src, dst, 0)
}

// HopsTies returns the DOR path from src to dst whose tied dimensions go the ways t
// says, as hops with their dateline classes (a worm takes class 1 from the wrap-around
// channel it crosses, whichever way it goes round the ring).
func (r DOR) HopsTies(src, dst NodeID, t TieDirs) []Hop {
	return r.AppendHopsTies(nil, src, dst, t)
}

// AppendHopsTies appends HopsTies(src, dst, t) to buf and returns it.
func (r DOR) AppendHopsTies(buf []Hop, src, dst NodeID, t TieDirs) []Hop {
	g := r.Grid
	cur := src
	for _, d := range r.Order {
		n, dir := g.OffsetTies(cur, dst, d, t)
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
	return r.AppendPathTies(buf, src, dst, 0)
}

// PathTies returns the DOR path from src to dst whose tied dimensions go the ways t says:
// the minimal dimension-ordered path determined by (src, dst, t). PathTies(src, dst, 0)
// is Path(src, dst).
func (r DOR) PathTies(src, dst NodeID, t TieDirs) []ChannelID {
	return r.AppendPathTies(nil, src, dst, t)
}

// AppendPathTies appends PathTies(src, dst, t) to buf and returns it.
func (r DOR) AppendPathTies(buf []ChannelID, src, dst NodeID, t TieDirs) []ChannelID {
	g := r.Grid
	cur := src
	for _, d := range r.Order {
		n, dir := g.OffsetTies(cur, dst, d, t)
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
	return r.samePath(src, dst, p, r.AppendPath(make([]ChannelID, 0, len(p)), src, dst), "")
}

// IsDORPathTies reports whether p is a minimal dimension-ordered path from src to dst
// that differs from the DOR path at most in the direction of tied dimensions (Network.Tied:
// both ways round are minimal), and returns the tie directions p takes. It is the check of
// schedules that opt into "ties": "either" (Schedule.Ties); the error says where p
// departs from every such path.
func (r DOR) IsDORPathTies(src, dst NodeID, p []ChannelID) (TieDirs, error) {
	g := r.Grid
	var t TieDirs
	var seen uint64
	for _, c := range p {
		if int(c) < 0 || int(c) >= g.Channels() {
			break // samePath names the bad hop
		}
		ch := g.channels[c]
		if ch.Dim < 64 && seen&(1<<uint(ch.Dim)) == 0 {
			seen |= 1 << uint(ch.Dim)
			if ch.Dir == Minus && ch.Dim < 32 && g.Tied(src, dst, ch.Dim) {
				t |= 1 << uint(ch.Dim)
			}
		}
	}
	return t, r.samePath(src, dst, p, r.AppendPathTies(make([]ChannelID, 0, len(p)), src, dst, t), " (ties may go either way)")
}

// samePath compares p with the path want the routing takes and names the first hop
// where they differ.
func (r DOR) samePath(src, dst NodeID, p, want []ChannelID, note string) error {
	g := r.Grid
	for i := range p {
		if int(p[i]) < 0 || int(p[i]) >= g.Channels() {
			return fmt.Errorf("path from %s to %s: hop %d is channel %d, which does not exist", g.NodeName(src), g.NodeName(dst), i+1, p[i])
		}
		if i < len(want) && want[i] != p[i] {
			return fmt.Errorf("path from %s to %s: hop %d is %s; the routing takes %s%s", g.NodeName(src), g.NodeName(dst), i+1, g.ChannelName(p[i]), g.ChannelName(want[i]), note)
		}
	}
	if len(want) != len(p) {
		return fmt.Errorf("path from %s to %s has %d channels; the routing's has %d%s", g.NodeName(src), g.NodeName(dst), len(p), len(want), note)
	}
	return nil
}

// PathHops returns the hops of any channel path p with the routing's dateline classes:
// class 0 on entering each dimension, class 1 from the wrap-around channel on until the
// path turns into another dimension (always 0 without Dateline). For a DOR path it equals
// Hops; for a path whose ties go Minus (PathTies) it gives the classes the Minus way
// round needs, as HopsTies does.
func (r DOR) PathHops(p []ChannelID) []Hop {
	g := r.Grid
	out := make([]Hop, len(p))
	var class uint8
	dim := -1
	for i, c := range p {
		ch := g.channels[c]
		if ch.Dim != dim {
			dim, class = ch.Dim, 0
		}
		if ch.Wrap && r.Dateline {
			class = 1
		}
		out[i] = Hop{Channel: c, Class: class}
	}
	return out
}

// CheckWalk reports whether p is a walk of existing directed channels from src to dst
// (each channel starting where the previous one ends) that uses no channel twice, and if
// not, names the first hop at fault. It is the path check of explicit-path schedules
// (Schedule.Explicit), such as the DDN routes of 001 Types III and IV, which go a
// directed subnetwork's way round each ring and so are not shortest.
func (g *Network) CheckWalk(src, dst NodeID, p []ChannelID) error {
	if len(p) == 0 {
		if src == dst {
			return nil
		}
		return fmt.Errorf("path from %s to %s is empty", g.NodeName(src), g.NodeName(dst))
	}
	cur := src
	for i, c := range p {
		if int(c) < 0 || int(c) >= g.Channels() {
			return fmt.Errorf("path from %s to %s: hop %d is channel %d, which does not exist", g.NodeName(src), g.NodeName(dst), i+1, c)
		}
		ch := g.channels[c]
		if ch.From != cur {
			return fmt.Errorf("path from %s to %s: hop %d, %s, does not start at %s", g.NodeName(src), g.NodeName(dst), i+1, g.ChannelName(c), g.NodeName(cur))
		}
		cur = ch.To
	}
	if cur != dst {
		return fmt.Errorf("path from %s to %s ends at %s", g.NodeName(src), g.NodeName(dst), g.NodeName(cur))
	}
	sorted := slices.Clone(p)
	slices.Sort(sorted)
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			at := slices.Index(p, sorted[i])
			at2 := at + 1 + slices.Index(p[at+1:], sorted[i])
			return fmt.Errorf("path from %s to %s: hops %d and %d both use %s; a path uses each channel at most once", g.NodeName(src), g.NodeName(dst), at+1, at2+1, g.ChannelName(sorted[i]))
		}
	}
	return nil
}

// WrapAheadClasses returns the virtual-channel class of every hop of a DOR path under the
// two-class scheme of 004 Fig. 2: class 1 (a "p-channel") while the worm will still take
// the wrap-around channel of the dimension it is moving in, class 0 once it has taken it
// or when it never will. Like the dateline classes of DOR it makes each class's channel
// dependencies acyclic; it is the scheme U-torus and DCF are designed around.
func (g *Network) WrapAheadClasses(path []ChannelID) []uint8 {
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
