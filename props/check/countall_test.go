package check_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
)

// TestUnicastFamilyCountAll checks a unicast family that has two deadlocking members
// (three worms of three hops round a 6-ring without dateline classes, both ways): by
// default the run stops at the first, partial; with --stop=false (Unicast.CountAll) it
// checks every member, reports the first one's witness and counts both, by name and
// through the typed request alike.
func TestUnicastFamilyCountAll(t *testing.T) {
	in := check.Instance{Algorithm: "unicast", Topology: "torus:6", Params: map[string]string{"family": "all-placements:3", "dateline": "off"}}
	first, err := check.Run(context.Background(), in, checker.PropDeadlock, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rec, err := unicast.ParseFamilyRecord(first.Result)
	if err != nil {
		t.Fatal(err)
	}
	if first.Verdict != props.Violated || rec.Violated != 1 || !rec.Partial || first.Figures != nil {
		t.Fatalf("stop at the first: %v, %d violated, partial %v", first.Verdict, rec.Violated, rec.Partial)
	}
	in.Params["stop"] = "false"
	all, err := check.Run(context.Background(), in, checker.PropDeadlock, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rec, err = unicast.ParseFamilyRecord(all.Result); err != nil {
		t.Fatal(err)
	}
	if all.Verdict != props.Violated || rec.Violated != 2 || rec.Partial || rec.Instances != rec.Members ||
		all.Figures["violated"] != 2 || all.Figures["instances"] != float64(rec.Members) ||
		!strings.HasPrefix(all.Reason, "member 239 of the family (0->3,2->5,4->1) deadlock") ||
		!strings.HasSuffix(all.Reason, "; 2 of 476 members checked violated") || all.Trace == nil {
		t.Fatalf("count all: %v, %d of %d violated, partial %v, figures %v, %q", all.Verdict, rec.Violated, rec.Instances, rec.Partial, all.Figures, all.Reason)
	}
	if first.Trace == nil || !reflect.DeepEqual(first.Trace.Actions, all.Trace.Actions) || string(first.Trace.Params) != string(all.Trace.Params) {
		t.Errorf("the first witness differs between the two runs")
	}
	g, err := topology.Parse("torus:6")
	if err != nil {
		t.Fatal(err)
	}
	typed, err := check.Unicast{Grid: g, Spec: unicast.Spec{Dateline: unicast.DatelineOff}, Family: &unicast.Family{MaxWorms: 3, MinWorms: 1, Connected: true}, CountAll: true}.Check(context.Background(), checker.PropDeadlock, check.Options{})
	if err != nil || typed.Reason != all.Reason || typed.Stats.States != all.Stats.States {
		t.Errorf("typed: %v, %q", err, typed.Reason)
	}
	in.Params["family"] = ""
	in.Params["msgs"] = "0->3"
	if _, err := check.Run(context.Background(), in, checker.PropDeadlock, check.Options{}); err == nil || !strings.Contains(err.Error(), "--stop=false needs --family") {
		t.Errorf("--stop=false without a family: %v", err)
	}
}

// TestUnicastCountAllInterrupted: a --stop=false run cut after it found its first
// violated member (member 239 of 476) reports that member, and notes that the count
// covers only the members checked. The cut is made by a number of context looks,
// doubled until it falls after the first violation and before the end.
func TestUnicastCountAllInterrupted(t *testing.T) {
	in := check.Instance{Algorithm: "unicast", Topology: "torus:6", Params: map[string]string{"family": "all-placements:3", "dateline": "off", "stop": "false"}}
	for n := int64(64); n < 1<<24; n *= 2 {
		rep, err := check.Run(newCountCtx(n), in, checker.PropDeadlock, check.Options{Workers: 1})
		if err != nil {
			t.Fatal(err)
		}
		rec, err := unicast.ParseFamilyRecord(rep.Result)
		if err != nil {
			t.Fatal(err)
		}
		if !rec.Partial {
			t.Fatalf("no cut between the first violation and the end (the run finished at %d looks)", n)
		}
		if rep.Verdict != props.Violated {
			continue // cut before member 239
		}
		if !strings.Contains(strings.Join(rep.Notes, "\n"), "interrupted after") || !strings.HasPrefix(rep.Reason, "member 239 ") {
			t.Fatalf("cut at %d looks: reason %q, notes %q", n, rep.Reason, rep.Notes)
		}
		return
	}
	t.Fatal("the family was never cut")
}
