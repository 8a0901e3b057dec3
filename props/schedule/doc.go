// Package schedule judges unicast-based collectives (model.Schedule): the properties
// of a schedule (their names are in package props) and the semantics they are decided
// under (DESIGN.md "Semantics"). Every judge below takes a schedule that passed
// model.Schedule.Check and returns a *props.Report whose Witness, when violated,
// carries a *props.ScheduleWitness (props.Report.ScheduleWitness).
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
package schedule
