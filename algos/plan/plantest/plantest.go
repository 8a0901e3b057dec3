// Package plantest holds small, deliberately naive checks of unicast schedules for the
// tests of package algos and its subpackages: every destination reached exactly once,
// Definition 1 validity, per-step arc-disjointness, and a timed run at one parameter
// point. They are the naive twins of the props package's checks, not a replacement.
//
// Reference: 004 Definition 1 (validity, stepwise contention freedom), 004 §6.1 and
// DESIGN.md "timed" semantics (the timed run).
package plantest

import (
	"fmt"
	"sort"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// ExactlyOnce reports an error unless every destination of s receives exactly one
// unicast and no node outside the destinations receives one.
func ExactlyOnce(s *model.Schedule) error {
	want := map[topology.NodeID]bool{}
	for _, d := range s.Destinations {
		want[d] = true
	}
	got := map[topology.NodeID]int{}
	for _, u := range s.Unicasts {
		got[u.To]++
		if !want[u.To] {
			return fmt.Errorf("node %d receives but is not a destination", u.To)
		}
		if got[u.To] > 1 {
			return fmt.Errorf("node %d receives %d times", u.To, got[u.To])
		}
	}
	for _, d := range s.Destinations {
		if got[d] != 1 {
			return fmt.Errorf("destination %d receives %d times", d, got[d])
		}
	}
	return nil
}

// Valid checks Definition 1's conditions 2 and 3: a sender other than a source has
// received in an earlier step, and one node's sends of one step leave by distinct first
// channels; and that every sender's Order values are 1..n in step order.
func Valid(s *model.Schedule) error {
	recv := map[topology.NodeID]int{}
	for _, src := range s.Sources {
		recv[src] = 0
	}
	for _, u := range s.Unicasts {
		if _, ok := recv[u.To]; !ok {
			recv[u.To] = u.Step
		}
	}
	type key struct {
		v    topology.NodeID
		step int
		c    topology.ChannelID
	}
	first := map[key]bool{}
	orders := map[topology.NodeID][]model.Unicast{}
	for _, u := range s.Unicasts {
		r, ok := recv[u.From]
		if !ok || r >= u.Step {
			return fmt.Errorf("node %d sends in step %d but has not received before it", u.From, u.Step)
		}
		if len(u.Path) == 0 {
			return fmt.Errorf("unicast %d -> %d has an empty path", u.From, u.To)
		}
		k := key{u.From, u.Step, u.Path[0]}
		if first[k] && s.Ports == model.AllPort {
			return fmt.Errorf("node %d sends twice through channel %d in step %d", u.From, u.Path[0], u.Step)
		}
		first[k] = true
		orders[u.From] = append(orders[u.From], u)
	}
	for v, us := range orders {
		sort.Slice(us, func(i, j int) bool { return us[i].Order < us[j].Order })
		for i, u := range us {
			if u.Order != i+1 || (i > 0 && us[i-1].Step > u.Step) {
				return fmt.Errorf("node %d: send orders are not 1..n in step order", v)
			}
		}
	}
	return nil
}

// StepwiseArcDisjoint reports the first pair of unicasts of one step that share a
// channel, or nil.
func StepwiseArcDisjoint(s *model.Schedule) error {
	owner := map[[2]int]int{}
	for i, u := range s.Unicasts {
		for _, c := range u.Path {
			k := [2]int{u.Step, int(c)}
			if j, ok := owner[k]; ok {
				return fmt.Errorf("step %d: unicasts %d and %d share channel %d", u.Step, j, i, c)
			}
			owner[k] = i
		}
	}
	return nil
}

// Params are one point of the timed model's parameter space (integers for exactness).
type Params struct{ Ts, Tc, Tr, L int64 }

// Contention is a pair of unicasts holding one channel at overlapping times.
type Contention struct {
	A, B    int // unicast indices
	Channel topology.ChannelID
	At      int64
}

// Timed runs s once in the timed semantics of DESIGN.md at p, assuming no contention
// delays (the paper's contention-free times), and returns the completion time (the last
// delivery) and the first overlapping pair found, if any (nil when contention-free).
// Unicast i is delivered at a + h·tc + L·tc + tr where a = max(R + Order·ts, tail of the
// same node's previous unicast through the same first channel). One-port schedules
// serialise all of a node's sends through its one internal channel.
func Timed(s *model.Schedule, p Params) (int64, *Contention) {
	n := len(s.Unicasts)
	recv := map[topology.NodeID]int64{}
	for _, src := range s.Sources {
		recv[src] = 0
	}
	bySender := map[topology.NodeID][]int{}
	for i, u := range s.Unicasts {
		bySender[u.From] = append(bySender[u.From], i)
	}
	for _, is := range bySender {
		sort.Slice(is, func(a, b int) bool { return s.Unicasts[is[a]].Order < s.Unicasts[is[b]].Order })
	}
	start := make([]int64, n)
	done := make([]bool, n)
	// Senders become ready once they received; process in rounds (the tree is finite).
	var end int64
	for progress := true; progress; {
		progress = false
		senders := make([]topology.NodeID, 0, len(bySender))
		for v := range bySender {
			senders = append(senders, v)
		}
		sort.Slice(senders, func(i, j int) bool { return senders[i] < senders[j] })
		for _, v := range senders {
			r, ok := recv[v]
			if !ok || done[bySender[v][0]] {
				continue
			}
			lastFirst := map[topology.ChannelID]int64{}
			var lastAny int64 = -1
			for _, i := range bySender[v] {
				u := s.Unicasts[i]
				a := r + int64(u.Order)*p.Ts
				if t, ok := lastFirst[u.Path[0]]; ok && t+p.L*p.Tc > a {
					a = t + p.L*p.Tc
				}
				if s.Ports == model.OnePort && lastAny >= 0 && lastAny+p.L*p.Tc > a {
					a = lastAny + p.L*p.Tc
				}
				lastFirst[u.Path[0]] = a
				lastAny = a
				start[i] = a
				done[i] = true
				t := a + int64(len(u.Path))*p.Tc + p.L*p.Tc + p.Tr
				if old, ok := recv[u.To]; !ok || t < old {
					recv[u.To] = t
				}
				if t > end {
					end = t
				}
				progress = true
			}
		}
	}
	type hold struct {
		from, to int64
		u        int
	}
	holds := map[topology.ChannelID][]hold{}
	for i, u := range s.Unicasts {
		for h, c := range u.Path {
			a := start[i] + int64(h)*p.Tc
			holds[c] = append(holds[c], hold{a, a + p.L*p.Tc, i})
		}
	}
	var best *Contention
	for c, hs := range holds {
		for i := range hs {
			for j := i + 1; j < len(hs); j++ {
				if hs[i].from < hs[j].to && hs[j].from < hs[i].to {
					at := max(hs[i].from, hs[j].from)
					if best == nil || at < best.At || (at == best.At && c < best.Channel) {
						best = &Contention{A: hs[i].u, B: hs[j].u, Channel: c, At: at}
					}
				}
			}
		}
	}
	return end, best
}

// Grid returns a small grid of parameter points including the extremes the paper's
// claims quantify over (ts, tr = 0 or large; tc = 1; L = 1 or large).
func Grid() []Params {
	var out []Params
	for _, ts := range []int64{0, 1, 7, 100, 10000} {
		for _, tr := range []int64{0, 3, 10000} {
			for _, L := range []int64{1, 2, 5, 64} {
				out = append(out, Params{Ts: ts, Tc: 1, Tr: tr, L: L})
			}
		}
	}
	return out
}
