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
	benchBasic[checkertest.MeshState](b, checkertest.BasicMesh{M: mm})
}

// BenchmarkExploreMeshBytes is BenchmarkExploreMeshBasic on a model whose encoding is
// one byte per packet (9 bytes, longer than a word).
func BenchmarkExploreMeshBytes(b *testing.B) {
	mm, err := checkertest.MeshBench().Model()
	if err != nil {
		b.Fatal(err)
	}
	benchBasic[checkertest.MeshState](b, checkertest.ByteMesh{BasicMesh: checkertest.BasicMesh{M: mm}})
}

func benchBasic[S any](b *testing.B, m checker.Model[S]) {
	var states int64
	var res *checker.Result[S]
	var err error
	cpu0 := cpuSeconds()
	for b.Loop() {
		res, err = checker.Explore[S](m, checker.Options[S]{})
		if err != nil || res.Verdict != checker.Holds || res.Stats.States != 4427776 {
			b.Fatalf("Explore: %v %v", res, err)
		}
		states += res.Stats.States
	}
	report(b, states, cpuSeconds()-cpu0, res.Stats.BytesPerState)
}

// BenchmarkExploreMeshEncoder is BenchmarkExploreMeshBasic on a model that also
// implements SuccessorEncoder as a user writes one (checkertest.EncoderMesh): it must be
// no slower and no bigger per state than the plain path.
func BenchmarkExploreMeshEncoder(b *testing.B) {
	mm, err := checkertest.MeshBench().Model()
	if err != nil {
		b.Fatal(err)
	}
	benchBasic[checkertest.MeshState](b, checkertest.EncoderMesh{BasicMesh: checkertest.BasicMesh{M: mm}})
}

// BenchmarkExploreMeshBytesEncoder is BenchmarkExploreMeshBytes on a SuccessorEncoder
// (checkertest.ByteEncoderMesh): no slower and no bigger per state than the plain path.
func BenchmarkExploreMeshBytesEncoder(b *testing.B) {
	mm, err := checkertest.MeshBench().Model()
	if err != nil {
		b.Fatal(err)
	}
	benchBasic[checkertest.MeshState](b, checkertest.ByteEncoderMesh{EncoderMesh: checkertest.EncoderMesh{BasicMesh: checkertest.BasicMesh{M: mm}}})
}
