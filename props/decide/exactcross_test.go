package decide

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// crossRelations returns the relations the cross-check decides on g: every built-in
// defined there and every routing file of the testdata written for g (or for any grid).
func crossRelations(t *testing.T, g *topology.Network) []routing.Relation {
	var rels []routing.Relation
	for _, name := range append(routing.Names()[:len(routing.Names())-1], "nonminimal:1") {
		if name == "duato-nodateline" && g.Kind() != topology.Torus {
			continue // duato itself: without wrap-around channels there is no dateline
		}
		if rel, err := routing.ByName(g, name); err == nil {
			rels = append(rels, rel)
		}
	}
	files, _ := filepath.Glob("../../model/routing/testdata/*.json")
	more, _ := filepath.Glob("testdata/*.json")
	for _, f := range append(files, more...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if rel, err := routing.ParseFile(data, g); err == nil {
			rels = append(rels, rel)
		}
	}
	return rels
}

// TestExactAgreesWithExplorer is the cross-check of the exact decision against the flit
// explorer, one subtest per topology and relation ("mesh:4x4/duato";
// a relation defined twice gets "#01"). On meshes, tori and hypercubes, for every
// built-in and testdata routing file: a violation's configuration is realised (worm
// lengths as held, buffers of one flit), its saved trace replays to a deadlock, and the
// explorer itself finds a deadlock in the instance the configuration implies; where the
// decision holds, the explorer (L = 2, B = 1, all-port, stubborn-set reduction) finds no
// deadlock in every placement of 1, 2 and 3 worms, up to the relation's verified
// symmetries and to the component reduction (unicast.Footprints: a placement whose
// worms split into parts that share nothing is decided by its parts), nor in samples
// of connected 4- and 5-worm placements.
//
// Tiers: -short checks mesh:2x2 and mesh:3x2 (every placement of up to 3 worms); without
// -short it adds mesh:3x3 and torus:3x3 (every placement of up to 3 worms but duato's,
// sampled on mesh:3x3: two to three minutes on two shared cores); with WORMCHECK_LONG=1
// it checks duato's too, adds hypercube:3, mesh:4x4, torus:4x4 and hypercube:4 and
// samples of 4 and 5 worms on every network but mesh:2x2 (hours on two cores):
//
//	WORMCHECK_LONG=1 go test ./props/decide -run 'TestExactAgreesWithExplorer/torus:4x4/duato' -timeout 0 -v
//
// Each subtest logs one row of counts: placements per number of worms as enumerated /
// one per symmetry class / connected, instances searched, states, wall time. Where every
// 3-worm placement is out of reach (duato on the 16-node networks: about 2e5 states
// per instance and 1e5 connected placements), crossSampledThree gives the sample drawn
// instead, and the row says so. Each search is bounded (crossMaxStates): an instance
// that reaches the bound fails the test in an exhaustive family and is counted as
// inconclusive in a sample.
func TestExactAgreesWithExplorer(t *testing.T) {
	topos := []string{"mesh:2x2", "mesh:3x2"}
	if !testing.Short() {
		topos = append(topos, "mesh:3x3", "torus:3x3")
	}
	if crossLong() {
		topos = append(topos, "hypercube:3", "mesh:4x4", "torus:4x4", "hypercube:4")
	}
	var held, violated, instances int
	for _, topo := range topos {
		g, err := topology.Parse(topo)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(topo, func(t *testing.T) {
			for _, rel := range crossRelations(t, g) {
				t.Run(rel.Name(), func(t *testing.T) {
					name := fmt.Sprintf("%s on %s", rel.Name(), topo)
					start := time.Now()
					rr, err := ProveRelation(t.Context(), rel, Options{})
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					switch rr.Verdict {
					case props.Violated:
						violated++
						crossViolated(t, name, rr)
						t.Logf("| %s | %s | violated | %s | %.1f s |", topo, rel.Name(), rr.Witness.Violation, time.Since(start).Seconds())
					case props.Holds:
						held++
						row := crossHolds(t, name, g, rel)
						instances += row.instances
						t.Logf("| %s | %s | holds (%s) | %s | %.1f s |", topo, rel.Name(), rr.Decision.By, row, time.Since(start).Seconds())
					default:
						t.Errorf("%s: %s (%s)", name, rr.Verdict, rr.Reason)
					}
				})
			}
		})
	}
	t.Logf("%d relations held (%d explorer instances without deadlock), %d violated (each realised and replayed)", held, instances, violated)
}

// crossViolated checks a violation: realised by its own schedule, replayed from its
// saved trace to a deadlock, and found by the explorer in its instance.
func crossViolated(t *testing.T, name string, rr *Report) {
	t.Helper()
	real := rr.Realisation
	if real == nil || rr.Trace == nil {
		t.Errorf("%s: violated without a realisation", name)
		return
	}
	if !real.Scheduled {
		t.Errorf("%s: the configuration was not scheduled worm by worm", name)
	}
	tf, err := tracefile.Parse(unicast.TraceJSON(rr.Trace))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if _, res, err := unicast.ReplayTrace(tf); err != nil || res == nil || !strings.Contains(res.Violation, "deadlock") {
		t.Errorf("%s: replay: %+v, %v", name, res, err)
	}
	m, err := unicast.Build(real.Spec)
	if err != nil {
		t.Fatal(err)
	}
	res, err := checker.Explore[flit.State](m, checker.Options[flit.State]{MaxStates: 2_000_000, CheckDeadlock: true})
	switch {
	case err != nil:
		t.Fatalf("%s: %v", name, err)
	case res.Verdict == checker.Inconclusive:
		// Unbudgeted non-minimal worms wander: the replay above is the confirmation.
		t.Logf("%s: the explorer did not finish %s within its bound", name, unicast.FormatPairs(nil, real.Spec.Pairs))
	case res.Verdict != checker.Violated || res.Violation.Kind != checker.KindDeadlock:
		t.Errorf("%s: the explorer finds %v in %s", name, res.Verdict, unicast.FormatPairs(nil, real.Spec.Pairs))
	}
}

// crossLong reports whether the long tier of the cross-check runs (WORMCHECK_LONG=1).
func crossLong() bool { return !testing.Short() && os.Getenv("WORMCHECK_LONG") == "1" }

// crossSampledThree names the (topology, relation) pairs whose 3-worm placements are
// sampled, with the sample size, because checking them all is out of reach: duato's
// adaptive worms on 16 nodes interleave in about 2e5 states per instance (stubborn sets
// barely reduce three worms that share channels) over about 1.3e5 (mesh:4x4), 5.4e5
// (torus:4x4) and 3.4e4 (hypercube:4) connected placements, days of search. Without
// WORMCHECK_LONG duato on mesh:3x3 is sampled too (every 3-worm placement there is
// about 1e8 states, minutes; the long tier checks them all).
func crossSampledThree(g *topology.Network, rel routing.Relation) int {
	switch g.Spec() + "/" + rel.Name() {
	case "mesh:4x4/duato", "torus:4x4/duato", "hypercube:4/duato":
		return 300
	case "mesh:3x3/duato":
		if !crossLong() {
			return 300
		}
	}
	return 0
}

// crossMaxStates bounds each instance's search in the cross-check.
const crossMaxStates = 4_000_000

// crossRow is one row of the cross-check's table: what the explorer checked for a
// relation decided deadlock-free.
type crossRow struct {
	families                []string // per family: its spec and placement counts
	instances, inconclusive int
	states                  int64
}

func (r crossRow) String() string {
	return fmt.Sprintf("%s | %d instances, %d inconclusive | %d states", strings.Join(r.families, "; "), r.instances, r.inconclusive, r.states)
}

// crossHolds checks a relation decided deadlock-free against the explorer and returns
// what it checked.
func crossHolds(t *testing.T, name string, g *topology.Network, rel routing.Relation) crossRow {
	t.Helper()
	fams := []unicast.Family{{MaxWorms: 3}}
	switch {
	case g.Nodes() <= 4:
	case crossSampledThree(g, rel) > 0:
		fams = []unicast.Family{{MaxWorms: 2}, {MaxWorms: 3, MinWorms: 3, Sample: crossSampledThree(g, rel), Seed: 1}}
	}
	var row crossRow
	tmpl := unicast.Spec{Topology: g.Spec(), Length: 2, Buffer: 1, Ports: model.AllPort, Routing: rel}
	for _, f := range fams {
		f.Params, f.Connected = [][2]int{{2, 1}}, true
		if f.MinWorms == 0 {
			f.MinWorms = 1
		}
		places, c, err := f.Placements(g, tmpl)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		opt := family.Options{Pool: 2}
		if crossLong() {
			// Hours-long runs say how far they are, every half minute, on stderr.
			opt.Progress, opt.Label = &throttled{w: os.Stderr, every: 30 * time.Second}, name+" "+f.Spec()
		}
		var instances, inconclusive int
		var states int64
		_, err = family.Run(t.Context(), len(places), opt, func(ctx context.Context, _, i int) (unicast.Result, family.Outcome) {
			sp := tmpl
			sp.Pairs = places[i]
			m, err := unicast.BuildOn(g, sp)
			if err != nil {
				t.Errorf("%s: %v", name, err)
				return unicast.Result{}, family.Outcome{Verdict: checker.Holds}
			}
			r := unicast.SearchReducedFirstPass(m, checker.Options[flit.State]{MaxStates: crossMaxStates, Context: ctx}, 0)
			return r, family.Outcome{Verdict: r.Verdict, States: r.States}
		}, func(i int, r unicast.Result, _ family.Outcome) error {
			instances++
			states += r.States
			switch r.Verdict {
			case checker.Violated:
				t.Errorf("%s: decided holds, but the explorer deadlocks %s", name, unicast.FormatPairs(nil, places[i]))
			case checker.Inconclusive:
				inconclusive++
			}
			return nil
		})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if inconclusive > 0 && f.Sample == 0 {
			t.Errorf("%s: %d instances of %s reached the bound of %d states", name, inconclusive, f.Spec(), crossMaxStates)
		}
		desc := f.Spec() + ":"
		for k := f.MinWorms; k <= f.MaxWorms; k++ {
			desc += fmt.Sprintf(" %dw %d/%d/%d", k, c.Enumerated[k], c.Canonical[k], c.Kept[k])
		}
		if inconclusive > 0 {
			desc += fmt.Sprintf(" (%d inconclusive)", inconclusive)
		}
		row.families = append(row.families, desc)
		row.instances += instances
		row.inconclusive += inconclusive
		row.states += states
	}
	if crossLong() && g.Nodes() > 4 {
		n4, n5 := 40, 20
		if g.Nodes() >= 16 && crossSampledThree(g, rel) > 0 {
			n4, n5 = 10, 5
		}
		crossSampleMore(t, name, g, rel, &row, 4, n4, 2)
		crossSampleMore(t, name, g, rel, &row, 5, n5, 3)
	}
	return row
}

// crossSampleMore checks n connected placements of k worms, each grown from a random
// worm by adding random worms that interact with one already placed
// (unicast.Footprints), so that every sample is connected however rare connected
// placements are among all; it adds them to row.
func crossSampleMore(t *testing.T, name string, g *topology.Network, rel routing.Relation, row *crossRow, k, n int, seed uint64) {
	t.Helper()
	tmpl := unicast.Spec{Topology: g.Spec(), Length: 2, Buffer: 1, Ports: model.AllPort, Routing: rel}
	pairs := unicast.EndpointPairs(g)
	fp, err := unicast.NewFootprints(g, tmpl, nil, pairs)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	var places [][]unicast.Pair
	for len(places) < n {
		ps := []unicast.Pair{pairs[rng.IntN(len(pairs))]}
		for len(ps) < k {
			var next []unicast.Pair
			for _, p := range pairs {
				if slices.Contains(ps, p) {
					continue
				}
				for i := range ps {
					if fp.Interact([]unicast.Pair{ps[i], p}, 0, 1) {
						next = append(next, p)
						break
					}
				}
			}
			if len(next) == 0 {
				break
			}
			ps = append(ps, next[rng.IntN(len(next))])
		}
		if len(ps) == k {
			places = append(places, ps)
		}
	}
	results := make([]unicast.Result, n)
	var wg sync.WaitGroup
	work := make(chan int)
	for range 2 {
		wg.Go(func() {
			for i := range work {
				sp := tmpl
				sp.Pairs = places[i]
				m, err := unicast.BuildOn(g, sp)
				if err != nil {
					results[i] = unicast.Result{Verdict: checker.Inconclusive, Violation: err.Error()}
					continue
				}
				results[i] = unicast.SearchReducedFirstPass(m, checker.Options[flit.State]{MaxStates: crossMaxStates, Context: t.Context()}, 0)
			}
		})
	}
	for i := range places {
		work <- i
	}
	close(work)
	wg.Wait()
	inc := 0
	for i, r := range results {
		row.instances++
		row.states += r.States
		switch r.Verdict {
		case checker.Violated:
			t.Errorf("%s: decided holds, but the explorer deadlocks %s: %s", name, unicast.FormatPairs(nil, places[i]), r.Violation)
		case checker.Inconclusive:
			inc++
		}
	}
	row.inconclusive += inc
	row.families = append(row.families, fmt.Sprintf("%d connected %d-worm placements grown at random (seed %d), %d inconclusive", n, k, seed, inc))
}

// throttled passes a write to w only when every has passed since the last it passed.
type throttled struct {
	mu    sync.Mutex
	w     io.Writer
	every time.Duration
	last  time.Time
}

func (t *throttled) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if now := time.Now(); now.Sub(t.last) >= t.every {
		t.last = now
		return t.w.Write(p)
	}
	return len(p), nil
}
