package sim_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
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
	return fmt.Sprintf("%s worms %s L=%d B=%d V=%d %v", r.topo, unicast.FormatPairs(r.pairs), r.length, r.buffer, r.vcs, r.ports)
}

func randomFlitRun(rng *rand.Rand) flitRun {
	topos := []string{"mesh:3x3", "mesh:2x4", "mesh:4", "torus:4", "torus:3x3", "hypercube:3"}
	r := flitRun{topo: topos[rng.IntN(len(topos))], length: 1 + rng.IntN(4), buffer: 1 + rng.IntN(3), vcs: 1 + rng.IntN(2)}
	if rng.IntN(2) == 1 {
		r.ports = model.AllPort
	}
	t, _ := model.ParseTopology(r.topo)
	g := t.(*model.Grid)
	if g.Kind() == model.Torus {
		r.vcs = 2 * r.vcs // two dateline classes, one or two VCs each
	}
	n := g.Nodes()
	for k := 1 + rng.IntN(3); len(r.pairs) < k; {
		p := unicast.Pair{Src: model.NodeID(rng.IntN(n)), Dst: model.NodeID(rng.IntN(n))}
		if p.Src != p.Dst {
			r.pairs = append(r.pairs, p)
		}
	}
	return r
}

// simulate runs the worms in the simulator, all handed over at cycle 0 (one group per
// worm, ts = tr = 0), and returns its flit moves.
func (r flitRun) simulate() (*model.Grid, []sim.TraceEvent, error) {
	t, err := model.ParseTopology(r.topo)
	if err != nil {
		return nil, nil, err
	}
	g := t.(*model.Grid)
	dor := model.NewDOR(g)
	s := &model.Schedule{Topology: g, Ports: r.ports}
	for i, p := range r.pairs {
		s.Sources = append(s.Sources, p.Src)
		s.GroupDestinations = append(s.GroupDestinations, []model.NodeID{p.Dst})
		s.Destinations = append(s.Destinations, p.Dst)
		s.Group = append(s.Group, i)
		s.Unicasts = append(s.Unicasts, model.Unicast{From: p.Src, To: p.Dst, Path: dor.Path(p.Src, p.Dst), Step: 1, Order: 1})
	}
	var evs []sim.TraceEvent
	_, err = sim.ExecuteSchedule(g, s, sim.ScheduleOptions{L: r.length, VCs: r.vcs, Buffer: r.buffer,
		Dateline: g.Kind() == model.Torus, CPUPerGroup: true, Trace: func(e sim.TraceEvent) { evs = append(evs, e) }})
	return g, evs, err
}

// replayOnModel checks that the simulator's moves, cycle by cycle, are a path of the
// explorer's model: each cycle's moves are a batch of model transitions (each move one
// transition, in some order within the cycle, since a cycle's moves use only buffer
// slots and channels free when it began), and the path ends in a Terminal state. It
// returns the number of transitions taken, or an error naming the first move the model
// refuses.
func replayOnModel(r flitRun, evs []sim.TraceEvent) (int, error) {
	g, _ := model.ParseTopology(r.topo)
	m, err := unicast.BuildOn(g.(*model.Grid), unicast.Spec{Topology: r.topo, Pairs: r.pairs, Length: r.length, Buffer: r.buffer, VCs: r.vcs, Ports: r.ports})
	if err != nil {
		return 0, err
	}
	s := m.Init()[0]
	steps := 0
	var succ []checker.Transition[flit.State]
	for lo := 0; lo < len(evs); {
		hi := lo
		for hi < len(evs) && evs[hi].Cycle == evs[lo].Cycle {
			hi++
		}
		pending := append([]sim.TraceEvent(nil), evs[lo:hi]...)
		for len(pending) > 0 {
			progress := false
			for k := 0; k < len(pending); k++ {
				ev := pending[k]
				succ = m.Successors(s, succ[:0])
				found := false
				for _, t := range succ {
					mv, err := m.Explain(s, t.Action)
					if err != nil || mv.Msg != int(ev.Msg) || mv.Kind == flit.KindPrune {
						continue
					}
					if ev.Channel == model.None && mv.To != flit.Eject {
						continue
					}
					if ev.Channel != model.None && (mv.To < 0 || m.Channel(mv.To) != ev.Channel || m.VCOf(mv.To) != ev.VC) {
						continue
					}
					if ev.Head != mv.Address {
						return steps, fmt.Errorf("cycle %d: worm %d moves a flit to %v that is the header in one model and not the other (sim %v, explorer %v)", ev.Cycle, ev.Msg, ev.Channel, ev.Head, mv.Address)
					}
					s, found = t.Next, true
					steps++
					break
				}
				if found {
					pending = append(pending[:k], pending[k+1:]...)
					k--
					progress = true
				}
			}
			if !progress {
				ev := pending[0]
				where := "is delivered"
				if ev.Channel != model.None {
					where = fmt.Sprintf("crosses %s vc%d", g.(*model.Grid).ChannelName(ev.Channel), ev.VC)
				}
				return steps, fmt.Errorf("cycle %d: the model refuses worm %d's flit (head %v, tail %v) that %s at %s; model state: %s",
					ev.Cycle, ev.Msg, ev.Head, ev.Tail, where, g.NodeName(ev.Node), m.Waits(s))
			}
		}
		lo = hi
	}
	if !m.Terminal(s) {
		return steps, fmt.Errorf("the simulator finished but the model is not done: %s", m.Waits(s))
	}
	return steps, nil
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
