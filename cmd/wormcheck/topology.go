package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wormcheck/wormcheck/model/booksim"
	"github.com/wormcheck/wormcheck/model/topology"
)

// bookSimFile is a BookSim2 configuration given with --booksim: every key as BookSim
// reads it (Config, defaults applied) and what wormcheck checks of it (Mapping).
type bookSimFile struct {
	Config  booksim.Config
	Mapping booksim.Mapping
}

// topologyFlags applies --booksim and --faults to --topo: a BookSim2 configuration names
// the topology (and its routing function, VCs, buffers and packet size, returned for the
// caller to use where no flag gives them; keys BookSim does not define are listed on
// stderr), and failed links turn the grid into an irregular network
// ("TOPO/faults=LINKS", topology.WithFaults).
func topologyFlags(e *env, topo *string, faults, bsPath string) (*bookSimFile, error) {
	var bs *bookSimFile
	if bsPath != "" {
		if *topo != "" {
			return nil, usagef("--topo and --booksim both name a topology; give one")
		}
		data, err := os.ReadFile(bsPath)
		if err != nil {
			return nil, usagef("--booksim: %v", err)
		}
		cfg, err := booksim.Parse(data)
		if err != nil {
			return nil, usagef("--booksim %s: %v", bsPath, err)
		}
		m, err := cfg.Map(filepath.Dir(bsPath))
		if err != nil {
			return nil, usagef("--booksim %s: %v", bsPath, err)
		}
		*topo = m.Topology
		if len(cfg.Unknown) > 0 {
			fmt.Fprintf(e.Stderr, "wormcheck: --booksim %s: keys BookSim does not define (it would refuse the file): %s\n", bsPath, strings.Join(cfg.Unknown, ", "))
		}
		bs = &bookSimFile{Config: cfg, Mapping: m}
	}
	if faults != "" {
		if *topo == "" {
			return nil, usagef("--faults needs --topo (the grid whose links fail)")
		}
		*topo += topology.FaultsSep + faults
	}
	return bs, nil
}
