// Flit traces: the picture of a state of model/flit on a grid, its blocked headers and the
// wait-for cycle among them, for any algorithm whose witness is a flit-level trace (tree
// multicast, unicast worms, routing relations).

package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/flitwire"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
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

// waitCycle maps the wait-for cycle of s (model/flit's WaitFor graph,
// system.WaitGraph.Cycle over the state's local deadlock) onto the blocked headers of
// p, so that the picture, the witness text and the explorer name the same cycle. A
// waiter the picture shows no header for (a flit waiting for room or injection) gets a
// header entry at its router.
func waitCycle(m *flit.Model, p *FlitPicture, s flit.State) []CycleLink {
	var out []CycleLink
	for _, e := range WaitCycle(m, s) {
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

// WaitLink is one edge of a flit state's wait-for cycle: message Waiter, at router At,
// waits for lane VC of channel Channel (topology.None and VC -1: the ejection or injection
// channel, Port says which), which message Holder holds.
type WaitLink struct {
	Waiter  int
	At      topology.NodeID
	Channel topology.ChannelID
	VC      int
	Port    string // "", "ejection" or "injection"
	Holder  int
}

// WaitCycle returns the wait-for cycle of state s of m, in order around it: the first
// cycle (system.WaitGraph.Cycle) among the messages of s's local deadlock, or among its
// blocked messages when it has none. nil when s has no cycle.
func WaitCycle(m *flit.Model, s flit.State) []WaitLink {
	g := m.WaitFor(s)
	set := g.Explained()
	var out []WaitLink
	for _, e := range g.Cycle(set) {
		w := g.Waits[e.Wait]
		need := w.Needs[e.Need]
		l := WaitLink{Waiter: e.Waiter, At: topology.NodeID(w.At), Channel: topology.None, VC: -1, Holder: e.Holder}
		switch {
		case need.ID >= 0:
			l.Channel, l.VC = m.Channel(flit.Out(need.ID)), m.VCOf(flit.Out(need.ID))
		case w.Kind == flit.WaitInject:
			l.Port = "injection"
		default:
			l.Port = "ejection"
		}
		if w.Kind == flit.WaitEject {
			// A delivery-channel wait names the channel its holder arrived on; the
			// picture draws it at the router.
			l.Channel, l.VC, l.Port = topology.None, -1, "ejection"
		}
		out = append(out, l)
	}
	return out
}

// WitnessCycle returns the wait-for cycle of the last state of a flit-level trace in the
// witness schema (props.CycleEdge, in order around the cycle; WaitCycle), so that the
// witness text, the picture and the explorer name the same messages and channels. It is
// nil when the state has no cycle.
func WitnessCycle(m *flit.Model, s flit.State) []props.CycleEdge {
	var out []props.CycleEdge
	for _, l := range WaitCycle(m, s) {
		e := props.CycleEdge{Message: l.Waiter, Channel: l.Port, VC: max(l.VC, 0), Holder: l.Holder}
		if l.Channel != topology.None {
			e.Channel = m.Config().Net.ChannelName(l.Channel)
		}
		out = append(out, e)
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

// TraceTitles returns the title and subtitle of a saved trace's picture: what the last
// state shows (the kind of violation and the trace length) and the instance with its
// parameters, so that a picture says what it is without its file name.
func TraceTitles(tf *tracefile.File, violation string, steps int) (string, string) {
	kind, _, _ := strings.Cut(violation, ": ")
	if kind == "" {
		kind = "no violation"
	}
	title := fmt.Sprintf("%s %s on %s: %s after %d steps", tf.Algorithm, tf.Property, tf.Topology, kind, steps)
	if cs := tf.CycleStart; cs != nil && *cs >= 0 && *cs < steps {
		title = fmt.Sprintf("%s %s on %s: %s, %d steps then a cycle of %d repeated forever", tf.Algorithm, tf.Property, tf.Topology, kind, *cs, steps-*cs)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, tf.Params); err != nil {
		b.Reset()
		b.Write(tf.Params)
	}
	params := strings.NewReplacer(`\u003e`, ">", `\u003c`, "<", `\u0026`, "&").Replace(b.String())
	return title, "parameters: " + params
}

// TraceNotes splits a violation's detail ("wait-for cycle m0 -> m1 -> m0: m0 at (1,0)
// waits for ...; m1 at ...") into legend lines.
func TraceNotes(violation string) []string {
	_, detail, ok := strings.Cut(violation, ": ")
	if !ok || detail == "" {
		return nil
	}
	return strings.Split(detail, "; ")
}

// FlitFiles draws a flit-level trace (FlitTrace) and captures it as pcap
// (flitwire.FlitPCAP): the SVG and pcap witness files of a deadlock or a broken invariant.
func FlitFiles(m *flit.Model, tr checker.Trace[flit.State], w *props.Witness, title, subtitle string, notes []string) (svg, pcap []byte, err error) {
	if svg, err = FlitWitness(m, tr, w, title, subtitle, notes); err != nil {
		return nil, nil, err
	}
	states, actions := runOf(tr)
	if pcap, err = flitwire.FlitPCAP(m, states, actions); err != nil {
		return nil, nil, err
	}
	return svg, pcap, nil
}

// TraceFiles renders a saved flit-level trace file, replayed on model m to tr with the
// given violation, as the witness files `replay` and `prove --witness-dir` write: "json"
// (the trace file), "svg" (the last state and its wait-for cycle) and "pcap" (every flit
// move).
func TraceFiles(tf *tracefile.File, m *flit.Model, tr checker.Trace[flit.State], violation string) (map[string][]byte, error) {
	js, err := json.MarshalIndent(tf, "", "  ")
	if err != nil {
		return nil, err
	}
	title, sub := TraceTitles(tf, violation, tr.Len())
	svg, pcap, err := FlitFiles(m, tr, nil, title, sub, TraceNotes(violation))
	if err != nil {
		return nil, err
	}
	return map[string][]byte{"json": append(js, '\n'), "svg": svg, "pcap": pcap}, nil
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

// FlitWitness draws a witness of a flit-level model by its kind: a lasso (FlitLasso,
// from w.CycleStart) or a trace (FlitTrace). tr is the witness replayed on
// m; notes are extra legend lines of a trace picture.
func FlitWitness(m *flit.Model, tr checker.Trace[flit.State], w *props.Witness, title, subtitle string, notes []string) ([]byte, error) {
	if w != nil && w.Kind == props.WitnessLasso {
		return FlitLasso(m, tr, w.CycleStart, title, subtitle)
	}
	return FlitTrace(m, tr, title, subtitle, notes)
}

// FlitSteps returns the transitions of a flit-level trace in the witness schema, one per
// step after the first state: the action and its label, and from the model's own account
// of the move (flit.Model.Explain) the message and flit that moved, the kind of move
// (FlitStepKind) and the channel and VC it entered. A step the model cannot explain keeps
// Message -1.
func FlitSteps(m *flit.Model, tr checker.Trace[flit.State]) []props.TraceStep {
	net := m.Config().Net
	var steps []props.TraceStep
	for i := 1; i < len(tr.Steps); i++ {
		st := tr.Steps[i]
		ts := props.TraceStep{Action: uint64(st.Action), Label: st.Label, Message: -1}
		if mv, err := m.Explain(tr.Steps[i-1].State, st.Action); err == nil {
			ts.Message, ts.Flit = mv.Msg, max(mv.Flit, 0)
			ts.What = FlitStepKind(mv)
			if mv.To >= 0 {
				ts.Channel = net.ChannelName(m.Channel(mv.To))
				ts.VC = m.VCOf(mv.To)
			}
		}
		steps = append(steps, ts)
	}
	return steps
}

// FlitStepKind names a flit move for props.TraceStep.What: "prune", "deliver" (into the
// ejection channel), "inject" (out of a source), "route" (a header allocating its next
// channel), "follow" or "advance". Reference: the move kinds are model/flit's (Kind).
func FlitStepKind(mv flit.Move) string {
	switch {
	case mv.Kind == flit.KindPrune:
		return "prune"
	case mv.To == flit.Eject:
		return "deliver"
	case mv.FromVC == flit.None:
		return "inject"
	case mv.Kind == flit.KindAlloc:
		return "route"
	case mv.Kind == flit.KindFollow:
		return "follow"
	}
	return "advance"
}
