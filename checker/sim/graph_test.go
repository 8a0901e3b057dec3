package sim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/routing/routingtest"
	"github.com/wormcheck/wormcheck/model/topology"
)

// meanRouteHops is the mean length of rel's routes over ordered pairs of distinct
// endpoints, computed directly (the zero-load formula's h).
func meanRouteHops(t *testing.T, g *topology.Network, rel routing.Relation) float64 {
	t.Helper()
	var sum, n float64
	for _, s := range g.Endpoints() {
		for _, d := range g.Endpoints() {
			if s == d {
				continue
			}
			hops, err := routing.FirstPath(rel, s, d)
			if err != nil {
				t.Fatal(err)
			}
			sum += float64(len(hops))
			n++
		}
	}
	return sum / n
}

// TestGraphLightLoadZeroLoadLatency: on a 72-terminal dragonfly under minimal routing
// with its VC classes and on a 4-ary 2-tree under nearest-common-ancestor routing, light
// uniform traffic between terminals is all delivered (the run drains), only terminals
// send and receive, every flit-hop of every route is made, and the mean latency is
// within a few percent above the zero-load formula ts + h + L + tr, h the mean route
// length between terminals (timed model of DESIGN.md with tc = 1).
func TestGraphLightLoadZeroLoadLatency(t *testing.T) {
	for _, c := range []struct{ spec, routing string }{
		{"dragonfly:a=4,p=2,h=2", "dragonfly-min"},
		{"fattree:4,2", "fattree-nca"},
		{"fattree:2,3", "fattree-nca"},
		{"random:12,16,3", "updown"},
	} {
		g, rel := routingtest.Builtin(t, c.spec, c.routing)
		cfg := Config{Grid: g, Relation: rel, Length: 16, Ts: 3, Tr: 2, Seed: 7, Warmup: 500, Cycles: 40000,
			StopSources: true, Traffic: Traffic{Rate: 0.0005}}
		var recv []int
		cfg.Trace = func(ev TraceEvent) {
			if ev.Channel == topology.None && ev.Tail {
				recv = append(recv, int(ev.Node))
			}
			if ev.InChannel == topology.None && !g.Endpoint(g.Channel(ev.Channel).From) {
				t.Fatalf("%s: a router injected into %d", c.spec, ev.Channel)
			}
		}
		res, err := Run(cfg)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if res.Deadlocked || res.Saturated || res.Undelivered != 0 || res.Completed != res.Generated || res.Generated < 150 {
			t.Fatalf("%s: did not deliver everything: %+v", c.spec, *res)
		}
		if res.FlitHops != res.RouteFlitHops {
			t.Errorf("%s: %d flit-hops, routes need %d", c.spec, res.FlitHops, res.RouteFlitHops)
		}
		for _, v := range recv {
			if !g.Endpoint(topology.NodeID(v)) {
				t.Fatalf("%s: router %s received a worm", c.spec, g.NodeName(topology.NodeID(v)))
			}
		}
		zero := float64(cfg.Ts) + meanRouteHops(t, g, rel) + float64(cfg.Length) + float64(cfg.Tr)
		if m := res.Unicast.Mean; m < zero-3*res.Unicast.CI95 || m > zero*1.05 {
			t.Errorf("%s: mean latency %.2f ± %.2f, zero-load formula %.2f", c.spec, m, res.Unicast.CI95, zero)
		}
		t.Logf("%s %s: mean %.2f ± %.2f over %d, zero-load %.2f", c.spec, c.routing, res.Unicast.Mean, res.Unicast.CI95, res.Unicast.N, zero)
	}
}

// TestGraphDeadlockReported: relations that deadlock are reported deadlocked, not hung:
// shortest-path routing on one VC around a ring (AN2) and dragonfly minimal routing
// without its VC classes (AN3) under heavy load; the same loads drain with up*/down* and
// with the classes.
func TestGraphDeadlockReported(t *testing.T) {
	ring := "file:testdata/ring6.dot"
	for _, c := range []struct {
		spec, routing string
		rate          float64
		deadlock      bool
	}{
		{ring, "shortest-path", 0.05, true},
		{ring, "updown", 0.05, false},
		{"dragonfly:a=4,p=2,h=2", "dragonfly-min-1vc", 0.05, true},
		{"dragonfly:a=4,p=2,h=2", "dragonfly-min", 0.05, false},
	} {
		g, rel := routingtest.Builtin(t, c.spec, c.routing)
		res, err := Run(Config{Grid: g, Relation: rel, Length: 32, Seed: 1, Cycles: 3000, DrainLimit: 20000, StopSources: true,
			Traffic: Traffic{Rate: c.rate}})
		if err != nil {
			t.Fatalf("%s %s: %v", c.spec, c.routing, err)
		}
		if res.Deadlocked != c.deadlock || (res.Undelivered == 0) == c.deadlock {
			t.Errorf("%s %s: deadlocked %v, want %v: %+v", c.spec, c.routing, res.Deadlocked, c.deadlock, *res)
		}
		if !c.deadlock && res.Completed != res.Generated {
			t.Errorf("%s %s: %d of %d delivered", c.spec, c.routing, res.Completed, res.Generated)
		}
	}
}

// TestGraphRefused: an irregular network needs a relation, a relation routes only its own
// network, and what branches by dimension or sends from a router is refused.
func TestGraphRefused(t *testing.T) {
	g, rel := routingtest.Builtin(t, "dragonfly:a=2,p=1,h=1", "dragonfly-min")
	mesh := mustGrid(t, "mesh:4x4")
	router, _ := g.NodeByName("g0r0")
	for _, c := range []struct {
		cfg  Config
		want string
	}{
		{Config{Grid: g}, "give a routing relation"},
		{Config{Grid: mesh, Relation: rel}, "does not route on topology mesh:4x4"},
		{Config{Grid: g, Relation: rel, Tree: true}, "tree multicast branches by dimension order"},
		{Config{Grid: g, Relation: rel, Traffic: Traffic{Rate: 0.01, Broadcast: 0.5}}, "SBT broadcast"},
		{Config{Grid: g, Relation: rel, Traffic: Traffic{Rate: 0.01, HotSpot: 0.1, HotNode: router}}, "hot node g0r0: a router"},
		{Config{Grid: g, Relation: rel, Traffic: Traffic{Rate: 0.01, Multicast: 1, MinDests: 2, MaxDests: 6}}, "need 1 <= min <= max <= 5"},
	} {
		_, err := Run(c.cfg)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	// A relation that strands a worm is refused before the run.
	f, _ := topology.Parse("mesh:3x3/faults=(1,0)-(2,0)")
	dor, _ := routing.ByName(f, "dor")
	if _, err := Run(Config{Grid: f, Relation: dor}); err == nil || !strings.Contains(err.Error(), "strands") {
		t.Errorf("dor across a failed link: %v", err)
	}
}

// TestGraphLazyRoutesSameRun: the route table computed on demand (networks with more than
// maxEagerPairs endpoint pairs) gives the same run, to the last figure, as the one
// computed before the run.
func TestGraphLazyRoutesSameRun(t *testing.T) {
	g, rel := routingtest.Builtin(t, "dragonfly:a=4,p=2,h=2", "dragonfly-min")
	cfg := Config{Grid: g, Relation: rel, Length: 8, Seed: 9, Warmup: 200, Cycles: 3000,
		Traffic: Traffic{Rate: 0.02, Multicast: 0.2, MinDests: 2, MaxDests: 5}}
	eager, err := Run(cfg)
	if err != nil {
		t.Fatal(err)
	}
	rn, err := newRunner(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if rn.routes.lazy != nil {
		t.Fatal("72 terminals: want the table computed before the run")
	}
	if rn.routes, err = newRouteTable(rel, SelectFirst, g.Endpoints(), 0); err != nil {
		t.Fatal(err)
	}
	lazy := rn.run()
	if a, b := fmt.Sprintf("%+v", *eager), fmt.Sprintf("%+v", *lazy); a != b {
		t.Errorf("lazy routes changed the run:\n%s\n%s", b, a)
	}
	if len(rn.routes.lazy) == 0 {
		t.Error("the lazy table computed no route")
	}
}

// TestGraphHashSelectionSpreads: on the 4-ary 3-tree under nearest-common-ancestor
// routing, the most preferred output sends every up-going worm through the first root,
// which saturates at 0.2 flits/terminal/cycle; spreading pairs by hash (ECMP) keeps the
// same minimal route lengths, every route a walk from source to destination, and
// carries the load.
func TestGraphHashSelectionSpreads(t *testing.T) {
	g, rel := routingtest.Builtin(t, "fattree:4,3", "fattree-nca")
	used := [2]map[topology.NodeID]bool{{}, {}}
	var total [2]int
	for si, sel := range []Selection{SelectFirst, SelectHash} {
		for _, s := range g.Endpoints() {
			for _, d := range g.Endpoints() {
				if s == d {
					continue
				}
				hops, err := sel.Path(rel, s, d)
				if err != nil {
					t.Fatal(err)
				}
				var walk []topology.ChannelID
				for _, h := range hops {
					walk = append(walk, h.Channel)
					if v := g.Channel(h.Channel).To; strings.HasPrefix(g.NodeName(v), "s0.") {
						used[si][v] = true
					}
				}
				if err := g.CheckWalk(s, d, walk); err != nil {
					t.Fatalf("%s: %v", sel, err)
				}
				total[si] += len(hops)
			}
		}
	}
	if total[0] != total[1] || len(used[0]) != 1 || len(used[1]) != 16 {
		t.Errorf("hops first %d, hash %d; roots used first %d, hash %d (of 16)", total[0], total[1], len(used[0]), len(used[1]))
	}
	for _, c := range []struct {
		sel       Selection
		saturated bool
	}{{SelectFirst, true}, {SelectHash, false}} {
		res, err := Run(Config{Grid: g, Relation: rel, Selection: c.sel, Length: 32, Seed: 1, Warmup: 1000, Cycles: 5000,
			Traffic: Traffic{Rate: 0.2 / 32}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Saturated != c.saturated || res.Deadlocked {
			t.Errorf("%s: saturated %v, want %v: %+v", c.sel, res.Saturated, c.saturated, *res)
		}
	}
}

// TestGraphRelationDORMatchesGrid: on a mesh and a torus, worms routed through the route
// table by the relation dor (with its dateline classes) make the same run, to the last
// figure, as worms on topology.DOR's paths: the relation path and the grid path agree.
func TestGraphRelationDORMatchesGrid(t *testing.T) {
	for _, spec := range []string{"mesh:4x5", "torus:6x4"} {
		g := mustGrid(t, spec)
		rel, err := routing.ByName(g, "dor")
		if err != nil {
			t.Fatal(err)
		}
		cfg := Config{Grid: g, Length: 8, Seed: 4, Warmup: 200, Cycles: 3000,
			Traffic: Traffic{Rate: 0.2 / 8, Multicast: 0.1, MinDests: 2, MaxDests: 4}}
		grid, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		cfg.Relation = rel
		byRel, err := Run(cfg)
		if err != nil {
			t.Fatal(err)
		}
		if a, b := fmt.Sprintf("%+v", *grid), fmt.Sprintf("%+v", *byRel); a != b {
			t.Errorf("%s: relation dor\n%s\nmodel.DOR\n%s", spec, b, a)
		}
	}
}
