package check

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
