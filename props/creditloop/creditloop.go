// Package creditloop decides the credit loops of an InfiniBand fabric from its own
// forwarding tables. It traces every route the tables give (every source port to every
// destination LID, on each path's SL), names every route that is lost (dropped at port
// 0 or a down port, at the wrong node, or looping), builds the dependency graph over
// (port, VL) channels that ibdmchk builds, lists its credit loops (the strongly
// connected parts of more than one channel) in ibdmchk's words, and for each loop
// decides under the vct semantics (model/vct) whether a deadlock is reachable at the
// given packet and buffer sizes: violated with the packets, the actions that reach it
// from the empty network and a replayable trace, holds when none is, inconclusive when
// a bound stops the search.
//
// A fabric without loops is deadlock-free (every blocked packet waits for the head of a
// buffer further along an acyclic graph). A loop is decided first by construction:
// its cycles, shortest first, are filled with platoons of K packets (K = buffer/packet)
// along routes that take their arcs, in an order where no platoon passes a buffer
// already filled; the schedule is replayed in the model. A loop no construction fills
// is searched exhaustively with every route through it.
//
// Reference: Dally & Seitz 1987 (dependency graphs); ibutils' ibdm CredLoops.cpp (the
// (port, VL) graph of ibdmchk); docs/semantics.md (the vct semantics and its deadlock).
package creditloop

import (
	"context"
	"fmt"
	"io"
	"sync/atomic"
	"time"

	"github.com/wormcheck/wormcheck/checker/progress"
	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/props"
)

// Options say what to trace and at which sizes to decide.
type Options struct {
	// All traces routes from and to the switches' management ports too (ibdmchk -a),
	// not only between CAs and routers.
	All bool
	// Buffer is the credits of one (port, VL) buffer and Packet the credits of one
	// packet (64-byte credits; a 2048-byte MTU is 32). 0 takes DefaultBuffer and
	// DefaultPacket.
	Buffer, Packet int
	// MaxErrors bounds the lost routes listed (0: 20).
	MaxErrors int
	// MaxStates bounds each exhaustive search of a loop (0: 1<<20 states).
	MaxStates int64
	// Progress, if not nil, receives a progress line at most once a second: the
	// destinations traced, the routes per second, the loops decided.
	Progress io.Writer
}

// The default sizes: a 2048-byte MTU (32 credits) and buffers of 4096 bytes per port
// and VL (64 credits), two packets each.
const (
	DefaultPacket = 32
	DefaultBuffer = 64
)

// Analysis is what Analyze found.
type Analysis struct {
	Fabric   *fabric.Fabric
	Channels *Channels
	Options  Options
	Pairs    PairStats
	// Arcs is the number of dependencies, UsedChannels the channels some route takes.
	Arcs, UsedChannels int
	Loops              []Loop
	Seconds            float64

	opt   Options
	k     int
	graph *graph
}

// Loop is one credit loop: its channels (ids of Analysis.Channels, increasing), a
// shortest cycle through it in order (Shortest says whether it is shortest for the
// whole loop or only among the cycles searched), and the decision.
type Loop struct {
	Channels []int32
	Cycle    []int32
	Shortest bool
	Decision Decision
	notes    []string
}

// Analyze traces the fabric's routes, finds its credit loops and decides each. It
// needs forwarding tables (fabric.Fabric.LFT); ctx stops it, with the loops not yet
// decided inconclusive.
func Analyze(ctx context.Context, f *fabric.Fabric, opt Options) (*Analysis, error) {
	start := time.Now()
	if opt.Buffer == 0 {
		opt.Buffer = DefaultBuffer
	}
	if opt.Packet == 0 {
		opt.Packet = DefaultPacket
	}
	if opt.MaxErrors == 0 {
		opt.MaxErrors = 20
	}
	if opt.MaxStates == 0 {
		opt.MaxStates = 1 << 20
	}
	if opt.Packet < 1 || opt.Buffer < opt.Packet {
		return nil, props.BadInputf("a buffer of %d credits holds no packet of %d credits; the buffer must be at least one packet (MTU)", opt.Buffer, opt.Packet)
	}
	if f.LFT == nil {
		return nil, props.BadInputf("%s has no forwarding tables: give the LFT dump, or route it (wormcheck help fabric)", f.Name)
	}
	a := &Analysis{Fabric: f, Options: opt, opt: opt, k: opt.Buffer / opt.Packet}
	a.Channels = newChannels(f, int(f.MaxVL())+1)
	srcs, dsts := endpoints(f, opt.All)
	var done counters
	line := progress.Start(progress.Options{W: opt.Progress, Label: "fabric"}, func() progress.Snapshot {
		return progress.Snapshot{Done: done.dests.Load(), Total: int64(len(dsts)), Unit: "destinations",
			Work: done.routes.Load(), WorkUnit: "routes", Note: fmt.Sprintf("loops decided %d", done.loops.Load())}
	})
	defer line.Stop()
	g, st, err := trace(ctx, f, a.Channels, srcs, dsts, int(f.MaxSL())+1, opt.MaxErrors, &done)
	if err != nil {
		return nil, err
	}
	g.freeze()
	a.graph, a.Pairs, a.Arcs = g, st, len(g.to)
	for v := range int32(a.Channels.Len()) {
		if len(g.out(v)) > 0 {
			a.UsedChannels++
		}
	}
	loops := components(g)
	loopOf := make([]int32, a.Channels.Len())
	for i := range loopOf {
		loopOf[i] = -1
	}
	for i, l := range loops {
		for _, v := range l {
			loopOf[v] = int32(i)
		}
	}
	var flows []loopFlows
	if len(loops) > 0 {
		flows = collectFlows(f, a.Channels, srcs, dsts, loopOf, len(loops))
	}
	for i, l := range loops {
		cs, exact := cycles(g, l)
		loop := Loop{Channels: l, Cycle: cs[0], Shortest: exact}
		if ctx.Err() != nil {
			loop.Decision = Decision{Verdict: props.Inconclusive, Reason: "stopped before this loop was decided"}
		} else {
			loop.Decision = a.decide(ctx, &loop, &flows[i])
		}
		done.loops.Add(1)
		a.Loops = append(a.Loops, loop)
	}
	a.Seconds = time.Since(start).Seconds()
	return a, nil
}

// counters are what the progress line reads while Analyze works.
type counters struct {
	dests, routes, loops atomic.Int64
}

// Verdict is the fabric's verdict: violated when some loop has a reachable deadlock,
// inconclusive when some loop is undecided, holds otherwise (no loop, or none that can
// fill).
func (a *Analysis) Verdict() props.Verdict {
	v := props.Holds
	for _, l := range a.Loops {
		switch l.Decision.Verdict {
		case props.Violated:
			return props.Violated
		case props.Inconclusive:
			v = props.Inconclusive
		}
	}
	return v
}

// K is the number of packets a buffer holds.
func (a *Analysis) K() int { return a.k }

// ChannelName names a channel in ibdmchk's words.
func (a *Analysis) ChannelName(id int32) string { return a.Channels.Name(id) }

// LoopNames lists a loop's shortest cycle as ibdmchk lists a credit loop: one channel
// per line.
func (a *Analysis) LoopNames(l *Loop) []string {
	var out []string
	for _, id := range l.Cycle {
		out = append(out, a.ChannelName(id))
	}
	return out
}

// String summarises an analysis in one line.
func (a *Analysis) String() string {
	return fmt.Sprintf("%d routes (%d delivered), %d channels, %d dependencies, %s", a.Pairs.Pairs, a.Pairs.Delivered, a.UsedChannels, a.Arcs, plural(len(a.Loops), "credit loop"))
}
