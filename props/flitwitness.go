package props

import (
	"bytes"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

// FlitWitness turns a flit-level trace on m into the one witness schema: the index of
// its initial state, one structured step per transition (FlitSteps), the violation its
// last state shows and, for a deadlock, the wait-for cycle of that state (FlitCycle), so
// that the text, the picture and the explorer name the same messages and channels.
func FlitWitness(m *flit.Model, tr checker.Trace[flit.State], violation string) *Witness {
	w := &Witness{Kind: WitnessTrace, Violation: violation}
	if len(tr.Steps) == 0 {
		return w
	}
	w.Init = initIndex(m, tr.Steps[0].State)
	w.Steps = FlitSteps(m, tr)
	if strings.HasPrefix(violation, "deadlock") || strings.HasPrefix(violation, "local deadlock") {
		w.Cycle = FlitCycle(m, tr.Steps[len(tr.Steps)-1].State)
	}
	return w
}

// initIndex returns the index in m.Init() of state s, compared by encoding, or 0 when s
// is not an initial state (a trace always starts at one).
func initIndex(m *flit.Model, s flit.State) int {
	want := m.Encode(s, nil)
	var buf []byte
	for i, t := range m.Init() {
		buf = m.Encode(t, buf[:0])
		if bytes.Equal(buf, want) {
			return i
		}
	}
	return 0
}

// FlitSteps returns the transitions of a flit-level trace in the witness schema, one per
// step after the first state: the action and its label, and from the model's own account
// of the move (flit.Model.Explain) the message and flit that moved, the kind of move
// (flit.Move.What) and the channel and VC it entered. A step the model cannot explain
// keeps Message -1.
func FlitSteps(m *flit.Model, tr checker.Trace[flit.State]) []TraceStep {
	net := m.Config().Net
	var steps []TraceStep
	for i := 1; i < len(tr.Steps); i++ {
		st := tr.Steps[i]
		ts := TraceStep{Action: uint64(st.Action), Label: st.Label, Message: -1}
		if mv, err := m.Explain(tr.Steps[i-1].State, st.Action); err == nil {
			ts.Message, ts.Flit = mv.Msg, max(mv.Flit, 0)
			ts.What = mv.What()
			if mv.To >= 0 {
				ts.Channel = net.ChannelName(m.Channel(mv.To))
				ts.VC = m.VCOf(mv.To)
			}
		}
		steps = append(steps, ts)
	}
	return steps
}

// FlitCycle returns the wait-for cycle of state s of m (flit.Model.WaitCycle) in the
// witness schema, in order around the cycle; nil when the state has none.
func FlitCycle(m *flit.Model, s flit.State) []CycleEdge {
	var out []CycleEdge
	for _, l := range m.WaitCycle(s) {
		e := CycleEdge{Message: l.Waiter, Channel: l.Port, VC: max(l.VC, 0), Holder: l.Holder}
		if l.Channel != topology.None {
			e.Channel = m.Config().Net.ChannelName(l.Channel)
		}
		out = append(out, e)
	}
	return out
}
