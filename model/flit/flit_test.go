package flit

import (
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// bfs is the tiny explorer of these tests: it returns the number of reachable states,
// whether a deadlock (non-terminal state without successors) is reachable, and the first
// invariant violation.
func bfs(t testing.TB, m *Model) (states int, deadlock bool, err error) {
	t.Helper()
	seen := map[string]bool{}
	queue := m.Init()
	for _, s := range queue {
		seen[string(m.Encode(s, nil))] = true
	}
	var succ []checker.Transition[State]
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if e := m.CheckAll(s); e != nil && err == nil {
			err = e
		}
		succ = m.Successors(s, succ[:0])
		if len(succ) == 0 && !m.Terminal(s) {
			deadlock = true
		}
		for _, tr := range succ {
			k := string(m.Encode(tr.Next, nil))
			if !seen[k] {
				seen[k] = true
				queue = append(queue, tr.Next)
			}
		}
	}
	return len(seen), deadlock, err
}

func grid(t testing.TB, spec string) *topology.Network {
	t.Helper()
	g, err := topology.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func unicasts(l int, pairs ...int) []Message {
	var ms []Message
	for i := 0; i+1 < len(pairs); i += 2 {
		ms = append(ms, Message{Source: topology.NodeID(pairs[i]), Dests: []topology.NodeID{topology.NodeID(pairs[i+1])}, Length: l})
	}
	return ms
}

func mustNew(t testing.TB, cfg Config) *Model {
	t.Helper()
	m, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestStateCounts pins exact state counts on instances small enough to count by hand.
//
// One worm 0->1 on mesh:2 (one channel, one VC), states written (sent, buffer, got):
//   - L=1, B=1: (0,[],0) -> (1,[0],0) -> delivered and released: 3 states.
//   - L=2, B=1: (0,[],0), (1,[0],0), (1,[],1), (2,[1],1), final: 5 states (the tail
//     cannot enter before the header is delivered).
//   - L=2, B=2: as above plus (2,[0 1],0), from which the header is delivered into the
//     already counted (2,[1],1): 6 states.
//
// Two worms 0->1 and 1->0 with L=1, B=1 use disjoint channels: 3*3 = 9 states.
func TestStateCounts(t *testing.T) {
	g := grid(t, "mesh:2")
	for _, tc := range []struct {
		name string
		msgs []Message
		b    int
		want int
	}{
		{"L1B1", unicasts(1, 0, 1), 1, 3},
		{"L2B1", unicasts(2, 0, 1), 1, 5},
		{"L2B2", unicasts(2, 0, 1), 2, 6},
		{"two", unicasts(1, 0, 1, 1, 0), 1, 9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := mustNew(t, NewGridConfig(g, false, 1, tc.b, AllPort, tc.msgs))
			n, dl, err := bfs(t, m)
			if err != nil || dl || n != tc.want {
				t.Fatalf("states %d deadlock %v err %v; want %d states, no deadlock", n, dl, err, tc.want)
			}
		})
	}
}

// step applies the transition with the given action label prefix and fails if absent.
func step(t *testing.T, m *Model, s State, label string) State {
	t.Helper()
	var labels []string
	for _, tr := range m.Successors(s, nil) {
		l := m.Describe(s, tr.Action)
		if l == label {
			if err := m.CheckAll(tr.Next); err != nil {
				t.Fatalf("after %q: %v", label, err)
			}
			return tr.Next
		}
		labels = append(labels, l)
	}
	t.Fatalf("%q is not enabled; enabled: %q\nstate:\n%s", label, labels, m.Format(s))
	return s
}

func enabled(m *Model, s State) []string {
	var out []string
	for _, tr := range m.Successors(s, nil) {
		out = append(out, m.Describe(s, tr.Action))
	}
	return out
}

// TestTransitionRules walks one worm through every unicast rule: header allocation (a
// choice among free VCs), blocked moves on a full buffer, delivery, and tail release.
func TestTransitionRules(t *testing.T) {
	g := grid(t, "mesh:3")
	m := mustNew(t, NewGridConfig(g, false, 2, 1, AllPort, unicasts(2, 0, 2)))
	s := m.Init()[0]
	if got := enabled(m, s); strings.Join(got, "|") != "m0 flit 0 takes (0)->(1).vc0|m0 flit 0 takes (0)->(1).vc1" {
		t.Fatalf("header allocation choices: %q", got)
	}
	s = step(t, m, s, "m0 flit 0 takes (0)->(1).vc1")
	// The body cannot enter the full one-flit buffer; only the header advances.
	if got := enabled(m, s); strings.Join(got, "|") != "m0 flit 0 takes (1)->(2).vc0|m0 flit 0 takes (1)->(2).vc1" {
		t.Fatalf("blocked body: %q", got)
	}
	s = step(t, m, s, "m0 flit 0 takes (1)->(2).vc0")
	s = step(t, m, s, "m0 flit 1 (0)->(1).vc1")
	if s.VCs[m.vcIndex(t, g, 0, 1, 1)].Closed != true || !s.Msgs[0].Done {
		t.Fatalf("tail left the source: vc not closed or source not done:\n%s", m.Format(s))
	}
	s = step(t, m, s, "m0 flit 0 delivered at (2)")
	s = step(t, m, s, "m0 flit 1 (1)->(2).vc0")
	if s.VCs[m.vcIndex(t, g, 0, 1, 1)].Owner != -1 {
		t.Fatalf("tail release: first vc still held:\n%s", m.Format(s))
	}
	s = step(t, m, s, "m0 flit 1 delivered at (2)")
	if !m.Terminal(s) || len(m.Successors(s, nil)) != 0 {
		t.Fatalf("not terminal:\n%s", m.Format(s))
	}
}

func (m *Model) vcIndex(t *testing.T, g *topology.Network, from, to, vc int) int {
	for c := 0; c < g.Channels(); c++ {
		ch := g.Channel(topology.ChannelID(c))
		if int(ch.From) == from && int(ch.To) == to {
			return c*m.cfg.VCs + vc
		}
	}
	t.Fatalf("no channel %d->%d", from, to)
	return 0
}

// TestOnePort checks that one-port nodes inject and eject one worm at a time and that
// all-port nodes do not.
func TestOnePort(t *testing.T) {
	g := grid(t, "mesh:3")
	// Two worms from node 1, to 0 and to 2: one-port serialises their injection.
	for _, tc := range []struct {
		ports Ports
		want  int
	}{{OnePort, 1}, {AllPort, 2}} {
		m := mustNew(t, NewGridConfig(g, false, 1, 1, tc.ports, unicasts(2, 1, 0, 1, 2)))
		s := m.Init()[0]
		if n := len(m.Successors(s, nil)); n != 2 {
			t.Fatalf("%v: %d initial transitions", tc.ports, n)
		}
		s = step(t, m, s, "m0 flit 0 takes (1)->(0).vc0")
		if n := len(m.Successors(s, nil)); n != tc.want {
			t.Fatalf("%v injection: %d transitions after the first header, want %d: %q", tc.ports, n, tc.want, enabled(m, s))
		}
	}
	// Two worms into node 1 from 0 and 2: one-port serialises their ejection.
	for _, tc := range []struct {
		ports Ports
		want  int
	}{{OnePort, 1}, {AllPort, 2}} {
		m := mustNew(t, NewGridConfig(g, false, 1, 1, tc.ports, unicasts(2, 0, 1, 2, 1)))
		s := m.Init()[0]
		s = step(t, m, s, "m0 flit 0 takes (0)->(1).vc0")
		s = step(t, m, s, "m1 flit 0 takes (2)->(1).vc0")
		s = step(t, m, s, "m0 flit 0 delivered at (1)")
		if n := len(m.Successors(s, nil)); n != tc.want {
			t.Fatalf("%v ejection: %d transitions, want %d: %q", tc.ports, n, tc.want, enabled(m, s))
		}
	}
}

// TestDeliveryChannels: a node delivers at most as many worms at once as it has delivery
// channels — one under one-port, 2n on an n-dimensional network under all-port (as in
// checker/sim). On mesh:3 with two VCs per channel, three worms 0->1, 0->1, 2->1 can all
// have their headers at node 1; all-port delivers two of them at once, one-port one.
func TestDeliveryChannels(t *testing.T) {
	g := grid(t, "mesh:3")
	for _, tc := range []struct {
		ports Ports
		want  int
	}{{OnePort, 1}, {AllPort, 2}} {
		m := mustNew(t, NewGridConfig(g, false, 2, 1, tc.ports, unicasts(3, 0, 1, 0, 1, 2, 1)))
		most, full, waiting := 0, 0, 0
		seen := map[string]bool{}
		queue := m.Init()
		for len(queue) > 0 {
			s := queue[0]
			queue = queue[1:]
			if err := m.CheckAll(s); err != nil {
				t.Fatalf("%v: %v", tc.ports, err)
			}
			k := m.ejecting(&s, 1)
			most = max(most, k)
			if k == tc.want {
				full++
				// A header at node 1 that has not reserved delivery waits for a channel.
				for _, o := range m.into[1] {
					if v := &s.VCs[o]; v.Owner >= 0 && v.In.Outs == 0 && v.Flits.Len(m.tab) > 0 {
						waiting++
					}
				}
			}
			for _, tr := range m.Successors(s, nil) {
				if e := string(m.Encode(tr.Next, nil)); !seen[e] {
					seen[e] = true
					queue = append(queue, tr.Next)
				}
			}
		}
		if most != tc.want || full == 0 || waiting == 0 {
			t.Errorf("%v: at most %d worms delivered at once (want %d), %d states with every delivery channel held, %d headers waiting in them", tc.ports, most, tc.want, full, waiting)
		}
	}
}

// TestRingDeadlock is WH2's core at the model level: four 2-hop worms on torus:4 without
// dateline classes deadlock; with dateline classes (2 VCs) they do not.
func TestRingDeadlock(t *testing.T) {
	g := grid(t, "torus:4")
	ms := unicasts(2, 0, 2, 1, 3, 2, 0, 3, 1)
	_, dl, err := bfs(t, mustNew(t, NewGridConfig(g, false, 1, 1, AllPort, ms)))
	if !dl || err != nil {
		t.Fatalf("no dateline: deadlock %v err %v; want a deadlock", dl, err)
	}
	_, dl, err = bfs(t, mustNew(t, NewGridConfig(g, true, 2, 1, AllPort, ms)))
	if dl || err != nil {
		t.Fatalf("dateline: deadlock %v err %v; want none", dl, err)
	}
}

// naiveNext is the naive twin of the routing lookup: walk dimension order from the
// source, one coordinate at a time, tracking wrap-arounds per dimension for the class.
func naiveNext(g *topology.Network, dateline bool, src, dst, at topology.NodeID) (ch topology.ChannelID, class uint8, ok bool) {
	cur := g.Coords(src)
	want := g.Coords(dst)
	for d := 0; d < g.Dims(); d++ {
		k := g.Size(d)
		wrapped := false
		for cur[d] != want[d] {
			fwd := ((want[d]-cur[d])%k + k) % k
			dir, next := topology.Plus, cur[d]+1
			if !g.Wraps(d) {
				if want[d] < cur[d] {
					dir, next = topology.Minus, cur[d]-1
				}
			} else if fwd > k-fwd {
				dir, next = topology.Minus, cur[d]-1
			}
			if next == k || next == -1 {
				wrapped = true
				next = (next + k) % k
			}
			c := g.ChannelOut(g.Node(cur...), d, dir)
			cl := uint8(0)
			if wrapped && dateline {
				cl = 1
			}
			if g.Node(cur...) == at {
				return c, cl, true
			}
			cur[d] = next
		}
	}
	return 0, 0, false
}

func TestRoutingAgainstNaiveTwin(t *testing.T) {
	for _, spec := range []string{"mesh:3x4", "torus:4x3", "torus:5", "torus:3x3x2", "hypercube:3"} {
		g := grid(t, spec)
		for _, dl := range []bool{false, true} {
			for s := 0; s < g.Nodes(); s++ {
				for d := 0; d < g.Nodes(); d++ {
					if s == d {
						continue
					}
					vcs := 1
					if dl && g.Kind() == topology.Torus {
						vcs = 2
					}
					m := mustNew(t, NewGridConfig(g, dl, vcs, 1, AllPort, unicasts(1, s, d)))
					st := m.Init()[0]
					c := cursor{input: 0, msg: 0, vc: -1, at: topology.NodeID(s), in: st.Msgs[0].In}
					var rb []routing.Output
					for hops := 0; c.at != topology.NodeID(d); hops++ {
						ch, cl, ok := naiveNext(g, dl && g.Kind() == topology.Torus, topology.NodeID(s), topology.NodeID(d), c.at)
						outs := m.permitted(&st, c, 0, &rb)
						if !ok || len(outs) != 1 || outs[0].Channel != ch || outs[0].VC != int(cl) || hops > g.Nodes() {
							t.Fatalf("%s dateline %v %d->%d at %d: model %v, naive %d/%d (ok %v)", spec, dl, s, d, c.at, outs, ch, cl, ok)
						}
						o := int(ch)*vcs + int(cl)
						c = cursor{input: 1 + o, msg: 0, vc: o, at: m.vcTo[o], in: st.VCs[o].In}
					}
				}
			}
		}
	}
}

// randomState walks seed-driven random transitions from the initial state.
func randomState(m *Model, seed int64, steps int) State {
	s := m.Init()[0]
	x := uint64(seed)*0x9e3779b97f4a7c15 + 1
	for i := 0; i < steps; i++ {
		succ := m.Successors(s, nil)
		if len(succ) == 0 {
			break
		}
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		s = succ[x%uint64(len(succ))].Next
	}
	return s
}

func testModels(t testing.TB) []*Model {
	g := grid(t, "mesh:3x3")
	tor := grid(t, "torus:4")
	mc := []Message{
		{Source: 4, Dests: []topology.NodeID{8, 2, 6, 0}, Length: 2, Multicast: true},
		{Source: 0, Dests: []topology.NodeID{8}, Length: 3},
		{Source: 8, Dests: []topology.NodeID{0, 1, 3}, Length: 1, Multicast: true},
	}
	cfgM := NewGridConfig(g, false, 2, 2, OnePort, mc)
	cfgM.Prune = PruneOnStop
	// Tree multicast over minimal adaptive routing, and worms under a budgeted
	// non-minimal relation.
	cfgA := NewRelationConfig(minimalAdaptive{g, 1}, 2, 1, AllPort, mc[:2])
	cfgA.Prune = PrunePartial
	cfgB := NewRelationConfig(budgeted{misrouting{g, 2}}, 0, 1, OnePort, unicasts(2, 0, 8, 4, 2))
	return []*Model{
		mustNew(t, NewGridConfig(g, false, 1, 2, AllPort, unicasts(3, 0, 8, 8, 0, 2, 6))),
		mustNew(t, NewGridConfig(tor, true, 2, 1, OnePort, unicasts(2, 0, 2, 1, 3, 2, 0, 3, 1))),
		mustNew(t, cfgM),
		mustNew(t, cfgA),
		mustNew(t, cfgB),
	}
}

// TestEncodeRoundTrip: Decode(Encode(s)) re-encodes to the same bytes and prints the same,
// for random reachable states (seeded gopter property).
func TestEncodeRoundTrip(t *testing.T) {
	ms := testModels(t)
	params := gopter.DefaultTestParametersWithSeed(20261121)
	params.MinSuccessfulTests = 300
	props := gopter.NewProperties(params)
	props.Property("decode inverts encode", prop.ForAll(func(which int, seed int64, steps int) bool {
		m := ms[which]
		s := randomState(m, seed, steps)
		enc := m.Encode(s, nil)
		d, err := m.Decode(enc)
		if err != nil {
			t.Logf("decode: %v", err)
			return false
		}
		return string(m.Encode(d, nil)) == string(enc) && m.Format(d) == m.Format(s)
	}, gen.IntRange(0, len(ms)-1), gen.Int64(), gen.IntRange(0, 60)))
	props.TestingRun(t)
}

func FuzzDecode(f *testing.F) {
	ms := testModels(f)
	for i, m := range ms {
		f.Add(i, m.Encode(randomState(m, 7, 20), nil))
	}
	f.Fuzz(func(t *testing.T, which int, data []byte) {
		if which < 0 {
			which = -which
		}
		m := ms[which%len(ms)]
		s, err := m.Decode(data)
		if err != nil {
			return
		}
		if got := m.Encode(s, nil); string(got) != string(data) {
			t.Fatalf("re-encoding differs: %x vs %x", got, data)
		}
		_ = m.Format(s)
	})
}

// TestInvariantsCatchViolations corrupts reachable states and checks that each invariant
// notices (a check that cannot fail is no check).
func TestInvariantsCatchViolations(t *testing.T) {
	m := testModels(t)[0]
	s := randomState(m, 3, 8)
	var held int = -1
	for o, v := range s.VCs {
		if v.Owner >= 0 && v.Flits.Len(m.tab) > 0 {
			held = o
			break
		}
	}
	if held < 0 {
		t.Fatal("no held vc in the sample state")
	}
	for _, tc := range []struct {
		inv    string
		mutate func(s *State)
	}{
		{"buffers", func(s *State) { s.VCs[held].Flits = m.tab.MakeBytes([]uint8{0, 1, 2}) }},
		{"ownership", func(s *State) { s.VCs[held].Owner = (s.VCs[held].Owner + 1) % 3; s.VCs[held].Closed = false }},
		{"order", func(s *State) { s.VCs[held].Flits = m.tab.MakeBytes([]uint8{1, 0}) }},
		{"exactly-once", func(s *State) { s.Msgs[0].Got = m.tab.MakeBytes([]uint8{9}) }},
	} {
		c := s.shallow()
		tc.mutate(&c)
		var err error
		for _, inv := range m.Invariants() {
			if inv.Name == tc.inv {
				err = inv.Check(c)
			}
		}
		if err == nil {
			t.Errorf("invariant %s missed the corruption", tc.inv)
		}
	}
	// routes: a worm 1->2 whose source reserved the channel 1->0, which the relation
	// does not permit.
	g := grid(t, "mesh:3")
	m2 := mustNew(t, NewGridConfig(g, false, 1, 1, AllPort, unicasts(1, 1, 2)))
	s2 := m2.Init()[0]
	o := m2.vcIndex(t, g, 1, 0, 0)
	s2.VCs[o] = VC{Owner: 0, Flits: m2.tab.MakeBytes([]uint8{0}), In: Input{Cur: -1}}
	s2.Msgs[0].Sent = 1
	s2.Msgs[0].In = Input{Outs: singleOut(Out(o)), Cur: 0}
	if err := m2.checkRoutes(s2); err == nil {
		t.Error("invariant routes missed a worm off its path")
	}
}
