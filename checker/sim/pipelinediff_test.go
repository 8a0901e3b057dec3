package sim_test

import (
	"fmt"
	"math"
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

// unpipelined is the pipeline configured as the papers' router of checker/sim: no
// routing delay, VC and switch allocation and switch traversal within one cycle
// (internal speedup 3), channels of latency 0 (a flit crosses in the cycle's
// hand-over), no credit delay, atomic VC allocation.
func unpipelined(vcs, buffer int) pipeline.Router {
	r := pipeline.DefaultRouter()
	r.VCs, r.Buffer, r.WaitForTailCredit = vcs, buffer, true
	r.RoutingDelay, r.STFinalDelay, r.InternalSpeedup = 0, 0, 3
	return r
}

// runBoth runs worms from src to dst, all created at cycle 0, in checker/sim (one-port,
// ts = tr = 0) and in the unpipelined pipeline, and returns each worm's latency in both.
func runBoth(t *testing.T, spec string, pairs []unicast.Pair, length, vcs, buffer int) (simLat, pipeLat []int64) {
	t.Helper()
	top, err := topology.Parse(spec)
	if err != nil {
		t.Fatal(err)
	}
	g := top
	dateline := g.Kind() == topology.Torus
	dor := topology.NewDOR(g)
	s := &model.Schedule{Topology: g, Ports: model.OnePort}
	var pk []pipeline.Packet
	for i, p := range pairs {
		s.Sources = append(s.Sources, p.Src)
		s.GroupDestinations = append(s.GroupDestinations, []topology.NodeID{p.Dst})
		s.Destinations = append(s.Destinations, p.Dst)
		s.Group = append(s.Group, i)
		s.Unicasts = append(s.Unicasts, model.Unicast{From: p.Src, To: p.Dst, Path: dor.Path(p.Src, p.Dst), Step: 1, Order: 1})
		pk = append(pk, pipeline.Packet{Src: int(p.Src), Dst: int(p.Dst), Size: length})
	}
	sr, err := sim.ExecuteSchedule(g, s, sim.ScheduleOptions{L: length, VCs: vcs, Buffer: buffer, Dateline: dateline})
	if err != nil {
		t.Fatal(err)
	}
	pr, err := pipeline.Run(pipeline.Config{Network: g, Relation: routing.NewDOR(g, dateline), Router: unpipelined(vcs, buffer),
		Latency: func(topology.ChannelID) int { return 0 }, Traffic: pipeline.Traffic{Packets: pk}})
	if err != nil {
		t.Fatal(err)
	}
	for i := range pairs {
		simLat = append(simLat, sr.Deliver[i])
		pipeLat = append(pipeLat, pr.Packets[i].Arrived-pr.Packets[i].Created)
	}
	return simLat, pipeLat
}

// TestUnpipelinedPipelineMatchesSimulator keeps the two engines in step: with the
// pipeline's delays taken out (unpipelined), a lone worm's latency in the pipeline is
// checker/sim's plus 3 cycles, for every route, length, buffer depth and VC count (the
// pipeline's terminal is a node of its own: its injection channel into the router and
// the router's ejection channel to it take a cycle each plus a hand-over; checker/sim's
// source and destination are the routers themselves). Both engines' runs are also
// replayed as paths of the explorer's model (TestSimulatorRunsAreExplorerPaths,
// TestPipelineRunsAreExplorerPaths): one flit semantics, two timings of it.
func TestUnpipelinedPipelineMatchesSimulator(t *testing.T) {
	rng := rand.New(rand.NewPCG(20261128, 34))
	specs := []string{"mesh:4x4", "mesh:3x5", "torus:4x4", "torus:5x3", "mesh:6"}
	for k := 0; k < 300; k++ {
		spec := specs[rng.IntN(len(specs))]
		top, _ := topology.Parse(spec)
		n := top.Nodes()
		p := unicast.Pair{Src: topology.NodeID(rng.IntN(n)), Dst: topology.NodeID(rng.IntN(n))}
		if p.Src == p.Dst {
			continue
		}
		vcs := 1 + rng.IntN(2)
		if top.Kind() == topology.Torus {
			vcs *= 2
		}
		length, buffer := 1+rng.IntN(6), 1+rng.IntN(3)
		s, q := runBoth(t, spec, []unicast.Pair{p}, length, vcs, buffer)
		if q[0] != s[0]+1 {
			t.Fatalf("%s %d->%d L=%d V=%d B=%d: pipeline %d, checker/sim %d (+1 expected)", spec, p.Src, p.Dst, length, vcs, buffer, q[0], s[0])
		}
	}
}

// TestUnpipelinedPipelineTracksSimulatorUnderContention: with worms contending (six
// worms from random sources at cycle 0 on a 4x4 mesh, 300 sets), the unpipelined
// pipeline and checker/sim give most worms the same latency (up to the pipeline's extra
// cycle) and the same mean within 3%. They differ where the routers differ by design:
// the pipeline arbitrates a channel by iSLIP among router inputs, one crossbar input per
// input port, checker/sim by round robin among the channel's VCs, each VC of an input
// moving on its own.
func TestUnpipelinedPipelineTracksSimulatorUnderContention(t *testing.T) {
	rng := rand.New(rand.NewPCG(20261128, 35))
	same, total := 0, 0
	var sumSim, sumPipe int64
	for k := 0; k < 300; k++ {
		var pairs []unicast.Pair
		for len(pairs) < 6 {
			p := unicast.Pair{Src: topology.NodeID(rng.IntN(16)), Dst: topology.NodeID(rng.IntN(16))}
			if p.Src != p.Dst {
				pairs = append(pairs, p)
			}
		}
		s, q := runBoth(t, "mesh:4x4", pairs, 4, 1, 2)
		for i := range s {
			total++
			sumSim += s[i]
			sumPipe += q[i] - 1
			if q[i] == s[i]+1 {
				same++
			}
		}
	}
	ms, mp := float64(sumSim)/float64(total), float64(sumPipe)/float64(total)
	if same < total*8/10 || math.Abs(mp-ms) > 0.03*ms {
		t.Fatalf("%d of %d worms with the same latency; mean %.3f in checker/sim, %.3f in the pipeline", same, total, ms, mp)
	}
	t.Logf("%d of %d worms with the same latency; mean %.3f in checker/sim, %.3f in the pipeline", same, total, ms, mp)
}
