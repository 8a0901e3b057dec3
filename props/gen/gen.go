package gen

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"github.com/leanovate/gopter"
	gg "github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Gen is a gopter generator whose values have type T. It is a gopter.Gen (convert with
// G, or gopter.Gen(g)) that says in its type what it yields.
type Gen[T any] gopter.Gen

// G returns g as a plain gopter generator, for prop.ForAll and gopter.CombineGens.
func (g Gen[T]) G() gopter.Gen { return gopter.Gen(g) }

// Sample draws one value with the given seed, outside gopter's runner (a failing
// property's seed reproduces its value). ok is false when the generator found none.
func (g Gen[T]) Sample(seed int64) (v T, ok bool) {
	x, ok := gopter.Gen(g)(gopter.DefaultGenParameters().CloneWithSeed(seed)).Retrieve()
	if !ok {
		return v, false
	}
	v, ok = x.(T)
	return v, ok
}

// ForAll states a property over the values of g: f returns "" when the property holds
// for v, else why it does not (gopter prints it with the failing value).
func ForAll[T any](g Gen[T], f func(v T) string) gopter.Prop {
	return prop.ForAll(f, gopter.Gen(g))
}

// Topologies generates grids among specs ("mesh:3x3", "torus:4x4", "hypercube:3"); a
// spec that is not a mesh, torus or hypercube is an error naming it.
func Topologies(specs ...string) (Gen[*topology.Network], error) {
	if len(specs) == 0 {
		return nil, fmt.Errorf("gen: Topologies needs at least one spec")
	}
	grids := make([]*topology.Network, len(specs))
	for i, s := range specs {
		g, err := topology.Parse(s)
		if err == nil {
			err = g.RequireDims("a generator")
		}
		if err != nil {
			return nil, fmt.Errorf("gen: Topologies spec %d: %v", i, err)
		}
		grids[i] = g
	}
	return Gen[*topology.Network](gg.IntRange(0, len(grids)-1).Map(func(i int) *topology.Network { return grids[i] })), nil
}

// NodeSets generates sets of min..max distinct nodes of g, in ascending order.
func NodeSets(g *topology.Network, min, max int) (Gen[[]topology.NodeID], error) {
	return subsets(g, topology.None, min, max, "NodeSets")
}

// DestinationSets generates sets of min..max distinct destinations of a multicast from
// src on g (src excluded), in ascending order.
func DestinationSets(g *topology.Network, src topology.NodeID, min, max int) (Gen[[]topology.NodeID], error) {
	if g == nil {
		return nil, fmt.Errorf("gen: DestinationSets: grid is nil")
	}
	if int(src) < 0 || int(src) >= g.Nodes() {
		return nil, fmt.Errorf("gen: DestinationSets: source %d is not a node of %s", src, g.Spec())
	}
	return subsets(g, src, min, max, "DestinationSets")
}

func subsets(g *topology.Network, except topology.NodeID, min, max int, who string) (Gen[[]topology.NodeID], error) {
	if g == nil {
		return nil, fmt.Errorf("gen: %s: grid is nil", who)
	}
	avail := g.Nodes()
	if except != topology.None {
		avail--
	}
	if min < 0 || max < min || max > avail {
		return nil, fmt.Errorf("gen: %s: sizes %d..%d do not fit %d nodes", who, min, max, avail)
	}
	return Gen[[]topology.NodeID](gg.UInt64().Map(func(seed uint64) []topology.NodeID {
		rng := rand.New(rand.NewPCG(seed, 11))
		return pick(rng, g.Nodes(), except, min+rng.IntN(max-min+1))
	})), nil
}

// pick draws k distinct nodes of 0..n-1 other than except, ascending.
func pick(rng *rand.Rand, n int, except topology.NodeID, k int) []topology.NodeID {
	perm := rng.Perm(n)
	out := make([]topology.NodeID, 0, k)
	for _, v := range perm {
		if len(out) == k {
			break
		}
		if topology.NodeID(v) != except {
			out = append(out, topology.NodeID(v))
		}
	}
	slices.Sort(out)
	return out
}

// Message is one message of a mix: a source and its destinations (one for a unicast).
type Message struct {
	Source topology.NodeID
	Dests  []topology.NodeID
}

// Mix is a message mix on a grid: what a flit-level check runs concurrently.
type Mix struct {
	Grid     *topology.Network
	Messages []Message
}

// String renders the mix in the --msgs syntax of tree-mcast ("(0,0)->(2,0),(2,2);...").
func (m Mix) String() string {
	var parts []string
	for _, x := range m.Messages {
		ds := make([]string, len(x.Dests))
		for i, d := range x.Dests {
			ds[i] = m.Grid.NodeName(d)
		}
		parts = append(parts, m.Grid.NodeName(x.Source)+"->"+strings.Join(ds, ","))
	}
	return strings.Join(parts, ";")
}

// Msgs renders the mix as the "msgs" parameter of an algorithm of the entry
// (props/check): "tree-mcast" takes any mix, "unicast" one whose messages have one
// destination each. A Go test checks it with
//
//	msgs, err := mix.Msgs("tree-mcast")
//	rep, err := check.Run(ctx, check.Instance{Algorithm: "tree-mcast",
//		Topology: mix.Grid.Spec(), Params: map[string]string{"msgs": msgs}}, "deadlock", opt)
func (m Mix) Msgs(algorithm string) (string, error) {
	switch algorithm {
	case "tree-mcast":
		return m.String(), nil
	case "unicast":
		var parts []string
		for i, x := range m.Messages {
			if len(x.Dests) != 1 {
				return "", fmt.Errorf("gen: message %d has %d destinations; unicast needs one", i, len(x.Dests))
			}
			parts = append(parts, m.Grid.NodeName(x.Source)+"->"+m.Grid.NodeName(x.Dests[0]))
		}
		return strings.Join(parts, ","), nil
	}
	return "", fmt.Errorf("gen: algorithm %q takes no message mix; use tree-mcast or unicast", algorithm)
}

// MixOptions shape Mixes: 1..MaxMessages messages, each with 1..MaxDests destinations
// (MaxDests 1: unicasts, with distinct (source, destination) pairs).
type MixOptions struct {
	MaxMessages int
	MaxDests    int
}

// Mixes generates message mixes on g.
func Mixes(g *topology.Network, o MixOptions) (Gen[Mix], error) {
	switch {
	case g == nil:
		return nil, fmt.Errorf("gen: Mixes: grid is nil")
	case o.MaxMessages < 1:
		return nil, fmt.Errorf("gen: MixOptions.MaxMessages is %d; it must be >= 1", o.MaxMessages)
	case o.MaxDests < 1 || o.MaxDests > g.Nodes()-1:
		return nil, fmt.Errorf("gen: MixOptions.MaxDests is %d; use 1..%d on %s", o.MaxDests, g.Nodes()-1, g.Spec())
	case o.MaxDests == 1 && o.MaxMessages > g.Nodes()*(g.Nodes()-1):
		return nil, fmt.Errorf("gen: MixOptions.MaxMessages is %d; %s has only %d distinct unicasts", o.MaxMessages, g.Spec(), g.Nodes()*(g.Nodes()-1))
	}
	return Gen[Mix](gg.UInt64().Map(func(seed uint64) Mix {
		rng := rand.New(rand.NewPCG(seed, 13))
		mix := Mix{Grid: g}
		seen := map[[2]topology.NodeID]bool{}
		for n := 1 + rng.IntN(o.MaxMessages); len(mix.Messages) < n; {
			src := topology.NodeID(rng.IntN(g.Nodes()))
			ds := pick(rng, g.Nodes(), src, 1+rng.IntN(o.MaxDests))
			if o.MaxDests == 1 {
				if seen[[2]topology.NodeID{src, ds[0]}] {
					continue
				}
				seen[[2]topology.NodeID{src, ds[0]}] = true
			}
			mix.Messages = append(mix.Messages, Message{Source: src, Dests: ds})
		}
		return mix
	})), nil
}
