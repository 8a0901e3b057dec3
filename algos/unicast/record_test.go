package unicast

import (
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
)

// recordFamily is torus:4 without dateline classes, every connected placement of 1..4
// worms (73 members), checked to the end: some members deadlock (WH2), so the kept
// result has a witness.
func recordFamily() Family {
	return Family{Topology: "torus:4", MaxWorms: 4, MinWorms: 1, Params: [][2]int{{2, 1}}, Dateline: DatelineOff, Connected: true, Property: "deadlock"}
}

// sameRecord compares two kept results member by member and in their sums.
func sameRecord(t *testing.T, what string, got, want *FamilyRecord) {
	t.Helper()
	if !reflect.DeepEqual(got.Checked, want.Checked) {
		t.Fatalf("%s: checked members differ:\n got %v\nwant %v", what, got.Checked, want.Checked)
	}
	if got.Instances != want.Instances || got.States != want.States || got.Transitions != want.Transitions ||
		got.Violated != want.Violated || got.Verdict != want.Verdict || got.Partial != want.Partial ||
		!reflect.DeepEqual(got.Inconclusive, want.Inconclusive) || !reflect.DeepEqual(got.Certificates, want.Certificates) {
		t.Fatalf("%s: sums differ:\n got %+v\nwant %+v", what, got, want)
	}
	if (got.Witness == nil) != (want.Witness == nil) || got.Witness != nil &&
		(got.Witness.Index != want.Witness.Index || got.Witness.Msgs != want.Witness.Msgs || !sameJSON(got.Witness.Trace, want.Witness.Trace)) {
		t.Fatalf("%s: witnesses differ: %+v vs %+v", what, got.Witness, want.Witness)
	}
}

// sameJSON reports whether a and b marshal alike (a trace read back from a file has
// empty slices where the search's has none).
func sameJSON(a, b any) bool {
	x, err1 := json.Marshal(a)
	y, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && string(x) == string(y)
}

// roundTrip marshals a kept result and reads it back, as a file between runs.
func roundTrip(t *testing.T, r *FamilyRecord) *FamilyRecord {
	t.Helper()
	b, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParseFamilyRecord(b)
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return p
}

// TestFamilyResumeAfterCancel cuts a unicast family run by cancelling its context after
// a few members, resumes it from the last checkpoint (marshalled and parsed back) until
// it finishes, and checks that the result equals an uninterrupted run's, member by
// member; a resume with other parameters or another shard is refused.
func TestFamilyResumeAfterCancel(t *testing.T) {
	whole, err := recordFamily().Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	w := whole.Record
	if w.Violated == 0 || w.Witness == nil || w.Partial || w.Instances != w.Members || len(w.Checked) != w.Members {
		t.Fatalf("the test family should be checked whole with deadlocks: %+v", w)
	}
	var prev *FamilyRecord
	for step := 0; ; step++ {
		if step > 20 {
			t.Fatal("the resumed runs do not finish")
		}
		ctx, cancel := context.WithCancel(context.Background())
		f := recordFamily()
		f.Resume = prev
		n := 0
		f.Count = func(_, done, _ int64) {
			if n += int(done); n >= 15 {
				cancel()
			}
		}
		var last *FamilyRecord
		f.Checkpoint = func(r *FamilyRecord) error { last = roundTrip(t, r); return nil }
		r, err := f.Run(ctx)
		cancel()
		if last == nil {
			t.Fatalf("step %d: no checkpoint", step)
		}
		if !reflect.DeepEqual(last.Checked, r.Record.Checked) {
			t.Fatalf("step %d: the last checkpoint is not the run's result", step)
		}
		prev = last
		if err == nil {
			if step < 2 {
				t.Fatalf("the run finished after %d interruptions; want at least 2", step)
			}
			break
		}
		if !prev.Partial || prev.Verdict == checker.Holds {
			t.Fatalf("step %d: an interrupted run's result is partial %v, verdict %v", step, prev.Partial, prev.Verdict)
		}
	}
	sameRecord(t, "resumed", prev, w)

	f := recordFamily()
	f.Params = [][2]int{{3, 1}}
	f.Resume = prev
	if _, err := f.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "parameters") {
		t.Errorf("resume with another length: %v; want a refusal naming the parameters", err)
	}
	f = recordFamily()
	f.Shard, f.Resume = family.Shard{Index: 1, Count: 2}, prev
	if _, err := f.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "shard") {
		t.Errorf("resume of another shard: %v; want a refusal naming the shard", err)
	}
}

// TestFamilyShardsMerge checks a unicast family in three shards, merges their kept
// results and checks that the merge equals the whole run member by member; a shard of
// another length, a shard twice and a tree-multicast-style result of another family are
// refused with one line.
func TestFamilyShardsMerge(t *testing.T) {
	whole, err := recordFamily().Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for i := range 3 {
		f := recordFamily()
		f.Shard = family.Shard{Index: i, Count: 3}
		r, err := f.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if b, err := r.Record.Marshal(); err != nil {
			t.Fatal(err)
		} else {
			files[string(rune('0'+i))] = b
		}
	}
	f := recordFamily()
	f.Shard, f.Params = family.Shard{Index: 2, Count: 3}, [][2]int{{3, 1}}
	other, err := f.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	files["other-length"], _ = other.Record.Marshal()
	f = recordFamily()
	f.Shard, f.MaxWorms = family.Shard{Index: 2, Count: 3}, 3
	other, err = f.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	files["other-family"], _ = other.Record.Marshal()
	read := func(name string) ([]byte, error) { return files[name], nil }

	m, err := MergeFiles([]string{"2", "0", "1"}, read)
	if err != nil {
		t.Fatal(err)
	}
	want := *whole.Record
	want.Partial = false
	if len(m.Missing) != 0 || !reflect.DeepEqual(m.Shards, []int{0, 1, 2}) {
		t.Fatalf("merged shards %v, missing %v", m.Shards, m.Missing)
	}
	sameRecord(t, "merged", m, &want)

	for _, c := range []struct {
		files []string
		says  string
	}{
		{[]string{"0", "1", "other-length"}, "parameters"},
		{[]string{"0", "1", "0"}, "overlapping shards"},
		{[]string{"0", "1", "other-family"}, "family all-placements:3"},
	} {
		_, err := MergeFiles(c.files, read)
		if err == nil || !strings.Contains(err.Error(), c.says) || strings.Contains(err.Error(), "\n") {
			t.Errorf("merge %v: %v; want one line naming %q", c.files, err, c.says)
		}
	}
}
