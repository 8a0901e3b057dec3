package check

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
)

// TestMergeFamilyShards checks two shards of a tree-multicast family and merges their
// results: both present hold, one alone is inconclusive, a shard twice and an unreadable
// file are refused as bad input naming the cause.
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
	m, err := MergeFamily([]string{"s0.json", "s1.json"}, read)
	if err != nil {
		t.Fatal(err)
	}
	if m.Verdict != checker.Holds || len(m.Missing) != 0 {
		t.Errorf("both shards: %s, missing %v", m.Verdict, m.Missing)
	}
	var b strings.Builder
	WriteFamily(&b, m)
	for _, want := range []string{"pairs:2 on mesh:2x2 (deadlock, ", "): holds\n", "  shards [0 1] of 2 present, missing []\n", " members checked ("} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, b.String())
		}
	}
	if one, err := MergeFamily([]string{"s0.json"}, read); err != nil || one.Verdict != checker.Inconclusive {
		t.Errorf("one shard: %v, %v; want inconclusive", one, err)
	}
	for _, c := range []struct {
		files []string
		says  string
	}{{[]string{"s0.json", "s0.json"}, ""}, {[]string{"s0.json", "gone.json"}, "gone.json"}} {
		if _, err := MergeFamily(c.files, read); !errors.Is(err, ErrBadInput) || !strings.Contains(err.Error(), c.says) {
			t.Errorf("%v: %v; want bad input naming %q", c.files, err, c.says)
		}
	}
}
