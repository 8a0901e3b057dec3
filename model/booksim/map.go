package booksim

import (
	"fmt"
	"path/filepath"
	"slices"
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
	// VCs is 0: the relation (booksim:FUNC,vcs=N) carries num_vcs and uses the VCs
	// BookSim's function returns, no more. Buffer and Length are vc_buf_size and the
	// packet length in flits (the largest of packet_size), BookSim's defaults where the
	// file is silent.
	VCs, Buffer, Length int
	// Notes says, one line each, what of the configuration makes BookSim's network
	// differ from the one wormcheck checks (keys in Config order).
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
	case "mesh", "torus":
		if nw.N < 1 || nw.N > 8 {
			return m, fmt.Errorf("%sn = %d; wormcheck takes 1..8 dimensions", at("n"), nw.N)
		}
		if nw.K < 2 || nw.Topology == "torus" && nw.K < 3 {
			return m, fmt.Errorf("%sk = %d; wormcheck takes k >= 2 on a mesh and k >= 3 on a torus (BookSim's 2-ary torus joins each pair of routers twice)", at("k"), nw.K)
		}
		sizes := make([]string, nw.N)
		for i := range sizes {
			sizes[i] = strconv.Itoa(nw.K)
		}
		m.Topology = nw.Topology + ":" + strings.Join(sizes, "x")
	case "cmesh":
		if nw.X != nw.Y {
			return m, fmt.Errorf("%sx = %d and y = %d differ; BookSim's cmesh asserts x = y", at("x"), nw.X, nw.Y)
		}
		m.Topology = fmt.Sprintf("cmesh:k=%d,n=%d,c=%d,xr=%d,yr=%d", nw.K, nw.N, nw.C, nw.XR, nw.YR)
	case "flatfly":
		m.Topology = fmt.Sprintf("flatfly:k=%d,n=%d,c=%d,x=%d,y=%d,xr=%d,yr=%d", nw.K, nw.N, nw.C, nw.X, nw.Y, nw.XR, nw.YR)
	case "fly":
		m.Topology = fmt.Sprintf("fly:k=%d,n=%d", nw.K, nw.N)
	case "fattree":
		m.Topology = fmt.Sprintf("fattree:%d,%d", nw.K, nw.N)
	case "dragonflynew":
		if nw.N != 1 {
			return m, fmt.Errorf("%sdragonflynew takes n = 1 (BookSim asserts it); n is %d", at("n"), nw.N)
		}
		m.Topology = fmt.Sprintf("dragonfly:a=%d,p=%d,h=%d", 2*nw.K, nw.K, nw.K)
	case "qtree", "tree4":
		if nw.K != 4 || nw.N != 3 {
			return m, fmt.Errorf("%sBookSim's %s asserts k = 4 and n = 3; k is %d, n is %d", at("k"), nw.Topology, nw.K, nw.N)
		}
		m.Topology = nw.Topology + ":k=4,n=3"
	default:
		return m, fmt.Errorf("%stopology %q is not one BookSim builds; BookSim's are torus, mesh, cmesh, fly, flatfly, fattree, dragonflynew, anynet, qtree and tree4", at("topology"), nw.Topology)
	}
	switch {
	case rf == "none":
		m.NoRouting = "the configuration has no routing_function (BookSim would refuse none_" + nw.Topology + ")"
	case slices.ContainsFunc(c.Traffic.UseReadWrite, func(x int) bool { return x != 0 }):
		m.NoRouting = "use_read_write = 1: requests and replies route on VC ranges of their own (read_request_begin_vc, ...), and wormcheck checks worms of one kind; set use_read_write = 0"
	default:
		m.Routing = RelationName(rf, c.Router.NumVCs)
	}
	m.Notes = c.notes()
	m.Buffer = c.Router.VCBufSize
	if c.Router.NumVCs < 1 || c.Router.NumVCs > 64 {
		return m, fmt.Errorf("%snum_vcs = %d; wormcheck takes 1..64", at("num_vcs"), c.Router.NumVCs)
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

// notes lists the keys whose values make BookSim's network differ from the one
// wormcheck builds: each changes what BookSim runs, not which network Map names.
func (c *Config) notes() []string {
	var out []string
	if c.Network.Subnets > 1 {
		out = append(out, fmt.Sprintf("subnets = %d: BookSim replicates the network; wormcheck checks one copy (each copy routes alike)", c.Network.Subnets))
	}
	if c.Network.LinkFailures > 0 {
		out = append(out, fmt.Sprintf("link_failures = %d: BookSim fails links at random; wormcheck checks the network whole (use --faults to name failed links)", c.Network.LinkFailures))
	}
	if c.Router.Kind != "iq" {
		out = append(out, fmt.Sprintf("router = %s: wormcheck's flit semantics is an input-queued wormhole router's", c.Router.Kind))
	}
	if c.Router.BufSize > 0 {
		out = append(out, fmt.Sprintf("buf_size = %d: BookSim shares one buffer among the VCs of a port; wormcheck gives each VC vc_buf_size flits", c.Router.BufSize))
	}
	if c.Router.VCT {
		out = append(out, "vct = 1: BookSim's event router switches virtual cut-through; wormcheck's flit semantics is wormhole")
	}
	return out
}

// RelationName is the built-in relation of BookSim's routing function fn on vcs
// virtual channels ("booksim:FUNC,vcs=N"; model/routing.NewBookSim).
func RelationName(fn string, vcs int) string {
	return fmt.Sprintf("booksim:%s,vcs=%d", fn, vcs)
}
