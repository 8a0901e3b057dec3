// Package tracefile is the on-disk form of a counterexample: the trace file
// ("wormcheck-trace/1") that `check --trace` writes and `replay` and `render` read. A
// trace file names the algorithm, topology and parameters that rebuild the model, the
// initial state and the actions to re-execute from it (checker.Trace's Init and Actions),
// and, for a lasso, where its cycle starts (checker.ReplayLasso). It sits below the
// algorithms in the layout, since every algorithm package writes its own traces and the
// properties (package props) only carry them in a Report.
//
// The package also tells wormcheck's file formats apart (WrongFile), so that a file
// handed to the wrong command gets a one-line explanation instead of a JSON error.
package tracefile

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
)

// Format is the format tag of saved traces.
const Format = "wormcheck-trace/1"

// File is a saved counterexample: enough to rebuild the model (algorithm, topology,
// parameters) and the actions to re-execute from initial state Init. Labels are the
// human-readable actions, kept for people and checked on replay.
type File struct {
	Format    string           `json:"format"`
	Algorithm string           `json:"algorithm"`
	Topology  string           `json:"topology"`
	Property  checker.Property `json:"property"`
	Semantics string           `json:"semantics"`
	Params    json.RawMessage  `json:"parameters"`
	Init      int              `json:"init"`
	Actions   []uint64         `json:"actions"`
	Labels    []string         `json:"labels"`
	// Violation says what the last state shows ("deadlock: worms 0 and 1 wait on each
	// other"); replay must reach the same kind of violation.
	Violation string `json:"violation"`
	// CycleStart, when set, makes the trace a lasso (a livelock or starvation): the
	// actions from index CycleStart on are a cycle back to the state after the first
	// CycleStart actions, and replay re-checks it with checker.ReplayLasso.
	CycleStart *int `json:"cycle_start,omitempty"`
}

// Parse decodes and validates a saved trace; every error is one line naming the field
// that is wrong.
func Parse(data []byte) (*File, error) {
	if err := WrongFile(data, Format); err != nil {
		return nil, err
	}
	var tf File
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&tf); err != nil {
		return nil, fmt.Errorf("trace file is not valid JSON: %v", oneLine(err.Error()))
	}
	switch {
	case tf.Format != Format:
		return nil, fmt.Errorf("trace file field \"format\" is %q; want %q", tf.Format, Format)
	case tf.Algorithm == "":
		return nil, fmt.Errorf("trace file field \"algorithm\" is missing")
	case tf.Topology == "":
		return nil, fmt.Errorf("trace file field \"topology\" is missing")
	case tf.Init < 0:
		return nil, fmt.Errorf("trace file field \"init\" is %d; it must be >= 0", tf.Init)
	case len(tf.Labels) != 0 && len(tf.Labels) != len(tf.Actions):
		return nil, fmt.Errorf("trace file has %d actions but %d labels", len(tf.Actions), len(tf.Labels))
	case tf.CycleStart != nil && (*tf.CycleStart < 0 || *tf.CycleStart >= len(tf.Actions)):
		return nil, fmt.Errorf("trace file field \"cycle_start\" is %d, but \"actions\" has %d; a lasso's cycle starts at one of its actions", *tf.CycleStart, len(tf.Actions))
	}
	return &tf, nil
}

func oneLine(s string) string {
	return string(bytes.ReplaceAll([]byte(s), []byte("\n"), []byte(" ")))
}
