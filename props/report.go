// Package props holds wormcheck's properties and their verdicts: the report every check
// produces (the --json object of DESIGN.md), the saved-trace file format that `replay`
// re-executes, and the property checkers themselves (one file per property family).
package props

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
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

// Stats are the figures of a check. Seconds is wall-clock time.
type Stats struct {
	States       int64   `json:"states"`
	Transitions  int64   `json:"transitions"`
	Depth        int     `json:"depth"`
	Seconds      float64 `json:"seconds"`
	StatesPerSec float64 `json:"states_per_sec"`
}

// Report is the result of one check as `wormcheck check --json` prints it: one object
// with the tool version, command, instance, property, semantics, verdict, stats and
// witness (a trace, or the contending pair with channel and time).
type Report struct {
	Version   string   `json:"version"`
	Command   string   `json:"command"`
	Instance  Instance `json:"instance"`
	Property  string   `json:"property"`
	Semantics string   `json:"semantics"`
	Verdict   Verdict  `json:"verdict"`
	Reason    string   `json:"reason,omitempty"`
	Stats     Stats    `json:"stats"`
	Witness   any      `json:"witness"`
	// Text is the evidence for people, printed without --json under the headline (which
	// the command line builds from Instance, Property, Semantics, Verdict and Reason):
	// the witness rendered in a few lines, or "" when there is nothing more to say.
	Text string `json:"-"`
	// Trace is the replayable trace of a violation (nil if none); written by --trace.
	Trace *TraceFile `json:"-"`
	// SVG and PCAP are optional pictures/captures of the witness, written by --svg/--pcap.
	SVG  []byte `json:"-"`
	PCAP []byte `json:"-"`
	// Result is the mergeable result of a family run (JSON, the algorithm's family
	// format), written by --result and joined by `wormcheck merge`; nil for one instance.
	Result []byte `json:"-"`
}

// TraceFormat is the format tag of saved traces.
const TraceFormat = "wormcheck-trace/1"

// TraceFile is a saved counterexample: enough to rebuild the model (algorithm, topology,
// parameters) and the actions to re-execute from initial state Init. Labels are the
// human-readable actions, kept for people and checked on replay.
type TraceFile struct {
	Format    string          `json:"format"`
	Algorithm string          `json:"algorithm"`
	Topology  string          `json:"topology"`
	Property  string          `json:"property"`
	Semantics string          `json:"semantics"`
	Params    json.RawMessage `json:"parameters"`
	Init      int             `json:"init"`
	Actions   []uint64        `json:"actions"`
	Labels    []string        `json:"labels"`
	// Violation says what the last state shows ("deadlock: worms 0 and 1 wait on each
	// other"); replay must reach the same kind of violation.
	Violation string `json:"violation"`
}

// ParseTraceFile decodes and validates a saved trace; every error is one line naming the
// field that is wrong.
func ParseTraceFile(data []byte) (*TraceFile, error) {
	var tf TraceFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tf); err != nil {
		return nil, fmt.Errorf("trace file is not valid JSON: %v", oneLine(err.Error()))
	}
	switch {
	case tf.Format != TraceFormat:
		return nil, fmt.Errorf("trace file field \"format\" is %q; want %q", tf.Format, TraceFormat)
	case tf.Algorithm == "":
		return nil, fmt.Errorf("trace file field \"algorithm\" is missing")
	case tf.Topology == "":
		return nil, fmt.Errorf("trace file field \"topology\" is missing")
	case tf.Init < 0:
		return nil, fmt.Errorf("trace file field \"init\" is %d; it must be >= 0", tf.Init)
	case len(tf.Labels) != 0 && len(tf.Labels) != len(tf.Actions):
		return nil, fmt.Errorf("trace file has %d actions but %d labels", len(tf.Actions), len(tf.Labels))
	}
	return &tf, nil
}

func oneLine(s string) string {
	return string(bytes.ReplaceAll([]byte(s), []byte("\n"), []byte(" ")))
}
