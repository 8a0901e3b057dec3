package multinode

import (
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
)

// PropsVerdicts is what the schedule verifier of package props says about a
// multi-multicast schedule: props.Validity (004 Definition 1 per group) and
// props.ExactlyOnce on the whole schedule, and props.Stepwise on each multicast's own
// unicasts (StepwiseGroups counts the multicasts it finds contended). Refused is set when
// props' structural check (model.Schedule.Check) refuses the schedule; the verdicts are
// then Inconclusive. Build marks the schedules of directed DDNs (Types III and IV)
// Explicit, so their paths, which go the DDN's way round and are not always shortest, are
// accepted as walks and judged like any other.
type PropsVerdicts struct {
	Validity       checker.Verdict `json:"validity"`
	ExactlyOnce    checker.Verdict `json:"exactly_once"`
	StepwiseGroups int             `json:"stepwise_violated_groups"`
	Reason         string          `json:"reason,omitempty"`
	Refused        string          `json:"refused,omitempty"`
}

// VerifyWithProps runs package props' verifier on s, as an independent second opinion
// beside Check. Note that props.ExactlyOnce also forbids a node that is not a destination
// from receiving, so the three-phase scheme's relays (representatives that are not
// destinations) make it Violated by construction.
func VerifyWithProps(s model.Schedule) PropsVerdicts {
	var out PropsVerdicts
	if err := s.Check(); err != nil {
		out.Validity, out.ExactlyOnce = checker.Inconclusive, checker.Inconclusive
		out.Refused = err.Error()
		return out
	}
	v := props.Validity(&s)
	e := props.ExactlyOnce(&s)
	out.Validity, out.ExactlyOnce = v.Verdict, e.Verdict
	switch {
	case v.Verdict != checker.Holds:
		out.Reason = fmt.Sprintf("validity: %s %s", v.Reason, v.Text)
	case e.Verdict != checker.Holds:
		out.Reason = fmt.Sprintf("exactly-once: %s %s", e.Reason, e.Text)
	}
	groups := len(s.Sources)
	if s.Group == nil {
		groups = 1
	}
	for gi := 0; gi < groups; gi++ {
		sub := model.Schedule{Topology: s.Topology, Sources: s.Sources[gi : gi+1], Ports: s.Ports, Routing: s.Routing, Ties: s.Ties, Explicit: s.Explicit}
		if s.Group == nil {
			sub.Sources = s.Sources
		}
		sub.Destinations = s.DestinationsOf(gi)
		for k, u := range s.Unicasts {
			if s.GroupOf(k) == gi {
				sub.Unicasts = append(sub.Unicasts, u)
			}
		}
		if props.Stepwise(&sub).Verdict != checker.Holds {
			out.StepwiseGroups++
		}
	}
	return out
}
