// Package sbt builds the spanning binomial tree (SBT) broadcast of 003 §2.2 on an
// all-port binary n-cube, and counts the tree's hop and replication distributions that
// 003's analytical model assumes (eqs. 3, 5, 6, 9, 10).
//
// The tree (003 §2.2, Fig. 2 missing; the standard recursive-doubling SBT of McKinley et
// al., and Abraham & Padmanabhan's rotating base dimension): dimensions are taken in the
// rotated order o_0 = base, o_1 = base+1, ..., o_(n-1) = base+n-1 (mod n). The source sends
// to its n neighbours in step 1; a node reached over o_k sends in the next step to its
// neighbours over o_(k+1), ..., o_(n-1). A node at Hamming distance i from the source
// receives in step i, so the broadcast takes n steps and every node receives exactly once.
// Every unicast is one hop, so e-cube routing (higher dimensions first, 003 §3 c) gives
// each the single channel between the two nodes; the routing order is recorded anyway.
package sbt

import (
	"fmt"
	"math/big"

	"github.com/wormcheck/wormcheck/algos/plan"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Build returns the SBT broadcast from src on the hypercube h with base dimension base
// (0..n-1). A node's sends are ordered by rotated dimension position.
func Build(h *topology.Network, src topology.NodeID, base int) (*model.Schedule, error) {
	return BuildStop(h, src, base, nil)
}

// BuildStop is Build that asks stop every plan.StopEvery sends whether to end early;
// then it returns a *plan.Stopped error saying how far it got. A nil stop never stops.
func BuildStop(h *topology.Network, src topology.NodeID, base int, stop func() bool) (*model.Schedule, error) {
	if h.Kind() != topology.Hypercube {
		return nil, fmt.Errorf("topology %s: SBT needs a hypercube", h.Spec())
	}
	n := h.Dims()
	if base < 0 || base >= n {
		return nil, fmt.Errorf("base dimension %d out of range; use 0..%d", base, n-1)
	}
	if err := plan.CheckNode(h, "source", src); err != nil {
		return nil, err
	}
	r := topology.DOR{Grid: h, Order: topology.DescendingOrder(n)}
	b := plan.New(r, model.AllPort, []topology.NodeID{src}, plan.AllBut(h, src))
	b.StopWhen(stop, h.Nodes()-1)
	type item struct {
		v    topology.NodeID
		from int // first rotated position this node sends over
	}
	cur := []item{{src, 0}}
	for step := 1; step <= n && !b.Stopped(); step++ {
		var next []item
		for _, it := range cur {
			if b.Stopped() {
				break
			}
			for k := it.from; k < n; k++ {
				d := (base + k) % n
				to := it.v ^ topology.NodeID(1<<d)
				b.Send(it.v, to, step)
				next = append(next, item{to, k + 1})
			}
		}
		cur = next
	}
	return b.Result()
}

// Distributions are counts over the tree's non-source nodes: Depth[i] nodes receive in
// step i (= hops from the source, i = 1..n), Replications[i] nodes send i copies
// (i = 0..n-1).
type Distributions struct {
	Depth        []int64
	Replications []int64
}

// Count tallies the distributions of a broadcast schedule (one source).
func Count(s *model.Schedule, n int) Distributions {
	d := Distributions{Depth: make([]int64, n+1), Replications: make([]int64, n)}
	sent := map[topology.NodeID]int{}
	for _, u := range s.Unicasts {
		d.Depth[u.Step]++
		sent[u.From]++
	}
	for _, u := range s.Unicasts {
		if c := sent[u.To]; c < n {
			d.Replications[c]++
		}
	}
	return d
}

// Eq5 returns p_i = C(n,i)/(2^n-1), 003 eq. (5): the probability that a message crosses i
// dimensions (i = 1..n); here read on the tree as the fraction of nodes at depth i.
func Eq5(n, i int) *big.Rat {
	return new(big.Rat).SetFrac(new(big.Int).Binomial(int64(n), int64(i)), big.NewInt(1<<n-1))
}

// Eq6 returns 003 eq. (6): the mean number of dimensions crossed, (n/2)·N/(N-1), N = 2^n.
func Eq6(n int) *big.Rat {
	N := int64(1) << n
	return new(big.Rat).SetFrac(big.NewInt(int64(n)*N), big.NewInt(2*(N-1)))
}

// Eq9 returns P_ri = 2^(n-i-1)/(2^n-1), 003 eq. (9): the probability that a node
// replicates the broadcast i times (i = 0..n-1).
func Eq9(n, i int) *big.Rat {
	return new(big.Rat).SetFrac(big.NewInt(1<<(n-i-1)), big.NewInt(1<<n-1))
}

// Eq10 returns 003 eq. (10): the mean number of replications,
// sum_{i=0}^{n-1} i·2^(n-i-1)/(2^n-1).
func Eq10(n int) *big.Rat {
	sum := new(big.Rat)
	for i := 0; i < n; i++ {
		sum.Add(sum, new(big.Rat).Mul(big.NewRat(int64(i), 1), Eq9(n, i)))
	}
	return sum
}

// Eq3Fraction returns (2^(n-1)-1)/(2^n-1), 003 §3.1 before eq. (3): the probability that
// a node other than the source replicates at all.
func Eq3Fraction(n int) *big.Rat {
	return new(big.Rat).SetFrac(big.NewInt(1<<(n-1)-1), big.NewInt(1<<n-1))
}
