package unicast

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
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
	// Connected for dimension order, Footprints for any other relation); with MinWorms
	// <= 1 the others are decided by their components, which are smaller placements of
	// the same family.
	Connected bool
	// Workers is the size of the member pool (checker.Sweep); 0 means 1. Each member's
	// search runs on one goroutine. Counts and verdicts do not depend on it.
	Workers int
	// Count, when not nil, is told the number of members first (total, 0, 0) and
	// then each finished member (0, 1, states), from Run's goroutine.
	Count func(total, done, states int64)
	// Progress, when not nil, receives the progress line of the run, labelled Label.
	Progress io.Writer
	Label    string
	// Member, when not nil, checks one member instead of Search (with MaxStates and the
	// model's invariants): the claims catalogue passes the one entry (props/check.Run)
	// here, which algos may not import. It is called from the pool's workers.
	Member func(ctx context.Context, sp Spec) (Result, error)
	// Routing is the members' routing relation (Spec.Routing; nil: dimension order with
	// Dateline). The reductions of Placements hold for any relation: symmetries are
	// checked against it and components are computed from the worms' footprints.
	Routing routing.Relation
	// Property is the property the members are checked for, as the kept result
	// (FamilyResult.Record) names it; empty: what Search checks without Member
	// (PropertyOf).
	Property string
	// Reduction names the reduction Member searches with ("stubborn"), as the kept
	// result records it; empty: none.
	Reduction string
	// Shard selects the members to check (the zero Shard: all): member i of the family
	// when i mod Shard.Count is Shard.Index.
	Shard family.Shard
	// Limit, when > 0, checks at most this many members of the shard (counting those
	// Resume lists); the result is then partial.
	Limit int
	// Resume is the kept result of an earlier run of the same family, parameters and
	// shard: its checked members are skipped and its figures carried over, so that the
	// finished Record equals that of an uninterrupted run, member by member.
	Resume *FamilyRecord
	// Checkpoint, when not nil, receives the kept result so far (partial) as members
	// finish, at most once per CheckpointEvery (0: a second), and the final one; an
	// error from it ends the run. Writing each atomically leaves a resumable file
	// whenever the process dies.
	Checkpoint      func(*FamilyRecord) error
	CheckpointEvery time.Duration
}

// Algorithm is the algorithm name unicast family results carry.
const Algorithm = "unicast"

// FamilyParams are the parameters every shard of one unicast family run must share:
// those of every member's instance but its worms, and the property.
type FamilyParams struct {
	// Sizes lists the (length, buffers) each placement is checked with, in order.
	Sizes     [][2]int `json:"length_buffers"`
	VCs       int      `json:"vcs"`
	Dateline  string   `json:"dateline"`
	Ports     string   `json:"ports"`
	Routing   string   `json:"routing,omitempty"`
	Property  string   `json:"property"`
	MaxStates int64    `json:"max_states,omitempty"`
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
// worms (the command line's --family), otherwise "placements:MIN-MAX" with
// ",connected" and ",sample=N,seed=S" as they apply.
func (f Family) Spec() string {
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

// params returns the parameters f's kept result records.
func (f Family) params() FamilyParams {
	p := FamilyParams{Sizes: f.Params, VCs: f.VCs, Dateline: f.Dateline.String(), Ports: portsName(f.Ports), Property: f.Property,
		MaxStates: f.MaxStates, Reduction: f.Reduction}
	if p.Sizes == nil {
		p.Sizes = [][2]int{}
	}
	if p.Property == "" {
		p.Property = PropertyOf(checker.Options[flit.State]{})
	}
	if f.Routing != nil && !isDOR(f.Routing) {
		p.Routing = f.Routing.Name()
	}
	if f.Store == checker.Fingerprint {
		p.Store = f.Store.String()
	}
	return p
}

// FamilyResult sums a family run: instances checked, their verdict counts and states,
// and the first violation (its instance and search result), if any.
type FamilyResult struct {
	// Instances counts the instances checked, of Of to check (fewer when the run was
	// interrupted or stopped at a violation).
	Instances    int
	Of           int
	Held         int
	Violated     int
	Inconclusive int
	States       int64
	Transitions  int64
	Depth        int // the deepest instance's search depth
	FirstSpec    *Spec
	First        *Result
	// FirstIndex is First's member index in the family (-1 when First is nil).
	FirstIndex int
	// Certificates counts the instances' delivery certificates.
	Certificates checker.Tally
	// Record is the kept result of the run (resumed from Family.Resume when set): what
	// Checkpoint receives and `wormcheck merge` joins. Its sums include the resumed
	// run's members; the fields above count this run's only.
	Record *FamilyRecord
	// CollisionBound sums the instances' fingerprint collision bounds (a union bound on
	// the probability that any instance missed states); 0 with the exact store.
	CollisionBound float64
	// Placements counts the placements enumerated and kept by the reductions.
	Placements PlacementCount
}

// Verdict is Violated if any instance was, else Inconclusive if any was, else Holds.
func (r FamilyResult) Verdict() checker.Verdict {
	switch {
	case r.Violated > 0:
		return checker.Violated
	case r.Inconclusive > 0 || r.Instances == 0:
		return checker.Inconclusive
	}
	return checker.Holds
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

// Placements returns the family's placements in their deterministic order.
//
// The symmetry reduction keeps one placement per class under the network automorphisms
// that preserve the relation: for dimension order, Symmetries; for any other relation,
// flit.GridSymmetries, which checks every candidate header by header, so that a
// placement and its images have isomorphic flit models. The component reduction
// (Connected) uses DOR routes for dimension order (package-level Connected) and the
// worms' footprints in the flit model for any other relation (NewFootprints).
func (f Family) Placements(g *topology.Network) ([][]Pair, error) {
	out, _, err := f.placements(g)
	return out, err
}

// placements is Placements with its counts.
func (f Family) placements(g *topology.Network) ([][]Pair, PlacementCount, error) {
	pairs := EndpointPairs(g)
	var out [][]Pair
	cnt := PlacementCount{Enumerated: make([]int, f.MaxWorms+1), Canonical: make([]int, f.MaxWorms+1), Kept: make([]int, f.MaxWorms+1)}
	dor := f.Routing == nil || isDOR(f.Routing)
	r := topology.NewDOR(g)
	connected := func([]Pair) bool { return true }
	if f.Connected && dor {
		connected = func(ps []Pair) bool { return Connected(r, f.Ports, ps) }
	} else if f.Connected {
		tmpl := Spec{Topology: f.Topology, VCs: f.VCs, Dateline: f.Dateline, Ports: f.Ports, Routing: f.Routing, Length: 1, Buffer: 1}
		fp, err := NewFootprints(g, tmpl, f.Params, pairs)
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
		for _, s := range flit.GridSymmetries(g, f.Routing) {
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

// Run checks every instance of the family for deadlocks (and the model's invariants):
// every placement with every (Length, Buffer), in that order, on Workers workers of the
// member pool (checker.Sweep). Sums and the first violation are those of the sequential
// order whatever Workers is. When ctx ends it returns the sums so far and ctx's error.
func (f Family) Run(ctx context.Context) (FamilyResult, error) {
	res := FamilyResult{FirstIndex: -1}
	sp := Spec{Topology: f.Topology}
	g, err := sp.Grid()
	if err != nil {
		return res, err
	}
	if err := f.CheckSize(g); err != nil {
		return res, err
	}
	places, cnt, err := f.placements(g)
	if err != nil {
		return res, err
	}
	res.Placements = cnt
	n := len(places) * len(f.Params)
	rec := family.NewResult(Algorithm, f.Spec(), g.Spec(), f.params(), n, f.Shard)
	res.Record = rec
	ko := family.KeepOptions[FamilyParams]{
		Options: family.Options{Pool: f.Workers, Limit: f.Limit, Count: f.Count, Progress: f.Progress, Label: f.Label,
			StopAtFirst: f.StopAtViolation, CheckpointEvery: f.CheckpointEvery},
		Resume: f.Resume, Checkpoint: f.Checkpoint,
	}
	type member struct {
		sp Spec
		r  Result
	}
	st, err := family.Keep(ctx, rec, ko, func(ctx context.Context, _, i int) (member, family.Member, error) {
		lb := f.Params[i%len(f.Params)]
		sp := Spec{Topology: f.Topology, Pairs: places[i/len(f.Params)], Length: lb[0], Buffer: lb[1], VCs: f.VCs, Dateline: f.Dateline, Ports: f.Ports, Routing: f.Routing}
		var r Result
		if f.Member != nil {
			var err error
			if r, err = f.Member(ctx, sp); err != nil {
				return member{}, family.Member{Msgs: sp.Worms()}, err
			}
		} else if m, err := BuildOn(g, sp); err != nil {
			return member{}, family.Member{Msgs: sp.Worms()}, err
		} else {
			r = SearchWith(m, checker.Options[flit.State]{MaxStates: f.MaxStates, Store: f.Store, Context: ctx, Invariants: m.Invariants()})
		}
		mb := family.Member{Outcome: family.Outcome{Verdict: r.Verdict, States: r.States, Transitions: r.Transitions},
			CollisionBound: r.CollisionBound, Certificate: r.Certificate, Msgs: sp.Worms()}
		if ctx.Err() != nil {
			// A search cut short by ctx is not a verdict: Keep drops it.
			mb.Verdict = checker.Inconclusive
			return member{sp, r}, mb, nil
		}
		if r.Verdict == checker.Violated {
			mb.Trace = TraceFile(sp, &r)
		}
		return member{sp, r}, mb, nil
	}, func(i int, mb member) {
		res.Instances++
		res.Certificates.Add(mb.r.Certificate)
		res.CollisionBound += mb.r.CollisionBound
		res.States += mb.r.States
		res.Transitions += mb.r.Transitions
		res.Depth = max(res.Depth, mb.r.Depth)
		switch mb.r.Verdict {
		case checker.Holds:
			res.Held++
		case checker.Violated:
			res.Violated++
			if res.First == nil {
				rr, spc := mb.r, mb.sp
				res.First, res.FirstSpec, res.FirstIndex = &rr, &spc, i
			}
		default:
			res.Inconclusive++
		}
	})
	res.Of = st.Total
	if err != nil {
		return res, err
	}
	if ctx.Err() != nil {
		return res, fmt.Errorf("family %s: %w", f.Topology, ctx.Err())
	}
	return res, nil
}

// Summary is one line for people: the family's description and its counts.
func (r FamilyResult) Summary(desc string) string {
	return fmt.Sprintf("%s: %d instances, %d states, %d held, %d deadlocked, %d inconclusive", desc, r.Instances, r.States, r.Held, r.Violated, r.Inconclusive)
}

// FirstLine describes the first violation in one line: its instance and trace length.
func (r FamilyResult) FirstLine() string {
	if r.First == nil {
		return ""
	}
	sp := *r.FirstSpec
	return fmt.Sprintf("%s %s L=%d B=%d after %d steps", sp.Topology, sp.Worms(), sp.Length, sp.Buffer, len(r.First.Actions))
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
