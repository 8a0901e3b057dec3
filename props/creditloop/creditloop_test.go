package creditloop

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/fabric/fabrictest"
	"github.com/wormcheck/wormcheck/model/vct"
	"github.com/wormcheck/wormcheck/props"
)

// shortest routes a ring minimally, ties clockwise: minhop's choice on a ring of 4.
func shortest(n int) func(i, j int) uint8 {
	return func(i, j int) uint8 {
		if (j-i+n)%n <= n/2 {
			return 3
		}
		return 2
	}
}

func TestRingMinhopDeadlocks(t *testing.T) {
	f := ring(t, 4, shortest(4))
	a, err := Analyze(context.Background(), f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a.Pairs.Pairs != 12 || a.Pairs.Delivered != 12 {
		t.Fatalf("pairs %+v; ibdmchk scans 12 CA to CA paths", a.Pairs)
	}
	if len(a.Loops) != 1 || a.Verdict() != props.Violated {
		t.Fatalf("%s; verdict %v: want one loop, violated", a, a.Verdict())
	}
	l := a.Loops[0]
	d := l.Decision
	if len(l.Cycle) != 4 || !d.Minimal || len(d.Stuck) != 4*a.K() {
		t.Fatalf("cycle %v, minimal %v, %d stuck; want the 4 clockwise links, minimal, %d packets", a.LoopNames(&l), d.Minimal, len(d.Stuck), 4*a.K())
	}
	m, _, err := d.Instance.Build()
	if err != nil {
		t.Fatal(err)
	}
	tr, err := checker.Replay[vct.State](m, 0, d.Actions)
	if err != nil {
		t.Fatal(err)
	}
	if got := m.LocalDeadlock(tr.Steps[len(tr.Steps)-1].State, nil); len(got) != m.Packets() {
		t.Fatalf("replayed: %d of %d packets stuck", len(got), m.Packets())
	}
}

// Counter-clockwise routes for one destination break the loop.
func TestRingUpDownHolds(t *testing.T) {
	// Routes never cross the link S3 -> S0 nor S0 -> S3: an up*/down*-like ring.
	f := ring(t, 4, func(i, j int) uint8 {
		if j > i {
			return 3
		}
		return 2
	})
	a, err := Analyze(context.Background(), f, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Loops) != 0 || a.Verdict() != props.Holds || a.Pairs.Delivered != 12 {
		t.Fatalf("%s, verdict %v; want no loop", a, a.Verdict())
	}
}

func TestReal62(t *testing.T) {
	f, _, err := fabric.Load(fabric.Files{Topology: shared(t, "subnet.lst"), LFTs: shared(t, "osm.fdbs")})
	if err != nil {
		t.Fatal(err)
	}
	for _, all := range []bool{false, true} {
		a, err := Analyze(context.Background(), f, Options{All: all})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("all=%v: %s, %.3fs, verdict %v", all, a, a.Seconds, a.Verdict())
		for _, l := range a.Loops {
			t.Logf("  loop of %d channels, cycle %d, %v %s: %s", len(l.Channels), len(l.Cycle), l.Decision.Verdict, l.Decision.How, l.Decision.Reason)
		}
	}
}

// The shared fabrics that carry only a topology, routed by wormcheck as OpenSM's
// engines: CreditLoopDemo under minhop has a reachable credit loop, with a trace that
// replays; under up*/down* it is free of loops; credit-loops.topo under minhop has the
// loop ibdiag's demo documents ("OpenSM default router cause credit loops on this
// fabric").
func TestSharedTopologies(t *testing.T) {
	for _, c := range []struct {
		file, route string
		roots       []string
		want        props.Verdict
	}{
		{"CreditLoopDemo.cables", "minhop", nil, props.Violated},
		{"CreditLoopDemo.cables", "updn", []string{"RD1"}, props.Holds},
		{"credit-loops.topo", "minhop", nil, props.Violated},
		{"credit-loops.topo", "updn", []string{"SW_L0_1", "SW_L0_2", "SW_L0_3", "SW_L0_4"}, props.Holds},
	} {
		rep, err := Check(context.Background(), Spec{Files: fabric.Files{Topology: shared(t, c.file)}, Route: c.route, Roots: c.roots})
		if err != nil {
			t.Fatal(err)
		}
		a := rep.Analysis()
		if rep.Verdict != c.want || a.Pairs.Delivered != a.Pairs.Pairs {
			t.Fatalf("%s under %s: %v (%s); want %v with every route delivered", c.file, c.route, rep.Verdict, a, c.want)
		}
		if c.want == props.Holds {
			if len(a.Loops) != 0 {
				t.Fatalf("%s under %s: %d loops; up*/down* has none", c.file, c.route, len(a.Loops))
			}
			continue
		}
		if rep.Trace == nil {
			t.Fatalf("%s under %s: no trace", c.file, c.route)
		}
		if _, r, err := Replay(rep.Trace); err != nil || len(r.Stuck) == 0 {
			t.Fatalf("%s under %s: the saved trace does not replay to a deadlock: %v", c.file, c.route, err)
		}
	}
}

// shared returns a file of ../shared/fabrics/ib, skipping with one line where absent.
func shared(t testing.TB, name string) string { return fabrictest.Shared(t, name) }

// ring returns fabrictest.Ring: n switches in a ring with a host each, switch i
// routing host j by port route(i, j).
func ring(t testing.TB, n int, route func(i, j int) uint8) *fabric.Fabric {
	return fabrictest.Ring(t, n, route)
}

// TestSpecErrorsInGoTerms: a Go caller of Check reads the fields of its Spec in a
// refusal (props/check writes them as fabric's flags).
func TestSpecErrorsInGoTerms(t *testing.T) {
	ring := fabric.Files{Topology: filepath.Join("..", "..", "cmd", "wormcheck", "testdata", "fabric", "ring.cables")}
	for _, c := range []struct {
		spec Spec
		want string
	}{
		{Spec{Files: ring, Route: "minhop", MTU: 1000}, "Spec.MTU 1000: an InfiniBand MTU is"},
		{Spec{Files: ring, Route: "updn"}, "Spec.Route updn needs Spec.Roots: the root switches"},
		{Spec{Files: ring, Route: "minhop", Faults: []string{"S1"}}, "Spec.Faults S1: name a link by one end"},
	} {
		_, err := Check(t.Context(), c.spec)
		var fe *props.FieldError
		if !errors.As(err, &fe) || !strings.HasPrefix(err.Error(), c.want) || !errors.Is(err, props.ErrBadInput) {
			t.Errorf("%+v: %v; want %q...", c.spec, err, c.want)
		}
	}
}
