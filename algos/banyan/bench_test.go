package banyan

import (
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
)

// BenchmarkTheorem1N16 measures the exhaustive MN4 check: 2^16 destination sets x every
// start on N = 16.
func BenchmarkTheorem1N16(b *testing.B) {
	bn, _ := topology.NewBanyan(16)
	t, _ := NewPathTable(bn, 0)
	for b.Loop() {
		if r, _ := CheckTheorem1(t, false); r.Verdict != checker.Holds {
			b.Fatal(r)
		}
	}
}

// BenchmarkExploreFig4UpperFirst measures checker.Explore on the MN6 instance (Fig. 4,
// every start pair, lockstep, upper-first).
func BenchmarkExploreFig4UpperFirst(b *testing.B) {
	bn, _ := topology.NewBanyan(16)
	msgs, _ := ParseMulticasts("1->5,6,7,8;15->7-12", 16)
	sys, _ := NewSystem(bn, msgs, Options{Arbitration: UpperFirst})
	var states int64
	for b.Loop() {
		r, err := checker.Explore[State](sys, checker.Options[State]{CheckDeadlock: true})
		if err != nil || r.Verdict != checker.Holds {
			b.Fatal(err, r.Verdict)
		}
		states = r.Stats.States
	}
	b.ReportMetric(float64(states)*float64(b.N)/b.Elapsed().Seconds(), "states/s")
}

// BenchmarkFastLockstepN8Pairs measures the fast simulator on MN6's N = 8 family: a fixed
// slice of message pairs with every start pair.
func BenchmarkFastLockstepN8Pairs(b *testing.B) {
	bn, _ := topology.NewBanyan(8)
	f, _ := NewFastLockstep(bn, nil, nil, UpperFirst)
	var msgs []Multicast
	for mask := 1; mask < 256; mask += 7 {
		m := Multicast{Source: mask % 8}
		for y := 0; y < 8; y++ {
			if mask>>y&1 == 1 {
				m.Dests = append(m.Dests, y)
			}
		}
		msgs = append(msgs, m)
	}
	inst := 0
	for b.Loop() {
		inst = 0
		for i := 0; i < len(msgs); i += 3 {
			for j := 0; j < len(msgs); j += 3 {
				a, c := msgs[i], msgs[j]
				for s1 := 0; s1+a.Fanout() <= 8; s1++ {
					for s2 := 0; s2+c.Fanout() <= 8; s2++ {
						f.Reset([]Multicast{a, c}, []int{s1, s2})
						if f.Deadlocks() {
							b.Fatal("deadlock")
						}
						inst++
					}
				}
			}
		}
	}
	b.ReportMetric(float64(inst)*float64(b.N)/b.Elapsed().Seconds(), "instances/s")
}
