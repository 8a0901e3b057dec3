// Package zblock builds the Z_block broadcast of Hou, Wang & Hsu (004 §5.1, Figs. 5-6) on
// an all-port 2^d x 2^d torus with dimension-order routing.
//
// A level_1 Z_block has four units: the block source (X, Y) and (X-1, Y+1), (X, Y+1),
// (X+1, Y) (004 §5.1, Fig. 5). A level_i Z_block is four level_(i-1) Z_blocks whose block
// sources sit at the same four offsets scaled by δ = 2^(i-1); the 2^d x 2^d torus is a
// level_d Z_block (Fig. 6). The broadcast takes d steps: in step j every node that holds
// the message is the source of a level_(d-j+1) block and sends to the sources of the three
// other level_(d-j) units. The four offsets are one complete residue system modulo 2, so
// the digit expansion sum_i 2^i·o_i covers every node exactly once.
//
// The units. §5.1's text lists them as "(X-1, Y+1), (X, Y+1) and (X+1, Y+1)Y)"; the
// third is read as (X+1, Y): the Z shape is two units on row Y+1 (X-1 and X) over two on
// row Y (X and X+1), and only with (X+1, Y) are the four offsets a complete residue
// system modulo 2, which the recursion needs to tile the torus ((X+1, Y+1) would put two
// units in the residue class (1, 1) and leave (1, 0) empty).
//
// Tie directions (004 Fig. 6(b), reconstructed: the figure is missing). At the top level
// δ = k/2, so the units (X+δ, Y) and (X-δ, Y+δ) lie exactly half-way round the x ring and
// both ways are minimal. The text says "since there are wraparound channels in a torus, a
// 4x4 torus can be viewed as shown in Fig. 6(b)": the torus is redrawn as the Z with the
// unit (X-δ, Y+δ) on the left, i.e. reached through the wrap-around the Minus way, and the
// units above (Y+δ) reached the Plus way. PaperTies (the default) routes every tie the
// way its offset's sign says (topology.DOR.PathTies; the schedule opts into "ties":
// "either"), so that the three sends of a block source leave by three different
// channels (+x, +y, -x) and 004 Definition 1 condition 3 holds. PlusTies keeps DOR's
// default (ties Plus), under which (X+δ, Y) and (X-δ, Y+δ) both leave by +x in step 1
// and condition 3 fails: the old reading, kept for comparison.
//
// Send order (a reconstruction: Fig. 5 is missing): (X+1, Y), (X, Y+1), then (X-1, Y+1).
// 004 §6.1 charges the last phase of the (2·4^k)^2 DCF broadcast with 3 ts and 2 tc
// (2(4^(k+1)-1)/3 = 8(4^k-1)/3 + 2), which puts the two-hop unit (X-1, Y+1) last.
//
// Reference: 004 §5.1 Figs. 5-6; §5.2 ("Although the Z_block can be used for broadcasting
// on a 2^d x 2^d torus, it is not depth contention-free") is claim DC6.
package zblock

import (
	"fmt"

	"github.com/wormcheck/wormcheck/algos/plan"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Offsets returns the three non-source units of a level_1 Z_block, in send order (an
// array, so each caller gets its own copy).
func Offsets() [3][2]int { return [3][2]int{{1, 0}, {0, 1}, {-1, 1}} }

// Ties says which way Z_block's unicasts go round a ring where both ways are minimal.
type Ties uint8

// The tie rules of Build.
const (
	// PaperTies routes a tie the way the unit's offset points (Minus for X-δ): the view of
	// 004 Fig. 6(b). The default.
	PaperTies Ties = iota
	// PlusTies routes every tie Plus, DOR's default: the unit (X-δ, Y+δ) then leaves by
	// the same +x channel as (X+δ, Y) at the top level.
	PlusTies
)

// String returns "paper" or "plus".
func (t Ties) String() string {
	if t == PlusTies {
		return "plus"
	}
	return "paper"
}

// Options configure BuildWith.
type Options struct {
	Ties Ties
	// Stop, when not nil, is asked every plan.StopEvery sends whether to end the build
	// early; BuildWith then returns a *plan.Stopped error saying how far it got.
	Stop func() bool
}

// OffsetTies returns the tie directions of the unit at offset o: Minus in each dimension
// where o is negative (004 Fig. 6(b)).
func OffsetTies(o [2]int) topology.TieDirs {
	var t topology.TieDirs
	for d, x := range o {
		if x < 0 {
			t |= topology.TiesMinus(d)
		}
	}
	return t
}

// Phase adds one Z_block step: every node in sources sends to its three units at scale
// delta, in step; it returns the sources of the next level (the old ones and the new
// receivers, in a deterministic order). The paths are DOR's defaults (ties Plus); at
// delta < k/2 there are no ties, which is how DCF and EDN use it (delta = 1).
func Phase(b *plan.Builder, g *topology.Network, sources []topology.NodeID, delta, step int) []topology.NodeID {
	return phase(b, g, sources, delta, step, nil)
}

// phase is Phase recording, in ties, the tie directions of each receiver's unit.
func phase(b *plan.Builder, g *topology.Network, sources []topology.NodeID, delta, step int, ties map[topology.NodeID]topology.TieDirs) []topology.NodeID {
	next := make([]topology.NodeID, 0, 4*len(sources))
	for _, s := range sources {
		if b.Stopped() {
			break
		}
		next = append(next, s)
		x, y := g.Coord(s, 0), g.Coord(s, 1)
		for _, o := range Offsets() {
			t := g.Node(x+delta*o[0], y+delta*o[1])
			b.Send(s, t, step)
			if ties != nil {
				ties[t] = OffsetTies(o)
			}
			next = append(next, t)
		}
	}
	return next
}

// Build returns the Z_block broadcast from src on g, which must be a 2-D torus of size
// 2^d x 2^d, d >= 2, with the tie directions of 004 Fig. 6(b) (PaperTies).
func Build(g *topology.Network, src topology.NodeID) (*model.Schedule, error) {
	return BuildWith(g, src, Options{})
}

// BuildPlusTies is Build with every tie routed Plus (PlusTies), for comparison.
func BuildPlusTies(g *topology.Network, src topology.NodeID) (*model.Schedule, error) {
	return BuildWith(g, src, Options{Ties: PlusTies})
}

// BuildWith returns the Z_block broadcast from src on g with the given options. With
// PaperTies the schedule's Ties is model.TiesEither and each unicast to a tied unit takes
// topology.DOR.PathTies with OffsetTies of its offset; with PlusTies every path is the DOR
// path.
func BuildWith(g *topology.Network, src topology.NodeID, opt Options) (*model.Schedule, error) {
	d, err := Dim(g)
	if err != nil {
		return nil, err
	}
	if err := plan.CheckNode(g, "source", src); err != nil {
		return nil, err
	}
	if opt.Ties != PaperTies && opt.Ties != PlusTies {
		return nil, fmt.Errorf("zblock: tie rule %d is unknown", opt.Ties)
	}
	r := topology.NewDOR(g)
	b := plan.New(r, model.AllPort, []topology.NodeID{src}, plan.AllBut(g, src))
	b.StopWhen(opt.Stop, g.Nodes()-1)
	var ties map[topology.NodeID]topology.TieDirs
	if opt.Ties == PaperTies {
		ties = map[topology.NodeID]topology.TieDirs{}
	}
	srcs := []topology.NodeID{src}
	for j := 1; j <= d && !b.Stopped(); j++ {
		srcs = phase(b, g, srcs, 1<<(d-j), j, ties)
	}
	s, err := b.Result()
	if err != nil {
		return nil, err
	}
	if opt.Ties == PaperTies {
		s.Ties = model.TiesEither
		for i := range s.Unicasts {
			u := &s.Unicasts[i]
			if t := ties[u.To]; t != 0 {
				u.Path = r.PathTies(u.From, u.To, t)
			}
		}
	}
	return s, nil
}

// Dim returns d for a 2^d x 2^d torus, or an error naming what is unsupported.
func Dim(g *topology.Network) (int, error) {
	if g.Kind() != topology.Torus || g.Dims() != 2 || g.Size(0) != g.Size(1) {
		return 0, fmt.Errorf("topology %s: Z_block needs a square 2-D torus 2^d x 2^d", g.Spec())
	}
	d := plan.Log2(g.Size(0))
	if d < 2 {
		return 0, fmt.Errorf("topology %s: Z_block needs side 2^d with d >= 2 (the 2x2 torus is wired as a mesh), got %d", g.Spec(), g.Size(0))
	}
	return d, nil
}
