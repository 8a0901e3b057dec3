package cdg

import (
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

func mustGrid(t testing.TB, spec string) *topology.Network {
	t.Helper()
	g, err := topology.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func analyze(t testing.TB, spec, name string) *Result {
	t.Helper()
	rel, err := routing.ByName(mustGrid(t, spec), name)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Analyze(rel, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestBuiltinVerdicts pins the static verdict of every built-in relation on small and
// medium meshes, tori and hypercubes: the turn models, odd-even and DOR have acyclic
// dependency graphs; minimal fully adaptive routing and misrouting do not; Duato's
// relation has a cyclic graph but an acyclic extended graph of its escape channels.
// Reference: Glass & Ni 1992; Chiu 2000; Dally & Seitz 1987; Duato 1993 Theorem 1.
func TestBuiltinVerdicts(t *testing.T) {
	type want struct {
		acyclic bool
		duato   int // 0 none, 1 acyclic, -1 cyclic
	}
	cases := []struct {
		spec, name string
		want
	}{
		{"mesh:2x2", "adaptive", want{false, 0}},
		{"mesh:4x4", "dor", want{true, 0}},
		{"mesh:3x5", "west-first", want{true, 0}},
		{"mesh:5x4", "north-last", want{true, 0}},
		{"mesh:4x4", "negative-first", want{true, 0}},
		{"mesh:3x3x3", "negative-first", want{true, 0}},
		{"hypercube:4", "negative-first", want{true, 0}},
		{"mesh:6x5", "odd-even", want{true, 0}},
		{"mesh:8x8", "odd-even", want{true, 0}},
		{"mesh:4x4", "adaptive", want{false, 0}},
		{"torus:4x4", "dor", want{true, 0}},
		{"torus:5x4", "dor", want{true, 0}},
		{"torus:4x4", "dor-1vc", want{false, 0}},
		{"mesh:4x4", "duato", want{false, 1}},
		{"mesh:3x3x3", "duato", want{false, 1}},
		{"hypercube:4", "duato", want{false, 1}},
		{"torus:4x4", "duato", want{false, 1}},
		{"torus:5x5", "duato", want{false, 1}},
		{"torus:4x3x5", "duato", want{false, 1}},
		{"mesh:3x3", "nonminimal", want{false, 0}},
		{"mesh:3x3", "nonminimal:1", want{false, 0}},
	}
	for _, c := range cases {
		r := analyze(t, c.spec, c.name)
		if r.Stranded != nil {
			t.Errorf("%s on %s strands a header: %+v", c.name, c.spec, *r.Stranded)
		}
		if r.Acyclic != c.acyclic {
			t.Errorf("%s on %s: CDG acyclic=%v, want %v (cycle %v)", c.name, c.spec, r.Acyclic, c.acyclic, r.Cycle)
		}
		if !r.Acyclic && len(r.Cycle) < 2 {
			t.Errorf("%s on %s: cyclic CDG without a cycle witness", c.name, c.spec)
		}
		got := 0
		if r.Duato != nil {
			got = -1
			if r.Duato.Connected && r.Duato.Decided && r.Duato.Acyclic {
				got = 1
			}
		}
		if got != c.duato {
			t.Errorf("%s on %s: Duato %d (%+v), want %d", c.name, c.spec, got, r.Duato, c.duato)
		}
		t.Logf("%s on %s: states %d vertices %d edges %d acyclic %v cycle %d duato %+v", c.name, c.spec, r.States, r.Vertices, r.Edges, r.Acyclic, len(r.Cycle), r.Duato)
	}
}
