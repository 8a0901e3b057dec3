package check

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/checker"
)

// TestMergeFamilyShards checks two shards of a tree-multicast family and merges their
// results: both present hold, one alone is inconclusive, a shard twice and an unreadable
// file are refused, naming the cause.
func TestMergeFamilyShards(t *testing.T) {
	files := map[string][]byte{}
	for i := range 2 {
		in := Instance{Algorithm: "tree-mcast", Topology: "mesh:2x2", Params: map[string]string{
			"family": "pairs:2", "buffers": "1", "shard": fmt.Sprintf("%d/2", i)}}
		rep, err := Run(context.Background(), in, "deadlock", Options{})
		if err != nil || rep.Result == nil {
			t.Fatalf("shard %d: %v (result %d bytes)", i, err, len(rep.Result))
		}
		files[fmt.Sprintf("s%d.json", i)] = rep.Result
	}
	read := func(name string) ([]byte, error) {
		if b, ok := files[name]; ok {
			return b, nil
		}
		return nil, fmt.Errorf("open %s: %w", name, fs.ErrNotExist)
	}
	m, err := treemcast.MergeFiles([]string{"s0.json", "s1.json"}, read)
	if err != nil {
		t.Fatal(err)
	}
	if m.Verdict != checker.Holds || len(m.Missing) != 0 {
		t.Errorf("both shards: %s, missing %v", m.Verdict, m.Missing)
	}
	if one, err := treemcast.MergeFiles([]string{"s0.json"}, read); err != nil || one.Verdict != checker.Inconclusive {
		t.Errorf("one shard: %v, %v; want inconclusive", one, err)
	}
	for _, c := range []struct {
		files []string
		says  string
	}{{[]string{"s0.json", "s0.json"}, ""}, {[]string{"s0.json", "gone.json"}, "gone.json"}} {
		if _, err := treemcast.MergeFiles(c.files, read); err == nil || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%v: %v; want an error naming %q", c.files, err, c.says)
		}
	}
}
