// Package props holds what every check shares: the property and semantics names, the
// verdict, the report every check produces (the --json object), which carries the saved
// trace (checker/tracefile) that `replay` re-executes, and the witnesses it may carry.
// The judges live in packages of their own: props/schedule (unicast schedules),
// props/cdg and props/decide (routing relations), and props/check is the one entry that
// runs an algorithm instance and returns a Report.
//
// # The report schema, version wormcheck-report/1
//
// `wormcheck check --json` (and every Report marshalled with encoding/json) is one
// object; docs/report.md documents it with examples. Fields:
//
//	schema     "wormcheck-report/1" (ReportSchema); a reader that sees another value
//	           must not guess
//	version    the tool version that wrote it
//	command    check, replay, verify
//	instance   {topology, algorithm, parameters{...}}: what was checked
//	property   deadlock, exactly-once, stepwise, depth, any-delay, nonblocking, ...
//	semantics  flit, timed, step, any-delay, static: what the verdict was judged in
//	verdict    holds, violated or inconclusive (a bound was reached)
//	reason     one line: the violation, or the bound that was reached
//	stats      {states, transitions, depth, seconds, states_per_sec} of a search;
//	           a static check instead fills {checked, unit} with what it counted
//	           (patterns, pairs, instances, unicasts); a search also names its
//	           store (exact, fingerprint) and, for fingerprint, the collision bound
//	           fingerprint_collision_bound
//	certificate {kind: progress|liveness|none, transitions, note}: how a deadlock
//	           verdict knows every message is delivered (omitted elsewhere)
//	witness    null, or the evidence (Witness): {kind, violation, init, steps[],
//	           cycle_start, cycle[], schedule{}, figures{}, detail}; kind is trace,
//	           lasso, pair, cycle, measurement or instance and says which fields are set
//	notes      lines worth saying beside the verdict (certificates, findings)
//	figures    measured values by name
//
// Fields may be added within a version; a field's meaning never changes without a new
// schema tag.
package props

import (
	"fmt"
	"io"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/checker/tracefile"
)

// Verdict is the one three-valued verdict type of wormcheck (checker.Verdict): holds,
// violated or inconclusive. Inconclusive means a bound was reached before the property
// was decided; it is never reported as Holds.
type Verdict = checker.Verdict

// The verdicts.
const (
	Holds        = checker.Holds
	Violated     = checker.Violated
	Inconclusive = checker.Inconclusive
)

// Instance names what was checked.
type Instance struct {
	Topology  string         `json:"topology"`
	Algorithm string         `json:"algorithm"`
	Params    map[string]any `json:"parameters,omitempty"`
}

// Stats are the figures of a check. Seconds is wall-clock time. A search fills States,
// Transitions and Depth; a static check (no state space) fills Checked with how many
// objects it examined and Unit with what they were ("patterns", "pairs", "instances",
// "unicasts"), so that no verdict comes with all-zero figures.
type Stats struct {
	States       int64   `json:"states"`
	Transitions  int64   `json:"transitions"`
	Depth        int     `json:"depth"`
	Seconds      float64 `json:"seconds"`
	StatesPerSec float64 `json:"states_per_sec"`
	Checked      int64   `json:"checked,omitempty"`
	Unit         string  `json:"unit,omitempty"`
	// Store names the visited store of a search ("exact" or "fingerprint"); in
	// fingerprint mode CollisionBound bounds the probability that two states shared a
	// fingerprint, so that a Holds may have missed states (checker.Stats).
	Store          string  `json:"store,omitempty"`
	CollisionBound float64 `json:"fingerprint_collision_bound,omitempty"`
	// Search names how the states were visited when it is not the exhaustive BFS:
	// "swarm" (randomised walks, checker.Swarm: States and Transitions then count the
	// walks' transitions, Depth the deepest walk, and a verdict is never holds).
	Search string `json:"search,omitempty"`
	// Reduction names the partial-order reduction that produced States ("stubborn":
	// stubborn sets, which keep every deadlock), ReductionNone for a check that always
	// runs unreduced (liveness: a stubborn set without a proviso can drop the weakly fair
	// cycles it looks for), "" for none.
	Reduction string `json:"reduction,omitempty"`
	// Model names the model States counts when it is not the flit model itself: "lean"
	// (flit.Model.Lean: compacted worms and a header's lowest free virtual channel of a
	// class, which keep every deadlock and every fair lasso; docs/semantics.md), "" for
	// the model itself. A witness is always a trace of the model itself.
	Model string `json:"model,omitempty"`
}

const (
	// ReductionNone is Stats.Reduction for a check that runs unreduced whatever
	// reduction was asked for (liveness).
	ReductionNone = "none"
	// CertStatic is the Certificate kind of a deadlock verdict the static decision gave
	// (Report.Static) for an instance whose every route is minimal: no deadlock, and
	// every run ends, so every message is delivered.
	CertStatic = "static"
)

// Static is the static decision a flit verdict of a unicast instance asks first (check
// --search auto): the instance's routing relation decided on its whole topology under
// the instance's virtual channels (props/cdg; docs/semantics.md, "Static verdicts and
// flit verdicts"). Holds decides the instance for every message set, packet length,
// buffer depth and port model; violated (some placement of worms deadlocks, not
// necessarily these) decides it only when every deadlock needs more worms than the
// instance has (FewestWorms), and otherwise, like inconclusive, leaves it to the flit
// search. Covers says which, in one line.
type Static struct {
	Routing  string  `json:"routing"`
	Topology string  `json:"topology"`
	VCs      int     `json:"vcs"`
	Verdict  Verdict `json:"verdict"`
	// By names the argument of a decision: "cdg" (an acyclic channel dependency graph,
	// Dally & Seitz), "duato" (Duato's condition) or "search" (the exact search of
	// deadlock configurations, Verbeek & Schmaltz).
	By string `json:"by,omitempty"`
	// Reason is the decision's own line: the configuration found, or the bound reached.
	Reason string `json:"reason,omitempty"`
	// FewestWorms, for a violated relation, is the proved fewest worms of its deadlock
	// configurations when that decides the instance (it has fewer worms); 0 otherwise.
	FewestWorms  int     `json:"fewest_worms,omitempty"`
	Covers       string  `json:"covers"`
	HeaderStates int64   `json:"header_states"`
	Seconds      float64 `json:"seconds"`
}

// Strategy is what one strategy of a portfolio check did (Report.Strategies): Name is
// "static" (Report.Static), "bfs" (the exhaustive search) or "swarm" (randomised walks);
// Verdict is its own answer (the static decision's is about the relation on every
// placement, not about these worms); Decided marks the one whose verdict is the
// report's. States, Transitions and Depth are
// its own figures (a swarm's count the transitions walked); StartedAfter and Seconds say
// when it started after the check began and how long it ran.
type Strategy struct {
	Name         string  `json:"name"`
	Verdict      Verdict `json:"verdict"`
	Decided      bool    `json:"decided"`
	States       int64   `json:"states"`
	Transitions  int64   `json:"transitions"`
	Depth        int     `json:"depth"`
	StartedAfter float64 `json:"started_after"`
	Seconds      float64 `json:"seconds"`
	Reason       string  `json:"reason,omitempty"`
}

// Certificate says how a verdict knows that every message is delivered: by a progress
// measure checked on every transition, by the liveness check, or not at all
// (checker.Certificate; the "certificate" object of a report).
type Certificate = checker.Certificate

// SearchStats returns the report figures of a search: counts, time, the store and, in
// fingerprint mode, the collision bound.
func SearchStats(st checker.Stats, store checker.StoreMode) Stats {
	return Stats{States: st.States, Transitions: st.Transitions, Depth: st.Depth, Seconds: st.Duration.Seconds(),
		StatesPerSec: st.StatesPerSec, Store: store.String(), CollisionBound: st.FingerprintCollisionBound}
}

// Report is the result of one check as `wormcheck check --json` prints it: one object
// of schema ReportSchema (documented in the package comment and docs/report.md).
type Report struct {
	Schema    string   `json:"schema"`
	Version   string   `json:"version"`
	Command   string   `json:"command"`
	Instance  Instance `json:"instance"`
	Property  Property `json:"property"`
	Semantics string   `json:"semantics"`
	Verdict   Verdict  `json:"verdict"`
	Reason    string   `json:"reason,omitempty"`
	Stats     Stats    `json:"stats"`
	// Witness is the evidence of the verdict (nil when there is none): every violated
	// verdict carries one, with its Kind.
	Witness *Witness `json:"witness"`
	// Certificate is, for a deadlock verdict of a transition system, how delivery of
	// every message is established (nil where the property is not about delivery).
	Certificate *Certificate `json:"certificate,omitempty"`
	// Notes are lines worth saying beside the verdict: a certificate, a finding, how a
	// family was reduced.
	Notes []string `json:"notes,omitempty"`
	// Figures are measured values by name (a latency, a completion time).
	Figures map[string]float64 `json:"figures,omitempty"`
	// Text is the evidence for people, printed without --json under the headline (which
	// the command line builds from Instance, Property, Semantics, Verdict and Reason):
	// the witness rendered in a few lines, or "" when there is nothing more to say.
	Text string `json:"-"`
	// Trace is the replayable trace of a violation (nil if none); written by --trace.
	Trace *tracefile.File `json:"-"`
	// Evidence is what the verdict rests on, as values (the flit model and trace, the
	// schedule and its contention, ...): props/render draws it when --svg, --pcap or
	// --explore ask; nil when there is nothing to draw.
	Evidence Evidence `json:"-"`
	// Result is the mergeable result of a family run (JSON, the algorithm's family
	// format), written by --result and joined by `wormcheck merge`; nil for one instance.
	Result []byte `json:"-"`
	// Static is the static decision of the instance's routing relation, where the check
	// asked it first (unicast deadlock checks on the command line's default search).
	Static *Static `json:"static,omitempty"`
	// Strategies are the strategies a portfolio check ran, in the order they started,
	// the deciding one marked; nil for a check that ran one.
	Strategies []Strategy `json:"strategies,omitempty"`
	// Family sums a family run's members (nil for one instance): its figures, witness
	// and every member's verdict, as the kept result (Result) holds them.
	Family *family.Summary `json:"-"`
	// Body is the whole output of a command whose output is its own (routing's
	// analysis, partition's subnetworks): printed, as text and as JSON, in place of the
	// report, whose fields still say the verdict for callers; nil for a check.
	Body Body `json:"-"`
}

// Body is the output of a command that prints more than a report, or in a schema of its
// own: WriteText writes it for people, and its JSON encoding is the --json object, in
// which SetVersion sets the tool version.
type Body interface {
	WriteText(w io.Writer)
	SetVersion(version string)
}

// ScheduleWitness returns the schedule evidence of r (the contending pair or the broken
// condition), or nil.
func (r *Report) ScheduleWitness() *ScheduleWitness {
	if r == nil || r.Witness == nil {
		return nil
	}
	return r.Witness.Schedule
}

// Headline is the report's first line for people: "ALGO on TOPO: PROPERTY (SEMANTICS
// semantics): VERDICT" ("ALGO: ..." for a model with no topology).
func (r *Report) Headline() string {
	what := r.Instance.Algorithm
	if r.Instance.Topology != "" {
		what += " on " + r.Instance.Topology
	}
	return fmt.Sprintf("%s: %s (%s semantics): %s", what, r.Property, r.Semantics, strings.ToUpper(r.Verdict.String()))
}

// String renders the report for people: the headline, the reason, the figures, the notes
// and the evidence (Text), indented under the headline. It is what `wormcheck check`
// prints without --json and what a failing test shows.
func (r *Report) String() string {
	var b strings.Builder
	b.WriteString(r.Headline())
	b.WriteByte('\n')
	if r.Reason != "" {
		fmt.Fprintf(&b, "  %s\n", r.Reason)
	}
	if r.Stats.Search == "swarm" {
		fmt.Fprintf(&b, "  swarm: %d transitions walked, deepest walk %d, %.2fs (%.0f transitions/s)\n", r.Stats.Transitions, r.Stats.Depth, r.Stats.Seconds, r.Stats.StatesPerSec)
	} else if r.Stats.Transitions > 0 {
		fmt.Fprintf(&b, "  %d states, %d transitions, depth %d, %.2fs (%.0f states/s)\n", r.Stats.States, r.Stats.Transitions, r.Stats.Depth, r.Stats.Seconds, r.Stats.StatesPerSec)
		if r.Stats.Model == "lean" {
			b.WriteString("  model: lean (worms compacted, lowest free VC of a class; every deadlock and lasso of the flit model kept)\n")
		}
		switch r.Stats.Reduction {
		case "":
		case ReductionNone:
			fmt.Fprintf(&b, "  reduction: none (%s runs unreduced)\n", r.Property)
		default:
			fmt.Fprintf(&b, "  reduction: %s sets (partial-order; every deadlock state is kept)\n", r.Stats.Reduction)
		}
		if r.Stats.Store == checker.Fingerprint.String() {
			fmt.Fprintf(&b, "  store: fingerprint (64-bit); probability that two states collided <= %.3g\n", r.Stats.CollisionBound)
		}
	} else if r.Stats.Checked > 0 {
		fmt.Fprintf(&b, "  %d %s checked, %.2fs\n", r.Stats.Checked, r.Stats.Unit, r.Stats.Seconds)
	}
	if st := r.Static; st != nil {
		fmt.Fprintf(&b, "  static decision (%.2fs): %s\n", st.Seconds, st.line())
		fmt.Fprintf(&b, "  %s\n", st.Covers)
	}
	if len(r.Strategies) > 1 {
		b.WriteString("  portfolio:")
		for i, s := range r.Strategies {
			if i > 0 {
				b.WriteByte(';')
			}
			if s.Name == "static" {
				fmt.Fprintf(&b, " static (the relation) %s", s.Verdict)
			} else {
				fmt.Fprintf(&b, " %s %s", s.Name, s.Verdict)
			}
			if s.Decided {
				b.WriteString(" (decided)")
			}
			unit := "states"
			if s.Name == "static" {
				unit = "header states"
			}
			fmt.Fprintf(&b, ", %d %s from %.1fs for %.2fs", s.States, unit, s.StartedAfter, s.Seconds)
		}
		b.WriteByte('\n')
	}
	if r.Certificate != nil {
		fmt.Fprintf(&b, "  certificate (%s): %s\n", r.Certificate.Kind, r.Certificate.Note)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "  note: %s\n", n)
	}
	if r.Text != "" {
		for _, line := range strings.Split(strings.TrimRight(r.Text, "\n"), "\n") {
			fmt.Fprintf(&b, "  %s\n", line)
		}
	}
	return b.String()
}

// line is the static decision in a few words: the relation, its VCs and the verdict
// with its argument.
func (st *Static) line() string {
	what := fmt.Sprintf("routing %s on %s (%d VC", st.Routing, st.Topology, st.VCs)
	if st.VCs != 1 {
		what += "s"
	}
	what += ")"
	switch {
	case st.Routing == "":
		return st.Reason
	case st.Verdict == Holds:
		return fmt.Sprintf("%s is deadlock-free: %s", what, st.Reason)
	case st.Verdict == Violated:
		return fmt.Sprintf("%s can deadlock: %s", what, st.Reason)
	}
	return fmt.Sprintf("%s undecided: %s", what, st.Reason)
}
