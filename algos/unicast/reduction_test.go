package unicast

import (
	"fmt"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestVerdictsKeptByLocalDeadlockAndReduction: over every placement of up to three
// worms on small networks (four on the 2x2 mesh and the ring, where they deadlock) (DOR with and without dateline classes, minimal adaptive,
// turn models), the verdict of the global-deadlock search without reduction equals the
// verdict with local-deadlock detection and with partial-order reduction, and the local
// witness is never longer than the global one.
func TestVerdictsKeptByLocalDeadlockAndReduction(t *testing.T) {
	cases := []struct {
		topo, routing string
		dateline      Dateline
		worms         int
	}{
		{"mesh:2x2", "adaptive", DatelineAuto, 4},
		{"mesh:3x2", "adaptive", DatelineAuto, 2},
		{"mesh:3x2", "west-first", DatelineAuto, 2},
		{"torus:4", "", DatelineOff, 4},
		{"torus:4", "", DatelineOn, 2},
		{"mesh:2x2", "", DatelineAuto, 3},
	}
	if !testing.Short() {
		cases = append(cases, struct {
			topo, routing string
			dateline      Dateline
			worms         int
		}{"mesh:3x2", "adaptive", DatelineAuto, 3}, struct {
			topo, routing string
			dateline      Dateline
			worms         int
		}{"mesh:3x2", "odd-even", DatelineAuto, 3})
	}
	violated := 0
	for _, tc := range cases {
		g, err := topology.Parse(tc.topo)
		if err != nil {
			t.Fatal(err)
		}
		var rel routing.Relation
		if tc.routing != "" {
			if rel, err = routing.ByName(g, tc.routing); err != nil {
				t.Fatal(err)
			}
		}
		n := 0
		Placements(AllPairs(g.Nodes()), tc.worms, func(ps []Pair) bool {
			n++
			sp := Spec{Topology: g.Spec(), Pairs: append([]Pair(nil), ps...), Length: 2, Buffer: 1, Dateline: tc.dateline, Ports: model.AllPort, Routing: rel}
			m, err := BuildOn(g, sp)
			if err != nil {
				t.Fatal(err)
			}
			name := fmt.Sprintf("%s %s %s", tc.topo, tc.routing, FormatPairs(nil, ps))
			global := SearchWith(m, checker.Options[flit.State]{})
			local := SearchWith(m, checker.Options[flit.State]{CheckLocalDeadlock: true})
			reduced := SearchReduced(m, checker.Options[flit.State]{CheckLocalDeadlock: true})
			if global.Verdict != local.Verdict || global.Verdict != reduced.Verdict {
				t.Fatalf("%s: global %v, local %v, reduced %v", name, global.Verdict, local.Verdict, reduced.Verdict)
			}
			if global.Verdict == checker.Violated {
				violated++
				if len(local.Actions()) > len(global.Actions()) {
					t.Fatalf("%s: local witness %d steps, global %d", name, len(local.Actions()), len(global.Actions()))
				}
			}
			if reduced.Reduction == "stubborn" && reduced.States > global.States {
				t.Fatalf("%s: reduced search %d states, full %d", name, reduced.States, global.States)
			}
			return true
		})
		t.Logf("%s %s up to %d worms: %d placements", tc.topo, tc.routing, tc.worms, n)
	}
	if violated == 0 {
		t.Fatal("no placement deadlocked: the comparison saw no violation")
	}
	t.Logf("%d violated placements", violated)
}
