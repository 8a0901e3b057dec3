package banyan

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
)

// pairFamilies are two small pair families: on N = 8 with upper-first arbitration,
// where every row holds (002 Theorem 2), and the sources of Fig. 4's first multicast on
// N = 16 with free arbitration, whose rows hold but the last two (Fig. 4 itself is row
// 11).
func pairFamilies() map[string]PairFamily {
	holds := PairFamily{Name: "test-n8", Arbitration: UpperFirst, N: 8, Rows: 24, Gen: func(i int, yield func(a, c Multicast)) {
		a := Multicast{Source: i % 8}
		for y := 0; y < 8; y++ {
			if (i*37%255+1)>>y&1 == 1 {
				a.Dests = append(a.Dests, y)
			}
		}
		for s := 0; s < 8; s++ {
			yield(a, Multicast{Source: s, Dests: []int{i % 8, (i + 3) % 8}})
		}
	}}
	fig4 := PairFamily{Name: "test-fig4", Arbitration: Free, N: 16, Rows: 12, Gen: func(i int, yield func(a, c Multicast)) {
		src := []int{7, 15}[i%2] // these hold
		if i >= 10 {
			src = []int{3, 1}[i-10] // these deadlock
		}
		yield(Multicast{Source: src, Dests: []int{5, 6, 7, 8}}, Multicast{Source: 15, Dests: []int{7, 8, 9, 10, 11, 12}})
	}}
	return map[string]PairFamily{"holds": holds, "deadlocks": fig4}
}

// roundTripPair writes r as a result file and reads it back, as --result and --resume do.
func roundTripPair(t *testing.T, r *PairRecord) *PairRecord {
	t.Helper()
	data, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePairRecord(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	return p
}

// samePairRecord compares two kept results member by member, with the witness.
func samePairRecord(t *testing.T, what string, got, want *PairRecord) {
	t.Helper()
	if !reflect.DeepEqual(got.Checked, want.Checked) {
		t.Fatalf("%s: checked members differ:\n got %+v\nwant %+v", what, got.Checked, want.Checked)
	}
	if got.Verdict != want.Verdict || got.Instances != want.Instances || got.States != want.States || got.Violated != want.Violated || got.Partial != want.Partial {
		t.Fatalf("%s: %v %d members %d cycles %d violated partial %v; want %v %d %d %d %v", what,
			got.Verdict, got.Instances, got.States, got.Violated, got.Partial, want.Verdict, want.Instances, want.States, want.Violated, want.Partial)
	}
	if (got.Witness == nil) != (want.Witness == nil) || got.Witness != nil && (got.Witness.Index != want.Witness.Index || got.Witness.Msgs != want.Witness.Msgs) {
		t.Fatalf("%s: witness %+v; want %+v", what, got.Witness, want.Witness)
	}
}

// TestPairFamilyResumeAfterCancel cuts a pair sweep by cancelling its context every few
// rows, resumes each time from the last checkpoint read back from its file, and finds
// the finished result equal to an uninterrupted run's, member by member, on two
// workers; the sweep's first deadlock is the same too.
func TestPairFamilyResumeAfterCancel(t *testing.T) {
	for name, f := range pairFamilies() {
		t.Run(name, func(t *testing.T) {
			wholeSweep, whole, err := f.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if want := name == "deadlocks"; whole.Violated > 0 != want || wholeSweep.Found != want || want && whole.Witness.Index != 10 {
				t.Fatalf("the family should deadlock: %v (at row 10); got %+v", want, whole)
			}
			var prev *PairRecord
			for step := 0; ; step++ {
				if step > 30 {
					t.Fatal("the resumed runs do not finish")
				}
				ctx, cancel := context.WithCancel(context.Background())
				g := f
				g.Workers, g.Resume, g.CheckpointEvery = 2, prev, 1
				n := 0
				g.Progress = func(rows, _ int64) {
					if n += int(rows); n >= 3 {
						cancel()
					}
				}
				var last *PairRecord
				g.Checkpoint = func(r *PairRecord) error { last = roundTripPair(t, r); return nil }
				_, rec, err := g.Run(ctx)
				cancel()
				if last == nil || !reflect.DeepEqual(last.Checked, rec.Checked) {
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
			samePairRecord(t, "resumed", prev, whole)
		})
	}
}

// TestPairFamilyShardsMerge checks a family in three shards written to files and merged:
// for the family that holds, the merge equals the whole run member by member; for the
// one that deadlocks, whose shards each stop at their own first deadlock, the merged
// witness is the whole run's. A shard of another family or arbitration is refused in
// one line naming it.
func TestPairFamilyShardsMerge(t *testing.T) {
	dir := t.TempDir()
	for name, f := range pairFamilies() {
		_, whole, err := f.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		var files []string
		for i := 0; i < 3; i++ {
			g := f
			g.Shard = family.Shard{Index: i, Count: 3}
			_, rec, err := g.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			data, err := rec.Marshal()
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(dir, name+string(rune('0'+i))+".json")
			if err := os.WriteFile(file, data, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, file)
		}
		merged, err := MergePairFiles(files, os.ReadFile)
		if err != nil {
			t.Fatal(err)
		}
		if name == "holds" {
			samePairRecord(t, name+" merged", merged, whole)
			if merged.Verdict != checker.Holds || len(merged.Missing) != 0 {
				t.Fatalf("merged: %v, missing %v", merged.Verdict, merged.Missing)
			}
		} else if merged.Verdict != checker.Violated || merged.Witness == nil || merged.Witness.Msgs != whole.Witness.Msgs || merged.Witness.Index != whole.Witness.Index {
			t.Fatalf("merged deadlocking shards: %v witness %+v; want the whole run's %+v", merged.Verdict, merged.Witness, whole.Witness)
		}
		if m, err := MergePairFiles(files[:2], os.ReadFile); err != nil || len(m.Missing) != 1 || m.Verdict == checker.Holds && name == "holds" {
			t.Fatalf("two shards of three: %+v %v", m, err)
		}
	}
	// A shard of the other arbitration, and one of the other family.
	g := pairFamilies()["holds"]
	g.Arbitration, g.Shard = Free, family.Shard{Index: 2, Count: 3}
	_, rec, err := g.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	data, _ := rec.Marshal()
	odd := filepath.Join(dir, "free.json")
	os.WriteFile(odd, data, 0o644)
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{filepath.Join(dir, "holds0.json"), filepath.Join(dir, "holds1.json"), odd}, "parameters"},
		{[]string{filepath.Join(dir, "holds0.json"), filepath.Join(dir, "deadlocks1.json")}, "family"},
		{[]string{filepath.Join(dir, "holds0.json"), filepath.Join(dir, "holds0.json")}, "overlapping"},
	} {
		_, err := MergePairFiles(c.files, os.ReadFile)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("merge %v: %v; want one line naming %q", c.files, err, c.want)
		}
	}
	// A resume from another shard's result is refused too.
	h := pairFamilies()["holds"]
	h.Shard = family.Shard{Index: 0, Count: 3}
	h.Resume = rec
	if _, _, err := h.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "resume") {
		t.Errorf("resume from another shard: %v", err)
	}
}

// TestPairWitnessIsJSON checks that a deadlock's witness names its instance.
func TestPairWitnessIsJSON(t *testing.T) {
	_, rec, err := pairFamilies()["deadlocks"].Run(context.Background())
	if err != nil || rec.Witness == nil {
		t.Fatal(err)
	}
	var p struct {
		Msgs   []Multicast `json:"msgs"`
		Starts []int       `json:"starts"`
	}
	if err := json.Unmarshal(rec.Witness.Trace.Params, &p); err != nil || len(p.Msgs) != 2 || len(p.Starts) != 2 {
		t.Fatalf("witness parameters %s: %v", rec.Witness.Trace.Params, err)
	}
}
