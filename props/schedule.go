package props

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// The properties of unicast-based collectives (model.Schedule; their names are in
// properties.go) and the semantics they are
// decided under (DESIGN.md "Semantics"). Every checker below takes a schedule that passed
// model.Schedule.Check and returns a *Report whose Witness, when violated, carries a *ScheduleWitness
// (Report.ScheduleWitness).
//
//	Validity        "validity"        step      004 Definition 1, conditions 1-4
//	ExactlyOnce     "exactly-once"    step      every destination receives exactly once
//	StepCount       "steps"           step      steps vs the lower bound
//	Stepwise        "stepwise"        step      unicasts of one step pairwise arc-disjoint
//	Depth           "depth"           timed     no two unicasts overlap on a channel, for
//	                                            all ts, tr >= 0, tc > 0, L >= 1 (exact)
//	AnyDelay        "any-delay"       any-delay no two unicasts can hold a channel at once
//	                                            in any timing respecting causality/order
//	NodeContention  "node-contention" timed     no node sends or receives two at once
//
// Beneath the reports: DecideDepth (exact decision with every channel-sharing pair and
// the Theorem 1 condition that clears it), Simulate / GridCheck / DefaultGrid (the timed
// semantics at concrete parameters, exact integer times), DecideAnyDelay (happens-before
// decision with an interleaving), AnyDelayModel / ExploreAnyDelay / AnyDelayBFS /
// ReplayAnyDelay (the same semantics as a checker.Model for the BFS explorer, with a
// replayable trace), LowerBound. Pictures: package props/render; generators: props/gen.

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

// newReport starts the report of a schedule check.
func newReport(s *model.Schedule, prop, sem string) *Report {
	return &Report{
		Schema:    ReportSchema,
		Command:   "verify",
		Instance:  Instance{Topology: s.Topology.Spec(), Algorithm: "schedule"},
		Property:  prop,
		Semantics: sem,
		Verdict:   Holds,
		Stats:     Stats{Checked: int64(len(s.Unicasts)), Unit: "unicasts"},
	}
}

// finish fills the verdict, witness and text of r. Two unicasts that contend are a pair
// witness; a broken condition (Definition 1, exactly-once, the step count) is an
// instance witness.
func finish(r *Report, w *ScheduleWitness, reason string) *Report {
	if w != nil {
		r.Verdict = Violated
		kind := WitnessInstance
		if w.A != nil && w.B != nil {
			kind = WitnessPair
		}
		line, _, _ := strings.Cut(w.String(), "\n")
		r.Witness = &Witness{Kind: kind, Violation: line, Schedule: w}
	}
	r.Reason = reason
	r.Text = ""
	if w != nil {
		r.Text = w.String()
	}
	return r
}

// fail is the report of a schedule that cannot be judged (bad structure or a bound).
func fail(r *Report, err error) *Report {
	r.Verdict = Inconclusive
	r.Reason = err.Error()
	r.Text = ""
	return r
}

// sendOrder returns, for every unicast, its 1-based rank j in its sender's send order
// within its group (ordered by Order, then Step, then index), which is the j of the
// timed semantics' R + j*ts, and the per-(node, group) lists in that order.
func sendOrder(s *model.Schedule) (rank []int, lists map[[2]int][]int) {
	idx := make([]int, len(s.Unicasts))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int {
		ua, ub := s.Unicasts[a], s.Unicasts[b]
		if c := int(ua.From) - int(ub.From); c != 0 {
			return c
		}
		if c := s.GroupOf(a) - s.GroupOf(b); c != 0 {
			return c
		}
		if c := ua.Order - ub.Order; c != 0 {
			return c
		}
		if c := ua.Step - ub.Step; c != 0 {
			return c
		}
		return a - b
	})
	rank = make([]int, len(s.Unicasts))
	lists = map[[2]int][]int{}
	for _, i := range idx {
		k := [2]int{int(s.Unicasts[i].From), s.GroupOf(i)}
		lists[k] = append(lists[k], i)
		rank[i] = len(lists[k])
	}
	return rank, lists
}

// receiver returns, per (node, group), the unicast that delivers the message to the node
// first in step order (smallest step, then index), or -1. With exactly-once delivery it
// is the only one; otherwise the earliest is the one that releases the node's sends.
func receivers(s *model.Schedule) map[[2]int]int {
	rec := map[[2]int]int{}
	for i, u := range s.Unicasts {
		k := [2]int{int(u.To), s.GroupOf(i)}
		if j, ok := rec[k]; !ok || s.Unicasts[j].Step > u.Step {
			rec[k] = i
		}
	}
	return rec
}

// isSource reports whether v holds group g's message at time 0.
func isSource(s *model.Schedule, v topology.NodeID, g int) bool {
	return slices.Contains(s.SourcesOf(g), v)
}

// causal checks Definition 1 condition 2 in the form the timed and any-delay semantics
// need: every sender that is not a source of its group received the message in a
// strictly earlier step. It returns a witness of the first unicast that breaks it, or
// nil when none does or l (which may be nil) stopped it.
func causal(s *model.Schedule, rec map[[2]int]int, l *looker) *ScheduleWitness {
	for i, u := range s.Unicasts {
		if l != nil && l.stop() {
			return nil
		}
		g := s.GroupOf(i)
		if isSource(s, u.From, g) {
			continue
		}
		j, ok := rec[[2]int{int(u.From), g}]
		if !ok || s.Unicasts[j].Step >= u.Step {
			return &ScheduleWitness{Kind: "condition", Condition: "Definition 1 (2)", A: Ref(s, i), ChannelID: -1,
				Node: s.Topology.NodeName(u.From),
				Note: fmt.Sprintf("the sender has not received the message before step %d", u.Step)}
		}
	}
	return nil
}
