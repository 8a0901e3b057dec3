package unicast

import (
	"fmt"
	"math/rand/v2"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Family is a set of unicast placements on one topology, each to be checked with every
// (Length, Buffer) of Params: placements of MinWorms..MaxWorms worms with distinct (src,
// dst) pairs, every canonical placement under the topology's symmetries that preserve
// the routing, or Sample of them drawn with Seed when Sample > 0; or, when List is not
// nil, exactly the placements it lists. It enumerates members (Placements); the entry
// (props/check) checks them, on the family runner.
type Family struct {
	MaxWorms int
	MinWorms int
	Params   [][2]int // (Length, Buffer) pairs
	Sample   int      // 0 = every placement; else this many random placements of MaxWorms worms
	Seed     uint64   // seed of the sample
	// Connected keeps only placements whose worms form one interaction component (see
	// Connected for dimension order, Footprints for any other relation); with MinWorms
	// <= 1 the others are decided by their components, which are smaller placements of
	// the same family.
	Connected bool
	// List, when not nil, is the family's placements as its owner enumerated them, in
	// order, without reductions: MaxWorms, MinWorms, Sample, Seed and Connected are
	// then unused.
	List [][]Pair
}

// Algorithm is the algorithm name unicast family results carry.
const Algorithm = "unicast"

// FamilyParams are the parameters every shard of one unicast family run must share:
// those of every member's instance but its worms, and the property.
type FamilyParams struct {
	// Sizes lists the (length, buffers) each placement is checked with, in order.
	Sizes     [][2]int         `json:"length_buffers"`
	VCs       int              `json:"vcs"`
	Dateline  string           `json:"dateline"`
	Ports     string           `json:"ports"`
	Routing   string           `json:"routing,omitempty"`
	Property  checker.Property `json:"property"`
	MaxStates int64            `json:"max_states,omitempty"`
	// Store is "fingerprint" for a run in fingerprint mode, empty for the exact store.
	Store     string `json:"store,omitempty"`
	Reduction string `json:"reduction,omitempty"`
}

// FamilyRecord is the kept result of a unicast family run (family.Result): members
// checked with verdict and counts, shard, parameters and the shortest violation's
// trace; `wormcheck merge` joins the records of disjoint shards.
type FamilyRecord = family.Result[FamilyParams]

// ParseFamilyRecord decodes a unicast family result file and checks its format.
func ParseFamilyRecord(data []byte) (*FamilyRecord, error) {
	return family.ParseResult[FamilyParams](data, Algorithm)
}

// MergeFiles reads the unicast family results that `check --algo unicast --family ...
// --shard i/n --result F` wrote for disjoint shards of one run, with read, in order, and
// merges them (family.Merge); an error names the file at fault.
func MergeFiles(files []string, read func(string) ([]byte, error)) (*FamilyRecord, error) {
	return family.MergeFiles[FamilyParams](files, read, Algorithm)
}

// Spec names the family: "all-placements:K" for every connected placement of 1..K
// worms (the command line's --family), "placements:list,N" for a list of N, otherwise
// "placements:MIN-MAX" with ",connected" and ",sample=N,seed=S" as they apply.
func (f Family) Spec() string {
	if f.List != nil {
		return fmt.Sprintf("placements:list,%d", len(f.List))
	}
	lo := max(f.MinWorms, 1)
	if lo == 1 && f.Connected && f.Sample == 0 {
		return fmt.Sprintf("all-placements:%d", f.MaxWorms)
	}
	s := fmt.Sprintf("placements:%d-%d", lo, f.MaxWorms)
	if f.Connected {
		s += ",connected"
	}
	if f.Sample > 0 {
		s += fmt.Sprintf(",sample=%d,seed=%d", f.Sample, f.Seed)
	}
	return s
}

// RecordParams are the parameters a kept result of f records: those of tmpl (the
// members' instance but their worms), the property and the search's bound, store and
// reduction ("" for none).
func (f Family) RecordParams(tmpl Spec, property checker.Property, maxStates int64, store checker.StoreMode, reduction string) FamilyParams {
	p := FamilyParams{Sizes: f.Params, VCs: tmpl.VCs, Dateline: tmpl.Dateline.String(), Ports: portsName(tmpl.Ports), Property: property,
		MaxStates: maxStates, Reduction: reduction}
	if p.Sizes == nil {
		p.Sizes = [][2]int{}
	}
	if dl, ok := datelineOf(tmpl.Routing); ok {
		p.Dateline = dl.String() // as ParamsOf saves dimension order
	} else if tmpl.Routing != nil {
		p.Routing = tmpl.Routing.Name()
	}
	if store == checker.Fingerprint {
		p.Store = store.String()
	}
	return p
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
	if f.List != nil {
		return float64(len(f.List))
	}
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
func (f Family) CheckSize(g *topology.Network) error {
	if e := f.Enumerated(len(g.Endpoints())); e > MaxFamilyPlacements {
		return fmt.Errorf("family of up to %d worms on %s enumerates %.3g placements; at most %d can be enumerated (fewer worms or a smaller network)",
			f.MaxWorms, g.Spec(), e, MaxFamilyPlacements)
	}
	return nil
}

// PlacementCount counts, per number of worms k (index k), the placements a family
// enumerated, those left after the symmetry reduction (one per class), and those kept
// after the component reduction (Connected); a sample counts its draws as enumerated
// and canonical, and the connected ones it kept.
type PlacementCount struct {
	Enumerated, Canonical, Kept []int
}

// Placements returns the family's placements in their deterministic order, with their
// counts, for members with tmpl's parameters (its VCs, dateline, port model and
// relation; nil for dimension order).
//
// The symmetry reduction keeps one placement per class under the network automorphisms
// that preserve the relation: for dimension order, Symmetries; for any other relation,
// flit.GridSymmetries, which checks every candidate header by header, so that a
// placement and its images have isomorphic flit models. The component reduction
// (Connected) uses DOR routes for dimension order (package-level Connected) and the
// worms' footprints in the flit model for any other relation (NewFootprints).
func (f Family) Placements(g *topology.Network, tmpl Spec) ([][]Pair, PlacementCount, error) {
	if f.List != nil {
		return f.List, PlacementCount{}, nil
	}
	pairs := EndpointPairs(g)
	var out [][]Pair
	cnt := PlacementCount{Enumerated: make([]int, f.MaxWorms+1), Canonical: make([]int, f.MaxWorms+1), Kept: make([]int, f.MaxWorms+1)}
	_, isDOR := datelineOf(tmpl.Routing)
	dor := tmpl.Routing == nil || isDOR
	r := topology.NewDOR(g)
	connected := func([]Pair) bool { return true }
	if f.Connected && dor {
		connected = func(ps []Pair) bool { return Connected(r, tmpl.Ports, ps) }
	} else if f.Connected {
		t := tmpl
		t.Topology, t.Pairs, t.Length, t.Buffer = g.Spec(), nil, 1, 1
		fp, err := NewFootprints(g, t, f.Params, pairs)
		if err != nil {
			return nil, cnt, fmt.Errorf("family on %s: %w", g.Spec(), err)
		}
		connected = fp.Connected
	}
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
			cnt.Enumerated[len(ps)]++
			cnt.Canonical[len(ps)]++
			if !connected(ps) {
				continue
			}
			cnt.Kept[len(ps)]++
			out = append(out, ps)
		}
		return out, cnt, nil
	}
	var syms [][]topology.NodeID
	if dor {
		syms = Symmetries(g)
	} else {
		for _, s := range flit.GridSymmetries(g, tmpl.Routing) {
			syms = append(syms, s.Node)
		}
	}
	Placements(pairs, f.MaxWorms, func(ps []Pair) bool {
		if len(ps) < f.MinWorms {
			return true
		}
		cnt.Enumerated[len(ps)]++
		if !Canonical(ps, syms) {
			return true
		}
		cnt.Canonical[len(ps)]++
		if connected(ps) {
			cnt.Kept[len(ps)]++
			out = append(out, append([]Pair(nil), ps...))
		}
		return true
	})
	return out, cnt, nil
}

// Connected reports whether the worms of ps form one component of the interaction graph:
// two worms interact if their routes share a physical channel or, one-port, a source or a
// destination. Worms in different components never wait for each other (they share no
// virtual channel, buffer or port), so the flit model of ps deadlocks if and only if the
// model of one component does: a family containing every smaller placement need only
// check the connected ones.
func Connected(r topology.DOR, ports model.PortModel, ps []Pair) bool {
	n := len(ps)
	if n <= 1 {
		return true
	}
	paths := make([][]topology.ChannelID, n)
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
