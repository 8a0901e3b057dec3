package sim_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

// flitRun is one random configuration of unicast worms for both the simulator and the
// explorer's model.
type flitRun struct {
	topo   string
	pairs  []unicast.Pair
	length int
	buffer int
	vcs    int
	ports  model.PortModel
}

func (r flitRun) String() string {
	return fmt.Sprintf("%s worms %s L=%d B=%d V=%d %v", r.topo, unicast.FormatPairs(nil, r.pairs), r.length, r.buffer, r.vcs, r.ports)
}

func randomFlitRun(rng *rand.Rand) flitRun {
	topos := []string{"mesh:3x3", "mesh:2x4", "mesh:4", "torus:4", "torus:3x3", "hypercube:3"}
	r := flitRun{topo: topos[rng.IntN(len(topos))], length: 1 + rng.IntN(4), buffer: 1 + rng.IntN(3), vcs: 1 + rng.IntN(2)}
	if rng.IntN(2) == 1 {
		r.ports = model.AllPort
	}
	g, _ := topology.Parse(r.topo)
	if g.Kind() == topology.Torus {
		r.vcs = 2 * r.vcs // two dateline classes, one or two VCs each
	}
	n := g.Nodes()
	for k := 1 + rng.IntN(3); len(r.pairs) < k; {
		p := unicast.Pair{Src: topology.NodeID(rng.IntN(n)), Dst: topology.NodeID(rng.IntN(n))}
		if p.Src != p.Dst {
			r.pairs = append(r.pairs, p)
		}
	}
	return r
}

// simulate runs the worms in the simulator, all handed over at cycle 0 (one group per
// worm, ts = tr = 0), and returns its flit moves.
func (r flitRun) simulate() (*topology.Network, []sim.TraceEvent, error) {
	g, err := topology.Parse(r.topo)
	if err != nil {
		return nil, nil, err
	}
	dor := topology.NewDOR(g)
	s := &model.Schedule{Topology: g, Ports: r.ports}
	for i, p := range r.pairs {
		s.Sources = append(s.Sources, p.Src)
		s.GroupDestinations = append(s.GroupDestinations, []topology.NodeID{p.Dst})
		s.Destinations = append(s.Destinations, p.Dst)
		s.Group = append(s.Group, i)
		s.Unicasts = append(s.Unicasts, model.Unicast{From: p.Src, To: p.Dst, Path: dor.Path(p.Src, p.Dst), Step: 1, Order: 1})
	}
	var evs []sim.TraceEvent
	_, err = sim.ExecuteSchedule(g, s, sim.ScheduleOptions{L: r.length, VCs: r.vcs, Buffer: r.buffer,
		Dateline: g.Kind() == topology.Torus, CPUPerGroup: true, Trace: func(e sim.TraceEvent) { evs = append(evs, e) }})
	return g, evs, err
}

// replayOnModel checks that the simulator's moves, cycle by cycle, are a path of the
// explorer's unicast model that ends in a Terminal state (replayBatches), and returns
// the number of transitions taken.
func replayOnModel(r flitRun, evs []sim.TraceEvent) (int, error) {
	g, _ := topology.Parse(r.topo)
	m, err := unicast.BuildOn(g, unicast.Spec{Topology: r.topo, Pairs: r.pairs, Length: r.length, Buffer: r.buffer, VCs: r.vcs, Ports: r.ports})
	if err != nil {
		return 0, err
	}
	rp := replayer{m: m, g: g}
	s, err := rp.run(evs)
	if err != nil {
		return rp.steps, err
	}
	if !m.Terminal(s) {
		return rp.steps, fmt.Errorf("the simulator finished but the model is not done: %s", m.Waits(s))
	}
	return rp.steps, nil
}

// replayer replays a simulator trace on the explorer's model (model/flit): each cycle's
// moves, reservations and prunes must be a batch of model transitions, one transition per
// event, in some order within the cycle (a cycle's moves use only buffer slots and
// channels free when it began, and its reservations and prunes are decided at its
// start; the order is searched, with backtracking).
//
// A reservation (TraceReserve: a tree input reserving a new branch for its address
// flit) is the model's KindAlloc transition, which reserves the output and moves the
// address flit into it at once (model/flit's reduction), and the simulator's move of
// that flit is then not replayed again. The simulator moves it in the same cycle (a
// new branch crosses its channel first, tree.go); the test checks that it always does
// (replayer.ahead stays 0): a branch reserved and still empty at the end of a cycle is a
// state the model skips, in which another header finding it taken could prune, and
// the flit still in its input could make that input's buffer look full.
type replayer struct {
	m     *flit.Model
	g     *topology.Network
	steps int // transitions taken on the path found
	moves int // flit moves replayed (reserved address flits counted once)
	prune int // prunes replayed
	ahead int // reservations whose address flit crossed in a later cycle
	// open holds the reservations whose address flit has not crossed yet.
	open []sim.TraceEvent
	// The deepest failure seen in the current cycle, for the error.
	failDepth int
	failEv    sim.TraceEvent
	failState flit.State
	budget    int
	failed    map[string]bool
}

func (rp *replayer) run(evs []sim.TraceEvent) (flit.State, error) {
	s := rp.m.Init()[0]
	for lo := 0; lo < len(evs); {
		hi := lo
		for hi < len(evs) && evs[hi].Cycle == evs[lo].Cycle {
			hi++
		}
		batch := rp.decisionOrder(evs[lo:hi])
		if len(batch) > 64 {
			return s, fmt.Errorf("cycle %d: %d events; the replay handles at most 64 a cycle", evs[lo].Cycle, len(batch))
		}
		rp.failDepth, rp.budget, rp.failed = -1, 100000, map[string]bool{}
		next, n, ok := rp.batch(s, batch, 1<<len(batch)-1, 0)
		if !ok {
			ev := rp.failEv
			what := "is delivered"
			switch {
			case ev.Kind == sim.TracePrune:
				what = fmt.Sprintf("prunes %v", ev.Pruned)
			case ev.Channel != topology.None:
				what = fmt.Sprintf("crosses %s vc%d", rp.g.ChannelName(ev.Channel), ev.VC)
			}
			from := "its source"
			if ev.InChannel != topology.None {
				from = fmt.Sprintf("%s vc%d", rp.g.ChannelName(ev.InChannel), ev.InVC)
			}
			return s, fmt.Errorf("cycle %d: the model refuses message %d's flit (head %v, tail %v) from %s that %s at %s; model state: %s",
				ev.Cycle, ev.Msg, ev.Head, ev.Tail, from, what, rp.g.NodeName(ev.Node), rp.m.Waits(rp.failState))
		}
		s = next
		rp.steps += n
		for _, ev := range batch {
			if ev.Kind == sim.TracePrune {
				rp.prune++
			} else {
				rp.moves++
			}
		}
		rp.ahead += len(rp.open)
		lo = hi
	}
	return s, nil
}

// decisionOrder returns a cycle's events in the order the simulator decided them,
// which the search tries first: prunes and reservations in its routing order, then the
// moves in trace order, without the moves of address flits into outputs reserved for
// them (the reservation stands for that move).
func (rp *replayer) decisionOrder(cycle []sim.TraceEvent) []sim.TraceEvent {
	var out []sim.TraceEvent
	for _, ev := range cycle {
		if ev.Kind != sim.TraceMove {
			out = append(out, ev)
			if ev.Kind == sim.TraceReserve {
				rp.open = append(rp.open, ev)
			}
		}
	}
	for _, ev := range cycle {
		if ev.Kind != sim.TraceMove {
			continue
		}
		if k := slices.IndexFunc(rp.open, func(r sim.TraceEvent) bool {
			return ev.Head && r.Msg == ev.Msg && r.InChannel == ev.InChannel && r.InVC == ev.InVC && r.Channel == ev.Channel && r.VC == ev.VC && r.Node == ev.Node
		}); k >= 0 {
			rp.open = slices.Delete(rp.open, k, k+1)
			continue
		}
		out = append(out, ev)
	}
	return out
}

// batch finds an order of the events pending that the model accepts from s, and returns
// the state reached and the transitions taken. Independent events commute, so a (state,
// events left) pair that failed once is not searched again: the search costs at most
// 2^k states for a cycle of k events, not k!.
func (rp *replayer) batch(s flit.State, pending []sim.TraceEvent, left uint64, depth int) (flit.State, int, bool) {
	if left == 0 {
		return s, 0, true
	}
	key := fmt.Sprintf("%x/%x", left, rp.m.Encode(s, nil))
	if rp.failed[key] {
		return s, 0, false
	}
	if rp.budget--; rp.budget < 0 {
		return s, 0, false
	}
	succ := rp.m.Successors(s, nil)
	first := -1
	for k, ev := range pending {
		if left&(1<<k) == 0 {
			continue
		}
		if first < 0 {
			first = k
		}
		for _, t := range succ {
			mv, err := rp.m.Explain(s, t.Action)
			if err != nil || !rp.matches(ev, mv) {
				continue
			}
			if end, n, ok := rp.batch(t.Next, pending, left&^(1<<k), depth+1); ok {
				return end, n + 1, true
			}
		}
	}
	rp.failed[key] = true
	if depth > rp.failDepth {
		rp.failDepth, rp.failEv, rp.failState = depth, pending[first], s
	}
	return s, 0, false
}

// matches reports whether model transition mv is simulator event ev: the same message,
// input (the source, or the same virtual channel) and kind; for a prune the same outputs
// released; for a move the same output (a virtual channel, or delivery at the same node)
// and the same flit class (header or address flit, or not).
func (rp *replayer) matches(ev sim.TraceEvent, mv flit.Move) bool {
	if mv.Msg != int(ev.Msg) {
		return false
	}
	if ev.InChannel == topology.None {
		if mv.FromVC != flit.None {
			return false
		}
	} else if mv.FromVC < 0 || rp.m.Channel(mv.FromVC) != ev.InChannel || rp.m.VCOf(mv.FromVC) != ev.InVC {
		return false
	}
	if ev.Kind == sim.TracePrune {
		if mv.Kind != flit.KindPrune || len(mv.Pruned) != len(ev.Pruned) {
			return false
		}
		for _, o := range mv.Pruned {
			if !slices.Contains(ev.Pruned, int32(o)) {
				return false
			}
		}
		return true
	}
	if mv.Kind == flit.KindPrune || mv.Address != ev.Head || ev.Kind == sim.TraceReserve && mv.Kind != flit.KindAlloc {
		return false
	}
	if ev.Channel == topology.None {
		return mv.To == flit.Eject && mv.At == ev.Node
	}
	return mv.To >= 0 && rp.m.Channel(mv.To) == ev.Channel && rp.m.VCOf(mv.To) == ev.VC
}

// TestSimulatorRunsAreExplorerPaths is the differential test of the two flit semantics:
// the simulator's runs of random small configurations of unicast worms (meshes, tori
// with dateline classes, a hypercube; one or two VCs per class; buffers of 1-3 flits;
// one-port and all-port) are paths of the explorer's model (model/flit), one transition
// per simulated flit move, batched by cycle. Both allocate VCs atomically (a VC goes to
// a new worm only once the previous worm's flits have left its buffer): before the
// simulator did, 13 of 3,000 runs here reused a VC whose buffer still held the previous
// tail, and the model refused them.
func TestSimulatorRunsAreExplorerPaths(t *testing.T) {
	n := 3000
	if testing.Short() {
		n = 1000
	}
	rng := rand.New(rand.NewPCG(20261124, 12))
	moves, cycles := 0, int64(0)
	for k := 0; k < n; k++ {
		r := randomFlitRun(rng)
		_, evs, err := r.simulate()
		if err != nil {
			t.Fatalf("run %d (%s): simulator: %v", k, r, err)
		}
		steps, err := replayOnModel(r, evs)
		if err != nil {
			t.Fatalf("run %d (%s): %v", k, r, err)
		}
		if steps != len(evs) {
			t.Fatalf("run %d (%s): %d moves, %d transitions", k, r, len(evs), steps)
		}
		moves += steps
		if len(evs) > 0 {
			cycles += evs[len(evs)-1].Cycle + 1
		}
	}
	t.Logf("%d unicast runs, %d flit moves in %d cycles, every one a path of the explorer's model", n, moves, cycles)
}

// treeRun is one random configuration of tree multicasts for both the simulator
// (sim.ExecuteTrees) and the explorer's model.
type treeRun struct {
	topo   string
	msgs   []sim.TreeMessage
	data   int
	buffer int
	vcs    int
	ports  model.PortModel
	prune  flit.Prune
}

func (r treeRun) String() string {
	var parts []string
	for _, m := range r.msgs {
		ds := make([]string, len(m.Dests))
		for i, d := range m.Dests {
			ds[i] = fmt.Sprint(d)
		}
		parts = append(parts, fmt.Sprintf("%d->%s", m.Source, strings.Join(ds, ",")))
	}
	return fmt.Sprintf("%s trees %s D=%d B=%d V=%d %v prune=%v", r.topo, strings.Join(parts, ";"), r.data, r.buffer, r.vcs, r.ports, r.prune)
}

// The pruning policies, the simulator's and model/flit's alike.
var treePrunes = []flit.Prune{flit.PruneNone, flit.PruneOnNoFree, flit.PruneOnStop, flit.PrunePartial}

// treeShape bounds a random tree configuration: how many multicasts and VCs, and whether
// every run is all-port.
type treeShape struct {
	minMsgs, maxMsgs, maxVCs int
	allPort                  bool
	// hot makes every multicast deliver at one node too (the last), so that many worms
	// want its delivery channels at once.
	hot bool
}

// The usual shape: two or three multicasts, one or two VCs, either port model.
var smallTrees = treeShape{minMsgs: 2, maxMsgs: 3, maxVCs: 2}

func randomTreeRun(rng *rand.Rand, sh treeShape) (treeRun, flit.Prune) {
	w, h := 2+rng.IntN(3), 2+rng.IntN(3)
	r := treeRun{topo: fmt.Sprintf("mesh:%dx%d", w, h), data: 1 + rng.IntN(2), buffer: 1 + rng.IntN(3), vcs: 1 + rng.IntN(sh.maxVCs)}
	if sh.allPort || rng.IntN(2) == 1 {
		r.ports = model.AllPort
	}
	p := treePrunes[rng.IntN(len(treePrunes))]
	r.prune = p
	n := w * h
	for k := sh.minMsgs + rng.IntN(sh.maxMsgs-sh.minMsgs+1); len(r.msgs) < k; {
		m := sim.TreeMessage{Source: topology.NodeID(rng.IntN(n))}
		if sh.hot && m.Source != topology.NodeID(n-1) {
			m.Dests = append(m.Dests, topology.NodeID(n-1))
		}
		for nd := 1 + rng.IntN(3); len(m.Dests) < nd; {
			d := topology.NodeID(rng.IntN(n))
			if d != m.Source && !slices.Contains(m.Dests, d) {
				m.Dests = append(m.Dests, d)
			}
		}
		r.msgs = append(r.msgs, m)
	}
	return r, p
}

// TestTreeRunsAreExplorerPaths is the differential test of the two flit semantics for
// tree multicast (000 §2-§4): the simulator's runs of random small configurations (meshes
// 2x2..4x4, two or three multicasts of one to three destinations, one or two data flits,
// one or two VCs, buffers of 1-3 flits, one-port and all-port, every pruning policy) are
// paths of the explorer's model (model/flit), each simulated flit move and prune one
// transition, batched by cycle; a run ends in a Terminal state of the model, or, where
// the simulator deadlocks (no pruning, or a policy that can deadlock), in a deadlock of
// the model: a non-terminal state with no enabled transition.
func TestTreeRunsAreExplorerPaths(t *testing.T) {
	n := 4000
	if testing.Short() {
		n = 1000
	}
	checkTreeRuns(t, rand.New(rand.NewPCG(20261124, 13)), n, smallTrees, true)
}

// TestCrowdedTreeRunsAreExplorerPaths is the same differential test with six to eight
// multicasts, one to three VCs, all-port, and one node every multicast delivers at, where
// more worms can reach a node at once than it has delivery channels (2n on n dimensions, in both the simulator and the
// model), so the delivery-channel limit binds.
func TestCrowdedTreeRunsAreExplorerPaths(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	checkTreeRuns(t, rand.New(rand.NewPCG(20261124, 17)), n, treeShape{minMsgs: 6, maxMsgs: 8, maxVCs: 3, allPort: true, hot: true}, false)
}

// checkTreeRuns replays n random runs of shape sh on the model; wantDeadlocks demands
// that some run deadlocks in both, so that the test covers deadlock.
func checkTreeRuns(t *testing.T, rng *rand.Rand, n int, sh treeShape, wantDeadlocks bool) {
	t.Helper()
	moves, prunes, steps, deadlocks, ahead := 0, 0, 0, 0, 0
	cycles := int64(0)
	for k := 0; k < n; k++ {
		r, fp := randomTreeRun(rng, sh)
		g, err := topology.Parse(r.topo)
		if err != nil {
			t.Fatal(err)
		}
		var evs []sim.TraceEvent
		res, err := sim.ExecuteTrees(g, r.msgs, sim.TreeOptions{Data: r.data, VCs: r.vcs, Buffer: r.buffer, Ports: r.ports, Prune: r.prune,
			Trace: func(e sim.TraceEvent) { evs = append(evs, e) }})
		if err != nil {
			t.Fatalf("run %d (%s): simulator: %v", k, r, err)
		}
		var fm []flit.Message
		for _, m := range r.msgs {
			fm = append(fm, flit.Multicast(m.Source, r.data, m.Dests...))
		}
		cfg := flit.NewGridConfig(g, false, r.vcs, r.buffer, r.ports, fm)
		cfg.Prune = fp
		m, err := flit.New(cfg)
		if err != nil {
			t.Fatalf("run %d (%s): model: %v", k, r, err)
		}
		rp := replayer{m: m, g: g}
		s, err := rp.run(evs)
		if err != nil {
			t.Fatalf("run %d (%s): %v", k, r, err)
		}
		switch {
		case res.Deadlocked:
			if m.Terminal(s) || len(m.Successors(s, nil)) > 0 {
				t.Fatalf("run %d (%s): the simulator deadlocked but the model is not deadlocked there: %s", k, r, m.Waits(s))
			}
			deadlocks++
		case !m.Terminal(s):
			t.Fatalf("run %d (%s): the simulator finished but the model is not done: %s", k, r, m.Waits(s))
		}
		moves, prunes, steps, ahead = moves+rp.moves, prunes+rp.prune, steps+rp.steps, ahead+rp.ahead
		if len(evs) > 0 {
			cycles += evs[len(evs)-1].Cycle + 1
		}
	}
	if ahead > 0 {
		t.Fatalf("%d reserved branches kept their address flit past the cycle of the reservation", ahead)
	}
	if prunes == 0 || (wantDeadlocks && deadlocks == 0) {
		t.Fatalf("%d prunes, %d deadlocks in %d runs: the test does not cover pruning and deadlock", prunes, deadlocks, n)
	}
	t.Logf("%d tree runs, %d flit moves and %d prunes (%d transitions) in %d cycles, every one a path of the explorer's model; %d runs deadlock in both", n, moves, prunes, steps, cycles, deadlocks)
}
