package schedule

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// newReport starts the report of a schedule check.
func newReport(s *model.Schedule, prop props.Property, sem string) *props.Report {
	return &props.Report{
		Schema:    props.ReportSchema,
		Command:   "verify",
		Instance:  props.Instance{Topology: s.Topology.Spec(), Algorithm: "schedule"},
		Property:  prop,
		Semantics: sem,
		Verdict:   props.Holds,
		Stats:     props.Stats{Checked: int64(len(s.Unicasts)), Unit: "unicasts"},
	}
}

// finish fills the verdict, witness and text of r. Two unicasts that contend are a pair
// witness; a broken condition (Definition 1, exactly-once, the step count) is an
// instance witness.
func finish(r *props.Report, w *props.ScheduleWitness, reason string) *props.Report {
	if w != nil {
		r.Verdict = props.Violated
		kind := props.WitnessInstance
		if w.A != nil && w.B != nil {
			kind = props.WitnessPair
		}
		line, _, _ := strings.Cut(w.String(), "\n")
		r.Witness = &props.Witness{Kind: kind, Violation: line, Schedule: w}
	}
	r.Reason = reason
	r.Text = ""
	if w != nil {
		r.Text = w.String()
	}
	return r
}

// fail is the report of a schedule that cannot be judged (bad structure or a bound).
func fail(r *props.Report, err error) *props.Report {
	r.Verdict = props.Inconclusive
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
func causal(s *model.Schedule, rec map[[2]int]int, l *looker) *props.ScheduleWitness {
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
			return &props.ScheduleWitness{Kind: "condition", Condition: "Definition 1 (2)", A: props.Ref(s, i), ChannelID: -1,
				Node: s.Topology.NodeName(u.From),
				Note: fmt.Sprintf("the sender has not received the message before step %d", u.Step)}
		}
	}
	return nil
}
