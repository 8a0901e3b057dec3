// Package gen holds typed gopter generators for wormcheck's property tests, so that a
// user's property test is a few lines: topologies, node sets, destination sets, message
// mixes (checked through props/check) and unicast schedules. Every constructor validates
// its options and returns an error naming the field instead of panicking; the
// generators' values have the Go type their Gen[T] names, and ForAll states a property
// over them without type assertions.
//
// This file generates unicast schedules: random causal broadcast-like schedules on small
// grids.
package gen

import (
	"fmt"
	"math/rand/v2"

	gg "github.com/leanovate/gopter/gen"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// ScheduleOptions shapes RandomSchedule. Zero fields take the defaults in brackets.
type ScheduleOptions struct {
	// Specs are the topologies to draw from [torus:4x4, torus:5x5, mesh:4x4, torus:6,
	// torus:3x4].
	Specs []string
	// MaxSteps bounds the steps [3]; MaxUnicasts bounds the unicasts [12]; MaxFanout
	// bounds the sends of one node per step [3].
	MaxSteps, MaxUnicasts, MaxFanout int
	// TwoSources allows a second source of the same message (more concurrency).
	TwoSources bool
	// OnePort allows one-port schedules (a quarter of them).
	OnePort bool
	// ShuffleOrders lets a node's send order disagree with its steps (a third of nodes).
	ShuffleOrders bool
}

func (o ScheduleOptions) withDefaults() ScheduleOptions {
	if len(o.Specs) == 0 {
		o.Specs = []string{"torus:4x4", "torus:5x5", "mesh:4x4", "torus:6", "torus:3x4"}
	}
	if o.MaxSteps <= 0 {
		o.MaxSteps = 3
	}
	if o.MaxUnicasts <= 0 {
		o.MaxUnicasts = 12
	}
	if o.MaxFanout <= 0 {
		o.MaxFanout = 3
	}
	return o
}

// RandomSchedule builds a random causal schedule from seed: each step, every informed
// node sends to up to MaxFanout random uninformed nodes along DOR paths; destinations
// are the nodes reached. It satisfies model.Schedule.Check and Definition 1 conditions
// 1, 2 and 4 (condition 3 may fail: a node may send twice through one first channel in
// a step). The same seed and options give the same schedule.
//
// An option that cannot be met (a spec that is not a mesh, torus or hypercube) is an
// error naming the field.
func RandomSchedule(seed uint64, o ScheduleOptions) (*model.Schedule, error) {
	grids, err := o.grids()
	if err != nil {
		return nil, err
	}
	return randomSchedule(seed, o.withDefaults(), grids), nil
}

// grids parses the options' topologies.
func (o ScheduleOptions) grids() ([]*topology.Network, error) {
	o = o.withDefaults()
	var out []*topology.Network
	for i, spec := range o.Specs {
		g, err := topology.Parse(spec)
		if err == nil {
			err = g.RequireDims("a schedule generator")
		}
		if err != nil {
			return nil, fmt.Errorf("gen: ScheduleOptions.Specs[%d]: %v", i, err)
		}
		out = append(out, g)
	}
	return out, nil
}

func randomSchedule(seed uint64, o ScheduleOptions, grids []*topology.Network) *model.Schedule {
	rng := rand.New(rand.NewPCG(seed, 7))
	g := grids[rng.IntN(len(grids))]
	r := topology.NewDOR(g)
	n := g.Nodes()
	src := topology.NodeID(rng.IntN(n))
	s := &model.Schedule{Topology: g, Sources: []topology.NodeID{src}}
	if o.OnePort && rng.IntN(4) == 0 {
		s.Ports = model.OnePort
	}
	informed := []topology.NodeID{src}
	has := make([]bool, n)
	has[src] = true
	if src2 := topology.NodeID(rng.IntN(n)); o.TwoSources && rng.IntN(2) == 0 && src2 != src {
		s.Sources = append(s.Sources, src2)
		informed = append(informed, src2)
		has[src2] = true
	}
	sends := make([][]int, n)
	steps := 1 + rng.IntN(o.MaxSteps)
	limit := 3 + rng.IntN(max(1, o.MaxUnicasts-2))
	for st := 1; st <= steps; st++ {
		for _, v := range append([]topology.NodeID(nil), informed...) {
			k := rng.IntN(o.MaxFanout + 1)
			for range k {
				if len(s.Unicasts) >= limit {
					break
				}
				w := topology.NodeID(rng.IntN(n))
				if has[w] {
					continue
				}
				has[w] = true
				informed = append(informed, w)
				sends[v] = append(sends[v], len(s.Unicasts))
				s.Unicasts = append(s.Unicasts, model.Unicast{From: v, To: w, Path: r.Path(v, w), Step: st})
				s.Destinations = append(s.Destinations, w)
			}
		}
	}
	for v := range n {
		list := sends[v]
		perm := make([]int, len(list))
		for i := range perm {
			perm[i] = i + 1
		}
		if o.ShuffleOrders && rng.IntN(3) == 0 {
			rng.Shuffle(len(perm), func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
		}
		for i, u := range list {
			s.Unicasts[u].Order = perm[i]
		}
	}
	return s
}

// Schedules is the generator of RandomSchedule(seed, o) over random seeds; bad options
// are an error.
func Schedules(o ScheduleOptions) (Gen[*model.Schedule], error) {
	grids, err := o.grids()
	if err != nil {
		return nil, err
	}
	o = o.withDefaults()
	return Gen[*model.Schedule](gg.UInt64().Map(func(seed uint64) *model.Schedule { return randomSchedule(seed, o, grids) })), nil
}
