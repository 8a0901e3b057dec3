package check_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/wormcheck/wormcheck/algos/plan"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// collectiveFlags are the collectives' parameters, as a test writes them.
type collectiveFlags struct{ Source, Dests, Multicasts, Ports, Base string }

func (f collectiveFlags) instance(name, topo string) check.Instance {
	in := check.Instance{Algorithm: name, Topology: topo, Params: map[string]string{}}
	for k, v := range map[string]string{"source": f.Source, "dests": f.Dests, "multicasts": f.Multicasts, "ports": f.Ports, "base": f.Base} {
		if v != "" {
			in.Params[k] = v
		}
	}
	return in
}

// TestCollectiveChecks runs each collective through the entry on a small instance.
func TestCollectiveChecks(t *testing.T) {
	cases := []struct {
		name, topo string
		prop       checker.Property
		f          collectiveFlags
		want       props.Verdict
	}{
		{"dcf", "torus:8x8", "depth", collectiveFlags{Source: "(3,5)"}, props.Holds},
		{"zblock", "torus:8x8", "depth", collectiveFlags{Source: "0"}, props.Violated},
		{"edn", "torus:16x16", "depth", collectiveFlags{Source: "0"}, props.Violated},
		{"edn", "torus:16x16", "stepwise", collectiveFlags{Source: "0"}, props.Holds},
		{"sbt", "hypercube:5", "exactly-once", collectiveFlags{Source: "3", Base: "2"}, props.Holds},
		{"utorus", "torus:8x8", "depth", collectiveFlags{Source: "(4,2)", Dests: "(0,3),(1,1),(2,6),(3,4),(5,7),(6,0),(6,4)"}, props.Holds},
		{"umesh", "mesh:4x4", "node-contention", collectiveFlags{Multicasts: "5:0,1,2,3;10:0,1,2,3"}, props.Violated},
		{"separate", "mesh:4x4", "steps", collectiveFlags{Source: "0", Dests: "all"}, props.Holds},
	}
	for _, c := range cases {
		r, err := check.Run(context.Background(), c.f.instance(c.name, c.topo), c.prop, check.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if r.Verdict != c.want {
			t.Errorf("%s %s %s: %s (%s)", c.name, c.topo, c.prop, r.Verdict, r.Reason)
		}
	}
}

// TestCollectiveBadInput: bad parameters are bad input.
func TestCollectiveBadInput(t *testing.T) {
	for _, c := range []struct {
		name, topo string
		f          collectiveFlags
	}{
		{"dcf", "torus:6x6", collectiveFlags{Source: "0"}},
		{"dcf", "torus:4x4", collectiveFlags{Source: "(9,9)"}},
		{"utorus", "torus:4x4", collectiveFlags{Source: "0"}},
		{"utorus", "torus:4x4", collectiveFlags{Source: "0", Dests: "0,1"}},
		{"umesh", "mesh:4x4", collectiveFlags{Multicasts: "5-0,1"}},
		{"sbt", "hypercube:3", collectiveFlags{Source: "0", Base: "7"}},
		{"dcf", "torus:4x4", collectiveFlags{Source: "0", Ports: "two"}},
		{"dcf", "banyan:16", collectiveFlags{Source: "0"}},
	} {
		if _, err := check.BuildSchedule(context.Background(), c.f.instance(c.name, c.topo), check.Options{}); err == nil {
			t.Errorf("%s %s %+v: accepted", c.name, c.topo, c.f)
		} else if !errors.Is(err, check.ErrBadInput) {
			t.Errorf("%s: %v is not bad input", c.name, err)
		}
	}
}

// TestBuildScheduleStopsOnCancel cuts each collective's build by context looks: the
// builders look every plan.StopEvery unicasts, so a context that ends at its second look
// stops every build after exactly 8192 of its 16383 unicasts, with a *plan.Stopped error
// that is not bad input; with looks to spare the build is whole.
func TestBuildScheduleStopsOnCancel(t *testing.T) {
	for _, c := range []struct {
		name, topo string
		f          collectiveFlags
	}{
		{"dcf", "torus:128x128", collectiveFlags{}},
		{"zblock", "torus:128x128", collectiveFlags{}},
		{"edn", "torus:128x128", collectiveFlags{}},
		{"sbt", "hypercube:14", collectiveFlags{}},
		{"utorus", "torus:128x128", collectiveFlags{Dests: "all"}},
		{"separate", "mesh:128x128", collectiveFlags{Multicasts: "0:all;5:all"}},
	} {
		in := c.f.instance(c.name, c.topo)
		total := 16383
		if c.name == "separate" {
			total *= 2
		}
		_, err := check.BuildSchedule(newCountCtx(1), in, check.Options{})
		var stopped *plan.Stopped
		if !errors.As(err, &stopped) || errors.Is(err, check.ErrBadInput) || stopped.Sent != 2*plan.StopEvery || stopped.Total != total {
			t.Errorf("%s %s cut at the second look: %v", c.name, c.topo, err)
		}
		s, err := check.BuildSchedule(newCountCtx(100), in, check.Options{})
		if err != nil || len(s.Unicasts) != total {
			t.Errorf("%s %s with looks to spare: %v", c.name, c.topo, err)
		}
	}
}

// TestCollectiveScheduleFile round-trips a schedule file.
func TestCollectiveScheduleFile(t *testing.T) {
	sc, err := check.BuildSchedule(context.Background(), collectiveFlags{Source: "0"}.instance("dcf", "torus:4x4"), check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := model.MarshalSchedule(sc)
	if err != nil {
		t.Fatal(err)
	}
	s, err := model.ParseSchedule(b)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Unicasts) != 15 || !json.Valid(b) {
		t.Errorf("%d unicasts", len(s.Unicasts))
	}
}

// FuzzParseNodeList: the destination-list parser never panics and returns nodes of the
// grid, distinct and not the source.
func FuzzParseNodeList(f *testing.F) {
	for _, s := range []string{"1,2,3", "(0,1),(2,3)", "all", "(1,2", "((", ",,", "(9,9)", "-1", "3,3"} {
		f.Add(s)
	}
	g, _ := topology.NewTorus(4, 4)
	f.Fuzz(func(t *testing.T, list string) {
		ds, err := check.ParseNodeList(g, 0, list)
		if err != nil {
			return
		}
		seen := map[topology.NodeID]bool{}
		for _, d := range ds {
			if d <= 0 || int(d) >= g.Nodes() || seen[d] {
				t.Fatalf("%q: bad node %d", list, d)
			}
			seen[d] = true
		}
	})
}
