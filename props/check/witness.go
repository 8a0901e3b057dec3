package check

import (
	"bytes"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// initIndex returns the index in m.Init() of state s, compared by encoding, or 0 when s
// is not an initial state (a trace always starts at one).
func initIndex[S any](m system.Model[S], s S) int {
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

// flitWitness turns a flit-level trace into the one witness schema: its initial-state
// index, one structured step per transition (model/flit's Explain: which message's flit
// moved, into which channel and VC), the violation its last state shows and, for a
// deadlock, its wait-for cycle (render.FlitSteps, render.WitnessCycle).
func flitWitness(m *flit.Model, tr checker.Trace[flit.State], violation string) *props.Witness {
	w := &props.Witness{Kind: props.WitnessTrace, Violation: violation}
	if len(tr.Steps) == 0 {
		return w
	}
	w.Init = initIndex[flit.State](m, tr.Steps[0].State)
	w.Steps = render.FlitSteps(m, tr)
	if strings.HasPrefix(violation, "deadlock") || strings.HasPrefix(violation, "local deadlock") {
		// The wait-for cycle of the model's own wait-for graph (render.WitnessCycle), so
		// that the text, the picture and the explorer name the same messages and channels.
		w.Cycle = render.WitnessCycle(m, tr.Steps[len(tr.Steps)-1].State)
	}
	return w
}

// markLasso turns w into a lasso witness when kind is a livelock or starvation
// (checker.CheckLiveness): Steps[cycleStart:] is the cycle that returns to the state
// after Steps[:cycleStart], and checker.ReplayLasso re-checks it.
func markLasso(w *props.Witness, kind checker.ViolationKind, cycleStart int) {
	if w != nil && kind.IsLasso() {
		w.Kind, w.CycleStart = props.WitnessLasso, cycleStart
	}
}
