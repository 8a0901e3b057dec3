// Flit traces: the picture of a state of model/flit on a grid, its blocked headers and the
// wait-for cycle among them, for any algorithm whose witness is a flit-level trace (tree
// multicast, unicast worms, routing relations).

package render

import (
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/model/topology"
)

// MessageName is how pictures, the explorer and model/flit's Waits text name message i.
func MessageName(i int) string { return fmt.Sprintf("m%d", i) }

// gridOf returns the grid of a flit model whose network is a grid.
func gridOf(m *flit.Model) (*topology.Network, error) {
	gn, ok := m.Config().Net.(flit.GridNetwork)
	if !ok || gn.Network == nil {
		return nil, fmt.Errorf("render: the model's network is not a grid; only meshes and tori can be drawn")
	}
	return gn.Network, nil
}

// FlitState builds the picture of state s of model m: every message with its route, the
// lanes held and their buffered flits, the headers at the head of an input that have no
// usable output (in a deadlocked state, every header still to route) and the wait-for
// cycle among them. Cost: O(messages x route length + virtual channels).
func FlitState(m *flit.Model, s flit.State) (FlitPicture, error) {
	g, err := gridOf(m)
	if err != nil {
		return FlitPicture{}, err
	}
	cfg := m.Config()
	tab := m.Table()
	vcs := cfg.VCs
	if len(s.Msgs) != len(cfg.Messages) || len(s.VCs) != g.Channels()*vcs {
		return FlitPicture{}, fmt.Errorf("render: state has %d messages and %d virtual channels; the model has %d and %d", len(s.Msgs), len(s.VCs), len(cfg.Messages), g.Channels()*vcs)
	}
	p := FlitPicture{Grid: g, VCs: vcs}
	for i, mc := range cfg.Messages {
		seen := map[topology.ChannelID]bool{}
		var path []topology.ChannelID
		for di := range mc.Dests {
			for _, c := range m.PreferredPath(i, di) {
				if !seen[c] {
					seen[c] = true
					path = append(path, c)
				}
			}
		}
		note := fmt.Sprintf("%d flits", mc.Flits())
		if mc.Multicast {
			note = fmt.Sprintf("multicast, %d data flits", mc.Length)
		}
		p.Messages = append(p.Messages, FlitMessage{Name: MessageName(i), Source: mc.Source, Destinations: mc.Dests, Path: path, Note: note})
	}
	for o, v := range s.VCs {
		if v.Owner >= 0 && int(v.Owner) < len(cfg.Messages) {
			p.Holds = append(p.Holds, Hold{Channel: topology.ChannelID(o / vcs), VC: o % vcs, Message: int(v.Owner), Flits: v.Flits.Len(tab)})
		}
	}
	// An input is blocked when the model has no move for it in s (a livelocked header
	// always has one: it is never drawn as waiting).
	moves := map[int]bool{}
	for _, t := range m.Successors(s, nil) {
		_, input, _ := flit.SplitAction(t.Action)
		moves[input] = true
	}
	// A header is flit 0 (the first destination's address) or, for a tree multicast, an
	// address flit after the data (000 Fig. 1).
	header := func(i int, f uint8, at topology.NodeID, vc int) {
		mc := cfg.Messages[i]
		di := -1
		if f == 0 {
			di = 0
		} else if mc.Multicast && int(f) > mc.Length {
			di = int(f) - mc.Length
		}
		if di < 0 || di >= len(mc.Dests) {
			return
		}
		input := i // the message's source, or its virtual channel, as the model numbers inputs
		if vc >= 0 {
			input = len(s.Msgs) + vc
		}
		if moves[input] {
			return // the model lets it move: not blocked, whatever the picture prefers
		}
		want := m.PreferredOutput(s, i, di, vc)
		bl := Blocked{Message: i, At: at, Wants: want, Label: fmt.Sprintf("%s.d%d", MessageName(i), di+1)}
		if outs := m.PermittedOutputs(s, i, di, vc); len(outs) > 1 {
			bl.AnyOf = outs
		}
		p.Blocked = append(p.Blocked, bl)
	}
	for i, gm := range s.Msgs {
		if !gm.Done && gm.In.Reinj == 0 && int(gm.Sent) < cfg.Messages[i].Flits() {
			header(i, gm.Sent, cfg.Messages[i].Source, -1)
		}
	}
	for o, v := range s.VCs {
		if v.Owner >= 0 && v.Flits.Len(tab) > 0 && v.In.Reinj == 0 {
			_, to := cfg.Net.Ends(topology.ChannelID(o / vcs))
			header(int(v.Owner), v.Flits.At(tab, 0), to, o)
		}
	}
	p.Cycle = waitCycle(m, &p, s)
	return p, nil
}

// waitCycle maps the wait-for cycle of s (flit.Model.WaitCycle) onto the blocked headers of
// p, so that the picture, the witness text and the explorer name the same cycle. A
// waiter the picture shows no header for (a flit waiting for room or injection) gets a
// header entry at its router.
func waitCycle(m *flit.Model, p *FlitPicture, s flit.State) []CycleLink {
	var out []CycleLink
	for _, e := range m.WaitCycle(s) {
		h := -1
		for k, bl := range p.Blocked {
			if bl.Message == e.Waiter && bl.At == e.At {
				h = k
				break
			}
		}
		if h < 0 {
			p.Blocked = append(p.Blocked, Blocked{Message: e.Waiter, At: e.At, Wants: e.Channel, Label: MessageName(e.Waiter)})
			h = len(p.Blocked) - 1
		}
		out = append(out, CycleLink{Header: h, Channel: e.Channel, VC: e.VC, Holder: e.Holder})
	}
	return out
}

// FlitTrace draws the last state of a flit-level trace, the witness of a deadlock (or of
// a broken invariant), with the wait-for cycle of that state (WaitCycle, the one the
// witness names): title says what it shows, subtitle the instance and parameters, notes
// are extra legend lines.
func FlitTrace(m *flit.Model, tr checker.Trace[flit.State], title, subtitle string, notes []string) ([]byte, error) {
	if len(tr.Steps) == 0 {
		return nil, fmt.Errorf("render: empty trace")
	}
	p, err := FlitState(m, tr.Steps[len(tr.Steps)-1].State)
	if err != nil {
		return nil, err
	}
	p.Title, p.Subtitle, p.Notes = title, subtitle, notes
	return DrawFlit(p)
}

// runOf splits a trace into its states and the actions between them.
func runOf(tr checker.Trace[flit.State]) ([]flit.State, []system.Action) {
	states := make([]flit.State, len(tr.Steps))
	var actions []system.Action
	for k, st := range tr.Steps {
		states[k] = st.State
		if k > 0 {
			actions = append(actions, st.Action)
		}
	}
	return states, actions
}

// FlitLasso draws a lasso of a flit-level model (a livelock or starvation witness): the
// state the cycle returns to, and the cycle's hops in purple, each labelled with its
// steps in the cycle, which repeats forever. tr.Steps[cycleStart] is that state and
// tr.Steps[len-1] equals it (checker.Lasso). title says what it shows ("livelock: m0 is
// never delivered"), subtitle the instance.
func FlitLasso(m *flit.Model, tr checker.Trace[flit.State], cycleStart int, title, subtitle string) ([]byte, error) {
	if cycleStart < 0 || cycleStart >= len(tr.Steps)-1 {
		return nil, fmt.Errorf("render: lasso cycle starts at step %d of a %d-step trace", cycleStart, tr.Len())
	}
	p, err := FlitState(m, tr.Steps[cycleStart].State)
	if err != nil {
		return nil, err
	}
	p.Title, p.Subtitle = title, subtitle
	// A lasso's state is not stuck: no header is blocked for good, so none is ringed.
	p.Blocked, p.Cycle = nil, nil
	at := map[[2]int]int{} // (virtual channel, message) -> index into p.Loop
	for k := cycleStart + 1; k < len(tr.Steps); k++ {
		n := k - cycleStart
		p.LoopText = append(p.LoopText, fmt.Sprintf("%d. %s", n, tr.Steps[k].Label))
		mv, err := m.Explain(tr.Steps[k-1].State, tr.Steps[k].Action)
		if err != nil {
			return nil, fmt.Errorf("render: lasso step %d: %v", k, err)
		}
		if mv.To < 0 {
			continue
		}
		key := [2]int{int(mv.To), mv.Msg}
		i, ok := at[key]
		if !ok {
			i = len(p.Loop)
			at[key] = i
			p.Loop = append(p.Loop, LoopHop{Channel: m.Channel(mv.To), VC: m.VCOf(mv.To), Message: mv.Msg})
		}
		p.Loop[i].Steps = append(p.Loop[i].Steps, n)
	}
	return DrawFlit(p)
}
