package checker_test

import (
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
)

// Example finds the lock-order deadlock of two processes and prints its shortest
// trace, then replays the trace's actions as `wormcheck replay` does.
func Example() {
	m := checkertest.TwoLocks{}
	res, err := checker.Explore(m, checker.Options[checkertest.TwoLocksState]{
		Workers:       2,
		CheckDeadlock: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Verdict, res.Violation.Kind, "after", res.Violation.Trace.Len(), "steps")
	fmt.Print(res.Violation.Trace)

	tr, err := checker.Replay(m, 0, res.Violation.Trace.Actions())
	fmt.Println("replayed to", tr.Steps[len(tr.Steps)-1].State, err)
	// Output:
	// violated deadlock after 2 steps
	// 0 init
	// 1 P0 takes A
	// 2 P1 takes B
	// replayed to [1 1] <nil>
}

// Example_bounded shows that a depth bound gives an inconclusive verdict, never holds.
func Example_bounded() {
	m := checkertest.Counters{N: 3, K: 4}
	res, _ := checker.Explore(m, checker.Options[checkertest.CountersState]{MaxDepth: 5})
	fmt.Println(res.Verdict, "-", res.Reason)
	res, _ = checker.Explore(m, checker.Options[checkertest.CountersState]{Store: checker.Fingerprint})
	fmt.Println(res.Verdict, "-", res.Stats.States, "states, depth", res.Stats.Depth)
	// Output:
	// inconclusive - depth bound 5 reached
	// holds - 64 states, depth 9
}
