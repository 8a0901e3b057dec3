package multinode_test

import (
	"fmt"

	"github.com/wormcheck/wormcheck/algos/multinode"
	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Example builds the three-phase multicast with Type I subnetworks (h = 4) for a random
// instance on the 16x16 torus and checks the schedule.
func Example() {
	g, _ := topology.NewTorus(16, 16)
	in, _ := multinode.Generate(g, multinode.GenOptions{Sources: 8, Dests: 20, Hotspot: 0.25, Seed: 3})
	plan, _ := multinode.Build(in, multinode.Options{Partition: partition.Params{Type: partition.TypeI, H: 4}})
	r := multinode.Check(g, plan.Schedule, plan.Dests)
	fmt.Printf("valid: %v, %d unicasts in %d steps\n", r.Invalid == "", len(plan.Schedule.Unicasts), r.Steps)
	// Output:
	// valid: true, 244 unicasts in 8 steps
}
