// Package unicastmc builds the one-port unicast-based multicasts that 001 reviews and
// compares: separate addressing, U-mesh, U-torus and SPU, for one multicast or several
// concurrent ones (001's multi-node multicast).
//
// Node order (001 §4.2 step 1): p_{i,j} < p_{i',j'} if i < i', or i = i' and j < j'. We
// read p_{i,j} as the node with coordinate i in dimension 0 and j in dimension 1, so the
// most significant index is the dimension that dimension-order routing corrects first;
// that is the dimension-ordered chain of McKinley, Xu, Esfahanian & Ni (U-mesh: "Unicast-
// Based Multicast Communication in Wormhole-Routed Networks", IEEE TPDS 5(12), 1994),
// whose contention-freedom argument needs exactly this orientation. On more dimensions the
// order is lexicographic, dimension 0 first.
//
//   - Separate addressing (003 §2.2, 001 §1): the source sends to every destination, one
//     unicast per step, in chain order.
//   - U-mesh (McKinley et al. 1994, reviewed in 001 §5.1): sort {source} ∪ D into the chain
//     and run recursive doubling on it with the source at its own position: with the
//     current interval [left, right] and center = floor((left+right)/2), a holder in the
//     lower half sends to the first node of the upper half (center+1), a holder in the upper
//     half to the last node of the lower half (center); each keeps its own half.
//   - U-torus (Robinson, McKinley & Cheng, "Optimal Multicast Communication in Wormhole-
//     Routed Torus Networks", IEEE TPDS 6(10), 1995, reviewed in 001 §4.2): sort, then
//     left-rotate the chain so that the source leads, then recursive doubling (the source
//     sends to the node "located at the half of Seq", x_b = Seq[center+1]).
//   - SPU, source-partitioned U-mesh (Kesavan & Panda, reviewed in 001 §5.1): U-torus's
//     rotation applied on a mesh ("works exactly the same as the U-torus scheme, except
//     that now the platform is a mesh").
//
// All four are one-port: a node sends one unicast per step; recursive doubling informs
// 1+|D| nodes in ceil(log2(1+|D|)) steps.
//
// Finding (claim NP8): on a torus with shortest-path DOR (ties Plus), U-torus is not
// contention-free at the level of physical channels: a worm whose path wraps around leaves
// its chain interval and can share a channel with another worm of the same step. Every
// such pair found uses different virtual-channel classes of 004 Fig. 2 (p-channels before
// the wrap, h/l otherwise), consistent with Robinson et al.'s abstract, which credits "the
// use of virtual channels" for contention freedom.
package unicastmc

import (
	"fmt"
	"math/bits"
	"sort"
	"strings"

	"github.com/wormcheck/wormcheck/algos/plan"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Scheme names one of the four multicasts.
type Scheme uint8

// The schemes.
const (
	Separate Scheme = iota
	UMesh
	UTorus
	SPU
	// UTorusRelative sorts by coordinates relative to the source, (x_d - s_d) mod k_d,
	// lexicographic with dimension 0 first, instead of 001's "sort by absolute index, then
	// rotate": the two differ inside the source's row/column on a torus. It is our
	// comparison variant for claim NP8, not a scheme of the seeds.
	UTorusRelative
)

var schemeNames = [...]string{"separate", "umesh", "utorus", "spu", "utorus-relative"}

// String returns the CLI name of the scheme.
func (s Scheme) String() string {
	if int(s) < len(schemeNames) {
		return schemeNames[s]
	}
	return fmt.Sprintf("Scheme(%d)", s)
}

// ParseScheme reads a CLI name.
func ParseScheme(name string) (Scheme, error) {
	for i, n := range schemeNames {
		if strings.EqualFold(name, n) {
			return Scheme(i), nil
		}
	}
	return 0, fmt.Errorf("unknown multicast scheme %q; use %s", name, strings.Join(schemeNames[:], ", "))
}

// Multicast is one multicast: a source and its destination set.
type Multicast struct {
	Source       topology.NodeID
	Destinations []topology.NodeID
}

// Less reports whether a precedes b in the dimension-ordered chain (dimension 0 most
// significant).
func Less(g *topology.Network, a, b topology.NodeID) bool {
	for d := 0; d < g.Dims(); d++ {
		if x, y := g.Coord(a, d), g.Coord(b, d); x != y {
			return x < y
		}
	}
	return false
}

// Chain returns {source} ∪ dests sorted into the dimension-ordered chain (001 §4.2 step
// 1) and the source's index in it. Duplicates are removed.
func Chain(g *topology.Network, m Multicast) ([]topology.NodeID, int) {
	seen := map[topology.NodeID]bool{m.Source: true}
	list := []topology.NodeID{m.Source}
	for _, d := range m.Destinations {
		if !seen[d] {
			seen[d] = true
			list = append(list, d)
		}
	}
	sort.Slice(list, func(i, j int) bool { return Less(g, list[i], list[j]) })
	for i, v := range list {
		if v == m.Source {
			return list, i
		}
	}
	return list, 0
}

// Rotated returns the chain left-rotated so the source leads (001 §4.2 step 2).
func Rotated(g *topology.Network, m Multicast) []topology.NodeID {
	list, a := Chain(g, m)
	return append(append([]topology.NodeID(nil), list[a:]...), list[:a]...)
}

// relative returns {source} ∪ dests sorted by coordinates relative to the source.
func relative(g *topology.Network, m Multicast) []topology.NodeID {
	list, _ := Chain(g, m)
	key := func(v topology.NodeID, d int) int {
		k := g.Size(d)
		return ((g.Coord(v, d)-g.Coord(m.Source, d))%k + k) % k
	}
	sort.SliceStable(list, func(i, j int) bool {
		for d := 0; d < g.Dims(); d++ {
			if a, b := key(list[i], d), key(list[j], d); a != b {
				return a < b
			}
		}
		return false
	})
	return list
}

// check validates the instance for scheme s.
func check(g *topology.Network, s Scheme, m Multicast) error {
	if err := plan.CheckNode(g, "source", m.Source); err != nil {
		return err
	}
	for _, d := range m.Destinations {
		if err := plan.CheckNode(g, "destination", d); err != nil {
			return err
		}
		if d == m.Source {
			return fmt.Errorf("destination %s is the source", g.NodeName(d))
		}
	}
	if g.Kind() == topology.BanyanKind {
		return fmt.Errorf("topology %s: %v needs a mesh, torus or hypercube", g.Spec(), s)
	}
	return nil
}

// Build returns the schedule of one multicast under scheme s on g (one-port, DOR).
func Build(g *topology.Network, s Scheme, m Multicast) (*model.Schedule, error) {
	return BuildMany(g, s, []Multicast{m})
}

// BuildMany returns the schedule of several concurrent multicasts: unicast i belongs to
// group Group[i], group k being ms[k] (Sources[k], GroupDestinations[k]). With one
// multicast Group is nil. 001 §5.1: several U-mesh multicasts contend at nodes; SPU's
// rotation spreads them.
func BuildMany(g *topology.Network, s Scheme, ms []Multicast) (*model.Schedule, error) {
	return BuildManyStop(g, s, ms, nil)
}

// BuildManyStop is BuildMany that asks stop every plan.StopEvery sends whether to end
// early; then it returns a *plan.Stopped error saying
// how far it got. A nil stop never stops.
func BuildManyStop(g *topology.Network, s Scheme, ms []Multicast, stop func() bool) (*model.Schedule, error) {
	if len(ms) == 0 {
		return nil, fmt.Errorf("no multicast given")
	}
	var srcs []topology.NodeID
	var gd [][]topology.NodeID
	for _, m := range ms {
		if err := check(g, s, m); err != nil {
			return nil, err
		}
		srcs = append(srcs, m.Source)
		list, _ := Chain(g, m)
		var ds []topology.NodeID
		for _, v := range list {
			if v != m.Source {
				ds = append(ds, v)
			}
		}
		gd = append(gd, ds)
	}
	b := plan.New(topology.NewDOR(g), model.OnePort, srcs, gd[0])
	total := 0
	for _, ds := range gd {
		total += len(ds)
	}
	b.StopWhen(stop, total)
	for k, m := range ms {
		if b.Stopped() {
			break
		}
		send := func(from, to topology.NodeID, step int) {
			if len(ms) == 1 {
				b.Send(from, to, step)
			} else {
				b.SendGroup(from, to, step, k)
			}
		}
		switch s {
		case Separate:
			list, _ := Chain(g, m)
			step := 0
			for _, v := range list {
				if v != m.Source {
					step++
					send(m.Source, v, step)
				}
			}
		case UMesh:
			list, a := Chain(g, m)
			doubling(list, a, send)
		case UTorus, SPU:
			doubling(Rotated(g, m), 0, send)
		case UTorusRelative:
			doubling(relative(g, m), 0, send)
		default:
			return nil, fmt.Errorf("unknown scheme %v", s)
		}
	}
	out, err := b.Result()
	if err != nil {
		return nil, err
	}
	if len(ms) > 1 {
		out.GroupDestinations = gd
	}
	return out, nil
}

// doubling runs recursive doubling over list from the holder at index local: each holder
// handles its interval, halving it every step (McKinley et al. 1994, U-mesh). A holder's
// sends are emitted in step order (its Order numbering); intervals are processed depth
// first, which keeps every sender's sends in order.
func doubling(list []topology.NodeID, local int, send func(from, to topology.NodeID, step int)) {
	var run func(holder, left, right, step int)
	run = func(holder, left, right, step int) {
		for left < right {
			center := (left + right) / 2
			var target int
			if holder <= center {
				target = center + 1
				defer run(target, center+1, right, step+1)
				right = center
			} else {
				target = center
				defer run(target, left, center, step+1)
				left = center + 1
			}
			send(list[holder], list[target], step)
			step++
		}
	}
	run(local, 0, len(list)-1, 1)
}

// Steps returns ceil(log2(1+|D|)), the number of recursive-doubling steps for |D|
// destinations (separate addressing takes |D|).
func Steps(nd int) int {
	if nd <= 0 {
		return 0
	}
	return bits.Len(uint(nd))
}

// Formula returns 001 §4.2's U-torus latency for one multicast (citing Robinson et al.):
// T_ut = ceil(log2(1+|D|)) (Ts + L·Tc). It neglects the hop term h·Tc and the receiving
// latency of the timed model.
func Formula(nd int, ts, tc float64, L int) float64 {
	return float64(Steps(nd)) * (ts + float64(L)*tc)
}
