package flit

import (
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/routing/routingtest"
	"github.com/wormcheck/wormcheck/model/topology"
)

func TestGridSymmetries(t *testing.T) {
	cases := []struct {
		spec     string
		dateline bool
		want     int
	}{
		{"mesh:3x3", false, 4}, // identity and the reflections of x, y and both
		{"mesh:3x2", false, 4},
		{"torus:3x3", false, 36}, // 9 translations x 4 reflections (odd k: no ties)
		{"torus:4x4", false, 16}, // translations only: a tie at distance 2 goes Plus
		{"torus:4x4", true, 1},   // the datelines break translations
	}
	for _, c := range cases {
		g, err := topology.Parse(c.spec)
		if err != nil {
			t.Fatal(err)
		}
		syms := GridSymmetries(g, routing.NewDOR(g, c.dateline))
		if len(syms) != c.want || syms[0].Name != "identity" {
			t.Errorf("%s dateline=%v: %d symmetries, first %q; want %d, identity first", c.spec, c.dateline, len(syms), syms[0].Name, c.want)
		}
	}
}

// symmetricPair is a pair of multicasts on a 3x3 mesh that the x reflection swaps.
func symmetricPair(prune Prune) Config {
	g, _ := topology.NewMesh(3, 3)
	msgs := []Message{
		{Source: g.Node(0, 0), Dests: []topology.NodeID{g.Node(2, 0), g.Node(1, 2)}, Length: 1, Multicast: true},
		{Source: g.Node(2, 0), Dests: []topology.NodeID{g.Node(0, 0), g.Node(1, 2)}, Length: 1, Multicast: true},
	}
	cfg := NewGridConfig(g, false, 1, 1, OnePort, msgs)
	cfg.Prune = prune
	return cfg
}

// TestSymmetricExplore checks state-level symmetry reduction against the plain search:
// the same verdicts, fewer states, and every image of a reachable state reachable.
func TestSymmetricExplore(t *testing.T) {
	for _, prune := range []Prune{PruneNone, PruneOnStop} {
		cfg := symmetricPair(prune)
		m, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		g := cfg.Net.(GridNetwork).Network
		sm := NewSymmetric(m, GridSymmetries(g, cfg.Routing))
		if sm.Group() != 2 {
			t.Fatalf("group %d (%v); want identity and reflect 0", sm.Group(), sm.SymmetryNames())
		}
		opt := checker.Options[State]{CheckDeadlock: true, Invariants: m.Invariants()}
		plain, err := checker.Explore[State](m, opt)
		if err != nil {
			t.Fatal(err)
		}
		opt.Symmetry = true
		red, err := checker.Explore[State](sm, opt)
		if err != nil {
			t.Fatal(err)
		}
		if plain.Verdict != red.Verdict || red.Stats.States >= plain.Stats.States {
			t.Fatalf("%v: plain %v (%d states), reduced %v (%d states)", prune, plain.Verdict, plain.Stats.States, red.Verdict, red.Stats.States)
		}
		t.Logf("%v: %v, %d states plain, %d reduced (factor %.2f)", prune, plain.Verdict, plain.Stats.States, red.Stats.States, float64(plain.Stats.States)/float64(red.Stats.States))
		// Closure: a naive BFS; every image of a reachable state is reachable.
		seen := map[string]bool{}
		queue := m.Init()
		seen[string(m.Encode(queue[0], nil))] = true
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			img := sm.Image(s, 1)
			if !seen[string(m.Encode(img, nil))] {
				// Images are discovered later in BFS order; check at the end.
				defer func(img State) {
					if !seen[string(m.Encode(img, nil))] {
						t.Errorf("image of a reachable state is not reachable")
					}
				}(img)
			}
			for _, tr := range m.Successors(s, nil) {
				k := string(m.Encode(tr.Next, nil))
				if !seen[k] {
					seen[k] = true
					queue = append(queue, tr.Next)
				}
			}
		}
	}
}

// TestGridSymmetriesOnNetwork: a network read from a file or generated has no
// coordinates to map, so a relation on it keeps the identity alone (a coordinate map
// built there would index past the dimensions).
func TestGridSymmetriesOnNetwork(t *testing.T) {
	g, rel := routingtest.Builtin(t, "random:5,6,1", "updown")
	syms := GridSymmetries(g, rel)
	if len(syms) != 1 || syms[0].Name != "identity" || len(syms[0].Channel) != g.Channels() {
		t.Fatalf("%d symmetries, first %q", len(syms), syms[0].Name)
	}
	for c, d := range syms[0].Channel {
		if int(d) != c {
			t.Fatalf("channel %d maps to %d", c, d)
		}
	}
}
