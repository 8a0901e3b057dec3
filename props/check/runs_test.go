package check_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// TestFamiliesInterrupted cancels family runs: both kinds end inconclusive and say they
// were interrupted (not that members reached a bound); the tree-multicast one hands its
// partial result to Checkpoint and to Report.Result.
func TestFamiliesInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	rep, err := check.Run(ctx, check.Instance{Algorithm: "unicast", Topology: "mesh:3x3", Params: map[string]string{"family": "all-placements:2"}}, "deadlock", check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Inconclusive || !strings.Contains(rep.Reason, "interrupted after 0 of") {
		t.Errorf("unicast family: %v, %q", rep.Verdict, rep.Reason)
	}
	var saved []byte
	rep, err = check.Run(ctx, check.Instance{Algorithm: "tree-mcast", Topology: "mesh:3x2", Params: map[string]string{"family": "pairs:1"}}, "deadlock",
		check.Options{Checkpoint: func(b []byte) error { saved = b; return nil }})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Inconclusive || !strings.Contains(rep.Reason, "interrupted") || saved == nil ||
		!strings.Contains(string(saved), `"partial": true`) || string(saved) != string(rep.Result) {
		t.Errorf("tree-mcast family: %v, %q, checkpoint %d bytes", rep.Verdict, rep.Reason, len(saved))
	}
	// The saved result resumes to the uninterrupted run's verdict.
	whole, err := check.Run(context.Background(), check.Instance{Algorithm: "tree-mcast", Topology: "mesh:3x2", Params: map[string]string{"family": "pairs:1"}}, "deadlock", check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	resumed, err := check.Run(context.Background(), check.Instance{Algorithm: "tree-mcast", Topology: "mesh:3x2", Params: map[string]string{"family": "pairs:1"}}, "deadlock", check.Options{Resume: saved})
	if err != nil {
		t.Fatal(err)
	}
	if resumed.Verdict != whole.Verdict || resumed.Stats.States != whole.Stats.States {
		t.Errorf("resumed %v %d states; whole %v %d", resumed.Verdict, resumed.Stats.States, whole.Verdict, whole.Stats.States)
	}
}
