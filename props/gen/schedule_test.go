package gen_test

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/gen"
)

func TestRandomSchedulesAreCausalAndDeterministic(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(3)
	ps := gopter.NewProperties(params)
	o := gen.ScheduleOptions{TwoSources: true, OnePort: true, ShuffleOrders: true}
	ps.Property("checked, exactly-once, causal", prop.ForAll(func(s *model.Schedule) string {
		if err := s.Check(); err != nil {
			return err.Error()
		}
		if r := props.ExactlyOnce(s); r.Verdict != props.Holds {
			return r.Text
		}
		if _, err := props.Simulate(s, props.Params{Ts: 1, Tr: 1, Tc: 1, L: 1}); err != nil {
			return err.Error()
		}
		return ""
	}, gen.Schedules(o)))
	ps.TestingRun(t)
	a, _ := model.MarshalSchedule(gen.RandomSchedule(9, o))
	b, _ := model.MarshalSchedule(gen.RandomSchedule(9, o))
	if string(a) != string(b) {
		t.Fatal("same seed, different schedules")
	}
}

func ExampleRandomSchedule() {
	s := gen.RandomSchedule(1, gen.ScheduleOptions{Specs: []string{"torus:4x4"}, MaxUnicasts: 6})
	fmt.Println(s.Topology.Spec(), len(s.Unicasts) <= 6, s.Check() == nil)
	// Output:
	// torus:4x4 true true
}
