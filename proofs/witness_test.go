package proofs

import (
	"testing"

	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/props"
)

// TestWitnessOf: a saved trace becomes a trace witness with its steps and the message
// of each "mN" label; a contending pair a pair witness; anything else an instance
// witness carrying the value.
func TestWitnessOf(t *testing.T) {
	tf := &tracefile.File{Init: 2, Actions: []uint64{7, 9}, Labels: []string{"m1 flit 0 takes (0,0)->(1,0)", "tick"}, Violation: "deadlock: m0 -> m1 -> m0"}
	w := WitnessOf(tf)
	if w.Kind != props.WitnessTrace || w.Init != 2 || len(w.Steps) != 2 || w.Violation != tf.Violation {
		t.Fatalf("trace witness %+v", w)
	}
	if w.Steps[0].Action != 7 || w.Steps[0].Message != 1 || w.Steps[1].Message != -1 {
		t.Errorf("steps %+v", w.Steps)
	}
	pair := &props.ScheduleWitness{Kind: "channel", A: &props.UnicastRef{}, B: &props.UnicastRef{}}
	if w := WitnessOf(pair); w.Kind != props.WitnessPair || w.Schedule != pair {
		t.Errorf("pair witness %+v", w)
	}
	cond := &props.ScheduleWitness{Kind: "validity", Condition: "Definition 1 (3)"}
	if w := WitnessOf(cond); w.Kind != props.WitnessInstance {
		t.Errorf("condition witness kind %s", w.Kind)
	}
	detail := map[string]any{"N": 4}
	if w := WitnessOf(detail); w.Kind != props.WitnessInstance || w.Detail == nil {
		t.Errorf("instance witness %+v", w)
	}
	if WitnessOf(nil) != nil || WitnessOf((*tracefile.File)(nil)) != nil {
		t.Error("nil evidence gave a witness")
	}
	for label, want := range map[string]int{"m12 x": 12, "m": -1, "mx": -1, "": -1, "x m3": -1} {
		if got := labelMessage(label); got != want {
			t.Errorf("labelMessage(%q) = %d, want %d", label, got, want)
		}
	}
}

// TestMeterSnapshot: members, states and the family's ETA as a reporter reads them.
func TestMeterSnapshot(t *testing.T) {
	var m Meter
	m.reset("X1", 2, m.start)
	m.startFamily("f")
	m.Expect(10)
	m.Add(5, 100)
	s := m.Snapshot()
	if s.Claim != "X1" || s.Family != "f" || s.FamilyIndex != 1 || s.Families != 2 || s.Done != 5 || s.Total != 10 || s.States != 100 {
		t.Fatalf("snapshot %+v", s)
	}
	if s.ETA <= 0 && s.FamilyElapsedSec > 0 {
		t.Errorf("no ETA with half the members done: %+v", s)
	}
	m.startFamily("g")
	if s := m.Snapshot(); s.Done != 0 || s.Total != 0 || s.States != 100 || s.FamilyIndex != 2 {
		t.Errorf("a new family keeps the claim's states and resets its members: %+v", s)
	}
	var nilMeter *Meter
	nilMeter.Add(1, 1) // a judge run without a meter must not fail
	nilMeter.Expect(1)
}
