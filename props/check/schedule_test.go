package check_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// verifyScheduleFile parses a schedule file and verifies it in the semantics of list.
func verifyScheduleFile(data []byte, list string) ([]*props.Report, error) {
	sems, err := check.ParseSemantics(list)
	if err != nil {
		return nil, err
	}
	s, err := model.ParseSchedule(data)
	if err != nil {
		return nil, err
	}
	return check.VerifySchedule(context.Background(), s, sems)
}

func scheduleChecks(s *model.Schedule, prop checker.Property) (*props.Report, error) {
	return check.RunSchedule(context.Background(), s, prop, check.Options{})
}

// stepwiseCFNotDepthCF is stepwise contention-free but not depth contention-free (see
// schedule.TestStepwiseButNotDepth).
const stepwiseCFNotDepthCF = `{"format":"wormcheck-schedule/1","topology":"torus:16x16","sources":[[0,0]],
 "destinations":[[15,0],[1,0],[0,15],[0,3],[0,2]],
 "unicasts":[{"from":[0,0],"to":[15,0],"step":1,"order":1},{"from":[0,0],"to":[1,0],"step":1,"order":2},
  {"from":[0,0],"to":[0,15],"step":1,"order":3},{"from":[0,0],"to":[0,3],"step":1,"order":4},
  {"from":[15,0],"to":[0,2],"step":2,"order":1,"path":[[15,0],[0,0],[0,1],[0,2]]}]}`

func TestVerifyScheduleFile(t *testing.T) {
	reps, err := verifyScheduleFile([]byte(stepwiseCFNotDepthCF), "")
	if err != nil {
		t.Fatal(err)
	}
	got := map[props.Property]props.Verdict{}
	for _, r := range reps {
		got[r.Property] = r.Verdict
	}
	want := map[props.Property]props.Verdict{"validity": props.Holds, "exactly-once": props.Holds, "steps": props.Holds,
		"stepwise": props.Holds, "depth": props.Violated, "any-delay": props.Violated}
	for p, v := range want {
		if got[p] != v {
			t.Errorf("%s: %s, want %s", p, got[p], v)
		}
	}
	if check.Worst(reps) != props.Violated {
		t.Error("worst verdict should be violated")
	}
	reps, err = verifyScheduleFile([]byte(stepwiseCFNotDepthCF), "step")
	if err != nil || len(reps) != 4 || check.Worst(reps) != props.Holds {
		t.Fatalf("step only: %v %d", err, len(reps))
	}
	if _, err := verifyScheduleFile([]byte(stepwiseCFNotDepthCF), "step,flit"); !errors.Is(err, check.ErrBadInput) {
		t.Errorf("unknown semantics: %v", err)
	}
	if _, err := verifyScheduleFile([]byte(`{"format":"x"}`), ""); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf("bad file: %v", err)
	}
}

func TestRenderAndScheduleChecks(t *testing.T) {
	s, err := model.ParseSchedule([]byte(stepwiseCFNotDepthCF))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []checker.Property{"validity", "exactly-once", "steps", "stepwise", "depth", "any-delay"} {
		r, err := scheduleChecks(s, p)
		if err != nil || r.Property != p {
			t.Fatalf("%s: %v", p, err)
		}
	}
	if r, _ := scheduleChecks(s, "depth"); r.Evidence == nil {
		t.Error("depth violation without evidence")
	}
	if _, err := scheduleChecks(s, "deadlock"); !errors.Is(err, check.ErrBadInput) {
		t.Error("deadlock accepted as a schedule property")
	}
	b, err := model.MarshalSchedule(s)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := model.ParseSchedule(b); err != nil {
		t.Fatal(err)
	}
}

func TestVerifyMarksTimedButNotAnyDelayFinding(t *testing.T) {
	f := `{"format":"wormcheck-schedule/1","topology":"mesh:4x4","sources":[[0,0]],"destinations":[[3,0],[2,0]],
	 "unicasts":[{"from":[0,0],"to":[3,0],"step":1,"order":1},{"from":[0,0],"to":[2,0],"step":2,"order":2}]}`
	reps, err := verifyScheduleFile([]byte(f), "timed,any-delay")
	if err != nil || len(reps) != 2 {
		t.Fatal(err)
	}
	if reps[0].Verdict != props.Holds || reps[1].Verdict != props.Violated || !strings.Contains(reps[1].Reason, "finding") {
		t.Fatalf("%s\n%s", reps[0].Text, reps[1].Text)
	}
}

func TestAnyDelayCheckCarriesTrace(t *testing.T) {
	s, err := model.ParseSchedule([]byte(stepwiseCFNotDepthCF))
	if err != nil {
		t.Fatal(err)
	}
	r, err := scheduleChecks(s, "any-delay")
	if err != nil || r.Verdict != props.Violated || r.Trace == nil {
		t.Fatalf("%v %+v", err, r)
	}
	if rep, err := schedule.ReplayAnyDelay(s, r.Trace); err != nil || rep.Verdict != props.Violated {
		t.Fatalf("replay: %v %+v", err, rep)
	}
}
