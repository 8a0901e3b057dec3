package check

import "github.com/wormcheck/wormcheck/checker"

// MaxWorkers bounds Options.Workers.
const MaxWorkers = 256

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

// StoreNamed returns the visited store a name selects: "exact" (every state kept) or
// "fingerprint" (64-bit hashes, TLC-style); another name is bad input naming --store.
func StoreNamed(name string) (checker.StoreMode, error) {
	switch name {
	case "exact":
		return checker.Exact, nil
	case "fingerprint":
		return checker.Fingerprint, nil
	}
	return checker.Exact, badf("--store %q is unknown; use exact or fingerprint", name)
}
