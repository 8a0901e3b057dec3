package sim_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/checker/sim/pipeline"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// pipelineRun is one random configuration of packets and router pipeline for
// checker/sim/pipeline, replayed on the explorer's model.
type pipelineRun struct {
	topo    string
	packets []pipeline.Packet
	length  int
	router  pipeline.Router
}

func (r pipelineRun) String() string {
	x := r.router
	return fmt.Sprintf("%s packets %v L=%d B=%d delays r%d va%d sa%d st%d+%d credit%d speedup %d/%d/%.1f %v/%v hold %v",
		r.topo, r.packets, r.length, x.Buffer, x.RoutingDelay, x.VCAllocDelay, x.SWAllocDelay, x.STPrepareDelay, x.STFinalDelay,
		x.CreditDelay, x.InputSpeedup, x.OutputSpeedup, x.InternalSpeedup, x.VCAllocator, x.SWAllocator, x.HoldSwitchForPacket)
}

func randomPipelineRun(rng *rand.Rand) pipelineRun {
	w, h := 2+rng.IntN(3), 1+rng.IntN(3)
	topo := fmt.Sprintf("mesh:%dx%d", w, h)
	if h == 1 {
		topo = fmt.Sprintf("mesh:%d", w)
	}
	r := pipelineRun{topo: topo, length: 1 + rng.IntN(4)}
	x := pipeline.DefaultRouter()
	x.VCs, x.Buffer, x.WaitForTailCredit = 1, 1+rng.IntN(3), true
	x.RoutingDelay, x.VCAllocDelay, x.SWAllocDelay = rng.IntN(3), 1+rng.IntN(2), 1+rng.IntN(2)
	x.STPrepareDelay, x.STFinalDelay, x.CreditDelay = rng.IntN(2), rng.IntN(3), rng.IntN(3)
	x.InputSpeedup, x.OutputSpeedup, x.InternalSpeedup = 1+rng.IntN(2), 1+rng.IntN(2), []float64{1, 1.5, 2}[rng.IntN(3)]
	x.VCAllocator = pipeline.Allocator(rng.IntN(3))
	x.SWAllocator = pipeline.Allocator(rng.IntN(3))
	x.HoldSwitchForPacket = rng.IntN(2) == 1
	r.router = x
	n := w * h
	for k := 2 + rng.IntN(4); len(r.packets) < k; {
		s, d := rng.IntN(n), rng.IntN(n)
		if s != d {
			r.packets = append(r.packets, pipeline.Packet{Src: s, Dst: d, Size: r.length, At: int64(rng.IntN(12))})
		}
	}
	return r
}

// TestPipelineRunsAreExplorerPaths is the evidence that BookSim's router pipeline adds
// delays only: runs of checker/sim/pipeline on random small meshes with random pipeline
// parameters (routing, VC and switch allocation delays, switch traversal, credit delay,
// input, output and internal speedup, the three allocators, switch holding, buffers of
// 1-3 flits), one VC with atomic allocation (BookSim's wait_for_tail_credit = 1) and
// random packets are paths of the explorer's model (model/flit, one-port), each flit
// leaving a buffer one transition, batched by cycle: a flit that crosses a switch has a
// credit, so the model's buffer it enters has room; a VC is given to a new packet only
// after the previous tail's credit came back, so its buffer is empty; flits waiting in
// the router's injection buffer are still at their source. So every interleaving the
// pipeline produces is one the explorer explores, and its verdicts hold for the
// pipeline too (docs/semantics.md).
func TestPipelineRunsAreExplorerPaths(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 200
	}
	rng := rand.New(rand.NewPCG(20261128, 33))
	moves := 0
	for k := 0; k < n; k++ {
		r := randomPipelineRun(rng)
		g, err := topology.Parse(r.topo)
		if err != nil {
			t.Fatal(err)
		}
		var evs []sim.TraceEvent
		res, err := pipeline.Run(pipeline.Config{Network: g, Relation: routing.NewDOR(g, false), Router: r.router,
			Traffic: pipeline.Traffic{Packets: r.packets}, Trace: func(e pipeline.TraceEvent) {
				ev := sim.TraceEvent{Cycle: e.Cycle, Worm: int32(e.Packet), Msg: int32(e.Packet), Head: e.Head, Tail: e.Tail,
					InChannel: e.In, InVC: e.InVC, Channel: e.Out, VC: e.VC, Node: e.Node}
				if e.Out != topology.None {
					ev.Node = g.Channel(e.Out).To
				}
				evs = append(evs, ev)
			}})
		if err != nil {
			t.Fatalf("run %d (%s): %v", k, r, err)
		}
		if !res.Stable {
			t.Fatalf("run %d (%s): did not finish", k, r)
		}
		var pairs []unicast.Pair
		for _, p := range r.packets {
			pairs = append(pairs, unicast.Pair{Src: topology.NodeID(p.Src), Dst: topology.NodeID(p.Dst)})
		}
		fr := flitRun{topo: r.topo, pairs: pairs, length: r.length, buffer: r.router.Buffer, vcs: 1, ports: model.OnePort}
		steps, err := replayOnModel(fr, evs)
		if err != nil {
			t.Fatalf("run %d (%s): %v", k, r, err)
		}
		if steps != len(evs) {
			t.Fatalf("run %d (%s): %d moves, %d transitions", k, r, len(evs), steps)
		}
		moves += steps
	}
	t.Logf("%d pipeline runs, %d flit moves, every one a path of the explorer's model", n, moves)
}
