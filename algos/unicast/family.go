package unicast

import (
	"context"
	"fmt"
	"math/rand/v2"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props"
)

// Family is a set of unicast instances on one topology: placements of up to MaxWorms
// worms with distinct (src, dst) pairs (every canonical placement under the topology's
// symmetries, or Sample of them drawn with Seed when Sample > 0), each checked with
// every (Length, Buffer) in Params.
type Family struct {
	Topology string
	MaxWorms int
	MinWorms int
	Params   [][2]int // (Length, Buffer) pairs
	VCs      int
	Dateline Dateline
	Ports    model.PortModel
	Sample   int    // 0 = every placement; else this many random placements of MaxWorms worms
	Seed     uint64 // seed of the sample
	// MaxStates bounds each instance's search (0 = none); an instance that reaches it is
	// inconclusive.
	MaxStates int64
	// Store is the visited store of each instance's search (exact by default).
	Store checker.StoreMode
	// StopAtViolation ends the run at the first violated instance.
	StopAtViolation bool
	// Connected keeps only placements whose worms form one interaction component (see
	// Connected); with MinWorms <= 1 the others are decided by their components, which
	// are smaller placements of the same family.
	Connected bool
	// Routing is the members' routing relation (Spec.Routing; nil: dimension order with
	// Dateline). For a relation other than dimension order every placement is kept:
	// the symmetry reduction and Connected's components are computed on DOR paths, and
	// an adaptive worm may leave them.
	Routing routing.Relation
}

// FamilyResult sums a family run: instances checked, their verdict counts and states,
// and the first violation (its instance and search result), if any.
type FamilyResult struct {
	Instances    int
	Held         int
	Violated     int
	Inconclusive int
	States       int64
	Transitions  int64
	FirstSpec    *Spec
	First        *Result
	// Certificates counts the instances' delivery certificates.
	Certificates checker.Tally
	// CollisionBound sums the instances' fingerprint collision bounds (a union bound on
	// the probability that any instance missed states); 0 with the exact store.
	CollisionBound float64
}

// Verdict is Violated if any instance was, else Inconclusive if any was, else Holds.
func (r FamilyResult) Verdict() props.Verdict {
	switch {
	case r.Violated > 0:
		return props.Violated
	case r.Inconclusive > 0 || r.Instances == 0:
		return props.Inconclusive
	}
	return props.Holds
}

// MaxFamilyPlacements bounds the placements a family may enumerate (before symmetry and
// connectivity filtering), like treemcast.MaxFamilyPairs: beyond it the enumeration alone
// would take hours and its kept placements gigabytes (all-placements:4 on
// torus:1024x1024 has about 4e46).
const MaxFamilyPlacements = 50_000_000

// Enumerated returns how many placements of MinWorms..MaxWorms worms (at least 1) a
// family on a grid of n nodes enumerates before filtering: Σ_k C(P, k) with P = n(n-1)
// distinct (src, dst) pairs; for a sample, the sample size.
func (f Family) Enumerated(n int) float64 {
	if f.Sample > 0 {
		return float64(f.Sample)
	}
	p := float64(n) * float64(n-1)
	total, c := 0.0, 1.0
	for k := 1; k <= f.MaxWorms; k++ {
		c *= (p - float64(k) + 1) / float64(k) // C(P, k)
		if c <= 0 {
			break
		}
		if k >= max(f.MinWorms, 1) {
			total += c
		}
	}
	return total
}

// CheckSize refuses a family that enumerates more than MaxFamilyPlacements placements,
// naming its size.
func (f Family) CheckSize(g *model.Grid) error {
	if e := f.Enumerated(g.Nodes()); e > MaxFamilyPlacements {
		return fmt.Errorf("family of up to %d worms on %s enumerates %.3g placements; at most %d can be enumerated (fewer worms or a smaller network)",
			f.MaxWorms, g.Spec(), e, MaxFamilyPlacements)
	}
	return nil
}

// Placements returns the family's placements in their deterministic order.
func (f Family) Placements(g *model.Grid) [][]Pair {
	pairs := AllPairs(g.Nodes())
	var out [][]Pair
	r := model.NewDOR(g)
	if f.Sample > 0 {
		// Draw placements of MaxWorms distinct pairs; with Connected, redraw those that
		// are not (at most 1000 draws per placement kept, so it always ends).
		rng := rand.New(rand.NewPCG(f.Seed, 0x9e3779b97f4a7c15))
		for tries := 0; len(out) < f.Sample && tries < 1000*f.Sample; tries++ {
			perm := rng.Perm(len(pairs))
			ps := make([]Pair, 0, f.MaxWorms)
			for _, i := range perm[:min(f.MaxWorms, len(pairs))] {
				ps = append(ps, pairs[i])
			}
			if f.Connected && (f.Routing == nil || isDOR(f.Routing)) && !Connected(r, f.Ports, ps) {
				continue
			}
			out = append(out, ps)
		}
		return out
	}
	syms := Symmetries(g)
	dor := f.Routing == nil || isDOR(f.Routing)
	if !dor {
		syms = syms[:1]
	}
	Placements(pairs, f.MaxWorms, func(ps []Pair) bool {
		if len(ps) >= f.MinWorms && Canonical(ps, syms) && (!f.Connected || !dor || Connected(r, f.Ports, ps)) {
			out = append(out, append([]Pair(nil), ps...))
		}
		return true
	})
	return out
}

// Run checks every instance of the family for deadlocks (and the model's invariants).
func (f Family) Run(ctx context.Context) (FamilyResult, error) {
	var res FamilyResult
	sp := Spec{Topology: f.Topology}
	g, err := sp.Grid()
	if err != nil {
		return res, err
	}
	if err := f.CheckSize(g); err != nil {
		return res, err
	}
	for _, ps := range f.Placements(g) {
		for _, lb := range f.Params {
			if err := ctx.Err(); err != nil {
				return res, fmt.Errorf("family %s: %v", f.Topology, err)
			}
			sp := Spec{Topology: f.Topology, Pairs: ps, Length: lb[0], Buffer: lb[1], VCs: f.VCs, Dateline: f.Dateline, Ports: f.Ports, Routing: f.Routing}
			m, err := BuildOn(g, sp)
			if err != nil {
				return res, err
			}
			r := SearchWith(m, checker.Options[flit.State]{MaxStates: f.MaxStates, Store: f.Store, Context: ctx, Invariants: m.Invariants()})
			res.Instances++
			res.Certificates.Add(r.Certificate)
			res.CollisionBound += r.CollisionBound
			res.States += r.States
			res.Transitions += r.Transitions
			switch r.Verdict {
			case props.Holds:
				res.Held++
			case props.Violated:
				res.Violated++
				if res.First == nil {
					rr, spc := r, sp
					res.First, res.FirstSpec = &rr, &spc
				}
				if f.StopAtViolation {
					return res, nil
				}
			default:
				res.Inconclusive++
			}
		}
	}
	return res, nil
}

// Connected reports whether the worms of ps form one component of the interaction graph:
// two worms interact if their routes share a physical channel or, one-port, a source or a
// destination. Worms in different components never wait for each other (they share no
// virtual channel, buffer or port), so the flit model of ps deadlocks if and only if the
// model of one component does: a family containing every smaller placement need only
// check the connected ones.
func Connected(r model.DOR, ports model.PortModel, ps []Pair) bool {
	n := len(ps)
	if n <= 1 {
		return true
	}
	paths := make([][]model.ChannelID, n)
	for i, p := range ps {
		paths[i] = r.Path(p.Src, p.Dst)
	}
	touch := func(i, j int) bool {
		if ports == model.OnePort && (ps[i].Src == ps[j].Src || ps[i].Dst == ps[j].Dst) {
			return true
		}
		for _, a := range paths[i] {
			for _, b := range paths[j] {
				if a == b {
					return true
				}
			}
		}
		return false
	}
	seen := make([]bool, n)
	stack := []int{0}
	seen[0] = true
	for len(stack) > 0 {
		i := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for j := 0; j < n; j++ {
			if !seen[j] && touch(i, j) {
				seen[j] = true
				stack = append(stack, j)
			}
		}
	}
	for _, ok := range seen {
		if !ok {
			return false
		}
	}
	return true
}
