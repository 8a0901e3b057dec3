package creditloop

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/model/vct"
	"github.com/wormcheck/wormcheck/props"
)

// SaveTrace is the saved trace of a run of instance in: its model's actions and labels,
// the instance itself as the parameters (so that replay rebuilds the model from the
// tables it carries) and the violation the last state shows.
func SaveTrace(in *Instance, m *vct.Model, tr checker.Trace[vct.State], file, violation string) (*tracefile.File, error) {
	params, err := json.Marshal(in)
	if err != nil {
		return nil, err
	}
	tf := &tracefile.File{Format: tracefile.Format, Algorithm: Algorithm, Topology: file, Property: checker.PropDeadlock,
		Semantics: props.SemVCT, Params: params, Violation: violation}
	for _, s := range tr.Steps[1:] {
		tf.Actions = append(tf.Actions, uint64(s.Action))
		tf.Labels = append(tf.Labels, s.Label)
	}
	return tf, nil
}

// ReadInstance decodes a saved trace's parameters (an Instance); errors name the field.
func ReadInstance(tf *tracefile.File) (*Instance, error) {
	var in Instance
	dec := json.NewDecoder(bytes.NewReader(tf.Params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return nil, props.BadInputf("trace file field \"parameters\" is not a fabric instance: %v", err)
	}
	return &in, nil
}

// Replayed is a saved trace re-executed: the model rebuilt from its instance, the run,
// and the packets that never move again in its last state.
type Replayed struct {
	Instance *Instance
	Model    *vct.Model
	Trace    checker.Trace[vct.State]
	Stuck    []int
}

// Replay re-executes a saved fabric trace: it rebuilds the model from the instance the
// file carries (routing its flows through the tables again), applies the actions and
// reports violated when the last state is a deadlock. A file whose instance does not
// build, whose actions do not replay, or whose last state is no deadlock is bad input.
func Replay(tf *tracefile.File) (*props.Report, *Replayed, error) {
	in, err := ReadInstance(tf)
	if err != nil {
		return nil, nil, err
	}
	m, _, err := in.Build()
	if err != nil {
		return nil, nil, props.BadInputf("trace file field \"parameters\": %v", err)
	}
	actions := make([]system.Action, len(tf.Actions))
	for i, a := range tf.Actions {
		actions[i] = system.Action(a)
	}
	tr, err := checker.Replay[vct.State](m, tf.Init, actions)
	if err != nil {
		return nil, nil, props.BadInputf("%v", err)
	}
	for i, s := range tr.Steps[1:] {
		if i < len(tf.Labels) && tf.Labels[i] != s.Label {
			return nil, nil, props.BadInputf("step %d is labelled %q in the file but replays as %q", i+1, tf.Labels[i], s.Label)
		}
	}
	last := tr.Steps[len(tr.Steps)-1].State
	stuck := m.LocalDeadlock(last, nil)
	if len(stuck) == 0 {
		return nil, nil, props.BadInputf("the trace does not replay to a deadlock: its %d actions replay but no packet is stuck in the last state", len(actions))
	}
	violation := fmt.Sprintf("deadlock: %d packets stand still forever", len(stuck))
	rep := &props.Report{Schema: props.ReportSchema, Instance: props.Instance{Topology: tf.Topology, Algorithm: Algorithm},
		Property: checker.PropDeadlock, Semantics: props.SemVCT, Verdict: props.Violated, Reason: violation,
		Witness: Witness(m, tr, violation), Trace: tf,
		Stats: props.Stats{Checked: int64(len(actions)), Unit: "steps"}}
	rep.Evidence = &props.FabricEvidence{Fabric: m.Config().Fabric, Cycle: waitCycle(m, last), Model: m, Trace: tr, Violation: violation,
		Title: fmt.Sprintf("%s: %s", tf.Topology, tf.Violation), Subtitle: fmt.Sprintf("replayed: %d steps, %s", len(actions), violation)}
	return rep, &Replayed{Instance: in, Model: m, Trace: tr, Stuck: stuck}, nil
}

// waitCycle is the cycle of full buffers that the wait-for cycle of deadlocked state s
// closes: the channel each packet of the cycle waits for room in, in cycle order.
func waitCycle(m *vct.Model, s vct.State) []fabric.Hop {
	chans := m.Channels()
	g := m.WaitFor(s)
	var out []fabric.Hop
	for _, e := range g.Cycle(g.LocalDeadlock()) {
		if need := g.Waits[e.Wait].Needs[e.Need]; need.ID >= 0 {
			out = append(out, chans[need.ID])
		}
	}
	return out
}

// Witness is the trace witness of a run: every step with its packet, what it does and
// the channel it takes (or leaves, for a delivery), and, when the last state is a
// deadlock, the wait-for cycle among its packets.
func Witness(m *vct.Model, tr checker.Trace[vct.State], violation string) *props.Witness {
	w := &props.Witness{Kind: props.WitnessTrace, Violation: violation}
	chans := m.Channels()
	fab := m.Config().Fabric
	name := func(c int32) string {
		if c < 0 {
			return ""
		}
		h := chans[c]
		return fmt.Sprintf("%s/P%d", fab.Nodes[h.Node].Desc, h.Port)
	}
	for i := 1; i < len(tr.Steps); i++ {
		s := tr.Steps[i]
		x := m.Explain(tr.Steps[i-1].State, s.Action)
		ch, vl := x.To, 0
		if x.What == "deliver" {
			ch = x.From
		}
		if ch >= 0 {
			vl = int(chans[ch].VL)
		}
		w.Steps = append(w.Steps, props.TraceStep{Action: uint64(s.Action), Label: s.Label, What: x.What, Message: x.Packet, Channel: name(ch), VC: vl})
	}
	last := tr.Steps[len(tr.Steps)-1].State
	g := m.WaitFor(last)
	for _, e := range g.Cycle(g.LocalDeadlock()) {
		wt := g.Waits[e.Wait]
		need := wt.Needs[e.Need]
		vl := 0
		if need.ID >= 0 {
			vl = int(chans[need.ID].VL)
		}
		w.Cycle = append(w.Cycle, props.CycleEdge{Message: e.Waiter, Channel: name(int32(need.ID)), VC: vl, Holder: e.Holder})
	}
	return w
}
