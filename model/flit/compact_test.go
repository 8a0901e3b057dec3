package flit

import (
	"fmt"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// The twin test of the reduced models a search runs on (Compacted: compacted worms and,
// on acyclic models, the lowest free virtual channel of a class; Reduced: stubborn sets
// by the relation's own progress measure) against the unreduced model, explored naively
// over Successors. On every instance:
//
//   - every state of the compacted model is a reachable state of the full one, and has
//     no local move;
//   - the compaction of every reachable full state is, up to a permutation of the
//     interchangeable virtual channels of a class, a reachable compacted state, with
//     the full state's local deadlock among its stuck messages;
//   - both have the same global deadlock states (up to that permutation), so the same
//     verdicts for global and local deadlock;
//   - checker.Explore counts the compacted model's states, and its shortest witness,
//     unfolded, replays on a fresh uncompacted model into a deadlock;
//   - Acyclic holds exactly when the full graph's progress measure increases on every
//     edge it was checked on (it implies it), and then the stubborn-set search of the
//     compacted model (no unreduced first pass) gives the full verdict and a witness that
//     replays;
//   - on models that are not Acyclic, the liveness decision (checker.CheckLiveness) of
//     the compacted model is the full model's, and its lasso, unfolded, replays on the
//     full model as a weakly fair lasso (checker.ReplayLasso).

// stateKey is a model-independent key of s (its handles resolved by m's table), so that
// states of a compacted and an uncompacted model of one configuration compare.
func stateKey(m *Model, s State) string { return string(m.orderKey(s, nil)) }

// classKey is a key of s that is the same for states that differ by a permutation of
// interchangeable virtual channels of a channel (vcGroups): per message its own
// section, then its channels as (class, contents) sorted, every output named by its
// class.
func classKey(m *Model, s State) string {
	groups, nR := m.vcGroups(), m.rel.VCs()
	cls := func(o Out) string {
		if o == Eject {
			return "e"
		}
		c := int(o) / m.cfg.VCs
		return fmt.Sprint(c, ".", groups[c*nR+(int(o)%m.cfg.VCs)/m.per])
	}
	input := func(in Input) string {
		var b strings.Builder
		for _, o := range in.Outs.Slice(m.tab) {
			b.WriteString(cls(o) + ",")
		}
		fmt.Fprintf(&b, "|%d|%d|%d", in.Cur, in.Aux, in.Reinj)
		return b.String()
	}
	var b strings.Builder
	for i, g := range s.Msgs {
		fmt.Fprintf(&b, "m%d %d %v %d %v ", i, g.Sent, g.Done, g.Mis, g.Got.Slice(m.tab))
		if !g.Done {
			b.WriteString(input(g.In))
		}
		var vcs []string
		for o, v := range s.VCs {
			if int(v.Owner) == i {
				vcs = append(vcs, fmt.Sprint(cls(Out(o)), v.Closed, v.Flits.Slice(m.tab), input(v.In)))
			}
		}
		slices.Sort(vcs)
		b.WriteString(strings.Join(vcs, ";") + "\n")
	}
	return b.String()
}

// compactAll is the naive compaction of a state of the uncompacted model m: every
// worm's local moves until none is enabled.
func compactAll(m *Model, s State) State {
	t := State{Msgs: slices.Clone(s.Msgs), VCs: slices.Clone(s.VCs)}
	var rb []routing.Output
	for w := range t.Msgs {
		m.compactWorm(&t, w, nil, nil, nil, &rb)
	}
	return t
}

// naiveGraph is the reachable graph of a model by a naive breadth-first search over
// Successors: its states by stateKey in the order met, the global deadlocks, the local
// deadlocks' members, and whether Progress failed to increase on some edge.
type naiveGraph struct {
	states    map[string]State
	order     []string
	global    map[string]bool
	stuck     map[string][]int
	nonProgre bool
}

func naiveExplore(m *Model, b twinBudget) (*naiveGraph, bool) {
	g := &naiveGraph{states: map[string]State{}, global: map[string]bool{}, stuck: map[string][]int{}}
	queue := m.Init()
	for _, s := range queue {
		k := stateKey(m, s)
		g.states[k] = s
		g.order = append(g.order, k)
	}
	var succ []checker.Transition[State]
	var r0, r1 []uint32
	for len(queue) > 0 {
		if len(g.states) > b.states || len(g.order)%1024 == 0 && b.passed() {
			return g, false
		}
		s := queue[0]
		queue = queue[1:]
		k := stateKey(m, s)
		succ = m.Successors(s, succ[:0])
		if len(succ) == 0 && !m.Terminal(s) {
			g.global[k] = true
		}
		if st := m.Stuck(s); len(st) > 0 {
			g.stuck[k] = st
		}
		r0 = m.Progress(s, r0)
		for _, tr := range succ {
			if r1 = m.Progress(tr.Next, r1); slices.Compare(r1, r0) <= 0 {
				g.nonProgre = true
			}
			n := stateKey(m, tr.Next)
			if _, ok := g.states[n]; !ok {
				g.states[n] = tr.Next
				g.order = append(g.order, n)
				queue = append(queue, tr.Next)
			}
		}
	}
	return g, true
}

// twinFigures are the figures of one twin comparison.
type twinFigures struct {
	full, compact, reduced int64 // states: naive full, naive compacted, stubborn-set search
	global, local          bool  // a global / local deadlock is reachable
	lasso                  bool  // the liveness check found a lasso (models that are not Acyclic)
	acyclic                bool
	merged                 bool // the lean model takes the lowest of relation VCs the relation treats alike
	lowest                 bool // the lean model takes the lowest free VC of a class (LowestVC)
}

// twinBudget bounds one instance of the twin comparison: at most states states of the
// naive exploration of the full model, and until deadline (zero: none).
type twinBudget struct {
	states   int
	deadline time.Time
}

func (b twinBudget) passed() bool { return !b.deadline.IsZero() && time.Now().After(b.deadline) }

// twin compares the reduced models of cfg with the full one (see above); ok is false
// when the full model has more than b.states states or its exploration passes b's
// deadline: the instance is skipped, and f.full is how many states it had reached.
func twin(cfg Config, b twinBudget) (f twinFigures, ok bool, err error) {
	cfg.Compact = false
	full, err := New(cfg)
	if err != nil {
		return f, false, err
	}
	fg, ok := naiveExplore(full, b)
	if !ok {
		f.full = int64(len(fg.states))
		return f, false, nil
	}
	cm := full.Lean()
	cg, _ := naiveExplore(cm, twinBudget{states: b.states})
	f.full, f.compact, f.acyclic = int64(len(fg.states)), int64(len(cg.states)), full.Acyclic()
	f.lowest = cm.lowest
	for x, g := range full.vcGroups() {
		f.merged = f.merged || cm.lowest && int(g) != x%full.rel.VCs()
	}
	if f.acyclic && fg.nonProgre {
		return f, true, fmt.Errorf("Acyclic, but Progress does not increase on some edge of the full graph")
	}
	canon := func(m *Model, s State) string { return classKey(m, s) }
	cgCanon := map[string]string{} // class key -> state key
	var rb []routing.Output
	for _, k := range cg.order {
		s := cg.states[k]
		if _, ok := fg.states[k]; !ok {
			return f, true, fmt.Errorf("compacted state not reachable in the full model:\n%s", cm.Format(s))
		}
		for w := range s.Msgs {
			if _, ok := cm.firstLocal(&s, w, heldBy(&s, w), nil, &rb); ok {
				return f, true, fmt.Errorf("compacted state has a local move of m%d:\n%s", w, cm.Format(s))
			}
		}
		cgCanon[canon(cm, s)] = k
		if cg.global[k] && !fg.global[k] {
			return f, true, fmt.Errorf("compacted global deadlock is not one of the full model:\n%s", cm.Format(s))
		}
	}
	for _, k := range fg.order {
		s := fg.states[k]
		c := compactAll(full, s)
		ck, ok := cgCanon[canon(full, c)]
		if !ok {
			return f, true, fmt.Errorf("the compaction of a full state is not reachable compacted:\n%s", full.Format(s))
		}
		if fg.global[k] && stateKey(full, c) != k {
			return f, true, fmt.Errorf("a global deadlock is not compact:\n%s", full.Format(s))
		}
		if fg.global[k] && !cg.global[ck] {
			return f, true, fmt.Errorf("global deadlock missing from the compacted model:\n%s", full.Format(s))
		}
		if stuck := fg.stuck[k]; len(stuck) > 0 && !isSubset(stuck, cg.stuck[ck]) {
			return f, true, fmt.Errorf("local deadlock %v of a full state is %v in its compaction:\n%s", stuck, cg.stuck[ck], full.Format(s))
		}
		f.global = f.global || fg.global[k]
		f.local = f.local || len(fg.stuck[k]) > 0
	}
	if (len(cg.stuck) > 0) != f.local || (len(cg.global) > 0) != f.global {
		return f, true, fmt.Errorf("deadlocks reachable: full global %v local %v, compacted global %v local %v", f.global, f.local, len(cg.global) > 0, len(cg.stuck) > 0)
	}
	if err := twinSearch(cfg, cm, cm, f.local, int64(len(cg.states))); err != nil {
		return f, true, fmt.Errorf("compacted search: %v", err)
	}
	if f.acyclic {
		r := NewReduced(cm)
		if err := twinSearch(cfg, cm, r, f.local, -1); err != nil {
			return f, true, fmt.Errorf("stubborn-set search: %v", err)
		}
		res, _ := checker.Explore[State](r, checker.Options[State]{CheckDeadlock: true, CheckLocalDeadlock: true})
		f.reduced = res.Stats.States
	} else if f.lasso, err = twinLiveness(cfg, cm); err != nil {
		return f, true, err
	}
	return f, true, nil
}

// twinSearch explores sys (cm, or cm reduced) for local deadlocks and checks the verdict
// against local (the full model's) and, when it holds, its state count against states
// (when >= 0); a witness must unfold and replay on a fresh uncompacted model into a
// state with a local deadlock.
func twinSearch(cfg Config, cm *Model, sys checker.Model[State], local bool, states int64) error {
	res, err := checker.Explore[State](sys, checker.Options[State]{CheckDeadlock: true, CheckLocalDeadlock: true})
	if err != nil {
		return err
	}
	if !local {
		if res.Verdict != checker.Holds || states >= 0 && res.Stats.States != states {
			return fmt.Errorf("%v with %d states, want holds with %d", res.Verdict, res.Stats.States, states)
		}
		return nil
	}
	if res.Verdict != checker.Violated {
		return fmt.Errorf("%v, want violated", res.Verdict)
	}
	acts, _, err := cm.Unfold(res.Violation.Trace.Actions())
	if err != nil {
		return err
	}
	cfg.Compact = false
	rm, err := New(cfg) // a fresh uncompacted model, as replay builds one
	if err != nil {
		return err
	}
	tr, err := checker.Replay[State](rm, 0, acts)
	if err != nil {
		return fmt.Errorf("the unfolded witness does not replay: %v", err)
	}
	if len(rm.Stuck(tr.Steps[len(tr.Steps)-1].State)) == 0 {
		return fmt.Errorf("the unfolded witness ends without a local deadlock")
	}
	return nil
}

// twinLiveness compares the liveness decision of the compacted model cm with the full
// model's, and replays the compacted lasso, unfolded, on the full model.
func twinLiveness(cfg Config, cm *Model) (lasso bool, err error) {
	full := cm.Full()
	a, err := checker.CheckLiveness[State](full, checker.LivenessOptions{})
	if err != nil {
		return false, err
	}
	b, err := checker.CheckLiveness[State](cm, checker.LivenessOptions{})
	if err != nil {
		return false, err
	}
	if a.Verdict != b.Verdict {
		return false, fmt.Errorf("liveness: full %v, compacted %v", a.Verdict, b.Verdict)
	}
	if a.Verdict != checker.Violated {
		return false, nil
	}
	if a.Violation.Kind.IsLasso() != b.Violation.Kind.IsLasso() {
		return false, fmt.Errorf("liveness: full %v, compacted %v", a.Violation.Kind, b.Violation.Kind)
	}
	if !b.Violation.Kind.IsLasso() {
		return false, nil
	}
	acts, at, err := cm.Unfold(b.Violation.Trace.Actions())
	if err != nil {
		return true, err
	}
	cfg.Compact = false
	rm, err := New(cfg)
	if err != nil {
		return true, err
	}
	if _, _, err := checker.ReplayLasso[State](rm, 0, acts, at[b.Violation.CycleStart]); err != nil {
		return true, fmt.Errorf("the unfolded lasso: %v", err)
	}
	return true, nil
}

func isSubset(a, b []int) bool {
	for _, x := range a {
		if !slices.Contains(b, x) {
			return false
		}
	}
	return true
}

// heldBy lists the channels worm w holds in s, ascending.
func heldBy(s *State, w int) []int32 {
	var out []int32
	for o := range s.VCs {
		if int(s.VCs[o].Owner) == w {
			out = append(out, int32(o))
		}
	}
	return out
}

// twinNetwork is a network of the twin test and placements on it that close a cycle of
// channels (worms chasing each other round it), so that the relations that can deadlock
// do: worms "a->b" by node names, separated by spaces.
type twinNetwork struct {
	spec   string
	cycles []string
}

// twinNetworks are the networks of the twin test, in tiers: the short one first.
var twinNetworks = [][]twinNetwork{
	{
		{"mesh:2x2", []string{"(0,0)->(1,1) (1,0)->(0,1) (1,1)->(0,0) (0,1)->(1,0)", "(0,0)->(1,0) (1,1)->(0,1)"}},
		{"torus:4", []string{"0->2 1->3 2->0 3->1"}},
		{"mesh:3x2", []string{"(0,0)->(1,1) (1,0)->(0,1) (1,1)->(0,0) (0,1)->(1,0)"}},
		{"file:../topology/testdata/topo/ring6_chord.anynet", []string{"n2->n4 n3->n5 n4->n0 n5->n2 n0->n3"}},
	},
	{
		{"mesh:3x3", []string{"(0,0)->(1,1) (1,0)->(0,1) (1,1)->(0,0) (0,1)->(1,0)"}},
		{"torus:3x3", []string{"(0,0)->(1,1) (1,0)->(0,1) (1,1)->(0,0) (0,1)->(1,0)"}},
		{"hypercube:3", []string{"0->3 1->2 3->0 2->1"}},
		{"torus:3", nil},
		{"random:7,9,1", nil},
		{"dragonfly:a=2,p=1,h=1", nil},
		{"fattree:2,2", nil},
	},
}

// parsePlacement reads worms "a->b c->d" by node names or numbers of g.
func parsePlacement(g *topology.Network, s string) ([][2]topology.NodeID, error) {
	node := func(name string) (topology.NodeID, error) {
		for v := 0; v < g.Nodes(); v++ {
			if g.NodeName(topology.NodeID(v)) == name {
				return topology.NodeID(v), nil
			}
		}
		if v, err := strconv.Atoi(name); err == nil && v >= 0 && v < g.Nodes() {
			return topology.NodeID(v), nil
		}
		return 0, fmt.Errorf("%s has no node %q", g.Spec(), name)
	}
	var out [][2]topology.NodeID
	for _, w := range strings.Fields(s) {
		a, b, _ := strings.Cut(w, "->")
		src, err := node(a)
		if err != nil {
			return nil, err
		}
		dst, err := node(b)
		if err != nil {
			return nil, err
		}
		out = append(out, [2]topology.NodeID{src, dst})
	}
	return out, nil
}

// twinRelations are the relations of the twin test: every built-in, with one budget,
// and BookSim functions on two VCs.
func twinRelations() []string {
	var out []string
	for _, n := range routing.Names() {
		switch n {
		case "nonminimal:B":
			out = append(out, "nonminimal:1")
		case "updown:ROOT":
		default:
			out = append(out, n)
		}
	}
	// BookSim's functions on two VCs: relation VCs a relation may treat alike.
	return append(out, "booksim:min_adapt,vcs=2", "booksim:xy_yx,vcs=2", "booksim:min,vcs=2", "booksim:dim_order,vcs=2")
}

// twinPlacements returns seeded placements of 1..maxWorms worms on g, each a list of
// (source, destination) pairs with a route under rel, count per worm count.
func twinPlacements(g *topology.Network, rel routing.Relation, maxWorms, count int, seed uint64) [][][2]topology.NodeID {
	var pairs [][2]topology.NodeID
	for s := 0; s < g.Nodes(); s++ {
		for d := 0; d < g.Nodes(); d++ {
			if s != d {
				if _, err := routing.FirstPath(rel, topology.NodeID(s), topology.NodeID(d)); err == nil {
					pairs = append(pairs, [2]topology.NodeID{topology.NodeID(s), topology.NodeID(d)})
				}
			}
		}
	}
	rng := rand.New(rand.NewPCG(seed, 20261128))
	var out [][][2]topology.NodeID
	for k := 1; k <= maxWorms && len(pairs) > 0; k++ {
		for range count {
			p := make([][2]topology.NodeID, k)
			for i := range p {
				p[i] = pairs[rng.IntN(len(pairs))]
			}
			out = append(out, p)
		}
	}
	return out
}

// twinParams returns the packet lengths, buffer depths and virtual channels of the twin
// test: L 1..maxL and B 1..maxB on the relation's own r virtual channels, and the
// smaller half of them on 2r (two interchangeable model VCs per class: LowestVC).
func twinParams(maxL, maxB, r int) [][3]int {
	var out [][3]int
	for _, vcs := range []int{r, 2 * r} {
		for l := 1; l <= maxL; l++ {
			for b := 1; b <= maxB; b++ {
				if vcs == r || l <= (maxL+1)/2 && b <= (maxB+1)/2 {
					out = append(out, [3]int{l, b, vcs})
				}
			}
		}
	}
	return out
}

// twinInstance is one instance of the twin comparison: a relation on a network, the
// worms of a placement, packet length L, buffer depth B and virtual channels.
type twinInstance struct {
	spec, relation string
	placement      int
	worms          [][2]topology.NodeID
	cfg            Config
	// group numbers the placements (network, relation, worms) in order: the instances
	// of one group differ only in L, B and VCs.
	group int
}

func (in twinInstance) String() string {
	return fmt.Sprintf("%s %s placement %d %v L%d B%d VCs %d", in.spec, in.relation, in.placement, in.worms,
		in.cfg.Messages[0].Length, in.cfg.Buffer, in.cfg.VCs)
}

// eachTwinInstance calls do with every instance of the twin comparison on nets: every
// built-in relation defined on each network, seeded placements of 1-3 worms (count per
// worm count) and the network's cycles of worms, with L 1..maxL and B 1..maxB
// (twinParams), in a fixed order.
func eachTwinInstance(t *testing.T, nets []twinNetwork, maxL, maxB, count int, do func(twinInstance)) {
	group := -1
	for ni, net := range nets {
		g, err := topology.Parse(net.spec)
		if err != nil {
			t.Fatal(err)
		}
		var cycles [][][2]topology.NodeID
		for _, c := range net.cycles {
			p, err := parsePlacement(g, c)
			if err != nil {
				t.Fatal(err)
			}
			cycles = append(cycles, p)
		}
		for ri, name := range twinRelations() {
			rel, err := routing.ByName(g, name)
			if err != nil {
				continue // not defined on this network
			}
			for pi, p := range append(twinPlacements(g, rel, 3, count, uint64(ni*100+ri)), cycles...) {
				group++
				for _, lbv := range twinParams(maxL, maxB, rel.VCs()) {
					var msgs []Message
					for _, w := range p {
						msgs = append(msgs, Unicast(w[0], w[1], lbv[0]))
					}
					cfg := NewRelationConfig(rel, lbv[2], lbv[1], AllPort, msgs)
					cfg.Net = GridNetwork{g}
					do(twinInstance{spec: net.spec, relation: name, placement: pi, worms: p, cfg: cfg, group: group})
				}
			}
		}
	}
}

// twinTally counts the instances of the twin comparison and what they reached.
type twinTally struct {
	instances, skipped, global, local, lassos, acyclic, merged int
	lowest, lowestLocal, acyclicLocal                          int // LowestVC; deadlocks found through it, through stubborn sets
	full, compact, reduced                                     int64
}

func (t *twinTally) add(f twinFigures) {
	t.instances++
	t.full, t.compact, t.reduced = t.full+f.full, t.compact+f.compact, t.reduced+f.reduced
	for _, c := range []struct {
		n  *int
		on bool
	}{{&t.global, f.global}, {&t.local, f.local}, {&t.lassos, f.lasso}, {&t.acyclic, f.acyclic}, {&t.merged, f.merged},
		{&t.lowest, f.lowest}, {&t.lowestLocal, f.lowest && f.local}, {&t.acyclicLocal, f.acyclic && f.local}} {
		if c.on {
			*c.n++
		}
	}
}

// twinShard reads WORMCHECK_SHARD=i/n: this run compares the placements (groups of
// instances) whose index is i modulo n (0/1, all of them, when unset).
func twinShard(t *testing.T) (i, n int) {
	s := os.Getenv("WORMCHECK_SHARD")
	if s == "" {
		return 0, 1
	}
	a, b, _ := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		t.Fatalf("WORMCHECK_SHARD=%q: want i/n with 0 <= i < n", s)
	}
	return i, n
}

// twinLongBudget is the budget of one instance of the long tier: WORMCHECK_TWIN_STATES
// states of the full model (default 10,000) and WORMCHECK_TWIN_BUDGET of time (default
// 5s).
func twinLongBudget(t *testing.T) (states int, per time.Duration) {
	states, per = 10_000, 5*time.Second
	if s := os.Getenv("WORMCHECK_TWIN_STATES"); s != "" {
		var err error
		if states, err = strconv.Atoi(s); err != nil || states < 1 {
			t.Fatalf("WORMCHECK_TWIN_STATES=%q: want a positive number of states", s)
		}
	}
	if s := os.Getenv("WORMCHECK_TWIN_BUDGET"); s != "" {
		var err error
		if per, err = time.ParseDuration(s); err != nil || per <= 0 {
			t.Fatalf("WORMCHECK_TWIN_BUDGET=%q: want a positive duration such as 30s", s)
		}
	}
	return states, per
}

// TestReductionsAgainstUnreduced runs the twin comparison (eachTwinInstance): the first
// network tier with L 1..3, B 1..2 and one placement per worm count (-short: L 1..2,
// instances up to 4,000 states), and with WORMCHECK_LONG=1 both tiers with L 1..6,
// B 1..4 and two placements per worm count (22,080 instances), each within the budget
// of twinLongBudget, one log line each. WORMCHECK_SHARD=i/n compares every n-th
// placement from the i-th, so that n runs share the long tier at a deeper budget
// (docs/semantics.md). An instance over its budget is skipped and logged with the
// states it had reached, and so are the larger L and B of the same worms and VCs (the
// full model's states grow with both): skipped, never counted as agreeing. It fails if a
// reduction loses or invents a deadlock, a witness that does not replay, or a lasso,
// and, run whole, if no instance deadlocks (the comparison would be vacuous).
func TestReductionsAgainstUnreduced(t *testing.T) {
	long := os.Getenv("WORMCHECK_LONG") == "1"
	nets, maxL, maxB, count := twinNetworks[0], 3, 2, 1
	budget, per := twinBudget{states: 100_000}, time.Duration(0)
	if long {
		nets, maxL, maxB, count = append(slices.Clone(twinNetworks[0]), twinNetworks[1]...), 6, 4, 2
		budget.states, per = twinLongBudget(t)
	} else if testing.Short() {
		maxL, budget.states = 2, 4_000
	}
	shard, shards := twinShard(t)
	var tally twinTally
	index := -1
	var over [][3]int // L, B and VCs of the current group's instances over the budget
	group := -1
	eachTwinInstance(t, nets, maxL, maxB, count, func(in twinInstance) {
		if index++; in.group%shards != shard {
			return
		}
		if in.group != group {
			group, over = in.group, over[:0]
		}
		l, b, v := in.cfg.Messages[0].Length, in.cfg.Buffer, in.cfg.VCs
		for _, o := range over {
			if o[0] <= l && o[1] <= b && o[2] == v {
				// the full model's states grow with L and B
				tally.skipped++
				t.Logf("instance %d, %v: SKIPPED, at least as large as L%d B%d of the same worms, which was over its budget", index, in, o[0], o[1])
				return
			}
		}
		start := time.Now()
		if per > 0 {
			budget.deadline = start.Add(per)
		}
		f, ok, err := twin(in.cfg, budget)
		if err != nil {
			t.Fatalf("%v: %v", in, err)
		}
		if !ok {
			tally.skipped++
			over = append(over, [3]int{l, b, v})
			t.Logf("instance %d, %v: SKIPPED, over its budget (%d states, %v) at %d states of the full model", index, in, budget.states, per, f.full)
			return
		}
		tally.add(f)
		if long {
			t.Logf("instance %d, %v: agree; states full %d, lean %d, stubborn %d; %.2fs", index, in, f.full, f.compact, f.reduced, time.Since(start).Seconds())
		}
	})
	t.Logf("shard %d/%d: %d instances agree (%d skipped over their budget): %d with a global deadlock, %d with a local one, %d lassos, %d acyclic (%d deadlocking, found through stubborn sets), %d on the lowest free VC (%d deadlocking), %d with relation VCs taken alike; states full %d, lean %d, stubborn sets on acyclic ones %d",
		shard, shards, tally.instances, tally.skipped, tally.global, tally.local, tally.lassos, tally.acyclic, tally.acyclicLocal, tally.lowest, tally.lowestLocal, tally.merged, tally.full, tally.compact, tally.reduced)
	if shards == 1 && (tally.local == 0 || tally.lassos == 0 || tally.acyclicLocal == 0 || tally.merged == 0) {
		t.Fatal("no instance deadlocks, none through stubborn sets, none livelocks or none has relation VCs taken alike: the comparison is vacuous")
	}
}

// TestLowestVCFindsDeadlock: the square of adaptive worms on mesh:2x2, each worm twice,
// one-flit worms on two model VCs per channel: the lean model offers a header only the
// lowest free VC of the two, and still reaches the deadlock where every VC of the square
// is held by a worm waiting for the next channel (searched with stubborn sets, as
// unicast searches of acyclic relations are); the witness unfolds and replays on the
// flit model into a local deadlock.
func TestLowestVCFindsDeadlock(t *testing.T) {
	g := grid(t, "mesh:2x2")
	rel, err := routing.ByName(g, "adaptive")
	if err != nil {
		t.Fatal(err)
	}
	square := "(0,0)->(1,1) (1,0)->(0,1) (1,1)->(0,0) (0,1)->(1,0)"
	p, err := parsePlacement(g, square+" "+square)
	if err != nil {
		t.Fatal(err)
	}
	var msgs []Message
	for _, w := range p {
		msgs = append(msgs, Unicast(w[0], w[1], 1))
	}
	cfg := NewRelationConfig(rel, 2, 1, AllPort, msgs)
	cfg.Net = GridNetwork{g}
	full, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cm := full.Lean()
	if !cm.lowest {
		t.Fatal("the lean model does not take the lowest free VC")
	}
	if err := twinSearch(cfg, cm, NewReduced(cm), true, -1); err != nil {
		t.Fatal(err)
	}
}
