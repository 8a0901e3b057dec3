package flit

import (
	"fmt"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
)

// randomModel builds a small random instance from seed: a grid, a routing relation (DOR
// with dateline classes or not, minimal adaptive, non-minimal with or without a misroute
// budget), VCs per relation VC, buffer depth, port model, pruning policy and up to three unicast or tree
// multicast messages. It returns nil when the drawn instance is not a valid config.
func randomModel(t testing.TB, seed uint64) *Model {
	x := seed*0x9e3779b97f4a7c15 + 0x632be59bd9b4e019
	rnd := func(n int) int {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		return int(x % uint64(n))
	}
	specs := []string{"mesh:3x3", "torus:4", "mesh:2x3", "torus:3x3", "hypercube:3", "torus:5"}
	g := grid(t, specs[rnd(len(specs))])
	dl := g.Kind() == topology.Torus && rnd(2) == 0
	classes := 1
	if dl {
		classes = 2
	}
	vcs := classes * (1 + rnd(2))
	buffer := 1 + rnd(3)
	ports := AllPort
	if rnd(2) == 0 {
		ports = OnePort
	}
	var msgs []Message
	for i, n := 0, 1+rnd(3); i < n; i++ {
		src := topology.NodeID(rnd(g.Nodes()))
		mc := rnd(2) == 0
		nd := 1
		if mc {
			nd = 1 + rnd(3)
		}
		var dests []topology.NodeID
		for len(dests) < nd {
			d := topology.NodeID(rnd(g.Nodes()))
			dup := d == src
			for _, e := range dests {
				dup = dup || e == d
			}
			if !dup {
				dests = append(dests, d)
			}
		}
		msgs = append(msgs, Message{Source: src, Dests: dests, Length: 1 + rnd(3), Multicast: mc})
	}
	cfg := NewGridConfig(g, dl, vcs, buffer, ports, msgs)
	switch rnd(6) {
	case 0, 1: // minimal adaptive, one or two relation VCs
		rel := minimalAdaptive{g, 1 + rnd(2)}
		cfg = NewRelationConfig(rel, rel.vcs*(1+rnd(2)), buffer, ports, msgs)
	case 2: // non-minimal, with or without a budget
		if rnd(2) == 0 {
			cfg = NewRelationConfig(budgeted{misrouting{g, rnd(3)}}, 0, buffer, ports, msgs)
		} else {
			cfg = NewRelationConfig(misrouting{g, -1}, 0, buffer, ports, msgs)
		}
	}
	cfg.Prune = Prune(rnd(4))
	m, err := New(cfg)
	if err != nil {
		return nil
	}
	if rnd(2) == 0 {
		m.rcache = nil // the path of models too large for the route cache
	}
	return m
}

// compareStep checks the optimised Successors, Successor, EncodeSuccessors, Encode and
// Terminal of m at s against the naive twins of ref_test.go, and that none mutates s.
func compareStep(m *Model, s State) error {
	before := m.refEncode(s, nil)
	if got := m.Encode(s, nil); string(got) != string(before) {
		return fmt.Errorf("Encode %x, reference %x", got, before)
	}
	if got, want := m.orderKey(s, nil), m.refOrderKey(s, nil); string(got) != string(want) {
		return fmt.Errorf("orderKey %x, reference %x", got, want)
	}
	if m.Terminal(s) != m.refTerminal(s) {
		return fmt.Errorf("Terminal %v, reference %v", m.Terminal(s), m.refTerminal(s))
	}
	got := m.Successors(s, nil)
	want := m.refSuccessors(s, nil)
	if string(m.refEncode(s, nil)) != string(before) {
		return fmt.Errorf("Successors mutated its state")
	}
	if len(got) != len(want) {
		return fmt.Errorf("%d successors, reference %d", len(got), len(want))
	}
	for j := range got {
		if got[j].Action != want[j].Action {
			return fmt.Errorf("successor %d: action %#x, reference %#x", j, uint64(got[j].Action), uint64(want[j].Action))
		}
		a, b := m.Encode(got[j].Next, nil), m.refEncode(want[j].Next, nil)
		if string(a) != string(b) || string(m.refEncode(got[j].Next, nil)) != string(b) {
			return fmt.Errorf("successor %d (%s): encoding %x, reference %x", j, m.Describe(s, got[j].Action), a, b)
		}
		if fa, fb := m.Format(got[j].Next), m.Format(want[j].Next); fa != fb {
			return fmt.Errorf("successor %d: state\n%s\nreference\n%s", j, fa, fb)
		}
		one := m.Successor(s, want[j].Action)
		if string(m.refEncode(one, nil)) != string(b) {
			return fmt.Errorf("Successor(%s) differs from the reference", m.Describe(s, want[j].Action))
		}
		// The sums a built state carries are the ones computed from scratch.
		p, o := m.progressSums(&got[j].Next)
		if fmt.Sprint(m.Progress(got[j].Next, nil)) != fmt.Sprint(rank(p, o, nil)) {
			return fmt.Errorf("successor %d: carried rank %v, computed %v", j, m.Progress(got[j].Next, nil), rank(p, o, nil))
		}
		if fmt.Sprint(m.Progress(one, nil)) != fmt.Sprint(rank(p, o, nil)) {
			return fmt.Errorf("Successor(%s): carried rank %v, computed %v", m.Describe(s, want[j].Action), m.Progress(one, nil), rank(p, o, nil))
		}
	}
	j := 0
	var failed error
	m.EncodeSuccessors(s, nil, func(a checker.Action, enc []byte) {
		switch {
		case failed != nil:
		case j >= len(want):
			failed = fmt.Errorf("EncodeSuccessors yields more than %d successors", len(want))
		case a != want[j].Action:
			failed = fmt.Errorf("EncodeSuccessors %d: action %#x, reference %#x", j, uint64(a), uint64(want[j].Action))
		case string(enc) != string(m.refEncode(want[j].Next, nil)):
			failed = fmt.Errorf("EncodeSuccessors %d (%s): encoding %x, reference %x", j, m.Describe(s, a), enc, m.refEncode(want[j].Next, nil))
		}
		j++
	})
	if failed == nil && j != len(want) {
		failed = fmt.Errorf("EncodeSuccessors yields %d successors, reference %d", j, len(want))
	}
	j = 0
	m.EncodeSuccessorsProgress(s, nil, nil, func(a checker.Action, enc []byte, rank []uint32) {
		if failed == nil && j < len(want) && (a != want[j].Action || string(enc) != string(m.refEncode(want[j].Next, nil)) || fmt.Sprint(rank) != fmt.Sprint(m.Progress(want[j].Next, nil))) {
			failed = fmt.Errorf("EncodeSuccessorsProgress %d: action %#x rank %v, reference %#x rank %v", j, uint64(a), rank, uint64(want[j].Action), m.Progress(want[j].Next, nil))
		}
		j++
	})
	// The same state rebuilt by DecodeInto (in scratch holding another state) expands
	// the same way.
	var scratch State
	m.DecodeInto(m.Encode(m.Init()[0], nil), &scratch)
	d := m.DecodeInto(before, &scratch)
	j = 0
	m.EncodeSuccessorsProgress(d, nil, nil, func(a checker.Action, enc []byte, rank []uint32) {
		if failed == nil && j < len(want) && (a != want[j].Action || string(enc) != string(m.refEncode(want[j].Next, nil)) || fmt.Sprint(rank) != fmt.Sprint(m.Progress(want[j].Next, nil))) {
			failed = fmt.Errorf("EncodeSuccessorsProgress of DecodeInto %d: action %#x rank %v, reference %#x rank %v", j, uint64(a), rank, uint64(want[j].Action), m.Progress(want[j].Next, nil))
		}
		j++
	})
	if failed == nil && j != len(want) {
		failed = fmt.Errorf("EncodeSuccessorsProgress of DecodeInto yields %d successors, reference %d", j, len(want))
	}
	if failed == nil && string(m.refEncode(s, nil)) != string(before) {
		failed = fmt.Errorf("EncodeSuccessors mutated its state")
	}
	return failed
}

// TestSuccessorsAgainstReference walks random instances along random paths of the
// reference rules and compares, at every state, the optimised transition relation with
// the naive twin (seeded gopter property).
func TestSuccessorsAgainstReference(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261122)
	params.MinSuccessfulTests = 200
	if testing.Short() {
		params.MinSuccessfulTests = 60
	}
	props := gopter.NewProperties(params)
	props.Property("optimised successors match the reference", prop.ForAll(func(inst, walk uint64, steps int) bool {
		m := randomModel(t, inst)
		if m == nil {
			return true
		}
		s := m.Init()[0]
		x := walk | 1
		for i := 0; ; i++ {
			if err := compareStep(m, s); err != nil {
				t.Logf("instance %d step %d: %v\n%s", inst, i, err, m.Format(s))
				return false
			}
			succ := m.refSuccessors(s, nil)
			if i == steps || len(succ) == 0 {
				return true
			}
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			// Walk through the states Successor builds, which carry their Progress sums
			// (EncodeSuccessorsProgress and Progress use them), from Init's.
			s = m.Successor(s, succ[x%uint64(len(succ))].Action)
		}
	}, gen.UInt64(), gen.UInt64(), gen.IntRange(0, 80)))
	props.TestingRun(t)
}

// TestSuccessorsAgainstReferenceExhaustive compares the two relations on every reachable
// state of the fixed test models.
func TestSuccessorsAgainstReferenceExhaustive(t *testing.T) {
	for i, m := range testModels(t) {
		seen := map[string]bool{}
		queue := m.Init()
		var succ []checker.Transition[State]
		for len(queue) > 0 && len(seen) < 2000 {
			s := queue[0]
			queue = queue[1:]
			if err := compareStep(m, s); err != nil {
				t.Fatalf("model %d: %v\n%s", i, err, m.Format(s))
			}
			succ = m.refSuccessors(s, succ[:0])
			for _, tr := range succ {
				k := string(m.refEncode(tr.Next, nil))
				if !seen[k] {
					seen[k] = true
					queue = append(queue, tr.Next)
				}
			}
		}
	}
}

// plain hides Model's SuccessorEncoder, so that Explore builds every successor.
type plain struct{ m *Model }

func (p plain) Init() []State { return p.m.Init() }

func (p plain) Successors(s State, dst []checker.Transition[State]) []checker.Transition[State] {
	return p.m.Successors(s, dst)
}

func (p plain) Encode(s State, buf []byte) []byte { return p.m.Encode(s, buf) }

func (p plain) Terminal(s State) bool { return p.m.Terminal(s) }

func (p plain) Describe(s State, a checker.Action) string { return p.m.Describe(s, a) }

// TestExploreEncoderPathMatchesPlain: exploring through EncodeSuccessors/Successor (two
// workers) and through EncodeSuccessorsBuild (one worker: new states kept as found)
// gives the same verdict, counts and trace as exploring through Successors.
func TestExploreEncoderPathMatchesPlain(t *testing.T) {
	var _ checker.Model[State] = plain{}
	if _, ok := any(plain{}).(checker.SuccessorEncoder[State]); ok {
		t.Fatal("plain still implements SuccessorEncoder")
	}
	mc := NewGridConfig(grid(t, "mesh:2x3"), false, 1, 1, OnePort, []Message{
		{Source: 0, Dests: []topology.NodeID{5, 2}, Length: 1, Multicast: true},
		{Source: 5, Dests: []topology.NodeID{0, 3}, Length: 1, Multicast: true},
	})
	mc.Prune = PrunePartial
	models := []*Model{
		testModels(t)[1],
		mustNew(t, NewGridConfig(grid(t, "torus:4"), false, 1, 1, AllPort, unicasts(2, 0, 2, 1, 3, 2, 0, 3, 1))),
		mustNew(t, mc),
	}
	for i, m := range models {
		for _, w := range []int{1, 2} {
			for _, st := range []checker.StoreMode{checker.Exact, checker.Fingerprint} {
				opt := checker.Options[State]{Workers: w, Store: st, CheckDeadlock: true, Invariants: m.Invariants()}
				a, err := checker.Explore[State](plain{m}, opt)
				if err != nil {
					t.Fatal(err)
				}
				b, err := checker.Explore[State](m, opt)
				if err != nil {
					t.Fatal(err)
				}
				if a.Verdict != b.Verdict || a.Stats.States != b.Stats.States || a.Stats.Transitions != b.Stats.Transitions || (a.Violation == nil) != (b.Violation == nil) {
					t.Fatalf("model %d workers %d %v: plain %v %d/%d, encoder %v %d/%d", i, w, st, a.Verdict, a.Stats.States, a.Stats.Transitions, b.Verdict, b.Stats.States, b.Stats.Transitions)
				}
				if a.Violation != nil && fmt.Sprint(a.Violation.Trace.Actions()) != fmt.Sprint(b.Violation.Trace.Actions()) {
					t.Fatalf("model %d workers %d %v: traces differ", i, w, st)
				}
				t.Logf("model %d workers %d %v: %v %d states", i, w, st, b.Verdict, b.Stats.States)
			}
		}
	}
}

// TestEncodeSuccessorsBuild: every encoding and rank EncodeSuccessorsBuild yields is
// that of the state Successor builds for the same action, every state it keeps is that
// state (same encoding) with the Progress sums computed from scratch, and the parent is
// left unchanged; over whole reachable sets, so that the model's step cache answers
// most steps (kept and not kept).
func TestEncodeSuccessorsBuild(t *testing.T) {
	models := append(testModels(t), smallMulticasts(t))
	for i, m := range models {
		queue := m.Init()
		seen := map[string]bool{string(m.Encode(queue[0], nil)): true}
		for k := 0; k < len(queue) && k < 20000; k++ {
			s := queue[k]
			before := m.Encode(s, nil)
			var acts []checker.Action
			var encs []string
			var ranks [][]uint32
			var kept []State
			var keptAt []int
			m.EncodeSuccessorsBuild(s, nil, nil, k%3 != 0, func(a checker.Action, enc []byte, rank []uint32) bool {
				acts = append(acts, a)
				encs = append(encs, string(enc))
				ranks = append(ranks, append([]uint32(nil), rank...))
				if seen[string(enc)] && k%2 == 0 {
					return false
				}
				keptAt = append(keptAt, len(acts)-1)
				return true
			}, func(n State) { kept = append(kept, n) })
			if len(kept) != len(keptAt) {
				t.Fatalf("model %d: %d asked, %d kept", i, len(keptAt), len(kept))
			}
			for j, a := range acts {
				want := m.Successor(s, a)
				if w := string(m.Encode(want, nil)); encs[j] != w {
					t.Fatalf("model %d state %d action %#x: yielded %x, Successor %x", i, k, uint64(a), encs[j], w)
				}
				if k%3 != 0 && fmt.Sprint(ranks[j]) != fmt.Sprint(m.Progress(want, nil)) {
					t.Fatalf("model %d state %d action %#x: rank %v, want %v", i, k, uint64(a), ranks[j], m.Progress(want, nil))
				}
			}
			for x, j := range keptAt {
				n := kept[x]
				if got := string(m.Encode(n, nil)); got != encs[j] {
					t.Fatalf("model %d state %d action %#x: kept %x, yielded %x", i, k, uint64(acts[j]), got, encs[j])
				}
				if n.sums.ok {
					if p, o := m.progressSums(&n); p != n.sums.pot || o != n.sums.outs {
						t.Fatalf("model %d state %d action %#x: sums %d/%d, recomputed %d/%d", i, k, uint64(acts[j]), n.sums.pot, n.sums.outs, p, o)
					}
				}
				if !seen[encs[j]] {
					seen[encs[j]] = true
					queue = append(queue, n)
				}
			}
			if after := m.Encode(s, nil); string(after) != string(before) {
				t.Fatalf("model %d state %d: the parent changed", i, k)
			}
		}
		t.Logf("model %d: %d states", i, len(queue))
	}
}
