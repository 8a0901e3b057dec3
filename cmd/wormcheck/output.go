package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/wormcheck/wormcheck/props"
)

// marshalIndent encodes v as indented JSON without HTML escaping (traces say "->").
func marshalIndent(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("encoding JSON: %v", err)
	}
	return buf.Bytes(), nil
}

func writeJSON(w io.Writer, v any) error {
	b, err := marshalIndent(v)
	if err != nil {
		return err
	}
	_, err = w.Write(b)
	return err
}

// printReport renders a check report for people.
func printReport(w io.Writer, r *props.Report) {
	fmt.Fprintf(w, "%s on %s: %s (%s semantics): %s\n", r.Instance.Algorithm, r.Instance.Topology, r.Property, r.Semantics, strings.ToUpper(r.Verdict.String()))
	if r.Reason != "" {
		fmt.Fprintf(w, "  %s\n", r.Reason)
	}
	if r.Stats.Transitions > 0 {
		fmt.Fprintf(w, "  %d states, %d transitions, depth %d, %.2fs (%.0f states/s)\n", r.Stats.States, r.Stats.Transitions, r.Stats.Depth, r.Stats.Seconds, r.Stats.StatesPerSec)
	}
	if r.Text != "" {
		for _, line := range strings.Split(strings.TrimRight(r.Text, "\n"), "\n") {
			fmt.Fprintf(w, "  %s\n", line)
		}
	}
}
