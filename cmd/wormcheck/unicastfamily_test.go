package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/unicast"
)

// TestUnicastFamilyShardsCLI checks a unicast all-placements family whole and in two
// shards with --result, merges the shards with `wormcheck merge` and compares the merge
// with the whole run member by member; --resume of a finished shard checks nothing again;
// merge refuses, in one line, a shard of another length and a tree-multicast shard.
func TestUnicastFamilyShardsCLI(t *testing.T) {
	dir := t.TempDir()
	fam := []string{"check", "--algo", "unicast", "--topo", "torus:4", "--dateline", "off", "--family", "all-placements:3"}
	path := func(name string) string { return filepath.Join(dir, name) }
	read := func(name string) *unicast.FamilyRecord {
		t.Helper()
		data, err := os.ReadFile(path(name))
		if err != nil {
			t.Fatal(err)
		}
		r, err := unicast.ParseFamilyRecord(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return r
	}
	if code, out, stderr := runCLI(t, append(fam, "--result", path("whole.json"))...); code != exitHolds {
		t.Fatalf("whole: exit %d\n%s%s", code, out, stderr)
	}
	for _, s := range []string{"0", "1"} {
		if code, out, stderr := runCLI(t, append(fam, "--shard", s+"/2", "--result", path("s"+s+".json"))...); code != exitHolds {
			t.Fatalf("shard %s: exit %d\n%s%s", s, code, out, stderr)
		}
	}
	code, out, stderr := runCLI(t, "merge", path("s1.json"), path("s0.json"), "-o", path("merged.json"))
	if code != exitHolds || !strings.Contains(out, "all-placements:3 on torus:4 (deadlock, L=2 B=1): holds") {
		t.Fatalf("merge: exit %d\n%s%s", code, out, stderr)
	}
	whole, merged := read("whole.json"), read("merged.json")
	if !reflect.DeepEqual(merged.Checked, whole.Checked) || merged.States != whole.States || merged.Transitions != whole.Transitions ||
		merged.Verdict != whole.Verdict || merged.Instances != whole.Members || len(merged.Missing) != 0 {
		t.Fatalf("merged %+v\nwhole %+v", merged, whole)
	}

	before := read("s0.json")
	if code, out, stderr := runCLI(t, append(fam, "--shard", "0/2", "--resume", path("s0.json"))...); code != exitHolds || !strings.Contains(out, "22 instances") {
		t.Fatalf("resume of a finished shard: exit %d\n%s%s", code, out, stderr)
	}
	if after := read("s0.json"); !reflect.DeepEqual(after.Checked, before.Checked) || after.States != before.States {
		t.Fatalf("resume of a finished shard changed it: %+v\nwas %+v", after, before)
	}

	runCLI(t, "check", "--algo", "unicast", "--topo", "torus:4", "--dateline", "off", "--family", "all-placements:3", "--length", "3", "--shard", "1/2", "--result", path("l3.json"))
	runCLI(t, "check", "--algo", "tree-mcast", "--topo", "mesh:2x2", "--family", "pairs:1", "--shard", "1/2", "--result", path("tree.json"))
	for _, c := range []struct{ file, says string }{{"l3.json", "parameters"}, {"tree.json", "tree-mcast"}} {
		code, out, stderr := runCLI(t, "merge", path("s0.json"), path(c.file))
		if code != exitUsage || !strings.Contains(stderr, c.says) || strings.Count(stderr, "\n") != 1 || out != "" {
			t.Errorf("merge with %s: exit %d, %q%q; want exit 2 and one line naming %q", c.file, code, out, stderr, c.says)
		}
	}
}

// TestUnicastFamilyViolatedMerge: shards of a unicast family that deadlocks (WH2: torus:4
// without dateline classes) stop at their first violation; the merge is violated with
// the shortest witness, and does not tell the user to resume the stopped shard.
func TestUnicastFamilyViolatedMerge(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, s := range []string{"0", "1"} {
		f := filepath.Join(dir, "s"+s+".json")
		runCLI(t, "check", "--algo", "unicast", "--topo", "torus:4", "--dateline", "off", "--family", "all-placements:4", "--shard", s+"/2", "--result", f)
		files = append(files, f)
	}
	code, out, stderr := runCLI(t, append([]string{"merge"}, files...)...)
	if code != exitViolated || !strings.Contains(out, "shortest witness: member 61 0->2,1->3,2->0,3->1 (4 steps)") ||
		!strings.Contains(out, "stopped at a violation") || strings.Contains(out, "rerun it with --resume") {
		t.Fatalf("merge: exit %d\n%s%s", code, out, stderr)
	}
}
