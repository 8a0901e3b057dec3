package checker_test

import (
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
)

// BenchmarkExploreMeshBasic is BenchmarkExploreMesh's one-worker exact search on a
// model that implements the basic contract only.
func BenchmarkExploreMeshBasic(b *testing.B) {
	mm, err := checkertest.MeshBench().Model()
	if err != nil {
		b.Fatal(err)
	}
	var states int64
	var res *checker.Result[checkertest.MeshState]
	cpu0 := cpuSeconds()
	for b.Loop() {
		res, err = checker.Explore[checkertest.MeshState](checkertest.BasicMesh{M: mm}, checker.Options[checkertest.MeshState]{})
		if err != nil || res.Verdict != checker.Holds {
			b.Fatalf("Explore: %v %v", res, err)
		}
		states += res.Stats.States
	}
	report(b, states, cpuSeconds()-cpu0, res.Stats.BytesPerState)
}
