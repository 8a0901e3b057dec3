package treemcast

import (
	"syscall"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
)

// The tree-multicast benchmark instances, both on mesh:3x3 with 2-flit buffers and both
// deadlock-free (the whole reachable set is explored, the progress measure checked on
// every transition): TM1 is three multicasts without pruning (34,398 states), TM2 two
// 3-destination multicasts with on-stop pruning (19,432 states).
var (
	benchTM1 = benchInstance{"mesh:3x3", "(0,0)->(1,2),(2,1);(1,0)->(2,0),(0,1);(2,2)->(0,0)", 2, flit.PruneNone}
	benchTM2 = benchInstance{"mesh:3x3", "(0,0)->(2,0),(2,2),(0,2);(2,2)->(0,2),(0,0),(2,0)", 2, flit.PruneOnStop}
)

type benchInstance struct {
	topo, msgs string
	buffer     int
	prune      flit.Prune
}

func BenchmarkExploreTM1(b *testing.B) { benchCheck(b, benchTM1, checker.Exact) }
func BenchmarkExploreTM2(b *testing.B) { benchCheck(b, benchTM2, checker.Exact) }

// BenchmarkExploreTMFingerprint runs TM2 in the fingerprint store.
func BenchmarkExploreTMFingerprint(b *testing.B) { benchCheck(b, benchTM2, checker.Fingerprint) }

// instance builds the benchmark instance.
func (bi benchInstance) instance(b *testing.B) Instance {
	g := grid(b, bi.topo)
	msgs, err := ParseMsgs(g, bi.msgs)
	if err != nil {
		b.Fatal(err)
	}
	p := DefaultParams()
	p.Buffer, p.Prune = bi.buffer, bi.prune
	return Instance{Grid: g, Msgs: msgs, Params: p}
}

// benchCheck checks the instance for deadlocks with one worker and reports states per
// second of wall and of CPU time (the process's, garbage collection included) and the
// store's bytes per state.
func benchCheck(b *testing.B, bi benchInstance, store checker.StoreMode) {
	in := bi.instance(b)
	var states int64
	var bps float64
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		res, _, err := Check(in, CheckOptions{Prop: checker.PropDeadlock, Workers: 1, Store: store})
		if err != nil || res.Verdict == checker.Inconclusive {
			b.Fatal(err, res.Reason)
		}
		states += res.Stats.States
		bps = res.Stats.BytesPerState
		b.ReportMetric(float64(res.Stats.States), "states")
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(states), "cpu-ns/state")
	b.ReportMetric(bps, "store-bytes/state")
}

// cpuTime returns the process's user+system CPU time in nanoseconds (all threads, the
// garbage collector included).
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
