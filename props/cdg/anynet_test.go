package cdg_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/cdg"
	"github.com/wormcheck/wormcheck/props/check"
)

// analyze proves the built-in relation name on topology spec.
func analyze(t *testing.T, spec, name string) (*cdg.Result, routing.Relation) {
	t.Helper()
	g, err := topology.Parse(spec)
	if err != nil {
		t.Fatalf("%s: %v", spec, err)
	}
	rel, err := routing.ByName(g, name)
	if err != nil {
		t.Fatalf("%s on %s: %v", name, spec, err)
	}
	res, err := cdg.Analyze(rel, cdg.Options{})
	if err != nil {
		t.Fatalf("%s on %s: %v", name, spec, err)
	}
	return res, rel
}

// TestAnynetRelations pins the static verdicts of the relations of irregular networks:
// up*/down* and fat-tree NCA are acyclic (AN1, AN4), shortest paths close a cycle on a
// ring (AN2), dragonfly minimal routing is cyclic on one VC and acyclic with its classes,
// as Valiant's with three (AN3), and a grid relation on a grid with failed links
// strands headers.
func TestAnynetRelations(t *testing.T) {
	acyclic := func(spec, name string, want bool) {
		t.Helper()
		res, _ := analyze(t, spec, name)
		if res.Acyclic != want || res.Stranded != nil {
			t.Errorf("%s on %s: acyclic %v, stranded %v; want acyclic %v", name, spec, res.Acyclic, res.Stranded, want)
		}
	}
	for seed := 1; seed <= 12; seed++ {
		acyclic(fmt.Sprintf("random:9,14,%d", seed), "updown", true)
		acyclic(fmt.Sprintf("random:9,14,%d", seed), fmt.Sprintf("updown:r%d", seed%9), true)
	}
	acyclic("mesh:6x6/faults=(1,1)-(2,1),(3,3)-(3,4),(4,0)-(4,1)", "updown", true)
	acyclic("file:../../model/topology/testdata/topo/ring_chord.anynet", "updown", true)
	acyclic("file:../../model/topology/testdata/topo/ring_chord.anynet", "shortest-path", false)
	acyclic("file:../../model/topology/testdata/topo/ring6.dot", "shortest-path", false)
	for _, arr := range topology.Arrangements {
		spec := "dragonfly:a=2,p=1,h=1,arrangement=" + arr
		acyclic(spec, "dragonfly-min", true)
		acyclic(spec, "dragonfly-valiant", true)
		acyclic(spec, "dragonfly-min-1vc", false)
	}
	acyclic("fattree:2,3", "fattree-nca", true)
	acyclic("fattree:4,2", "fattree-nca", true)
	res, _ := analyze(t, "mesh:4x4/faults=(1,1)-(2,1)", "dor")
	if res.Stranded == nil {
		t.Errorf("dor on a mesh with a failed link strands no header")
	}
	if res, _ := analyze(t, "mesh:4x4/faults=(1,1)-(2,1)", "west-first"); res.Stranded == nil {
		t.Errorf("west-first on a mesh with a failed link on a westward route strands no header")
	}
}

// TestAnynetStaticAgainstExplorer cross-checks the static verdict with the explorer on
// small irregular networks, as RT1-RT6 do on meshes: where the channel dependency graph
// is acyclic, no placement of up to two worms (length 2, one-flit buffers) deadlocks;
// and the cycle shortest paths close on a ring of four routers is a real deadlock the
// explorer finds.
func TestAnynetStaticAgainstExplorer(t *testing.T) {
	if testing.Short() {
		t.Skip("explores every placement of two worms on several networks")
	}
	for _, spec := range []string{"random:5,6,1", "random:5,6,2", "random:5,7,3", "random:6,7,4", "dragonfly:a=2,p=0,h=1", "mesh:3x3/faults=(1,1)-(2,1)"} {
		for _, name := range []string{"updown", "shortest-path"} {
			res, rel := analyze(t, spec, name)
			rep := explore(t, rel, unicast.Family{MaxWorms: 2, Params: [][2]int{{2, 1}}}, false)
			fr := rep.Family
			if res.Acyclic && fr.Violated > 0 {
				t.Errorf("%s on %s: acyclic statically, but the explorer deadlocks %s", name, spec, fr.Witness.Msgs)
			}
			t.Logf("%s on %s: acyclic %v; explorer: %d instances, %d violated", name, spec, res.Acyclic, fr.Instances, fr.Violated)
		}
	}
	ring := "file:../../model/topology/testdata/topo/ring4.dot"
	res, rel := analyze(t, ring, "shortest-path")
	if res.Acyclic {
		t.Fatalf("shortest-path on the ring %s is acyclic", ring)
	}
	rep := explore(t, rel, unicast.Family{MaxWorms: 4, MinWorms: 4, Params: [][2]int{{2, 1}}}, true)
	if fr := rep.Family; fr.Violated == 0 || rep.Verdict != checker.Violated || !strings.Contains(rep.Reason, "deadlock") {
		t.Fatalf("shortest-path on %s: the explorer finds no deadlock of four worms (%d instances)", ring, fr.Instances)
	}
}

// explore checks every member of fam under rel through the entry (check.Unicast with a
// Family), stopping at the first deadlock with stop.
func explore(t *testing.T, rel routing.Relation, fam unicast.Family, stop bool) *props.Report {
	t.Helper()
	rep, err := check.Unicast{Grid: rel.Grid(), Spec: unicast.Spec{Routing: rel}, Family: &fam, CountAll: !stop}.Check(context.Background(), checker.PropDeadlock, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestUpDownProperty: on random connected networks (seeded gopter property: routers,
// extra links, seed and root drawn), up*/down* routes every pair and its channel
// dependency graph is acyclic, while the naive twin of its distances — Floyd-Warshall
// over legal (up then down) paths — agrees with the hops its routes take.
func TestUpDownProperty(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261127)
	params.MinSuccessfulTests = 60
	ps := gopter.NewProperties(params)
	ps.Property("updown on random networks", prop.ForAll(func(n, extra int, seed uint64, root int) string {
		links := min(n-1+extra, n*(n-1)/2)
		g, err := topology.NewRandomNetwork(n, links, seed)
		if err != nil {
			return err.Error()
		}
		rel, err := routing.NewUpDown(g, topology.NodeID(root%n))
		if err != nil {
			return err.Error()
		}
		res, err := cdg.Analyze(rel, cdg.Options{})
		if err != nil || !res.Acyclic || res.Stranded != nil {
			return fmt.Sprintf("%s root %d: acyclic %v, stranded %v, %v", g.Spec(), root%n, res != nil && res.Acyclic, res != nil && res.Stranded != nil, err)
		}
		// naive twin: legal distances by relaxation over (node, gone down) states
		const inf = 1 << 20
		dist := func(src, dst topology.NodeID) int {
			d := [2][]int{make([]int, n), make([]int, n)}
			for i := range d[0] {
				d[0][i], d[1][i] = inf, inf
			}
			d[0][src] = 0
			for changed := true; changed; {
				changed = false
				for c := topology.ChannelID(0); int(c) < g.Channels(); c++ {
					ch := g.Channel(c)
					for down := 0; down < 2; down++ {
						if d[down][ch.From] == inf || rel.Up(c) && down == 1 {
							continue
						}
						next := down
						if !rel.Up(c) {
							next = 1
						}
						if d[down][ch.From]+1 < d[next][ch.To] {
							d[next][ch.To], changed = d[down][ch.From]+1, true
						}
					}
				}
			}
			return min(d[0][dst], d[1][dst])
		}
		for s := topology.NodeID(0); int(s) < n; s++ {
			for d := topology.NodeID(0); int(d) < n; d++ {
				if s == d {
					continue
				}
				h := routing.Header{At: s, In: routing.Input{Channel: routing.Injection}, Src: s, Dst: d}
				hops := 0
				for h.At != d {
					outs := rel.Route(h, nil)
					if len(outs) == 0 || hops > n*n {
						return fmt.Sprintf("%s: %d->%d stranded", g.Spec(), s, d)
					}
					o := outs[len(outs)-1] // the least preferred: any choice is a shortest legal route
					h = routing.Header{At: g.Channel(o.Channel).To, In: routing.Input{Channel: o.Channel}, Src: s, Dst: d}
					hops++
				}
				if want := dist(s, d); hops != want {
					return fmt.Sprintf("%s root %d: %d->%d takes %d hops; the shortest legal route has %d", g.Spec(), root%n, s, d, hops, want)
				}
			}
		}
		return ""
	}, gen.IntRange(2, 10), gen.IntRange(0, 8), gen.UInt64(), gen.IntRange(0, 9)))
	ps.TestingRun(t)
}
