package unicast

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Params are the parameters a saved unicast trace carries (tracefile.File.Params), enough to
// rebuild its model: the worms as "src->dst" node numbers, L, B, VCs, the dateline mode,
// the port model ("one" or "all") and the routing relation's name when it is not
// dimension order (a built-in, routing.ByName).
type Params struct {
	Msgs     string `json:"msgs"`
	Length   int    `json:"length"`
	Buffers  int    `json:"buffers"`
	VCs      int    `json:"vcs"`
	Dateline string `json:"dateline"`
	Ports    string `json:"ports"`
	// Routing names a built-in routing relation, RoutingFile carries a routing file's
	// JSON (model/routing.Encode); both empty: dimension order.
	Routing     string          `json:"routing,omitempty"`
	RoutingFile json.RawMessage `json:"routing_file,omitempty"`
	// Lengths, when present, gives each worm its own length (Spec.Lengths).
	Lengths []int `json:"lengths,omitempty"`
}

func portsName(p model.PortModel) string {
	if p == model.OnePort {
		return "one"
	}
	return "all"
}

// ParamsOf returns the trace parameters of a spec.
func ParamsOf(sp Spec) Params {
	p := Params{Msgs: sp.Worms(), Length: sp.Length, Buffers: sp.Buffer, VCs: sp.VCs, Dateline: sp.Dateline.String(), Ports: portsName(sp.Ports), Lengths: sp.Lengths}
	if dl, ok := datelineOf(sp.Routing); ok {
		// Dimension order is saved as its dateline mode: "auto" would rebuild it with
		// dateline classes on a torus, whatever the relation had.
		p.Dateline = dl.String()
	} else if sp.Routing != nil {
		p.Routing, p.RoutingFile, _ = routing.Encode(sp.Routing)
	}
	return p
}

// datelineOf returns the dateline mode that rebuilds rel when rel is dimension-order
// routing (Spec.Relation); ok is false for any other relation.
func datelineOf(rel routing.Relation) (Dateline, bool) {
	var d routing.DOR
	switch r := rel.(type) {
	case routing.DOR:
		d = r
	case *routing.DOR:
		d = *r
	default:
		return DatelineAuto, false
	}
	if d.R.Dateline {
		return DatelineOn, true
	}
	return DatelineOff, true
}

// SpecOf rebuilds a spec from a topology and trace parameters.
func SpecOf(spec string, p Params) (Spec, error) {
	g, err := Spec{Topology: spec}.Grid()
	if err != nil {
		return Spec{Topology: spec}, err
	}
	return specOn(g, spec, p)
}

// specOn is SpecOf on the already parsed grid g of spec.
func specOn(g *topology.Network, spec string, p Params) (Spec, error) {
	sp := Spec{Topology: spec, Length: p.Length, Buffer: p.Buffers, VCs: p.VCs, Lengths: p.Lengths}
	var err error
	if sp.Pairs, err = ParsePairs(g, p.Msgs); err != nil {
		return sp, err
	}
	if sp.Dateline, err = ParseDateline(p.Dateline); err != nil {
		return sp, err
	}
	if sp.Ports, err = model.ParsePortModel(p.Ports); err != nil {
		return sp, err
	}
	if sp.Routing, err = routing.Decode(g, p.Routing, p.RoutingFile); err != nil {
		return sp, err
	}
	return sp, nil
}

// TraceFile returns the saved-trace form of a violation found on spec sp.
func TraceFile(sp Spec, r *Result) *tracefile.File {
	raw, _ := json.Marshal(ParamsOf(sp))
	var acts []uint64
	for _, a := range r.Actions() {
		acts = append(acts, uint64(a))
	}
	tf := &tracefile.File{
		Format: tracefile.Format, Algorithm: "unicast", Topology: sp.Topology,
		Property: r.Property, Semantics: "flit", Params: raw,
		Actions: acts, Labels: r.Labels(), Violation: r.Violation,
	}
	if r.Kind.IsLasso() {
		cs := r.CycleStart
		tf.CycleStart = &cs
	}
	return tf
}

// TraceJSON renders a trace file as indented JSON.
func TraceJSON(tf *tracefile.File) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	_ = enc.Encode(tf)
	return b.Bytes()
}

// ReplayTrace rebuilds the model of a saved unicast trace (its topology parsed once, its
// model built once), re-executes its actions once while checking their labels, and
// returns the spec and the replay: Model, Trace (with its states), Actions, Labels, and
// Violation, the violation the last state shows; Verdict is Violated, or Holds when the
// trace no longer reaches a deadlock or invariant violation.
func ReplayTrace(tf *tracefile.File) (Spec, *Result, error) {
	var p Params
	dec := json.NewDecoder(bytes.NewReader(tf.Params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Spec{}, nil, fmt.Errorf("trace file field \"parameters\": %v", err)
	}
	sp := Spec{Topology: tf.Topology}
	g, err := sp.Grid()
	if err != nil {
		return sp, nil, fmt.Errorf("trace file parameters: %v", err)
	}
	if sp, err = specOn(g, tf.Topology, p); err != nil {
		return sp, nil, fmt.Errorf("trace file parameters: %v", err)
	}
	m, err := BuildOn(g, sp)
	if err != nil {
		return sp, nil, fmt.Errorf("trace file parameters: %v", err)
	}
	acts := make([]checker.Action, len(tf.Actions))
	for i, a := range tf.Actions {
		acts[i] = checker.Action(a)
	}
	inits := m.Init()
	if tf.Init >= len(inits) {
		if len(inits) == 1 {
			return sp, nil, fmt.Errorf("trace file field \"init\" is %d, but the model this file names has one initial state, number 0", tf.Init)
		}
		return sp, nil, fmt.Errorf("trace file field \"init\" is %d, but the model this file names has initial states 0..%d", tf.Init, len(inits)-1)
	}
	tr, notEnabled, err := replayLabelled(m, inits[tf.Init], acts, tf.Labels)
	if err != nil {
		return sp, nil, err
	}
	if notEnabled != nil && tf.CycleStart == nil {
		return sp, nil, notEnabled
	}
	res := &Result{Property: tf.Property, Model: m, Trace: tr, Verdict: checker.Violated}
	s := tr.Steps[len(tr.Steps)-1].State
	switch {
	case tf.CycleStart != nil:
		// A lasso: the cycle must close, starve a message and be weakly fair.
		_, f, err := checker.ReplayLasso[flit.State](m, tf.Init, acts, *tf.CycleStart)
		if err != nil {
			return sp, nil, err
		}
		res.Violation, res.Kind, res.CycleStart = f.String(), f.Kind, *tf.CycleStart
	case m.CheckAll(s) != nil:
		res.Violation = m.CheckAll(s).Error()
	default:
		res.Violation = m.DeadlockText(s, tf.Property.LocalDeadlocks())
	}
	if res.Violation == "" {
		res.Verdict = checker.Holds
	}
	return sp, res, nil
}

// replayLabelled re-executes acts from initial state s in one pass and returns the
// trace with its states. A label that differs from labels (when given) is the error, at
// its step, whatever follows; an action that is not enabled is labelled "not possible
// here: ..." (so a file that labels it otherwise fails there), and without labels the
// first one is returned apart (notEnabled).
func replayLabelled(m *flit.Model, s flit.State, acts []checker.Action, labels []string) (tr checker.Trace[flit.State], notEnabled, err error) {
	tr = checker.Trace[flit.State]{Steps: []checker.Step[flit.State]{{Label: "init", State: s}}}
	var succ []checker.Transition[flit.State]
	for i, a := range acts {
		// Only an enabled action is described: Describe of an arbitrary action number (a
		// file edited by hand) may index past the network.
		succ = m.Successors(s, succ[:0])
		var next flit.State
		found := false
		for _, t := range succ {
			if t.Action == a {
				next, found = t.Next, true
				break
			}
		}
		l := "not possible here: " + NotEnabled(m, s, a, succ)
		if found && notEnabled == nil {
			l = m.Describe(s, a)
		}
		if len(labels) > 0 && !found && notEnabled == nil {
			return tr, nil, fmt.Errorf("trace step %d (%q in the file) is not possible in the model this file names: %s", i+1, labels[i], NotEnabled(m, s, a, succ))
		}
		if len(labels) > 0 && l != labels[i] {
			return tr, nil, fmt.Errorf("trace step %d is %q in the model but %q in the file", i+1, l, labels[i])
		}
		if found {
			s = next
		}
		if !found && notEnabled == nil {
			notEnabled = fmt.Errorf("trace step %d is not possible in the model: %s", i+1, NotEnabled(m, s, a, succ))
		}
		if notEnabled == nil {
			tr.Steps = append(tr.Steps, checker.Step[flit.State]{Action: a, Label: l, State: s})
		}
	}
	return tr, notEnabled, nil
}

// NotEnabled says, in the model's words, what action a of a trace asks for in state s
// and that s does not allow it: the message and router of its input, the output it
// names and who holds that output, then the moves s does allow (enabled, as
// m.Successors gives them). It never indexes past the network, whatever a is (a file
// edited by hand, or written for another model).
func NotEnabled(m *flit.Model, s flit.State, a checker.Action, enabled []checker.Transition[flit.State]) string {
	k, input, arg := flit.SplitAction(a)
	msgs, vcs := len(s.Msgs), len(s.VCs)
	var what string
	switch {
	case input >= 0 && input < msgs:
		what = fmt.Sprintf("m%d at its source %s", input, m.Config().Net.NodeName(m.Config().Messages[input].Source))
	case input >= msgs && input-msgs < vcs:
		o := flit.Out(input - msgs)
		what = "the flit at the head of " + m.VCName(o)
		if w := s.VCs[o].Owner; w >= 0 {
			what += fmt.Sprintf(" (m%d's)", w)
		} else {
			what += " (empty)"
		}
	default:
		what = fmt.Sprintf("input %d, which this network does not have", input)
	}
	switch {
	case k == flit.KindAlloc && arg-1 >= 0 && arg-1 < vcs:
		o := flit.Out(arg - 1)
		what += " taking " + m.VCName(o)
		if w := s.VCs[o].Owner; w >= 0 {
			what += fmt.Sprintf(", held by m%d", w)
		}
	case k == flit.KindAlloc:
		what += " taking an output this network does not have"
	case k < flit.KindMove || k > flit.KindPrune:
		what += ", a move of no kind the flit model has"
	default:
		what += " (" + k.String() + ")"
	}
	var can []string
	for _, t := range enabled {
		can = append(can, m.Describe(s, t.Action))
	}
	switch {
	case len(can) == 0:
		return what + "; no move is possible here"
	case len(can) > 4:
		can = append(can[:4], fmt.Sprintf("and %d more", len(can)-4))
	}
	return what + "; possible here: " + strings.Join(can, "; ")
}
