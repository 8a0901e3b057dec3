package partition

import (
	"context"
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/model/topology"
)

// Type is one of the four ways of 001 §3.1 to build DDNs on a 2-D torus.
type Type uint8

// The DDN types. Types I and II are undirected, III and IV directed.
const (
	TypeI   Type = iota + 1 // 001 Definition 4: h dilated-h tori
	TypeII                  // 001 Definition 5: h^2 dilated-h tori
	TypeIII                 // 001 Definition 6: 2h directed dilated-h tori, shifted by delta
	TypeIV                  // 001 Definition 7: h^2 directed dilated-h tori
)

var typeNames = [...]string{"", "I", "II", "III", "IV"}

// String returns the Roman numeral of the type.
func (t Type) String() string {
	if t >= TypeI && t <= TypeIV {
		return typeNames[t]
	}
	return fmt.Sprintf("Type(%d)", t)
}

// Valid reports whether t is one of TypeI..TypeIV.
func (t Type) Valid() bool { return t >= TypeI && t <= TypeIV }

// Directed reports whether the type's subnetworks hold one direction of each link.
func (t Type) Directed() bool { return t == TypeIII || t == TypeIV }

// Types lists the four types in order.
func Types() []Type { return []Type{TypeI, TypeII, TypeIII, TypeIV} }

// ParseType reads "I".."IV" (any case) or "1".."4".
func ParseType(s string) (Type, error) {
	switch strings.ToUpper(strings.TrimSpace(s)) {
	case "I", "1":
		return TypeI, nil
	case "II", "2":
		return TypeII, nil
	case "III", "3":
		return TypeIII, nil
	case "IV", "4":
		return TypeIV, nil
	}
	return 0, fmt.Errorf("type %q is not a DDN type; use I, II, III or IV", s)
}

// Params choose a DDN family: the type, the dilation h (which must divide both sides of
// the grid) and, for Type III only, the shift delta (1 <= delta <= h-1).
type Params struct {
	Type  Type
	H     int
	Delta int
}

// String renders the parameters as "Type III, h=4, delta=2".
func (p Params) String() string {
	if p.Type == TypeIII {
		return fmt.Sprintf("Type %v, h=%d, delta=%d", p.Type, p.H, p.Delta)
	}
	return fmt.Sprintf("Type %v, h=%d", p.Type, p.H)
}

// Count returns the number of DDNs the parameters give: h, h^2, 2h or h^2 (Table 1).
func (p Params) Count() int {
	switch p.Type {
	case TypeI:
		return p.H
	case TypeIII:
		return 2 * p.H
	}
	return p.H * p.H
}

// checkGrid refuses anything but a 2-D mesh or torus whose sides h divides.
func checkGrid(g *topology.Network, h int) error {
	if g == nil {
		return fmt.Errorf("partition: no grid")
	}
	if g.Dims() != 2 || (g.Kind() != topology.Torus && g.Kind() != topology.Mesh) {
		return fmt.Errorf("partition: topology %s is not a 2-D torus or mesh", g.Spec())
	}
	if h < 1 {
		return fmt.Errorf("partition: h is %d; it must be >= 1", h)
	}
	s, t := g.Size(0), g.Size(1)
	if s%h != 0 || t%h != 0 {
		return fmt.Errorf("partition: h = %d does not divide both sides of %s", h, g.Spec())
	}
	return nil
}

// Validate reports the first parameter that does not fit grid g, or that the DDNs would
// hold more than MaxChannelEntries channel entries in all. Every type may be built
// on a mesh (001 §3.2: the definitions carry over by dropping the wrap-around links), but
// only Types I and II give usable DDNs there: the directed ones are not strongly
// connected (see StronglyConnected and claim NP7).
func (p Params) Validate(g *topology.Network) error {
	if !p.Type.Valid() {
		return fmt.Errorf("partition: type %d is not a DDN type; use I, II, III or IV", p.Type)
	}
	if err := checkGrid(g, p.H); err != nil {
		return err
	}
	if p.Type == TypeIII {
		if p.H < 2 {
			return fmt.Errorf("partition: Type III needs h >= 2 (delta must satisfy 1 <= delta <= h-1); h is %d", p.H)
		}
		if p.Delta < 1 || p.Delta > p.H-1 {
			return fmt.Errorf("partition: delta is %d; Type III needs 1 <= delta <= h-1 = %d", p.Delta, p.H-1)
		}
	} else if p.Delta != 0 {
		return fmt.Errorf("partition: delta is %d; only Type III takes a delta", p.Delta)
	}
	s, t := g.Size(0), g.Size(1)
	per := 2 * ((s/p.H)*t + (t/p.H)*s) // channels of one undirected DDN
	if p.Type.Directed() {
		per /= 2
	}
	if total := int64(p.Count()) * int64(per); total > MaxChannelEntries {
		return fmt.Errorf("partition: %v on %s holds %d channel entries in all; at most %d are supported", p, g.Spec(), total, int64(MaxChannelEntries))
	}
	return nil
}

// MaxChannelEntries bounds the total number of (subnetwork, channel) entries DDNs may
// build, so that no input exhausts memory (Type II with a large h on a large torus would
// otherwise ask for h^2 full rings).
const MaxChannelEntries = 1 << 25

// lattice returns the members {p_{ah+i, bh+j}}: row offset i, column offset j, in
// ascending id order after NewSubnetwork sorts them.
func lattice(g *topology.Network, h, i, j int) []topology.NodeID {
	s, t := g.Size(0), g.Size(1)
	out := make([]topology.NodeID, 0, (s/h)*(t/h))
	for a := 0; a < s/h; a++ {
		for b := 0; b < t/h; b++ {
			out = append(out, g.Node(a*h+i, b*h+j))
		}
	}
	return out
}

// linesChannels appends the channels at rows ah+i (along dimension 1) and at columns
// bh+j (along dimension 0) for every a and b, in the directions o allows.
func linesChannels(buf []topology.ChannelID, g *topology.Network, h, i, j int, o Orientation) []topology.ChannelID {
	s, t := g.Size(0), g.Size(1)
	dirs := []topology.Direction{topology.Plus, topology.Minus}
	switch o {
	case Positive:
		dirs = dirs[:1]
	case Negative:
		dirs = dirs[1:]
	}
	for a := 0; a < s/h; a++ {
		x := a*h + i
		for y := 0; y < t; y++ {
			for _, dir := range dirs {
				if c := g.ChannelOut(g.Node(x, y), 1, dir); c != topology.None {
					buf = append(buf, c)
				}
			}
		}
	}
	for b := 0; b < t/h; b++ {
		y := b*h + j
		for x := 0; x < s; x++ {
			for _, dir := range dirs {
				if c := g.ChannelOut(g.Node(x, y), 0, dir); c != topology.None {
					buf = append(buf, c)
				}
			}
		}
	}
	return buf
}

// DDNs builds the data-distributing networks of the given type on a 2-D torus or mesh,
// in the paper's index order:
//
//   - Type I (Definition 4): G_i, i = 0..h-1, members p_{ah+i, bh+i}, all channels at
//     rows ah+i and at columns bh+i;
//   - Type II (Definition 5): G_{i,j}, i, j = 0..h-1 (i major), members p_{ah+i, bh+j},
//     all channels at rows ah+i and columns bh+j;
//   - Type III (Definition 6): G_0^+..G_{h-1}^+ (members as G_i, positive channels of
//     C_i) then G_0^-..G_{h-1}^- (members p_{ah+i, bh+i+delta}, negative channels at rows
//     ah+i and columns bh+i+delta);
//   - Type IV (Definition 7): G*_{i,j} (i major), members as G_{i,j}, the positive
//     channels of C_{i,j} when i+j is even and the negative ones when it is odd.
//
// Column indices are taken modulo t (bh+i+delta may pass t-1). Cost O(count * (s+t) *
// max(s,t)/h).
func DDNs(g *topology.Network, p Params) ([]Subnetwork, error) {
	return DDNsContext(context.Background(), g, p)
}

// DDNsContext is DDNs, ending with ctx's cause as its error when ctx is done before the
// last DDN is built (on a large grid with many DDNs the building is a long loop).
func DDNsContext(ctx context.Context, g *topology.Network, p Params) ([]Subnetwork, error) {
	if err := p.Validate(g); err != nil {
		return nil, err
	}
	h := p.H
	var out []Subnetwork
	var buf []topology.ChannelID
	add := func(name string, o Orientation, i, j int) {
		if ctx.Err() != nil {
			return
		}
		buf = linesChannels(buf[:0], g, h, i, j, o)
		out = append(out, NewSubnetwork(name, o, lattice(g, h, i, j), buf))
	}
	switch p.Type {
	case TypeI:
		for i := 0; i < h; i++ {
			add(fmt.Sprintf("G%d", i), Undirected, i, i)
		}
	case TypeII:
		for i := 0; i < h; i++ {
			for j := 0; j < h; j++ {
				add(fmt.Sprintf("G%d,%d", i, j), Undirected, i, j)
			}
		}
	case TypeIII:
		for i := 0; i < h; i++ {
			add(fmt.Sprintf("G%d+", i), Positive, i, i)
		}
		for i := 0; i < h; i++ {
			add(fmt.Sprintf("G%d-", i), Negative, i, (i+p.Delta)%h)
		}
	case TypeIV:
		for i := 0; i < h; i++ {
			for j := 0; j < h; j++ {
				o := Positive
				if (i+j)%2 == 1 {
					o = Negative
				}
				add(fmt.Sprintf("G*%d,%d", i, j), o, i, j)
			}
		}
	}
	if ctx.Err() != nil {
		return nil, context.Cause(ctx)
	}
	return out, nil
}

// DCNs builds the data-collecting networks of 001 Definition 8: the st/h^2 blocks
// DCN_{a,b} (a major) of h x h nodes p_{ah+i, bh+j}, each with every channel whose both
// end nodes lie in the block (both directions). On a torus with h equal to a side, the
// block spans the whole ring and so also holds that ring's wrap-around channels.
func DCNs(g *topology.Network, h int) ([]Subnetwork, error) {
	if err := checkGrid(g, h); err != nil {
		return nil, err
	}
	s, t := g.Size(0), g.Size(1)
	var out []Subnetwork
	for a := 0; a < s/h; a++ {
		for b := 0; b < t/h; b++ {
			var nodes []topology.NodeID
			var chans []topology.ChannelID
			for i := 0; i < h; i++ {
				for j := 0; j < h; j++ {
					nodes = append(nodes, g.Node(a*h+i, b*h+j))
				}
			}
			in := func(v topology.NodeID) bool {
				x, y := g.Coord(v, 0), g.Coord(v, 1)
				return x/h == a && y/h == b
			}
			for _, v := range nodes {
				for d := 0; d < 2; d++ {
					for _, dir := range []topology.Direction{topology.Plus, topology.Minus} {
						if c, w := g.Neighbor(v, d, dir); c != topology.None && in(w) {
							chans = append(chans, c)
						}
					}
				}
			}
			out = append(out, NewSubnetwork(fmt.Sprintf("DCN%d,%d", a, b), Undirected, nodes, chans))
		}
	}
	return out, nil
}

// DCNOf returns the index (into DCNs' order) of the DCN that holds node v.
func DCNOf(g *topology.Network, h int, v topology.NodeID) int {
	return (g.Coord(v, 0)/h)*(g.Size(1)/h) + g.Coord(v, 1)/h
}
