package plan_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/wormcheck/wormcheck/algos/plan"
	"github.com/wormcheck/wormcheck/algos/plan/plantest"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

func TestLogs(t *testing.T) {
	for n, want := range map[int][2]int{1: {0, 0}, 2: {1, -1}, 4: {2, 1}, 8: {3, -1}, 16: {4, 2}, 6: {-1, -1}, 64: {6, 3}} {
		if plan.Log2(n) != want[0] || plan.Log4(n) != want[1] {
			t.Errorf("%d: log2 %d log4 %d", n, plan.Log2(n), plan.Log4(n))
		}
	}
}

// TestNaiveChecksFindViolations: each naive check of plantest rejects a bad schedule.
func TestNaiveChecksFindViolations(t *testing.T) {
	g, _ := topology.NewTorus(4, 4)
	b := plan.New(topology.NewDOR(g), model.AllPort, []topology.NodeID{0}, []topology.NodeID{1, 2})
	b.Send(0, 2, 1) // (0,0)->(2,0) over (1,0)
	b.Send(0, 1, 1) // shares the first channel in the same step
	s := b.Schedule()
	if plantest.Valid(s) == nil || plantest.StepwiseArcDisjoint(s) == nil {
		t.Error("shared first channel in one step not found")
	}
	if _, c := plantest.Timed(s, plantest.Params{Ts: 0, Tc: 1, L: 4}); c != nil {
		t.Errorf("timed: same-first-channel sends are serialised, got %+v", *c)
	}
	b2 := plan.New(topology.NewDOR(g), model.AllPort, []topology.NodeID{0}, []topology.NodeID{1, 2})
	b2.Send(0, 2, 1)
	b2.Send(0, 1, 2)
	b2.Send(2, 1, 2)
	if plantest.ExactlyOnce(b2.Schedule()) == nil {
		t.Error("double delivery not found")
	}
	// Two sources at time 0: (0,0)->(2,0) and (1,0)->(3,0) both need (1,0)->(2,0).
	b3 := plan.New(topology.NewDOR(g), model.AllPort, []topology.NodeID{0, 1}, []topology.NodeID{2, 3})
	b3.Send(0, 2, 1)
	b3.Send(1, 3, 1)
	if _, c := plantest.Timed(b3.Schedule(), plantest.Params{Ts: 0, Tc: 1, L: 8}); c == nil {
		t.Error("timed contention on (1,0)->(2,0) not found")
	}
}

func ExampleBuilder() {
	g, _ := topology.NewTorus(4, 4)
	b := plan.New(topology.NewDOR(g), model.AllPort, []topology.NodeID{0}, plan.AllBut(g, 0))
	b.Send(0, g.Node(2, 1), 1)
	b.Send(0, g.Node(0, 3), 1)
	for _, u := range b.Schedule().Unicasts {
		fmt.Println(g.NodeName(u.From), "->", g.NodeName(u.To), "step", u.Step, "order", u.Order, "hops", len(u.Path))
	}
	// Output:
	// (0,0) -> (2,1) step 1 order 1 hops 3
	// (0,0) -> (0,3) step 1 order 2 hops 1
}

// TestStopWhen: a build whose stop function says yes at its n-th question ends there,
// after exactly n·StopEvery sends, and Result reports how far it got; a stop that never
// says yes leaves the schedule whole.
func TestStopWhen(t *testing.T) {
	g, err := topology.NewTorus(128, 128)
	if err != nil {
		t.Fatal(err)
	}
	build := func(stop func() bool) (*model.Schedule, error) {
		b := plan.New(topology.NewDOR(g), model.AllPort, []topology.NodeID{0}, plan.AllBut(g, 0))
		b.StopWhen(stop, g.Nodes()-1)
		for v := 1; v < g.Nodes(); v++ {
			b.Send(0, topology.NodeID(v), 1+v/1000)
		}
		return b.Result()
	}
	asked := 0
	_, err = build(func() bool { asked++; return asked == 2 })
	var stopped *plan.Stopped
	if !errors.As(err, &stopped) || *stopped != (plan.Stopped{Sent: 2 * plan.StopEvery, Total: 16383, Step: 9}) || asked != 2 {
		t.Fatalf("stopped at the second question: %v (asked %d times)", err, asked)
	}
	if got := err.Error(); got != "stopped while building the schedule after 8192 of 16383 unicasts (in step 9)" {
		t.Errorf("message %q", got)
	}
	asked = 0
	s, err := build(func() bool { asked++; return false })
	if err != nil || len(s.Unicasts) != g.Nodes()-1 || asked != 3 {
		t.Fatalf("never stopped: %v, %d unicasts, asked %d times", err, len(s.Unicasts), asked)
	}
}
