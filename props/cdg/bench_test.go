package cdg

import (
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
)

func benchAnalyze(b *testing.B, spec, name string) {
	rel, err := routing.ByName(mustGrid(b, spec), name)
	if err != nil {
		b.Fatal(err)
	}
	var states int64
	for b.Loop() {
		r, err := Analyze(rel, Options{})
		if err != nil {
			b.Fatal(err)
		}
		states = r.States
	}
	b.ReportMetric(float64(states), "header-states")
}

// The static proofs on the largest topologies issue 11 names: every built-in on
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
	for _, n := range []string{"dor", "adaptive", "duato"} {
		b.Run(n, func(b *testing.B) { benchAnalyze(b, "torus:16x16x16", n) })
	}
}
