package check

import (
	"context"
	"fmt"
	"io/fs"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/algos/treemcast"
	"github.com/wormcheck/wormcheck/algos/unicast"
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

// TestUnicastFamilyResume checks a unicast family through the entry, cancelling its
// context at its second checkpoint and resuming from the last one until it finishes, and
// checks that the final result equals an uninterrupted run's, member by member; then
// merges two shards of it and compares the merge with the whole.
func TestUnicastFamilyResume(t *testing.T) {
	in := func(shard string) Instance {
		return Instance{Algorithm: "unicast", Topology: "mesh:3x3", Params: map[string]string{"family": "all-placements:2", "shard": shard}}
	}
	rep, err := Run(context.Background(), in("0/1"), "deadlock", Options{})
	if err != nil || rep.Result == nil || rep.Verdict != checker.Holds {
		t.Fatalf("whole: %v, %v (result %d bytes)", rep, err, len(rep.Result))
	}
	whole, err := unicast.ParseFamilyRecord(rep.Result)
	if err != nil {
		t.Fatal(err)
	}
	var last []byte
	steps := 0
	for ; steps < 50; steps++ {
		ctx, cancel := context.WithCancel(context.Background())
		n := 0
		opt := Options{Resume: last, CheckpointEvery: time.Nanosecond, Checkpoint: func(b []byte) error {
			// The first run is cancelled at its first checkpoint, which comes after its
			// first member, so that at least one interruption happens however fast the
			// machine (checkpoints are spaced by twenty times their own cost, so a fast
			// machine may finish this small family with two); the later ones at their
			// second.
			if n++; n == 2 || steps == 0 && n == 1 {
				cancel()
			}
			last = append([]byte(nil), b...)
			return nil
		}}
		rep, err := Run(ctx, in("0/1"), "deadlock", opt)
		cancel()
		if err != nil {
			t.Fatalf("step %d: %v", steps, err)
		}
		t.Logf("step %d: %d checkpoints, %v: %s", steps, n, rep.Verdict, rep.Reason)
		if rep.Verdict != checker.Inconclusive {
			break
		}
		if !strings.Contains(rep.Reason, "interrupted") {
			t.Fatalf("step %d: inconclusive but %q", steps, rep.Reason)
		}
	}
	// How many interruptions a run takes depends on how fast members finish between
	// checkpoints (an idle machine checks this small family in a few of them); the
	// member-by-member cut and resume is pinned by algos/unicast's
	// TestFamilyResumeAfterCancel, which cancels after a fixed number of members.
	if steps < 1 {
		t.Fatalf("the run finished without an interruption")
	}
	got, err := unicast.ParseFamilyRecord(last)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Checked, whole.Checked) || got.States != whole.States || got.Verdict != whole.Verdict || got.Partial {
		t.Fatalf("resumed after %d interruptions: %d members, %d states, %v (partial %v); whole: %d, %d, %v",
			steps, len(got.Checked), got.States, got.Verdict, got.Partial, len(whole.Checked), whole.States, whole.Verdict)
	}

	files := map[string][]byte{}
	for i := range 2 {
		rep, err := Run(context.Background(), in(fmt.Sprintf("%d/2", i)), "deadlock", Options{})
		if err != nil {
			t.Fatal(err)
		}
		files[fmt.Sprint(i)] = rep.Result
	}
	m, err := unicast.MergeFiles([]string{"0", "1"}, func(f string) ([]byte, error) { return files[f], nil })
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(m.Checked, whole.Checked) || m.States != whole.States || m.Verdict != whole.Verdict {
		t.Fatalf("merged shards: %d members, %d states, %v; whole: %d, %d, %v", len(m.Checked), m.States, m.Verdict, len(whole.Checked), whole.States, whole.Verdict)
	}
}
