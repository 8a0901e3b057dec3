package multinode

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/wormcheck/wormcheck/model/topology"
)

// Multicast is one (s_i, M_i, D_i) of a multi-node multicast instance: the source and its
// destinations (the message itself plays no part in a schedule).
type Multicast struct {
	Source topology.NodeID
	Dests  []topology.NodeID
}

// Instance is a multi-node multicast {(s_i, M_i, D_i), i = 1..m} on a grid.
type Instance struct {
	Grid       *topology.Network
	Multicasts []Multicast
}

// Validate reports the first multicast whose source or destinations do not exist, or
// whose destinations repeat.
func (in Instance) Validate() error {
	if in.Grid == nil {
		return fmt.Errorf("multinode: instance has no grid")
	}
	n := topology.NodeID(in.Grid.Nodes())
	for i, m := range in.Multicasts {
		if m.Source < 0 || m.Source >= n {
			return fmt.Errorf("multinode: multicast %d: source %d does not exist", i, m.Source)
		}
		seen := map[topology.NodeID]bool{}
		for _, d := range m.Dests {
			if d < 0 || d >= n {
				return fmt.Errorf("multinode: multicast %d: destination %d does not exist", i, d)
			}
			if seen[d] {
				return fmt.Errorf("multinode: multicast %d: destination %s repeats", i, in.Grid.NodeName(d))
			}
			seen[d] = true
		}
	}
	return nil
}

// MaxDeliveries bounds sources x destinations of a generated instance.
const MaxDeliveries = 1 << 22

// GenOptions describe a random instance in the manner of 001 §4.4: Sources distinct
// random sources, each with Dests destinations of which round(Hotspot*Dests) are common
// to every multicast (the hot spots) and the rest random; Seed fixes everything.
type GenOptions struct {
	Sources int
	Dests   int
	Hotspot float64 // p in [0, 1]
	Seed    uint64
}

// Generate draws an instance. The hot-spot set is drawn once; a source that falls in it
// gets one more random destination instead of itself, so every D_i has exactly Dests
// nodes and never holds s_i. Destination lists are sorted. Cost O(m * N).
//
// Reference: 001 §4.4 (hot-spot factor p).
func Generate(g *topology.Network, opt GenOptions) (Instance, error) {
	n := g.Nodes()
	switch {
	case opt.Sources < 1 || opt.Sources > n:
		return Instance{}, fmt.Errorf("multinode: sources is %d; it must be 1..%d on %s", opt.Sources, n, g.Spec())
	case opt.Dests < 1 || opt.Dests > n-1:
		return Instance{}, fmt.Errorf("multinode: dests is %d; it must be 1..%d on %s", opt.Dests, n-1, g.Spec())
	case math.IsNaN(opt.Hotspot) || opt.Hotspot < 0 || opt.Hotspot > 1:
		return Instance{}, fmt.Errorf("multinode: hotspot is %v; it must be in [0, 1]", opt.Hotspot)
	case int64(opt.Sources)*int64(opt.Dests) > MaxDeliveries:
		return Instance{}, fmt.Errorf("multinode: %d sources x %d destinations exceed %d deliveries", opt.Sources, opt.Dests, int64(MaxDeliveries))
	case int64(opt.Sources)*int64(n) > 1<<28:
		return Instance{}, fmt.Errorf("multinode: %d sources on %d nodes is too large an instance to draw", opt.Sources, n)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, opt.Seed^0x9e3779b97f4a7c15))
	perm := rng.Perm(n)
	sources := perm[:opt.Sources]
	hot := rng.Perm(n)[:int(math.Round(opt.Hotspot*float64(opt.Dests)))]
	in := Instance{Grid: g}
	for _, s := range sources {
		src := topology.NodeID(s)
		in2 := make([]bool, n)
		var dests []topology.NodeID
		for _, h := range hot {
			if topology.NodeID(h) != src {
				in2[h] = true
				dests = append(dests, topology.NodeID(h))
			}
		}
		for _, v := range rng.Perm(n) {
			if len(dests) == opt.Dests {
				break
			}
			if topology.NodeID(v) != src && !in2[v] {
				in2[v] = true
				dests = append(dests, topology.NodeID(v))
			}
		}
		slices.Sort(dests)
		in.Multicasts = append(in.Multicasts, Multicast{Source: src, Dests: dests})
	}
	return in, nil
}
