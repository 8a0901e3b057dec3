package schedule

import (
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// NodeContention checks node contention freedom of a one-port schedule (timed semantics),
// exactly for all parameters: no node injects two messages at once and no node receives
// two at once. Reference: 001 §4.2 and §5.1 (node contention of multi-node multicast on a
// one-port torus). A unicast that starts at a over h channels occupies its sender's port
// during [a, a + L*tc) and its receiver's port during [a + h*tc, a + h*tc + L*tc). Within
// one group the one-port rule of the timed semantics already serialises a node's sends,
// so contention comes from concurrent groups (Schedule.Group) or repeated deliveries.
// The witness names the two unicasts, the node, the parameters and both intervals.
func NodeContention(s *model.Schedule) *props.Report {
	r := newReport(s, checker.PropNodeContention, props.SemTimed)
	if err := s.Check(); err != nil {
		return fail(r, err)
	}
	if s.Ports != model.OnePort {
		return fail(r, fmt.Errorf("node contention is defined for one-port schedules; this one is %s", s.Ports))
	}
	starts, err := symbolicStarts(s)
	if err != nil {
		return fail(r, err)
	}
	n := s.Topology.Nodes()
	sends := make([][]int, n)
	recvs := make([][]int, n)
	for i, u := range s.Unicasts {
		sends[u.From] = append(sends[u.From], i)
		recvs[u.To] = append(recvs[u.To], i)
	}
	pairs := 0
	for v := range n {
		for _, side := range []string{"send", "receive"} {
			list := sends[v]
			if side == "receive" {
				list = recvs[v]
			}
			for x := 0; x < len(list); x++ {
				for y := x + 1; y < len(list); y++ {
					a, b := list[x], list[y]
					var oa, ob int64
					if side == "receive" {
						oa, ob = int64(len(s.Unicasts[a].Path)), int64(len(s.Unicasts[b].Path))
					}
					pairs++
					ov, pt, err := canOverlap(starts[a], oa, starts[b], ob, true)
					if err != nil {
						return fail(r, err)
					}
					if !ov {
						continue
					}
					t, err := Simulate(s, *pt)
					if err != nil {
						return fail(r, err)
					}
					ha := props.Interval{From: t.Start[a] + oa*pt.Tc, To: t.Start[a] + oa*pt.Tc + pt.L*pt.Tc}
					hb := props.Interval{From: t.Start[b] + ob*pt.Tc, To: t.Start[b] + ob*pt.Tc + pt.L*pt.Tc}
					at := max(ha.From, hb.From)
					r.Stats.States = int64(pairs)
					return finish(r, &props.ScheduleWitness{Kind: side, A: props.Ref(s, a), B: props.Ref(s, b), ChannelID: -1,
						Node: s.Topology.NodeName(topology.NodeID(v)), Params: pt, HoldA: &ha, HoldB: &hb, Time: &at}, "")
				}
			}
		}
	}
	r.Stats.States = int64(pairs)
	return finish(r, nil, fmt.Sprintf("decided exactly for all parameters over %d node-sharing pairs", pairs))
}
