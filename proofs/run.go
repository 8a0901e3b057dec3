package proofs

import "github.com/wormcheck/wormcheck/props"

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
