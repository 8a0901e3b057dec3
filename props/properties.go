package props

// The property names (--prop, Report.Property, trace files), every one in this one
// block, and the semantics a verdict is judged in. props/check's registry lists which
// algorithm supports which property under which semantics.
const (
	// PropDeadlock: no reachable state with a set of messages none of which can move
	// again (flit semantics: local deadlock, DESIGN.md "Semantics"); for a routing
	// relation, the static conditions (CDG, Duato).
	PropDeadlock = "deadlock"
	// PropGlobalDeadlock: no reachable state has undelivered flits and no enabled
	// transition (a global deadlock): a deadlock hidden among messages that can still
	// move is found only once they have all stopped.
	PropGlobalDeadlock = "global-deadlock"
	// PropLiveness: every worm is eventually delivered under weak fairness of
	// transitions, decided on the whole reachable graph (checker.CheckLiveness); violated
	// by a deadlock or by a fair lasso in which a worm is never delivered (a livelock).
	PropLiveness = "liveness"
	// PropExactlyOnce: every destination receives the message exactly once (a schedule
	// in the step semantics; a tree multicast in every reachable flit state).
	PropExactlyOnce = "exactly-once"
	// PropNonblocking: no two packets of a banyan pattern need one link (002 Property 1).
	PropNonblocking = "nonblocking"
	// PropValidity: 004 Definition 1, conditions 1-4.
	PropValidity = "validity"
	// PropSteps and PropStepsExact: the schedule's step count against the lower bound,
	// at most or exactly the claimed count.
	PropSteps      = "steps"
	PropStepsExact = "steps-exact"
	// PropStepwise: the unicasts of one step are pairwise arc-disjoint.
	PropStepwise = "stepwise"
	// PropDepth: no two unicasts overlap on a channel, for all ts, tr >= 0, tc > 0, L >= 1
	// (decided exactly).
	PropDepth = "depth"
	// PropAnyDelay: no two unicasts can hold a channel at once in any timing that
	// respects causality and each node's send order.
	PropAnyDelay = "any-delay"
	// PropNodeContention: no node sends or receives two unicasts at once (timed).
	PropNodeContention = "node-contention"
	// PropPortPairs: one-port multicasts at concrete timing points: no two unicasts hold
	// one node's port at overlapping times (001 §5.1).
	PropPortPairs = "port-pairs"
	// PropFormula: an algorithm's timed completion equals its contention-free formula
	// (dcf, edn).
	PropFormula = "formula"
	// PropChainBound: a U-torus multicast is depth contention-free per virtual-channel
	// class, takes ceil(log2(1+|D|)) steps and completes within the formula (001 §4.2).
	PropChainBound = "chain-bound"
	// PropFlitContention: a broadcast schedule run by the flit-level simulator at zero
	// load: no header ever waits (004 §6.2).
	PropFlitContention = "flit-contention"
	// PropDistributions: the hop and replication distributions of 003's analytical
	// model equal the broadcast tree's.
	PropDistributions = "distributions"
	// PropModelAgreement: an analytical model against the simulator (003, 002 §4).
	PropModelAgreement = "model-agreement"
	// PropLatency: a simulation's latencies, measured (wormcheck sim): holds unless its
	// flits stopped moving for good.
	PropLatency = "latency"
	// PropLatencyCompare: tree multicast against multiple unicasts under load (000 §5.3).
	PropLatencyCompare = "latency-compare"
	// PropRegions: region-encoded self-routing in the broadcast banyan reaches exactly
	// its region (002 §2.2).
	PropRegions = "regions"
	// PropLevels, PropP1P5 and PropConnected: 001's DDN partitions: Table 1's contention
	// levels, properties P1-P5, strong connectivity of every DDN.
	PropLevels    = "levels"
	PropP1P5      = "p1-p5"
	PropConnected = "connected"

	SemFlit     = "flit"
	SemStep     = "step"
	SemTimed    = "timed"
	SemAnyDelay = "any-delay"
	SemStatic   = "static"
	SemSim      = "sim"
	// SemVCT is InfiniBand's virtual cut-through with credit-based flow control (model/vct).
	SemVCT = "vct"
)
