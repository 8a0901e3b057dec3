package cdg

import (
	"syscall"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
)

func benchAnalyze(b *testing.B, spec, name string) {
	rel, err := routing.ByName(mustGrid(b, spec), name)
	if err != nil {
		b.Fatal(err)
	}
	var states int64
	cpu0 := cpuSeconds()
	for b.Loop() {
		r, err := Analyze(rel, Options{})
		if err != nil {
			b.Fatal(err)
		}
		states = r.States
	}
	// The machine is shared: CPU seconds per analysis say more than wall time.
	b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N), "cpu-s/op")
	b.ReportMetric(float64(states), "header-states")
}

// The static proofs on the largest topologies they are meant for: every built-in on
// mesh:64x64 and torus:64x64, and DOR and Duato on torus:16x16x16.
func BenchmarkCDGMesh64(b *testing.B) {
	for _, n := range routing.Names() {
		if n == "nonminimal:B" {
			n = "nonminimal:1"
		}
		b.Run(n, func(b *testing.B) { benchAnalyze(b, "mesh:64x64", n) })
	}
}

func BenchmarkCDGTorus64(b *testing.B) {
	for _, n := range []string{"dor", "dor-1vc", "adaptive", "duato", "nonminimal", "nonminimal:1"} {
		b.Run(n, func(b *testing.B) { benchAnalyze(b, "torus:64x64", n) })
	}
}

func BenchmarkCDGTorus16x16x16(b *testing.B) {
	for _, n := range []string{"dor", "dor-1vc", "adaptive", "duato", "nonminimal:1"} {
		b.Run(n, func(b *testing.B) { benchAnalyze(b, "torus:16x16x16", n) })
	}
}

// BenchmarkCDGHypercube12 is the 12-cube (4096 nodes): its classes do not pay (one
// class tuple per node), so the relations there search per destination.
func BenchmarkCDGHypercube12(b *testing.B) {
	for _, n := range []string{"dor", "negative-first", "adaptive", "duato"} {
		b.Run(n, func(b *testing.B) { benchAnalyze(b, "hypercube:12", n) })
	}
}

// cpuSeconds is the user+system CPU time of this process so far.
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
}
