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

// Usage is the help of `wormcheck prove`, which runs the catalogue.
const Usage = `wormcheck prove [--quick | --full] [--only IDS] [--json] [--workers N] [--witness-dir D]

Runs the claims catalogue: every claim of the source papers that wormcheck
machine-checks, each with its source, semantics and expected verdict, and prints a table
of claim, source, semantics, expected, verdict, instances, states and time. Each claim
is checked on its instance families at one of three sizes:

  --quick    the small families CI runs: about 15 s of CPU in all
  (default)  bigger families: about 45 s of CPU, under three minutes of wall time on
             2 cores even when they are shared
  --full     the complete families: about an hour on 2 cores (TM2 and TM3 take most)

The exit code is 0 when every verdict is as expected, 1 otherwise, and 3 when the run
was interrupted (SIGINT, SIGTERM, --max-memory or --time-limit): the running claim is
reported inconclusive with what it had counted, the claims after it "not run".

Flags:
  --quick           the small families
  --full            the complete families
  --only IDS        comma-separated claim ids, e.g. --only WH1,WH2
  --json            one object: version, size, as_expected, interrupted, claims[{id,
                    source, claim, semantics, expected, verdict, instances, states,
                    seconds, witness}]; the witness is a wormcheck witness object
                    (kind trace, pair, instance, ...) or null
  --workers N       members checked at once (default: the number of CPUs); verdicts
                    and state counts do not depend on it
  --witness-dir D   for every claim with a witness: D/ID.json, a trace file that
                    'wormcheck replay', render and explore take (MN6B adds ID.async.json);
                    D/ID.svg its picture; D/ID.pcap its capture (flit claims); for a claim
                    whose witness is no trace, D/ID.report.json (the report of a timed
                    claim's contending pair) or D/ID.witness.json (a blocking pattern, an
                    unreachable pair), which replay and render name as such
  --progress        progress lines on stderr even when it is not a terminal (on a
                    terminal one line is updated in place): claim, family, members
                    done/total, states, states/s, elapsed, ETA of the family, memory
  --list            list the claims and what each family holds at each size
  --max-memory MiB, --time-limit D
                    stop the run as a signal does when the process outgrows MiB
                    (default 3/4 of the memory available) or after D

Examples:
  wormcheck prove --quick
  wormcheck prove --only WH2 --witness-dir out && wormcheck replay out/WH2.json
`
