package checker_test

import (
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
)

// basicMesh is MeshBench behind the basic contract only (Init, Successors, Encode,
// Terminal, Describe): what a user's first model looks like.
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
		res, err = checker.Explore[checkertest.MeshState](basicMesh{mm}, checker.Options[checkertest.MeshState]{})
		if err != nil || res.Verdict != checker.Holds {
			b.Fatalf("Explore: %v %v", res, err)
		}
		states += res.Stats.States
	}
	report(b, states, cpuSeconds()-cpu0, res.Stats.BytesPerState)
}
