package multinode

import (
	"os"
	"testing"

	"github.com/wormcheck/wormcheck/model"
)

// TestLatencyLoneUnicastExact: one multicast to one destination is one worm, so the
// flit-level latency equals the contention-free timed one, ts + hops + L (+ the phase 1
// hop for the partitioned schemes, which the timed model charges the same way).
func TestLatencyLoneUnicastExact(t *testing.T) {
	g, err := model.ParseGrid("torus:8x8")
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 4; seed++ {
		rows, err := MeasureLatency(g, 1, 1, 0, PaperSchemes(g), LatencyOptions{Ts: 300, L: 32, Seeds: []uint64{seed}})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range rows {
			if r.Mean != r.TimedMean || r.Makespan != r.Mean || r.Mean < 300+1+32 {
				t.Errorf("seed %d, %s: flit-level %v, makespan %v, timed %v", seed, r.Scheme, r.Mean, r.Makespan, r.TimedMean)
			}
		}
	}
}

// TestLatencyContentionOnlyDelays: on a loaded instance the flit-level latency is never
// below the contention-free timed model, under either processor model, and the shared
// processor is never faster than one per multicast.
func TestLatencyContentionOnlyDelays(t *testing.T) {
	g, err := model.ParseGrid("torus:8x8")
	if err != nil {
		t.Fatal(err)
	}
	opt := LatencyOptions{Ts: 300, L: 32, Seeds: []uint64{1, 2}}
	per, err := MeasureLatency(g, 24, 24, 0.25, PaperSchemes(g), opt)
	if err != nil {
		t.Fatal(err)
	}
	opt.SharedCPU = true
	shared, err := MeasureLatency(g, 24, 24, 0.25, PaperSchemes(g), opt)
	if err != nil {
		t.Fatal(err)
	}
	for k, r := range per {
		if r.Mean < r.TimedMean || r.Makespan < r.TimedMakespan || r.Makespan < r.Mean {
			t.Errorf("%s: flit-level mean %v makespan %v below contention-free %v / %v", r.Scheme, r.Mean, r.Makespan, r.TimedMean, r.TimedMakespan)
		}
		if shared[k].Mean < r.Mean {
			t.Errorf("%s: shared processor %v faster than one per multicast %v", r.Scheme, shared[k].Mean, r.Mean)
		}
	}
	if per[0].Mean <= per[0].TimedMean {
		t.Errorf("U-torus with 24 multicasts shows no contention delay (%v)", per[0].Mean)
	}
	t.Logf("\n%s", LatencyTable(per))
}

// TestLatencyTable16x16 is 001 §4.4's comparison (Fig. 5(a)-(d) sizes, Fig. 10 hot-spot
// factors) on a 16x16 torus with ts = 300, tc = 1, L = 32, three seeds: about a minute
// or two on a loaded machine, so it runs only with WORMCHECK_LATENCY=1 (and not -short).
//
// Measured (seeds 1-3, p = 0.25, one processor per multicast), mean latency in cycles,
// U-torus / 4IB / 4IIB / 4IIIB / 4IVB: m = 80: 8576 / 5340 / 7456 / 4920 / 5024;
// m = 240: 41050 / 19230 / 28335 / 20711 / 21723. Every scheme beats U-torus, Type III
// leads up to m = 200, III < IV and I < II at every m, but Types I and II are not slower
// than U-torus at 80 as 001 Fig. 5(a) reports. With one shared processor per node the
// partitioned schemes with h = 4 lose to U-torus from m = 120 on (their relays carry the
// start-ups), so the paper's ordering needs start-ups of different multicasts to overlap.
func TestLatencyTable16x16(t *testing.T) {
	if testing.Short() || os.Getenv("WORMCHECK_LATENCY") == "" {
		t.Skip("set WORMCHECK_LATENCY=1 (and drop -short) to run 001 §4.4's latency table")
	}
	g, err := model.ParseGrid("torus:16x16")
	if err != nil {
		t.Fatal(err)
	}
	seeds := []uint64{1, 2, 3}
	for _, shared := range []bool{false, true} {
		var rows []LatencyRow
		run := func(m int, p float64) {
			r, err := MeasureLatency(g, m, m, p, PaperSchemes(g), LatencyOptions{Ts: 300, L: 32, Seeds: seeds, SharedCPU: shared})
			if err != nil {
				t.Fatal(err)
			}
			for _, x := range r {
				if x.Mean < x.TimedMean {
					t.Errorf("%s m=%d p=%v: flit-level %v below contention-free %v", x.Scheme, m, p, x.Mean, x.TimedMean)
				}
			}
			rows = append(rows, r...)
		}
		for _, m := range []int{80, 120, 160, 200, 240} {
			run(m, 0.25)
		}
		for _, m := range []int{80, 112} {
			for _, p := range []float64{0.5, 0.8, 1} {
				run(m, p)
			}
		}
		t.Logf("shared processor %v:\n%s", shared, LatencyTable(rows))
	}
}
