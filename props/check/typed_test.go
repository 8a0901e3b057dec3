package check_test

import (
	"context"
	"errors"
	"maps"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/algos/unicastmc"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// TestTypedEqualsByName: a typed request and the same instance named by strings (Run)
// give the same verdict, state count and witness length, violated or not.
func TestTypedEqualsByName(t *testing.T) {
	ctx := context.Background()
	ring, _ := topology.Parse("torus:4")
	m22, _ := topology.NewMesh(2, 2)
	ms, _ := treemcast.ParseMsgs(m22, "(0,0)->(1,0),(0,1);(1,1)->(0,1),(1,0)")
	m33, _ := topology.NewMesh(3, 3)
	b16, _ := topology.NewBanyan(16)
	b8, _ := topology.NewBanyan(8)
	t88, _ := topology.Parse("torus:8x8")
	t44, _ := topology.Parse("torus:4x4")
	t66, _ := topology.Parse("torus:6x6")
	m88, _ := topology.Parse("mesh:8x8")
	h4, _ := topology.NewHypercube(4)
	mcs := []unicastmc.Multicast{{Source: 0, Destinations: []topology.NodeID{5, 9, 63}}, {Source: 7, Destinations: []topology.NodeID{1, 2, 40}}}
	blocking, _ := banyan.ParsePattern("0->3,1->2", 8)
	fig4, _ := banyan.ParseMulticasts("1->5,6,7,8;15->7-12", 16)
	cases := []struct {
		name  string
		typed interface {
			Check(context.Context, checker.Property, check.Options) (*props.Report, error)
		}
		in   check.Instance
		prop checker.Property // "": checker.PropDeadlock
	}{
		{"unicast", check.Unicast{Grid: ring, Spec: unicast.Spec{Pairs: []unicast.Pair{{Src: 0, Dst: 2}, {Src: 1, Dst: 3}, {Src: 2, Dst: 0}, {Src: 3, Dst: 1}}, Dateline: unicast.DatelineOff}},
			check.Instance{Algorithm: "unicast", Topology: "torus:4", Params: map[string]string{"msgs": "0->2,1->3,2->0,3->1", "dateline": "off"}}, ""},
		{"unicast family", check.Unicast{Grid: m22, Family: &unicast.Family{MaxWorms: 2, MinWorms: 1, Connected: true}},
			check.Instance{Algorithm: "unicast", Topology: "mesh:2x2", Params: map[string]string{"family": "all-placements:2"}}, ""},
		{"tree-mcast", check.TreeMulticast{Instance: treemcast.Instance{Grid: m22, Msgs: ms, Params: treemcast.Params{Prune: flit.PruneNone, Length: 1, Buffer: 1, Ports: flit.OnePort}}},
			check.Instance{Algorithm: "tree-mcast", Topology: "mesh:2x2", Params: map[string]string{"msgs": "(0,0)->(1,0),(0,1);(1,1)->(0,1),(1,0)", "pruning": "none", "buffers": "1"}}, ""},
		{"two-phase", check.TwoPhase{Banyan: b16, Msgs: fig4, Options: banyan.Options{Starts: []int{5, 7}}},
			check.Instance{Algorithm: "two-phase", Topology: "banyan:16", Params: map[string]string{"msgs": "1->5,6,7,8;15->7-12", "starts": "5,7"}}, ""},
		{"partition", check.Partition{Grid: m33, Params: partition.Params{Type: partition.TypeIII, H: 3, Delta: 1}},
			check.Instance{Algorithm: "partition", Topology: "mesh:3x3", Params: map[string]string{"type": "III", "h": "3", "delta": "1"}}, checker.PropConnected},
		{"banyan-route pattern", check.BanyanRoute{Banyan: b8, Pattern: blocking},
			check.Instance{Algorithm: "banyan-route", Topology: "banyan:8", Params: map[string]string{"pattern": "0->3,1->2"}}, checker.PropNonblocking},
		{"banyan-route monotone", check.BanyanRoute{Banyan: b8, Order: banyan.Descending, Concentration: banyan.Scattered},
			check.Instance{Algorithm: "banyan-route", Topology: "banyan:8", Params: map[string]string{"order": "descending", "concentration": "scattered"}}, checker.PropNonblocking},
		{"banyan-route enumerate", check.BanyanRoute{Banyan: b8, Enumerate: true},
			check.Instance{Algorithm: "banyan-route", Topology: "banyan:8", Params: map[string]string{"method": "enumerate"}}, checker.PropNonblocking},
		{"zblock depth", check.Collective{Algorithm: "zblock", Grid: t88, Source: t88.Node(1, 2)},
			check.Instance{Algorithm: "zblock", Topology: "torus:8x8", Params: map[string]string{"source": "(1,2)"}}, checker.PropDepth},
		{"zblock plus ties any-delay", check.Collective{Algorithm: "zblock", Grid: t44, PlusTies: true},
			check.Instance{Algorithm: "zblock", Topology: "torus:4x4", Params: map[string]string{"ties": "plus"}}, checker.PropAnyDelay},
		{"umesh node contention", check.Collective{Algorithm: "umesh", Grid: m88, Multicasts: mcs},
			check.Instance{Algorithm: "umesh", Topology: "mesh:8x8", Params: map[string]string{"multicasts": "0:5,9,63;7:1,2,40"}}, checker.PropNodeContention},
		{"utorus chain-bound at a point", check.Collective{Algorithm: "utorus", Grid: t66, Multicasts: []unicastmc.Multicast{{Source: 0, Destinations: []topology.NodeID{1, 7, 14, 20, 35}}}, Point: &props.Params{Ts: 300, Tc: 1, L: 32}},
			check.Instance{Algorithm: "utorus", Topology: "torus:6x6", Params: map[string]string{"dests": "1,7,14,20,35", "point": "300,0,1,32"}}, checker.PropChainBound},
		{"sbt distributions", check.Collective{Algorithm: "sbt", Grid: h4, Base: 2},
			check.Instance{Algorithm: "sbt", Topology: "hypercube:4", Params: map[string]string{"base": "2"}}, checker.PropDistributions},
		{"banyan-route two-phase", check.BanyanRoute{Banyan: b8, TwoPhase: true, Wrap: true},
			check.Instance{Algorithm: "banyan-route", Topology: "banyan:8", Params: map[string]string{"family": "two-phase", "wrap": "true"}}, checker.PropNonblocking},
		{"cube-load", check.CubeLoad{Grid: h4, VCs: 2, Length: 8, Broadcast: 0.05, Load: 0.3, Cycles: 2000},
			check.Instance{Algorithm: "cube-load", Topology: "hypercube:4", Params: map[string]string{"vcs": "2", "length": "8", "broadcast": "0.05", "load": "0.3", "cycles": "2000"}}, checker.PropModelAgreement},
		{"cube-load with a tolerance", check.CubeLoad{Grid: h4, Load: 0.3, Cycles: 1000, Tolerance: 1e-9},
			check.Instance{Algorithm: "cube-load", Topology: "hypercube:4", Params: map[string]string{"broadcast": "0", "load": "0.3", "cycles": "1000", "tolerance": "1e-9"}}, checker.PropModelAgreement},
		{"banyan-load", check.BanyanLoad{Banyan: b8, P: 0.5, M: 0.3, Fanout: 2, Slots: 500},
			check.Instance{Algorithm: "banyan-load", Topology: "banyan:8", Params: map[string]string{"p": "0.5", "m": "0.3", "fanout": "2", "slots": "500"}}, checker.PropModelAgreement},
		{"mcast-load", check.McastLoad{Grid: m33, Dests: 2, Loads: []float64{0.01, 0.05}, Warmup: 100, Cycles: 500},
			check.Instance{Algorithm: "mcast-load", Topology: "mesh:3x3", Params: map[string]string{"dests": "2", "loads": "0.01,0.05", "warmup": "100", "cycles": "500"}}, checker.PropLatencyCompare},
	}
	replayed := 0
	for _, c := range cases {
		prop := c.prop
		if prop == "" {
			prop = checker.PropDeadlock
		}
		a, err := c.typed.Check(ctx, prop, check.Options{})
		if err != nil {
			t.Fatalf("%s typed: %v", c.name, err)
		}
		b, err := check.Run(ctx, c.in, prop, check.Options{})
		if err != nil {
			t.Fatalf("%s by name: %v", c.name, err)
		}
		if a.Verdict != b.Verdict || a.Stats.States != b.Stats.States || a.Reason != b.Reason || (a.Witness == nil) != (b.Witness == nil) ||
			a.Witness != nil && len(a.Witness.Steps) != len(b.Witness.Steps) {
			t.Errorf("%s: typed %s %d states, by name %s %d states", c.name, a.Verdict, a.Stats.States, b.Verdict, b.Stats.States)
		}
		if !maps.Equal(a.Figures, b.Figures) {
			t.Errorf("%s: typed figures %v, by name %v", c.name, a.Figures, b.Figures)
		}
		// A typed request's saved trace names its instance as well as one by name does.
		if a.Trace != nil {
			if rep, err := check.Replay(ctx, a.Trace); err != nil || rep.Verdict != props.Violated {
				t.Errorf("%s: the typed request's trace does not replay: %v", c.name, err)
			} else {
				replayed++
			}
		}
	}
	if replayed < 2 {
		t.Errorf("only %d typed traces replayed; the cases should have a schedule trace besides unicast's", replayed)
	}
}

// TestTypedBadInput: a typed request without its topology, or with a value out of
// range, is bad input naming the Go field at fault (not a command-line flag).
func TestTypedBadInput(t *testing.T) {
	ctx := context.Background()
	g, _ := topology.NewMesh(3, 3)
	for _, c := range []struct {
		typed interface {
			Check(context.Context, checker.Property, check.Options) (*props.Report, error)
		}
		says string
	}{
		{check.Unicast{}, "Unicast.Grid is nil"},
		{check.Unicast{Grid: g, Spec: unicast.Spec{Pairs: []unicast.Pair{{Src: 0, Dst: 8}}, Length: -1}}, "Unicast.Spec.Length -1 is out of range"},
		{check.Unicast{Grid: g}, "Unicast.Spec.Pairs is empty"},
		{check.TreeMulticast{}, "TreeMulticast.Instance.Grid is nil"},
		{check.TreeMulticast{Instance: treemcast.Instance{Grid: g}, Stop: true}, "TreeMulticast.Stop need TreeMulticast.Family"},
		{check.TwoPhase{}, "TwoPhase.Banyan is nil"},
	} {
		if _, err := c.typed.Check(ctx, checker.PropDeadlock, check.Options{}); !errors.Is(err, check.ErrBadInput) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%T: %v; want bad input naming %s", c.typed, err, c.says)
		}
	}
	if _, err := (check.Unicast{Grid: g, Spec: unicast.Spec{Pairs: []unicast.Pair{{Src: 0, Dst: 8}}}}).Check(ctx, "steps", check.Options{}); !errors.Is(err, check.ErrBadInput) {
		t.Errorf("unsupported property: %v", err)
	}
}
