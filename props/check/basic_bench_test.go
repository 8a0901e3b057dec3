package check_test

import (
	"context"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// basicMesh is checkertest's MeshBench behind the basic contract only.
type basicMesh struct{ m checkertest.MeshModel }

func (b basicMesh) Init() []checkertest.MeshState { return b.m.Init() }
func (b basicMesh) Successors(s checkertest.MeshState, dst []checker.Transition[checkertest.MeshState]) []checker.Transition[checkertest.MeshState] {
	return b.m.Successors(s, dst)
}
func (b basicMesh) Encode(s checkertest.MeshState, buf []byte) []byte { return b.m.Encode(s, buf) }
func (b basicMesh) Terminal(s checkertest.MeshState) bool             { return b.m.Terminal(s) }
func (b basicMesh) Describe(s checkertest.MeshState, a checker.Action) string {
	return b.m.Describe(s, a)
}

// BenchmarkRunModelBasic is a user's basic-contract model through check.RunModel (the
// entry's path for users' own transition systems), for states/s and bytes/state against
// checker's BenchmarkExploreMesh.
func BenchmarkRunModelBasic(b *testing.B) {
	mm, err := checkertest.MeshBench().Model()
	if err != nil {
		b.Fatal(err)
	}
	var rep *props.Report
	for b.Loop() {
		rep, err = check.RunModel[checkertest.MeshState](context.Background(), basicMesh{mm}, check.ModelCheck[checkertest.MeshState]{Deadlock: true}, check.Options{})
		if err != nil || rep.Verdict != props.Holds {
			b.Fatal(err, rep)
		}
	}
	b.ReportMetric(float64(rep.Stats.States)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}
