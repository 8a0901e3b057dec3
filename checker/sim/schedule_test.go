package sim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// sbtSchedule builds the spanning-binomial-tree broadcast of 003 §2.2 from src on an
// n-cube as a unicast schedule: the source sends along dimensions n-1, ..., 0 (largest
// subtree first); a node that received along dimension k forwards along k-1, ..., 0.
func sbtSchedule(g *topology.Network, src topology.NodeID) *model.Schedule {
	n := g.Dims()
	s := &model.Schedule{Sources: []topology.NodeID{src}, Ports: model.AllPort}
	var walk func(v topology.NodeID, below, step int)
	walk = func(v topology.NodeID, below, step int) {
		order := 0
		for k := below - 1; k >= 0; k-- {
			c, w := g.Neighbor(v, k, topology.Direction(g.Coord(v, k)))
			order++
			s.Unicasts = append(s.Unicasts, model.Unicast{From: v, To: w, Path: []topology.ChannelID{c}, Step: step, Order: order})
			s.Destinations = append(s.Destinations, w)
		}
		for k := below - 1; k >= 0; k-- {
			_, w := g.Neighbor(v, k, topology.Direction(g.Coord(v, k)))
			walk(w, k, step+1)
		}
	}
	walk(src, n, 1)
	return s
}

// Reference: 003 §2.2 with the timed model of 004 §6.1: the SBT broadcast on an all-port
// n-cube completes at n(ts + tc + L tc + tr) at zero load, to the cycle.
func TestSBTZeroLoadEqualsFormula(t *testing.T) {
	for n := 2; n <= 6; n++ {
		g, _ := topology.NewHypercube(n)
		s := sbtSchedule(g, 0)
		if len(s.Unicasts) != g.Nodes()-1 {
			t.Fatalf("n=%d: %d unicasts", n, len(s.Unicasts))
		}
		for _, ts := range []int{0, 1, 7, 200} {
			for _, tr := range []int{0, 3, 200} {
				for _, L := range []int{1, 8, 64} {
					res, err := ExecuteSchedule(g, s, ScheduleOptions{Ts: ts, Tr: tr, L: L})
					if err != nil {
						t.Fatal(err)
					}
					want := int64(n * (ts + 1 + L + tr))
					if res.Completion != want || res.Contention != nil {
						t.Errorf("n=%d ts=%d tr=%d L=%d: completion %d (contention %+v); formula %d", n, ts, tr, L, res.Completion, res.Contention, want)
					}
				}
			}
		}
	}
}

// Separate addressing from one source on a one-port node: the j-th unicast cannot start
// before the (j-1)-th has left the single injection port, so with L > ts the port, not
// the processor, paces the sends.
func TestOnePortSerialisesInjection(t *testing.T) {
	g, _ := topology.NewMesh(4, 4)
	r := topology.NewDOR(g)
	s := &model.Schedule{Sources: []topology.NodeID{5}, Ports: model.OnePort}
	for i, d := range []topology.NodeID{4, 6, 1, 9} {
		s.Unicasts = append(s.Unicasts, model.Unicast{From: 5, To: d, Path: r.Path(5, d), Step: 1, Order: i + 1})
	}
	res, err := ExecuteSchedule(g, s, ScheduleOptions{Ts: 2, L: 10})
	if err != nil {
		t.Fatal(err)
	}
	// Injection starts at 2, 12, 22, 32; the last delivers at 32 + 1 + 10.
	if res.Completion != 43 {
		t.Errorf("completion %d; want 43", res.Completion)
	}
	s.Ports = model.AllPort
	res, _ = ExecuteSchedule(g, s, ScheduleOptions{Ts: 2, L: 10})
	if res.Completion != 8+1+10 {
		t.Errorf("all-port completion %d; want %d", res.Completion, 8+1+10)
	}
}

// Collectives given as schedules run under traffic: every unicast is delivered, and an
// isolated SBT broadcast takes its zero-load time n(ts + 1 + L + tr).
func TestScheduleDrivenCollectivesUnderTraffic(t *testing.T) {
	g, _ := topology.NewHypercube(4)
	cfg := Config{Grid: g, Routing: topology.DOR{Grid: g, Order: topology.DescendingOrder(4)}, VCs: 2, Length: 8, Ts: 2, Tr: 1, Seed: 9,
		Cycles: 200000, StopSources: true,
		Traffic:           Traffic{Rate: 0.00005, Broadcast: 1},
		BroadcastSchedule: func(src topology.NodeID) (*model.Schedule, error) { return sbtSchedule(g, src), nil },
	}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := float64(4 * (2 + 1 + 8 + 1))
	if res.Broadcast.N < 50 || res.Broadcast.Mean < want || res.Broadcast.Mean > want*1.02 || res.Completed != res.Generated {
		t.Errorf("broadcasts %+v; want about %v each", res.Broadcast, want)
	}
	m := mustGrid(t, "torus:4x4")
	cfg = Config{Grid: m, VCs: 2, Length: 4, Ts: 1, Seed: 3, Cycles: 3000, StopSources: true,
		Traffic: Traffic{Rate: 0.01, Multicast: 0.5, MinDests: 2, MaxDests: 6},
		MulticastSchedule: func(src topology.NodeID, dests []topology.NodeID) (*model.Schedule, error) {
			// A chain: src informs dests[0], which informs dests[1], ...
			r := topology.NewDOR(m)
			s := &model.Schedule{Sources: []topology.NodeID{src}, Destinations: dests}
			prev := src
			for i, d := range dests {
				s.Unicasts = append(s.Unicasts, model.Unicast{From: prev, To: d, Path: r.Path(prev, d), Step: i + 1, Order: 1})
				prev = d
			}
			return s, nil
		},
	}
	res, err = Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Completed != res.Generated || res.Undelivered != 0 || res.FlitHops != res.RouteFlitHops || res.Multicast.N == 0 {
		t.Errorf("chain multicasts did not all complete: %+v", *res)
	}
}

func TestFailingBuilderIsAnError(t *testing.T) {
	g, _ := topology.NewMesh(4, 4)
	_, err := Run(Config{Grid: g, Length: 4, Seed: 1, Cycles: 2000, Traffic: Traffic{Rate: 0.05, Broadcast: 0.5},
		BroadcastSchedule: func(src topology.NodeID) (*model.Schedule, error) { return nil, fmt.Errorf("no broadcast here") }})
	if err == nil || !strings.Contains(err.Error(), "no broadcast here") {
		t.Fatalf("error %v", err)
	}
}

// On a ring with one VC, eight worms each going halfway round (DOR takes the tie the
// Plus way) deadlock; with dateline classes they finish.
func TestExecutorRingDeadlockAndDateline(t *testing.T) {
	g, _ := topology.NewTorus(8)
	r := topology.NewDOR(g)
	s := &model.Schedule{Ports: model.AllPort}
	for v := 0; v < 8; v++ {
		from, to := topology.NodeID(v), topology.NodeID((v+4)%8)
		s.Sources = append(s.Sources, from)
		s.Unicasts = append(s.Unicasts, model.Unicast{From: from, To: to, Path: r.Path(from, to), Step: 1, Order: 1})
	}
	if _, err := ExecuteSchedule(g, s, ScheduleOptions{L: 8, Buffer: 2}); err == nil || !strings.Contains(err.Error(), "deadlock") {
		t.Fatalf("want a deadlock error, got %v", err)
	}
	res, err := ExecuteSchedule(g, s, ScheduleOptions{L: 8, Buffer: 2, VCs: 2, Dateline: true})
	if err != nil {
		t.Fatalf("dateline classes: %v", err)
	}
	if res.Completion <= 4+8 {
		t.Errorf("completion %d: the worms must have shared channels", res.Completion)
	}
}

func TestTraceSeesEveryFlitMove(t *testing.T) {
	g, _ := topology.NewMesh(4, 4)
	s := unicastSchedule(g, [][2]topology.NodeID{{0, 15}})
	var n, delivered int
	var last int64
	res, err := ExecuteSchedule(g, s, ScheduleOptions{L: 5, Trace: func(ev TraceEvent) {
		n++
		if ev.Channel == topology.None {
			delivered++
		}
		if ev.Cycle < last || ev.Msg != 0 {
			t.Errorf("event %+v out of order or wrong unicast", ev)
		}
		last = ev.Cycle
	}})
	if err != nil {
		t.Fatal(err)
	}
	if n != 6*5+5 || delivered != 5 || int64(n-delivered) != res.FlitHops {
		t.Errorf("%d moves, %d deliveries; want %d and 5", n, delivered, 6*5+5)
	}
}

// Unicasts in different virtual-channel classes (model.Unicast.VC, as U-torus uses) do
// not wait for each other: they share the channel flit by flit.
func TestScheduleVCClassesShareInsteadOfWaiting(t *testing.T) {
	g, _ := topology.NewMesh(4, 2)
	s := unicastSchedule(g, [][2]topology.NodeID{{0, 3}, {1, 3}})
	s.Unicasts[0].VC = []uint8{0, 0, 0}
	s.Unicasts[1].VC = []uint8{1, 1}
	res, err := ExecuteSchedule(g, s, ScheduleOptions{L: 20})
	if err != nil {
		t.Fatal(err)
	}
	if res.Contention != nil {
		t.Errorf("different classes contended: %+v", res.Contention)
	}
	s.Unicasts[1].VC = []uint8{0, 0}
	res, _ = ExecuteSchedule(g, s, ScheduleOptions{L: 20})
	if res.Contention == nil {
		t.Error("the same class must contend")
	}
}
