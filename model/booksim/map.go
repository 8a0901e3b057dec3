package booksim

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// Mapping is what wormcheck checks of a BookSim configuration.
type Mapping struct {
	// Topology is the network as a wormcheck topology spec (mesh:8x8, file:PATH, ...).
	Topology string
	// Routing is the relation BookSim's routing_function is on this topology (a
	// built-in name), or "" with the reason in NoRouting.
	Routing   string
	NoRouting string
	// VCs, Buffer and Length are num_vcs, vc_buf_size and the packet length in flits
	// (the largest of packet_size), BookSim's defaults where the file is silent.
	VCs, Buffer, Length int
	// Notes says, one line each, what of the configuration BookSim runs differently
	// from wormcheck's flit semantics (sorted by key).
	Notes []string
}

// Map returns what wormcheck checks of c; dir is the directory network_file is
// relative to. The error, one line naming the key, is for a network wormcheck cannot
// build (a topology it does not have, sizes BookSim itself would refuse).
func (c *Config) Map(dir string) (Mapping, error) {
	var m Mapping
	nw := &c.Network
	at := func(key string) string {
		if l, ok := c.Line[key]; ok {
			return fmt.Sprintf("booksim line %d: ", l)
		}
		return fmt.Sprintf("booksim (default %s = %s): ", key, keys().byName[key].def)
	}
	rf := nw.RoutingFunction
	switch nw.Topology {
	case "anynet":
		f := nw.NetworkFile
		if f == "" {
			return m, fmt.Errorf("%stopology anynet needs network_file", at("topology"))
		}
		if !filepath.IsAbs(f) && dir != "" {
			f = filepath.Join(dir, f)
		}
		m.Topology = "file:" + f
		if rf == "min" {
			m.Routing = "shortest-path"
		}
	case "mesh", "torus":
		if nw.N < 1 || nw.N > 8 {
			return m, fmt.Errorf("%sn = %d; wormcheck takes 1..8 dimensions", at("n"), nw.N)
		}
		if nw.K < 2 {
			return m, fmt.Errorf("%sk = %d; a %s needs at least 2 routers per dimension", at("k"), nw.K, nw.Topology)
		}
		sizes := make([]string, nw.N)
		for i := range sizes {
			sizes[i] = strconv.Itoa(nw.K)
		}
		m.Topology = nw.Topology + ":" + strings.Join(sizes, "x")
		if rf == "dor" || rf == "dim_order" {
			m.Routing = "dor"
		}
	case "fattree":
		m.Topology = fmt.Sprintf("fattree:%d,%d", nw.K, nw.N)
		if rf == "nca" {
			m.Routing = "fattree-nca"
		}
	case "dragonflynew":
		if nw.N != 1 {
			return m, fmt.Errorf("%sdragonflynew takes n = 1 (BookSim asserts it); n is %d", at("n"), nw.N)
		}
		m.Topology = fmt.Sprintf("dragonfly:a=%d,p=%d,h=%d", 2*nw.K, nw.K, nw.K)
		switch rf {
		case "min":
			m.Routing = "dragonfly-min"
		case "ugal":
			m.Routing = "dragonfly-valiant"
		}
	default:
		return m, fmt.Errorf("%stopology %q is not supported; use anynet, mesh, torus, fattree or dragonflynew", at("topology"), nw.Topology)
	}
	if m.Routing == "" {
		if rf == "none" {
			m.NoRouting = "the configuration has no routing_function (BookSim would refuse none_" + nw.Topology + ")"
		} else {
			m.NoRouting = fmt.Sprintf("routing_function %s is not a relation wormcheck has for %s", rf, nw.Topology)
		}
	}
	m.VCs, m.Buffer = c.Router.NumVCs, c.Router.VCBufSize
	if m.VCs < 1 {
		return m, fmt.Errorf("%snum_vcs = %d; BookSim needs at least 1", at("num_vcs"), m.VCs)
	}
	if m.Buffer < 1 {
		return m, fmt.Errorf("%svc_buf_size = %d; a virtual channel needs a buffer of at least 1 flit", at("vc_buf_size"), m.Buffer)
	}
	for _, sizes := range c.Traffic.PacketSize {
		for _, l := range sizes {
			if l < 1 {
				return m, fmt.Errorf("%spacket_size = %d: BookSim would make packets of no flits and inject nothing; give 1 or more", at("packet_size"), l)
			}
			m.Length = max(m.Length, l)
		}
	}
	if m.Length == 0 {
		m.Length = 1
	}
	return m, nil
}
