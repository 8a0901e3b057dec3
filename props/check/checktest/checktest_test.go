package checktest_test

import (
	"fmt"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/wormcheck/wormcheck/algos/plan"
	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
	"github.com/wormcheck/wormcheck/props/check/checktest"
)

// recorder is a testing.TB that records a fatal failure instead of failing the real
// test, so the helpers' failures can be asserted.
type recorder struct {
	testing.TB
	mu     sync.Mutex
	failed string
}

func (r *recorder) Helper() {}
func (r *recorder) Fatalf(format string, args ...any) {
	r.mu.Lock()
	r.failed = fmt.Sprintf(format, args...)
	r.mu.Unlock()
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) { r.Fatalf("%s", fmt.Sprint(args...)) }

// run calls f with a recorder on its own goroutine (Fatalf ends it, as testing does) and
// returns the failure message, "" if none.
func run(t *testing.T, f func(tb testing.TB)) string {
	r := &recorder{TB: t}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f(r)
	}()
	<-done
	return r.failed
}

// userTest is the README's user test: a schedule built with algos/plan and a flit-level
// tree multicast, both checked through the typed entry.
func userTest(t testing.TB, pruning flit.Prune) {
	g, _ := topology.NewMesh(4, 4)
	b := plan.New(topology.NewDOR(g), model.AllPort, []topology.NodeID{0}, []topology.NodeID{2, 3})
	b.Send(0, 3, 1) // (0,0) -> (3,0) in step 1
	b.Send(0, 2, 2) // (0,0) -> (2,0) in step 2
	checktest.RequireHolds(t, checktest.RunSchedule(t, b.Schedule(), checker.PropDepth))
	m, _ := topology.NewMesh(2, 2)
	tree := check.TreeMulticast{Instance: treemcast.Instance{Grid: m,
		Msgs: []treemcast.Multicast{
			{Source: m.Node(0, 0), Dests: []topology.NodeID{m.Node(1, 0), m.Node(0, 1)}},
			{Source: m.Node(1, 1), Dests: []topology.NodeID{m.Node(0, 1), m.Node(1, 0)}},
		},
		Params: treemcast.Params{Prune: pruning, Length: 1, Buffer: 1, Ports: flit.OnePort}}}
	checktest.RequireHolds(t, checktest.Check(t, tree, checker.PropDeadlock))
}

func TestUserTestPassesAndFailsWithTheWitness(t *testing.T) {
	if msg := run(t, func(tb testing.TB) { userTest(tb, flit.PruneOnStop) }); msg != "" {
		t.Fatalf("with pruning the user test fails:\n%s", msg)
	}
	// Without pruning the two multicasts deadlock (claim TM1): the failure shows the
	// verdict, the wait-for cycle and the shortest trace.
	msg := run(t, func(tb testing.TB) { userTest(tb, flit.PruneNone) })
	for _, want := range []string{"want holds, got violated", "VIOLATED", "wait-for cycle", "shortest trace (10 steps)", "from initial state 0", "cycle 1: m0 waits"} {
		if !strings.Contains(msg, want) {
			t.Errorf("failure message lacks %q:\n%s", want, msg)
		}
	}
}

func TestRequireViolatedReplaysTheWitness(t *testing.T) {
	rep := checktest.Run(t, check.Instance{Algorithm: "unicast", Topology: "torus:4",
		Params: map[string]string{"msgs": "0->2,1->3,2->0,3->1", "dateline": "off"}}, "deadlock")
	w := checktest.RequireViolated(t, rep)
	if w.Kind != props.WitnessTrace || len(w.Steps) == 0 {
		t.Fatalf("witness %+v", w)
	}
	// A trace that no longer reaches the violation fails the test.
	rep.Trace.Actions = rep.Trace.Actions[:1]
	rep.Trace.Labels = rep.Trace.Labels[:1]
	if msg := run(t, func(tb testing.TB) { checktest.RequireViolated(tb, rep) }); !strings.Contains(msg, "does not replay to a violation") {
		t.Errorf("a truncated trace passed RequireViolated: %q", msg)
	}
	// Holds is not violated, and bad input fails at once with the field.
	holds := checktest.Run(t, check.Instance{Algorithm: "unicast", Topology: "torus:4", Params: map[string]string{"msgs": "0->2"}}, "deadlock")
	if msg := run(t, func(tb testing.TB) { checktest.RequireViolated(tb, holds) }); !strings.Contains(msg, "want violated") {
		t.Errorf("holds passed RequireViolated: %q", msg)
	}
	if msg := run(t, func(tb testing.TB) {
		checktest.Run(tb, check.Instance{Algorithm: "unicast", Topology: "torus:4", Params: map[string]string{"msgs": "0->9"}}, "deadlock")
	}); !strings.Contains(msg, "--msgs") {
		t.Errorf("bad input: %q", msg)
	}
}

func TestRunModelFailsWithTheTrace(t *testing.T) {
	msg := run(t, func(tb testing.TB) {
		checktest.RequireHolds(tb, checktest.RunModel[checkertest.PhilState](tb, checkertest.Philosophers{N: 3},
			check.ModelCheck[checkertest.PhilState]{Name: "philosophers", Deadlock: true}))
	})
	for _, want := range []string{"philosophers: deadlock (model semantics): VIOLATED", "shortest trace (3 steps)", "from initial state 0, 3 steps"} {
		if !strings.Contains(msg, want) {
			t.Errorf("failure lacks %q:\n%s", want, msg)
		}
	}
}
