package schedule

import (
	"testing"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
)

// FuzzScheduleChecks runs every schedule property on parsed files: none may panic, a
// violated depth report must carry a witness that replays, and an any-delay contention-
// free schedule must be depth contention-free.
func FuzzScheduleChecks(f *testing.F) {
	f.Add([]byte(`{"format":"wormcheck-schedule/1","topology":"torus:4x4","sources":[[0,0]],"destinations":[[1,0],[1,2],[1,1]],
	 "unicasts":[{"from":[0,0],"to":[1,0],"step":1,"order":1},{"from":[1,0],"to":[1,2],"step":2,"order":1},{"from":[0,0],"to":[1,1],"step":2,"order":2}]}`))
	f.Add([]byte(`{"format":"wormcheck-schedule/1","topology":"mesh:3x3","ports":"one-port","sources":[0,8],"group_destinations":[[4],[4]],
	 "unicasts":[{"from":0,"to":4,"step":1,"order":1,"group":0},{"from":8,"to":4,"step":1,"order":1,"group":1}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := model.ParseSchedule(data)
		if err != nil || len(s.Unicasts) > 40 || s.Topology.Nodes() > 256 {
			return
		}
		for _, r := range []*props.Report{Validity(s), ExactlyOnce(s), StepCount(s, 0), Stepwise(s), NodeContention(s)} {
			if r.Verdict.String() == "" {
				t.Fatal("empty verdict")
			}
		}
		res, err := DecideDepth(s, DepthOptions{})
		if err != nil {
			return // not causal, or a bound: reported as inconclusive by Depth
		}
		if !res.ContentionFree {
			tm, err := Simulate(s, *res.Witness.Params)
			if err != nil || tm.First == nil {
				t.Fatalf("witness does not replay: %v", err)
			}
		}
		w, _, err := DecideAnyDelay(s)
		if err != nil {
			t.Fatalf("any-delay fails where depth works: %v", err)
		}
		if w == nil && !res.ContentionFree {
			t.Fatalf("any-delay contention-free but not depth contention-free")
		}
	})
}
