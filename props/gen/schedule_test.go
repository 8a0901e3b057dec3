package gen_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/leanovate/gopter"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
	"github.com/wormcheck/wormcheck/props/gen"
	"github.com/wormcheck/wormcheck/props/schedule"
)

func TestRandomSchedulesAreCausalAndDeterministic(t *testing.T) {
	ps := gopter.NewProperties(gopter.DefaultTestParametersWithSeed(3))
	o := gen.ScheduleOptions{TwoSources: true, OnePort: true, ShuffleOrders: true}
	schedules, err := gen.Schedules(o)
	if err != nil {
		t.Fatal(err)
	}
	ps.Property("checked, exactly-once, causal", gen.ForAll(schedules, func(s *model.Schedule) string {
		if err := s.Check(); err != nil {
			return err.Error()
		}
		if r := schedule.ExactlyOnce(s); r.Verdict != props.Holds {
			return r.Text
		}
		if _, err := schedule.Simulate(s, props.Params{Ts: 1, Tr: 1, Tc: 1, L: 1}); err != nil {
			return err.Error()
		}
		return ""
	}))
	ps.TestingRun(t)
	a, _ := gen.RandomSchedule(9, o)
	b, _ := gen.RandomSchedule(9, o)
	ja, _ := model.MarshalSchedule(a)
	jb, _ := model.MarshalSchedule(b)
	if string(ja) != string(jb) {
		t.Fatal("same seed, different schedules")
	}
}

// TestXYUnicastsNeverDeadlock is the property a user writes: random unicast mixes on a
// 3x3 mesh, checked through the entry, never deadlock under XY routing (Dally & Seitz) —
// and the same generator finds the torus deadlock without datelines, so the property is
// not vacuous.
func TestXYUnicastsNeverDeadlock(t *testing.T) {
	for _, c := range []struct {
		topo, dateline string
		worms, tests   int
		want           props.Verdict
	}{{"mesh:3x3", "auto", 3, 40, props.Holds}, {"torus:4", "off", 6, 200, props.Violated}} {
		g, err := topology.Parse(c.topo)
		if err != nil {
			t.Fatal(err)
		}
		mixes, err := gen.Mixes(g, gen.MixOptions{MaxMessages: c.worms, MaxDests: 1})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[props.Verdict]int{}
		params := gopter.DefaultTestParametersWithSeed(5)
		params.MinSuccessfulTests = c.tests
		ps := gopter.NewProperties(params)
		ps.Property(c.topo, gen.ForAll(mixes, func(m gen.Mix) string {
			msgs, err := m.Msgs("unicast")
			if err != nil {
				return err.Error()
			}
			rep, err := check.Run(context.Background(), check.Instance{Algorithm: "unicast", Topology: c.topo,
				Params: map[string]string{"msgs": msgs, "dateline": c.dateline}}, "deadlock", check.Options{})
			if err != nil {
				return err.Error()
			}
			seen[rep.Verdict]++
			if c.want == props.Holds && rep.Verdict != props.Holds {
				return rep.String()
			}
			return ""
		}))
		ps.TestingRun(t)
		if seen[c.want] == 0 {
			t.Errorf("%s: no mix was %s (%v)", c.topo, c.want, seen)
		}
	}
}

func TestGeneratorsReturnErrors(t *testing.T) {
	g, _ := topology.NewMesh(3, 3)
	for _, err := range []error{
		func() error { _, err := gen.Topologies("banyan:8"); return err }(),
		func() error { _, err := gen.Topologies(); return err }(),
		func() error { _, err := gen.NodeSets(g, 2, 10); return err }(),
		func() error { _, err := gen.DestinationSets(g, 0, 1, 9); return err }(),
		func() error { _, err := gen.DestinationSets(g, 9, 1, 2); return err }(),
		func() error { _, err := gen.Mixes(g, gen.MixOptions{MaxMessages: 0, MaxDests: 1}); return err }(),
		func() error { _, err := gen.Mixes(g, gen.MixOptions{MaxMessages: 2, MaxDests: 9}); return err }(),
		func() error { _, err := gen.Schedules(gen.ScheduleOptions{Specs: []string{"mesh:0"}}); return err }(),
		func() error { _, err := gen.RandomSchedule(1, gen.ScheduleOptions{Specs: []string{"x"}}); return err }(),
	} {
		if err == nil || !strings.HasPrefix(err.Error(), "gen: ") || strings.Contains(err.Error(), "\n") {
			t.Errorf("error %v; want one line starting gen:", err)
		}
	}
}

func TestSetsAndMixesHaveTheirShape(t *testing.T) {
	g, _ := topology.NewTorus(4, 4)
	topos, _ := gen.Topologies("mesh:3x3", "torus:4x4")
	nodes, _ := gen.NodeSets(g, 2, 5)
	dests, _ := gen.DestinationSets(g, 3, 1, 4)
	mixes, _ := gen.Mixes(g, gen.MixOptions{MaxMessages: 3, MaxDests: 3})
	ps := gopter.NewProperties(gopter.DefaultTestParametersWithSeed(7))
	ps.Property("topologies", gen.ForAll(topos, func(x *topology.Network) string {
		if s := x.Spec(); s != "mesh:3x3" && s != "torus:4x4" {
			return s
		}
		return ""
	}))
	ps.Property("node sets", gen.ForAll(nodes, func(vs []topology.NodeID) string {
		if len(vs) < 2 || len(vs) > 5 || !ascending(vs) {
			return fmt.Sprint(vs)
		}
		return ""
	}))
	ps.Property("destination sets", gen.ForAll(dests, func(vs []topology.NodeID) string {
		for _, v := range vs {
			if v == 3 {
				return "contains the source"
			}
		}
		if len(vs) < 1 || len(vs) > 4 || !ascending(vs) {
			return fmt.Sprint(vs)
		}
		return ""
	}))
	ps.Property("mixes parse as tree-mcast messages", gen.ForAll(mixes, func(m gen.Mix) string {
		msgs, err := m.Msgs("tree-mcast")
		if err != nil {
			return err.Error()
		}
		_, err = check.Run(context.Background(), check.Instance{Algorithm: "tree-mcast", Topology: "torus:4x4",
			Params: map[string]string{"msgs": msgs}}, "deadlock", check.Options{MaxStates: 1})
		if err != nil {
			return err.Error()
		}
		return ""
	}))
	ps.TestingRun(t)
	if v, ok := nodes.Sample(1); !ok || len(v) < 2 {
		t.Errorf("Sample: %v %v", v, ok)
	}
}

func ascending(vs []topology.NodeID) bool {
	for i := 1; i < len(vs); i++ {
		if vs[i-1] >= vs[i] {
			return false
		}
	}
	return true
}

func ExampleRandomSchedule() {
	s, err := gen.RandomSchedule(1, gen.ScheduleOptions{Specs: []string{"torus:4x4"}, MaxUnicasts: 6})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Topology.Spec(), len(s.Unicasts) <= 6, s.Check() == nil)
	// Output:
	// torus:4x4 true true
}
