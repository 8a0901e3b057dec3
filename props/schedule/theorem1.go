package schedule

import (
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// theorem1 classifies pairs of unicasts by the sufficient conditions of 004 Theorem 1.
// Reference: 004 Theorem 1 and Definition 2. For a pair (u, v, p(u,v), t) and
// (x, y, p(x,y), τ) with t <= τ (both orientations are tried when t = τ):
//
//  1. x ∈ R_v (Definition 2: v, and every node that receives from a node of R_v, in any
//     step);
//  2. p(u,v) and p(x,y) are arc-disjoint (never true for the pairs we classify, which
//     share a channel);
//  3. u = x and both paths leave by the same first channel;
//  4. x ∈ R_w for some unicast (u, w, p(u,w), t+l), l >= 1, whose first channel is the
//     first channel of p(u,v).
//
// Reachable sets are taken within the unicasts' group.
type theorem1 struct {
	s    *model.Schedule
	out  map[[2]int][]int // (node, group) -> unicasts it sends
	memo map[[3]int]bool  // (v, group, x) -> x ∈ R_v
}

func newTheorem1(s *model.Schedule) *theorem1 {
	t := &theorem1{s: s, out: map[[2]int][]int{}, memo: map[[3]int]bool{}}
	for i, u := range s.Unicasts {
		k := [2]int{int(u.From), s.GroupOf(i)}
		t.out[k] = append(t.out[k], i)
	}
	return t
}

// reach reports x ∈ R_v within group g (search from v along sends, any step).
func (t *theorem1) reach(v, x topology.NodeID, g int) bool {
	if v == x {
		return true
	}
	key := [3]int{int(v), g, int(x)}
	if r, ok := t.memo[key]; ok {
		return r
	}
	seen := map[topology.NodeID]bool{v: true}
	stack := []topology.NodeID{v}
	found := false
	for len(stack) > 0 && !found {
		w := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, i := range t.out[[2]int{int(w), g}] {
			y := t.s.Unicasts[i].To
			if y == x {
				found = true
				break
			}
			if !seen[y] {
				seen[y] = true
				stack = append(stack, y)
			}
		}
	}
	t.memo[key] = found
	return found
}

// condition returns the first of conditions 1, 3, 4 that clears the pair (a, b), or 0.
func (t *theorem1) condition(a, b int) int {
	best := 0
	try := func(i, j int) {
		c := t.ordered(i, j)
		if c != 0 && (best == 0 || c < best) {
			best = c
		}
	}
	ua, ub := t.s.Unicasts[a], t.s.Unicasts[b]
	if ua.Step <= ub.Step {
		try(a, b)
	}
	if ub.Step <= ua.Step {
		try(b, a)
	}
	return best
}

// ordered tests the conditions for (u,v,.,t) = unicast i and (x,y,.,τ) = unicast j, t <= τ.
func (t *theorem1) ordered(i, j int) int {
	s := t.s
	ui, uj := s.Unicasts[i], s.Unicasts[j]
	gi, gj := s.GroupOf(i), s.GroupOf(j)
	if gi != gj {
		return 0
	}
	if t.reach(ui.To, uj.From, gi) {
		return 1
	}
	if ui.From == uj.From && ui.Path[0] == uj.Path[0] {
		return 3
	}
	for _, k := range t.out[[2]int{int(ui.From), gi}] {
		w := s.Unicasts[k]
		if w.Step > ui.Step && w.Path[0] == ui.Path[0] && t.reach(w.To, uj.From, gi) {
			return 4
		}
	}
	return 0
}
