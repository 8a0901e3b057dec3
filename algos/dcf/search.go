package dcf

import (
	"fmt"
	"sort"
)

// arc is one directed channel between two cells: it leaves From along dimension Dim in
// direction Sign (+1 or -1).
type arc struct {
	From      Cell
	Dim, Sign int
}

// planePath returns the dimension-order path (dimension 0 first) from a to b in the
// plane, where the block sits inside a much larger torus so that no wrap-around is taken:
// the arcs and the nodes it visits after a.
func planePath(a, b Cell) (arcs []arc, nodes []Cell) {
	cur := a
	for dim := 0; dim < 2; dim++ {
		for {
			d := b.X - cur.X
			if dim == 1 {
				d = b.Y - cur.Y
			}
			if d == 0 {
				break
			}
			s := 1
			if d < 0 {
				s = -1
			}
			arcs = append(arcs, arc{cur, dim, s})
			if dim == 0 {
				cur.X += s
			} else {
				cur.Y += s
			}
			nodes = append(nodes, cur)
		}
	}
	return arcs, nodes
}

// torusPath returns the dimension-order path from a to b on the 4x4 torus (coordinates
// mod 4, the shortest way round, a tie of two hops going the positive way): the path a
// level-1 block takes when it is the whole 4x4 torus, and, scaled by δ, the path of the
// top phase on a 4^k x 4^k torus.
func torusPath(a, b Cell) []arc {
	cur := Cell{mod(a.X, 4), mod(a.Y, 4)}
	var arcs []arc
	for dim := 0; dim < 2; dim++ {
		d := mod(b.X-cur.X, 4)
		if dim == 1 {
			d = mod(b.Y-cur.Y, 4)
		}
		s, n := 1, d
		if d == 3 {
			s, n = -1, 1
		}
		for i := 0; i < n; i++ {
			arcs = append(arcs, arc{cur, dim, s})
			if dim == 0 {
				cur.X = mod(cur.X+s, 4)
			} else {
				cur.Y = mod(cur.Y+s, 4)
			}
		}
	}
	return arcs
}

// Lin is a linear form a*ts + b*(δ·tc) of the timing model of 004 §6.1, with the L*tc and
// tr terms left out: inside one phase every completion carries the same number of them.
type Lin struct{ Ts, Tc int }

func (l Lin) le(m Lin) bool { return l.Ts <= m.Ts && l.Tc <= m.Tc }

// Candidate is a level-1 block that SearchLevel1 accepted, with the facts it recorded.
type Candidate struct {
	Block Block
	// Shared lists the pairs of unicasts (indices into Block.Sends) whose plane paths
	// share a channel; every pair satisfies a condition of 004 Theorem 1.
	Shared [][2]int
	// Done is each sender's completion time (its last send delivered), by sender cell.
	Done map[Cell]Lin
}

// SearchLevel1 enumerates every level-1 DCF_block consistent with what 004 states about
// the missing Fig. 7, and returns them in a deterministic order. The constraints, each
// with its source:
//
//   - §5.2: S = (0,0) sends to A, B, C, D in step 1, in that order; in step 2 S, A, B, C, D
//     send to the other units; the block has 16 units (so 15 unicasts).
//   - Theorem 4's proof: A = (2δ, δ); S's step-2 send goes to (δ, 0) and shares its first
//     channel with S -> A (the proof's "(X+2, Y)" in step 1 can only be A: a step-1 send to
//     (2, 0) would share S's +x channel with S -> A inside step 1, against Definition 1
//     condition 3); the sub-blocks along P(S, A) have sources S, (δ,0), (2δ,0), A, and
//     (2δ, 0) is in A's reachable set (case 3 of the proof), so A sends to (2, 0).
//   - §6.1: A, B and D receive at ts+3δtc, 2ts+2δtc, 4ts+δtc (C's time is garbled away),
//     so |A| = 3, |B| = 2, |D| = 1 hops; in step 2 A sends 4, B 3, C 2, D 1 and S 1 unicasts
//     (4+3+2+1+1 = 11 = 15-4); the phase completes at 5ts + 4δtc (+ 2Ltc + 2tr) and the
//     last sends of B, C, D complete at 5ts + 3δtc: so every unicast completes by
//     5ts + 4δtc for all ts, tc (componentwise on the linear forms), A's last at exactly
//     that, B's, C's and D's last at 5ts + 3δtc.
//   - Definition 1 condition 3: the sends of one node in one step leave by distinct first
//     channels (in the plane and on the 4x4 torus, where the block is the whole network).
//   - Theorem 3's proof: the unicasts of a step are arc-disjoint (stepwise contention
//     free), and every routing path stays inside the block (plane embedding).
//   - Theorem 2 / §5.2 recursion: the 16 cells form one complete residue system modulo 4
//     in each coordinate, so that level_(k) blocks built from 16 level_(k-1) blocks at
//     offsets δ·cell tile the 4^k x 4^k torus (digit expansion in base 4).
//   - Theorem 4's proof for k = 1: the only pair of unicasts that share a channel is
//     S -> A (step 1) and S -> (1, 0) (step 2), covered by Theorem 1 condition 3.
//
// §6.1's list of completion times is garbled (three values for five senders); the
// default reading is "A's last at 5ts+4δtc, B's at 5ts+3δtc, and one more of C, D at
// 5ts+3δtc". Options switch constraints on or off to count how much each narrows.
// Cost: well under a second.
func SearchLevel1(opt SearchOptions) []Candidate {
	return search(opt.PathsInside, opt.OnlySharedPair, opt.AllAt3)
}

// SearchOptions select the constraints of SearchLevel1 whose reading is uncertain.
type SearchOptions struct {
	PathsInside    bool // Theorem 3's proof: every path stays inside the block (plane)
	OnlySharedPair bool // Theorem 4's proof: S->A and S->(1,0) are the only pair sharing a channel
	AllAt3         bool // §6.1 read as: B's, C's and D's last sends all complete at 5ts+3δtc
}

// DefaultSearch returns the reading used to pick Level1.
func DefaultSearch() SearchOptions { return SearchOptions{PathsInside: true, OnlySharedPair: true} }

func search(requireInside, strictShare, literal33 bool) []Candidate {
	S, A, X1 := Cell{0, 0}, Cell{2, 1}, Cell{1, 0}
	nb := []Cell{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}
	dist := func(a, b Cell) int { return abs(a.X-b.X) + abs(a.Y-b.Y) }
	first := func(a, b Cell) arc { p, _ := planePath(a, b); return p[0] }
	// Cells within distance r of c, in a fixed order.
	ball := func(c Cell, r int) []Cell {
		var out []Cell
		for dy := -r; dy <= r; dy++ {
			for dx := -r; dx <= r; dx++ {
				if d := abs(dx) + abs(dy); d >= 1 && d <= r {
					out = append(out, Cell{c.X + dx, c.Y + dy})
				}
			}
		}
		return out
	}
	var out []Candidate
	var aTargets []Cell
	for _, d := range nb {
		aTargets = append(aTargets, A.add(d))
	}
	used0 := map[int]bool{}
	for _, c := range append([]Cell{S, A, X1}, aTargets...) {
		used0[c.residue()] = true
	}
	for _, B := range ball(S, 2) {
		if dist(S, B) != 2 || used0[B.residue()] {
			continue
		}
		for _, D := range nb {
			if used0[D.residue()] || D.residue() == B.residue() {
				continue
			}
			for _, C := range ball(S, 4) {
				if used0[C.residue()] || C.residue() == B.residue() || C.residue() == D.residue() {
					continue
				}
				fc := map[arc]bool{}
				for _, t := range []Cell{A, B, C, D} {
					fc[first(S, t)] = true
				}
				if len(fc) != 4 {
					continue
				}
				out = append(out, searchTargets(S, A, B, C, D, X1, aTargets, ball, requireInside, strictShare, literal33)...)
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		return fmt.Sprint(out[i].Block.Sends) < fmt.Sprint(out[j].Block.Sends)
	})
	return out
}

// searchTargets completes a block whose step-1 sends are fixed: it chooses B's three,
// C's two and D's one step-2 targets (in send order) and checks every constraint.
func searchTargets(S, A, B, C, D, X1 Cell, aTargets []Cell, ball func(Cell, int) []Cell, requireInside, strictShare, literal33 bool) []Candidate {
	dist := func(a, b Cell) int { return abs(a.X-b.X) + abs(a.Y-b.Y) }
	used := map[int]bool{}
	for _, c := range append([]Cell{S, A, B, C, D, X1}, aTargets...) {
		used[c.residue()] = true
	}
	// Receive times (ts, δtc) of the step-1 receivers.
	hC := dist(S, C)
	recv := map[Cell]Lin{A: {1, 3}, B: {2, 2}, C: {3, hC}, D: {4, 1}}
	limit := Lin{5, 4}
	// Targets each sender may use in step 2 given the completion bound: the j-th of m
	// sends of a node received at R completes at R + j ts + h δtc.
	okTime := func(from Cell, j, h int) bool {
		r := recv[from]
		return (Lin{r.Ts + j, r.Tc + h}).le(limit)
	}
	var out []Candidate
	var pickB func(i int, chosen []Cell)
	tryAll := func(bT []Cell) {
		for _, c1 := range ball(C, 4) {
			if used[c1.residue()] || inCells(bT, c1) || !okTime(C, 1, dist(C, c1)) {
				continue
			}
			for _, c2 := range ball(C, 4) {
				if c2 == c1 || used[c2.residue()] || inCells(bT, c2) || c2.residue() == c1.residue() || !okTime(C, 2, dist(C, c2)) {
					continue
				}

				for _, d1 := range ball(D, 3) {
					if used[d1.residue()] || inCells(bT, d1) || d1.residue() == c1.residue() || d1.residue() == c2.residue() {
						continue
					}
					c3 := hC+dist(C, c2) == 3
					d3 := 1+dist(D, d1) == 3
					if literal33 && !(c3 && d3) {
						continue // §6.1 read literally: C's and D's last sends complete at 5ts + 3δtc
					}
					if !literal33 && !(c3 || d3) {
						continue // §6.1: one more of C, D completes at 5ts + 3δtc
					}
					if !residuesDistinct(bT, c1, c2, d1) {
						continue
					}
					blk := Block{}
					for _, t := range []Cell{A, B, C, D} {
						blk.Sends = append(blk.Sends, Send{S, t, 1})
					}
					for _, t := range aTargets {
						blk.Sends = append(blk.Sends, Send{A, t, 2})
					}
					for _, t := range bT {
						blk.Sends = append(blk.Sends, Send{B, t, 2})
					}
					blk.Sends = append(blk.Sends, Send{C, c1, 2}, Send{C, c2, 2}, Send{D, d1, 2}, Send{S, X1, 2})
					if c, ok := checkBlock(blk, recv, requireInside, strictShare); ok {
						out = append(out, c)
					}
				}
			}
		}
	}
	pickB = func(i int, chosen []Cell) {
		if i == 3 {
			if literal33 && dist(B, chosen[2]) != 1 {
				return // §6.1: B's last send completes at 5ts + 3δtc
			}
			tryAll(append([]Cell(nil), chosen...))
			return
		}
		for _, t := range ball(B, 2) {
			if used[t.residue()] || inCells(chosen, t) || !okTime(B, i+1, dist(B, t)) {
				continue
			}
			dup := false
			for _, c := range chosen {
				if c.residue() == t.residue() {
					dup = true
				}
			}
			if dup {
				continue
			}
			pickB(i+1, append(chosen, t))
		}
	}
	pickB(0, nil)
	return out
}

func inCells(cs []Cell, c Cell) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

func residuesDistinct(bT []Cell, more ...Cell) bool {
	seen := map[int]bool{}
	for _, c := range append(append([]Cell(nil), bT...), more...) {
		if seen[c.residue()] {
			return false
		}
		seen[c.residue()] = true
	}
	return true
}

// checkBlock applies the structural constraints of SearchLevel1 to a complete block.
func checkBlock(b Block, recv map[Cell]Lin, requireInside, strictShare bool) (Candidate, bool) {
	cells := b.Cells()
	in := map[Cell]bool{}
	res := map[int]bool{}
	for _, c := range cells {
		in[c] = true
		res[c.residue()] = true
	}
	if len(in) != 16 || len(res) != 16 {
		return Candidate{}, false
	}
	recv[Cell{0, 0}] = Lin{0, 0}
	// Condition 3 of Definition 1, plane and 4x4 torus.
	type key struct {
		from Cell
		step int
		a    arc
	}
	fcP, fcT := map[key]bool{}, map[key]bool{}
	for _, s := range b.Sends {
		pp, _ := planePath(s.From, s.To)
		tp := torusPath(s.From, s.To)
		kp, kt := key{s.From, s.Step, pp[0]}, key{s.From, s.Step, tp[0]}
		if fcP[kp] || fcT[kt] {
			return Candidate{}, false
		}
		fcP[kp], fcT[kt] = true, true
	}
	// Stepwise contention freedom, plane and torus.
	for step := 1; step <= 2; step++ {
		seenP, seenT := map[arc]bool{}, map[arc]bool{}
		for _, s := range b.Sends {
			if s.Step != step {
				continue
			}
			pp, _ := planePath(s.From, s.To)
			for _, a := range pp {
				if seenP[a] {
					return Candidate{}, false
				}
				seenP[a] = true
			}
			for _, a := range torusPath(s.From, s.To) {
				if seenT[a] {
					return Candidate{}, false
				}
				seenT[a] = true
			}
		}
	}
	// Paths inside the block.
	if requireInside {
		for _, s := range b.Sends {
			_, nodes := planePath(s.From, s.To)
			for _, n := range nodes {
				if !in[n] {
					return Candidate{}, false
				}
			}
		}
	}
	// Channel sharing across the block (plane): every sharing pair must satisfy a
	// condition of Theorem 1.
	var shared [][2]int
	for i := range b.Sends {
		pi, _ := planePath(b.Sends[i].From, b.Sends[i].To)
		for j := i + 1; j < len(b.Sends); j++ {
			pj, _ := planePath(b.Sends[j].From, b.Sends[j].To)
			if arcsMeet(pi, pj) {
				shared = append(shared, [2]int{i, j})
				if !theorem1(b, i, j) {
					return Candidate{}, false
				}
			}
		}
	}
	if strictShare {
		if len(shared) != 1 || b.Sends[shared[0][0]].To != (Cell{2, 1}) || b.Sends[shared[0][1]].To != (Cell{1, 0}) {
			return Candidate{}, false
		}
	}
	// Completion times per sender and the §6.1 bound.
	done := map[Cell]Lin{}
	cnt := map[Cell]int{}
	for _, s := range b.Sends {
		cnt[s.From]++
		r := recv[s.From]
		h := abs(s.To.X-s.From.X) + abs(s.To.Y-s.From.Y)
		t := Lin{r.Ts + cnt[s.From], r.Tc + h}
		if !t.le(Lin{5, 4}) {
			return Candidate{}, false
		}
		done[s.From] = t
	}
	if done[Cell{2, 1}] != (Lin{5, 4}) {
		return Candidate{}, false
	}
	return Candidate{Block: b, Shared: shared, Done: done}, true
}

func arcsMeet(a, b []arc) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
}

// theorem1 reports whether sends i < j of b (i no later in step than j) satisfy condition
// 1, 3 or 4 of 004 Theorem 1 (condition 2, arc-disjointness, is what failed).
func theorem1(b Block, i, j int) bool {
	u, x := b.Sends[i], b.Sends[j]
	if x.Step < u.Step {
		u, x = x, u
	}
	reach := func(root Cell, v Cell) bool { // v in R_root
		cur := v
		for cur != root {
			found := false
			for _, s := range b.Sends {
				if s.To == cur {
					cur, found = s.From, true
					break
				}
			}
			if !found {
				return false
			}
		}
		return true
	}
	fu, _ := planePath(u.From, u.To)
	fx, _ := planePath(x.From, x.To)
	if reach(u.To, x.From) { // condition 1
		return true
	}
	if u.From == x.From && fu[0] == fx[0] { // condition 3
		return true
	}
	for _, w := range b.Sends { // condition 4
		if w.From == u.From && w.Step > u.Step {
			fw, _ := planePath(w.From, w.To)
			if fw[0] == fu[0] && reach(w.To, x.From) {
				return true
			}
		}
	}
	return false
}
