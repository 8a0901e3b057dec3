package pipeline

import (
	"fmt"
	"math"
	"reflect"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// mesh88Lat is BookSim2's example configuration src/examples/mesh88_lat: an 8x8 mesh
// with dimension-order routing, 8 VCs of 8 flits, atomic VC allocation, lookahead
// routing, credit delay 2, input speedup 2, iSLIP allocators.
func mesh88Lat() Router {
	r := DefaultRouter()
	r.VCs, r.Buffer, r.WaitForTailCredit, r.CreditDelay, r.RoutingDelay, r.InputSpeedup = 8, 8, true, 2, 0, 2
	return r
}

func mustGrid(t testing.TB, spec string) *topology.Network {
	t.Helper()
	g, err := topology.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// runPackets runs an explicit workload and returns each packet's latency.
func runPackets(t testing.TB, spec string, r Router, lat int, pk []Packet) []int64 {
	t.Helper()
	g := mustGrid(t, spec)
	cfg := Config{Network: g, Relation: routing.NewDOR(g, g.Kind() == topology.Torus), Router: r, Traffic: Traffic{Packets: pk}}
	if lat > 0 {
		cfg.Latency = func(c topology.ChannelID) int {
			if c == topology.None {
				return 1
			}
			return lat
		}
	}
	res, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.Deadlocked || !res.Stable {
		t.Fatalf("run did not finish: %+v", res)
	}
	var out []int64
	for _, p := range res.Packets {
		out = append(out, p.Arrived-p.Created)
	}
	return out
}

// TestLonePacketsMatchBookSim pins the latency of lone packets, one pipeline parameter
// changed at a time from mesh88_lat, to what BookSim2 itself reports for the same
// packets (src/examples/mesh88_lat with injection_rate=0.0002 and watch_packets, BookSim2
// commit 28f43299f1706a3160ffac721ca461d74eb6e618: its first packets are far apart, so
// each crosses an empty network). Each row fails if its parameter is ignored: the
// expected latencies differ from the base row's.
func TestLonePacketsMatchBookSim(t *testing.T) {
	base := []Packet{{9, 9, 20, 107}, {47, 61, 20, 115}, {7, 56, 20, 129}, {29, 43, 20, 250}}
	same := []int64{25, 41, 81, 41}
	rows := []struct {
		name string
		set  func(*Router)
		spec string
		lat  int
		pk   []Packet
		want []int64
	}{
		{"mesh88_lat", func(*Router) {}, "mesh:8x8", 0, base, same},
		{"routing_delay=1", func(r *Router) { r.RoutingDelay = 1 }, "mesh:8x8", 0, base, []int64{26, 46, 96, 46}},
		{"routing_delay=2", func(r *Router) { r.RoutingDelay = 2 }, "mesh:8x8", 0, base, []int64{27, 51, 111, 51}},
		{"vc_alloc_delay=2", func(r *Router) { r.VCAllocDelay = 2 }, "mesh:8x8", 0, base, []int64{26, 46, 96, 46}},
		{"sw_alloc_delay=2", func(r *Router) { r.SWAllocDelay = 2 }, "mesh:8x8", 0,
			[]Packet{{9, 9, 20, 107}, {47, 61, 20, 115}, {29, 43, 20, 129}, {29, 43, 20, 250}}, []int64{45, 65, 65, 65}},
		{"st_prepare_delay=1", func(r *Router) { r.STPrepareDelay = 1 }, "mesh:8x8", 0, base, []int64{29, 49, 99, 49}},
		{"st_final_delay=2", func(r *Router) { r.STFinalDelay = 2 }, "mesh:8x8", 0, base, []int64{29, 49, 99, 49}},
		{"credit_delay=6 vc_buf_size=2", func(r *Router) { r.CreditDelay, r.Buffer = 6, 2 }, "mesh:8x8", 0,
			[]Packet{{9, 9, 20, 107}, {47, 61, 20, 115}, {29, 43, 20, 129}, {29, 43, 20, 250}}, []int64{106, 122, 122, 122}},
		{"credit_delay=0 vc_buf_size=2", func(r *Router) { r.CreditDelay, r.Buffer = 0, 2 }, "mesh:8x8", 0,
			[]Packet{{9, 9, 20, 107}, {47, 61, 20, 115}, {29, 43, 20, 129}, {29, 43, 20, 250}}, []int64{52, 68, 68, 68}},
		{"vc_buf_size=1", func(r *Router) { r.Buffer = 1 }, "mesh:8x8", 0,
			[]Packet{{9, 9, 20, 107}, {47, 61, 20, 115}, {29, 43, 20, 129}, {23, 58, 20, 252}}, []int64{139, 155, 155, 179}},
		{"internal_speedup=2.0", func(r *Router) { r.InternalSpeedup = 2 }, "mesh:8x8", 0, base, []int64{24, 36, 66, 36}},
		{"packet_size=3", func(*Router) {}, "mesh:8x8", 0,
			[]Packet{{9, 9, 3, 107}, {39, 60, 3, 115}, {58, 23, 3, 128}, {29, 43, 3, 250}}, []int64{8, 32, 48, 24}},
		{"torus (channel latency 2, num_vcs=2)", func(r *Router) { r.VCs = 2 }, "torus:8x8", 2,
			[]Packet{{9, 9, 20, 107}, {47, 61, 20, 115}, {7, 56, 20, 129}, {29, 43, 20, 250}}, []int64{25, 47, 37, 47}},
	}
	for _, row := range rows {
		r := mesh88Lat()
		row.set(&r)
		got := runPackets(t, row.spec, r, row.lat, row.pk)
		if !reflect.DeepEqual(got, row.want) {
			t.Errorf("%s: latencies %v, BookSim %v", row.name, got, row.want)
		}
	}
}

// TestZeroLoadClosedForm checks the zero-load latency of a lone packet against the
// closed form of the pipeline: a packet of L flits crossing H channels, so H+1 routers,
// each holding its header D = RoutingDelay + VCAllocDelay + SWAllocDelay +
// STPrepareDelay + STFinalDelay cycles, over channels of latency lat, with the 1-cycle
// injection and ejection channels and the cycle each channel's hand-over takes, is
// delivered (H+1)·D + H·lat + 3 + (L-1) cycles after it is created, when the buffers
// cover the credit loop (else the body flits fall behind the header).
func TestZeroLoadClosedForm(t *testing.T) {
	for _, c := range []struct{ rd, va, sa, stp, stf, lat, L int }{
		{0, 1, 1, 0, 1, 1, 20}, {1, 1, 1, 0, 1, 1, 1}, {2, 1, 1, 0, 1, 1, 4}, {0, 3, 1, 0, 1, 1, 4},
		{0, 1, 1, 2, 1, 1, 1}, {0, 1, 1, 0, 3, 1, 1}, {0, 1, 1, 0, 1, 3, 1}, {1, 2, 1, 1, 1, 2, 1},
	} {
		r := DefaultRouter()
		r.RoutingDelay, r.VCAllocDelay, r.SWAllocDelay, r.STPrepareDelay, r.STFinalDelay = c.rd, c.va, c.sa, c.stp, c.stf
		r.Buffer = 64
		D := c.rd + c.va + c.sa + c.stp + c.stf
		// 0 -> 3 on mesh:4x4 crosses 3 channels; 0 -> 15 crosses 6.
		for _, dst := range []int{0, 3, 15} {
			H := topology.NodeID(0)
			g := mustGrid(t, "mesh:4x4")
			H = topology.NodeID(g.Distance(0, topology.NodeID(dst)))
			got := runPackets(t, "mesh:4x4", r, c.lat, []Packet{{0, dst, c.L, 5}})
			want := int64((int(H)+1)*D + int(H)*c.lat + 3 + c.L - 1)
			if got[0] != want {
				t.Errorf("%+v to %d (H=%d): latency %d, closed form %d", c, dst, H, got[0], want)
			}
		}
	}
}

// TestSeededDeterminism: the same configuration and seed give the same result, a
// different seed a different one.
func TestSeededDeterminism(t *testing.T) {
	run := func(seed uint64) *Result {
		g := mustGrid(t, "mesh:4x4")
		pat, _ := ParsePattern("uniform", 16, PatternParams{})
		m := DefaultMeasure()
		m.SamplePeriod = 300
		res, err := Run(Config{Network: g, Relation: routing.NewDOR(g, false), Router: mesh88Lat(), Seed: seed,
			Traffic: Traffic{Pattern: pat, Rate: 0.02, Sizes: []int{4}, IncludeQueuing: true}, Measure: m})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	a, b, c := run(7), run(7), run(8)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("seed 7 twice: %+v\n%+v", a, b)
	}
	if a.PacketLatency == c.PacketLatency {
		t.Fatalf("seeds 7 and 8 give the same latency %+v", a.PacketLatency)
	}
}

func (r *Result) String() string {
	return fmt.Sprintf("latency %.2f accepted %.4f stable %v", r.PacketLatency.Mean, r.AcceptedFlits.Mean, r.Stable)
}

// TestCurveMonotoneBelowSaturation: on mesh88_lat's router with uniform traffic on a
// 4x4 mesh, average packet latency grows with the offered load below saturation and
// the accepted rate follows the offered one; past saturation the run is unstable
// (BookSim's "Simulation unstable").
func TestCurveMonotoneBelowSaturation(t *testing.T) {
	g := mustGrid(t, "mesh:4x4")
	pat, _ := ParsePattern("uniform", 16, PatternParams{})
	run := func(load float64) *Result {
		res, err := Run(Config{Network: g, Relation: routing.NewDOR(g, false), Router: mesh88Lat(), Seed: 3,
			Traffic: Traffic{Pattern: pat, Rate: load / 4, Sizes: []int{4}, IncludeQueuing: true}, Measure: DefaultMeasure()})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	prev := 0.0
	for _, load := range []float64{0.05, 0.2, 0.35, 0.5} {
		res := run(load)
		if !res.Stable || res.PacketLatency.Mean <= prev || math.Abs(res.AcceptedFlits.Mean-load) > 0.1*load {
			t.Fatalf("load %.2f: %v after latency %.2f", load, res, prev)
		}
		prev = res.PacketLatency.Mean
	}
	if res := run(0.99); res.Stable {
		t.Fatalf("offered load 0.99 on a 4x4 mesh is stable: %v", res)
	}
}

// BenchmarkPipelineMesh88 times mesh88_lat's router on an 8x8 mesh under uniform
// traffic at 0.2 flits per terminal per cycle (20-flit packets): simulated flit-hops and
// cycles per second of the wall clock, and per second of the process's CPU time (what
// a loaded machine does not inflate; scripts/booksim-compare sets BookSim's CPU time
// per cycle beside it).
func BenchmarkPipelineMesh88(b *testing.B) {
	g := mustGrid(b, "mesh:8x8")
	pat, _ := ParsePattern("uniform", 64, PatternParams{})
	m := DefaultMeasure()
	m.WarmupPeriods, m.MaxSamples = 1, 3
	var hops, cycles int64
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		res, err := Run(Config{Network: g, Relation: routing.NewDOR(g, false), Router: mesh88Lat(), Seed: uint64(i),
			Traffic: Traffic{Pattern: pat, Rate: 0.01, Sizes: []int{20}, IncludeQueuing: true}, Measure: m})
		if err != nil {
			b.Fatal(err)
		}
		hops, cycles = hops+res.FlitHops, cycles+res.Cycles
	}
	b.ReportMetric(float64(hops)/b.Elapsed().Seconds(), "flit-hops/s")
	b.ReportMetric(float64(cycles)/b.Elapsed().Seconds(), "cycles/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(float64(hops)/cpu, "flit-hops/cpu-s")
		b.ReportMetric(float64(cycles)/cpu, "cycles/cpu-s")
	}
}

// BenchmarkPipelineSingle times BookSim2's singleconfig example: one 10-port crossbar
// (fly:k=10,n=1, dest_tag routing) with 8 VCs of 8 flits, lookahead routing and
// separable_input_first VC and switch allocators, under uniform traffic of 1-flit
// packets at 0.306 packets per terminal per cycle (half of BookSim's saturation), one
// warm-up and three 1000-cycle sample periods. Nearly all of its cycle is VC and switch
// allocation on the one router, so this is the benchmark of the separable allocator.
func BenchmarkPipelineSingle(b *testing.B) {
	g := mustGrid(b, "fly:k=10,n=1")
	rel, err := routing.Resolve(g, "booksim:dest_tag,vcs=8", nil)
	if err != nil {
		b.Fatal(err)
	}
	r := DefaultRouter()
	r.VCs, r.RoutingDelay, r.VCAllocator, r.SWAllocator = 8, 0, SeparableInputFirst, SeparableInputFirst
	pat, _ := ParsePattern("uniform", len(g.Endpoints()), PatternParams{})
	m := DefaultMeasure()
	m.WarmupPeriods, m.MaxSamples = 1, 3
	var cycles int64
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		res, err := Run(Config{Network: g, Terminals: g.Endpoints(), Relation: rel, Router: r, Seed: uint64(i),
			Traffic: Traffic{Pattern: pat, Rate: 0.306, Sizes: []int{1}, IncludeQueuing: true}, Measure: m})
		if err != nil {
			b.Fatal(err)
		}
		cycles += res.Cycles
	}
	b.ReportMetric(float64(cycles)/b.Elapsed().Seconds(), "cycles/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(float64(cycles)/cpu, "cycles/cpu-s")
	}
}

// TestSaturatedPermutationsMatchBookSim pins whole runs to BookSim2's own: with a
// permutation pattern and an injection rate of 1 packet a cycle, BookSim's experiment
// draws nothing at random, so the simulator, cycle for cycle the same machine, must
// give BookSim's average packet latency, network latency, accepted rate and length of
// run to the digits BookSim prints. The runs: mesh88_lat on a 4x4 mesh (k = 4),
// sim_type = throughput, sample_period = 200, one parameter changed a row, BookSim2 at
// commit 28f43299f1706a3160ffac721ca461d74eb6e618. A row whose parameter the simulator
// ignored, or modelled differently, would give the base row's figures or others; rows
// whose figures equal the base row's show parameters that do not act on this traffic
// (vc_busy_when_full, vc_prioritize_empty, separable VC allocation), pinned all the
// same. (BookSim itself stops on an assertion with vc_alloc_delay or sw_alloc_delay
// above 1 here, so those are pinned on lone packets only: TestLonePacketsMatchBookSim.)
func TestSaturatedPermutationsMatchBookSim(t *testing.T) {
	type want struct {
		plat, nlat, accepted float64
		cycles               int64
	}
	rows := []struct {
		traffic string
		set     func(*Router)
		size    int
		want    want
	}{
		{"bitcomp", nil, 20, want{1059.21, 185.935, 0.470417, 1449}},
		{"transpose", nil, 20, want{932.615, 77, 0.624583, 1324}},
		{"tornado", nil, 20, want{882.5, 37, 1, 1234}},
		{"neighbor", nil, 20, want{882.5, 37, 1, 1234}},
		{"shuffle", nil, 20, want{934.106, 77.0778, 0.75, 1336}},
		{"bitrev", nil, 20, want{956.959, 95.8481, 0.566771, 1323}},
		{"randperm(5)", nil, 20, want{907.064, 56.3538, 0.8125, 1333}},
		{"bitcomp", func(r *Router) { r.InputSpeedup = 1 }, 20, want{1001.33, 117.4, 0.5, 1310}},
		{"bitcomp", func(r *Router) { r.OutputSpeedup = 2 }, 20, want{1086.73, 210.287, 0.471979, 1530}},
		{"bitcomp", func(r *Router) { r.WaitForTailCredit = false }, 20, want{1033.24, 165.136, 0.47875, 1369}},
		{"bitcomp", func(r *Router) { r.HoldSwitchForPacket = true }, 20, want{1016.4, 138.655, 0.46125, 1345}},
		{"bitcomp", func(r *Router) { r.SWAllocator = SeparableInputFirst }, 20, want{1047.2, 178.869, 0.472083, 1429}},
		{"bitcomp", func(r *Router) { r.VCAllocator = SeparableInputFirst }, 20, want{1059.21, 185.935, 0.470417, 1449}},
		{"bitcomp", func(r *Router) { r.VCAllocator, r.SWAllocator = SeparableOutputFirst, SeparableOutputFirst }, 20, want{1059.21, 185.935, 0.470417, 1449}},
		{"bitcomp", func(r *Router) { r.SWAllocIters = 3 }, 20, want{1047.72, 179.311, 0.474167, 1426}},
		{"bitcomp", func(r *Router) { r.VCBusyWhenFull = true }, 20, want{1059.21, 185.935, 0.470417, 1449}},
		{"bitcomp", func(r *Router) { r.VCPrioritizeEmpty = true }, 20, want{1059.21, 185.935, 0.470417, 1449}},
		{"bitcomp", func(r *Router) { r.OutputSpeedup, r.OutputBufferSize = 2, 1 }, 20, want{1070.67, 197.082, 0.418229, 1491}},
		{"bitcomp", func(r *Router) { r.InternalSpeedup = 1.5 }, 20, want{1211.24, 242.44, 0.480938, 1704}},
		{"bitcomp", func(r *Router) { r.RoutingDelay = 2 }, 20, want{1058.34, 185.754, 0.474167, 1436}},
		{"bitcomp", func(r *Router) { r.STPrepareDelay = 1 }, 20, want{1053.47, 189.417, 0.47125, 1421}},
		{"bitcomp", func(r *Router) { r.CreditDelay, r.Buffer = 4, 3 }, 20, want{973.775, 83, 0.34125, 1280}},
		{"bitcomp", func(r *Router) { r.VCs = 2 }, 20, want{948.154, 79.1538, 0.434167, 1252}},
		{"bitcomp", nil, 5, want{949.203, 141.873, 0.492917, 1360}},
		{"tornado", func(r *Router) { r.VCs, r.WaitForTailCredit = 4, false }, 1, want{18, 18, 1, 1234}},
	}
	g := mustGrid(t, "mesh:4x4")
	close := func(got, want float64) bool { return math.Abs(got-want) <= 1e-5*math.Max(1, math.Abs(want)) }
	for i, row := range rows {
		r := mesh88Lat()
		if row.set != nil {
			row.set(&r)
		}
		pat, err := ParsePattern(row.traffic, 16, PatternParams{K: 4, N: 2, XR: 1})
		if err != nil {
			t.Fatal(err)
		}
		m := DefaultMeasure()
		m.Mode, m.SamplePeriod = Throughput, 200
		res, err := Run(Config{Network: g, Relation: routing.NewDOR(g, false), Router: r,
			Traffic: Traffic{Pattern: pat, Rate: 1, Sizes: []int{row.size}, IncludeQueuing: true}, Measure: m})
		if err != nil {
			t.Fatal(err)
		}
		got := want{res.PacketLatency.Mean, res.NetworkLatency.Mean, res.AcceptedFlits.Mean, res.Cycles}
		if !close(got.plat, row.want.plat) || !close(got.nlat, row.want.nlat) || !close(got.accepted, row.want.accepted) || got.cycles != row.want.cycles {
			t.Errorf("%s (row %d): %+v, BookSim %+v", row.traffic, i, got, row.want)
		}
	}
}
