package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/wormcheck/wormcheck/model/booksim"
	"github.com/wormcheck/wormcheck/model/topology"
)

// topologyFlags applies --booksim and --faults to --topo: a BookSim2 configuration names
// the topology (and its routing function, VCs, buffers and packet size, returned for the
// caller to use where no flag gives them; the keys it does not use are listed on
// stderr), and failed links turn the grid into an irregular network
// ("TOPO/faults=LINKS", topology.WithFaults).
func topologyFlags(e *env, topo *string, faults, configPath string) (*booksim.Config, error) {
	var bs *booksim.Config
	if configPath != "" {
		if *topo != "" {
			return nil, usagef("--topo and --booksim both name a topology; give one")
		}
		data, err := os.ReadFile(configPath)
		if err != nil {
			return nil, usagef("--booksim: %v", err)
		}
		cfg, err := booksim.Parse(data, filepath.Dir(configPath))
		if err != nil {
			return nil, usagef("--booksim %s: %v", configPath, err)
		}
		*topo = cfg.Topology
		if len(cfg.Ignored) > 0 {
			fmt.Fprintf(e.Stderr, "wormcheck: --booksim %s: ignored keys: %s\n", configPath, strings.Join(cfg.Ignored, ", "))
		}
		bs = &cfg
	}
	if faults != "" {
		if *topo == "" {
			return nil, usagef("--faults needs --topo (the grid whose links fail)")
		}
		*topo += topology.FaultsSep + faults
	}
	return bs, nil
}
