package flit

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
)

// progressEdges walks the reachable states of m breadth-first (at most limit) and checks
// Progress on every transition: it returns how many transitions it checked and the first
// on which the measure did not strictly increase (lexicographically), described.
func progressEdges(m *Model, limit int) (int, string) {
	n, _, bad := progressWalk(m, limit)
	return n, bad
}

// progressWalk is progressEdges that also counts the KindPrune transitions checked.
func progressWalk(m *Model, limit int) (n, prunes int, bad string) {
	seen := map[string]bool{}
	queue := m.Init()
	var a, b []uint32
	for len(queue) > 0 && len(seen) < limit {
		s := queue[0]
		queue = queue[1:]
		a = m.Progress(s, a)
		for _, tr := range m.Successors(s, nil) {
			b = m.Progress(tr.Next, b)
			n++
			if k, _, _ := SplitAction(tr.Action); k == KindPrune {
				prunes++
			}
			if slices.Compare(a, b) >= 0 {
				return n, prunes, fmt.Sprintf("%s: %v -> %v\n%s", m.Describe(s, tr.Action), a, b, m.Format(s))
			}
			if k := string(m.Encode(tr.Next, nil)); !seen[k] {
				seen[k] = true
				queue = append(queue, tr.Next)
			}
		}
	}
	return n, prunes, ""
}

// TestProgressIncreases checks the progress measure on every transition of small
// explored instances: unicast worms under DOR on a mesh, a torus with and without
// dateline classes (the latter deadlocks: the measure still increases on every edge) and
// a hypercube; tree multicasts under every pruning policy, one- and all-port; and
// minimal adaptive routing, unicast and multicast.
func TestProgressIncreases(t *testing.T) {
	mesh, tor, cube, sq := grid(t, "mesh:3x3"), grid(t, "torus:4"), grid(t, "hypercube:3"), grid(t, "mesh:2x3")
	type inst struct {
		name string
		cfg  Config
	}
	insts := []inst{
		{"mesh unicasts", NewGridConfig(mesh, false, 1, 2, AllPort, unicasts(2, 0, 8, 8, 0, 2, 6))},
		{"torus dateline", NewGridConfig(tor, true, 2, 1, OnePort, unicasts(2, 0, 2, 1, 3, 2, 0, 3, 1))},
		{"torus no dateline", NewGridConfig(tor, false, 1, 1, AllPort, unicasts(2, 0, 2, 1, 3, 2, 0, 3, 1))},
		{"hypercube", NewGridConfig(cube, false, 1, 1, OnePort, unicasts(2, 0, 7, 7, 0, 3, 4))},
		{"adaptive square", NewRelationConfig(minimalAdaptive{grid(t, "mesh:2x2"), 1}, 0, 1, AllPort, unicasts(1, 0, 3, 1, 2, 3, 0, 2, 1))},
		{"adaptive 2 VCs", NewRelationConfig(minimalAdaptive{mesh, 2}, 0, 1, OnePort, unicasts(1, 0, 8, 8, 0))},
	}
	for _, p := range []Prune{PruneNone, PruneOnNoFree, PruneOnStop, PrunePartial} {
		for _, ports := range []Ports{OnePort, AllPort} {
			insts = append(insts, inst{fmt.Sprintf("multicast line %v %v", p, ports), lineDeadlock(p, ports)})
			insts = append(insts, inst{fmt.Sprintf("multicast upstream-stop %v %v", p, ports), upstreamStop(p, ports)})
			ad := NewRelationConfig(minimalAdaptive{sq, 1}, 0, 1, ports, []Message{Multicast(0, 1, 5, 2), Multicast(5, 1, 3, 1)})
			ad.Prune = p
			insts = append(insts, inst{fmt.Sprintf("adaptive multicast %v %v", p, ports), ad})
		}
		td := NewGridConfig(tor, true, 2, 2, OnePort, []Message{Multicast(0, 1, 2, 3), Multicast(2, 1, 0, 1)})
		td.Prune = p
		insts = append(insts, inst{fmt.Sprintf("torus multicast %v", p), td})
	}
	prunes := map[Prune]int{}
	for _, in := range insts {
		m := mustNew(t, in.cfg)
		n, np, bad := progressWalk(m, 100000)
		if bad != "" {
			t.Fatalf("%s: progress does not increase on transition %d: %s", in.name, n, bad)
		}
		if n < 10 {
			t.Fatalf("%s: only %d transitions", in.name, n)
		}
		prunes[in.cfg.Prune] += np
		t.Logf("%s: %d transitions, %d prunes", in.name, n, np)
	}
	for _, p := range []Prune{PruneOnNoFree, PruneOnStop, PrunePartial} {
		if prunes[p] == 0 {
			t.Errorf("policy %v: no pruning transition was checked", p)
		}
	}
}

// TestProgressFailsOnMisroutes: a misroute takes a flit no further from its source, so
// under a non-minimal relation the measure breaks on some edge (the explorer's liveness
// check must then decide); the test finds such an edge.
func TestProgressFailsOnMisroutes(t *testing.T) {
	m := mustNew(t, NewRelationConfig(budgeted{misrouting{grid(t, "mesh:2x3"), 1}}, 0, 1, AllPort, unicasts(2, 0, 5)))
	if _, bad := progressEdges(m, 100000); bad == "" {
		t.Fatal("the measure increased on every edge of a misrouting relation")
	}
}

// TestExplorerCertifiesProgress: through the explorer (the EncodeSuccessorsProgress path)
// a deadlock-free DOR instance is certified on every transition, the same instance
// explored through Successors checks as many transitions, and a misrouting relation's
// certificate is broken.
func TestExplorerCertifiesProgress(t *testing.T) {
	m := mustNew(t, NewGridConfig(grid(t, "mesh:3x3"), false, 1, 1, OnePort, unicasts(2, 0, 8, 8, 0, 2, 6)))
	res := explore(t, m)
	if res.Progress == nil || !res.Progress.Certified(res.Verdict) || res.Progress.Checked != res.Stats.Transitions {
		t.Fatalf("DOR: verdict %v, progress %+v, %d transitions", res.Verdict, res.Progress, res.Stats.Transitions)
	}
	p, err := checker.Explore[State](plainProgressive{plain{m}}, checker.Options[State]{CheckDeadlock: true})
	if err != nil {
		t.Fatal(err)
	}
	if p.Progress == nil || p.Progress.Checked != res.Progress.Checked || p.Stats.States != res.Stats.States {
		t.Fatalf("through Successors: %+v, %d states; encoder path %+v, %d states", p.Progress, p.Stats.States, res.Progress, res.Stats.States)
	}
	mis := mustNew(t, NewRelationConfig(budgeted{misrouting{grid(t, "mesh:2x3"), 1}}, 0, 1, AllPort, unicasts(2, 0, 5)))
	if r := explore(t, mis); r.Progress == nil || r.Progress.Broken == nil {
		t.Fatalf("misrouting: certificate %+v", r.Progress)
	}
}

// plainProgressive is plain (no SuccessorEncoder) with the model's Progress.
type plainProgressive struct{ plain }

func (p plainProgressive) Progress(s State, buf []uint32) []uint32 { return p.m.Progress(s, buf) }
