package cdg

import (
	"slices"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
)

// notPositional hides a relation's Positional (and EscapeRank) methods, so that the
// analysis takes the general search over (channel, VC) header states.
type notPositional struct{ routing.Relation }

type notPositionalEscaping struct {
	routing.Relation
	routing.Escaping
}

type notPositionalClassed struct {
	routing.Relation
	routing.SourceClasser
}

// TestPositionalTwin is the optimised-vs-naive test of the static proofs: for every
// positional built-in on small meshes, tori and hypercubes, the node-state search (with
// the EscapeRank hint) and the general header-state search (without it) find the same
// dependency graph, the same verdicts and witness cycles of the same length.
func TestPositionalTwin(t *testing.T) {
	for _, spec := range []string{"mesh:4x4", "mesh:5x3", "torus:4x4", "torus:5x3", "hypercube:3", "mesh:3x2x3"} {
		for _, name := range []string{"dor-1vc", "west-first", "north-last", "negative-first", "odd-even", "adaptive", "duato"} {
			rel, err := routing.ByName(mustGrid(t, spec), name)
			if err != nil {
				continue
			}
			if p, ok := rel.(routing.Positional); !ok || !p.Positional() {
				t.Fatalf("%s is not positional", name)
			}
			var twin routing.Relation = notPositional{rel}
			if e, ok := rel.(routing.Escaping); ok {
				twin = notPositionalEscaping{rel, e}
			}
			if c, ok := rel.(routing.SourceClasser); ok {
				twin = notPositionalClassed{rel, c}
			}
			fast, err := Analyze(rel, Options{})
			if err != nil {
				t.Fatal(err)
			}
			slow, err := Analyze(twin, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if fast.Acyclic != slow.Acyclic || fast.Edges != slow.Edges || fast.Vertices != slow.Vertices || len(fast.Cycle) != len(slow.Cycle) || fast.Verdict() != slow.Verdict() {
				t.Errorf("%s on %s: fast %d/%d acyclic=%v cycle %d %v, slow %d/%d acyclic=%v cycle %d %v", name, spec,
					fast.Vertices, fast.Edges, fast.Acyclic, len(fast.Cycle), fast.Verdict(), slow.Vertices, slow.Edges, slow.Acyclic, len(slow.Cycle), slow.Verdict())
			}
			if (fast.Duato == nil) != (slow.Duato == nil) || fast.Duato != nil && (fast.Duato.Acyclic != slow.Duato.Acyclic || fast.Duato.Escape != slow.Duato.Escape) {
				t.Errorf("%s on %s: Duato fast %+v slow %+v", name, spec, fast.Duato, slow.Duato)
			}
			if !slices.Equal(fast.CycleChannels(), slow.CycleChannels()) {
				t.Logf("%s on %s: different (equally short) witness cycles", name, spec)
			}
		}
	}
}
