package schedule

import (
	"context"
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// The timed semantics (DESIGN.md "Semantics"; 004 §6.1, 001 §2.1). A node v that holds
// group g's message from time R (0 for a source, else the delivery time of the unicast
// that brought it: the receiving unicast of smallest step) hands its unicasts of group g
// to the router in its send order (Unicast.Order, then step, then index; j = 1, 2, ...):
// the j-th starts at R + j*ts, except that
//
//   - all-port: if an earlier unicast of the same node (and group) left through the same
//     first channel, the later one waits until that one's tail has left it (004 Theorem 1
//     condition 3: one internal output channel per external one);
//   - one-port: the node has one internal channel for all its sends, so the later one
//     waits until the tail of every earlier one has left the node (the same rule with
//     "same first channel" read as "same port"; 001 §2's one-port model).
//
// A unicast over channels c_1..c_h that starts at a holds c_i during
// [a + (i-1)*tc, a + (i-1)*tc + L*tc) and delivers at a + h*tc + L*tc + tr. Contention
// is not modelled (times are exact up to the first contention, which is the witness).

// Timing is the outcome of one timed simulation at concrete parameters.
type Timing struct {
	Params props.Params `json:"parameters"`
	// Start and Deliver are the start and delivery time of every unicast.
	Start   []int64 `json:"start"`
	Deliver []int64 `json:"deliver"`
	// Completion is the last delivery time (0 without unicasts).
	Completion int64 `json:"completion"`
	// First is the first channel contention (smallest time, then channel id), nil if
	// none.
	First *props.ScheduleWitness `json:"first,omitempty"`
}

// Simulate runs the timed semantics at p and finds the first channel contention. The
// schedule must be causal (Definition 1 condition 2); otherwise it returns an error.
// Times are exact integers.
func Simulate(s *model.Schedule, p props.Params) (*Timing, error) {
	pl, err := newPlan(s)
	if err != nil {
		return nil, err
	}
	return pl.simulate(p)
}

// plan is the parameter-independent part of a timed simulation: for every unicast, the
// unicast that brought its sender the message (-1 for a source), its rank in the send
// order, the earlier unicasts it waits for, and an evaluation order.
type plan struct {
	s     *model.Schedule
	recv  []int
	rank  []int
	waits [][]int
	topo  []int
}

func newPlan(s *model.Schedule) (*plan, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	rec := receivers(s)
	if w := causal(s, rec, nil); w != nil {
		return nil, fmt.Errorf("schedule is not causal: %s", w.String())
	}
	rank, lists := sendOrder(s)
	n := len(s.Unicasts)
	pl := &plan{s: s, recv: make([]int, n), rank: rank, waits: make([][]int, n)}
	for i, u := range s.Unicasts {
		g := s.GroupOf(i)
		pl.recv[i] = -1
		if !isSource(s, u.From, g) {
			pl.recv[i] = rec[[2]int{int(u.From), g}]
		}
		for _, k := range lists[[2]int{int(u.From), g}][:rank[i]-1] {
			if s.Ports == model.OnePort || s.Unicasts[k].Path[0] == u.Path[0] {
				pl.waits[i] = append(pl.waits[i], k)
			}
		}
	}
	state := make([]uint8, n) // 0 new, 1 on stack, 2 done
	var visit func(i int) error
	visit = func(i int) error {
		switch state[i] {
		case 2:
			return nil
		case 1:
			return fmt.Errorf("unicast %d waits on itself (send orders and receptions form a cycle)", i)
		}
		state[i] = 1
		if j := pl.recv[i]; j >= 0 {
			if err := visit(j); err != nil {
				return err
			}
		}
		for _, k := range pl.waits[i] {
			if err := visit(k); err != nil {
				return err
			}
		}
		state[i] = 2
		pl.topo = append(pl.topo, i)
		return nil
	}
	for i := range n {
		if err := visit(i); err != nil {
			return nil, err
		}
	}
	return pl, nil
}

func (pl *plan) simulate(p props.Params) (*Timing, error) {
	if p.Ts < 0 || p.Tr < 0 || p.Tc <= 0 || p.L < 1 {
		return nil, fmt.Errorf("parameters %v: need ts, tr >= 0, tc > 0, L >= 1", p)
	}
	s := pl.s
	n := len(s.Unicasts)
	t := &Timing{Params: p, Start: make([]int64, n), Deliver: make([]int64, n)}
	for _, i := range pl.topo {
		var R int64
		if j := pl.recv[i]; j >= 0 {
			R = t.Deliver[j]
		}
		a := R + int64(pl.rank[i])*p.Ts
		for _, k := range pl.waits[i] {
			a = max(a, t.Start[k]+p.L*p.Tc)
		}
		t.Start[i] = a
		t.Deliver[i] = a + int64(len(s.Unicasts[i].Path))*p.Tc + p.L*p.Tc + p.Tr
		t.Completion = max(t.Completion, t.Deliver[i])
	}
	t.First = firstContention(s, p, t.Start)
	return t, nil
}

// firstContention finds the channel contention with the earliest start among the holding
// intervals implied by start: sort all holds by (channel, start) and sweep each channel.
func firstContention(s *model.Schedule, p props.Params, start []int64) *props.ScheduleWitness {
	type hold struct {
		lane     int // channel and virtual-channel class (model.Unicast.Lane)
		c        topology.ChannelID
		u        int
		from, to int64
	}
	var hs []hold
	lanes := s.Lanes()
	for i := range s.Unicasts {
		u := &s.Unicasts[i]
		for k, c := range u.Path {
			f := start[i] + int64(k)*p.Tc
			hs = append(hs, hold{u.Lane(k, lanes), c, i, f, f + p.L*p.Tc})
		}
	}
	slices.SortFunc(hs, func(a, b hold) int {
		if a.lane != b.lane {
			return a.lane - b.lane
		}
		if a.from != b.from {
			return cmp64(a.from, b.from)
		}
		return a.u - b.u
	})
	var best *props.ScheduleWitness
	for lo := 0; lo < len(hs); {
		hi := lo + 1
		for hi < len(hs) && hs[hi].lane == hs[lo].lane {
			hi++
		}
		top := lo // the earlier interval with the latest end
		for k := lo + 1; k < hi; k++ {
			if hs[k].from < hs[top].to {
				if best == nil || hs[k].from < *best.Time {
					a, b := hs[top], hs[k]
					t := b.from
					best = &props.ScheduleWitness{Kind: "channel", A: props.Ref(s, a.u), B: props.Ref(s, b.u),
						Channel: s.Topology.ChannelName(a.c), ChannelID: int(a.c),
						Params: &p, HoldA: &props.Interval{From: a.from, To: a.to}, HoldB: &props.Interval{From: b.from, To: b.to}, Time: &t}
				}
				break
			}
			if hs[k].to > hs[top].to {
				top = k
			}
		}
		lo = hi
	}
	return best
}

func cmp64(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// DefaultGrid returns the parameter grid of the cross-check: ts, tr in {0, 1, 3, 200},
// L in {1, 2, 5, 32}, tc in {1, 7} (tc = 7 stands for ts, tr multiples of 1/7 at tc = 1),
// so it includes the extremes ts = tr = 0 and L = 1 and latencies far above L*tc.
func DefaultGrid() []props.Params {
	var out []props.Params
	for _, tc := range []int64{1, 7} {
		for _, ts := range []int64{0, 1, 3, 200} {
			for _, tr := range []int64{0, 1, 3, 200} {
				for _, l := range []int64{1, 2, 5, 32} {
					out = append(out, props.Params{Ts: ts, Tr: tr, Tc: tc, L: l})
				}
			}
		}
	}
	return out
}

// GridCheck simulates s at every point of grid (in order) and returns the first
// contention found, or nil. It is the cross-check of the exact decision: it can miss a
// contention that needs parameters off the grid, never report a false one.
func GridCheck(s *model.Schedule, grid []props.Params) (*props.ScheduleWitness, error) {
	return gridCheck(nil, s, grid)
}

// gridCheck is GridCheck that stops between points when ctx (which may be nil) ends,
// with an errStopped.
func gridCheck(ctx context.Context, s *model.Schedule, grid []props.Params) (*props.ScheduleWitness, error) {
	pl, err := newPlan(s)
	if err != nil {
		return nil, err
	}
	for _, p := range grid {
		if err := stopped(ctx); err != nil {
			return nil, err
		}
		t, err := pl.simulate(p)
		if err != nil {
			return nil, err
		}
		if t.First != nil {
			return t.First, nil
		}
	}
	return nil, nil
}
