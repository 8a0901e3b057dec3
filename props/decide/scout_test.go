package decide

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/cdg"
)

// stateKey describes header state s of sp without its index: its vertex, destination,
// class and whether it is at its destination, and its arcs as (vertex, the successor's
// vertex and class, or -1 for delivered), sorted.
func stateKey(sp *space, s int32) string {
	to, vs := sp.arcs(s)
	var arcs []string
	for i, t := range to {
		if t < 0 {
			arcs = append(arcs, fmt.Sprintf("%d>deliver", vs[i]))
			continue
		}
		arcs = append(arcs, fmt.Sprintf("%d>%d/%d", vs[i], sp.vtx[t], sp.cls[t]))
	}
	slices.Sort(arcs)
	return fmt.Sprintf("v%d d%d c%d %v %v", sp.vtx[s], sp.dst[s], sp.cls[s], sp.atDst[s], arcs)
}

// TestSubspaceIsRestriction checks the scout's premise: the space built toward a
// subset of the destinations holds exactly the states of the whole space toward them,
// with the same arcs (so a configuration found in it is one of the whole space), and
// nothing toward the others.
func TestSubspaceIsRestriction(t *testing.T) {
	for _, c := range []struct{ topo, name string }{
		{"mesh:4x4", "adaptive"}, {"torus:4x4", "nonminimal:1"}, {"hypercube:4", "adaptive"},
		{"torus:5x5", "dor-1vc"}, {"mesh:3x3", "odd-even"},
	} {
		g := mustGrid(t, c.topo)
		rel, err := routing.ByName(g, c.name)
		if err != nil {
			t.Fatal(err)
		}
		full, err := buildSpace(t.Context(), rel, 1<<22, nil)
		if err != nil {
			t.Fatal(err)
		}
		dests := make([]bool, g.Nodes())
		for d := 0; d < g.Nodes(); d += 3 {
			dests[d] = true
		}
		sub, err := buildSpace(t.Context(), rel, 1<<22, dests)
		if err != nil {
			t.Fatal(err)
		}
		for d := range g.Nodes() {
			var want, got []string
			if dests[d] {
				for s := full.dstFirst[d]; s < full.dstFirst[d+1]; s++ {
					want = append(want, stateKey(full, s))
				}
			}
			for s := sub.dstFirst[d]; s < sub.dstFirst[d+1]; s++ {
				got = append(got, stateKey(sub, s))
			}
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(want, got) {
				t.Fatalf("%s on %s, destination %d: the sub-space has %d states, the whole space %d (or other arcs)", c.name, c.topo, d, len(got), len(want))
			}
		}
	}
}

// TestScoutFindsFirst checks the scout on networks whose whole space is large: it finds
// a configuration of the whole relation (checked from the definition, route by route)
// in the states toward a handful of destinations, small and realised in the flit model.
func TestScoutFindsFirst(t *testing.T) {
	cases := []struct {
		topo, name      string
		worms, channels int // at most
	}{
		{"mesh:32x32", "adaptive", 4, 4}, {"torus:32x32", "nonminimal:1", 2, 2},
		{"hypercube:8", "adaptive", 3, 6}, {"mesh:24x24", "shortest-path", 4, 4},
	}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, c := range cases {
		g := mustGrid(t, c.topo)
		rel, err := routing.ByName(g, c.name)
		if err != nil {
			t.Fatal(err)
		}
		res, err := cdg.Analyze(rel, cdg.Options{Context: t.Context()})
		if err != nil {
			t.Fatal(err)
		}
		realised := 0
		ref := &refusals{max: 8, accept: func(cf *Configuration) bool {
			_, err := Realise(t.Context(), rel, cf)
			if err == nil {
				realised++
			}
			return err == nil
		}}
		sc := scout(t.Context(), rel, res, Options{MaxStates: 1 << 23}, ref)
		if sc.conf == nil {
			t.Fatalf("%s on %s: the scout found nothing", c.name, c.topo)
		}
		checkConfiguration(t, rel, sc.conf)
		if realised == 0 || len(sc.conf.Worms) > c.worms || sc.conf.Channels > c.channels || sc.dests > 16 {
			t.Errorf("%s on %s: %d worms on %d channels toward %d destinations (realised %d); want at most %d on %d", c.name, c.topo, len(sc.conf.Worms), sc.conf.Channels, sc.dests, realised, c.worms, c.channels)
		}
	}
}

// TestSearchBelowUpper checks the exact search given a configuration already found
// (the scout's): on small networks it ends with the same fewest worms and channels as
// the search without one, proved minimal, and it answers the given configuration when
// nothing is smaller. The configurations given are the first the probes find, which
// are often not minimal.
func TestSearchBelowUpper(t *testing.T) {
	given, beaten := 0, 0
	for _, spec := range []string{"mesh:3x3", "torus:4x4", "hypercube:3", "mesh:4x3"} {
		for _, name := range []string{"adaptive", "nonminimal", "nonminimal:1", "nonminimal:2", "shortest-path", "dor-1vc"} {
			rel, err := routing.ByName(mustGrid(t, spec), name)
			if err != nil {
				continue
			}
			want, err := Decide(rel, Options{SkipSufficient: true})
			if err == nil && want.Verdict == props.Holds {
				continue // dor-1vc on a mesh
			}
			if err != nil || want.Verdict != props.Violated || !want.Minimal {
				t.Fatalf("%s on %s: %v %+v", name, spec, err, want)
			}
			var first Decision
			if err := decideSpace(t.Context(), rel, &first, Options{MaxStates: 1 << 22, MaxNodes: 1 << 22}, &refusals{}, spaceSearch{probe: scoutWorms}); err != nil || first.Configuration == nil {
				t.Fatalf("%s on %s: no probe configuration: %v %s", name, spec, err, first.Bound)
			}
			upper := first.Configuration
			var got Decision
			if err := decideSpace(t.Context(), rel, &got, Options{MaxStates: 1 << 22, MaxNodes: 1 << 24}, &refusals{}, spaceSearch{upper: upper}); err != nil {
				t.Fatal(err)
			}
			w, g := want.Configuration, got.Configuration
			if got.Verdict != props.Violated || !got.Minimal || len(g.Worms) != len(w.Worms) || g.Channels != w.Channels {
				t.Errorf("%s on %s: below %d worms on %d channels: %s %v, minimal %v; without it %d worms on %d channels", name, spec, len(upper.Worms), upper.Channels, got.Verdict, g, got.Minimal, len(w.Worms), w.Channels)
				continue
			}
			checkConfiguration(t, rel, g)
			given++
			if g != upper {
				beaten++
			} else if smaller(w, upper) {
				t.Errorf("%s on %s: the given configuration kept, but %d worms on %d channels exist", name, spec, len(w.Worms), w.Channels)
			}
		}
	}
	if beaten == 0 || beaten == given {
		t.Errorf("%d decisions given a configuration, %d found a smaller one: both ways should occur", given, beaten)
	}
	t.Logf("%d decisions given a configuration, %d found a smaller one", given, beaten)
}

// TestReplicatedDecision decides relations on networks with more VCs than they name
// (Options.VCs, routing.Replicate): dimension order without datelines on a ring
// of four needs eight worms with two VCs per channel (four with one), twelve with
// three, all proved minimal; adaptive routing on a mesh and budgeted non-minimal
// routing on a torus deadlock with at most twice the worms of one VC (each worm of a
// one-VC configuration, once per VC). Each configuration is realised in the flit model
// on that many VCs and its trace replays; a VC count that is not a multiple is bad
// input.
func TestReplicatedDecision(t *testing.T) {
	for _, c := range []struct {
		topo, name      string
		vcs             int
		worms, channels int
		minimal         bool
	}{
		{"torus:4", "dor-1vc", 1, 4, 4, true}, {"torus:4", "dor-1vc", 2, 8, 8, true}, {"torus:4", "dor-1vc", 3, 12, 12, true},
		{"mesh:3x3", "adaptive", 2, 8, 8, false}, {"torus:4x4", "nonminimal:1", 2, 8, 8, false},
	} {
		rel, err := routing.ByName(mustGrid(t, c.topo), c.name)
		if err != nil {
			t.Fatal(err)
		}
		r, err := ProveRelation(t.Context(), rel, Options{VCs: c.vcs, MaxNodes: 1 << 16})
		if err != nil {
			t.Fatal(err)
		}
		d := r.Decision
		if r.Verdict != props.Violated || c.minimal && !d.Minimal || d.VCs != c.vcs || len(d.Configuration.Worms) > c.worms || d.Configuration.Channels > c.channels {
			t.Errorf("%s on %s with %d VCs: %s, %d VCs, %v (minimal %v); want at most %d worms on %d channels", c.name, c.topo, c.vcs, r.Verdict, d.VCs, d.Configuration, d.Minimal, c.worms, c.channels)
			continue
		}
		checkConfiguration(t, replicated(t, rel, c.vcs), d.Configuration)
		if sp := r.Realisation.Spec; sp.VCs != c.vcs {
			t.Errorf("%s on %s with %d VCs: realised on %d VCs", c.name, c.topo, c.vcs, sp.VCs)
		}
		if _, rp, err := unicast.ReplayTrace(r.Trace); err != nil || rp.Verdict != checker.Violated {
			t.Errorf("%s on %s with %d VCs: the trace does not replay: %v", c.name, c.topo, c.vcs, err)
		}
	}
	rel, _ := routing.ByName(mustGrid(t, "torus:4x4"), "dor")
	if _, err := ProveRelation(t.Context(), rel, Options{VCs: 3}); !errors.Is(err, props.ErrBadInput) {
		t.Errorf("dor (2 VCs) on 3: %v", err)
	}
}

// replicated is routing.Replicate, failing the test on an error.
func replicated(t *testing.T, rel routing.Relation, vcs int) routing.Relation {
	t.Helper()
	r, err := routing.Replicate(rel, vcs)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestApart pins the bound of gap.go at its edge: two visits of a VC h+1 positions
// apart leave room for a worm holding h channels, h positions apart do not.
func TestApart(t *testing.T) {
	for _, c := range []struct {
		route []int32
		h     int
		want  bool
	}{
		{[]int32{1, 2, 1}, 1, true}, {[]int32{1, 2, 1}, 2, false}, {[]int32{1, 2, 3, 1}, 2, true},
		{[]int32{1, 2, 3, 1}, 3, false}, {[]int32{1, 2, 3, 4}, 4, true}, {[]int32{5, 1, 2, 3, 1}, 3, false},
	} {
		if got := apart(c.route, c.h); got != c.want {
			t.Errorf("apart(%v, %d) = %v, want %v", c.route, c.h, got, c.want)
		}
	}
}

// TestWitnessReachesItsConfiguration checks, for every built-in relation on a mesh, a
// torus, a hypercube and an irregular network, and for the testdata relations whose
// worms the explorer has to place (their released channels cross, or a worm comes from
// another source), that the configuration a violation shows is the state its trace
// reaches: the saved trace replays to a deadlock in which every worm owns exactly the
// VCs the configuration says it holds.
func TestWitnessReachesItsConfiguration(t *testing.T) {
	type inst struct {
		rel  routing.Relation
		name string
	}
	var cases []inst
	for _, topo := range []string{"mesh:3x3", "torus:4x4", "hypercube:3", "file:../../model/topology/testdata/topo/ring_chord.anynet"} {
		g := mustGrid(t, topo)
		for _, name := range routing.Names() {
			if name == "nonminimal:B" {
				name = "nonminimal:1"
			}
			if name == "updown:ROOT" {
				continue
			}
			rel, err := routing.ByName(g, name)
			if err != nil {
				continue // not defined there
			}
			cases = append(cases, inst{rel, name + " on " + topo})
		}
	}
	for _, f := range []string{"self-crossing-route.json", "stranded-mid-route.json"} {
		cases = append(cases, inst{randomPin(t, f), f})
	}
	violated, explored := 0, 0
	for _, c := range cases {
		r, err := ProveRelation(t.Context(), c.rel, Options{MaxNodes: 1 << 20})
		if err != nil {
			t.Fatal(err)
		}
		if r.Verdict != props.Violated {
			continue
		}
		violated++
		if !r.Realisation.Scheduled {
			explored++
		}
		if r.Trace == nil {
			continue // a relation the trace cannot name (a Go relation): its moves are checked below
		}
		_, rp, err := unicast.ReplayTrace(r.Trace)
		if err != nil || rp.Verdict != checker.Violated {
			t.Errorf("%s: the trace does not replay to a violation: %v", c.name, err)
			continue
		}
		final := rp.Trace.Steps[len(rp.Trace.Steps)-1].State
		if cf := r.Decision.Configuration; cf.Channels > 0 && !holdsAsIn(rp.Model, final, cf) {
			t.Errorf("%s: the trace ends in\n%s\nbut the configuration shown is %v", c.name, rp.Model.Format(final), cf)
		}
	}
	if violated < 15 {
		t.Errorf("only %d violations among %d relations", violated, len(cases))
	}
	t.Logf("%d relations, %d violated (%d placed by the explorer), each trace ending in its configuration", len(cases), violated, explored)
}
