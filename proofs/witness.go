package proofs

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/props"
)

// WitnessOf turns a claim's evidence into the one witness schema (props.Witness), so
// that `prove --json` prints every witness the way `check --json` does:
//   - a *props.Witness is kept;
//   - a saved trace (*tracefile.File) becomes a trace witness: its violation, initial
//     state and steps (action ids and labels, the message read from an "mN" label
//     prefix, -1 where there is none);
//   - a schedule witness (*props.ScheduleWitness) becomes a pair witness when it names
//     two unicasts that contend, else an instance witness (a broken condition);
//   - anything else (a blocking pattern, an unreachable pair, a table row) becomes an
//     instance witness with the value as Detail.
//
// nil stays nil.
func WitnessOf(v any) *props.Witness {
	switch w := v.(type) {
	case nil:
		return nil
	case *props.Witness:
		return w
	case props.Witness:
		return &w
	case *tracefile.File:
		if w == nil {
			return nil
		}
		return traceWitness(w)
	case *props.ScheduleWitness:
		if w == nil {
			return nil
		}
		kind := props.WitnessInstance
		if w.A != nil && w.B != nil {
			kind = props.WitnessPair
		}
		return &props.Witness{Kind: kind, Violation: firstLine(w.String()), Schedule: w}
	}
	return &props.Witness{Kind: props.WitnessInstance, Detail: v}
}

// traceWitness is the trace witness of a saved trace, each step naming the message its
// label starts with ("m3 ...").
func traceWitness(tf *tracefile.File) *props.Witness {
	w := props.LabelWitness(tf)
	for i := range w.Steps {
		w.Steps[i].Message = labelMessage(w.Steps[i].Label)
	}
	return w
}

// labelMessage reads the message index of a label that starts with "mN" (the models'
// convention: "m0 flit 1 takes ..."), or -1.
func labelMessage(label string) int {
	rest, ok := strings.CutPrefix(label, "m")
	if !ok {
		return -1
	}
	end := 0
	for end < len(rest) && rest[end] >= '0' && rest[end] <= '9' {
		end++
	}
	if end == 0 {
		return -1
	}
	n, err := strconv.Atoi(rest[:end])
	if err != nil {
		return -1
	}
	return n
}

// traceJSON is a saved trace as the file prove --witness-dir writes for it, ID.json.
func traceJSON(tf *tracefile.File) []byte {
	b, _ := json.MarshalIndent(tf, "", "  ")
	return append(b, '\n')
}
