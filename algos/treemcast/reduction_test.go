package treemcast

import (
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TestVerdictsKeptByLocalDeadlockAndReduction: on every member of pairs:2:ordered on mesh:2x2
// (TM1/TM2's family at its smallest) under every pruning policy, the global-deadlock
// verdict without reduction equals the local-deadlock verdict with partial-order
// reduction, and the reduction never visits more states.
func TestVerdictsKeptByLocalDeadlockAndReduction(t *testing.T) {
	g, err := topology.Parse("mesh:2x2")
	if err != nil {
		t.Fatal(err)
	}
	f, err := ParseFamily(g, "pairs:2:ordered")
	if err != nil {
		t.Fatal(err)
	}
	violated, members := 0, 0
	for _, p := range []flit.Prune{flit.PruneNone, flit.PruneOnNoFree, flit.PruneOnStop, flit.PrunePartial} {
		params := Params{Prune: p, Length: 1, Buffer: 1, Ports: flit.OnePort}
		for _, mb := range f.Members() {
			in := Instance{Grid: g, Msgs: mb.Pair[:], Params: params}
			global, _, err := Check(in, CheckOptions{Prop: checker.PropGlobalDeadlock})
			if err != nil {
				t.Fatal(err)
			}
			local, _, err := Check(in, CheckOptions{Prop: checker.PropDeadlock, Reduction: true})
			if err != nil {
				t.Fatal(err)
			}
			members++
			if global.Verdict != local.Verdict {
				t.Fatalf("%s, %s: global %v, local with reduction %v", in, p, global.Verdict, local.Verdict)
			}
			if local.Stats.States > global.Stats.States {
				t.Fatalf("%s, %s: reduced search %d states, full %d", in, p, local.Stats.States, global.Stats.States)
			}
			if global.Verdict == checker.Violated {
				violated++
			}
		}
	}
	if violated == 0 {
		t.Fatal("no member deadlocked: the comparison saw no violation")
	}
	t.Logf("%d members, %d violated", members, violated)
}
