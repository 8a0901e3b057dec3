package treemcast

import (
	"fmt"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
)

// benchTMScale is four tree multicasts on mesh:3x3 with 2-flit buffers and no pruning: 656,208 states,
// deadlock-free, with levels of tens of thousands of states that workers share (TM1 and
// TM2 are too small to share: their levels are narrower than the explorer's threshold).
var benchTMScale = benchInstance{"mesh:3x3", "(0,0)->(1,2),(2,1);(1,0)->(2,0),(0,1);(2,2)->(0,0);(0,2)->(2,0)", 2, flit.PruneNone}

// BenchmarkExploreTMScale is the tree-multicast benchmark for two workers against one
// (run it with -cpu 2), in both stores: the deadlock check with its progress measure,
// states per second of wall time and CPU nanoseconds per state.
func BenchmarkExploreTMScale(b *testing.B) {
	in := benchTMScale.instance(b)
	for _, w := range []int{1, 2} {
		for _, store := range []checker.StoreMode{checker.Exact, checker.Fingerprint} {
			b.Run(fmt.Sprintf("w%d/%v", w, store), func(b *testing.B) {
				var states int64
				cpu0 := cpuTime()
				for b.Loop() {
					res, _, err := Check(in, CheckOptions{Prop: checker.PropDeadlock, Workers: w, Store: store})
					if err != nil || res.Verdict != checker.Holds || res.Stats.States != 656208 {
						b.Fatalf("%v %v", res, err)
					}
					states += res.Stats.States
				}
				b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(states), "cpu-ns/state")
			})
		}
	}
}
