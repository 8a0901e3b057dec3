package schedule

import (
	"fmt"
	"testing"

	"github.com/wormcheck/wormcheck/algos/dcf"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// walkPipelined replays actions on the any-delay model of s step by step and checks
// wormhole pipelining at every step: a tail leaves channel c_k only while its header
// holds c_(k+1) or has reached the destination, so a started, undelivered worm that has
// acquired a channel always holds one; no state before the last has two unicasts on a
// channel, and the last one has. It returns a description of the first failure, or "".
func walkPipelined(s *model.Schedule, actions []checker.Action) string {
	m, err := NewAnyDelayModel(s)
	if err != nil {
		return err.Error()
	}
	tr, err := checker.Replay[AnyDelayState](m, 0, actions)
	if err != nil {
		return err.Error()
	}
	inv := m.AnyDelayInvariant()
	for k := 1; k < len(tr.Steps); k++ {
		prev, st := tr.Steps[k-1].State, tr.Steps[k]
		i, kind := int(st.Action/4), int(st.Action%4)
		h := int16(len(s.Unicasts[i].Path))
		if kind == adRelease && !(prev.Head[i] >= prev.Tail[i]+2 || prev.Head[i] == h) {
			return fmt.Sprintf("step %d (%s): the tail leaves channel %d while the header holds only %d channel(s)", k, st.Label, prev.Tail[i]+1, prev.Head[i])
		}
		for u := range s.Unicasts {
			hu := int16(len(s.Unicasts[u].Path))
			if x := st.State; x.Head[u] > 0 && x.Tail[u] <= hu && x.Tail[u] >= x.Head[u] {
				return fmt.Sprintf("step %d (%s): #%d holds no channel (header %d, tail %d) before delivery", k, st.Label, u, x.Head[u], x.Tail[u])
			}
		}
		bad := inv.Check(st.State)
		if last := k == len(tr.Steps)-1; (bad != nil) != last {
			return fmt.Sprintf("step %d of %d (%s): contention %v", k, len(tr.Steps)-1, st.Label, bad)
		}
	}
	return ""
}

func actionsOf(w *props.ScheduleWitness) []checker.Action {
	acts := make([]checker.Action, len(w.Actions))
	for k, a := range w.Actions {
		acts[k] = checker.Action(a)
	}
	return acts
}

// TestAnyDelayWitnessPipelined walks the reported any-delay witnesses step by step: the
// explorer's shortest interleaving and the happens-before decision's execution on the
// stall example, and DC3's finding on DCF 8x8 (004 Theorem 4 holds in the timed model;
// under arbitrary delays two unicasts of DCF meet on a channel).
//
// Reference: 004 Theorem 4, Cor. 4; DESIGN.md "a worm is pipelined in every semantics".
func TestAnyDelayWitnessPipelined(t *testing.T) {
	us := []uc{{xy(0, 0), xy(3, 0), 1, 1}, {xy(0, 0), xy(2, 0), 2, 2}}
	s := build(t, "mesh:4x4", xy(0, 0), targets(us), us)
	res, _, err := ExploreAnyDelay(s, checker.Options[AnyDelayState]{})
	if err != nil || res.Verdict != checker.Violated {
		t.Fatalf("explorer: %v %v", err, res)
	}
	if d := walkPipelined(s, res.Violation.Trace.Actions()); d != "" {
		t.Fatalf("explorer trace: %s\n%s", d, res.Violation.Trace)
	}
	w, _, err := DecideAnyDelay(s)
	if err != nil || w == nil {
		t.Fatalf("decision: %v %v", err, w)
	}
	if d := walkPipelined(s, actionsOf(w)); d != "" {
		t.Fatalf("decision witness: %s\n%s", d, w)
	}
	g, err := topology.NewTorus(8, 8)
	if err != nil {
		t.Fatal(err)
	}
	d8, err := dcf.Build(g, 0)
	if err != nil {
		t.Fatal(err)
	}
	rep := AnyDelay(d8)
	w8 := rep.ScheduleWitness()
	if rep.Verdict != props.Violated || w8 == nil || len(w8.Actions) == 0 {
		t.Fatalf("DCF 8x8 any-delay: %v %v", rep.Verdict, w8)
	}
	if d := walkPipelined(d8, actionsOf(w8)); d != "" {
		t.Fatalf("DCF 8x8 witness: %s", d)
	}
	if r, err := ReplayAnyDelay(d8, rep.Trace); err != nil || r.Verdict != props.Violated {
		t.Fatalf("DCF 8x8 witness replay: %v %v", err, r)
	}
	// The model's progress measure certifies delivery where no contention is found.
	one := build(t, "mesh:4x4", xy(0, 0), targets(us[:1]), us[:1])
	res1, _, err := ExploreAnyDelay(one, checker.Options[AnyDelayState]{CheckLiveness: true})
	if c := res1.Certificate(); err != nil || res1.Verdict != checker.Holds || c.Kind != checker.CertProgress || c.Transitions != res1.Stats.Transitions {
		t.Fatalf("one unicast: %v %v, certificate %+v", err, res1.Verdict, c)
	}
	t.Logf("DCF 8x8: %s (%d steps)", w8.A.From+"->"+w8.A.To+" and "+w8.B.From+"->"+w8.B.To+" on "+w8.Channel, len(w8.Actions))
}
