package flit

import (
	"syscall"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
)

// benchStates returns up to n reachable states of the WH1 benchmark instance (three
// worms of two flits on mesh:3x3, buffers of two), breadth-first.
func benchStates(b *testing.B, n int) (*Model, []State) {
	m := mustNew(b, NewGridConfig(grid(b, "mesh:3x3"), false, 1, 2, AllPort, unicasts(2, 0, 8, 8, 0, 2, 6)))
	seen := map[string]bool{}
	queue := m.Init()
	for i := 0; i < len(queue) && len(queue) < n; i++ {
		for _, t := range m.Successors(queue[i], nil) {
			if k := string(m.Encode(t.Next, nil)); !seen[k] {
				seen[k] = true
				queue = append(queue, t.Next)
			}
		}
	}
	return m, queue
}

// BenchmarkSuccessorsEncode is the plain explorer's per-state work: build every
// successor and encode it.
func BenchmarkSuccessorsEncode(b *testing.B) {
	m, states := benchStates(b, 2000)
	var dst []checker.Transition[State]
	var buf []byte
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for i := 0; b.Loop(); i++ {
		s := states[i%len(states)]
		dst = m.Successors(s, dst[:0])
		for _, t := range dst {
			buf = m.Encode(t.Next, buf[:0])
		}
	}
}

// BenchmarkEncodeSuccessors is the SuccessorEncoder path's per-state work: encode every
// successor on the scratch state, and build one (about the share of new states).
func BenchmarkEncodeSuccessors(b *testing.B) {
	m, states := benchStates(b, 2000)
	var buf []byte
	var first checker.Action
	yield := func(a checker.Action, enc []byte) {
		if first == 0 {
			first = a
		}
	}
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for i := 0; b.Loop(); i++ {
		s := states[i%len(states)]
		first = 0
		buf = m.EncodeSuccessors(s, buf, yield)
		if first != 0 {
			_ = m.Successor(s, first)
		}
	}
}

// reportCPU reports the process CPU time per op since cpu0 (garbage collection
// included), a figure less sensitive than wall time to other load on the machine.
func reportCPU(b *testing.B, cpu0 int64) {
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}

// BenchmarkExploreAdaptive explores the WH1 benchmark worms (three worms of two flits on
// mesh:3x3, buffers of two) under minimal fully adaptive routing with one VC, and the
// same worms under DOR, with one worker and the exact store (progress check on).
func BenchmarkExploreAdaptive(b *testing.B) {
	g := grid(b, "mesh:3x3")
	msgs := unicasts(2, 0, 8, 8, 0, 2, 6)
	for _, c := range []struct {
		name string
		cfg  Config
	}{
		{"adaptive", NewRelationConfig(minimalAdaptive{g, 1}, 0, 2, AllPort, msgs)},
		{"dor", NewGridConfig(g, false, 1, 2, AllPort, msgs)},
	} {
		b.Run(c.name, func(b *testing.B) {
			var states int64
			cpu0 := cpuTime()
			for b.Loop() {
				m := mustNew(b, c.cfg)
				res, err := checker.Explore[State](m, checker.Options[State]{CheckDeadlock: true})
				if err != nil || res.Verdict == checker.Inconclusive {
					b.Fatal(err, res.Reason)
				}
				states += res.Stats.States
				b.ReportMetric(float64(res.Stats.States), "states")
				b.ReportMetric(res.Stats.BytesPerState, "B/state")
			}
			b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
			b.ReportMetric(float64(states)/(float64(cpuTime()-cpu0)/1e9), "states/cpu-s")
		})
	}
}

// BenchmarkExploreSpinInstance explores the SPIN twin's instance (spinBench: five XY
// worms on mesh:4x4, L=2, B=2, 5,308,416 states) on the flit model itself, one worker,
// exact store, as BenchmarkSpinTwin does without running SPIN.
func BenchmarkExploreSpinInstance(b *testing.B) {
	var states int64
	cpu0 := cpuTime()
	for b.Loop() {
		m := spinBench(b)
		res, err := checker.Explore[State](m, checker.Options[State]{CheckDeadlock: true})
		if err != nil || res.Verdict != checker.Holds {
			b.Fatal(err, res.Reason)
		}
		states += res.Stats.States
		b.ReportMetric(res.Stats.BytesPerState, "B/state")
	}
	b.ReportMetric(float64(states)/b.Elapsed().Seconds(), "states/s")
	b.ReportMetric(float64(states)/(float64(cpuTime()-cpu0)/1e9), "states/cpu-s")
}
