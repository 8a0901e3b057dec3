package sim_test

import (
	"fmt"

	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// A unicast-based multicast executed at flit level: node 0 of a 4x4 mesh informs node 3,
// then both inform one more node each. Without contention every time equals the timed
// model ts + h + L + tr per unicast.
func ExampleExecuteSchedule() {
	g, _ := topology.NewMesh(4, 4)
	r := topology.NewDOR(g)
	u := func(from, to topology.NodeID, step, order int) model.Unicast {
		return model.Unicast{From: from, To: to, Path: r.Path(from, to), Step: step, Order: order}
	}
	s := &model.Schedule{Sources: []topology.NodeID{0}, Ports: model.AllPort, Unicasts: []model.Unicast{
		u(0, 3, 1, 1), u(0, 12, 2, 2), u(3, 15, 2, 1),
	}}
	res, _ := sim.ExecuteSchedule(g, s, sim.ScheduleOptions{Ts: 10, Tr: 5, L: 8})
	timed, _ := sim.TimedCompletion(s, g.Nodes(), 10, 5, 8)
	fmt.Println("completion", res.Completion, "timed model", timed, "contention", res.Contention != nil)
	// Output: completion 52 timed model 52 contention false
}

// Uniform traffic on a small mesh: mean latency with its 95% confidence half-width.
func ExampleRun() {
	g, _ := topology.NewMesh(4, 4)
	res, _ := sim.Run(sim.Config{Grid: g, Length: 8, Seed: 1, Warmup: 1000, Cycles: 20000, Traffic: sim.Traffic{Rate: 0.01}})
	fmt.Printf("unicast latency %.0f cycles, saturated %v\n", res.Unicast.Mean, res.Unicast.Mean > 100)
	// Output: unicast latency 11 cycles, saturated false
}
