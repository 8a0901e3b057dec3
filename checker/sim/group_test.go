package sim

import (
	"testing"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestGroupsWaitForTheirOwnMessage runs two multicasts (001 §2.3 multi-node multicast)
// on an 8x2 mesh (row 0): group 0 sends (0) -> (1), group 1 sends (7) -> (1) and (1) relays group
// 1 to (2). Node (1) holds group 0's message long before group 1's, and must not relay
// group 1 until that message has arrived.
func TestGroupsWaitForTheirOwnMessage(t *testing.T) {
	g, err := topology.Parse("mesh:8x2")
	if err != nil {
		t.Fatal(err)
	}
	dor := topology.NewDOR(g)
	n := func(x int) topology.NodeID { return g.Node(x, 0) }
	uni := func(a, b, step int) model.Unicast {
		return model.Unicast{From: n(a), To: n(b), Path: dor.Path(n(a), n(b)), Step: step, Order: 1}
	}
	s := &model.Schedule{Topology: g, Ports: model.OnePort,
		Sources:  []topology.NodeID{n(0), n(7)},
		Unicasts: []model.Unicast{uni(0, 1, 1), uni(7, 1, 1), uni(1, 2, 2)},
		Group:    []int{0, 1, 1}}
	const ts, L = 100, 4
	res, err := ExecuteSchedule(g, s, ScheduleOptions{Ts: ts, L: L})
	if err != nil {
		t.Fatal(err)
	}
	if want := int64(ts + 1 + L); res.Deliver[0] != want {
		t.Errorf("group 0 delivered at %d; want %d", res.Deliver[0], want)
	}
	if want := int64(ts + 6 + L); res.Deliver[1] != want {
		t.Errorf("group 1 reached (1) at %d; want %d", res.Deliver[1], want)
	}
	// The relay starts ts after group 1's message arrived, not after group 0's.
	if want := res.Deliver[1] + ts + 1 + L; res.Deliver[2] != want || res.Completion != want {
		t.Errorf("relay of group 1 delivered at %d, completion %d; want %d", res.Deliver[2], res.Completion, want)
	}
	// Without groups the schedule is one message: (1) relays as soon as it has any copy.
	s.Group = nil
	one, err := ExecuteSchedule(g, s, ScheduleOptions{Ts: ts, L: L})
	if err != nil {
		t.Fatal(err)
	}
	if want := one.Deliver[0] + ts + 1 + L; one.Deliver[2] != want {
		t.Errorf("single message: relay delivered at %d; want %d", one.Deliver[2], want)
	}
}

// TestCPUPerGroup: two groups leaving the same node on a one-processor node take ts
// each in turn; with a processor per group their start-ups overlap.
func TestCPUPerGroup(t *testing.T) {
	g, err := topology.Parse("mesh:8x2")
	if err != nil {
		t.Fatal(err)
	}
	dor := topology.NewDOR(g)
	a, b, c := g.Node(0, 0), g.Node(1, 0), g.Node(0, 1)
	s := &model.Schedule{Topology: g, Ports: model.AllPort, Sources: []topology.NodeID{a, a},
		Unicasts: []model.Unicast{{From: a, To: b, Path: dor.Path(a, b), Step: 1, Order: 1}, {From: a, To: c, Path: dor.Path(a, c), Step: 1, Order: 1}},
		Group:    []int{0, 1}}
	const ts, L = 100, 4
	for _, per := range []bool{false, true} {
		res, err := ExecuteSchedule(g, s, ScheduleOptions{Ts: ts, L: L, CPUPerGroup: per})
		if err != nil {
			t.Fatal(err)
		}
		want := int64(2*ts + 1 + L)
		if per {
			want = ts + 1 + L
		}
		if res.Completion != want {
			t.Errorf("CPUPerGroup %v: completion %d; want %d", per, res.Completion, want)
		}
	}
}
