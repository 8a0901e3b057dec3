package check_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// TestTypedEqualsByName: a typed request and the same instance named by strings (Run)
// give the same verdict, state count and witness length, violated or not.
func TestTypedEqualsByName(t *testing.T) {
	ctx := context.Background()
	ring, _ := model.ParseGrid("torus:4")
	m22, _ := model.NewMesh(2, 2)
	ms, _ := treemcast.ParseMsgs(m22, "(0,0)->(1,0),(0,1);(1,1)->(0,1),(1,0)")
	m33, _ := model.NewMesh(3, 3)
	b16, _ := model.NewBanyan(16)
	fig4, _ := banyan.ParseMulticasts("1->5,6,7,8;15->7-12", 16)
	cases := []struct {
		name  string
		typed interface {
			Check(context.Context, string, check.Options) (*props.Report, error)
		}
		in   check.Instance
		prop string // "": props.PropDeadlock
	}{
		{"unicast", check.Unicast{Grid: ring, Spec: unicast.Spec{Pairs: []unicast.Pair{{Src: 0, Dst: 2}, {Src: 1, Dst: 3}, {Src: 2, Dst: 0}, {Src: 3, Dst: 1}}, Dateline: unicast.DatelineOff}},
			check.Instance{Algorithm: "unicast", Topology: "torus:4", Params: map[string]string{"msgs": "0->2,1->3,2->0,3->1", "dateline": "off"}}, ""},
		{"unicast family", check.Unicast{Grid: m22, Family: 2},
			check.Instance{Algorithm: "unicast", Topology: "mesh:2x2", Params: map[string]string{"family": "all-placements:2"}}, ""},
		{"tree-mcast", check.TreeMulticast{Instance: treemcast.Instance{Grid: m22, Msgs: ms, Params: treemcast.Params{Prune: flit.PruneNone, Length: 1, Buffer: 1, Ports: flit.OnePort}}},
			check.Instance{Algorithm: "tree-mcast", Topology: "mesh:2x2", Params: map[string]string{"msgs": "(0,0)->(1,0),(0,1);(1,1)->(0,1),(1,0)", "pruning": "none", "buffers": "1"}}, ""},
		{"two-phase", check.TwoPhase{Banyan: b16, Msgs: fig4, Options: banyan.Options{Starts: []int{5, 7}}},
			check.Instance{Algorithm: "two-phase", Topology: "banyan:16", Params: map[string]string{"msgs": "1->5,6,7,8;15->7-12", "starts": "5,7"}}, ""},
		{"partition", check.Partition{Grid: m33, Params: partition.Params{Type: partition.TypeIII, H: 3, Delta: 1}},
			check.Instance{Algorithm: "partition", Topology: "mesh:3x3", Params: map[string]string{"type": "III", "h": "3", "delta": "1"}}, props.PropConnected},
	}
	for _, c := range cases {
		prop := c.prop
		if prop == "" {
			prop = props.PropDeadlock
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
	}
}

// TestTypedBadInput: a typed request without its topology, or with a value out of
// range, is bad input naming the field.
func TestTypedBadInput(t *testing.T) {
	ctx := context.Background()
	g, _ := model.NewMesh(3, 3)
	for _, c := range []struct {
		typed interface {
			Check(context.Context, string, check.Options) (*props.Report, error)
		}
		says string
	}{
		{check.Unicast{}, "--topo"},
		{check.Unicast{Grid: g, Spec: unicast.Spec{Pairs: []unicast.Pair{{Src: 0, Dst: 8}}, Length: -1}}, "--length"},
		{check.Unicast{Grid: g}, "--msgs"},
		{check.TreeMulticast{}, "--topo"},
		{check.TreeMulticast{Instance: treemcast.Instance{Grid: g}, Stop: true}, "--stop"},
		{check.TwoPhase{}, "--topo"},
	} {
		if _, err := c.typed.Check(ctx, props.PropDeadlock, check.Options{}); !errors.Is(err, check.ErrBadInput) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%T: %v; want bad input naming %s", c.typed, err, c.says)
		}
	}
	if _, err := (check.Unicast{Grid: g, Spec: unicast.Spec{Pairs: []unicast.Pair{{Src: 0, Dst: 8}}}}).Check(ctx, "steps", check.Options{}); !errors.Is(err, check.ErrBadInput) {
		t.Errorf("unsupported property: %v", err)
	}
}
