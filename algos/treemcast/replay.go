package treemcast

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// InstanceOf rebuilds the instance a trace file was recorded on.
func InstanceOf(tf *tracefile.File) (Instance, error) {
	if tf.Algorithm != "tree-mcast" {
		return Instance{}, fmt.Errorf("trace file is for algorithm %q, not tree-mcast", tf.Algorithm)
	}
	g, err := topology.Parse(tf.Topology)
	if err != nil {
		return Instance{}, fmt.Errorf("trace file field \"topology\": %v", err)
	}
	var p TraceParams
	dec := json.NewDecoder(bytes.NewReader(tf.Params))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&p); err != nil {
		return Instance{}, fmt.Errorf("trace file field \"parameters\": %v", err)
	}
	msgs, err := ParseMsgs(g, p.Msgs)
	if err != nil {
		return Instance{}, fmt.Errorf("trace file field \"parameters.msgs\": %v", err)
	}
	pr, err := flit.ParsePrune(p.Pruning)
	if err != nil {
		return Instance{}, fmt.Errorf("trace file field \"parameters.pruning\": %v", err)
	}
	ports, err := model.ParsePortModel(p.Ports)
	if err != nil {
		return Instance{}, fmt.Errorf("trace file field \"parameters.ports\": %v", err)
	}
	rel, err := routing.Decode(g, p.Routing, p.RoutingFile)
	if err != nil {
		return Instance{}, fmt.Errorf("trace file field \"parameters.routing\": %v", err)
	}
	return Instance{Grid: g, Msgs: msgs, Params: Params{Prune: pr, Length: p.Length, Buffer: p.Buffers, Ports: ports}, Routing: rel}, nil
}

// Replayed is a trace file re-executed against the model.
type Replayed struct {
	Instance Instance
	Model    *flit.Model
	Trace    checker.Trace[flit.State]
	// Violation says what the last state shows ("deadlock: ...", "invariant NAME: ...")
	// or is empty if it shows no violation.
	Violation string
}

// Replay re-executes a saved tree-mcast trace and judges its last state: a deadlock (no
// enabled transition, not terminal) or the first failing invariant of the property.
func Replay(tf *tracefile.File) (*Replayed, error) {
	in, err := InstanceOf(tf)
	if err != nil {
		return nil, err
	}
	m, err := in.Model()
	if err != nil {
		return nil, fmt.Errorf("trace file instance: %v", err)
	}
	return ReplayOn(in, m, tf)
}

// ReplayOn is Replay on the instance and model the trace was found on, which the caller
// already has: the actions are re-executed once, nothing is parsed or built again.
func ReplayOn(in Instance, m *flit.Model, tf *tracefile.File) (*Replayed, error) {
	as := make([]checker.Action, len(tf.Actions))
	for i, a := range tf.Actions {
		as[i] = checker.Action(a)
	}
	if tf.CycleStart != nil {
		// A lasso: the cycle must close, starve a message and be weakly fair.
		l, f, err := checker.ReplayLasso[flit.State](m, tf.Init, as, *tf.CycleStart)
		if err != nil {
			return nil, err
		}
		return &Replayed{Instance: in, Model: m, Trace: l.Trace, Violation: f.String()}, nil
	}
	tr, err := checker.Replay[flit.State](m, tf.Init, as)
	if err != nil {
		return nil, err
	}
	r := &Replayed{Instance: in, Model: m, Trace: tr}
	last := tr.Steps[len(tr.Steps)-1].State
	if tf.Property == checker.PropExactlyOnce {
		for _, inv := range append(m.Invariants(), Invariants(in, m)...) {
			if err := inv.Check(last); err != nil {
				r.Violation = "invariant " + inv.Name + ": " + err.Error()
				return r, nil
			}
		}
	}
	r.Violation = m.DeadlockText(last, tf.Property.LocalDeadlocks())
	return r, nil
}
