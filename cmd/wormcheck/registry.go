package main

import (
	"context"
	"flag"
	"io"

	"github.com/wormcheck/wormcheck/props"
)

// common holds the flags every `check` shares; an algorithm adds its own.
type common struct {
	Topo      string // --topo
	Prop      string // --prop
	JSON      bool   // --json
	Workers   int    // --workers
	MaxStates int64  // --max-states
	MaxDepth  int    // --max-depth
	MaxMemMB  int64  // --max-memory (MiB)
	Store     string // --store exact|fingerprint
	Symmetry  bool   // --symmetry
	Trace     string // --trace F.json
	SVG       string // --svg F.svg
	PCAP      string // --pcap F.pcap
	Progress  io.Writer
	Seed      int64 // --seed
}

// algo is one `--algo` of `wormcheck check`: its name, a line of help, the properties it
// supports, and Define, which adds the algorithm's own flags to fs and returns the
// function that runs the check once the flags are parsed. Errors returned by run are
// bad input (exit 2) unless they wrap errInternal.
type algo struct {
	Name    string
	Summary string
	Props   []string
	Define  func(fs *flag.FlagSet, c *common) (run func(ctx context.Context) (*props.Report, error))
	// Replay re-executes a saved trace of this algorithm and reports whether it reaches the
	// recorded violation (Verdict Violated) or not; nil if the algorithm has no traces.
	Replay func(ctx context.Context, tf *props.TraceFile) (*props.Report, error)
}

var algos = map[string]algo{}

// registerAlgo adds an algorithm to `check`; called from init in the file of its family.
func registerAlgo(a algo) {
	if _, dup := algos[a.Name]; dup {
		panic("duplicate algo " + a.Name)
	}
	algos[a.Name] = a
}
