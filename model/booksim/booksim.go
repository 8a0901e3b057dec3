package booksim

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/model/topology"
)

// Config is what wormcheck reads of a BookSim2 configuration file: the network as
// a topology spec, the routing function as a built-in relation's name, and the virtual
// channels, buffer depth and packet length. Ignored lists, in file order, the keys it
// read but does not use (traffic, allocators, delays, ...): a flit-level model checker
// has no timing, injection rate or allocator, and says so instead of dropping them.
type Config struct {
	Topology string
	Routing  string // "" when the file names none wormcheck knows for the topology
	VCs      int    // 0 when absent
	Buffer   int    // vc_buf_size; 0 when absent
	Length   int    // packet_size or const_flits_per_packet; 0 when absent
	Ignored  []string
}

// Parse reads a BookSim2 configuration ("key = value;" statements, //
// comments) from data; dir is the directory network_file is relative to. Topologies:
// anynet (network_file), mesh and torus (k, n), fattree (k, n: a k-ary n-tree),
// dragonflynew (k = p terminals per router: a = 2p, h = p, g = a*h+1, BookSim's
// balanced dragonfly). Routing functions: dor and dim_order (dimension order),
// min on anynet (BookSim's min_anynet takes one shortest path; wormcheck offers all of
// them: shortest-path), nca on a fat-tree (fattree-nca), min and ugal on a dragonfly
// (dragonfly-min; dragonfly-valiant, whose relation offers every route UGAL may
// choose). Errors are one line naming the line and key.
func Parse(data []byte, dir string) (Config, error) {
	var c Config
	vals := map[string]string{}
	lines := map[string]int{}
	var order []string
	text := string(data)
	line := 1
	for len(text) > 0 {
		// one statement up to ';', skipping comments
		var stmt strings.Builder
		start := line
		for len(text) > 0 {
			switch {
			case strings.HasPrefix(text, "//"):
				i := strings.IndexByte(text, '\n')
				if i < 0 {
					i = len(text)
				}
				text = text[i:]
				continue
			case strings.HasPrefix(text, "/*"):
				i := strings.Index(text, "*/")
				if i < 0 {
					return c, fmt.Errorf("booksim line %d: a /* comment is not closed", line)
				}
				line += strings.Count(text[:i], "\n")
				text = text[i+2:]
				continue
			}
			ch := text[0]
			text = text[1:]
			if ch == '\n' {
				line++
				if strings.TrimSpace(stmt.String()) == "" {
					start = line
				}
			}
			if ch == ';' {
				break
			}
			stmt.WriteByte(ch)
		}
		s := strings.TrimSpace(stmt.String())
		if s == "" {
			continue
		}
		k, v, ok := strings.Cut(s, "=")
		k, v = strings.TrimSpace(k), strings.Trim(strings.TrimSpace(v), `"`)
		if !ok || k == "" || strings.ContainsAny(k, " \t\n") {
			return c, fmt.Errorf("booksim line %d: %q is not KEY = VALUE;", start, firstLine(s))
		}
		if _, dup := vals[k]; !dup {
			order = append(order, k)
		}
		vals[k], lines[k] = v, start
	}
	used := map[string]bool{}
	get := func(k string) (string, bool) { used[k] = true; v, ok := vals[k]; return v, ok }
	num := func(k string) (int, bool, error) {
		v, ok := get(k)
		if !ok {
			return 0, false, nil
		}
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > 1<<20 {
			return 0, true, fmt.Errorf("booksim line %d: %s = %q is not a whole number", lines[k], k, v)
		}
		return n, true, nil
	}
	topo, ok := get("topology")
	if !ok {
		return c, fmt.Errorf("booksim: key topology is missing")
	}
	k, hasK, err := num("k")
	if err != nil {
		return c, err
	}
	n, hasN, err := num("n")
	if err != nil {
		return c, err
	}
	need := func(what string) error {
		if !hasK || !hasN {
			return fmt.Errorf("booksim line %d: topology %s needs k and n", lines["topology"], what)
		}
		return nil
	}
	rf, _ := get("routing_function")
	switch topo {
	case "anynet":
		f, ok := get("network_file")
		if !ok || f == "" {
			return c, fmt.Errorf("booksim line %d: topology anynet needs network_file", lines["topology"])
		}
		if !filepath.IsAbs(f) && dir != "" {
			f = filepath.Join(dir, f)
		}
		c.Topology = "file:" + f
		if rf == "min" {
			c.Routing = "shortest-path"
		}
	case "mesh", "torus":
		if err := need(topo); err != nil {
			return c, err
		}
		if n < 1 || n > topology.MaxDims {
			return c, fmt.Errorf("booksim line %d: n = %d; wormcheck takes 1..%d dimensions", lines["n"], n, topology.MaxDims)
		}
		sizes := make([]string, n)
		for i := range sizes {
			sizes[i] = strconv.Itoa(k)
		}
		c.Topology = topo + ":" + strings.Join(sizes, "x")
		if rf == "dor" || rf == "dim_order" {
			c.Routing = "dor"
		}
	case "fattree":
		if err := need(topo); err != nil {
			return c, err
		}
		c.Topology = fmt.Sprintf("fattree:%d,%d", k, n)
		if rf == "nca" {
			c.Routing = "fattree-nca"
		}
	case "dragonflynew":
		if !hasK {
			return c, fmt.Errorf("booksim line %d: topology dragonflynew needs k", lines["topology"])
		}
		c.Topology = fmt.Sprintf("dragonfly:a=%d,p=%d,h=%d", 2*k, k, k)
		switch rf {
		case "min":
			c.Routing = "dragonfly-min"
		case "ugal":
			c.Routing = "dragonfly-valiant"
		}
	default:
		return c, fmt.Errorf("booksim line %d: topology %q is not supported; use anynet, mesh, torus, fattree or dragonflynew", lines["topology"], topo)
	}
	if rf != "" && c.Routing == "" {
		c.Ignored = append(c.Ignored, "routing_function ("+rf+" is not a relation wormcheck has for "+topo+")")
	}
	if c.VCs, _, err = num("num_vcs"); err != nil {
		return c, err
	}
	if c.Buffer, _, err = num("vc_buf_size"); err != nil {
		return c, err
	}
	if c.Length, _, err = num("packet_size"); err != nil {
		return c, err
	}
	if l, ok, err := num("const_flits_per_packet"); err != nil {
		return c, err
	} else if ok && c.Length == 0 {
		c.Length = l
	}
	for _, key := range order {
		if !used[key] {
			c.Ignored = append(c.Ignored, key)
		}
	}
	return c, nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
