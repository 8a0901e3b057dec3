package checker

// Property names what a check decides. The names are declared here, once: the --prop
// flag, Report.Property, trace files, the claims catalogue and the models that record
// or replay a trace all use these constants. It is a string type so that reports and
// trace files write the name as it is; props/check's registry lists which algorithm
// supports which property under which semantics.
type Property string

// The properties.
const (
	// PropDeadlock: no reachable state with a set of messages none of which can move
	// again (flit semantics: local deadlock, DESIGN.md "Semantics"); for a routing
	// relation, the static conditions (CDG, Duato).
	PropDeadlock Property = "deadlock"
	// PropGlobalDeadlock: no reachable state has undelivered flits and no enabled
	// transition (a global deadlock): a deadlock hidden among messages that can still
	// move is found only once they have all stopped.
	PropGlobalDeadlock Property = "global-deadlock"
	// PropLiveness: every worm is eventually delivered under weak fairness of
	// transitions, decided on the whole reachable graph (checker.CheckLiveness); violated
	// by a deadlock or by a fair lasso in which a worm is never delivered (a livelock).
	PropLiveness Property = "liveness"
	// PropExactlyOnce: every destination receives the message exactly once (a schedule
	// in the step semantics; a tree multicast in every reachable flit state).
	PropExactlyOnce Property = "exactly-once"
	// PropNonblocking: no two packets of a banyan pattern need one link (002 Property 1).
	PropNonblocking Property = "nonblocking"
	// PropValidity: 004 Definition 1, conditions 1-4.
	PropValidity Property = "validity"
	// PropSteps and PropStepsExact: the schedule's step count against the lower bound,
	// at most or exactly the claimed count.
	PropSteps      Property = "steps"
	PropStepsExact Property = "steps-exact"
	// PropStepwise: the unicasts of one step are pairwise arc-disjoint.
	PropStepwise Property = "stepwise"
	// PropDepth: no two unicasts overlap on a channel, for all ts, tr >= 0, tc > 0, L >= 1
	// (decided exactly).
	PropDepth Property = "depth"
	// PropAnyDelay: no two unicasts can hold a channel at once in any timing that
	// respects causality and each node's send order.
	PropAnyDelay Property = "any-delay"
	// PropNodeContention: no node sends or receives two unicasts at once (timed).
	PropNodeContention Property = "node-contention"
	// PropPortPairs: one-port multicasts at concrete timing points: no two unicasts hold
	// one node's port at overlapping times (001 §5.1).
	PropPortPairs Property = "port-pairs"
	// PropFormula: an algorithm's timed completion equals its contention-free formula
	// (dcf, edn).
	PropFormula Property = "formula"
	// PropChainBound: a U-torus multicast is depth contention-free per virtual-channel
	// class, takes ceil(log2(1+|D|)) steps and completes within the formula (001 §4.2).
	PropChainBound Property = "chain-bound"
	// PropFlitContention: a broadcast schedule run by the flit-level simulator at zero
	// load: no header ever waits (004 §6.2).
	PropFlitContention Property = "flit-contention"
	// PropDistributions: the hop and replication distributions of 003's analytical
	// model equal the broadcast tree's.
	PropDistributions Property = "distributions"
	// PropModelAgreement: an analytical model against the simulator (003, 002 §4).
	PropModelAgreement Property = "model-agreement"
	// PropLatency: a simulation's latencies, measured (wormcheck sim): holds unless its
	// flits stopped moving for good.
	PropLatency Property = "latency"
	// PropLatencyCompare: tree multicast against multiple unicasts under load (000 §5.3).
	PropLatencyCompare Property = "latency-compare"
	// PropRegions: region-encoded self-routing in the broadcast banyan reaches exactly
	// its region (002 §2.2).
	PropRegions Property = "regions"
	// PropLevels, PropP1P5 and PropConnected: 001's DDN partitions: Table 1's contention
	// levels, properties P1-P5, strong connectivity of every DDN.
	PropLevels    Property = "levels"
	PropP1P5      Property = "p1-p5"
	PropConnected Property = "connected"
	// PropInvariants and PropDeadlockInvariants: a user's own model (check.RunModel)
	// checked for its invariants, with or without deadlock freedom.
	PropInvariants         Property = "invariants"
	PropDeadlockInvariants Property = "deadlock+invariants"
)

// String returns the property's name.
func (p Property) String() string { return string(p) }

// LocalDeadlocks reports whether a flit-level check of p looks for local deadlocks
// (every deadlock property but PropGlobalDeadlock: a deadlocked state never delivers,
// so the other properties find local deadlocks too).
func (p Property) LocalDeadlocks() bool { return p != PropGlobalDeadlock }
