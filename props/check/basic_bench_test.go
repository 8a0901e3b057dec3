package check_test

import (
	"context"
	"testing"

	"github.com/wormcheck/wormcheck/checker/checkertest"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

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
		rep, err = check.RunModel[checkertest.MeshState](context.Background(), checkertest.BasicMesh{M: mm}, check.ModelCheck[checkertest.MeshState]{Deadlock: true}, check.Options{})
		if err != nil || rep.Verdict != props.Holds {
			b.Fatal(err, rep)
		}
	}
	b.ReportMetric(float64(rep.Stats.States)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}

// BenchmarkRunModelBytes is BenchmarkRunModelBasic on a model whose encoding is one
// byte per packet (9 bytes, longer than a word).
func BenchmarkRunModelBytes(b *testing.B) {
	mm, err := checkertest.MeshBench().Model()
	if err != nil {
		b.Fatal(err)
	}
	var rep *props.Report
	for b.Loop() {
		rep, err = check.RunModel[checkertest.MeshState](context.Background(), checkertest.ByteMesh{BasicMesh: checkertest.BasicMesh{M: mm}}, check.ModelCheck[checkertest.MeshState]{Deadlock: true}, check.Options{})
		if err != nil || rep.Verdict != props.Holds || rep.Stats.States != 4427776 {
			b.Fatal(err, rep)
		}
	}
	b.ReportMetric(float64(rep.Stats.States)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}
