package unicast_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props/cdg"
)

// vertex is a (channel, relation VC) pair: a vertex of the channel dependency graph
// (props/cdg's Vertex).
type vertex = cdg.Vertex

// naiveCDG is this test's own channel dependency graph of rel: a breadth-first search of
// every header state (router, input channel and VC, source, destination, misroutes of a
// Budgeted relation) reachable from an injection, with an edge from the input to every
// output the relation offers. It is independent of props/cdg.
func naiveCDG(rel routing.Relation) map[vertex]map[vertex]bool {
	g := rel.Grid()
	budget := -1
	if b, ok := rel.(routing.Budgeted); ok {
		budget = b.MisrouteBudget()
	}
	edges := map[vertex]map[vertex]bool{}
	for src := topology.NodeID(0); int(src) < g.Nodes(); src++ {
		for dst := topology.NodeID(0); int(dst) < g.Nodes(); dst++ {
			if src == dst {
				continue
			}
			start := routing.Header{At: src, In: routing.Input{Channel: routing.Injection}, Src: src, Dst: dst}
			seen := map[routing.Header]bool{start: true}
			queue := []routing.Header{start}
			for len(queue) > 0 {
				h := queue[0]
				queue = queue[1:]
				if h.At == dst {
					continue
				}
				for _, o := range rel.Route(h, nil) {
					if h.In.Channel != routing.Injection {
						from := vertex{Channel: h.In.Channel, VC: h.In.VC}
						if edges[from] == nil {
							edges[from] = map[vertex]bool{}
						}
						edges[from][vertex{Channel: o.Channel, VC: o.VC}] = true
					}
					next := routing.Header{At: g.Channel(o.Channel).To, In: routing.Input{Channel: o.Channel, VC: o.VC}, Src: src, Dst: dst, Misroutes: h.Misroutes}
					if budget >= 0 && o.Misroute && next.Misroutes < budget {
						next.Misroutes++
					}
					if !seen[next] {
						seen[next] = true
						queue = append(queue, next)
					}
				}
			}
		}
	}
	return edges
}

// acyclic reports whether the graph has no cycle.
func acyclic(edges map[vertex]map[vertex]bool) bool {
	color := map[vertex]uint8{}
	var dfs func(v vertex) bool
	dfs = func(v vertex) bool {
		color[v] = 1
		for w := range edges[v] {
			if color[w] == 1 || color[w] == 0 && !dfs(w) {
				return false
			}
		}
		color[v] = 2
		return true
	}
	for v := range edges {
		if color[v] == 0 && !dfs(v) {
			return false
		}
	}
	return true
}

// waitCycle returns a cycle of the channel wait-for graph of a deadlocked state: an
// edge from every held virtual channel to the next one its worm holds, and from the
// channel a blocked header sits in to every output the relation offers it (all held, or
// the header could move). Nil if there is none (a stranded header).
func waitCycle(m *flit.Model, rel routing.Relation, s flit.State) []vertex {
	cfg := m.Config()
	tab := m.Table()
	per := cfg.VCs / rel.VCs()
	vx := func(o int) vertex { return vertex{Channel: topology.ChannelID(o / cfg.VCs), VC: o % cfg.VCs / per} }
	adj := map[vertex][]vertex{}
	for o, v := range s.VCs {
		if v.Owner < 0 {
			continue
		}
		if outs := v.In.Outs.Slice(tab); len(outs) == 1 && outs[0] != flit.Eject {
			adj[vx(o)] = append(adj[vx(o)], vx(int(outs[0])))
		} else if len(outs) == 0 && v.Flits.Len(tab) > 0 && v.Flits.At(tab, 0) == 0 {
			msg := cfg.Messages[v.Owner]
			_, at := cfg.Net.Ends(topology.ChannelID(o / cfg.VCs))
			if at == msg.Dests[0] {
				continue
			}
			h := routing.Header{At: at, In: routing.Input{Channel: topology.ChannelID(o / cfg.VCs), VC: o % cfg.VCs / per}, Src: msg.Source, Dst: msg.Dests[0], Misroutes: int(s.Msgs[v.Owner].Mis)}
			for _, r := range rel.Route(h, nil) {
				adj[vx(o)] = append(adj[vx(o)], vertex{Channel: r.Channel, VC: r.VC})
			}
		}
	}
	color := map[vertex]uint8{}
	var stack, found []vertex
	var dfs func(v vertex) bool
	dfs = func(v vertex) bool {
		color[v] = 1
		stack = append(stack, v)
		for _, w := range adj[v] {
			if color[w] == 1 {
				for k, x := range stack {
					if x == w {
						found = append([]vertex(nil), stack[k:]...)
					}
				}
				return true
			}
			if color[w] == 0 && dfs(w) {
				return true
			}
		}
		stack = stack[:len(stack)-1]
		color[v] = 2
		return false
	}
	for o, v := range s.VCs {
		if v.Owner >= 0 && color[vx(o)] == 0 && dfs(vx(o)) {
			return found
		}
	}
	return nil
}

// crossTopo is one topology of the cross-check and how many placements of each size it
// takes: every placement of up to full worms, and every stride-th placement of sizes
// full+1..max.
type crossTopo struct {
	spec      string
	full, max int
	stride    int
}

// TestStaticVerdictsAgainstExplorer cross-checks, for every built-in relation on small
// meshes and tori, the static channel-dependency verdict of props/cdg against the
// explorer on placements of worms (L=2, B=1, all-port):
//
//   - props/cdg's dependency graph (cdg.Dependencies) has exactly the edges of this
//     test's own naive CDG, and Analyze finds it acyclic exactly when it is;
//   - a static "deadlock-free" (Dally & Seitz, or Duato) never meets an explorer deadlock;
//   - every explorer deadlock's channel wait-for cycle is a cycle of props/cdg's graph
//     (each wait-for edge one of its dependencies), or a header is stranded and the
//     static analysis says so.
//
// Reference: Dally & Seitz 1987 Theorem 1; Duato 1993 Theorem 1.
func TestStaticVerdictsAgainstExplorer(t *testing.T) {
	// The 4x4 families are sampled: every placement of up to 3 worms is 2.3M instances
	// per relation there, beyond a test's budget.
	topos := []crossTopo{
		{"mesh:2x2", 3, 4, 7},
		{"mesh:3x3", 2, 3, 397},
		{"torus:3x3", 2, 3, 397},
		{"mesh:4x4", 1, 3, 20011},
		{"torus:4x4", 1, 3, 20011},
	}
	if testing.Short() {
		topos = []crossTopo{{"mesh:2x2", 2, 3, 5}, {"mesh:3x3", 1, 2, 97}, {"torus:3x3", 1, 2, 97}}
	}
	totalMapped := 0
	names := []string{"dor", "dor-1vc", "west-first", "north-last", "negative-first", "odd-even", "adaptive", "duato", "nonminimal", "nonminimal:1"}
	for _, tp := range topos {
		g, err := topology.Parse(tp.spec)
		if err != nil {
			t.Fatal(err)
		}
		for _, name := range names {
			if name == "nonminimal" && g.Nodes() > 4 {
				continue // misroutes without a budget: too many states beyond mesh:2x2
			}
			rel, err := routing.ByName(g, name)
			if err != nil {
				t.Logf("%s %s: not defined (%v)", tp.spec, name, err)
				continue
			}
			static, err := cdg.Analyze(rel, cdg.Options{})
			if err != nil {
				t.Fatalf("%s %s: %v", tp.spec, name, err)
			}
			deps, err := cdg.Dependencies(rel)
			if err != nil {
				t.Fatalf("%s %s: %v", tp.spec, name, err)
			}
			naive := naiveCDG(rel)
			if acyclic(naive) != static.Acyclic || (deps.Cycle() == nil) != static.Acyclic {
				t.Fatalf("%s %s: props/cdg says acyclic=%v, its graph %v, the naive CDG %v", tp.spec, name, static.Acyclic, deps.Cycle() == nil, acyclic(naive))
			}
			nn := 0
			for v, ws := range naive {
				for w := range ws {
					nn++
					if !deps.Has(v, w) {
						t.Fatalf("%s %s: naive dependency %v -> %v is not in cdg.Dependencies", tp.spec, name, v, w)
					}
				}
			}
			if nn != deps.Len() {
				t.Fatalf("%s %s: cdg.Dependencies has %d edges, the naive CDG %d", tp.spec, name, deps.Len(), nn)
			}
			var n, deadlocks, incon, mapped int
			var states int64
			k := 0
			unicast.Placements(unicast.AllPairs(g.Nodes()), tp.max, func(ps []unicast.Pair) bool {
				k++
				if len(ps) > tp.full && k%tp.stride != 0 {
					return true
				}
				n++
				sp := unicast.Spec{Topology: tp.spec, Pairs: ps, Length: 2, Buffer: 1, Ports: model.AllPort, Routing: rel}
				m, err := unicast.BuildOn(g, sp)
				if err != nil {
					t.Fatalf("%s %s %s: %v", tp.spec, name, unicast.FormatPairs(nil, ps), err)
				}
				res := unicast.SearchWith(m, checker.Options[flit.State]{MaxStates: 100_000, Context: context.Background()})
				states += res.States
				switch res.Verdict {
				case checker.Inconclusive:
					incon++
				case checker.Violated:
					deadlocks++
					where := fmt.Sprintf("%s %s %s", tp.spec, name, unicast.FormatPairs(nil, ps))
					if static.DeadlockFree() {
						t.Fatalf("%s: static analysis says deadlock-free, the explorer found %s", where, res.Violation)
					}
					cyc := waitCycle(m, rel, res.Final())
					if cyc == nil {
						if static.Stranded == nil {
							t.Fatalf("%s: a deadlock without a wait-for cycle, and no stranded header statically: %s", where, res.Violation)
						}
						return true
					}
					for i, v := range cyc {
						if w := cyc[(i+1)%len(cyc)]; !deps.Has(v, w) {
							t.Fatalf("%s: wait-for edge %v -> %v of the deadlock is not a dependency of props/cdg's graph", where, v, w)
						}
					}
					mapped++
					if static.Acyclic {
						t.Fatalf("%s: a deadlock's wait-for cycle %v, but props/cdg found the CDG acyclic", where, cyc)
					}
				}
				return true
			})
			totalMapped += mapped
			t.Logf("%s %s: static deadlock-free=%v (CDG acyclic %v, %d edges); %d placements, %d deadlocked (%d wait-for cycles mapped onto cdg's edges), %d inconclusive, %d states", tp.spec, name, static.DeadlockFree(), static.Acyclic, deps.Len(), n, deadlocks, mapped, incon, states)
		}
	}
	if totalMapped == 0 {
		t.Fatal("no explorer deadlock's wait-for cycle was mapped onto props/cdg's graph")
	}
}
