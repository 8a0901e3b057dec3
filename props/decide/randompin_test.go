package decide

import (
	"os"
	"testing"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// The relations TestRandomRelations found the exact decision wrong on, shrunk and
// pinned with their right answers (testdata/random).

// TestDecideStrands pins the relations on which the decision once missed a stranded
// header, each with the one-worm deadlock the flit explorer confirms. Two bugs, both
// fixed: a header offered nothing after its source (a dead end of the header states)
// was skipped by the search, whose lasso bound assumes every configuration closes a
// cycle, so Decide said holds; and a header stranded at its source was reported only
// when it was the first stranded header the header-state search met, so behind a dead
// end it was lost. Decide now takes both before the search:
//
// stranded-mid-route.json: dimension order on mesh:2x2, except that a header at (0,0)
// that arrived from (1,0) toward (0,1) is offered nothing: the worm (1,0)->(0,1) of one
// flit takes the west channel and stays there for ever; one worm on one channel.
//
// stranded-source-behind-dead-end.json: dimension order on mesh:2x2, except that a
// header at (0,1) that arrived from (1,1) toward (0,0) is offered nothing, and a header
// at (0,0) toward (1,1) is offered nothing at its source: the worm (0,0)->(1,1) is never
// injected; one worm on no channel.
//
// Both the file and the same table as a Go relation must give violated with that
// minimal configuration.
func TestDecideStrands(t *testing.T) {
	for _, c := range []struct {
		file     string
		src, dst [2]int
		channels int
	}{
		{"stranded-mid-route.json", [2]int{1, 0}, [2]int{0, 1}, 1},
		{"stranded-source-behind-dead-end.json", [2]int{0, 0}, [2]int{1, 1}, 0},
	} {
		t.Run(c.file, func(t *testing.T) {
			rel := randomPin(t, c.file)
			g := rel.Grid()
			src, dst := g.Node(c.src[0], c.src[1]), g.Node(c.dst[0], c.dst[1])
			m, err := unicast.BuildOn(g, unicast.Spec{Topology: g.Spec(), Pairs: []unicast.Pair{{Src: src, Dst: dst}}, Length: 1, Buffer: 1, Ports: model.AllPort, Routing: rel})
			if err != nil {
				t.Fatal(err)
			}
			if res := unicast.SearchReduced(m, checker.Options[flit.State]{MaxStates: 10_000}); res.Verdict != checker.Violated || res.Kind != checker.KindDeadlock {
				t.Fatalf("the explorer finds %v (%s) for %d->%d; the file is not the deadlock it pins", res.Verdict, res.Violation, src, dst)
			}
			nr := naiveDecide(rel, fewestWorms, 1000, 100_000)
			if k, ch := nr.size(); !nr.Found || k != 1 || ch != c.channels {
				t.Fatalf("the naive twin finds %+v, want one worm on %d channels", nr, c.channels)
			}
			for _, r := range []routing.Relation{rel, goTwin{rel}} {
				d, err := Decide(r, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if d.Verdict != props.Violated || !d.Minimal || len(d.Configuration.Worms) != 1 || d.Configuration.Channels != c.channels {
					t.Fatalf("%T: %s (minimal %v), configuration %+v; want violated, one worm on %d channels, minimal", r, d.Verdict, d.Minimal, d.Configuration, c.channels)
				}
				if err := naiveCheck(r, d.Configuration); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// TestProveSelfCrossingRoute pins testdata/random/self-crossing-route.json on the ring
// torus:4: a header toward (2) that arrived at (1) from (0) turns back to (0), and one
// that arrived at (0) from (1) may go on to (3) or back to (1). The worm (1)->(2) of
// two flits goes (1)->(0)->(1) and waits for the channel (1)->(0) its own tail holds:
// one worm on two channels, minimal, reached from the empty network. The same held
// channels with the source (0) are not reachable (the route crosses its own held
// channel (0)->(1), and the header escapes to (3)), so a search that offers that worm
// first must try the source (1) before it refuses. Both the file and the same table as
// a Go relation must be proved violated with that configuration, realised from (1)
// (Realisation.Moved says so where the search named (0)). (The Go relation once named
// the source (0), was refused, and a configuration of 2 worms on 4 channels was called
// minimal.)
func TestProveSelfCrossingRoute(t *testing.T) {
	rel := randomPin(t, "self-crossing-route.json")
	g := rel.Grid()
	m, err := unicast.BuildOn(g, unicast.Spec{Topology: g.Spec(), Pairs: []unicast.Pair{{Src: g.Node(1), Dst: g.Node(2)}}, Length: 2, Buffer: 1, Ports: model.AllPort, Routing: rel})
	if err != nil {
		t.Fatal(err)
	}
	if res := unicast.SearchReduced(m, checker.Options[flit.State]{MaxStates: 10_000}); res.Verdict != checker.Violated || res.Kind != checker.KindDeadlock {
		t.Fatalf("the explorer finds %v (%s) for 1->2, L=2; the file is not the deadlock it pins", res.Verdict, res.Violation)
	}
	if nr := naiveDecide(rel, fewestWorms, 1000, 100_000); !nr.Found || len(nr.Best) != 1 || len(nr.Best[0].path) != 2 {
		t.Fatalf("the naive twin finds %+v, want one worm on two channels", nr)
	}
	for _, r := range []routing.Relation{rel, goTwin{rel}} {
		rr, err := ProveRelation(t.Context(), r, Options{})
		if err != nil {
			t.Fatal(err)
		}
		c := rr.Decision.Configuration
		if rr.Verdict != props.Violated || c == nil || len(c.Worms) != 1 || c.Channels != 2 {
			t.Fatalf("%T: %s (%s), configuration %+v, notes %v; want violated, one worm on two channels", r, rr.Verdict, rr.Reason, c, rr.Notes)
		}
		if !rr.Decision.Minimal || rr.Realisation == nil {
			t.Fatalf("%T: minimal %v, realisation %v", r, rr.Decision.Minimal, rr.Realisation != nil)
		}
		// Where the search named the source (0), the realisation moves the worm to (1).
		real := rr.Realisation
		if moved := c.Worms[0].Src != g.Node(1); moved != (len(real.Moved) == 1) || real.Spec.Pairs[0].Src != g.Node(1) {
			t.Errorf("%T: configuration from %d, realised from %v, moved %v; want the worm injected at (1)", r, c.Worms[0].Src, real.Spec.Pairs, real.Moved)
		}
		if _, err := real.steps(); err != nil {
			t.Error(err)
		}
	}
}

// randomPin reads the routing file testdata/random/file, one of the relations pinned
// here.
func randomPin(t *testing.T, file string) routing.Relation {
	t.Helper()
	data, err := os.ReadFile("testdata/random/" + file)
	if err != nil {
		t.Fatal(err)
	}
	rel, err := routing.ParseFile(data, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// goTwin is a relation seen as a user's Go type (untrusted): the same routes, none of
// the promises.
type goTwin struct{ r routing.Relation }

func (t goTwin) Name() string            { return t.r.Name() }
func (t goTwin) Grid() *topology.Network { return t.r.Grid() }
func (t goTwin) VCs() int                { return t.r.VCs() }
func (t goTwin) Route(h routing.Header, out []routing.Output) []routing.Output {
	return t.r.Route(h, out)
}
