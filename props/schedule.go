package props

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model"
)

// The evidence of a violated schedule property (package props/schedule judges them):
// the unicasts it names, the timing point and the holding intervals.

// UnicastRef names one unicast of a schedule in a witness: its index in
// Schedule.Unicasts, its ends (node names), step, send order and group.
type UnicastRef struct {
	Index int    `json:"index"`
	From  string `json:"from"`
	To    string `json:"to"`
	Step  int    `json:"step"`
	Order int    `json:"order"`
	Group int    `json:"group"`
}

// Params are concrete timing parameters of the timed semantics (004 §6.1): sending
// latency Ts, receiving latency Tr, per-flit channel time Tc and message length L flits.
// They are integers: rational ts, tr are written by scaling Tc (only ratios matter).
type Params struct {
	Ts int64 `json:"ts"`
	Tr int64 `json:"tr"`
	Tc int64 `json:"tc"`
	L  int64 `json:"L"`
}

// String renders the parameters as "ts=.. tr=.. tc=.. L=..".
func (p Params) String() string {
	return fmt.Sprintf("ts=%d tr=%d tc=%d L=%d", p.Ts, p.Tr, p.Tc, p.L)
}

// Interval is the half-open time interval [From, To).
type Interval struct {
	From int64 `json:"from"`
	To   int64 `json:"to"`
}

// ScheduleWitness is the evidence of a violated schedule property, JSON-able. Kind says which:
// "condition" (Definition 1 or exactly-once; Condition and Node say which rule and node),
// "channel" (two unicasts on one directed channel: Channel, and for the timed semantics
// Params, the holding intervals and Time; for any-delay the Interleaving), "send" or
// "receive" (node contention at Node), "steps" (too many steps).
type ScheduleWitness struct {
	Kind         string      `json:"kind"`
	Condition    string      `json:"condition,omitempty"`
	A            *UnicastRef `json:"a,omitempty"`
	B            *UnicastRef `json:"b,omitempty"`
	Channel      string      `json:"channel,omitempty"`
	ChannelID    int         `json:"channel_id"`
	Node         string      `json:"node,omitempty"`
	Params       *Params     `json:"parameters,omitempty"`
	HoldA        *Interval   `json:"hold_a,omitempty"`
	HoldB        *Interval   `json:"hold_b,omitempty"`
	Time         *int64      `json:"time,omitempty"`
	Interleaving []string    `json:"interleaving,omitempty"`
	// Actions are, for an any-delay witness, the AnyDelayModel actions of Interleaving
	// (one per line), so that ReplayAnyDelay re-executes it.
	Actions []uint64 `json:"actions,omitempty"`
	Note    string   `json:"note,omitempty"`
}

// String renders the witness in one or a few lines for people.
func (w *ScheduleWitness) String() string {
	if w == nil {
		return ""
	}
	ref := func(r *UnicastRef) string {
		return fmt.Sprintf("#%d %s->%s (step %d, order %d)", r.Index, r.From, r.To, r.Step, r.Order)
	}
	s := w.Kind
	if w.Condition != "" {
		s += " " + w.Condition
	}
	if w.A != nil {
		s += ": " + ref(w.A)
	}
	if w.B != nil {
		s += " and " + ref(w.B)
	}
	if w.Channel != "" {
		s += " on channel " + w.Channel
	}
	if w.Node != "" {
		s += " at node " + w.Node
	}
	if w.Params != nil {
		s += " with " + w.Params.String()
	}
	if w.HoldA != nil && w.HoldB != nil {
		s += fmt.Sprintf(": [%d,%d) and [%d,%d)", w.HoldA.From, w.HoldA.To, w.HoldB.From, w.HoldB.To)
	}
	if w.Note != "" {
		s += "; " + w.Note
	}
	for _, l := range w.Interleaving {
		s += "\n  " + l
	}
	return s
}

// Ref returns the UnicastRef of unicast i of s.
func Ref(s *model.Schedule, i int) *UnicastRef {
	u := s.Unicasts[i]
	return &UnicastRef{Index: i, From: s.Topology.NodeName(u.From), To: s.Topology.NodeName(u.To),
		Step: u.Step, Order: u.Order, Group: s.GroupOf(i)}
}
