package pipeline

import "slices"

// This file is one router's cycle, stage by stage in BookSim's order (IQRouter::
// _InternalStep): input queuing, then each stage's evaluation (routing, VC allocation,
// switch holding, switch allocation, switch traversal), then each stage's update, then
// the credits of the flits that left. A stage's queue holds input VCs: an item is new
// (time -1) until the stage evaluates it, which sets the cycle of its update (evaluation
// cycle + delay - 1); the update acts on the evaluation's result. Evaluations see only
// the new items at the front of their queue.

// ivc returns the global index of VC vc of input port in of rt.
func (e *engine) ivc(rt *router, in, vc int32) int32 { return (rt.inBase+in)*e.V + vc }

// ovc returns the global index of VC vc of output port out of rt.
func (e *engine) ovc(rt *router, out, vc int32) int32 { return (rt.outBase+out)*e.V + vc }

// bufPush appends f to input VC x's buffer.
func (e *engine) bufPush(x int32, f flitRef) {
	if e.bufCount[x] >= e.B {
		panic("pipeline: buffer overflow (a credit was spent twice)")
	}
	i := e.bufHead[x] + e.bufCount[x]
	if i >= e.B {
		i -= e.B
	}
	e.buf[x*e.B+i] = f
	e.bufCount[x]++
}

func (e *engine) bufFront(x int32) flitRef { return e.buf[x*e.B+e.bufHead[x]] }

func (e *engine) bufPop(x int32) flitRef {
	f := e.buf[x*e.B+e.bufHead[x]]
	e.bufHead[x]++
	if e.bufHead[x] == e.B {
		e.bufHead[x] = 0
	}
	e.bufCount[x]--
	return f
}

// internalStep runs one internal cycle of router rt at cycle t.
func (e *engine) internalStep(rt *router, t int64) {
	hold := e.cfg.Router.HoldSwitchForPacket
	e.inputQueuing(rt, t)
	if rt.routeQ.len() > 0 {
		e.routeEvaluate(rt, t)
	}
	rt.va.clear()
	if rt.vaQ.len() > 0 {
		e.vcAllocEvaluate(rt, t)
	}
	if hold && rt.holdQ.len() > 0 {
		e.holdEvaluate(rt, t)
	}
	rt.sw.clear()
	if rt.saQ.len() > 0 {
		e.swAllocEvaluate(rt, t)
	}
	for i := 0; i < rt.xbarQ.len() && rt.xbarQ.at(i).time < 0; i++ {
		rt.xbarQ.at(i).time = t + e.xbarDelay - 1
	}
	if rt.routeQ.len() > 0 {
		e.routeUpdate(rt, t)
	}
	if rt.vaQ.len() > 0 {
		e.vcAllocUpdate(rt, t)
	}
	if hold && rt.holdQ.len() > 0 {
		e.holdUpdate(rt, t)
	}
	if rt.saQ.len() > 0 {
		e.swAllocUpdate(rt, t)
	}
	for rt.xbarQ.len() > 0 && rt.xbarQ.front().time >= 0 && t >= rt.xbarQ.front().time {
		x := rt.xbarQ.pop()
		out := x.expOut / e.os
		e.outQ[rt.outBase+out].push(pipeFlit{x.f, int16(x.vc)})
		rt.pendingOut++
	}
	rt.active = rt.credQ.len() > 0 || rt.routeQ.len() > 0 || rt.vaQ.len() > 0 || rt.holdQ.len() > 0 ||
		rt.saQ.len() > 0 || rt.xbarQ.len() > 0
	for in, m := range rt.outCred {
		if m != 0 {
			e.credQ[rt.inBase+int32(in)].push(m)
			e.credits++
			rt.outCred[in] = 0
			rt.pendingOut++
		}
	}
}

// inputQueuing buffers the flits that arrived this cycle (in input order) and applies
// the credits whose delay has passed. A header reaching the front of an idle VC is
// routed (or, with lookahead routing, was routed: it bids for a VC at once); a flit
// reaching the front of an active VC bids for the switch.
func (e *engine) inputQueuing(rt *router, t int64) {
	if len(rt.arrivals) > 1 {
		slices.SortFunc(rt.arrivals, func(a, b arrival) int { return int(a.in - b.in) })
	}
	for _, a := range rt.arrivals {
		x := e.ivc(rt, a.in, a.vc)
		e.bufPush(x, a.f)
		switch e.state[x] {
		case vcIdle:
			e.startPacket(rt, a.in, a.vc, x)
		case vcActive:
			if e.bufCount[x] == 1 {
				e.bidSwitch(rt, a.in, a.vc)
			}
		}
	}
	rt.arrivals = rt.arrivals[:0]
	for rt.credQ.len() > 0 && rt.credQ.front().time <= t {
		c := rt.credQ.pop()
		e.credit((rt.outBase+c.out)*e.V, c.mask)
		e.credits--
	}
}

// startPacket moves input VC x, whose front flit is a header, to routing, or with
// lookahead routing straight to VC allocation.
func (e *engine) startPacket(rt *router, in, vc, x int32) {
	if e.cfg.Router.RoutingDelay > 0 {
		e.state[x] = vcRouting
		rt.routeQ.push(stageItem{time: -1, in: in, vc: vc, res: resNone})
		return
	}
	e.route(rt, in, x, e.bufFront(x).pkt())
	e.state[x] = vcAlloc
	rt.vaQ.push(stageItem{time: -1, in: in, vc: vc, res: resNone})
}

// bidSwitch queues input VC (in, vc), active with a flit at its front, for the switch:
// on its held connection if it has one.
func (e *engine) bidSwitch(rt *router, in, vc int32) {
	if rt.holdVC[in*e.is+vc%e.is] == vc {
		rt.holdQ.push(stageItem{time: -1, in: in, vc: vc, res: resNone})
		return
	}
	rt.saQ.push(stageItem{time: -1, in: in, vc: vc, res: resNone})
}

func (e *engine) routeEvaluate(rt *router, t int64) {
	d := int64(e.cfg.Router.RoutingDelay)
	for i := 0; i < rt.routeQ.len() && rt.routeQ.at(i).time < 0; i++ {
		rt.routeQ.at(i).time = t + d - 1
	}
}

func (e *engine) routeUpdate(rt *router, t int64) {
	for rt.routeQ.len() > 0 && rt.routeQ.front().time >= 0 && t >= rt.routeQ.front().time {
		it := rt.routeQ.pop()
		x := e.ivc(rt, it.in, it.vc)
		e.route(rt, it.in, x, e.bufFront(x).pkt())
		e.state[x] = vcAlloc
		rt.vaQ.push(stageItem{time: -1, in: it.in, vc: it.vc, res: resNone})
	}
}

// vcAllocEvaluate bids every new VC-allocation item for each output VC of its route set
// that is free (and, with VCBusyWhenFull, has a credit), allocates, and records each
// item's grant; with a delay above one cycle it re-checks grants about to take effect.
func (e *engine) vcAllocEvaluate(rt *router, t int64) {
	r := &e.cfg.Router
	V := e.V
	for i := 0; i < rt.vaQ.len() && rt.vaQ.at(i).time < 0; i++ {
		it := rt.vaQ.at(i)
		x := e.ivc(rt, it.in, it.vc)
		elig, cred := false, false
		for _, el := range e.routes[x] {
			for ov := el.lo; ov <= el.hi; ov++ {
				y := e.ovc(rt, el.out, ov)
				if !e.available(y) {
					continue
				}
				elig = true
				if r.VCBusyWhenFull && e.full(y) {
					continue
				}
				cred = true
				pri := el.pri
				if r.VCPrioritizeEmpty && e.occ[y] != 0 {
					pri -= 1 << 30
				}
				rt.va.offer(it.in*V+it.vc, el.out*V+ov, pri)
			}
		}
		switch {
		case !elig:
			it.res = stallBusy
		case r.VCBusyWhenFull && !cred:
			it.res = stallFull
		}
	}
	rt.va.allocate()
	d := int64(r.VCAllocDelay)
	for i := 0; i < rt.vaQ.len() && rt.vaQ.at(i).time < 0; i++ {
		it := rt.vaQ.at(i)
		it.time = t + d - 1
		if it.res < resNone {
			continue
		}
		if g := rt.va.outputAssigned(it.in*V + it.vc); g >= 0 {
			it.res = g
		} else {
			it.res = stallConflct
		}
	}
	if d <= 1 {
		return
	}
	for i := 0; i < rt.vaQ.len() && rt.vaQ.at(i).time >= 0 && t >= rt.vaQ.at(i).time; i++ {
		it := rt.vaQ.at(i)
		if it.res < 0 {
			continue
		}
		y := e.ovc(rt, it.res/V, it.res%V)
		if !e.available(y) {
			it.res = stallBusy
		} else if r.VCBusyWhenFull && e.full(y) {
			it.res = stallFull
		}
	}
}

// vcAllocUpdate gives each granted item its output VC (the VC becomes active and bids
// for the switch) and queues the others again.
func (e *engine) vcAllocUpdate(rt *router, t int64) {
	V := e.V
	for rt.vaQ.len() > 0 && rt.vaQ.front().time >= 0 && t >= rt.vaQ.front().time {
		it := rt.vaQ.pop()
		if it.res < 0 {
			rt.vaQ.push(stageItem{time: -1, in: it.in, vc: it.vc, res: resNone})
			continue
		}
		x := e.ivc(rt, it.in, it.vc)
		out, ov := it.res/V, it.res%V
		e.take(e.ovc(rt, out, ov), x)
		e.outPort[x], e.outVC[x] = out, ov
		for _, el := range e.routes[x] {
			if el.out == out && ov >= el.lo && ov <= el.hi {
				e.pkts[e.bufFront(x).pkt()].cls = el.cls
				break
			}
		}
		e.state[x] = vcActive
		rt.saQ.push(stageItem{time: -1, in: it.in, vc: it.vc, res: resNone})
	}
}
