package unicast

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

// SwarmResult is a swarm hunt on one instance: the walks' figures and, for a deadlock,
// the minimised witness (Result holds it, on the full instance).
type SwarmResult struct {
	Result
	Swarm *checker.SwarmResult[flit.State]
	// Involved is how many messages the minimised deadlock involves (the local
	// deadlock's set), Of how many the instance has; WalkSteps is the length of the
	// trace the swarm found, before minimisation; Minimised says whether the smaller
	// instance's exhaustive search gave the witness (false: it is the swarm's own), and
	// SubStates how many states that search took (MinimiseStates where it stopped
	// there; 0 where it did not run).
	Involved, Of, WalkSteps int
	Minimised               bool
	SubStates               int64
}

// Swarm hunts for a deadlock, or a livelock lasso, of instance sp (model m, built on
// grid g) with randomised walks (checker.Swarm) and minimises a deadlock it finds: the messages outside the local
// deadlock's set are dropped, the smaller instance is searched exhaustively for its
// shortest deadlock (with the time ctx has left), and that trace is lifted back to the
// full instance (the dropped messages never leave their sources) and replayed there, so
// the witness is a trace of the instance asked about. A swarm that finds nothing is
// Inconclusive with what it covered; never Holds.
func Swarm(ctx context.Context, g *topology.Network, sp Spec, m *flit.Model, opt checker.SwarmOptions[flit.State]) (*SwarmResult, error) {
	opt.Context = ctx
	opt.CheckDeadlock = true
	opt.CheckLivelock = true
	sw, err := checker.Swarm[flit.State](m, opt)
	if err != nil {
		return nil, err
	}
	out := &SwarmResult{Swarm: sw, Of: len(sp.Pairs)}
	out.Property = checker.PropGlobalDeadlock
	if opt.CheckLocalDeadlock {
		out.Property = checker.PropDeadlock
	}
	out.States, out.Transitions, out.Depth, out.Seconds = sw.Steps, sw.Steps, sw.Deepest, sw.Duration.Seconds()
	if sw.Verdict != checker.Violated {
		out.Verdict, out.Violation = checker.Inconclusive, sw.Reason
		return out, nil
	}
	v := sw.Violation
	out.Verdict, out.Kind, out.Stuck, out.WalkSteps = checker.Violated, v.Kind, v.Stuck, v.Trace.Len()
	if v.Kind.IsLasso() {
		// A livelock or starvation lasso, confirmed by checker.ReplayLasso: reported as
		// the walk found it (no minimisation: every worm may take part in the cycle).
		out.Trace, out.CycleStart, out.Violation = v.Trace, v.CycleStart, v.Message
		return out, nil
	}
	acts := v.Trace.Actions()
	if v.Kind.IsDeadlock() && len(v.Stuck) > 0 && len(v.Stuck) < len(sp.Pairs) {
		lifted, n, ok := minimise(ctx, g, sp, m, v.Stuck, opt.CheckLocalDeadlock)
		if ok {
			acts, out.Minimised = lifted, true
		}
		out.SubStates = n
	}
	tr, err := checker.Replay[flit.State](m, 0, acts)
	if err != nil {
		return nil, fmt.Errorf("unicast: the minimised witness does not replay on the full instance: %w", err)
	}
	out.Trace = tr
	out.Violation = m.DeadlockText(out.Final(), opt.CheckLocalDeadlock)
	if out.Violation == "" {
		return nil, fmt.Errorf("unicast: the swarm's witness ends in a state that shows no deadlock")
	}
	if l := m.Stuck(out.Final()); len(l) > 0 {
		out.Stuck = l
	}
	out.Involved = len(out.Stuck)
	if v.Kind == checker.KindInvariant {
		out.Violation = fmt.Sprintf("invariant %s: %s", v.Invariant, v.Message)
	}
	return out, nil
}

// MinimiseStates bounds the exhaustive search of a swarm deadlock's own worms: past it
// the walk's trace (loops cut) is the witness. A shortest trace is worth a search of
// about a second, not the check's whole time: long worms in deep buffers give the
// involved worms alone millions of states, and the verdict is known already.
const MinimiseStates = 1 << 18

// minimise searches the instance of sp reduced to the messages of stuck exhaustively
// (within MinimiseStates) for its shortest deadlock and returns that trace's actions
// lifted to the full model m (message i of the smaller instance is message stuck[i] of
// m), with the smaller search's state count; ok is false when the smaller instance
// holds or its search did not finish.
func minimise(ctx context.Context, g *topology.Network, sp Spec, m *flit.Model, stuck []int, local bool) ([]checker.Action, int64, bool) {
	sub := sp
	sub.Pairs = nil
	for _, i := range stuck {
		sub.Pairs = append(sub.Pairs, sp.Pairs[i])
	}
	sm, err := BuildOn(g, sub)
	if err != nil {
		return nil, 0, false
	}
	r := SearchWith(sm, checker.Options[flit.State]{Context: ctx, CheckLocalDeadlock: local, MaxStates: MinimiseStates})
	if r.Verdict != checker.Violated || !r.Kind.IsDeadlock() {
		return nil, r.States, false
	}
	acts := r.Actions()
	lifted := make([]checker.Action, len(acts))
	nSub, nFull := len(sub.Pairs), len(sp.Pairs)
	for k, a := range acts {
		kind, input, arg := flit.SplitAction(a)
		if input < nSub {
			input = stuck[input]
		} else {
			input = input - nSub + nFull
		}
		lifted[k] = flit.MakeAction(kind, input, arg)
	}
	return lifted, r.States, true
}
