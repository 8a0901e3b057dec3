package pipeline

// This file is switch allocation and switch holding, and the traversal of a flit that
// won the switch (BookSim's _SWAllocEvaluate, _SWAllocUpdate, _SWHoldEvaluate,
// _SWHoldUpdate). With input speedup S_i an input port is S_i crossbar inputs, VC v on
// input v mod S_i; with output speedup S_o an output port is S_o crossbar outputs,
// input port p using output p mod S_o.

// expIn and expOut are the crossbar input of VC vc of input port in and the crossbar
// output of output port out for input port in.
func (e *engine) expIn(in, vc int32) int32   { return in*e.is + vc%e.is }
func (e *engine) expOut(out, in int32) int32 { return out*e.os + in%e.os }

// outputRoom reports whether output port out's queue may take a flit.
func (e *engine) outputRoom(rt *router, out int32) bool {
	s := e.cfg.Router.OutputBufferSize
	return s < 0 || e.outQ[rt.outBase+out].len() < s
}

// swAllocEvaluate bids every new switch item whose output VC has a credit, one bid per
// crossbar input and output pair (the VC after the input's round-robin offset wins it),
// allocates, and records each item's crossbar output or why it lost.
func (e *engine) swAllocEvaluate(rt *router, t int64) {
	for i := 0; i < rt.saQ.len() && rt.saQ.at(i).time < 0; i++ {
		it := rt.saQ.at(i)
		x := e.ivc(rt, it.in, it.vc)
		out := e.outPort[x]
		if e.full(e.ovc(rt, out, e.outVC[x])) || !e.outputRoom(rt, out) {
			it.res = stallFull
			continue
		}
		e.swRequest(rt, it.in, it.vc, out)
	}
	rt.sw.allocate()
	d := int64(e.cfg.Router.SWAllocDelay)
	for i := 0; i < rt.saQ.len() && rt.saQ.at(i).time < 0; i++ {
		it := rt.saQ.at(i)
		it.time = t + d - 1
		if it.res < resNone {
			continue
		}
		xi := e.expIn(it.in, it.vc)
		it.res = stallXbar
		if xo := rt.sw.outputAssigned(xi); xo >= 0 && rt.sw.label(xi, xo) == it.vc {
			rt.swRR[xi] = (it.vc + e.is) % e.V
			it.res = xo
		}
	}
	if d <= 1 {
		return
	}
	for i := 0; i < rt.saQ.len() && rt.saQ.at(i).time >= 0 && t >= rt.saQ.at(i).time; i++ {
		it := rt.saQ.at(i)
		if it.res < 0 {
			continue
		}
		xi := e.expIn(it.in, it.vc)
		x := e.ivc(rt, it.in, it.vc)
		if rt.holdIn[xi] >= 0 || rt.holdOut[it.res] >= 0 {
			it.res = stallXbar
		} else if e.full(e.ovc(rt, e.outPort[x], e.outVC[x])) {
			it.res = stallFull
		}
	}
}

// swRequest adds the bid of input VC (in, vc) for output port out unless a held
// connection blocks either end; a bid already there for the same crossbar pair stays
// unless this VC comes first in the input's round-robin order.
func (e *engine) swRequest(rt *router, in, vc, out int32) {
	xi, xo := e.expIn(in, vc), e.expOut(out, in)
	if rt.holdIn[xi] >= 0 || rt.holdOut[xo] >= 0 {
		return
	}
	if k := rt.sw.find(xi, xo); k >= 0 {
		r := &rt.sw.reqs[k]
		if supersedes(vc, 0, r.label, r.inPri, rt.swRR[xi], e.V) {
			r.label, r.inPri, r.outPri = vc, 0, 0
		}
		return
	}
	rt.sw.add(xi, xo, vc, 0, 0)
}

// swAllocUpdate sends the front flit of each granted item across the switch and queues
// the losers again.
func (e *engine) swAllocUpdate(rt *router, t int64) {
	for rt.saQ.len() > 0 && rt.saQ.front().time >= 0 && t >= rt.saQ.front().time {
		it := rt.saQ.pop()
		if it.res < 0 {
			rt.saQ.push(stageItem{time: -1, in: it.in, vc: it.vc, res: resNone})
			continue
		}
		e.traverse(rt, it.in, it.vc, it.res, t, true)
	}
}

// holdEvaluate checks each new held connection: its output VC needs a credit.
func (e *engine) holdEvaluate(rt *router, t int64) {
	for i := 0; i < rt.holdQ.len() && rt.holdQ.at(i).time < 0; i++ {
		it := rt.holdQ.at(i)
		it.time = t
		x := e.ivc(rt, it.in, it.vc)
		if e.full(e.ovc(rt, e.outPort[x], e.outVC[x])) {
			it.res = stallFull
		} else {
			it.res = e.expOut(e.outPort[x], it.in)
		}
	}
}

// holdUpdate sends the front flit of each held connection that may go; one that may
// not drops its connection and bids in switch allocation again.
func (e *engine) holdUpdate(rt *router, t int64) {
	for rt.holdQ.len() > 0 && rt.holdQ.front().time >= 0 {
		it := rt.holdQ.pop()
		if it.res >= 0 && e.outputRoom(rt, it.res/e.os) {
			e.traverse(rt, it.in, it.vc, it.res, t, false)
			continue
		}
		xi := e.expIn(it.in, it.vc)
		if xo := rt.holdIn[xi]; xo >= 0 {
			rt.holdOut[xo] = -1
		}
		rt.holdVC[xi], rt.holdIn[xi] = -1, -1
		rt.saQ.push(stageItem{time: -1, in: it.in, vc: it.vc, res: resNone})
	}
}

// traverse moves the front flit of input VC (in, vc) into the crossbar towards crossbar
// output xo in cycle t: the credit goes back upstream, the output VC loses a credit, and
// the VC moves on: idle after a tail with nothing behind it, the next packet's routing
// after a tail, else the next flit's switch bid (on a held connection with
// HoldSwitchForPacket; allocated says the connection was won in allocation now).
func (e *engine) traverse(rt *router, in, vc, xo int32, t int64, allocated bool) {
	x := e.ivc(rt, in, vc)
	xi := e.expIn(in, vc)
	out, ov := xo/e.os, e.outVC[x]
	f := e.bufPop(x)
	tail := f&flagTail != 0
	if f&flagHead != 0 {
		e.pkts[f.pkt()].hops++
	}
	if e.cfg.Trace != nil {
		e.trace(rt, in, vc, out, ov, f, t)
	}
	e.sending(e.ovc(rt, out, ov), tail)
	rt.xbarQ.push(xbarItem{time: -1, f: f, vc: ov, expIn: xi, expOut: xo})
	rt.outCred[in] |= 1 << uint(vc)
	release := func() {
		if h := rt.holdIn[xi]; h >= 0 {
			rt.holdOut[h] = -1
		}
		rt.holdVC[xi], rt.holdIn[xi] = -1, -1
	}
	switch {
	case e.bufCount[x] == 0:
		release()
		if tail {
			e.state[x] = vcIdle
		}
	case tail:
		release()
		e.startPacket(rt, in, vc, x)
	case e.cfg.Router.HoldSwitchForPacket:
		if allocated {
			rt.holdVC[xi], rt.holdIn[xi], rt.holdOut[xo] = vc, xo, xi
		}
		rt.holdQ.push(stageItem{time: -1, in: in, vc: vc, res: resNone})
	default:
		rt.saQ.push(stageItem{time: -1, in: in, vc: vc, res: resNone})
	}
}

// trace reports the flit f leaving input VC (in, vc) of rt for VC ov of output out.
func (e *engine) trace(rt *router, in, vc, out, ov int32, f flitRef, t int64) {
	il, ol := &e.links[rt.in[in]], &e.links[rt.out[out]]
	ev := TraceEvent{Cycle: t, Packet: int(f.pkt()), Head: f&flagHead != 0, Tail: f&flagTail != 0, Node: rt.node,
		In: il.channel, InVC: int(vc), Out: ol.channel, VC: int(ov)}
	if pk := &e.pkts[f.pkt()]; pk.explicit >= 0 {
		ev.Packet = int(pk.explicit)
	}
	e.cfg.Trace(ev)
}
