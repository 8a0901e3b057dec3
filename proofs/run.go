package proofs

import (
	"errors"
	"fmt"

	"github.com/wormcheck/wormcheck/props"
)

// Verdict is the run's verdict as one exit code reads it: inconclusive when the run was
// interrupted, violated when some claim's verdict is not the one expected, else holds.
func (rep *Report) Verdict() props.Verdict {
	switch {
	case rep.Interrupted:
		return props.Inconclusive
	case !rep.AsExpected:
		return props.Violated
	}
	return props.Holds
}

// NewOptions are the options of a run by `wormcheck prove`'s switches: the size --quick
// or --full select (Default with neither; both are refused), workers members checked at
// once (1..256), and a fresh Meter for a progress reporter. Errors name the flag.
func NewOptions(quick, full bool, workers int) (Options, error) {
	if workers < 1 || workers > 256 {
		return Options{}, fmt.Errorf("--workers %d is out of range; use 1..256", workers)
	}
	size := Default
	switch {
	case quick && full:
		return Options{}, errors.New("--quick and --full exclude each other; give one")
	case quick:
		size = Quick
	case full:
		size = Full
	}
	return Options{Size: size, Workers: workers, Meter: new(Meter)}, nil
}
