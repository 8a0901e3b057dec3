package dcf

import "fmt"

// Cell is an offset (X, Y) from a building block's source node, in units of the block's
// scale δ: the unit whose source is at S + δ·(X, Y). X is dimension 0 (routed first by
// dimension-order routing), Y dimension 1.
type Cell struct{ X, Y int }

func (c Cell) add(d Cell) Cell { return Cell{c.X + d.X, c.Y + d.Y} }

// residue returns the index of c's class modulo 4 in each coordinate, 0..15.
func (c Cell) residue() int { return mod(c.X, 4) + 4*mod(c.Y, 4) }

func mod(a, m int) int { return ((a % m) + m) % m }

func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

func (c Cell) String() string { return fmt.Sprintf("(%d,%d)", c.X, c.Y) }

// Send is one unicast of a building block: From sends to To in Step (1 or 2 within the
// phase); a node's sends are listed in its send order.
type Send struct {
	From, To Cell
	Step     int
}

// Block is a level-1 building block given by its broadcast: the sends in the global
// order in which they are listed, each node's sends in its own send order. The cells of
// the block are the source (0, 0) and every To.
type Block struct {
	Sends []Send
}

// Cells returns the 16 cells of the block, the source first, then in send order.
func (b Block) Cells() []Cell {
	out := []Cell{{0, 0}}
	for _, s := range b.Sends {
		out = append(out, s.To)
	}
	return out
}
