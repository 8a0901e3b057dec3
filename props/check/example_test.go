package check_test

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/algos/plan"
	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/check"
)

// The same ring through the typed entry: the topology and the worms are values, not
// strings, and the property is one of props' names.
func ExampleUnicast_Check() {
	g, _ := topology.Parse("torus:4")
	u := check.Unicast{Grid: g, Spec: unicast.Spec{
		Pairs:    []unicast.Pair{{Src: 0, Dst: 2}, {Src: 1, Dst: 3}, {Src: 2, Dst: 0}, {Src: 3, Dst: 1}},
		Dateline: unicast.DatelineOff,
	}}
	rep, err := u.Check(context.Background(), checker.PropDeadlock, check.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Verdict, rep.Stats.States, "states")
	u.Spec.Dateline = unicast.DatelineOn
	rep, _ = u.Check(context.Background(), checker.PropDeadlock, check.Options{})
	fmt.Println("with dateline classes:", rep.Verdict)
	// Output:
	// violated 74 states
	// with dateline classes: holds
}

// Tree multicast without pruning deadlocks on a 2x2 mesh (000 Fig. 3, claim TM1); with
// pruning wherever a branch stops (000 Lemma 1) it does not.
func ExampleTreeMulticast_Check() {
	g, _ := topology.NewMesh(2, 2)
	ms, _ := treemcast.ParseMsgs(g, "(0,0)->(1,0),(0,1);(1,1)->(0,1),(1,0)")
	for _, pr := range []flit.Prune{flit.PruneNone, flit.PruneOnStop} {
		t := check.TreeMulticast{Instance: treemcast.Instance{Grid: g, Msgs: ms,
			Params: treemcast.Params{Prune: pr, Length: 1, Buffer: 1, Ports: flit.OnePort}}}
		rep, err := t.Check(context.Background(), checker.PropDeadlock, check.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(pr, rep.Verdict)
	}
	// Output:
	// none violated
	// on-stop holds
}

// Two multicasts of 002 Fig. 4 on the 16-node banyan deadlock under free arbitration
// (claim MN5) from the starts 5 and 7.
func ExampleTwoPhase_Check() {
	b, _ := topology.NewBanyan(16)
	ms, _ := banyan.ParseMulticasts("1->5,6,7,8;15->7-12", 16)
	t := check.TwoPhase{Banyan: b, Msgs: ms, Options: banyan.Options{Starts: []int{5, 7}}}
	rep, err := t.Check(context.Background(), checker.PropDeadlock, check.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Verdict, rep.Witness.Kind)
	// Output:
	// violated trace
}

// Four worms chase each other around a 4-node ring without dateline virtual channels
// (Dally & Seitz): the entry finds the deadlock, with a shortest trace that replays.
func ExampleRun() {
	rep, err := check.Run(context.Background(), check.Instance{
		Algorithm: "unicast",
		Topology:  "torus:4",
		Params:    map[string]string{"msgs": "0->2,1->3,2->0,3->1", "dateline": "off"},
	}, "deadlock", check.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(rep.Verdict, rep.Semantics, rep.Stats.States, "states")
	again, _ := check.Replay(context.Background(), rep.Trace)
	fmt.Println("replayed:", again.Verdict)
	// Output:
	// violated flit 74 states
	// replayed: violated
}

// A schedule of your own, built with algos/plan, judged through the entry: two unicasts
// from (0,0) along one row, the longer one first, are depth contention-free for every
// ts, tr, tc and L — but not when unicasts may take any time (the any-delay semantics).
func ExampleRunSchedule() {
	g, _ := topology.NewMesh(4, 4)
	b := plan.New(topology.NewDOR(g), model.AllPort, []topology.NodeID{0}, []topology.NodeID{2, 3})
	b.Send(0, 3, 1)
	b.Send(0, 2, 2)
	for _, prop := range []checker.Property{checker.PropDepth, checker.PropAnyDelay} {
		rep, err := check.RunSchedule(context.Background(), b.Schedule(), prop, check.Options{})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Println(rep.Property, rep.Semantics, rep.Verdict)
	}
	// Output:
	// depth timed holds
	// any-delay any-delay violated
}

// The registry says what each algorithm can be checked for, and its parameters.
func ExampleLookup() {
	a, _ := check.Lookup("unicast")
	for _, s := range a.Properties {
		fmt.Println(s.Property, "in the", s.Semantics, "semantics")
	}
	for _, p := range a.Params[:3] {
		fmt.Printf("--%s (default %q)\n", p.Name, p.Default)
	}
	// Output:
	// deadlock in the flit semantics
	// global-deadlock in the flit semantics
	// liveness in the flit semantics
	// --msgs (default "")
	// --length (default "2")
	// --buffers (default "1")
}
