package checker

import (
	"context"
	"runtime"
)

// The package's tests run small models, whose levels are narrower than parallelLevel
// and parallelMerge and whose tables are smaller than committedFrom; sharing every level
// and every merge and committing tables from 4 KiB keeps them on the paths (the shared
// table, key lowering, merges in parts, growth side by side) that large searches take.
// TestNarrowLevelsOneWorker checks the level threshold itself.
func init() { parallelLevel, parallelMerge, committedFrom = 1, 1, 1<<12 }

// LivenessGraphBytes builds m's liveness graph and returns its number of states and
// the bytes of Go heap it keeps alive (measured after a collection), for
// BenchmarkLiveness's bytes/state.
func LivenessGraphBytes[S any](m Model[S]) (int64, int64, error) {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	g, _, err := buildGraph(m, LivenessOptions{Context: context.Background()})
	if err != nil {
		return 0, 0, err
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(g)
	return int64(g.index.len()), int64(after.HeapAlloc) - int64(before.HeapAlloc), nil
}
