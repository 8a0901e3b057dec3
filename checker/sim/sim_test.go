package sim

import (
	"fmt"
	"math"
	"testing"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

func mustGrid(t testing.TB, spec string) *topology.Network {
	t.Helper()
	g, err := topology.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// unicastSchedule builds a schedule of independent unicasts from sources (one each).
func unicastSchedule(g *topology.Network, pairs [][2]topology.NodeID) *model.Schedule {
	r := topology.NewDOR(g)
	s := &model.Schedule{Ports: model.AllPort}
	order := map[topology.NodeID]int{}
	for _, p := range pairs {
		s.Sources = append(s.Sources, p[0])
		order[p[0]]++
		s.Unicasts = append(s.Unicasts, model.Unicast{From: p[0], To: p[1], Path: r.Path(p[0], p[1]), Step: 1, Order: order[p[0]]})
	}
	return s
}

// Reference: 004 §6.1: a lone unicast takes ts + h*tc + L*tc + tr.
func TestLoneWormExact(t *testing.T) {
	for _, spec := range []string{"mesh:8x8", "torus:8x8", "hypercube:5"} {
		g := mustGrid(t, spec)
		for _, c := range []struct{ ts, tr, L, B int }{{0, 0, 1, 2}, {0, 0, 32, 2}, {5, 7, 3, 2}, {200, 200, 17, 4}, {1, 0, 64, 3}} {
			for _, pair := range [][2]topology.NodeID{{0, topology.NodeID(g.Nodes() - 1)}, {1, 2}, {3, 0}} {
				s := unicastSchedule(g, [][2]topology.NodeID{pair})
				res, err := ExecuteSchedule(g, s, ScheduleOptions{Ts: c.ts, Tr: c.tr, L: c.L, Buffer: c.B})
				if err != nil {
					t.Fatal(err)
				}
				h := len(s.Unicasts[0].Path)
				want := int64(c.ts + h + c.L + c.tr)
				if res.Completion != want || res.Contention != nil {
					t.Errorf("%s %v %v: completion %d contention %v; want %d", spec, c, pair, res.Completion, res.Contention, want)
				}
			}
		}
	}
}

func TestTwoWormsOnOneChannelSerialise(t *testing.T) {
	g := mustGrid(t, "mesh:4x2")
	for _, c := range []struct{ ts, tr, L int }{{0, 0, 4}, {3, 2, 10}, {1, 5, 1}} {
		// A: 0 -> 3 over 0->1, 1->2, 2->3; B: 1 -> 3 over 1->2, 2->3. B takes 1->2 at
		// cycle ts, one cycle before A's header gets there. B's tail crosses 1->2 at
		// ts+L-1 and leaves its buffer at ts+L (atomic VC allocation: only then is the
		// VC free), so A's header crosses 1->2 at ts+L+1, L cycles late; with L = 1 too,
		// one cycle after B's single flit has left the buffer.
		s := unicastSchedule(g, [][2]topology.NodeID{{0, 3}, {1, 3}})
		res, err := ExecuteSchedule(g, s, ScheduleOptions{Ts: c.ts, Tr: c.tr, L: c.L})
		if err != nil {
			t.Fatal(err)
		}
		wantB := int64(c.ts + 2 + c.L + c.tr)
		wantA := int64(c.ts + c.L + 3 + c.L + c.tr)
		if res.Receive[3] != min(wantA, wantB) || res.Completion != max(wantA, wantB) {
			t.Errorf("%v: receive %d completion %d; want %d and %d", c, res.Receive[3], res.Completion, min(wantA, wantB), max(wantA, wantB))
		}
		ct := res.Contention
		if ct == nil || ct.Waiting != 0 || ct.Holding != 1 || ct.Name != "(1,0)->(2,0)" || ct.Cycle != int64(c.ts+1) {
			t.Errorf("%v: contention %+v; want unicast 0 waiting for 1 on (1,0)->(2,0) at %d", c, ct, c.ts+1)
		}
	}
}

// With two VCs, two long worms on one channel share it flit by flit (demand-slotted
// round robin): both finish near 2L instead of L and 2L.
func TestVCRoundRobinFairness(t *testing.T) {
	g := mustGrid(t, "mesh:4x2")
	const L = 40
	s := unicastSchedule(g, [][2]topology.NodeID{{0, 3}, {1, 3}})
	s.Unicasts[0].Order, s.Unicasts[1].Order = 1, 1
	res, err := ExecuteSchedule(g, s, ScheduleOptions{L: L, VCs: 2})
	if err != nil {
		t.Fatal(err)
	}
	a, b := res.Completion, res.Receive[3]
	if a-b > 2 || a < 2*L || a > 2*L+4 {
		t.Errorf("completions %d and %d; want both within 2 cycles of each other near %d", b, a, 2*L)
	}
	if res.Contention != nil {
		t.Errorf("no header should wait with two VCs: %+v", res.Contention)
	}
}

func runString(t *testing.T, cfg Config) string {
	t.Helper()
	r, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%+v", *r)
}

func TestDeterminismAndQueueEquivalence(t *testing.T) {
	g := mustGrid(t, "hypercube:5")
	cfg := Config{Grid: g, Routing: topology.DOR{Grid: g, Order: topology.DescendingOrder(5)}, VCs: 3, Length: 16, Ts: 1, Seed: 7,
		Warmup: 500, Cycles: 3000, Traffic: Traffic{Rate: 0.01, Broadcast: 0.02}}
	a := runString(t, cfg)
	if b := runString(t, cfg); a != b {
		t.Fatalf("same seed, different results:\n%s\n%s", a, b)
	}
	cfg.Queue = Heap
	if b := runString(t, cfg); a != b {
		t.Fatalf("heap and calendar queues differ:\n%s\n%s", a, b)
	}
	cfg.Seed = 8
	if b := runString(t, cfg); a == b {
		t.Fatalf("different seeds gave identical results")
	}
}

func TestConservationDrained(t *testing.T) {
	for _, spec := range []string{"mesh:6x6", "torus:5x4", "hypercube:4"} {
		g := mustGrid(t, spec)
		for _, ports := range []model.PortModel{model.AllPort, model.OnePort} {
			tr := Traffic{Rate: 0.02, Multicast: 0.2, MinDests: 2, MaxDests: 5, HotSpot: 0.1, HotNode: 3}
			if g.Kind() == topology.Hypercube {
				tr.Broadcast = 0.05
			}
			res, err := Run(Config{Grid: g, VCs: 2, Length: 6, Ports: ports, Ts: 2, Tr: 1, Seed: 3, Cycles: 2000, StopSources: true, Traffic: tr})
			if err != nil {
				t.Fatal(err)
			}
			if res.Completed != res.Generated || res.Undelivered != 0 || res.FlitHops != res.RouteFlitHops || res.Deadlocked {
				t.Errorf("%s %v: %+v", spec, ports, *res)
			}
		}
	}
}

func TestBatchMeans(t *testing.T) {
	xs := make([]float64, 400)
	for i := range xs {
		xs[i] = float64(i % 10)
	}
	m, h := BatchMeans(xs, 20)
	if m != 4.5 || h != 0 {
		t.Errorf("mean %v half-width %v; want 4.5 and 0 (identical batches)", m, h)
	}
	if _, h := BatchMeans(xs[:10], 20); !math.IsNaN(h) {
		t.Errorf("too few samples must give NaN, got %v", h)
	}
}

func TestBadConfigIsRefused(t *testing.T) {
	g := mustGrid(t, "torus:4x4")
	for _, c := range []Config{
		{Grid: g, VCs: 1},
		{Grid: g, Length: -1},
		{Grid: g, Traffic: Traffic{Rate: -1}},
		{Grid: g, Traffic: Traffic{Broadcast: 0.1}},
		{Grid: g, Traffic: Traffic{Rate: 2, Process: Bernoulli}},
		{},
	} {
		if _, err := Run(c); err == nil {
			t.Errorf("%+v accepted", c)
		}
	}
}

func TestMSER5DropsTheTransient(t *testing.T) {
	var xs []float64
	for i := 0; i < 100; i++ {
		xs = append(xs, 100-float64(i)) // a decaying transient
	}
	for i := 0; i < 900; i++ {
		xs = append(xs, float64(i%3))
	}
	d := MSER5(xs)
	if d < 95 || d > 110 {
		t.Errorf("MSER-5 dropped %d samples; want about 100", d)
	}
	flat := make([]float64, 400)
	for i := range flat {
		flat[i] = float64(i % 7)
	}
	if d := MSER5(flat); d > 40 {
		t.Errorf("MSER-5 dropped %d samples of a stationary series", d)
	}
	g := mustGrid(t, "mesh:4x4")
	res, err := Run(Config{Grid: g, Length: 8, Seed: 2, Cycles: 5000, MSER: true, Traffic: Traffic{Rate: 0.02}})
	if err != nil || res.Unicast.N == 0 {
		t.Fatalf("%v %+v", err, res)
	}
}

// The Bernoulli and Poisson sources both generate Rate messages per node per cycle on
// average.
func TestSourcesHitTheirRate(t *testing.T) {
	g := mustGrid(t, "mesh:4x4")
	for _, p := range []Process{Poisson, Bernoulli} {
		res, err := Run(Config{Grid: g, Length: 1, Seed: 11, Cycles: 50000, StopSources: true, Traffic: Traffic{Rate: 0.05, Process: p}})
		if err != nil {
			t.Fatal(err)
		}
		got := float64(res.Generated) / 16 / 50000
		if math.Abs(got-0.05) > 0.002 {
			t.Errorf("%v: %v messages/node/cycle; want 0.05", p, got)
		}
	}
}

// Steady-state detection: with Precision set the window closes once the 95% half-width
// is within the requested fraction of the mean.
func TestPrecisionEndsTheWindowEarly(t *testing.T) {
	g := mustGrid(t, "mesh:4x4")
	res, err := Run(Config{Grid: g, Length: 4, Seed: 4, Warmup: 500, Cycles: 200000, Precision: 0.02, Traffic: Traffic{Rate: 0.05}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cycles > 100000 || res.Unicast.CI95 > 0.02*res.Unicast.Mean*1.5 {
		t.Errorf("ran %d cycles with half-width %v of mean %v", res.Cycles, res.Unicast.CI95, res.Unicast.Mean)
	}
}
