package checker_test

import (
	"fmt"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
)

type meshOpts = checker.Options[checkertest.MeshState]

// TestMeshAgreesWithHandBFS checks the explorer against the hand-written BFS of the
// benchmark model (the naive twin): the same states, transitions and depth, pinned, for
// every store and worker count; MeshBench itself runs without -short.
func TestMeshAgreesWithHandBFS(t *testing.T) {
	cases := []struct {
		name          string
		m             checkertest.Mesh
		states, trans int64
		depth         int
		long          bool
	}{
		{"small", checkertest.MeshSmall(), 15552, 73872, 25, false},
		{"bench", checkertest.MeshBench(), 4427776, 31412224, 44, true},
	}
	for _, c := range cases {
		if c.long && testing.Short() {
			continue
		}
		mm, err := c.m.Model()
		if err != nil {
			t.Fatal(err)
		}
		h := mm.HandBFS()
		if h.States != c.states || h.Transitions != c.trans || h.Depth != c.depth {
			t.Fatalf("%s: hand BFS found %d states, %d transitions, depth %d; want %d, %d, %d",
				c.name, h.States, h.Transitions, h.Depth, c.states, c.trans, c.depth)
		}
		for _, store := range []checker.StoreMode{checker.Exact, checker.Fingerprint} {
			for _, w := range []int{1, 2, 3} {
				if c.long && w == 3 {
					continue
				}
				res := explore(t, mm, meshOpts{Workers: w, Store: store, CheckDeadlock: true})
				st := res.Stats
				if res.Verdict != checker.Holds || st.States != c.states || st.Transitions != c.trans || st.Depth != c.depth {
					t.Errorf("%s/%v/workers=%d: %v with %d states, %d transitions, depth %d; want holds, %d, %d, %d",
						c.name, store, w, res.Verdict, st.States, st.Transitions, st.Depth, c.states, c.trans, c.depth)
				}
			}
		}
	}
}

// TestMeshViolation finds a real violation in the benchmark model: packet 2 ejected
// before packet 0; the shortest way is packet 2's four hops and ejection (5 steps).
func TestMeshViolation(t *testing.T) {
	mm, err := checkertest.MeshSmall().Model()
	if err != nil {
		t.Fatal(err)
	}
	var first string
	for _, store := range []checker.StoreMode{checker.Exact, checker.Fingerprint} {
		for _, w := range []int{1, 2} {
			res := explore(t, mm, meshOpts{Workers: w, Store: store, Invariants: []checker.Invariant[checkertest.MeshState]{checkertest.Delivered(2, 0, mm)}})
			wantViolation(t, mm, res, checker.KindInvariant, 5)
			if tr := res.Violation.Trace.String(); first == "" {
				first = tr
			} else if tr != first {
				t.Errorf("%v/workers=%d: trace\n%s differs from\n%s", store, w, tr, first)
			}
		}
	}
}

// BenchmarkExploreMesh is the engine benchmark: the explorer on MeshBench
// (4,427,776 states of 8 bytes) against the hand-written BFS of the same model
// (sub-benchmark "hand"). It reports states/s of wall time, states per CPU-second
// (what to compare on a shared machine) and the peak bytes per state (the store's for
// the explorer, the table's, records' and frontiers' for the hand BFS). Run the
// workers=2 cases with -cpu 2 (GOMAXPROCS 2): with -cpu 1 both workers share one
// thread; their states/cpu-s against workers=1's is then the parallel efficiency, and
// twice it bounds the speed-up on two idle cores.
func BenchmarkExploreMesh(b *testing.B) {
	mm, err := checkertest.MeshBench().Model()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("hand", func(b *testing.B) {
		var states, peak int64
		cpu0 := cpuSeconds()
		for b.Loop() {
			h := mm.HandBFS()
			states += h.States
			peak = h.PeakBytes
		}
		report(b, states, cpuSeconds()-cpu0, float64(peak)/4427776)
	})
	for _, store := range []checker.StoreMode{checker.Exact, checker.Fingerprint} {
		for _, w := range []int{1, 2} {
			b.Run(fmt.Sprintf("%v/workers=%d", store, w), func(b *testing.B) {
				var states int64
				var res *checker.Result[checkertest.MeshState]
				cpu0 := cpuSeconds()
				for b.Loop() {
					res, err = checker.Explore(mm, meshOpts{Workers: w, Store: store})
					if err != nil || res.Verdict != checker.Holds {
						b.Fatalf("Explore: %v %v", res, err)
					}
					states += res.Stats.States
				}
				report(b, states, cpuSeconds()-cpu0, res.Stats.BytesPerState)
			})
		}
	}
}

func report(b *testing.B, states int64, cpu, bytesPerState float64) {
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
	if cpu > 0 {
		b.ReportMetric(float64(states)/cpu, "states/cpu-s")
	}
	b.ReportMetric(bytesPerState, "bytes/state")
}
