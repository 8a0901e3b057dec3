package flit

import (
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/topology"
)

func mcast(src int, length int, dests ...int) Message {
	ds := make([]topology.NodeID, len(dests))
	for i, d := range dests {
		ds[i] = topology.NodeID(d)
	}
	return Message{Source: topology.NodeID(src), Dests: ds, Length: length, Multicast: true}
}

// TestBranching walks one multicast through 000 §2.1's cases on the line 0-1-2: at node
// 0 the address of d2=1 follows the branch d1=2 opened (case (b), no data after it); at
// node 1 it opens a new branch into the ejection channel (case (a)) and the data is
// re-injected from the auxiliary buffer.
func TestBranching(t *testing.T) {
	g := grid(t, "mesh:3")
	m := mustNew(t, NewGridConfig(g, false, 1, 2, AllPort, []Message{mcast(0, 1, 2, 1)}))
	s := m.Init()[0]
	for _, l := range []string{
		"m0 addr d1=(2) takes (0)->(1).vc0",
		"m0 flit 1 (0)->(1).vc0", // the data, copied to the source's aux buffer
		"m0 addr d1=(2) takes (1)->(2).vc0",
		"m0 addr d2=(1) follows (0)->(1).vc0", // case (b)
		"m0 flit 1 (1)->(2).vc0",
		"m0 addr d2=(1) delivered at (1)",  // case (a): a new branch into the ejection channel
		"m0 flit 1 (aux) delivered at (1)", // the data re-injected from the aux buffer
		"m0 addr d1=(2) delivered at (2)",
		"m0 flit 1 delivered at (2)",
	} {
		s = step(t, m, s, l)
	}
	if !m.Terminal(s) {
		t.Fatalf("not terminal:\n%s", m.Format(s))
	}
	if err := m.CheckAll(s); err != nil {
		t.Fatal(err)
	}
}

// lineDeadlock is a one-dimensional reconstruction of 000 Fig. 3: on the line 0-1-2-3,
// A at node 1 sends to 3 then 0, B at node 2 sends to 0 then 3. A's branch 1->2->3 is
// kept while node 1 waits for A's next address, which needs 1->0, held by B's branch
// 2->1->0, kept while node 2 waits for B's next address, which needs 2->3, held by A.
func lineDeadlock(p Prune, ports Ports) Config {
	g, _ := topology.NewMesh(4)
	cfg := NewGridConfig(g, false, 1, 2, ports, []Message{mcast(1, 1, 3, 0), mcast(2, 1, 0, 3)})
	cfg.Prune = p
	return cfg
}

// upstreamStop is the instance on which pruning only where a header finds no free output
// (PruneOnNoFree) is not enough, found by the checker on random pairs of multicasts: on
// mesh:3x3 with B=1, A at (2,2) sends to (2,0) then (1,1), B at (1,2) sends to (1,0) then
// (2,0). Each source opens its second branch, whose address flit fills the one-flit
// buffer of the next router, and stops re-injecting the data into it; that router's
// header waits for a channel held by the other message's first branch, which its source
// keeps because it is stopped too (not at a header). The first branches are released only
// by pruning at the stopped sources (000 §3: "pruning is also performed at those nodes").
func upstreamStop(p Prune, ports Ports) Config {
	g, _ := topology.NewMesh(3, 3)
	cfg := NewGridConfig(g, false, 1, 1, ports, []Message{mcast(8, 1, 2, 4), mcast(7, 1, 1, 2)})
	cfg.Prune = p
	return cfg
}

func TestPruningPolicies(t *testing.T) {
	for _, tc := range []struct {
		p        Prune
		ports    Ports
		deadlock bool
	}{
		{PruneNone, AllPort, true},
		{PruneOnNoFree, AllPort, true},
		{PruneOnStop, AllPort, false},
		{PruneOnStop, OnePort, false},
		{PrunePartial, AllPort, false},
	} {
		t.Run("upstream/"+tc.p.String()+"/"+tc.ports.String(), func(t *testing.T) {
			n, dl, err := bfs(t, mustNew(t, upstreamStop(tc.p, tc.ports)))
			if err != nil || dl != tc.deadlock {
				t.Fatalf("%d states, deadlock %v, err %v; want deadlock %v", n, dl, err, tc.deadlock)
			}
		})
	}
	for _, tc := range []struct {
		p        Prune
		ports    Ports
		deadlock bool
	}{
		{PruneNone, AllPort, true},
		{PruneNone, OnePort, true},
		{PruneOnNoFree, AllPort, false},
		{PruneOnNoFree, OnePort, false},
		{PruneOnStop, AllPort, false},
		{PruneOnStop, OnePort, false},
		{PrunePartial, AllPort, false},
	} {
		t.Run("line/"+tc.p.String()+"/"+tc.ports.String(), func(t *testing.T) {
			m := mustNew(t, lineDeadlock(tc.p, tc.ports))
			n, dl, err := bfs(t, m)
			if err != nil || dl != tc.deadlock {
				t.Fatalf("%d states, deadlock %v, err %v; want deadlock %v", n, dl, err, tc.deadlock)
			}
		})
	}
}

// TestMixedTraffic: a multicast from the centre of mesh:3x3 to three corners, mixed
// with a unicast (000 §5.4), delivers exactly once under every pruning policy.
func TestMixedTraffic(t *testing.T) {
	if testing.Short() {
		t.Skip("explores ~10^4 states")
	}
	g := grid(t, "mesh:3x3")
	for _, p := range []Prune{PruneOnNoFree, PruneOnStop} {
		cfg := NewGridConfig(g, false, 1, 2, OnePort, []Message{
			mcast(4, 1, 8, 0, 2),
			{Source: 0, Dests: []topology.NodeID{8}, Length: 2},
		})
		cfg.Prune = p
		n, dl, err := bfs(t, mustNew(t, cfg))
		if dl || err != nil {
			t.Fatalf("%v: %d states, deadlock %v, err %v", p, n, dl, err)
		}
		t.Logf("%v: %d states", p, n)
	}
}

func TestPruneNames(t *testing.T) {
	for p := PruneNone; p <= PrunePartial; p++ {
		q, err := ParsePrune(p.String())
		if err != nil || q != p {
			t.Fatalf("%v: %v %v", p, q, err)
		}
	}
	if _, err := ParsePrune("sometimes"); err == nil || !strings.Contains(err.Error(), "sometimes") {
		t.Fatalf("bad policy accepted: %v", err)
	}
	// 000's names: total prunes when a header finds no free output (§4), total-stall
	// whenever a branch stops (§3, §5.3).
	for s, want := range map[string]Prune{"total": PruneOnNoFree, "total-stall": PruneOnStop} {
		if got, err := ParsePrune(s); err != nil || got != want {
			t.Errorf("%s: %v, %v; want %v", s, got, err, want)
		}
	}
}

// TestExplain checks the structured moves against the labels along a random run.
func TestExplain(t *testing.T) {
	for _, m := range testModels(t) {
		s := m.Init()[0]
		for i := 0; i < 40; i++ {
			succ := m.Successors(s, nil)
			if len(succ) == 0 {
				break
			}
			tr := succ[i%len(succ)]
			mv, err := m.Explain(s, tr.Action)
			if err != nil {
				t.Fatal(err)
			}
			label := m.Describe(s, tr.Action)
			if !strings.HasPrefix(label, "m") || mv.Msg < 0 || (mv.Kind != KindPrune && mv.To == None) {
				t.Fatalf("%q: %+v", label, mv)
			}
			if mv.To == Eject && !strings.Contains(label, "delivered") || mv.To >= 0 && !strings.Contains(label, m.VCName(mv.To)) {
				t.Fatalf("%q disagrees with %+v", label, mv)
			}
			s = tr.Next
		}
	}
}

// firstDeadlock returns a reachable deadlocked state of m (breadth-first), if any.
func firstDeadlock(m *Model) (State, bool) {
	seen := map[string]bool{}
	queue := m.Init()
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		succ := m.Successors(s, nil)
		if len(succ) == 0 && !m.Terminal(s) {
			return s, true
		}
		for _, tr := range succ {
			if k := string(m.Encode(tr.Next, nil)); !seen[k] {
				seen[k] = true
				queue = append(queue, tr.Next)
			}
		}
	}
	return State{}, false
}

// TestWaitsNamesTheCycle: the explanation of 000 Fig. 3's deadlock (its line version)
// names the two messages waiting on each other.
func TestWaitsNamesTheCycle(t *testing.T) {
	m := mustNew(t, lineDeadlock(PruneNone, AllPort))
	s, ok := firstDeadlock(m)
	if !ok {
		t.Fatal("no deadlock")
	}
	if w := m.Waits(s); !strings.HasPrefix(w, "wait-for cycle m0 -> m1 -> m0: ") {
		t.Fatalf("Waits = %q\n%s", w, m.Format(s))
	}
}
