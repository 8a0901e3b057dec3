package check

import (
	"bytes"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/props"
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

// markLasso turns w into a lasso witness when kind is a livelock or starvation
// (checker.CheckLiveness): Steps[cycleStart:] is the cycle that returns to the state
// after Steps[:cycleStart], and checker.ReplayLasso re-checks it.
func markLasso(w *props.Witness, kind checker.ViolationKind, cycleStart int) {
	if w != nil && kind.IsLasso() {
		w.Kind, w.CycleStart = props.WitnessLasso, cycleStart
	}
}
