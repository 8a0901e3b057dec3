package sim

import (
	"testing"

	"github.com/wormcheck/wormcheck/model"
	flitmodel "github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// BenchmarkSimMesh8x8 runs uniform unicast traffic on an 8x8 mesh (XY routing, V = 2,
// B = 2, M = 16 flits) at 0.16 flits/node/cycle, about half of its measured saturation (0.33) and reports simulated flit-hops and
// cycles per second.
func BenchmarkSimMesh8x8(b *testing.B) {
	g := mustGrid(b, "mesh:8x8")
	var hops, cycles int64
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		res, err := Run(Config{Grid: g, VCs: 2, Length: 16, Seed: uint64(i + 1), Warmup: 1000, Cycles: 20000,
			Traffic: Traffic{Rate: 0.16 / 16}})
		if err != nil {
			b.Fatal(err)
		}
		hops += res.FlitHops
		cycles += res.Cycles
	}
	b.ReportMetric(float64(hops)/b.Elapsed().Seconds(), "flit-hops/s")
	b.ReportMetric(float64(cycles)/b.Elapsed().Seconds(), "cycles/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(float64(hops)/cpu, "flit-hops/cpu-s")
	}
}

// BenchmarkEventQueue compares the two future-event lists on the simulator's own
// pattern: per-node Poisson sources plus short fixed delays.
func BenchmarkEventQueue(b *testing.B) {
	for _, k := range []struct {
		name string
		kind QueueKind
	}{{"calendar", Calendar}, {"gods-heap", Heap}} {
		b.Run(k.name, func(b *testing.B) {
			q := newQueue(k.kind)
			var seq uint64
			for v := 0; v < 512; v++ {
				seq++
				q.push(event{t: int64(v % 97), seq: seq, a: int32(v)})
			}
			n := 0
			b.ResetTimer()
			for t := int64(0); n < b.N; t++ {
				q.popDue(t, func(e event) {
					n++
					seq++
					q.push(event{t: t + 1 + int64((e.a*7919+int32(seq))%200), seq: seq, a: e.a})
				})
			}
		})
	}
}

// BenchmarkExecuteScheduleSBT10 executes the SBT broadcast on a 1024-node hypercube
// (1023 unicasts of 64 flits) at zero load.
func BenchmarkExecuteScheduleSBT10(b *testing.B) {
	g, _ := topology.NewHypercube(10)
	s := sbtSchedule(g, 0)
	var hops int64
	for i := 0; i < b.N; i++ {
		res, err := ExecuteSchedule(g, s, ScheduleOptions{Ts: 20, Tr: 20, L: 64})
		if err != nil {
			b.Fatal(err)
		}
		hops += res.FlitHops
	}
	b.ReportMetric(float64(hops)/b.Elapsed().Seconds(), "flit-hops/s")
}

// BenchmarkSimTreeMesh8x8 runs 000 §5.3's tree multicast traffic on an 8x8 mesh (one
// port, V = 2, B = 2, one data flit, 11 destinations) at 0.1 data flits delivered per
// node per cycle and reports simulated flit-hops and cycles per second.
func BenchmarkSimTreeMesh8x8(b *testing.B) {
	g := mustGrid(b, "mesh:8x8")
	var hops, cycles int64
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		res, err := Run(Config{Grid: g, VCs: 2, Length: 2, Ports: model.OnePort, Tree: true, Prune: flitmodel.PruneOnStop, Seed: uint64(i + 1), Warmup: 1000, Cycles: 20000,
			Traffic: Traffic{Rate: 0.1 / 22, Multicast: 1, MinDests: 11, MaxDests: 11}})
		if err != nil {
			b.Fatal(err)
		}
		hops += res.FlitHops
		cycles += res.Cycles
	}
	b.ReportMetric(float64(hops)/b.Elapsed().Seconds(), "flit-hops/s")
	b.ReportMetric(float64(cycles)/b.Elapsed().Seconds(), "cycles/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(float64(hops)/cpu, "flit-hops/cpu-s")
	}
}

// BenchmarkSimDragonfly72 runs uniform unicast traffic between the 72 terminals of
// dragonfly:a=4,p=2,h=2 under minimal routing with its two VC classes (B = 2, M = 16
// flits) at 0.16 flits/terminal/cycle, as BenchmarkSimMesh8x8 does on the mesh, and
// reports simulated flit-hops and cycles per second.
func BenchmarkSimDragonfly72(b *testing.B) {
	g, err := topology.Parse("dragonfly:a=4,p=2,h=2")
	if err != nil {
		b.Fatal(err)
	}
	rel, err := routing.ByName(g, "dragonfly-min")
	if err != nil {
		b.Fatal(err)
	}
	var hops, cycles int64
	cpu0 := cpuSeconds()
	for i := 0; i < b.N; i++ {
		res, err := Run(Config{Grid: g, Relation: rel, Length: 16, Seed: uint64(i + 1), Warmup: 1000, Cycles: 20000,
			Traffic: Traffic{Rate: 0.16 / 16}})
		if err != nil {
			b.Fatal(err)
		}
		if res.Saturated || res.Deadlocked {
			b.Fatalf("not a stable load: %+v", *res)
		}
		hops += res.FlitHops
		cycles += res.Cycles
	}
	b.ReportMetric(float64(hops)/b.Elapsed().Seconds(), "flit-hops/s")
	b.ReportMetric(float64(cycles)/b.Elapsed().Seconds(), "cycles/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(float64(hops)/cpu, "flit-hops/cpu-s")
	}
}
