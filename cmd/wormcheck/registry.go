package main

import (
	"io"
	"time"
)

// common holds the flags every `check` shares; an algorithm adds one flag per parameter
// of the registry (check.Algorithm.Params).
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
	Seed      int64         // --seed
	SpillDir  string        // --spill-dir DIR
	Search    string        // --search bfs|swarm
	Reduction string        // --reduction stubborn|lean|none
	TimeLimit time.Duration // --time-limit
	Faults    string        // --faults LINKS (added to --topo)
	BookSim   string        // --booksim FILE
}
