package pipeline

import (
	"math"
)

// This file is the cycle loop and BookSim's measurement (TrafficManager::_SingleSim,
// Run, _UpdateOverallStats).

// measurement is the state of the current measurement: its statistics since they were
// last cleared and the figures of the simulations done.
type measurement struct {
	plat, nlat, hops Stat
	resetTime        int64
}

// engine fields of the measurement; kept apart from the network's for reading.
type runState struct {
	stats            measurement
	drainTime        int64
	inFlight         int64   // flits created and not yet delivered
	measuredInFlight int64   // of which measured
	ctimeSum         float64 // sum of their creation cycles
	credits          int64   // credits not yet applied
	emptyNet         bool    // no new packets (the final drain)
	partial          float64 // internal speedup's fractional cycles
	records          []PacketRecord
	delivered        int
	stopped          bool
	deadlocked       bool
}

// activate puts router r on the list of routers with work this cycle.
func (e *engine) activate(r int32) {
	rt := &e.rts[r]
	rt.active = true
	if !rt.listed {
		rt.listed = true
		e.list = append(e.list, r)
	}
}

// step simulates cycle t: flits and credits arrive, terminals create and send, routers
// run their stages and send.
func (e *engine) step(t int64) {
	e.now = t
	b := t & e.calMask
	for _, l := range e.flitDue[b] {
		lk := &e.links[l]
		pf := lk.flits.pop()
		if lk.to < 0 {
			e.deliver(&e.terms[lk.term], pf.f, int32(pf.vc), t)
			continue
		}
		e.rts[lk.to].arrivals = append(e.rts[lk.to].arrivals, arrival{in: lk.inPort, f: pf.f, vc: int32(pf.vc)})
		e.activate(lk.to)
	}
	e.flitDue[b] = e.flitDue[b][:0]
	for _, l := range e.credDue[b] {
		lk := &e.links[l]
		m := lk.credits.pop()
		if lk.from < 0 {
			e.credit(e.terms[lk.term].vcBase, m)
			e.credits--
			continue
		}
		e.rts[lk.from].credQ.push(credItem{time: t + int64(e.cfg.Router.CreditDelay), out: lk.outPort, mask: m})
		e.activate(lk.from)
	}
	e.credDue[b] = e.credDue[b][:0]
	for i := range e.terms {
		tm := &e.terms[i]
		if !e.emptyNet {
			e.generate(tm, int32(i), t)
		}
		e.send(tm, t)
	}
	e.partial += e.cfg.Router.InternalSpeedup
	steps := int(e.partial)
	e.partial -= float64(steps)
	for _, r := range e.list {
		rt := &e.rts[r]
		for s := 0; s < steps && rt.active; s++ {
			e.internalStep(rt, t)
		}
	}
	keep := e.next[:0]
	for _, r := range e.list {
		rt := &e.rts[r]
		if rt.pendingOut > 0 {
			e.writeOutputs(rt, t)
		}
		if rt.active || rt.pendingOut > 0 {
			keep = append(keep, r)
		} else {
			rt.listed = false
		}
	}
	e.next, e.list = e.list, keep
}

// writeOutputs sends the front flit of each output queue and the front credit of each
// input's credit queue.
func (e *engine) writeOutputs(rt *router, t int64) {
	for o, l := range rt.out {
		if q := &e.outQ[rt.outBase+int32(o)]; q.len() > 0 {
			pf := q.pop()
			e.sendFlit(l, pf.f, int32(pf.vc), t)
			rt.pendingOut--
		}
	}
	for i, l := range rt.in {
		if q := &e.credQ[rt.inBase+int32(i)]; q.len() > 0 {
			e.sendCredit(l, q.pop(), t)
			rt.pendingOut--
		}
	}
}

// advance simulates the next cycle, checking the context and reporting progress; it
// reports false once the run was stopped.
func (e *engine) advance() bool {
	t := e.now + 1
	if t&3 == 0 && e.cfg.Context.Err() != nil {
		e.stopped = true
		return false
	}
	if t&255 == 0 && e.cfg.Progress != nil {
		e.cfg.Progress(t, e.flitHops)
	}
	e.step(t)
	return true
}

// stuck reports whether flits have waited without any moving for limit cycles.
func (e *engine) stuck(limit int64) bool {
	if e.inFlight > 0 && e.now-e.lastMove > limit {
		e.deadlocked = true
		return true
	}
	return false
}

func (e *engine) clearStats() {
	e.stats = measurement{resetTime: e.now}
	for i := range e.terms {
		tm := &e.terms[i]
		tm.sentFlits, tm.sentPkts, tm.accFlits, tm.accPkts = 0, 0, 0, 0
	}
}

// accepted is the accepted flit rate per terminal since the statistics were cleared.
func (e *engine) accepted() float64 {
	var n int64
	for i := range e.terms {
		n += e.terms[i].accFlits
	}
	return float64(n) / float64(e.now-e.stats.resetTime) / float64(len(e.terms))
}

// latencyWithInFlight is the mean latency of the packets delivered since the last
// clear and of every flit still in the system counted at its age (BookSim's test for an
// unstable network).
func (e *engine) latencyWithInFlight() float64 {
	p := &e.stats.plat
	sum := p.Mean*float64(p.N) + float64(e.inFlight)*float64(e.now) - e.ctimeSum
	return sum / float64(p.N+e.inFlight)
}

// packetsOutstanding reports whether measured packets are still in flight or still to
// be created by a source whose timeline has not passed the drain cycle.
func (e *engine) packetsOutstanding() bool {
	if e.measuredInFlight > 0 {
		return true
	}
	for i := range e.terms {
		if !e.terms[i].drained {
			return true
		}
	}
	return false
}

// deadlockLimit is how long flits may wait without any moving before a drain gives up.
func (e *engine) deadlockLimit() int64 { return max(20*int64(e.cfg.Measure.SamplePeriod), 10000) }

// singleSim is one simulation: warm-up and sample periods until convergence, then the
// drain of the measured packets. It reports whether the simulation was stable.
func (e *engine) singleSim(res *Result) bool {
	m := &e.cfg.Measure
	converged, phases := 0, 0
	prevLat, prevAcc := 0.0, 0.0
	clearLast := false
	for phases < m.MaxSamples && (e.sim != running || converged < 3) {
		if clearLast || e.sim == warmingUp && phases%2 == 0 {
			clearLast = false
			e.clearStats()
		}
		for i := 0; i < m.SamplePeriod; i++ {
			if !e.advance() {
				return false
			}
		}
		lat := e.stats.plat.Mean
		if e.stats.plat.N == 0 {
			lat = math.NaN()
		}
		acc := e.accepted()
		latChange := math.Abs((lat - prevLat) / lat)
		accChange := math.Abs((acc - prevAcc) / acc)
		prevLat, prevAcc = lat, acc
		res.Periods = append(res.Periods, Period{Cycle: e.now, Latency: lat, Accepted: acc, Warmup: e.sim == warmingUp})
		thr, accThr := m.StoppingThreshold, m.AccStoppingThresh
		if e.sim == warmingUp {
			thr, accThr = m.WarmupThreshold, m.AccWarmupThreshold
		}
		latExc := m.LatencyThreshold >= 0 && e.latencyWithInFlight() > m.LatencyThreshold
		latChg := thr >= 0 && latChange > thr
		accChg := accThr >= 0 && accChange > accThr
		if m.Mode == Latency && latExc {
			e.sim, e.drainTime = draining, e.now
			return false
		}
		settled := (m.Mode != Latency || !latChg) && !accChg
		switch e.sim {
		case warmingUp:
			if m.WarmupPeriods > 0 && phases+1 >= m.WarmupPeriods || m.WarmupPeriods <= 0 && settled {
				clearLast = true
				e.sim = running
			}
		case running:
			if settled {
				converged++
			} else {
				converged = 0
			}
		}
		phases++
	}
	if e.sim != running {
		res.Converged = false
		return false
	}
	if converged < 3 {
		res.Converged = false
	}
	e.sim, e.drainTime = draining, e.now
	if m.Mode != Latency {
		return true
	}
	for steps := 1; e.packetsOutstanding(); steps++ {
		if !e.advance() || e.stuck(e.deadlockLimit()) {
			return false
		}
		if steps%1000 == 0 && m.LatencyThreshold >= 0 && e.latencyWithInFlight() > m.LatencyThreshold {
			e.sim = warmingUp
			return false
		}
	}
	return true
}

// runBookSim runs BookSim's experiment: SimCount simulations, each followed by a drain
// of every packet left, and their figures averaged.
func (e *engine) runBookSim() *Result {
	m := &e.cfg.Measure
	res := &Result{Stable: true, Converged: true}
	var sum overall
	for s := 0; s < m.SimCount; s++ {
		for i := range e.terms {
			e.terms[i].qtime, e.terms[i].drained = e.now+1, false
		}
		e.sim = warmingUp
		e.clearStats()
		if !e.singleSim(res) {
			res.Stable = false
			break
		}
		e.emptyNet = true
		for e.inFlight > 0 || e.credits > 0 {
			if !e.advance() || e.stuck(e.deadlockLimit()) {
				break
			}
		}
		e.emptyNet = false
		if e.stopped || e.deadlocked {
			break
		}
		sum.add(e)
	}
	if sum.n > 0 {
		sum.into(res)
	}
	res.Cycles, res.FlitHops = e.now+1, e.flitHops
	res.Stopped, res.Deadlocked = e.stopped, e.deadlocked
	if e.stopped || e.deadlocked {
		res.Stable = false
	}
	return res
}

// overall sums the figures of the simulations done (BookSim's _overall_* statistics).
type overall struct {
	n                      int
	plat, nlat             Stat
	hops                   float64
	injF, accF, injP, accP Rate
}

func (o *overall) add(e *engine) {
	o.n++
	addStat := func(dst *Stat, s Stat) {
		dst.N += s.N
		dst.Mean += s.Mean
		dst.Min += s.Min
		dst.Max += s.Max
	}
	addStat(&o.plat, e.stats.plat)
	addStat(&o.nlat, e.stats.nlat)
	o.hops += e.stats.hops.Mean
	dt := float64(e.drainTime - e.stats.resetTime)
	rate := func(dst *Rate, count func(*terminal) int64) {
		lo, hi, sum := int64(math.MaxInt64), int64(0), int64(0)
		for i := range e.terms {
			c := count(&e.terms[i])
			lo, hi, sum = min(lo, c), max(hi, c), sum+c
		}
		dst.Min += float64(lo) / dt
		dst.Max += float64(hi) / dt
		dst.Mean += float64(sum) / dt / float64(len(e.terms))
	}
	rate(&o.injF, func(t *terminal) int64 { return t.sentFlits })
	rate(&o.accF, func(t *terminal) int64 { return t.accFlits })
	rate(&o.injP, func(t *terminal) int64 { return t.sentPkts })
	rate(&o.accP, func(t *terminal) int64 { return t.accPkts })
}

func (o *overall) into(res *Result) {
	k := float64(o.n)
	div := func(s Stat) Stat { return Stat{N: s.N, Mean: s.Mean / k, Min: s.Min / k, Max: s.Max / k} }
	divR := func(r Rate) Rate { return Rate{Mean: r.Mean / k, Min: r.Min / k, Max: r.Max / k} }
	res.PacketLatency, res.NetworkLatency = div(o.plat), div(o.nlat)
	res.Hops = o.hops / k
	res.InjectedFlits, res.AcceptedFlits = divR(o.injF), divR(o.accF)
	res.InjectedPackets, res.AcceptedPackets = divR(o.injP), divR(o.accP)
}

// runPackets runs an explicit workload until every packet is delivered.
func (e *engine) runPackets() (*Result, error) {
	n := len(e.cfg.Traffic.Packets)
	e.records = make([]PacketRecord, n)
	e.sim = running
	e.now = -1
	for e.delivered < n && e.err == nil {
		if !e.advance() || e.stuck(10000) {
			break
		}
	}
	if e.err != nil {
		return nil, e.err
	}
	res := &Result{Stable: !e.deadlocked && !e.stopped, Converged: true, Cycles: e.now + 1, FlitHops: e.flitHops,
		Stopped: e.stopped, Deadlocked: e.deadlocked, Packets: e.records, PacketLatency: e.stats.plat,
		NetworkLatency: e.stats.nlat, Hops: e.stats.hops.Mean}
	return res, nil
}
