package check_test

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/algos/plan"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props/check"
)

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
	// violated flit 90 states
	// replayed: violated
}

// A schedule of your own, built with algos/plan, judged through the entry: two unicasts
// from (0,0) along one row, the longer one first, are depth contention-free for every
// ts, tr, tc and L — but not when unicasts may take any time (the any-delay semantics).
func ExampleRunSchedule() {
	g, _ := model.NewMesh(4, 4)
	b := plan.New(model.NewDOR(g), model.AllPort, []model.NodeID{0}, []model.NodeID{2, 3})
	b.Send(0, 3, 1)
	b.Send(0, 2, 2)
	for _, prop := range []string{"depth", "any-delay"} {
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
