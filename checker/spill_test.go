package checker_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
)

// spilled is a model with a decoder, for searches with SpillDir.
type spilled[S any] interface {
	checker.Model[S]
	checker.Decoder[S]
}

// lazyDecoder is a model taking the SuccessorEncoder path that can also decode.
type lazyDecoder[S any] struct {
	lazy[S]
	checker.Decoder[S]
}

// sameWithSpill explores m with opt in memory and with SpillDir, for every store and
// worker count, and reports any difference in verdict, counts, depth or trace. It
// returns the in-memory result of the last run.
func sameWithSpill[S any](t *testing.T, name string, m spilled[S], opt checker.Options[S]) *checker.Result[S] {
	t.Helper()
	var a *checker.Result[S]
	for _, store := range []checker.StoreMode{checker.Exact, checker.Fingerprint} {
		for _, w := range []int{1, 2, 3} {
			opt.Store, opt.Workers, opt.SpillDir = store, w, ""
			a = explore(t, m, opt)
			dir := t.TempDir()
			opt.SpillDir = dir
			b := explore(t, m, opt)
			where := fmt.Sprintf("%s/%v/workers=%d", name, store, w)
			if a.Verdict != b.Verdict || a.Reason != b.Reason {
				t.Fatalf("%s: in memory %v (%s), spilled %v (%s)", where, a.Verdict, a.Reason, b.Verdict, b.Reason)
			}
			sa, sb := a.Stats, b.Stats
			if sa.States != sb.States || sa.Transitions != sb.Transitions || sa.Depth != sb.Depth {
				t.Fatalf("%s: in memory %d states, %d transitions, depth %d; spilled %d, %d, %d",
					where, sa.States, sa.Transitions, sa.Depth, sb.States, sb.Transitions, sb.Depth)
			}
			if sb.SpillBytes <= 0 {
				t.Errorf("%s: spilled search reports %d spill bytes", where, sb.SpillBytes)
			}
			if a.Violation != nil {
				va, vb := a.Violation, b.Violation
				if va.Kind != vb.Kind || va.Message != vb.Message || va.Trace.String() != vb.Trace.String() ||
					!slices.Equal(va.Trace.Actions(), vb.Trace.Actions()) {
					t.Fatalf("%s: in memory %s %q\n%s\nspilled %s %q\n%s", where, va.Kind, va.Message, va.Trace, vb.Kind, vb.Message, vb.Trace)
				}
			}
			if left, err := os.ReadDir(dir); err != nil || len(left) != 0 {
				t.Errorf("%s: the spill directory holds %d entries after the search (%v)", where, len(left), err)
			}
		}
	}
	return a
}

// TestSpillSameAsMemory checks that spilling the frontier and parent records to disk
// changes nothing: the same verdicts, state and transition counts, depths and traces,
// on violations (invariants, deadlocks, under symmetry and on the encoded-successor
// path) and complete searches.
func TestSpillSameAsMemory(t *testing.T) {
	ctr := checkertest.Counters{N: 3, K: 6}
	res := sameWithSpill[checkertest.CountersState](t, "counters/sum<9", ctr, counters{Invariants: []checker.Invariant[checkertest.CountersState]{checkertest.SumBelow(9)}})
	wantViolation(t, ctr, res, checker.KindInvariant, 9)
	res = sameWithSpill[checkertest.CountersState](t, "counters", ctr, counters{CheckDeadlock: true})
	if res.Verdict != checker.Holds || res.Stats.States != 216 {
		t.Errorf("counters: %v with %d states; want holds with 216", res.Verdict, res.Stats.States)
	}
	res = sameWithSpill[checkertest.CountersState](t, "counters/lazy", lazyDecoder[checkertest.CountersState]{lazy[checkertest.CountersState]{Model: ctr}, ctr},
		counters{Invariants: []checker.Invariant[checkertest.CountersState]{checkertest.SumBelow(7)}})
	wantViolation(t, ctr, res, checker.KindInvariant, 7)

	mesh, err := checkertest.MeshSmall().Model()
	if err != nil {
		t.Fatal(err)
	}
	mres := sameWithSpill[checkertest.MeshState](t, "mesh", mesh, meshOpts{CheckDeadlock: true})
	if mres.Verdict != checker.Holds || mres.Stats.States != 15552 {
		t.Errorf("mesh: %v with %d states; want holds with 15552", mres.Verdict, mres.Stats.States)
	}
	mres = sameWithSpill[checkertest.MeshState](t, "mesh/delivered", mesh, meshOpts{Invariants: []checker.Invariant[checkertest.MeshState]{checkertest.Delivered(2, 0, mesh)}})
	wantViolation(t, mesh, mres, checker.KindInvariant, 5)

	ring := checkertest.Ring{N: 5}
	rres := sameWithSpill[checkertest.RingState](t, "ring/symmetry", ring, checker.Options[checkertest.RingState]{Symmetry: true, Invariants: []checker.Invariant[checkertest.RingState]{checkertest.NotAllSet(5)}})
	wantViolation(t, ring, rres, checker.KindInvariant, 9)

	phil := checkertest.Philosophers{N: 4}
	for _, sym := range []bool{false, true} {
		pres := sameWithSpill[checkertest.PhilState](t, fmt.Sprintf("philosophers/symmetry=%v", sym), phil, checker.Options[checkertest.PhilState]{Symmetry: sym, CheckDeadlock: true})
		wantViolation(t, phil, pres, checker.KindDeadlock, 4)
	}
}

// TestSpillBounds checks that the bounds behave with SpillDir as in memory: a depth
// bound short of the whole space is inconclusive, one beyond it holds, and a state
// budget stops the search.
func TestSpillBounds(t *testing.T) {
	ctr := checkertest.Counters{N: 3, K: 6}
	res := sameWithSpill[checkertest.CountersState](t, "depth 3", ctr, counters{MaxDepth: 3})
	if res.Verdict != checker.Inconclusive {
		t.Errorf("depth 3: %v, want inconclusive", res.Verdict)
	}
	res = sameWithSpill[checkertest.CountersState](t, "depth 15", ctr, counters{MaxDepth: 15})
	if res.Verdict != checker.Holds {
		t.Errorf("depth 15: %v, want holds", res.Verdict)
	}
	res = explore(t, ctr, counters{MaxStates: 50, SpillDir: t.TempDir()})
	if res.Verdict != checker.Inconclusive {
		t.Errorf("state budget: %v, want inconclusive", res.Verdict)
	}
}

// undecodable is Counters whose Decode always fails.
type undecodable struct{ checkertest.Counters }

func (undecodable) Decode([]byte) (checkertest.CountersState, error) {
	return 0, errors.New("no")
}

// TestSpillRefuses checks the errors of a spilling search: a model without Decoder, a
// spill directory that does not exist and a Decode that fails.
func TestSpillRefuses(t *testing.T) {
	ctr := checkertest.Counters{N: 2, K: 3}
	if _, err := checker.Explore[checkertest.CountersState](lazy[checkertest.CountersState]{Model: ctr}, counters{SpillDir: t.TempDir()}); err == nil {
		t.Error("a model without Decoder was accepted")
	}
	if _, err := checker.Explore(ctr, counters{SpillDir: t.TempDir() + "/missing"}); err == nil {
		t.Error("a missing spill directory was accepted")
	}
	if _, err := checker.Explore[checkertest.CountersState](undecodable{ctr}, counters{SpillDir: t.TempDir()}); err == nil {
		t.Error("a failing Decode was not reported")
	}
}

var (
	spillN      = flag.Int("spill.n", 4, "BenchmarkSpillCounters: number of counters")
	spillK      = flag.Int("spill.k", 24, "BenchmarkSpillCounters: counter range (K^N states)")
	spillDir    = flag.String("spill.dir", "", "BenchmarkSpillCounters: spill directory (default: a temporary one)")
	spillMaxMem = flag.Int64("spill.maxmem", 0, "BenchmarkSpillCounters: MaxMemoryBytes (0: none)")
	spillProg   = flag.Bool("spill.progress", false, "BenchmarkSpillCounters: progress lines on stderr")
)

// BenchmarkSpillCounters is a fingerprint-mode search of Counters{N, K} (K^N states)
// with the frontier and parent records spilled to disk, two workers; a run larger than
// memory is
//
//	go test -run '^$' -bench SpillCounters -benchtime 1x -timeout 50m ./checker \
//	    -args -spill.n 5 -spill.k 56 -spill.maxmem 16000000000 -spill.progress
//
// (550,731,776 states). It reports states per wall and CPU second, the visited set's
// bytes per state, the spill files' bytes per state and the process's peak RSS.
func BenchmarkSpillCounters(b *testing.B) {
	m := checkertest.Counters{N: *spillN, K: *spillK}
	want := int64(1)
	for range m.N {
		want *= int64(m.K)
	}
	dir := *spillDir
	if dir == "" {
		dir = b.TempDir()
	}
	opt := counters{Workers: 2, Store: checker.Fingerprint, SpillDir: dir, MaxMemoryBytes: *spillMaxMem}
	if *spillProg {
		opt.Progress, opt.ProgressEvery = os.Stderr, 30*time.Second
	}
	var res *checker.Result[checkertest.CountersState]
	cpu0 := cpuSeconds()
	for b.Loop() {
		var err error
		res, err = checker.Explore(m, opt)
		if err != nil || res.Verdict != checker.Holds || res.Stats.States != want {
			b.Fatalf("Explore: %v %v (want holds with %d states)", res, err, want)
		}
	}
	states := float64(res.Stats.States) * float64(b.N)
	b.ReportMetric(states/b.Elapsed().Seconds(), "states/s")
	if cpu := cpuSeconds() - cpu0; cpu > 0 {
		b.ReportMetric(states/cpu, "states/cpu-s")
	}
	b.ReportMetric(res.Stats.BytesPerState, "bytes/state")
	b.ReportMetric(float64(res.Stats.SpillBytes)/float64(res.Stats.States), "spill-bytes/state")
	b.ReportMetric(float64(peakRSS()), "peak-rss-bytes")
}
