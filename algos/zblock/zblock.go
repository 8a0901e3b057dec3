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
)

// Offsets are the three non-source units of a level_1 Z_block, in send order.
var Offsets = [3][2]int{{1, 0}, {0, 1}, {-1, 1}}

// Phase adds one Z_block step: every node in sources sends to its three units at scale
// delta, in step; it returns the sources of the next level (the old ones and the new
// receivers, in a deterministic order).
func Phase(b *plan.Builder, g *model.Grid, sources []model.NodeID, delta, step int) []model.NodeID {
	next := make([]model.NodeID, 0, 4*len(sources))
	for _, s := range sources {
		next = append(next, s)
		x, y := g.Coord(s, 0), g.Coord(s, 1)
		for _, o := range Offsets {
			t := g.Node(x+delta*o[0], y+delta*o[1])
			b.Send(s, t, step)
			next = append(next, t)
		}
	}
	return next
}

// Build returns the Z_block broadcast from src on g, which must be a 2-D torus of size
// 2^d x 2^d, d >= 2.
func Build(g *model.Grid, src model.NodeID) (*model.Schedule, error) {
	d, err := Dim(g)
	if err != nil {
		return nil, err
	}
	if err := plan.CheckNode(g, "source", src); err != nil {
		return nil, err
	}
	b := plan.New(model.NewDOR(g), model.AllPort, []model.NodeID{src}, plan.AllBut(g, src))
	srcs := []model.NodeID{src}
	for j := 1; j <= d; j++ {
		srcs = Phase(b, g, srcs, 1<<(d-j), j)
	}
	return b.Schedule(), nil
}

// Dim returns d for a 2^d x 2^d torus, or an error naming what is unsupported.
func Dim(g *model.Grid) (int, error) {
	if g.Kind() != model.Torus || g.Dims() != 2 || g.Size(0) != g.Size(1) {
		return 0, fmt.Errorf("topology %s: Z_block needs a square 2-D torus 2^d x 2^d", g.Spec())
	}
	d := plan.Log2(g.Size(0))
	if d < 2 {
		return 0, fmt.Errorf("topology %s: Z_block needs side 2^d with d >= 2 (the 2x2 torus is wired as a mesh), got %d", g.Spec(), g.Size(0))
	}
	return d, nil
}
