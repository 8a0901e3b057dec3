package proofs

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/analytic"
	"github.com/wormcheck/wormcheck/algos/dcf"
	"github.com/wormcheck/wormcheck/algos/sbt"
	"github.com/wormcheck/wormcheck/algos/unicastmc"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model/topology"
)

// zeroLoadGrid is the grid of timing parameters the flit-level runs are checked on; it
// includes the extremes ts = tr = 0 and L = 1.
var zeroLoadGrid = struct{ ts, tr, L []int }{[]int{0, 1, 7, 200}, []int{0, 3, 200}, []int{1, 8, 64}}

// Reference: 004 §6.1. DCF executed at flit level (real channel arbitration, one VC)
// completes exactly at 5k ts + 4(4^k-1)/3 tc + 2kL tc + 2k tr (and the 2·4^k form), no
// header ever waiting, on every point of the grid.
func TestDCFZeroLoadEqualsFormula(t *testing.T) {
	sides := []int{4, 8, 16, 32}
	if testing.Short() {
		sides = []int{4, 8, 16}
	}
	var rows []string
	for _, side := range sides {
		g, _ := topology.NewTorus(side, side)
		s, err := dcf.Build(g, 0)
		if err != nil {
			t.Fatal(err)
		}
		points, exact := 0, 0
		for _, ts := range zeroLoadGrid.ts {
			for _, tr := range zeroLoadGrid.tr {
				for _, L := range zeroLoadGrid.L {
					res, err := sim.ExecuteSchedule(g, s, sim.ScheduleOptions{Ts: ts, Tr: tr, L: L})
					if err != nil {
						t.Fatal(err)
					}
					f, err := analytic.BroadcastFormula("dcf", side, analytic.Timing{Ts: float64(ts), Tr: float64(tr), Tc: 1, L: float64(L)})
					if err != nil {
						t.Fatal(err)
					}
					points++
					if float64(res.Completion) == f && res.Contention == nil {
						exact++
					} else {
						t.Errorf("DCF %dx%d ts=%d tr=%d L=%d: simulated %d, formula %.0f, contention %+v", side, side, ts, tr, L, res.Completion, f, res.Contention)
					}
				}
			}
		}
		rows = append(rows, fmt.Sprintf("DCF torus:%dx%d: %d/%d grid points equal to the cycle", side, side, exact, points))
	}
	t.Log("\n" + strings.Join(rows, "\n"))
}

// Reference: 003 §2.2 with 004 §6.1's timing: the SBT broadcast (every unicast one hop)
// completes at n(ts + tc + L tc + tr) for every base dimension.
func TestSBTZeroLoadEqualsFormula(t *testing.T) {
	for n := 3; n <= 7; n++ {
		g, _ := topology.NewHypercube(n)
		for base := 0; base < n; base++ {
			s, err := sbt.Build(g, 0, base)
			if err != nil {
				t.Fatal(err)
			}
			for _, ts := range zeroLoadGrid.ts {
				for _, tr := range zeroLoadGrid.tr {
					for _, L := range zeroLoadGrid.L {
						res, err := sim.ExecuteSchedule(g, s, sim.ScheduleOptions{Ts: ts, Tr: tr, L: L})
						if err != nil {
							t.Fatal(err)
						}
						if want := int64(n * (ts + 1 + L + tr)); res.Completion != want || res.Contention != nil {
							t.Errorf("SBT n=%d base=%d ts=%d tr=%d L=%d: simulated %d, formula %d, contention %+v", n, base, ts, tr, L, res.Completion, want, res.Contention)
						}
					}
				}
			}
		}
	}
}

// Reference: 001 §4.2. One U-torus multicast executed at flit level equals the timed
// model (ts + h tc + L tc + tr per unicast, serialised sends) whenever no header waits,
// and exceeds 001's ceil(log2(1+|D|))(Ts + L Tc) by exactly the hop and receive terms the
// formula leaves out; the table logs both.
func TestUTorusZeroLoadAgainstFormula(t *testing.T) {
	g, _ := topology.NewTorus(8, 8)
	m := unicastmc.Multicast{Source: g.Node(4, 2), Destinations: []topology.NodeID{g.Node(0, 3), g.Node(1, 1), g.Node(2, 6), g.Node(3, 4), g.Node(5, 7), g.Node(6, 0), g.Node(6, 4)}}
	s, err := unicastmc.Build(g, unicastmc.UTorus, m)
	if err != nil {
		t.Fatal(err)
	}
	var rows []string
	for _, ts := range zeroLoadGrid.ts {
		for _, tr := range zeroLoadGrid.tr {
			for _, L := range zeroLoadGrid.L {
				res, err := sim.ExecuteSchedule(g, s, sim.ScheduleOptions{Ts: ts, Tr: tr, L: L})
				if err != nil {
					t.Fatal(err)
				}
				timed, err := sim.TimedCompletion(s, g.Nodes(), ts, tr, L)
				if err != nil {
					t.Fatal(err)
				}
				if res.Contention == nil && res.Completion != timed {
					t.Errorf("U-torus ts=%d tr=%d L=%d: simulated %d, timed model %d", ts, tr, L, res.Completion, timed)
				}
				f := analytic.UTorus(len(m.Destinations), analytic.Timing{Ts: float64(ts), Tc: 1, L: float64(L)})
				rows = append(rows, fmt.Sprintf("ts=%d tr=%d L=%d: simulated %d, timed %d, 001 formula %.0f, contention %v", ts, tr, L, res.Completion, timed, f, res.Contention != nil))
			}
		}
	}
	t.Log("\n" + strings.Join(rows, "\n"))
}
