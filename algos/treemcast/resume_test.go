package treemcast

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
)

// sameMembers compares two results member by member and in their sums.
func sameMembers(t *testing.T, what string, got, want *FamilyResult) {
	t.Helper()
	if !reflect.DeepEqual(got.Checked, want.Checked) {
		t.Fatalf("%s: checked members differ:\n got %v\nwant %v", what, got.Checked, want.Checked)
	}
	if got.Instances != want.Instances || got.Covered != want.Covered || got.States != want.States ||
		got.Transitions != want.Transitions || got.Violated != want.Violated || got.Verdict != want.Verdict ||
		got.Partial != want.Partial || !reflect.DeepEqual(got.Inconclusive, want.Inconclusive) {
		t.Fatalf("%s: sums differ:\n got %+v\nwant %+v", what, got, want)
	}
	if !reflect.DeepEqual(got.Certificates, want.Certificates) || got.CollisionBound != want.CollisionBound {
		t.Fatalf("%s: certificates %+v vs %+v, collision bound %v vs %v", what, got.Certificates, want.Certificates, got.CollisionBound, want.CollisionBound)
	}
	if (got.Witness == nil) != (want.Witness == nil) || got.Witness != nil && got.Witness.Index != want.Witness.Index {
		t.Fatalf("%s: witnesses differ: %+v vs %+v", what, got.Witness, want.Witness)
	}
}

// TestResume stops a shard after a few members (Limit), resumes it from its marshalled
// result in several steps, and checks that the result equals an uninterrupted run,
// member by member; a resumed run of another shard or family is refused.
func TestResume(t *testing.T) {
	g := grid(t, "mesh:3x2")
	f := Family{Grid: g, K: 2, Symmetry: true}
	p := DefaultParams()
	p.Buffer, p.Prune = 1, flit.PruneNone
	sh := Shard{Index: 1, Count: 2}
	whole, err := RunFamily(f, FamilyOptions{Params: p, Prop: PropDeadlock, Shard: sh})
	if err != nil {
		t.Fatal(err)
	}
	if whole.Violated == 0 || len(whole.Checked) != whole.Instances {
		t.Fatalf("the test family should have violations and a full record: %+v", whole)
	}
	var prev *FamilyResult
	for step := 0; ; step++ {
		r, err := RunFamily(f, FamilyOptions{Params: p, Prop: PropDeadlock, Shard: sh, Limit: 5 * (step + 1), Resume: prev})
		if err != nil {
			t.Fatal(err)
		}
		b, err := r.Marshal()
		if err != nil {
			t.Fatal(err)
		}
		if prev, err = ParseFamilyResult(b); err != nil {
			t.Fatal(err)
		}
		if !r.Partial {
			break
		}
		if r.Verdict == 0 {
			t.Fatalf("a partial result without violations must not hold: %+v", r)
		}
	}
	sameMembers(t, "resumed in steps of 5", prev, whole)

	// A cancelled run is partial, records only finished members, and resumes.
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	cut, err := RunFamily(f, FamilyOptions{Params: p, Prop: PropDeadlock, Shard: sh, Context: ctx, CheckpointEvery: 1,
		Checkpoint: func(r *FamilyResult) error {
			if n++; n == 3 {
				cancel()
			}
			return nil
		}})
	if err != nil {
		t.Fatal(err)
	}
	if !cut.Partial || len(cut.Checked) != cut.Instances || cut.Instances >= whole.Instances {
		t.Fatalf("cancelled run: partial %v, %d checked, %d instances", cut.Partial, len(cut.Checked), cut.Instances)
	}
	rest, err := RunFamily(f, FamilyOptions{Params: p, Prop: PropDeadlock, Shard: sh, Resume: cut})
	if err != nil {
		t.Fatal(err)
	}
	sameMembers(t, "resumed after cancel", rest, whole)

	for _, tc := range []struct {
		f    Family
		sh   Shard
		want string
	}{
		{f, Shard{Index: 0, Count: 2}, "shard"},
		{Family{Grid: g, K: 1, Symmetry: true}, sh, "family"},
		{Family{Grid: g, K: 2}, sh, "parameters"},
	} {
		if _, err := RunFamily(tc.f, FamilyOptions{Params: p, Prop: PropDeadlock, Shard: tc.sh, Resume: cut}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("resuming shard %s of %s from shard %s: %v, want an error naming the %s", tc.sh, tc.f.Spec(), sh, err, tc.want)
		}
	}
}

// TestFamilyResultNamesRouting checks that a family result names the members' routing
// relation (a built-in by name, a routing file by its contents), so that it says all a
// re-run needs, and that a result written with a routing file resumes: its parameters
// read back equal to the run's.
func TestFamilyResultNamesRouting(t *testing.T) {
	g := grid(t, "mesh:3x2")
	p := DefaultParams()
	builtin, err := routing.ByName(g, "west-first")
	if err != nil {
		t.Fatal(err)
	}
	file, err := routing.ParseFile([]byte(`{"format": "wormcheck-routing/1", "name": "my-west-first",
		"rules": [{"forbid": ["north->west", "south->west"]}]}`), g)
	if err != nil {
		t.Fatal(err)
	}
	r, err := RunFamily(Family{Grid: g, K: 1, Relation: builtin}, FamilyOptions{Params: p, Prop: PropDeadlock, Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if r.Params.Routing != "west-first" || r.Params.RoutingFile != nil {
		t.Fatalf("a built-in relation is named: got routing %q, file %s", r.Params.Routing, r.Params.RoutingFile)
	}
	f := Family{Grid: g, K: 1, Relation: file}
	r, err = RunFamily(f, FamilyOptions{Params: p, Prop: PropDeadlock, Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if r.Params.Routing != "" || !strings.Contains(string(r.Params.RoutingFile), "my-west-first") {
		t.Fatalf("a routing file is kept whole: got routing %q, file %s", r.Params.Routing, r.Params.RoutingFile)
	}
	b, err := r.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	prev, err := ParseFamilyResult(b)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := RunFamily(f, FamilyOptions{Params: p, Prop: PropDeadlock})
	if err != nil {
		t.Fatal(err)
	}
	resumed, err := RunFamily(f, FamilyOptions{Params: p, Prop: PropDeadlock, Resume: prev})
	if err != nil {
		t.Fatal(err)
	}
	sameMembers(t, "resumed with a routing file", resumed, whole)
}
