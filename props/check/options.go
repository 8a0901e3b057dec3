package check

import (
	"fmt"
	"io"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
)

// MaxWorkers bounds Options.Workers.
const MaxWorkers = 256

// StoreNamed returns the visited store called name: "exact" (every state kept) or
// "fingerprint" (64-bit hashes, TLC-style). An unknown name is bad input naming --store.
func StoreNamed(name string) (checker.StoreMode, error) {
	switch name {
	case "exact":
		return checker.Exact, nil
	case "fingerprint":
		return checker.Fingerprint, nil
	}
	return checker.Exact, badf("--store %q is unknown; use exact or fingerprint", name)
}

// Validate refuses option values that no algorithm accepts, as bad input naming the
// flag: workers outside 1..MaxWorkers and negative bounds.
func (o Options) Validate() error {
	switch {
	case o.Workers < 1 || o.Workers > MaxWorkers:
		return badf("--workers %d is out of range; use 1..%d", o.Workers, MaxWorkers)
	case o.MaxStates < 0:
		return badf("--max-states must not be negative")
	case o.MaxDepth < 0:
		return badf("--max-depth must not be negative")
	case o.MaxMemoryBytes < 0:
		return badf("--max-memory must not be negative")
	}
	return nil
}

// WriteAlgorithms lists the registry for people: each algorithm with its summary and the
// properties it supports, each with the semantics its verdict is judged in.
func WriteAlgorithms(w io.Writer) {
	for _, a := range Algorithms() {
		var ps []string
		for _, p := range a.Properties {
			ps = append(ps, p.Property+" ("+p.Semantics+")")
		}
		fmt.Fprintf(w, "  %-13s %s\n  %-13s props: %s\n", a.Name, a.Summary, "", strings.Join(ps, ", "))
	}
}
