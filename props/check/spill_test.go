package check_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// TestSpillDirSameVerdictCountsAndTrace checks flit instances with the frontier and the
// parent records in files (Options.SpillDir) and in memory: a torus deadlock (a trace),
// the same worms with datelines (holds) and a tree multicast deadlock (000 Fig. 3's
// shape on mesh:2x2) must give the same verdict, state and transition counts, depth
// and trace, and leave nothing behind in the directory.
func TestSpillDirSameVerdictCountsAndTrace(t *testing.T) {
	holds := wh2
	holds.Params = map[string]string{"msgs": "0->2,1->3,2->0,3->1"}
	tm := check.Instance{Algorithm: "tree-mcast", Topology: "mesh:2x2", Params: map[string]string{
		"msgs": "(0,0)->(1,0),(0,1);(1,1)->(0,1),(1,0)", "pruning": "none", "buffers": "1"}}
	for _, c := range []struct {
		name string
		in   check.Instance
	}{{"wh2", wh2}, {"datelines", holds}, {"tm", tm}} {
		dir := t.TempDir()
		mem, err := check.Run(context.Background(), c.in, "deadlock", check.Options{})
		if err != nil {
			t.Fatal(err)
		}
		disk, err := check.Run(context.Background(), c.in, "deadlock", check.Options{SpillDir: dir})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if disk.Verdict != mem.Verdict || disk.Stats.States != mem.Stats.States || disk.Stats.Transitions != mem.Stats.Transitions || disk.Stats.Depth != mem.Stats.Depth {
			t.Errorf("%s: spilling %v %d states %d transitions depth %d; in memory %v %d %d %d", c.name,
				disk.Verdict, disk.Stats.States, disk.Stats.Transitions, disk.Stats.Depth, mem.Verdict, mem.Stats.States, mem.Stats.Transitions, mem.Stats.Depth)
		}
		if (c.name != "datelines") != (mem.Trace != nil) || mem.Stats.States == 0 {
			t.Errorf("%s: %v with %d states, trace %v", c.name, mem.Verdict, mem.Stats.States, mem.Trace != nil)
		}
		a, _ := json.Marshal(mem.Trace)
		b, _ := json.Marshal(disk.Trace)
		if string(a) != string(b) {
			t.Errorf("%s: traces differ:\n%s\n%s", c.name, b, a)
		}
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("%s: %d entries left in the spill directory", c.name, len(left))
		}
	}
	// The option reaches the explorer: a directory that cannot be created is an error.
	file := t.TempDir() + "/file"
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if rep, err := check.Run(context.Background(), wh2, "deadlock", check.Options{SpillDir: file + "/sub"}); err == nil && (rep.Verdict != props.Inconclusive || !strings.Contains(rep.Reason, "SpillDir")) {
		t.Errorf("a spill directory under a plain file gave %v %q", rep.Verdict, rep.Reason)
	}
	if _, err := check.Run(context.Background(), check.Instance{Algorithm: "tree-mcast", Topology: "mesh:2x2", Params: map[string]string{"family": "pairs:1"}}, "deadlock", check.Options{SpillDir: t.TempDir()}); err == nil {
		t.Error("a tree-mcast family accepted --spill-dir, which it would ignore")
	}
}
