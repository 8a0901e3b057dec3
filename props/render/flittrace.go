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
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/flitwire"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/props"
)

// MessageName is how pictures, the explorer and model/flit's Waits text name message i.
func MessageName(i int) string { return fmt.Sprintf("m%d", i) }

// gridOf returns the grid of a flit model whose network is a grid.
func gridOf(m *flit.Model) (*model.Grid, error) {
	gn, ok := m.Config().Net.(flit.GridNetwork)
	if !ok || gn.Grid == nil {
		return nil, fmt.Errorf("render: the model's network is not a grid; only meshes and tori can be drawn")
	}
	return gn.Grid, nil
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
		seen := map[model.ChannelID]bool{}
		var path []model.ChannelID
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
			p.Holds = append(p.Holds, Hold{Channel: model.ChannelID(o / vcs), VC: o % vcs, Message: int(v.Owner), Flits: v.Flits.Len(tab)})
		}
	}
	// A header is flit 0 (the first destination's address) or, for a tree multicast, an
	// address flit after the data (000 Fig. 1).
	header := func(i int, f uint8, at model.NodeID, vc int, in0 flit.Input) {
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
		want := m.PreferredOutput(s, i, di, vc)
		for _, o := range in0.Outs.Slice(tab) {
			if (o == flit.Eject && want == model.None) || (o >= 0 && model.ChannelID(int(o)/vcs) == want) {
				if o == flit.Eject || s.VCs[o].Flits.Len(tab) < cfg.Buffer {
					return // it has a usable branch
				}
			}
		}
		p.Blocked = append(p.Blocked, Blocked{Message: i, At: at, Wants: want, Label: fmt.Sprintf("%s.d%d", MessageName(i), di+1)})
	}
	for i, gm := range s.Msgs {
		if !gm.Done && gm.In.Reinj == 0 && int(gm.Sent) < cfg.Messages[i].Flits() {
			header(i, gm.Sent, cfg.Messages[i].Source, -1, gm.In)
		}
	}
	for o, v := range s.VCs {
		if v.Owner >= 0 && v.Flits.Len(tab) > 0 && v.In.Reinj == 0 {
			_, to := cfg.Net.Ends(model.ChannelID(o / vcs))
			header(int(v.Owner), v.Flits.At(tab, 0), to, o, v.In)
		}
	}
	p.Cycle = waitCycle(p, s, vcs)
	return p, nil
}

// waitCycle finds a wait-for cycle among the blocked headers of p: header h of message i
// waits for message j if j holds a lane of the channel h wants. The search starts from
// the lowest message, like model/flit's Waits, so both name the same cycle.
func waitCycle(p FlitPicture, s flit.State, vcs int) []CycleLink {
	n := len(p.Messages)
	type edge struct{ header, vc, to int }
	out := make([][]edge, n)
	for h, bl := range p.Blocked {
		if bl.Wants == model.None {
			continue
		}
		for vc := 0; vc < vcs; vc++ {
			o := int(bl.Wants)*vcs + vc
			if w := int(s.VCs[o].Owner); w >= 0 && w < n && w != bl.Message {
				out[bl.Message] = append(out[bl.Message], edge{h, vc, w})
			}
		}
	}
	state := make([]uint8, n)
	var stack []edge
	var found []CycleLink
	var dfs func(i int) bool
	dfs = func(i int) bool {
		state[i] = 1
		for _, e := range out[i] {
			stack = append(stack, e)
			if state[e.to] == 1 {
				// The cycle is the suffix of the stack from the edge leaving e.to.
				start := 0
				for k, x := range stack {
					if p.Blocked[x.header].Message == e.to {
						start = k
						break
					}
				}
				for _, x := range stack[start:] {
					found = append(found, CycleLink{Header: x.header, VC: x.vc, Holder: x.to})
				}
				return true
			}
			if state[e.to] == 0 && dfs(e.to) {
				return true
			}
			stack = stack[:len(stack)-1]
		}
		state[i] = 2
		return false
	}
	for i := 0; i < n; i++ {
		stack = stack[:0]
		if state[i] == 0 && dfs(i) {
			return found
		}
	}
	return nil
}

// WitnessCycle returns the wait-for cycle of the last state of a flit-level trace in the
// witness schema (props.CycleEdge, in order around the cycle), so that the witness text,
// the picture and the explorer name the same messages and channels. It is nil when the
// state has no cycle.
func WitnessCycle(m *flit.Model, s flit.State) ([]props.CycleEdge, error) {
	p, err := FlitState(m, s)
	if err != nil {
		return nil, err
	}
	var out []props.CycleEdge
	for _, l := range p.Cycle {
		bl := p.Blocked[l.Header]
		out = append(out, props.CycleEdge{Message: bl.Message, Channel: p.Grid.ChannelName(bl.Wants), VC: l.VC, Holder: l.Holder})
	}
	return out, nil
}

// FlitTrace draws the last state of a flit-level trace, the witness of a deadlock (or of
// a broken invariant): title says what it shows, subtitle the instance and parameters,
// notes are extra legend lines. When w carries a Cycle it is drawn as given (numbered in
// its order), else the cycle is computed from the state.
func FlitTrace(m *flit.Model, tr checker.Trace[flit.State], w *props.Witness, title, subtitle string, notes []string) ([]byte, error) {
	if len(tr.Steps) == 0 {
		return nil, fmt.Errorf("render: empty trace")
	}
	p, err := FlitState(m, tr.Steps[len(tr.Steps)-1].State)
	if err != nil {
		return nil, err
	}
	p.Title, p.Subtitle, p.Notes = title, subtitle, notes
	if w != nil && len(w.Cycle) > 0 {
		if c, ok := cycleFromWitness(p, w.Cycle); ok {
			p.Cycle = c
		}
	}
	return DrawFlit(p)
}

// cycleFromWitness maps a witness's cycle edges onto the blocked headers of p; it fails
// (false) when an edge names a header the state does not show.
func cycleFromWitness(p FlitPicture, es []props.CycleEdge) ([]CycleLink, bool) {
	var out []CycleLink
	for _, e := range es {
		h := -1
		for k, bl := range p.Blocked {
			if bl.Message == e.Message && bl.Wants != model.None && p.Grid.ChannelName(bl.Wants) == e.Channel {
				h = k
				break
			}
		}
		if h < 0 || e.Holder < 0 || e.Holder >= len(p.Messages) || e.VC < -1 || e.VC >= max(p.VCs, 1) {
			return nil, false
		}
		out = append(out, CycleLink{Header: h, VC: e.VC, Holder: e.Holder})
	}
	return out, true
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
// from w.CycleStart) or a trace (FlitTrace, with w's cycle). tr is the witness replayed on
// m; notes are extra legend lines of a trace picture.
func FlitWitness(m *flit.Model, tr checker.Trace[flit.State], w *props.Witness, title, subtitle string, notes []string) ([]byte, error) {
	if w != nil && w.Kind == props.WitnessLasso {
		return FlitLasso(m, tr, w.CycleStart, title, subtitle)
	}
	return FlitTrace(m, tr, w, title, subtitle, notes)
}
