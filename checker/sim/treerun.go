package sim

import (
	"fmt"

	"github.com/wormcheck/wormcheck/model"
	flitmodel "github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

// TreeMessage is one tree multicast of a fixed message set (ExecuteTrees): from Source
// to Dests, whose address flits travel in this order (000 Fig. 1).
type TreeMessage struct {
	Source topology.NodeID
	Dests  []topology.NodeID
}

// TreeOptions are the parameters of ExecuteTrees.
type TreeOptions struct {
	Data     int // data flits per message (000 §5.1 uses 1; 0 = 1)
	VCs      int // virtual channels per physical channel (0 = the routing's classes)
	Buffer   int // flits per VC buffer (0 = 2)
	Ports    model.PortModel
	Prune    flitmodel.Prune
	Dateline bool // the two dateline classes of topology.DOR on a torus
	// Limit bounds the simulated cycles (0 = a bound from the messages).
	Limit int64
	// Trace, if set, sees every flit move, branch reservation and prune; TraceEvent.Msg
	// is the message's index.
	Trace func(TraceEvent)
}

// TreeResult is the outcome of ExecuteTrees.
type TreeResult struct {
	// Completion is the cycle after the last destination was served (address flit and
	// data delivered).
	Completion int64
	// Served[i][j] is when Dests[j] of message i was served, -1 if never.
	Served     [][]int64
	FlitHops   int64
	Prunes     int64
	Deadlocked bool // flits stayed in the network without moving: no run to completion
}

// ExecuteTrees runs a fixed set of tree multicasts at flit level (tree.go's router, the
// one Run uses for Config.Tree), every message handed to its source's injection port at
// cycle 0 (ts = tr = 0), until every destination is served and every branch released,
// or until nothing has moved for longer than any wait can last (Deadlocked, which
// PruneNone can reach: 000 Fig. 3). It is the entry of the differential test against
// the explorer's model (model/flit): Trace sees every move, reservation and prune.
func ExecuteTrees(g *topology.Network, msgs []TreeMessage, opt TreeOptions) (*TreeResult, error) {
	if g == nil {
		return nil, fmt.Errorf("trees: a grid is required")
	}
	if len(msgs) == 0 {
		return nil, fmt.Errorf("trees: no messages")
	}
	if opt.Data == 0 {
		opt.Data = 1
	}
	if opt.Buffer == 0 {
		opt.Buffer = 2
	}
	if opt.Prune > flitmodel.PrunePartial {
		return nil, fmt.Errorf("prune %d: not a pruning policy", opt.Prune)
	}
	if opt.Data < 1 || opt.Data > 1<<20 {
		return nil, fmt.Errorf("data %d: a tree message needs 1..%d data flits", opt.Data, 1<<20)
	}
	r := topology.NewDOR(g)
	r.Dateline = opt.Dateline && g.Kind() == topology.Torus
	classes := r.Classes()
	if opt.VCs == 0 {
		opt.VCs = classes
	}
	N := g.Nodes()
	for i, m := range msgs {
		if int(m.Source) < 0 || int(m.Source) >= N {
			return nil, fmt.Errorf("message %d: source %d is not a node of %s", i, m.Source, g.Spec())
		}
		if len(m.Dests) == 0 || len(m.Dests) > maxTreeDests {
			return nil, fmt.Errorf("message %d: %d destinations; a tree carries 1..%d", i, len(m.Dests), maxTreeDests)
		}
		for j, d := range m.Dests {
			if int(d) < 0 || int(d) >= N || d == m.Source {
				return nil, fmt.Errorf("message %d: destination %d is not a node other than the source", i, d)
			}
			for _, e := range m.Dests[:j] {
				if e == d {
					return nil, fmt.Errorf("message %d lists destination %s twice", i, g.NodeName(d))
				}
			}
		}
	}
	in, out := 2*g.Dims(), 2*g.Dims()
	if opt.Ports == model.OnePort {
		in, out = 1, 1
	}
	net, err := newNetwork(g, opt.VCs, opt.Buffer, in, out, classes)
	if err != nil {
		return nil, err
	}
	res := &TreeResult{Served: make([][]int64, len(msgs))}
	left := 0
	for i, m := range msgs {
		res.Served[i] = make([]int64, len(m.Dests))
		for j := range res.Served[i] {
			res.Served[i][j] = -1
		}
		left += len(m.Dests)
	}
	net.enableTree(opt.Prune, func(tm int32, v topology.NodeID, t int64) {
		i := net.tree.msgs[tm].msg
		for j, d := range msgs[i].Dests {
			if d == v {
				res.Served[i][j] = t
			}
		}
		left--
		res.Completion = max(res.Completion, t)
	})
	net.trace = opt.Trace
	net.delivered = func(int32, topology.NodeID, int64, bool) {}
	for i, m := range msgs {
		tm := net.newTree(r, m.Source, m.Dests, int32(opt.Data), int32(i))
		w := net.newWorm()
		wr := &net.worms[w]
		tr := &net.tree.msgs[tm]
		tr.worm = w
		wr.hops = append(wr.hops[:0], tr.paths[0]...)
		wr.length = int32(len(m.Dests) + opt.Data)
		wr.src, wr.msg, wr.tree = m.Source, int32(i), tm+1
		p := 0
		if in > 1 {
			ch := g.Channel(wr.hops[0].Channel)
			p = ch.Dim*2 + int(ch.Dir)
		}
		net.inject(w, int(m.Source)*in+p, 0)
	}
	limit := opt.Limit
	if limit == 0 {
		limit = int64(len(msgs)) * int64(opt.Data+maxTreeDests+N) * 64
	}
	stall := int64(2*(opt.Data+maxTreeDests+N) + 16)
	var t int64
	for ; t <= limit; t++ {
		net.cycle(t)
		if left == 0 && net.idle() && len(net.tree.act) == 0 {
			break
		}
		if t-net.lastMove > stall {
			res.Deadlocked = true
			break
		}
	}
	res.FlitHops, res.Prunes = net.flitHops, net.tree.prunes
	if !res.Deadlocked && (left > 0 || len(net.tree.act) > 0) {
		return res, fmt.Errorf("trees: %d destinations unserved after %d cycles (bound too small)", left, limit)
	}
	return res, nil
}
