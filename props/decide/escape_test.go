package decide

import (
	"context"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/routing/routingtest"
	"github.com/wormcheck/wormcheck/props"
)

// relation returns the built-in name on topology spec.
func relation(t *testing.T, spec, name string) routing.Relation {
	t.Helper()
	_, rel := routingtest.Builtin(t, spec, name)
	return rel
}

// boundOf returns the escape-ring bounds of rel (worms, vertices), on its whole
// header-state space.
func boundOf(t *testing.T, rel routing.Relation) (int, int) {
	t.Helper()
	sp, err := buildSpace(context.Background(), rel, defaultMaxStates, nil)
	if err != nil {
		t.Fatal(err)
	}
	return escapeBound(rel, sp)
}

// TestEscapeBoundMeetsExhaustive pins the escape-ring bound against the exact search
// without it (and the naive twin where it fits): no configuration has fewer worms than
// the bound, the bound says "none" exactly where there is none, and where dor-1vc's
// fewest worms equal the bound (claim 1 is tight) a bound one higher would fail here.
// The decision with the bound gives the same verdict and fewest worms. A wrong bound
// (too high) or a structure check that lets a relation through wrongly (the bound
// then exceeds its true minimum somewhere) fails this test.
func TestEscapeBoundMeetsExhaustive(t *testing.T) {
	cases := []struct {
		topo, rel string
		bound     int // escapeNone: no configuration; the exact fewest worms must be >= it
		channels  int // the fewest vertices of any configuration must be >= it
		tight     bool
	}{
		{"torus:3x3", "dor-1vc", escapeNone, 0, false},
		{"torus:3x3", "duato-nodateline", escapeNone, 0, false},
		{"torus:4", "dor-1vc", 4, 4, true},
		{"torus:5", "dor-1vc", 5, 5, true},
		{"torus:6", "dor-1vc", 3, 6, true},
		{"torus:8", "dor-1vc", 3, 8, false},
		{"torus:4x4", "dor-1vc", 4, 4, true},
		{"torus:3x4", "dor-1vc", 4, 4, true},
		{"torus:5x5", "dor-1vc", 5, 5, true},
		{"torus:4", "duato-nodateline", 6, 8, false},
		{"torus:5", "duato-nodateline", 8, 10, false},
		{"torus:6", "duato-nodateline", 3, 6, false},
		{"torus:7", "duato-nodateline", 4, 7, false},
		{"torus:10", "duato-nodateline", 3, 10, false},
		{"torus:3x4", "duato-nodateline", 6, 8, false},
		{"torus:4x3", "duato-nodateline", 6, 8, false},
	}
	for _, c := range cases {
		rel := relation(t, c.topo, c.rel)
		if b, v := boundOf(t, rel); b != c.bound || v != c.channels {
			t.Errorf("%s on %s: escape-ring bound %d worms, %d channels; want %d, %d", c.rel, c.topo, b, v, c.bound, c.channels)
			continue
		}
		exact, err := Decide(rel, Options{SkipSufficient: true, NoScout: true, NoEscapeBound: true})
		if err != nil {
			t.Fatal(err)
		}
		bounded, err := Decide(rel, Options{SkipSufficient: true, NoScout: true})
		if err != nil {
			t.Fatal(err)
		}
		if c.bound == escapeNone {
			if exact.Verdict != props.Holds || bounded.Verdict != props.Holds || bounded.By != ByEscapeRing {
				t.Errorf("%s on %s: the bound says no configuration; exact search %s, bounded %s by %s", c.rel, c.topo, exact.Verdict, bounded.Verdict, bounded.By)
			}
			continue
		}
		if exact.Verdict != props.Violated || !exact.FewestWorms {
			t.Errorf("%s on %s: the exact search did not settle the fewest worms (%s, %s)", c.rel, c.topo, exact.Verdict, exact.NotMinimal)
			continue
		}
		fewest := len(exact.Configuration.Worms)
		t.Logf("%s on %s: fewest worms %d (minimal %v), escape-ring bound %d", c.rel, c.topo, fewest, exact.Minimal, c.bound)
		if fewest < c.bound || c.tight && fewest != c.bound {
			t.Errorf("%s on %s: a configuration of %d worms, escape-ring bound %d (tight: %v)", c.rel, c.topo, fewest, c.bound, c.tight)
		}
		if bounded.Verdict != props.Violated || !bounded.FewestWorms || len(bounded.Configuration.Worms) != fewest || bounded.EscapeBound != c.bound {
			t.Errorf("%s on %s: with the bound %s, %+v; without it %d worms", c.rel, c.topo, bounded.Verdict, bounded.Configuration, fewest)
		}
		if g := rel.Grid(); g.Dims() == 1 {
			if ring := ringScout(context.Background(), rel, &refusals{max: 8}); ring == nil || len(ring.Worms) != fewest {
				t.Errorf("%s on %s: the ring scout's configuration %+v, the exact search's fewest %d worms", c.rel, c.topo, ring, fewest)
			}
		}
		if n := naiveDecide(rel, fewestWorms, 1<<16, 1<<22); n.Skipped == "" {
			if w, _ := n.size(); !n.Found || w != fewest {
				t.Errorf("%s on %s: the naive twin finds %d worms (found %v), the exact search %d", c.rel, c.topo, w, n.Found, fewest)
			}
		}
		// The fewest channels of any configuration, by the naive twin (where it fits)
		// and by the exact search's order by channels.
		if n := naiveDecide(rel, fewestChannels, 1<<16, 1<<22); n.Skipped == "" {
			if _, ch := n.size(); !n.Found || ch < c.channels || c.tight && ch != c.channels {
				t.Errorf("%s on %s: the naive twin's fewest channels %d, escape-ring bound %d (tight: %v)", c.rel, c.topo, ch, c.channels, c.tight)
			}
			t.Logf("%s on %s: fewest channels %d, escape-ring bound %d", c.rel, c.topo, func() int { _, ch := n.size(); return ch }(), c.channels)
		} else {
			t.Logf("%s on %s: naive twin skipped (%s)", c.rel, c.topo, n.Skipped)
		}
	}
}

// TestEscapeStructureRefused: relations without the structure the bound needs get no
// bound: adaptive (VC 0 in any dimension), duato with dateline classes (headers past
// the dateline have no VC-0 output), nonminimal:1 (misroutes), and dimension order on a
// mesh has no ring to bound with, so no configuration.
func TestEscapeStructureRefused(t *testing.T) {
	for _, c := range []struct{ topo, rel string }{
		{"torus:4x4", "adaptive"},
		{"torus:4x4", "duato"},
		{"torus:4x4", "nonminimal:1"},
		{"torus:4x4", "shortest-path"},
	} {
		if b, v := boundOf(t, relation(t, c.topo, c.rel)); b != 0 || v != 0 {
			t.Errorf("%s on %s: escape-ring bound %d, %d, want none (0)", c.rel, c.topo, b, v)
		}
	}
	if b, _ := boundOf(t, relation(t, "mesh:3x3", "duato-nodateline")); b != escapeNone {
		t.Errorf("duato-nodateline on mesh:3x3: escape-ring bound %d, want no configuration", b)
	}
}

// TestRingScout: on tori the ring scout builds duato-nodateline's configurations round
// one ring, each a configuration by the naive twin's definition, the smallest first
// (on rings the exact search's fewest: TestEscapeBoundMeetsExhaustive); a lane set that leaves an output unheld (VC 0
// alone, while every header is also offered VC 1) is no candidate.
func TestRingScout(t *testing.T) {
	for _, c := range []struct {
		topo  string
		worms int
	}{{"torus:4x4", 8}, {"torus:5x5", 10}, {"torus:6x6", 6}, {"torus:7x7", 7}, {"torus:10x10", 5}, {"torus:13x13", 6}} {
		rel := relation(t, c.topo, "duato-nodateline")
		conf := ringScout(context.Background(), rel, &refusals{max: 8})
		if conf == nil {
			t.Errorf("%s: the ring scout found nothing", c.topo)
			continue
		}
		if len(conf.Worms) != c.worms {
			t.Errorf("%s: the ring scout's configuration has %d worms, want %d", c.topo, len(conf.Worms), c.worms)
		}
		if err := naiveCheck(rel, conf); err != nil {
			t.Errorf("%s: the ring scout's configuration is none: %v", c.topo, err)
		}
		k := rel.Grid().Size(0)
		if cand := ringCandidate(rel, ringShape{dim: 0, dir: 1, positions: k, past: 1, gaps: 1, vcs: []int{0}}); cand != nil {
			t.Errorf("%s: a candidate on VC 0 alone was kept: %+v", c.topo, cand)
		}
	}
	// dor-1vc's ring: one lane, as many worms as header positions.
	rel := relation(t, "torus:5x5", "dor-1vc")
	if conf := ringScout(context.Background(), rel, &refusals{max: 8}); conf == nil || len(conf.Worms) != 5 || naiveCheck(rel, conf) != nil {
		t.Errorf("dor-1vc on torus:5x5: ring scout %+v, want the 5-worm ring", conf)
	}
	// No ring on a mesh.
	if conf := ringScout(context.Background(), relation(t, "mesh:4x4", "adaptive"), &refusals{max: 8}); conf != nil {
		t.Errorf("adaptive on mesh:4x4: ring scout %+v, want nothing", conf)
	}
}

// TestRingAnswersLargeTorus: routing on duato-nodateline torus:13x13 answers violated
// with the ring scout's configuration, realised in the flit model (the exact search
// alone gets nowhere near it), and the search for smaller ones starts at the
// escape-ring bound.
func TestRingAnswersLargeTorus(t *testing.T) {
	rel := relation(t, "torus:13x13", "duato-nodateline")
	r, err := ProveRelation(context.Background(), rel, Options{MaxNodes: 1 << 14})
	if err != nil {
		t.Fatal(err)
	}
	d := r.Decision
	if r.Verdict != props.Violated || d.Configuration == nil || !d.Ring || r.Realisation == nil {
		t.Fatalf("torus:13x13: %s (%s), ring %v", r.Verdict, r.Reason, d.Ring)
	}
	if d.EscapeBound != 3 || d.WormsRuledOut < 2 {
		t.Errorf("torus:13x13: escape-ring bound %d, worms ruled out %d; want 3 and >= 2", d.EscapeBound, d.WormsRuledOut)
	}
}

// TestRingAnswersSmallTorus: on torus:6x6 the decision's first configuration is the
// ring scout's 6 worms, realised by the flit model from the empty network; the search
// for smaller ones (bounded here) leaves it the answer.
func TestRingAnswersSmallTorus(t *testing.T) {
	rel := relation(t, "torus:6x6", "duato-nodateline")
	r, err := ProveRelation(context.Background(), rel, Options{MaxNodes: 1 << 12})
	if err != nil {
		t.Fatal(err)
	}
	d := r.Decision
	if r.Verdict != props.Violated || !d.Ring || r.Realisation == nil || len(d.Configuration.Worms) != 6 {
		t.Fatalf("torus:6x6: %s (%s), ring %v", r.Verdict, r.Reason, d.Ring)
	}
	if err := naiveCheck(rel, d.Configuration); err != nil {
		t.Error(err)
	}
}
