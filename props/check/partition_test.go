package check_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// newCountCtx is checkertest.NewCountContext: a context cancelled by its n-th look.
func newCountCtx(n int64) *checkertest.CountContext { return checkertest.NewCountContext(n) }

// TestPartitionStopsOnCancel cuts one partition check after a fixed number of context
// looks: building the DDNs (one look each, and one at the end), connectivity (one per
// DDN) and P1-P5 (one per pair of isomorphism checks), the long loops, end inconclusive
// with what they judged so far, never holds.
func TestPartitionStopsOnCancel(t *testing.T) {
	in := check.Instance{Algorithm: "partition", Topology: "torus:32x32", Params: map[string]string{"type": "IV", "h": "8"}} // 64 DDNs
	rep, err := check.Run(newCountCtx(10), in, checker.PropConnected, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Inconclusive || rep.Reason != "stopped (context canceled) while building the DDNs" {
		t.Errorf("connected, cut after 10 looks: %v, %q", rep.Verdict, rep.Reason)
	}
	rep, err = check.Run(newCountCtx(64+1+10), in, checker.PropConnected, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Inconclusive || rep.Stats.Checked != 10 || rep.Reason != "stopped (context canceled) after 10 of 64 DDNs, all strongly connected" {
		t.Errorf("connected, cut after 10 DDNs: %v, %d checked, %q", rep.Verdict, rep.Stats.Checked, rep.Reason)
	}
	rep, err = check.Run(newCountCtx(64+1+10), in, checker.PropP1P5, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Inconclusive || rep.Reason != "P1-P5: 0 violated, 2 undecided" || rep.Text != "P4: stopped (context canceled) before G*1,3" {
		t.Errorf("p1-p5, cut after 10 pairs: %v, %q, %q", rep.Verdict, rep.Reason, rep.Text)
	}
	if rep, err := check.Run(context.Background(), in, checker.PropConnected, check.Options{}); err != nil || rep.Verdict != props.Holds {
		t.Errorf("connected, uncut: %v, %v", rep.Verdict, err)
	}
}

// TestPartitionFamilyResume runs a partition family (connectivity on meshes, where the
// directed Types III and IV are not strongly connected: 001 §3.2) whole, then cut after
// a fixed number of context looks and resumed from its partial result until it ends:
// the resumed result equals the whole one member by member, and both report the first
// violated member with its own witness and count every violated one. Two shards merge
// to the whole.
func TestPartitionFamilyResume(t *testing.T) {
	in := func(extra ...string) check.Instance {
		p := map[string]string{"family": "sizes:2-6"}
		for i := 0; i+1 < len(extra); i += 2 {
			p[extra[i]] = extra[i+1]
		}
		return check.Instance{Algorithm: "partition", Topology: "mesh", Params: p}
	}
	rep, err := check.Run(context.Background(), in(), checker.PropConnected, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	whole, err := partition.ParseFamilyRecord(rep.Result)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verdict != props.Violated || whole.Partial || whole.Violated < 2 || whole.Instances != whole.Members ||
		!strings.HasPrefix(rep.Reason, "member 2 (mesh:2x2 Type IV, h=1): ") || rep.Witness == nil || rep.Witness.Kind != props.WitnessInstance {
		t.Fatalf("whole: %v, %q, %d of %d members, %d violated, witness %+v", rep.Verdict, rep.Reason, whole.Instances, whole.Members, whole.Violated, rep.Witness)
	}
	var last []byte
	cuts := 0
	for ; cuts < 100; cuts++ {
		saved := last
		r, err := check.Run(newCountCtx(200), in(), checker.PropConnected, check.Options{Resume: last,
			Checkpoint: func(b []byte) error { saved = append([]byte(nil), b...); return nil }})
		if err != nil {
			t.Fatalf("cut %d: %v", cuts, err)
		}
		last = saved
		if string(r.Result) != string(saved) {
			t.Fatalf("cut %d: the report's result is not the last checkpoint", cuts)
		}
		rec, err := partition.ParseFamilyRecord(last)
		if err != nil {
			t.Fatal(err)
		}
		if !rec.Partial {
			if r.Verdict != rep.Verdict || r.Reason != rep.Reason || !reflect.DeepEqual(r.Witness, rep.Witness) {
				t.Errorf("resumed report: %v %q; whole: %v %q", r.Verdict, r.Reason, rep.Verdict, rep.Reason)
			}
			break
		}
		if r.Verdict == props.Holds {
			t.Fatalf("cut %d: a partial family holds", cuts)
		}
		if r.Verdict == props.Violated && (len(r.Notes) == 0 || !strings.HasPrefix(r.Notes[len(r.Notes)-1], "interrupted after")) {
			t.Fatalf("cut %d: a violated partial family does not say it was interrupted: %q", cuts, r.Notes)
		}
	}
	if cuts < 2 {
		t.Fatalf("the family ended after %d cuts; the test wants several", cuts)
	}
	got, err := partition.ParseFamilyRecord(last)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Checked, whole.Checked) || got.States != whole.States || got.Violated != whole.Violated ||
		got.Verdict != whole.Verdict || got.Witness.Index != whole.Witness.Index {
		t.Fatalf("resumed after %d cuts: %d members, %d states, %d violated, %v; whole: %d, %d, %d, %v",
			cuts, len(got.Checked), got.States, got.Violated, got.Verdict, len(whole.Checked), whole.States, whole.Violated, whole.Verdict)
	}

	var shards []*partition.FamilyRecord
	for _, sh := range []string{"0/2", "1/2"} {
		r, err := check.Run(context.Background(), in("shard", sh), checker.PropConnected, check.Options{})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := partition.ParseFamilyRecord(r.Result)
		if err != nil {
			t.Fatal(err)
		}
		shards = append(shards, rec)
	}
	merged, err := family.Merge(shards)
	if err != nil || !reflect.DeepEqual(merged.Checked, whole.Checked) || merged.Violated != whole.Violated || merged.Witness.Index != whole.Witness.Index {
		t.Fatalf("merged shards: %v, %+v", err, merged)
	}

	// --stop ends the shard at its first violated member, partial.
	r, err := check.Run(context.Background(), in("stop", "true"), checker.PropConnected, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if stopped, _ := partition.ParseFamilyRecord(r.Result); r.Verdict != props.Violated || !stopped.Partial || stopped.Violated != 1 || r.Reason != strings.Split(rep.Reason, ";")[0] {
		t.Errorf("--stop: %v, %q", r.Verdict, r.Reason)
	}
}
