// Package unicast builds flit-level models of unicast worms under a topology's base
// routing (dimension order, with or without dateline classes on tori) and enumerates
// families of placements, for the deadlock claims WH1-WH3 (Dally & Seitz, cited by 000
// and 004) and the `check --algo unicast` command.
package unicast

import (
	"fmt"
	"sort"
	"strings"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Pair is one unicast worm: from Src to Dst.
type Pair struct {
	Src topology.NodeID `json:"src"`
	Dst topology.NodeID `json:"dst"`
}

// Dateline says whether DOR on a torus uses dateline virtual-channel classes.
type Dateline uint8

// The dateline modes: Auto is on for tori (the routing's default), Off and On force it.
const (
	DatelineAuto Dateline = iota
	DatelineOff
	DatelineOn
)

// ParseDateline parses "auto", "on" or "off".
func ParseDateline(s string) (Dateline, error) {
	switch s {
	case "auto", "":
		return DatelineAuto, nil
	case "off":
		return DatelineOff, nil
	case "on":
		return DatelineOn, nil
	}
	return 0, fmt.Errorf("dateline %q is unknown; use on, off or auto", s)
}

func (d Dateline) String() string {
	switch d {
	case DatelineOff:
		return "off"
	case DatelineOn:
		return "on"
	}
	return "auto"
}

// Spec is one unicast instance: the topology spec ("mesh:3x3", "torus:4"), the worms,
// their length L in flits, B flits of buffer per virtual channel, VCs virtual channels per
// physical channel (0 = as many as the routing relation uses; else a multiple of them),
// the dateline mode, the port model and the routing relation.
//
// Routing nil means dimension-order routing (routing.NewDOR) with dateline classes as
// Dateline says; a relation set here is used as it is (Dateline must then be auto) and
// must be on the spec's topology. It is not part of the JSON form: a report names it.
type Spec struct {
	Topology string           `json:"topology"`
	Pairs    []Pair           `json:"pairs"`
	Length   int              `json:"length"`
	Buffer   int              `json:"buffer"`
	VCs      int              `json:"vcs"`
	Dateline Dateline         `json:"dateline"`
	Ports    model.PortModel  `json:"ports"`
	Routing  routing.Relation `json:"-"`
	// Lengths, when set, gives each worm its own length in flits (one per pair),
	// instead of Length for all: a deadlock configuration's worms hold different
	// numbers of channels (props/decide.Configuration).
	Lengths []int `json:"lengths,omitempty"`
}

// Grid parses the spec's topology: a mesh, torus, hypercube or irregular network
// (topology.Parse; an irregular one needs a Routing).
func (sp Spec) Grid() (*topology.Network, error) {
	return topology.Parse(sp.Topology)
}

// Build returns the flit model of the instance.
func Build(sp Spec) (*flit.Model, error) {
	g, err := sp.Grid()
	if err != nil {
		return nil, err
	}
	return BuildOn(g, sp)
}

// MaxBuffer bounds the buffer depth an instance may name. A model never uses more
// than the longest worm's length (BuildOn), so the bound only refuses nonsense.
const MaxBuffer = 1 << 16

// BuildOn is Build on an already parsed grid (sp.Topology is ignored).
func BuildOn(g *topology.Network, sp Spec) (*flit.Model, error) {
	rel, err := sp.Relation(g)
	if err != nil {
		return nil, err
	}
	if len(sp.Lengths) > 0 && len(sp.Lengths) != len(sp.Pairs) {
		return nil, fmt.Errorf("lengths: %d lengths for %d worms", len(sp.Lengths), len(sp.Pairs))
	}
	msgs := make([]flit.Message, len(sp.Pairs))
	longest := 0
	for i, p := range sp.Pairs {
		msgs[i] = flit.Message{Source: p.Src, Dests: []topology.NodeID{p.Dst}, Length: sp.Length}
		if len(sp.Lengths) > 0 {
			msgs[i].Length = sp.Lengths[i]
		}
		longest = max(longest, msgs[i].Length)
	}
	// A virtual channel holds one worm at a time (atomic allocation), so no buffer ever
	// holds more flits than the longest worm has: a deeper buffer (BookSim's examples
	// go to 256 flits) is the same network, and the model gets the longest worm's depth.
	buffer := sp.Buffer
	if longest > 0 && buffer > longest {
		buffer = longest
	}
	cfg := flit.NewRelationConfig(rel, sp.VCs, buffer, sp.Ports, msgs)
	cfg.Net = flit.GridNetwork{Network: g}
	return flit.New(cfg)
}

// Relation returns the routing relation of the instance on g: sp.Routing, or
// dimension-order routing with dateline classes as sp.Dateline says.
func (sp Spec) Relation(g *topology.Network) (routing.Relation, error) {
	if sp.Routing != nil {
		if sp.Dateline != DatelineAuto {
			return nil, fmt.Errorf("dateline is %v but routing %q is given; dateline applies to dimension-order routing only", sp.Dateline, sp.Routing.Name())
		}
		if rg := sp.Routing.Grid(); rg == nil || rg.Spec() != g.Spec() {
			return nil, fmt.Errorf("routing %q is not on topology %s", sp.Routing.Name(), g.Spec())
		}
		return sp.Routing, nil
	}
	if err := g.RequireDims("dimension-order routing (the default)"); err != nil {
		return nil, fmt.Errorf("%v; give a routing relation", err)
	}
	dl := g.Kind() == topology.Torus
	switch sp.Dateline {
	case DatelineOff:
		dl = false
	case DatelineOn:
		if g.Kind() != topology.Torus {
			return nil, fmt.Errorf("dateline is on but topology %s is not a torus", g.Spec())
		}
		dl = true
	}
	return routing.NewDOR(g, dl), nil
}

// ParsePairs parses a worm list "0->5,3->1" or "(0,1)->(2,2),(1,1)->(0,0)": node numbers
// (dimension 0 varies fastest, so on mesh:3x3 node 5 is (2,1)) or coordinates in
// parentheses, separated by commas outside parentheses.
func ParsePairs(g *topology.Network, s string) ([]Pair, error) {
	var out []Pair
	for _, it := range topology.SplitList(s) {
		it = strings.TrimSpace(it)
		if it == "" {
			return nil, fmt.Errorf("msgs %q: empty worm; write SRC->DST, e.g. 0->5", s)
		}
		a, b, ok := strings.Cut(it, "->")
		if !ok {
			return nil, fmt.Errorf("msgs: worm %q has no \"->\"; write SRC->DST, e.g. 0->5 or (0,1)->(2,2)", it)
		}
		src, err := g.ParseEndpoint(a)
		if err != nil {
			return nil, fmt.Errorf("msgs: worm %q: source: %v", it, err)
		}
		dst, err := g.ParseEndpoint(b)
		if err != nil {
			return nil, fmt.Errorf("msgs: worm %q: destination: %v", it, err)
		}
		if src == dst {
			return nil, fmt.Errorf("msgs: worm %q goes from a node to itself", it)
		}
		out = append(out, Pair{src, dst})
	}
	return out, nil
}

// FormatPairs renders worms as ParsePairs reads them: node numbers on a grid (which are
// BookSim's numbers too), names on a network of routers and terminals, where a number
// would mean a terminal's number. With g nil, node numbers.
func FormatPairs(g *topology.Network, ps []Pair) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		if g != nil && g.IsGraph() {
			parts[i] = g.NodeName(p.Src) + "->" + g.NodeName(p.Dst)
		} else {
			parts[i] = fmt.Sprintf("%d->%d", p.Src, p.Dst)
		}
	}
	return strings.Join(parts, ",")
}

// Worms is FormatPairs on sp's network: its relation's (a network of routers always
// has one), node numbers on a grid without one.
func (sp Spec) Worms() string {
	var g *topology.Network
	if sp.Routing != nil {
		g = sp.Routing.Grid()
	}
	return FormatPairs(g, sp.Pairs)
}

// EndpointPairs returns every (src, dst) pair of distinct endpoints of g (every node of
// a grid, the terminals of a network with terminals, topology.Network.Endpoint), in the order
// AllPairs gives.
func EndpointPairs(g *topology.Network) []Pair {
	ends := g.Endpoints()
	if len(ends) == g.Nodes() {
		return AllPairs(g.Nodes())
	}
	var out []Pair
	for _, s := range ends {
		for _, d := range ends {
			if s != d {
				out = append(out, Pair{s, d})
			}
		}
	}
	return out
}

// AllPairs returns every (src, dst) with src != dst on n nodes, ordered by src then dst.
func AllPairs(n int) []Pair {
	var out []Pair
	for s := 0; s < n; s++ {
		for d := 0; d < n; d++ {
			if s != d {
				out = append(out, Pair{topology.NodeID(s), topology.NodeID(d)})
			}
		}
	}
	return out
}

// Placements calls yield with every set of 1..k worms with distinct (src, dst) pairs
// drawn from pairs, as ascending index combinations: all sets of size 1 first, then size
// 2, and so on, each size in lexicographic order. It stops early when yield returns
// false. The slice passed to yield is reused; copy it to keep it.
func Placements(pairs []Pair, k int, yield func([]Pair) bool) {
	idx := make([]int, 0, k)
	cur := make([]Pair, 0, k)
	for size := 1; size <= k && size <= len(pairs); size++ {
		idx = idx[:size]
		for i := range idx {
			idx[i] = i
		}
		for {
			cur = cur[:0]
			for _, i := range idx {
				cur = append(cur, pairs[i])
			}
			if !yield(cur) {
				return
			}
			j := size - 1
			for j >= 0 && idx[j] == len(pairs)-size+j {
				j--
			}
			if j < 0 {
				break
			}
			idx[j]++
			for t := j + 1; t < size; t++ {
				idx[t] = idx[t-1] + 1
			}
		}
	}
}

// Symmetries returns node permutations of g that map every DOR route (and its
// dateline classes) onto a DOR route, so that a placement and its image have isomorphic
// flit models: on a mesh the reflections of each dimension (XY routing corrects the same
// dimensions in the same order); on tori and hypercubes only the identity (reflections
// change which way a tie goes, translations move the dateline).
func Symmetries(g *topology.Network) [][]topology.NodeID {
	id := make([]topology.NodeID, g.Nodes())
	for v := range id {
		id[v] = topology.NodeID(v)
	}
	perms := [][]topology.NodeID{id}
	if g.Kind() != topology.Mesh {
		return perms
	}
	for d := 0; d < g.Dims(); d++ {
		n := len(perms)
		for _, p := range perms[:n] {
			q := make([]topology.NodeID, len(p))
			for v := range p {
				c := g.Coords(p[v])
				c[d] = g.Size(d) - 1 - c[d]
				q[v] = g.Node(c...)
			}
			perms = append(perms, q)
		}
	}
	return perms
}

// Canonical reports whether placement ps is the least (as a sorted pair list) among its
// images under the symmetries, so that a family can check one placement per class.
func Canonical(ps []Pair, syms [][]topology.NodeID) bool {
	key := func(q []Pair) []Pair {
		sort.Slice(q, func(i, j int) bool {
			if q[i].Src != q[j].Src {
				return q[i].Src < q[j].Src
			}
			return q[i].Dst < q[j].Dst
		})
		return q
	}
	base := key(append([]Pair(nil), ps...))
	img := make([]Pair, len(ps))
	for _, p := range syms[1:] {
		for i, x := range ps {
			img[i] = Pair{p[x.Src], p[x.Dst]}
		}
		key(img)
		for i := range img {
			if img[i] != base[i] {
				if img[i].Src < base[i].Src || img[i].Src == base[i].Src && img[i].Dst < base[i].Dst {
					return false
				}
				break
			}
		}
	}
	return true
}
