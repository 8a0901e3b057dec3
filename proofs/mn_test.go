package proofs

import (
	"context"
	"testing"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/props"
)

// TestSweepPairsFindsDeadlock shows that MN6's sweep can fail: with free arbitration
// the Fig. 4 family deadlocks, the witness is confirmed by the explorer and saved as a
// trace that replays, and the result does not depend on the worker count.
func TestSweepPairsFindsDeadlock(t *testing.T) {
	msgs, _ := banyan.ParseMulticasts(fig4, 16)
	gen := func(i int, yield func(a, c banyan.Multicast)) {
		yield(banyan.Multicast{Source: 1 + 14*i, Dests: msgs[0].Dests}, msgs[1])
	}
	var first banyan.PairSweep
	for _, w := range []int{1, 2} {
		sw, err := banyan.SweepPairs(context.Background(), banyan.Free, w, 16, 2, gen, nil)
		if err != nil || !sw.Found {
			t.Fatalf("workers %d: no deadlock with free arbitration (%v)", w, err)
		}
		if w == 1 {
			first = sw
		} else if sw.A.Source != first.A.Source || sw.S1 != first.S1 || sw.S2 != first.S2 || sw.Instances != first.Instances {
			t.Fatalf("sweep depends on workers: %+v vs %+v", sw, first)
		}
		o, stop := sweepOutcome(context.Background(), Env{Workers: 1, Meter: new(Meter)}, sw, nil, Outcome{})
		if !stop || o.Verdict != Violated || o.Files["json"] == nil {
			t.Fatalf("outcome %+v", o)
		}
		tf, err := tracefile.Parse(o.Files["json"])
		if err != nil {
			t.Fatal(err)
		}
		if ok, why, err := banyan.ReplayDeadlock(tf); err != nil || !ok {
			t.Fatalf("replay: %v %s", err, why)
		}
	}
	if sw, err := banyan.SweepPairs(context.Background(), banyan.UpperFirst, 2, 16, 2, gen, nil); err != nil || sw.Found || sw.Instances != 2*13*11 {
		t.Fatalf("upper-first: %+v %v", sw, err)
	}
}

func TestEnumerators(t *testing.T) {
	n := 0
	forSubsets(5, 2, func([]int) bool { n++; return true })
	if n != 10 {
		t.Fatalf("%d 2-subsets of 5", n)
	}
	n = 0
	forPermutations(4, 3, func([]int) bool { n++; return true })
	if n != 24 {
		t.Fatalf("%d 3-permutations of 4", n)
	}
	for d, want := range map[[3]int]bool{{1, 2, 3}: true, {3, 2, 1}: true, {1, 3, 2}: false} {
		if monotone(d[:]) != want {
			t.Errorf("monotone(%v) != %v", d, want)
		}
	}
}

// TestMN5Files checks that MN5's witness trace replays and its evidence is the banyan
// deadlock with its capture.
func TestMN5Files(t *testing.T) {
	o := runMN5(context.Background(), Env{Size: Quick, Workers: 1, Meter: new(Meter)})
	if o.Verdict != Violated {
		t.Fatalf("MN5: %s %v", o.Verdict, o.Err)
	}
	tf, err := tracefile.Parse(o.Files["json"])
	if err != nil {
		t.Fatal(err)
	}
	if ok, _, err := banyan.ReplayDeadlock(tf); !ok || err != nil {
		t.Fatalf("MN5 trace does not replay: %v", err)
	}
	if ev, ok := o.Evidence.(*props.BanyanEvidence); !ok || len(ev.Packets) == 0 || len(ev.Capture) == 0 {
		t.Fatalf("MN5 evidence %T: not a banyan deadlock with its capture", o.Evidence)
	}
}
