package cdg

import (
	"fmt"
	"runtime"
	"slices"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Graph is the whole channel dependency graph of a relation on its topology (Dally &
// Seitz): its vertices are the (channel, VC) pairs some reachable header holds, and it
// has an edge From -> To when some header that can hold From — reachable from some
// source toward some destination, not yet at it — is offered To. It is the graph
// Analyze decides, built over every destination (Analyze may stop at the first
// destinations that close a cycle); use it to map a wait-for cycle of a deadlock onto
// the dependencies the relation creates, or to draw or count them.
//
// Reference: Dally & Seitz, IEEE TC 36(5), 1987, Definition 3 (channel dependency
// graph); Duato, IEEE TPDS 4(12), 1993, Definition 5 (over a routing relation).
type Graph struct {
	g    *topology.Network
	vcs  int
	held []bool
	esc  []bool
	adj  [][]int32 // adj[v]: successors of vertex v, ascending
}

// Edge is one dependency of a Graph, with its labels: the router At where a header
// holding From is offered To, and the turn it makes there in the turn model's words
// ("east->north"; "east->east" for straight on).
type Edge struct {
	From, To Vertex
	At       topology.NodeID
	Turn     string
}

// Dependencies builds the channel dependency graph of rel over every destination. It
// takes the class-based construction for relations that promise
// routing.DestClassed and one search of header states per destination otherwise.
// A relation from outside package model/routing is not trusted to keep those promises:
// its headers are kept apart per source (see Analyze). Errors are one line, as Analyze's. Cost: as Analyze's CDG, without its early stop.
func Dependencies(rel routing.Relation) (*Graph, error) {
	rel = plain(rel)
	s, err := newSearcher(rel)
	if err != nil {
		return nil, err
	}
	rec := classGraph(s, false)
	if rec == nil {
		p, err := sweep(nil, rel, min(2, runtime.GOMAXPROCS(0)), true, false, nil)
		if err != nil {
			return nil, err
		}
		rec = p.rec
	}
	adj, _, _ := s.adjacency(rec)
	for v := range adj {
		slices.Sort(adj[v])
	}
	return &Graph{g: s.g, vcs: s.vcs, held: rec.used, esc: rec.escUsed, adj: adj}, nil
}

// index returns v's vertex index, or -1 when v is not a (channel, VC) of the grid.
func (gr *Graph) index(v Vertex) int {
	if v.Channel < 0 || int(v.Channel) >= gr.g.Channels() || v.VC < 0 || v.VC >= gr.vcs {
		return -1
	}
	return int(v.Channel)*gr.vcs + v.VC
}

func (gr *Graph) vertex(i int32) Vertex {
	return Vertex{Channel: topology.ChannelID(int(i) / gr.vcs), VC: int(i) % gr.vcs}
}

// VCs is the relation's number of virtual channels per physical channel.
func (gr *Graph) VCs() int { return gr.vcs }

// Vertices returns the (channel, VC) pairs some reachable header holds, by channel,
// then VC.
func (gr *Graph) Vertices() []Vertex {
	var out []Vertex
	for i, h := range gr.held {
		if h {
			out = append(out, gr.vertex(int32(i)))
		}
	}
	return out
}

// Held reports whether some reachable header holds v.
func (gr *Graph) Held(v Vertex) bool {
	i := gr.index(v)
	return i >= 0 && gr.held[i]
}

// Escape reports whether the relation's escape subfunction (routing.Escaping) offers
// v to some reachable header; false for a relation without one.
func (gr *Graph) Escape(v Vertex) bool {
	i := gr.index(v)
	return i >= 0 && gr.esc[i]
}

// Has reports whether the dependency from -> to is in the graph. Cost O(VCs x ports).
func (gr *Graph) Has(from, to Vertex) bool {
	i, j := gr.index(from), gr.index(to)
	if i < 0 || j < 0 {
		return false
	}
	for _, w := range gr.adj[i] {
		if int(w) == j {
			return true
		}
	}
	return false
}

// Succ returns the vertices v depends on, in ascending (channel, VC) order.
func (gr *Graph) Succ(v Vertex) []Vertex {
	i := gr.index(v)
	if i < 0 {
		return nil
	}
	out := make([]Vertex, 0, len(gr.adj[i]))
	for _, w := range gr.adj[i] {
		out = append(out, gr.vertex(w))
	}
	return out
}

// Edges returns every dependency with its labels, ordered by From, then To.
func (gr *Graph) Edges() []Edge {
	var out []Edge
	for i, ws := range gr.adj {
		for _, w := range ws {
			out = append(out, gr.edge(gr.vertex(int32(i)), gr.vertex(w)))
		}
	}
	return out
}

func (gr *Graph) edge(from, to Vertex) Edge {
	at := gr.g.Channel(to.Channel).From
	return Edge{From: from, To: to, At: at,
		Turn: routing.ChannelDir(gr.g, from.Channel) + "->" + routing.ChannelDir(gr.g, to.Channel)}
}

// Len returns the number of dependencies.
func (gr *Graph) Len() int {
	n := 0
	for _, ws := range gr.adj {
		n += len(ws)
	}
	return n
}

// Cycle returns a shortest cycle through the first vertex (in (channel, VC) order) that
// lies on a cycle, or nil when the graph is acyclic.
func (gr *Graph) Cycle() []Vertex {
	var out []Vertex
	for _, v := range shortestCycle(gr.adj) {
		out = append(out, gr.vertex(v))
	}
	return out
}

// EdgeName names an edge for people: "(0,0)->(1,0).vc0 -> (1,0)->(1,1).vc0
// (east->north at (1,0))".
func (gr *Graph) EdgeName(e Edge) string {
	return fmt.Sprintf("%s.vc%d -> %s.vc%d (%s at %s)", gr.g.ChannelName(e.From.Channel), e.From.VC,
		gr.g.ChannelName(e.To.Channel), e.To.VC, e.Turn, gr.g.NodeName(e.At))
}
