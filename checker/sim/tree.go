package sim

// Tree-based multicast with pruning (000 §2-§4) in the flit-level network.
//
// A tree multicast is one worm at its source: the address flit of dests[0], D =
// Length-1 data flits, then the address flits of dests[1..] (000 Fig. 1). Every input
// unit (a VC input buffer, or the source's injection port) that carries it keeps the
// state of 000 §4's input channel controller (treeIn): the outputs its message reserved
// there, the branch the data goes to, and the auxiliary buffer (the data is the same
// for every branch, so it is a count of flits still to re-inject). Each cycle, before
// the channels move, treeStep routes the next flit of every tree input by the base
// routing (topology.DOR; the address flit of dests[i] follows the DOR path from the source
// to dests[i], dateline classes included): an address flit whose next channel (and VC
// class) is among the reserved outputs follows that branch (000 §2.1 case (b)); one
// that needs a new output takes a free VC of its class, or the node's free delivery
// port at its destination, and is then followed by the data from the auxiliary buffer
// if the data has already passed (case (a)); data flits go to the branch of the latest
// address. An input sends at most one flit per cycle, a flit leaves a router no earlier
// than the cycle after it arrived, as for unicasts, so a lone tree with one destination
// takes exactly the unicast's ts + h + L + tr, and TestPropLoneTreeMatchesTwin checks
// lone trees against a naive twin.
//
// Release and pruning follow model/flit (its doc.go): an input is released when its
// upstream has finished (the last address flit has passed, or the upstream released or
// pruned it), its buffer holds no flit of the tree and no re-injection is pending; its
// outputs are then closed. A closed VC stays held until its buffer has drained (the
// release travels down the branch); it is not re-allocated meanwhile. PruneOnStop
// closes every reserved output but the blocked one when the next flit cannot move
// because its address flit finds no free output or its output buffer is full;
// pruned branches keep their flits, which drain to the destinations whose address flits
// they carry, and a later address flit that needs the pruned direction opens a new
// branch with the data re-injected. Every address flit is routed once at every router
// on its path, so every destination is served exactly once (TestTreeExactlyOnceUnderLoad).
//
// A delivery port, like every reserved output, stays reserved until its input is
// released or prunes it (000 §4: the release notification follows the message's last
// flit), as in model/flit; under one-port it is the node's single delivery channel. A
// release travels down a finished or pruned branch at once (treeClose), and a new
// branch's address flit crosses its channel in the cycle the branch is reserved (it is
// served before the round robin, and a channel takes one new branch a cycle; a second
// address flit needing that channel waits), as model/flit reserves and moves in one
// transition: no state has a branch reserved and still empty at the end of a cycle, in
// which another header would find the VC taken and prune where the model cannot.
// Reconstruction (where model/flit and 000 are silent on timing): unicast headers are
// allocated before tree flits are routed in a cycle; pruning counts each closed branch
// once (Result.Prunes), not a delivery port whose destination has been served.
//
// A cycle of a tree run is a batch of model/flit transitions: TestTreeRunsAreExplorerPaths
// replays random small runs (ExecuteTrees, with their moves, reservations and prunes
// traced) on the explorer's model.

import (
	"fmt"

	flitmodel "github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

// The pruning policies of tree-based multicast are model/flit's (flitmodel.Prune), with its
// names and semantics. PruneOnStop is the one model/flit found deadlock-free: an input
// whose next flit cannot move, because its address flit finds no free output or because
// the output buffer it goes to is full, releases every other branch it reserved.
// PruneOnNoFree prunes (every branch) only when an address flit finds no free output
// (000 §3's total pruning as worded for Lemma 1). PruneNone never prunes (it can
// deadlock; Result.Deadlocked says so). PrunePartial is PruneOnStop keeping the branch
// into the node's own delivery port.

// maxTreeDests is the most destinations a tree multicast may have: a tree flit carries
// its destination index in 6 bits, 63 meaning a data flit.
const maxTreeDests = 62

const treeData = 63

// treeMsg is one tree multicast in flight: its destinations, the DOR path from the source
// to each (the route every address flit follows; 000 §2: the base routing decides every
// branch), its data length D and how many destinations are still to be served.
type treeMsg struct {
	src   topology.NodeID
	dests []topology.NodeID
	paths [][]topology.Hop
	D     int32
	msg   int32 // message record
	worm  int32 // the worm in the source's injection port
	left  int32 // destinations not yet served
	live  int32 // input units whose tree state refers to it
}

// treeOut is one output reserved by a tree input: a network VC or a delivery port.
type treeOut struct {
	y     int32
	ch    topology.ChannelID // topology.None for a delivery port
	fresh bool               // no flit sent yet: the first is the address flit that opened it
	done  bool               // a delivery port whose destination has been served
}

// treeIn is the tree-multicast state of one input unit (000 §4: the input channel
// controller's table of reserved outputs and auxiliary data buffer).
type treeIn struct {
	active   bool
	listed   bool // in treeState.act (an entry stays until treeReleaseDone drops it)
	closed   bool // upstream finished: no more flits will arrive
	dataSeen bool // the data has passed (it is in the auxiliary buffer)
	tm       int32
	outs     []treeOut
	cur      int32 // output the data goes to (the branch of the latest address flit)
	reinj    int32 // data flits still to re-inject from the auxiliary buffer into cur
	inBuf    int32 // flits of this tree in the unit's buffer (network VCs)
	sent     int32 // flits of the format sent (injection ports)
	ejN      int32 // flits sent into the delivery port being served
	tgt      int32 // output chosen for this cycle, or -1
}

// treeState is the network's tree-multicast bookkeeping.
type treeState struct {
	prune flitmodel.Prune
	msgs  []treeMsg
	free  []int32
	in    []treeIn // per input unit
	act   []int32  // active input units, in activation order
	// A new branch's address flit crosses its channel in the cycle the branch is
	// reserved, as model/flit's allocation reserves and moves at once: prioT[c] is the
	// cycle channel c last got a new branch, prioY[c] that VC, served first that cycle;
	// a channel takes at most one new branch a cycle.
	prioT  []int64
	prioY  []int32
	prunes int64
	// served is called when destination v of tree message tm has its address flit and
	// all data delivered; the data is usable at t.
	served func(tm int32, v topology.NodeID, t int64)
}

func (n *network) enableTree(p flitmodel.Prune, served func(tm int32, v topology.NodeID, t int64)) {
	n.treeOn = true
	n.tree = &treeState{prune: p, in: make([]treeIn, len(n.out)), served: served,
		prioT: make([]int64, n.g.Channels()), prioY: make([]int32, n.g.Channels())}
	for c := range n.tree.prioT {
		n.tree.prioT[c] = -1
	}
}

// newTree registers a tree multicast from src to dests with D data flits.
func (n *network) newTree(r topology.DOR, src topology.NodeID, dests []topology.NodeID, D, msg int32) int32 {
	ts := n.tree
	var id int32
	if k := len(ts.free); k > 0 {
		id = ts.free[k-1]
		ts.free = ts.free[:k-1]
	} else {
		ts.msgs = append(ts.msgs, treeMsg{})
		id = int32(len(ts.msgs) - 1)
	}
	m := &ts.msgs[id]
	m.src, m.D, m.msg, m.left, m.live = src, D, msg, int32(len(dests)), 0
	m.dests = append(m.dests[:0], dests...)
	for len(m.paths) < len(dests) {
		m.paths = append(m.paths, nil)
	}
	for i, d := range dests {
		m.paths[i] = r.AppendHops(m.paths[i][:0], src, d)
	}
	return id
}

func treeFlit(tm, code int32) flit { return flit(uint32(tm)<<6|uint32(code))<<3 | flagTree }

func (f flit) treeTM() int32   { return int32(f >> 9) }
func (f flit) treeCode() int32 { return int32(f>>3) & 63 }

// treeStart makes the tree worm w at the head of injection port x active.
func (n *network) treeStart(x int32, w int32) {
	tm := n.worms[w].tree - 1
	n.activateTree(x, tm)
}

func (n *network) activateTree(x, tm int32) {
	st := &n.tree.in[x]
	listed := st.listed
	*st = treeIn{active: true, listed: true, tm: tm, cur: -1, tgt: -1, outs: st.outs[:0]}
	n.tree.msgs[tm].live++
	if !listed {
		n.tree.act = append(n.tree.act, x)
	}
}

// treeAt reports whether input unit x's next flit belongs to its tree state: a VC
// allocated to a tree may still hold the last flits of an earlier worm, which go first.
func (n *network) treeAt(x int32) bool {
	st := &n.tree.in[x]
	if !st.active {
		return false
	}
	if int(x) >= n.nvc || st.reinj > 0 {
		return true
	}
	return n.vcs[x].count > 0 && flit(n.buf[int(x)*n.B+int(n.vcs[x].head)]>>32)&flagTree != 0
}

// treeStep runs before the channels move (after treeReleaseDone): it routes the next
// flit of every active tree input (000 §2.1 cases (a) and (b)), allocating a new branch
// when needed, and prunes (000 §3) where the flit cannot move.
func (n *network) treeStep(t int64) {
	ts := n.tree
	act := ts.act
	for i := 0; i < len(act); i++ {
		x := act[i]
		st := &ts.in[x]
		st.tgt = -1
		if !st.active {
			continue // released by a prune earlier in this cycle
		}
		code := int32(treeData)
		if st.reinj == 0 {
			var ok bool
			code, ok = n.treeHead(x, st, t)
			if !ok {
				continue
			}
		}
		m := &ts.msgs[st.tm]
		y := int32(-1)
		if code == treeData {
			y = st.cur
		} else {
			v := n.nodeOf(x)
			d := m.dests[code]
			if d == v {
				base := n.nvc + int(v)*n.outPorts
				for e := 0; e < n.outPorts; e++ {
					if n.src[base+e] < 0 {
						y = int32(base + e)
						break
					}
				}
				if y < 0 {
					n.treePrune(x, st, -1, t)
					continue
				}
				n.src[y] = x
				n.holder[y] = m.worm
				if !n.onEj[y] {
					n.onEj[y] = true
					n.activeEj = append(n.activeEj, y)
				}
				st.outs = append(st.outs, treeOut{y: y, ch: topology.None, fresh: true})
				n.traceReserve(x, y, st.tm, t)
			} else {
				h := n.treeHop(m.paths[code], v)
				c := int(h.Channel)
				lo, hi := 0, n.V
				if n.classes > 1 {
					k := min(int(h.Class), n.classes-1)
					lo, hi = k*n.V/n.classes, (k+1)*n.V/n.classes
				}
				for _, o := range st.outs {
					if o.ch == h.Channel && int(o.y)%n.V >= lo && int(o.y)%n.V < hi {
						y = o.y // case (b): follow the branch an earlier address opened
						break
					}
				}
				if y < 0 {
					for vc := lo; vc < hi; vc++ {
						if n.vcFree(c, vc) {
							y = int32(c*n.V + vc)
							break
						}
					}
					if y < 0 {
						n.treePrune(x, st, -1, t)
						continue
					}
					if ts.prioT[c] == t {
						continue // c already takes a new branch this cycle: wait
					}
					ts.prioT[c], ts.prioY[c] = t, y
					// Case (a): a new branch.
					n.src[y] = x
					n.holder[y] = m.worm
					n.mask[c] |= 1 << uint(int(y)%n.V)
					if !n.onCh[c] {
						n.onCh[c] = true
						n.activeCh = append(n.activeCh, int32(c))
					}
					st.outs = append(st.outs, treeOut{y: y, ch: h.Channel, fresh: true})
					n.traceReserve(x, y, st.tm, t)
					n.activateTree(y, st.tm)
					act = ts.act
					st = &ts.in[x]
				}
			}
		}
		if (ts.prune == flitmodel.PruneOnStop || ts.prune == flitmodel.PrunePartial) && int(y) < n.nvc && int(n.vcs[y].count) >= n.B {
			n.treePrune(x, st, y, t)
		}
		st.tgt = y
	}
	ts.act = act
}

// treeReleaseDone releases every tree input that has finished (closed upstream, empty
// buffer, no re-injection pending) before anything is routed in a cycle, and drops the
// released inputs from the active list. With treeClose, which releases a closed input
// that is already empty at once, a release travels down a finished or pruned branch
// immediately and frees its VCs before the next routing decision, as in model/flit
// (where the release happens in the transition that empties or closes the input).
func (n *network) treeReleaseDone() {
	ts := n.tree
	for again := true; again; {
		again = false
		for i := 0; i < len(ts.act); i++ {
			x := ts.act[i]
			st := &ts.in[x]
			if st.active && n.treeFinished(x, st) {
				n.treeRelease(x)
				again = true
			}
			if !st.active {
				st.listed = false
				ts.act[i] = ts.act[len(ts.act)-1]
				ts.act = ts.act[:len(ts.act)-1]
				i--
			}
		}
	}
}

// treeFinished reports whether tree input x may be released: its upstream has finished,
// its buffer holds no flit of the tree and no re-injection is pending.
func (n *network) treeFinished(x int32, st *treeIn) bool {
	return st.closed && st.reinj == 0 && (int(x) >= n.nvc || st.inBuf == 0)
}

// treeHead returns the code of the next flit of tree input x from its buffer (or its
// source), if it may move in cycle t.
func (n *network) treeHead(x int32, st *treeIn, t int64) (int32, bool) {
	if int(x) >= n.nvc {
		if st.closed {
			return 0, false
		}
		D := n.tree.msgs[st.tm].D
		switch s := st.sent; {
		case s == 0:
			return 0, true
		case s <= D:
			return treeData, true
		default:
			return s - D, true
		}
	}
	if st.inBuf == 0 {
		return 0, false
	}
	e := n.buf[int(x)*n.B+int(n.vcs[x].head)]
	f := flit(e >> 32)
	if f&flagTree == 0 || uint32(e) == uint32(t) {
		return 0, false // an earlier worm's flits are still ahead, or the flit just arrived
	}
	return f.treeCode(), true
}

// treeHop returns the hop of path that leaves node v.
func (n *network) treeHop(path []topology.Hop, v topology.NodeID) topology.Hop {
	for _, h := range path {
		if n.g.Channel(h.Channel).From == v {
			return h
		}
	}
	panic(fmt.Sprintf("sim: tree address flit at %s is off its DOR path", n.g.NodeName(v)))
}

// treePrune releases the branches of input x (state st) except output keep (000 §3),
// and with PrunePartial also its delivery port; a released branch keeps its flits,
// which drain to the destinations whose address flits they carry.
func (n *network) treePrune(x int32, st *treeIn, keep int32, t int64) {
	if n.tree.prune == flitmodel.PruneNone {
		return
	}
	var cut []int32
	k := 0
	for _, o := range st.outs {
		if o.y == keep || n.tree.prune == flitmodel.PrunePartial && int(o.y) >= n.nvc {
			st.outs[k] = o
			k++
			continue
		}
		n.treeClose(o.y)
		if !o.done {
			n.tree.prunes++
		}
		if n.trace != nil {
			cut = append(cut, n.outIndex(o.y))
		}
	}
	st.outs = st.outs[:k]
	if n.trace != nil && len(cut) > 0 {
		m := &n.tree.msgs[st.tm]
		ev := TraceEvent{Cycle: t, Kind: TracePrune, Worm: m.worm, Msg: m.msg, Node: n.nodeOf(x), Channel: topology.None, InChannel: topology.None, Pruned: cut}
		if int(x) < n.nvc {
			ev.InChannel, ev.InVC = topology.ChannelID(int(x)/n.V), int(x)%n.V
		}
		n.trace(ev)
	}
}

// outIndex numbers output unit y as model/flit does: a network VC by its index, a
// delivery port as -1.
func (n *network) outIndex(y int32) int32 {
	if int(y) < n.nvc {
		return y
	}
	return -1
}

// traceReserve traces the reservation of output y by tree input x in cycle t.
func (n *network) traceReserve(x, y, tm int32, t int64) {
	if n.trace == nil {
		return
	}
	m := &n.tree.msgs[tm]
	ev := TraceEvent{Cycle: t, Kind: TraceReserve, Worm: m.worm, Msg: m.msg, Head: true}
	if int(y) < n.nvc {
		ev.Channel, ev.VC = topology.ChannelID(int(y)/n.V), int(y)%n.V
		ev.Node = n.g.Channel(ev.Channel).To
	} else {
		ev.Channel, ev.Node = topology.None, topology.NodeID((int(y)-n.nvc)/n.outPorts)
	}
	ev.InChannel = topology.None
	if int(x) < n.nvc {
		ev.InChannel, ev.InVC = topology.ChannelID(int(x)/n.V), int(x)%n.V
	}
	n.trace(ev)
}

// treeClose tells output y that its upstream is done with it; a VC input that is then
// finished (empty) is released at once, so the release travels down the branch.
func (n *network) treeClose(y int32) {
	n.src[y] = -1
	if int(y) < n.nvc {
		st := &n.tree.in[y]
		st.closed = true
		if st.active && n.treeFinished(y, st) {
			n.treeRelease(y)
		}
	}
}

// treeRelease releases tree input x ("when the last address flit has passed"): its
// outputs are closed and its own VC (or injection port) freed.
func (n *network) treeRelease(x int32) {
	ts := n.tree
	st := &ts.in[x]
	st.active = false
	for _, o := range st.outs {
		n.treeClose(o.y)
	}
	st.outs = st.outs[:0]
	tm := st.tm
	m := &ts.msgs[tm]
	m.live--
	if int(x) < n.nvc {
		c := int(x) / n.V
		n.mask[c] &^= 1 << uint(int(x)%n.V)
		n.src[x] = -1
	} else {
		p := int(x) - n.nvc
		n.portHead[p]++
		n.releaseWorm(m.worm)
		n.afterTail(x)
	}
	if m.live == 0 && m.left == 0 {
		ts.free = append(ts.free, tm)
	}
}

// treeTransmit moves the next flit of tree input x to output y in cycle t.
func (n *network) treeTransmit(x, y int32, t int64) {
	ts := n.tree
	st := &ts.in[x]
	st.tgt = -1
	m := &ts.msgs[st.tm]
	var f flit
	switch {
	case st.reinj > 0:
		st.reinj--
		f = treeFlit(st.tm, treeData)
	case int(x) < n.nvc:
		f = n.pop(x)
		st.inBuf--
	default:
		code, _ := n.treeHead(x, st, t)
		f = treeFlit(st.tm, code)
		st.sent++
		wr := &n.worms[m.worm]
		wr.sent = st.sent
		if st.sent == int32(len(m.dests))+m.D {
			st.closed = true
		}
	}
	n.lastMove = t
	code := f.treeCode()
	if code == treeData {
		st.dataSeen = true
	} else {
		for i := range st.outs {
			if o := &st.outs[i]; o.y == y && o.fresh {
				o.fresh = false
				st.cur = y
				if st.dataSeen {
					st.reinj = m.D
				}
			}
		}
	}
	if n.trace != nil {
		n.traceMove(TraceEvent{Cycle: t, Worm: m.worm, Msg: m.msg, Head: code != treeData}, int(x), int(y))
	}
	if int(y) < n.nvc {
		k := int(n.vcs[y].head) + int(n.vcs[y].count)
		if k >= n.B {
			k -= n.B
		}
		n.buf[int(y)*n.B+k] = uint64(f)<<32 | uint64(uint32(t))
		n.vcs[y].count++
		ts.in[y].inBuf++
		n.flitHops++
		return
	}
	// A delivery port: the destination is served once its address flit and the data
	// have arrived; the port stays reserved until the input is released or prunes it.
	st.ejN++
	if st.ejN == 1+m.D {
		st.ejN = 0
		v := topology.NodeID((int(y) - n.nvc) / n.outPorts)
		for i := range st.outs {
			if st.outs[i].y == y {
				st.outs[i].done = true
			}
		}
		if st.cur == y {
			st.cur = -1
		}
		m.left--
		tm := st.tm
		ts.served(tm, v, t+1)
		if m.left == 0 && m.live == 0 {
			ts.free = append(ts.free, tm)
		}
	}
}
