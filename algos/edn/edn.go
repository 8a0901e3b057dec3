// Package edn builds a reconstruction of the extended-dominating-node (EDN) broadcast of
// Tsai & McKinley on an all-port 2^d x 2^d torus with dimension-order routing, the
// algorithm 004 compares DCF against.
//
// Sources used: 004 §4 (EDN "constructs (d+1) extended dominating sets, one for each
// level. The highest level EDS contains only the source node, while the level_0 EDS is the
// set of all nodes. Each node in a level_i EDS follows some pattern to send the message to
// nodes in the level_(i-1) EDS. Their algorithm requires d steps ... and is proved to be
// stepwise contention-free"); 004 §6.1 (EDN's contention-free latency 6k ts + 4(4^k-1)/3 tc
// + 2kL tc + 2k tr on 4^k x 4^k and 3(2k+1) ts + 2(4^(k+1)-1)/3 tc + (2k+1)L tc + (2k+1) tr
// on (2·4^k)^2); Y.-J. Tsai and P. K. McKinley, "A Broadcast Algorithm for All-Port
// Wormhole-Routed Torus Networks", IEEE TPDS 7(8):876-885, 1996 (abstract: a tree of
// multiple levels of extended dominating nodes, exploiting distance insensitivity and
// all-port injection under dimension-ordered routing). The paper's body is not in the
// seeds, so the pattern is reconstructed from those facts alone:
//
//   - d steps and 4^d nodes, every informed node sending to three new nodes per step (the
//     ts coefficient 3 per step), so each step multiplies the informed set by four: the
//     EDS of level i has 4^(d-i) nodes.
//   - The tc coefficient 4δ per pair of steps (δ = 4^(k-j) in phase j) splits as a step
//     whose last send travels 3δ (the source reaching the level's dominating nodes) and a
//     step of one-hop-at-scale-δ sends (every dominating node covering three of its
//     neighbours, the "dominating" step): phase time 6ts + 4δtc + 2Ltc + 2tr.
//   - So a phase is a 16-cell tile: S and three dominating nodes E1, E2, E3 (step A, S's
//     first channels distinct, E3 at 3 hops), each covering three neighbours (step B): four
//     T-tetrominoes, one cell per residue class modulo 4 so that the levels tile the
//     torus.
//   - On (2·4^k)^2 the last step is one Z_block step (3 sends, the last two hops), which is
//     what the formula's extra 3 ts + 2 tc says.
//
// Search enumerates every tile satisfying these constraints that is stepwise
// contention-free on the 4x4 torus and in the plane; Pattern is its first (sorted) tile.
// Depth contention is left to the checker (claim DC5).
package edn

import (
	"fmt"
	"sort"

	"github.com/wormcheck/wormcheck/algos/plan"
	"github.com/wormcheck/wormcheck/algos/zblock"
	"github.com/wormcheck/wormcheck/model"
)

// Cell is an offset in units of the phase's scale δ (X is dimension 0).
type Cell struct{ X, Y int }

// Tile is one phase's pattern: step A sends from the source to Dominating (in order),
// step B sends from each of Source, Dominating[0..2] to its three Covers (in order).
type Tile struct {
	Dominating [3]Cell
	// Covers[0] are the source's, Covers[i+1] those of Dominating[i].
	Covers [4][3]Cell
}

// Pattern is the reconstructed EDN tile (the first of Search's results).
var Pattern Tile // filled in once the search is pinned

func mustFirstX() Tile {
	ts := Search()
	if len(ts) == 0 {
		panic("edn: no tile satisfies the reconstruction constraints")
	}
	return ts[0]
}

func mod(a, m int) int { return ((a % m) + m) % m }
func abs(a int) int {
	if a < 0 {
		return -a
	}
	return a
}

// Search returns every tile that satisfies the constraints listed in the package doc, in
// a deterministic order (sorted by their printed form). Step B's sends are not forced to be
// one hop: each centre may cover any three cells, with distinct first channels, the
// step's paths arc-disjoint (in the plane and on the 4x4 torus), and every unicast of the
// phase completing by 6ts + 4δtc (componentwise), the dominating node sent last reaching
// exactly that. Cost: well under a second.
func Search() []Tile { return search(2) }

// search is Search with step-B sends of at most maxCover hops (at scale δ).
func search(maxCover int) []Tile {
	var ball []Cell
	for y := -4; y <= 4; y++ {
		for x := -4; x <= 4; x++ {
			if d := abs(x) + abs(y); d >= 1 && d <= 4 {
				ball = append(ball, Cell{x, y})
			}
		}
	}
	var out []Tile
	for _, e1 := range ball {
		for _, e2 := range ball {
			for _, e3 := range ball {
				t := Tile{Dominating: [3]Cell{e1, e2, e3}}
				if e1 == e2 || e1 == e3 || e2 == e3 {
					continue
				}
				if dist(e1) > 3 || dist(e2) > 3 || dist(e3) > 3 || !pathsOK([][2]Cell{{{}, e1}, {{}, e2}, {{}, e3}}) {
					continue
				}
				centres := [4]Cell{{}, e1, e2, e3}
				recv := [4][2]int{{0, 0}, {1, dist(e1)}, {2, dist(e2)}, {3, dist(e3)}}
				// The step-A sends complete by 6ts + 4δtc only if each is followed by
				// step-B sends that fit; checked per cover below.
				res := map[int]bool{}
				ok := true
				for _, c := range centres {
					r := residue(c)
					if res[r] {
						ok = false
					}
					res[r] = true
				}
				if !ok {
					continue
				}
				var rec func(i int, stepB [][2]Cell)
				rec = func(i int, stepB [][2]Cell) {
					if i == 4 {
						// the phase's latest completion must be exactly 6ts + 4δtc
						best := false
						for ci, cs := range t.Covers {
							base := recv[ci]
							off := 0
							if ci == 0 {
								off = 3
							}
							for j, c := range cs {
								h := dist(Cell{c.X - centres[ci].X, c.Y - centres[ci].Y})
								if base[0]+off+j+1 == 6 && base[1]+h == 4 {
									best = true
								}
							}
						}
						if best {
							out = append(out, t)
						}
						return
					}
					c := centres[i]
					base := recv[i]
					off := 0
					if i == 0 {
						off = 3
					}
					var pick func(j, from int, chosen []Cell)
					pick = func(j, from int, chosen []Cell) {
						if j == 3 {
							// Farthest first (ties in ball order): a node's later sends
							// carry more ts, so they should travel less.
							ord := append([]Cell(nil), chosen...)
							sort.SliceStable(ord, func(a, b int) bool {
								return dist(Cell{ord[a].X - c.X, ord[a].Y - c.Y}) > dist(Cell{ord[b].X - c.X, ord[b].Y - c.Y})
							})
							for k, to := range ord {
								if base[0]+off+k+1 > 6 || base[1]+dist(Cell{to.X - c.X, to.Y - c.Y}) > 4 {
									return
								}
							}
							copy(t.Covers[i][:], ord)
							more := append(append([][2]Cell(nil), stepB...), [2]Cell{c, ord[0]}, [2]Cell{c, ord[1]}, [2]Cell{c, ord[2]})
							rec(i+1, more)
							return
						}
						for bi := from; bi < len(ball); bi++ {
							d := ball[bi]
							to := Cell{c.X + d.X, c.Y + d.Y}
							r := residue(to)
							if res[r] || base[1]+dist(d) > 4 || dist(d) > maxCover {
								continue
							}
							trial := append(append([][2]Cell(nil), stepB...), [2]Cell{c, to})
							for _, x := range chosen {
								trial = append(trial, [2]Cell{c, x})
							}
							if !pathsOK(trial) {
								continue
							}
							res[r] = true
							pick(j+1, bi+1, append(chosen, to))
							delete(res, r)
						}
					}
					pick(0, 0, nil)
				}
				rec(0, nil)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return fmt.Sprint(out[i]) < fmt.Sprint(out[j]) })
	return out
}

func dist(c Cell) int { return abs(c.X) + abs(c.Y) }

func residue(c Cell) int { return mod(c.X, 4) + 4*mod(c.Y, 4) }

type arc struct{ x, y, dim, s int }

// route returns the DOR arcs from a to b in the plane, or on the 4x4 torus (the
// shortest way, a tie of two hops going Plus).
func route(a, b Cell, torus bool) []arc {
	dx, dy := b.X-a.X, b.Y-a.Y
	if torus {
		dx, dy = shortest(dx), shortest(dy)
	}
	x, y := a.X, a.Y
	var arcs []arc
	add := func(dim, s int) {
		ar := arc{x, y, dim, s}
		if torus {
			ar.x, ar.y = mod(x, 4), mod(y, 4)
		}
		arcs = append(arcs, ar)
	}
	for dx != 0 {
		s := 1
		if dx < 0 {
			s = -1
		}
		add(0, s)
		x += s
		dx -= s
	}
	for dy != 0 {
		s := 1
		if dy < 0 {
			s = -1
		}
		add(1, s)
		y += s
		dy -= s
	}
	return arcs
}

// pathsOK reports whether the unicasts (one step's) are pairwise arc-disjoint in the
// plane and on the 4x4 torus; distinct first channels per sender follow.
func pathsOK(us [][2]Cell) bool {
	for _, torus := range []bool{false, true} {
		seen := map[arc]bool{}
		for _, u := range us {
			p := route(u[0], u[1], torus)
			if len(p) == 0 {
				return false
			}
			for _, a := range p {
				if seen[a] {
					return false
				}
				seen[a] = true
			}
		}
	}
	return true
}

// shortest maps an offset on a ring of 4 to the DOR displacement: 3 -> -1, 2 -> +2 (a tie
// goes Plus), 1 -> 1, 0 -> 0.
func shortest(d int) int {
	d = mod(d, 4)
	if d == 3 {
		return -1
	}
	return d
}

// Shape returns k and whether g is (2·4^k)^2 (else 4^k x 4^k), k >= 1.
func Shape(g *model.Grid) (k int, prime bool, err error) {
	if g.Kind() != model.Torus || g.Dims() != 2 || g.Size(0) != g.Size(1) {
		return 0, false, fmt.Errorf("topology %s: EDN needs a square 2-D torus of side 4^k or 2·4^k", g.Spec())
	}
	n := g.Size(0)
	if k := plan.Log4(n); k >= 1 {
		return k, false, nil
	}
	if n%2 == 0 {
		if k := plan.Log4(n / 2); k >= 1 {
			return k, true, nil
		}
	}
	return 0, false, fmt.Errorf("topology %s: EDN needs side 4^k or 2·4^k, k >= 1, got %d", g.Spec(), n)
}

// Build returns the reconstructed EDN broadcast from src on g (side 4^k or 2·4^k, k >= 1).
func Build(g *model.Grid, src model.NodeID) (*model.Schedule, error) {
	return BuildWith(g, src, Pattern)
}

// BuildWith is Build with another tile.
func BuildWith(g *model.Grid, src model.NodeID, t Tile) (*model.Schedule, error) {
	k, prime, err := Shape(g)
	if err != nil {
		return nil, err
	}
	if err := plan.CheckNode(g, "source", src); err != nil {
		return nil, err
	}
	b := plan.New(model.NewDOR(g), model.AllPort, []model.NodeID{src}, plan.AllBut(g, src))
	srcs := []model.NodeID{src}
	for j := 1; j <= k; j++ {
		delta := 1
		for e := 0; e < k-j; e++ {
			delta *= 4
		}
		if prime {
			delta *= 2
		}
		step := 2*j - 1
		var next []model.NodeID
		for _, s := range srcs {
			x, y := g.Coord(s, 0), g.Coord(s, 1)
			at := func(c Cell) model.NodeID { return g.Node(x+delta*c.X, y+delta*c.Y) }
			centres := []model.NodeID{s}
			for _, e := range t.Dominating {
				b.Send(s, at(e), step)
				centres = append(centres, at(e))
			}
			cs := []Cell{{0, 0}, t.Dominating[0], t.Dominating[1], t.Dominating[2]}
			for i := range centres {
				next = append(next, centres[i])
				for _, c := range t.Covers[i] {
					b.Send(centres[i], at(c), step+1)
					next = append(next, at(c))
				}
				_ = cs
			}
		}
		srcs = next
	}
	if prime {
		zblock.Phase(b, g, srcs, 1, 2*k+1)
	}
	return b.Schedule(), nil
}

// Times are 004 §6.1's parameters.
type Times struct {
	Ts, Tr, Tc float64
	L          int
}

// Formula returns 004 §6.1's contention-free latency of EDN (citing Tsai & McKinley):
// 6k ts + 4(4^k-1)/3 tc + 2kL tc + 2k tr on 4^k x 4^k, and
// 3(2k+1) ts + 2(4^(k+1)-1)/3 tc + (2k+1)L tc + (2k+1) tr on (2·4^k)^2.
func Formula(k int, prime bool, t Times) float64 {
	kk, L := float64(k), float64(t.L)
	p := 1.0
	for i := 0; i < k; i++ {
		p *= 4
	}
	if prime {
		return 3*(2*kk+1)*t.Ts + 2*(4*p-1)/3*t.Tc + (2*kk+1)*L*t.Tc + (2*kk+1)*t.Tr
	}
	return 6*kk*t.Ts + 4*(p-1)/3*t.Tc + 2*kk*L*t.Tc + 2*kk*t.Tr
}
