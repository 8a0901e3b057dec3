package sim

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

type smallConfig struct {
	Spec            string
	V, B, L, Ts, Tr int
	OnePort         bool
	Seed            uint64
}

func genSmall() gopter.Gen {
	return gopter.CombineGens(
		gen.OneConstOf("mesh:3x3", "mesh:4x2", "torus:3x3", "torus:4x4", "hypercube:3", "mesh:2x2x2"),
		gen.IntRange(1, 4), gen.IntRange(1, 3), gen.IntRange(1, 8), gen.IntRange(0, 3), gen.IntRange(0, 3),
		gen.Bool(), gen.UInt64Range(1, 1<<40),
	).Map(func(v []any) smallConfig {
		return smallConfig{v[0].(string), v[1].(int), v[2].(int), v[3].(int), v[4].(int), v[5].(int), v[6].(bool), v[7].(uint64)}
	})
}

// TestPropDrainedRunsConserveFlits: on random small configurations every generated
// message is delivered, every flit crosses exactly its route, and nothing deadlocks.
func TestPropDrainedRunsConserveFlits(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261121)
	params.MinSuccessfulTests = 60
	if testing.Short() {
		params.MinSuccessfulTests = 20
	}
	p := gopter.NewProperties(params)
	p.Property("drained runs deliver every flit", prop.ForAll(func(c smallConfig) string {
		g, err := topology.Parse(c.Spec)
		if err != nil {
			return err.Error()
		}
		V := max(c.V, topology.NewDOR(g).Classes())
		ports := model.AllPort
		if c.OnePort {
			ports = model.OnePort
		}
		tr := Traffic{Rate: 0.03, Multicast: 0.2, MinDests: 1, MaxDests: 3, HotSpot: 0.2, HotNode: topology.NodeID(c.Seed % uint64(g.Nodes()))}
		if c.Seed%2 == 0 {
			tr.Process = Bernoulli
		}
		if g.Kind() == topology.Hypercube {
			tr.Broadcast = 0.1
		}
		res, err := Run(Config{Grid: g, VCs: V, Buffer: c.B, Length: c.L, Ts: c.Ts, Tr: c.Tr, Ports: ports, Seed: c.Seed, Cycles: 600, StopSources: true, Traffic: tr})
		if err != nil {
			return err.Error()
		}
		if res.Completed != res.Generated || res.Undelivered != 0 || res.FlitHops != res.RouteFlitHops || res.Deadlocked {
			return fmt.Sprintf("%+v", *res)
		}
		if res.Unicast.N > 0 && res.Unicast.Mean < float64(c.Ts+1+c.L+c.Tr) {
			return fmt.Sprintf("mean unicast latency %v below the zero-load minimum", res.Unicast.Mean)
		}
		return ""
	}, genSmall()))
	p.Property("executor equals the timed model whenever no header waited", prop.ForAll(func(c smallConfig, k int) string {
		g, err := topology.Parse(c.Spec)
		if err != nil {
			return err.Error()
		}
		s := randomTree(g, k, c.Seed)
		if c.OnePort {
			s.Ports = model.OnePort
		}
		res, err := ExecuteSchedule(g, s, ScheduleOptions{Ts: c.Ts, Tr: c.Tr, L: c.L, Buffer: max(c.B, 2)})
		if err != nil {
			return err.Error()
		}
		want, err := TimedCompletion(s, g.Nodes(), c.Ts, c.Tr, c.L)
		if err != nil {
			return err.Error()
		}
		if res.FirstWait == nil && s.Ports == model.AllPort && res.Completion != want {
			return fmt.Sprintf("no contention but completion %d != timed %d", res.Completion, want)
		}
		if res.Completion < want {
			return fmt.Sprintf("completion %d below the contention-free time %d", res.Completion, want)
		}
		return ""
	}, genSmall(), gen.IntRange(1, 12)))
	p.TestingRun(t)
}

// randomTree builds a random unicast-based multicast: node 0 informs k random nodes, each
// new holder informing later ones, in DOR paths.
func randomTree(g *topology.Network, k int, seed uint64) *model.Schedule {
	r := topology.NewDOR(g)
	N := g.Nodes()
	k = min(k, N-1)
	s := &model.Schedule{Sources: []topology.NodeID{0}, Ports: model.AllPort}
	holders := []topology.NodeID{0}
	order := make([]int, N)
	x := seed
	for i := 1; i <= k; i++ {
		x = x*6364136223846793005 + 1442695040888963407
		from := holders[int(x>>33)%len(holders)]
		to := topology.NodeID(i)
		order[from]++
		s.Unicasts = append(s.Unicasts, model.Unicast{From: from, To: to, Path: r.Path(from, to), Step: 1, Order: order[from]})
		s.Destinations = append(s.Destinations, to)
		holders = append(holders, to)
	}
	return s
}
