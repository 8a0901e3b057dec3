package check_test

import (
	"context"
	"fmt"

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
