package props

import "github.com/wormcheck/wormcheck/checker/tracefile"

// ReportSchema is the version tag of the --json report (Report.Schema). A reader that
// sees another tag must not guess: fields may have changed meaning.
const ReportSchema = "wormcheck-report/1"

// WitnessKind says what a Witness is evidence of, and which of its fields are set.
type WitnessKind string

// The witness kinds. Every violated verdict carries a witness of one of them; a measured
// claim may carry a measurement.
const (
	// WitnessTrace is a shortest path of transitions from an initial state to a state
	// that violates the property (a deadlock, a broken invariant): Init, Steps and, for a
	// deadlock, Cycle (the wait-for cycle of the last state).
	WitnessTrace WitnessKind = "trace"
	// WitnessLasso is an infinite run: Steps[:CycleStart] lead from an initial state to a
	// state that Steps[CycleStart:] return to, and along the cycle some message is never
	// delivered (livelock or starvation, named by Violation).
	WitnessLasso WitnessKind = "lasso"
	// WitnessPair is two unicasts of a schedule that contend: Pair.
	WitnessPair WitnessKind = "pair"
	// WitnessCycle is a static cycle (a channel-dependency cycle of a routing relation, a
	// wait-for cycle outside a trace): Cycle.
	WitnessCycle WitnessKind = "cycle"
	// WitnessMeasurement is a measured figure with its context: Figures.
	WitnessMeasurement WitnessKind = "measurement"
	// WitnessInstance is a counterexample that is a structure, not a run (a blocking
	// pattern, an unreachable node pair, a subnetwork that breaks a lemma): Detail.
	WitnessInstance WitnessKind = "instance"
	// WitnessConfiguration is a deadlock configuration of a routing relation (worms,
	// the channels each holds and the outputs each header waits for, all held):
	// Configuration, and in Steps the flit moves that reach it from the empty network
	// (the trace `replay` re-runs).
	WitnessConfiguration WitnessKind = "configuration"
)

// Witness is the evidence of a verdict, one JSON schema for every kind (the "witness"
// field of a Report). Fields that do not belong to Kind are omitted.
type Witness struct {
	Kind WitnessKind `json:"kind"`
	// Violation says in one line what the witness shows ("deadlock: wait-for cycle m0 ->
	// m1 -> m0", "livelock: m2 is never delivered").
	Violation string `json:"violation,omitempty"`
	// Init is the index of the initial state a trace or lasso starts from (the model's
	// Init() order); replay starts there.
	Init int `json:"init"`
	// Steps are the transitions of a trace or lasso, in order.
	Steps []TraceStep `json:"steps,omitempty"`
	// CycleStart is, for a lasso, the index in Steps where the repeated cycle begins.
	CycleStart int `json:"cycle_start,omitempty"`
	// Cycle is a wait-for cycle (deadlock) or a channel-dependency cycle (static routing
	// proof), in order around the cycle.
	Cycle []CycleEdge `json:"cycle,omitempty"`
	// Schedule is the evidence of a schedule property: the contending pair with channel,
	// parameters and holding intervals (kind pair), or the broken Definition 1 condition
	// (kind instance).
	Schedule *ScheduleWitness `json:"schedule,omitempty"`
	// Figures are measured values (a measurement witness, or context).
	Figures map[string]float64 `json:"figures,omitempty"`
	// Detail is a structural counterexample in the checker's own words (an instance
	// witness); any JSON value.
	Detail any `json:"detail,omitempty"`
	// Configuration is a deadlock configuration (kind configuration).
	Configuration *ConfigurationWitness `json:"configuration,omitempty"`
}

// ConfigurationWitness is a deadlock configuration of a routing relation: worms that
// hold channels such that every output each header is permitted is held. Minimal says
// the search proved it has the fewest worms, and the fewest channels among those.
type ConfigurationWitness struct {
	Worms    []ConfigurationWorm `json:"worms"`
	Channels int                 `json:"channels"`
	Minimal  bool                `json:"minimal"`
}

// ConfigurationWorm is one worm of a configuration: message Message of the realised
// instance, from Src to Dst, its Route from its source ("channel.vcN", the header's
// last), of which it holds the last Held, and the outputs its header Waits for.
type ConfigurationWorm struct {
	Message int          `json:"message"`
	Src     string       `json:"src"`
	Dst     string       `json:"dst"`
	Route   []string     `json:"route"`
	Held    int          `json:"held"`
	Waits   []WaitOutput `json:"waits"`
}

// WaitOutput is one permitted output of a blocked header and the worm (Message) that
// holds it.
type WaitOutput struct {
	Channel string `json:"channel"`
	VC      int    `json:"vc"`
	Holder  int    `json:"holder"`
}

// TraceStep is one transition of a trace, structured so that pictures, the browser
// explorer and the pcap writer need not parse labels. Fields that do not apply are
// omitted (Message -1 for a transition that belongs to no message).
type TraceStep struct {
	// Action is the model's action id; replay re-executes it.
	Action uint64 `json:"action"`
	// Label is the action for people ("m0 flit 1 takes (0,0)->(1,0).vc0").
	Label string `json:"label"`
	// What names the kind of move: "inject", "advance", "branch", "prune", "deliver",
	// "release", "send", "receive", ... (model-specific, documented by the model).
	What    string `json:"what,omitempty"`
	Message int    `json:"message"`
	Flit    int    `json:"flit,omitempty"`
	Channel string `json:"channel,omitempty"`
	VC      int    `json:"vc,omitempty"`
}

// CycleEdge is one link of a cycle: Message (or a channel, for a static cycle) waits at
// Channel/VC for what Holder holds; Turn names the turn that closes a static cycle at this
// edge ("east->north at (2,1)").
type CycleEdge struct {
	Message int    `json:"message"`
	Channel string `json:"channel"`
	VC      int    `json:"vc"`
	Holder  int    `json:"holder"`
	Turn    string `json:"turn,omitempty"`
}

// LabelWitness is the trace witness of a saved trace whose model gives no structured
// steps: its initial state, actions and labels (Message -1: the label does not say).
func LabelWitness(tf *tracefile.File) *Witness {
	w := &Witness{Kind: WitnessTrace, Violation: tf.Violation, Init: tf.Init}
	for i, a := range tf.Actions {
		ts := TraceStep{Action: a, Message: -1}
		if i < len(tf.Labels) {
			ts.Label = tf.Labels[i]
		}
		w.Steps = append(w.Steps, ts)
	}
	return w
}
