package check

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/wormcheck/wormcheck/algos/plan"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// Schedules: a unicast schedule I(B), built by a collective of the registry, by the
// user's own code (algos/plan.Builder) or read from a schedule file, is judged here in
// the step, timed and any-delay semantics, by the judges of package props/schedule.

// scheduleSemantics are the semantics a schedule is verified in, in run order.
func scheduleSemantics() []string { return []string{props.SemStep, props.SemTimed, props.SemAnyDelay} }

// parseSemantics reads a comma list of schedule semantics; "" means all of them.
func parseSemantics(list string) ([]string, error) {
	if strings.TrimSpace(list) == "" {
		return scheduleSemantics(), nil
	}
	var out []string
	for _, p := range strings.Split(list, ",") {
		p = strings.TrimSpace(p)
		if !slices.Contains(scheduleSemantics(), p) {
			return nil, badf("--semantics: unknown semantics %q; use %s", p, strings.Join(scheduleSemantics(), ","))
		}
		out = append(out, p)
	}
	return out, nil
}

// BuildSchedule builds the unicast schedule of a schedule-building algorithm of the
// registry (the collectives and multinode) without judging it, for `wormcheck schedule`
// and for tests that want the schedule itself. Options.Seed seeds algorithms that draw
// at random. The collectives' builders look at ctx every plan.StopEvery unicasts: when
// it ends during a build, BuildSchedule returns the builder's *plan.Stopped error, which
// says how many of the schedule's unicasts were built (multinode does not look yet).
func BuildSchedule(ctx context.Context, in Instance, opt Options) (*model.Schedule, error) {
	a, ok := Lookup(in.Algorithm)
	if !ok || a.schedule == nil {
		var names []string
		for _, b := range Algorithms() {
			if b.schedule != nil {
				names = append(names, b.Name)
			}
		}
		return nil, badf("--algo %q builds no schedule; use one of %s", in.Algorithm, strings.Join(names, ", "))
	}
	if opt.Seed == 0 {
		opt.Seed = 1
	}
	r := &request{algo: a, topology: in.Topology, opt: opt, params: map[string]string{}, read: map[string]bool{}}
	for k, v := range in.Params {
		if !slices.ContainsFunc(a.Params, func(p Param) bool { return p.Name == k }) {
			return nil, badf("parameter %q is unknown to %s; it has %s", k, a.Name, strings.Join(paramNames(a), ", "))
		}
		r.params[k] = v
	}
	s, err := a.schedule(ctx, r)
	if err != nil {
		return nil, err
	}
	if err := r.unused(); err != nil {
		return nil, err
	}
	return s, nil
}

// ErrStopped marks a build or a write that a signal, the memory budget or the time
// limit stopped before it finished (ScheduleFile): errors.Is(err, ErrStopped) holds,
// and the message says how far it got. Nothing was written.
var ErrStopped = errors.New("stopped")

// stopError says how far a stopped build got; it matches ErrStopped.
type stopError struct{ msg string }

func (e *stopError) Error() string        { return e.msg }
func (e *stopError) Is(target error) bool { return target == ErrStopped }

// ScheduleFile builds the schedule of in (BuildSchedule) and encodes it as a schedule
// file (wormcheck-schedule/1, model.MarshalSchedule). When ctx ends during the build or
// the encoding the error matches ErrStopped and says how many unicasts were built.
func ScheduleFile(ctx context.Context, in Instance, opt Options) ([]byte, error) {
	if need, what := scheduleBytes(in); opt.MaxMemoryBytes > 0 && need > opt.MaxMemoryBytes {
		return nil, &stopError{fmt.Sprintf("memory budget: %s takes at least %d MiB (%s), more than the %d MiB allowed (--max-memory); nothing was built", in.Algorithm+"'s schedule on "+in.Topology, need>>20, what, opt.MaxMemoryBytes>>20)}
	}
	s, err := BuildSchedule(ctx, in, opt)
	if stopped := (*plan.Stopped)(nil); errors.As(err, &stopped) {
		return nil, &stopError{err.Error()}
	}
	if err != nil {
		return nil, err
	}
	if file := model.UnicastsFileBytes(s); opt.MaxMemoryBytes > 0 {
		// The file is made in memory beside the schedule: refused when the two cannot
		// fit, rather than stopped by the watcher after one allocation past the budget.
		held, _ := scheduleBytes(in)
		for _, u := range s.Unicasts {
			held += 80 + 4*int64(len(u.Path))
		}
		if held+file > opt.MaxMemoryBytes {
			return nil, &stopError{fmt.Sprintf("memory budget: the schedule file of %s's %d unicasts takes about %d MiB beside the schedule's %d MiB, more than the %d MiB allowed (--max-memory); nothing written", in.Algorithm, len(s.Unicasts), file>>20, held>>20, opt.MaxMemoryBytes>>20)}
		}
	}
	b, err := model.MarshalScheduleStop(s, func() bool { return ctx.Err() != nil })
	if errors.Is(err, model.ErrMarshalStopped) {
		return nil, &stopError{fmt.Sprintf("stopped after building the schedule (%d unicasts in %d steps), before writing it", len(s.Unicasts), s.Steps())}
	}
	if err != nil {
		return nil, badf("schedule: %v", err)
	}
	return b, nil
}

// unicastBytes is a lower bound on what one unicast of a schedule costs ScheduleFile: its
// model.Unicast (72 bytes), a path of one hop, and its entry in the file (at least 100
// bytes: from, to, step, order and the path, indented).
const unicastBytes = 72 + 4 + 100

// scheduleBytes returns a lower bound on the memory ScheduleFile takes for in, without
// building anything, and what it counts: the network (topology.GridBytes) and, for the
// broadcasts (one unicast to every other node), their unicasts; 0 where the topology is
// not a grid GridBytes counts.
func scheduleBytes(in Instance) (int64, string) {
	net, nodes, channels, ok := topology.GridBytes(in.Topology)
	if !ok {
		return 0, ""
	}
	what := fmt.Sprintf("the network %d MiB for %d channels", net>>20, channels)
	switch in.Algorithm {
	case "dcf", "zblock", "edn", "sbt":
		return net + (nodes-1)*unicastBytes, what + fmt.Sprintf(", and %d unicasts", nodes-1)
	}
	return net, what
}

// RunSchedule judges one property of a schedule — the entry for schedules that are not
// in the registry (a user's plan.Builder output, a schedule file). The report names the
// algorithm "schedule"; a violation's witness is the contending pair or the broken
// condition, and for any-delay on schedules of at most 12 unicasts also the explorer's
// shortest replayable trace (Report.Trace). checker.PropChainBound judges a one-multicast
// schedule at 001 §4.4's three timing points.
func RunSchedule(ctx context.Context, s *model.Schedule, property checker.Property, opt Options) (*props.Report, error) {
	if s == nil {
		return nil, badf("no schedule")
	}
	if err := s.Check(); err != nil {
		return nil, badf("schedule: %v", err)
	}
	var r *props.Report
	switch property {
	case checker.PropValidity:
		r = schedule.ValidityContext(ctx, s)
	case checker.PropExactlyOnce:
		r = schedule.ExactlyOnceContext(ctx, s)
	case checker.PropSteps:
		r = schedule.StepCount(s, opt.Steps)
	case checker.PropStepsExact:
		if opt.Steps <= 0 {
			return nil, badf("--steps is missing: steps-exact checks a claimed step count; give it, e.g. --steps 4")
		}
		r = schedule.StepCountExact(s, opt.Steps)
	case checker.PropStepwise:
		r = schedule.StepwiseContext(ctx, s)
	case checker.PropDepth:
		r = schedule.Depth(s, schedule.DepthOptions{Context: ctx})
	case checker.PropNodeContention:
		r = schedule.NodeContention(s)
	case checker.PropChainBound:
		var err error
		if r, err = chainBound(s, nil); err != nil {
			return nil, err
		}
	case checker.PropAnyDelay:
		r = schedule.AnyDelayContext(ctx, s)
		if r.Verdict == props.Violated && len(s.Unicasts) <= 12 {
			// Small schedules also get the explorer's shortest replayable trace.
			o := checker.Options[schedule.AnyDelayState]{MaxStates: 200000, Context: ctx}
			if b := schedule.AnyDelayBFS(s, o); b.Verdict == props.Violated {
				r.Trace = b.Trace
			}
		}
	default:
		return nil, badf("--prop: %q is not a schedule property; use validity, exactly-once, steps, steps-exact, stepwise, depth, node-contention, chain-bound (one multicast) or any-delay", property)
	}
	if opt.Semantics != "" && opt.Semantics != r.Semantics {
		return nil, badf("semantics %q is not supported for %s of a schedule; it is decided in %s", opt.Semantics, property, r.Semantics)
	}
	r.Command = "check"
	r.Schema = props.ReportSchema
	if w := r.ScheduleWitness(); w != nil {
		r.Evidence = &props.ScheduleEvidence{Schedule: s, Contention: w}
	}
	return r, nil
}

// verifySchedule runs every check of the given semantics on a schedule, one report per
// property: step runs validity (004 Definition 1), exactly-once, steps and stepwise;
// timed runs depth (exact over all parameters) and, on one-port schedules,
// node-contention; any-delay runs any-delay. When a schedule is depth contention-free
// but not any-delay contention-free, the any-delay report says so as a finding. When
// ctx ends, the check under way (validity, exactly-once, stepwise, depth and any-delay
// watch it) and every check after it are reported inconclusive with the cause.
func verifySchedule(ctx context.Context, s *model.Schedule, semantics []string) ([]*props.Report, error) {
	if err := s.Check(); err != nil {
		return nil, badf("schedule: %v", err)
	}
	type job struct {
		prop checker.Property
		sem  string
		run  func() *props.Report
	}
	var jobs []job
	for _, sem := range semantics {
		switch sem {
		case props.SemStep:
			jobs = append(jobs,
				job{checker.PropValidity, sem, func() *props.Report { return schedule.ValidityContext(ctx, s) }},
				job{checker.PropExactlyOnce, sem, func() *props.Report { return schedule.ExactlyOnceContext(ctx, s) }},
				job{checker.PropSteps, sem, func() *props.Report { return schedule.StepCount(s, 0) }},
				job{checker.PropStepwise, sem, func() *props.Report { return schedule.StepwiseContext(ctx, s) }})
		case props.SemTimed:
			jobs = append(jobs, job{checker.PropDepth, sem, func() *props.Report { return schedule.Depth(s, schedule.DepthOptions{Context: ctx}) }})
			if s.Ports == model.OnePort {
				jobs = append(jobs, job{checker.PropNodeContention, sem, func() *props.Report { return schedule.NodeContention(s) }})
			}
		case props.SemAnyDelay:
			jobs = append(jobs, job{checker.PropAnyDelay, sem, func() *props.Report { return schedule.AnyDelayContext(ctx, s) }})
		default:
			return nil, badf("--semantics: unknown semantics %q; use %s", sem, strings.Join(scheduleSemantics(), ","))
		}
	}
	var out []*props.Report
	for _, j := range jobs {
		if ctx.Err() != nil {
			out = append(out, &props.Report{Schema: props.ReportSchema, Instance: props.Instance{Topology: s.Topology.Spec(), Algorithm: "schedule"},
				Property: j.prop, Semantics: j.sem, Verdict: props.Inconclusive,
				Reason: "cancelled: " + context.Cause(ctx).Error() + " before this check ran"})
			continue
		}
		out = append(out, j.run())
	}
	markFinding(out)
	for _, r := range out {
		r.Command = "verify"
	}
	return out, nil
}

// markFinding notes on the any-delay report when the schedule is depth contention-free
// (timed) but not any-delay contention-free: DESIGN.md asks for that to be reported as a
// finding with its witness.
func markFinding(rs []*props.Report) {
	var depth, anyd *props.Report
	for _, r := range rs {
		switch r.Property {
		case checker.PropDepth:
			depth = r
		case checker.PropAnyDelay:
			anyd = r
		}
	}
	if depth != nil && anyd != nil && depth.Verdict == props.Holds && anyd.Verdict == props.Violated {
		const note = "finding: depth contention-free in the timed semantics but not under arbitrary delays"
		anyd.Reason += "; " + note
		anyd.Notes = append(anyd.Notes, note)
	}
}

// worstVerdict returns the worst verdict of a list of reports: violated over inconclusive over
// holds (holds for an empty list).
func worstVerdict(rs []*props.Report) props.Verdict {
	v := props.Holds
	for _, r := range rs {
		switch r.Verdict {
		case props.Violated:
			return props.Violated
		case props.Inconclusive:
			v = props.Inconclusive
		}
	}
	return v
}
