package schedule

import (
	"context"
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// Validity checks the four conditions of 004 Definition 1 on every group of s (step
// semantics). Reference: 004 Definition 1. Read for several sources: s_0 is any source of
// the unicast's group, and "every node d_i" is every destination of the group.
//
//  1. U_1 holds only unicasts sent by a source (the text writes U_1 = {(s_0, u, ...)} and
//     explains "only the source node is sending messages in the first step"; DCF sends
//     four unicasts from S in step 1, so U_1 is read as a set of source sends, not a
//     singleton). U_1 must be non-empty when there are unicasts at all.
//  2. A unicast (u, v, p, t) with u != s_0 and t > 1 needs some (w, u, p, j) with j < t.
//  3. Two unicasts of one step from the same node leave by different first channels.
//  4. Every destination d_i != s_0 is the target of exactly one unicast.
func Validity(s *model.Schedule) *props.Report { return ValidityContext(context.Background(), s) }

// ValidityContext is Validity that looks at ctx every unicastEvery unicasts of each
// condition's pass; when ctx has ended the report is inconclusive and says which
// conditions held before it.
func ValidityContext(ctx context.Context, s *model.Schedule) *props.Report {
	r := newReport(s, checker.PropValidity, props.SemStep)
	if err := s.Check(); err != nil {
		return fail(r, err)
	}
	l := &looker{ctx: ctx}
	w, cond := validity(s, l)
	if l.err != nil {
		r.Stats.Checked = 0
		held := "none had been checked"
		switch {
		case cond == 2:
			held = "condition (1) held"
		case cond > 2:
			held = fmt.Sprintf("conditions (1) to (%d) held", cond-1)
		}
		return fail(r, fmt.Errorf("%v while checking Definition 1 (%d) (%s); nothing was decided", l.err, cond, held))
	}
	return finish(r, w, fmt.Sprintf("%d unicasts in %d steps", len(s.Unicasts), s.Steps()))
}

// unicastEvery is how many unicasts a step-semantics check handles between two looks at
// its context: about a millisecond of work on a 512x512 broadcast.
const unicastEvery = 4096

// looker counts the unicasts a check has handled and looks at ctx (which may be nil)
// every unicastEvery of them; err is the errStopped of the look that found ctx ended.
type looker struct {
	ctx context.Context
	n   int
	err error
}

// stop counts one unicast and says whether the check must end.
func (l *looker) stop() bool {
	if l.n++; l.err == nil && l.n%unicastEvery == 0 {
		l.err = stopped(l.ctx)
	}
	return l.err != nil
}

// validity returns the first broken condition's witness, or nil; cond is the condition
// under way when l stopped it (5 when all four were checked).
func validity(s *model.Schedule, l *looker) (w *props.ScheduleWitness, cond int) {
	name := s.Topology.NodeName
	// Condition 1.
	first := false
	for i, u := range s.Unicasts {
		if l.stop() {
			return nil, 1
		}
		if u.Step != 1 {
			continue
		}
		first = true
		if !isSource(s, u.From, s.GroupOf(i)) {
			return &props.ScheduleWitness{Kind: "condition", Condition: "Definition 1 (1)", A: props.Ref(s, i), ChannelID: -1,
				Node: name(u.From), Note: "a node other than the source sends in step 1"}, 1
		}
	}
	if !first && len(s.Unicasts) > 0 {
		return &props.ScheduleWitness{Kind: "condition", Condition: "Definition 1 (1)", ChannelID: -1, Note: "U_1 is empty"}, 1
	}
	// Condition 2.
	if w := causal(s, receivers(s), l); w != nil || l.err != nil {
		return w, 2
	}
	// Condition 3.
	type key struct {
		from  topology.NodeID
		group int
		step  int
		ch    topology.ChannelID
	}
	seen := map[key]int{}
	for i, u := range s.Unicasts {
		if l.stop() {
			return nil, 3
		}
		k := key{u.From, s.GroupOf(i), u.Step, u.Path[0]}
		if j, ok := seen[k]; ok {
			return &props.ScheduleWitness{Kind: "condition", Condition: "Definition 1 (3)", A: props.Ref(s, j), B: props.Ref(s, i),
				Channel: s.Topology.ChannelName(u.Path[0]), ChannelID: int(u.Path[0]), Node: name(u.From),
				Note: "one node sends twice in one step through the same first channel"}, 3
		}
		seen[k] = i
	}
	// Condition 4. The unicasts each node receives, per group, in schedule order, from
	// one pass over the unicasts: O(unicasts), not O(destinations x unicasts).
	type receipt struct {
		group int
		to    topology.NodeID
	}
	received := map[receipt][]int{}
	for i, u := range s.Unicasts {
		if l.stop() {
			return nil, 4
		}
		k := receipt{s.GroupOf(i), u.To}
		received[k] = append(received[k], i)
	}
	for g := 0; g < s.Groups(); g++ {
		for _, d := range sortedNodes(s.DestinationsOf(g)) {
			if isSource(s, d, g) {
				continue
			}
			got := received[receipt{g, d}]
			if len(got) != 1 {
				w := &props.ScheduleWitness{Kind: "condition", Condition: "Definition 1 (4)", ChannelID: -1, Node: name(d),
					Note: fmt.Sprintf("destination receives %d times", len(got))}
				if len(got) > 1 {
					w.A, w.B = props.Ref(s, got[0]), props.Ref(s, got[1])
				}
				return w, 4
			}
		}
	}
	return nil, 5
}

// ExactlyOnce checks exactly-once delivery (step semantics): in every group, every
// destination that is not a source receives the message exactly once, and no source or
// non-destination receives it. Broadcast is the destination set of every node but the
// source (model.Broadcast).
func ExactlyOnce(s *model.Schedule) *props.Report { return ExactlyOnceContext(context.Background(), s) }

// ExactlyOnceContext is ExactlyOnce that looks at ctx every unicastEvery unicasts (each
// group's pass reads them all); when ctx has ended the report is inconclusive and says
// how many groups were served exactly once before it.
func ExactlyOnceContext(ctx context.Context, s *model.Schedule) *props.Report {
	r := newReport(s, checker.PropExactlyOnce, props.SemStep)
	if err := s.Check(); err != nil {
		return fail(r, err)
	}
	l := &looker{ctx: ctx}
	n := s.Topology.Nodes()
	for g := 0; g < s.Groups(); g++ {
		want := make([]bool, n)
		for _, d := range s.DestinationsOf(g) {
			want[d] = true
		}
		for _, v := range s.SourcesOf(g) {
			want[v] = false
		}
		got := make([][]int, n)
		for i, u := range s.Unicasts {
			if l.stop() {
				r.Stats.Checked = 0
				return fail(r, fmt.Errorf("%v in group %d of %d (groups before it served exactly once); nothing was decided", l.err, g, s.Groups()))
			}
			if s.GroupOf(i) == g {
				got[u.To] = append(got[u.To], i)
			}
		}
		for v := range n {
			var note string
			switch {
			case want[v] && len(got[v]) == 0:
				note = "destination never receives the message"
			case want[v] && len(got[v]) > 1:
				note = fmt.Sprintf("destination receives the message %d times", len(got[v]))
			case !want[v] && len(got[v]) > 0 && isSource(s, topology.NodeID(v), g):
				note = "a source receives its own message"
			case !want[v] && len(got[v]) > 0:
				note = "a node that is not a destination receives the message"
			default:
				continue
			}
			w := &props.ScheduleWitness{Kind: "condition", Condition: "exactly-once", ChannelID: -1,
				Node: s.Topology.NodeName(topology.NodeID(v)), Note: fmt.Sprintf("group %d: %s", g, note)}
			if len(got[v]) > 0 {
				w.A = props.Ref(s, got[v][0])
			}
			if len(got[v]) > 1 {
				w.B = props.Ref(s, got[v][1])
			}
			return finish(r, w, "")
		}
	}
	return finish(r, nil, fmt.Sprintf("%d group(s), every destination served once", s.Groups()))
}

// LowerBound returns the step lower bound for informing m nodes (sources included) from
// one source: ceil(log_{deg+1} m) all-port, where deg is the grid's largest node degree
// (2n on an n-D torus with every size > 2: 004's ceil(log_{2n+1} N)), and ceil(log2 m)
// one-port. Reference: 004 §5 (all-port bound), 001 §2 (one-port doubling).
func LowerBound(g *topology.Network, ports model.PortModel, m int) int {
	base := 2
	if ports == model.AllPort {
		base = 1
		for d := 0; d < g.Dims(); d++ {
			if g.Kind() != topology.Hypercube && g.Size(d) > 2 {
				base += 2
			} else if g.Size(d) > 1 {
				base++
			}
		}
	}
	k, reach := 0, 1
	for reach < m {
		reach *= base
		k++
	}
	return k
}

// StepCount reports the number of steps of s and its distance from the lower bound
// (LowerBound over the largest group). It is violated when want > 0 and s takes more than
// want steps, or when s takes fewer steps than the lower bound (then some destination
// cannot have been served).
func StepCount(s *model.Schedule, want int) *props.Report {
	r := newReport(s, checker.PropSteps, props.SemStep)
	if err := s.Check(); err != nil {
		return fail(r, err)
	}
	g, _ := s.Grid()
	bound := 0
	for gi := 0; gi < s.Groups(); gi++ {
		set := slices.Clone(s.DestinationsOf(gi))
		set = append(set, s.SourcesOf(gi)...)
		bound = max(bound, LowerBound(g, s.Ports, len(sortedNodes(set))))
	}
	k := s.Steps()
	r.Stats.Depth = k
	reason := fmt.Sprintf("%d steps; %s lower bound %d; distance %d", k, s.Ports, bound, k-bound)
	var w *props.ScheduleWitness
	switch {
	case want > 0 && k > want:
		w = &props.ScheduleWitness{Kind: "steps", ChannelID: -1, Note: fmt.Sprintf("%d steps exceed the claimed %d", k, want)}
	case k < bound:
		w = &props.ScheduleWitness{Kind: "steps", ChannelID: -1, Note: fmt.Sprintf("%d steps are below the lower bound %d: some destination is not served", k, bound)}
	}
	return finish(r, w, reason)
}

// StepCountExact checks a claim of the form "in exactly want steps" (step semantics):
// the schedule's step count must equal want. StepCount checks a bound (at most want), so
// a schedule that finishes early passes it; this check fails both a schedule that takes
// more steps and one that takes fewer (e.g. 004 Corollary 1: DCF takes d steps on a 2^d
// x 2^d torus, no more and no fewer). The witness is an instance witness of kind
// "steps". want must be positive; otherwise the report is inconclusive.
func StepCountExact(s *model.Schedule, want int) *props.Report {
	r := newReport(s, checker.PropStepsExact, props.SemStep)
	if err := s.Check(); err != nil {
		return fail(r, err)
	}
	if want <= 0 {
		return fail(r, fmt.Errorf("steps-exact needs the claimed step count (a positive number), got %d", want))
	}
	k := s.Steps()
	r.Stats.Depth = k
	var w *props.ScheduleWitness
	switch {
	case k > want:
		w = &props.ScheduleWitness{Kind: "steps", ChannelID: -1, Note: fmt.Sprintf("%d steps exceed the claimed exactly %d", k, want)}
	case k < want:
		w = &props.ScheduleWitness{Kind: "steps", ChannelID: -1, Note: fmt.Sprintf("%d steps fall short of the claimed exactly %d", k, want)}
	}
	return finish(r, w, fmt.Sprintf("%d steps; claimed exactly %d", k, want))
}

// sortedNodes returns the distinct nodes of vs, ascending.
func sortedNodes(vs []topology.NodeID) []topology.NodeID {
	out := slices.Clone(vs)
	slices.Sort(out)
	return slices.Compact(out)
}

// Stepwise checks stepwise contention freedom (step semantics): the unicasts of each step
// are pairwise arc-disjoint, i.e. share no directed physical channel. Reference: 004 §3
// (stepwise contention-free). The witness is the first pair (by index) and the channel.
func Stepwise(s *model.Schedule) *props.Report { return StepwiseContext(context.Background(), s) }

// StepwiseContext is Stepwise that looks at ctx every unicastEvery unicasts; when ctx
// has ended the report is inconclusive and counts the unicasts found arc-disjoint from
// the earlier ones of their step.
func StepwiseContext(ctx context.Context, s *model.Schedule) *props.Report {
	r := newReport(s, checker.PropStepwise, props.SemStep)
	if err := s.Check(); err != nil {
		return fail(r, err)
	}
	type key struct {
		step int
		ch   topology.ChannelID
	}
	owner := map[key]int{}
	l := &looker{ctx: ctx}
	for i, u := range s.Unicasts {
		if l.stop() {
			r.Stats.Checked = int64(i)
			return fail(r, fmt.Errorf("%v after %d of %d unicasts, each arc-disjoint from the earlier ones of its step; nothing was decided", l.err, i, len(s.Unicasts)))
		}
		for _, c := range u.Path {
			k := key{u.Step, c}
			if j, ok := owner[k]; ok && j != i {
				return finish(r, &props.ScheduleWitness{Kind: "channel", A: props.Ref(s, j), B: props.Ref(s, i),
					Channel: s.Topology.ChannelName(c), ChannelID: int(c),
					Note: fmt.Sprintf("both in step %d", u.Step)}, "")
			}
			owner[k] = i
		}
	}
	return finish(r, nil, fmt.Sprintf("%d steps, unicasts of each step arc-disjoint", s.Steps()))
}
