package checker_test

import (
	"fmt"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
)

// BenchmarkExplore explores Counters{N: 4, K: 32} (32^4 = 1,048,576 states, 4 bytes
// each) per iteration and reports states/s and store bytes/state. The "work" variants
// add about 2 µs of successor generation per state, where the parallel speed-up shows.
func BenchmarkExplore(b *testing.B) {
	for _, work := range []int{0, 400} {
		for _, store := range []checker.StoreMode{checker.Exact, checker.Fingerprint} {
			for _, w := range []int{1, 2} {
				b.Run(fmt.Sprintf("work=%d/%v/workers=%d", work, store, w), func(b *testing.B) {
					m := checkertest.Counters{N: 4, K: 32, Work: work}
					if work > 0 {
						m.K = 16 // 65,536 states: keep the run short
					}
					var res *checker.Result[checkertest.CountersState]
					var states int64
					for b.Loop() {
						var err error
						res, err = checker.Explore(m, counters{Workers: w, Store: store})
						if err != nil || res.Verdict != checker.Holds {
							b.Fatalf("Explore: %v %v", res, err)
						}
						states += res.Stats.States
					}
					b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
					b.ReportMetric(res.Stats.BytesPerState, "bytes/state")
				})
			}
		}
	}
}
