package pipeline

import (
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// This file is the terminals' side of a cycle (BookSim's TrafficManager::_Step and
// _Inject): creating packets, sending one flit a cycle into the router, and delivering
// flits.

// simState is the phase of a measurement, which decides which packets are measured.
type simState uint8

const (
	warmingUp simState = iota
	running
	draining
)

// prepareTraffic checks the traffic against the network and derives the on/off
// parameters.
func (e *engine) prepareTraffic() error {
	t := &e.cfg.Traffic
	n := len(e.terms)
	if p := &t.Process; p.OnOff {
		switch {
		case p.Alpha < 0:
			p.Alpha = p.Beta * t.Rate / (p.R1 - t.Rate)
		case p.Beta < 0:
			p.Beta = p.Alpha * (p.R1 - t.Rate) / t.Rate
		default:
			p.R1 = t.Rate * (p.Alpha + p.Beta) / p.Alpha
		}
		if !(p.Alpha >= 0 && p.Alpha <= 1 && p.Beta >= 0 && p.Beta <= 1 && p.R1 >= 0 && p.R1 <= 1) {
			return fmt.Errorf("injection_process on_off: at rate %v the derived burst_alpha %v, burst_beta %v, burst_r1 %v are not probabilities", t.Rate, p.Alpha, p.Beta, p.R1)
		}
		for i := range e.terms {
			e.terms[i].on = e.rng.IntN(2) == 1
		}
	}
	if len(t.Packets) > 0 {
		for i, p := range t.Packets {
			if p.Src < 0 || p.Src >= n || p.Dst < 0 || p.Dst >= n {
				return fmt.Errorf("packet %d: terminals %d -> %d; the network has terminals 0..%d", i, p.Src, p.Dst, n-1)
			}
			if p.Size < 1 || p.At < 0 {
				return fmt.Errorf("packet %d: size %d at cycle %d; want a size of at least 1 flit at a cycle >= 0", i, p.Size, p.At)
			}
			e.terms[p.Src].explicit = append(e.terms[p.Src].explicit, int32(i))
		}
		for i := range e.terms {
			slices.SortStableFunc(e.terms[i].explicit, func(a, b int32) int { return int(t.Packets[a].At - t.Packets[b].At) })
		}
		return nil
	}
	if t.Pattern.n != n {
		return fmt.Errorf("traffic %s was made for %d terminals; the network has %d", t.Pattern.Name(), t.Pattern.n, n)
	}
	if len(t.SizeRates) > 0 && len(t.SizeRates) != len(t.Sizes) {
		return fmt.Errorf("packet_size_rate has %d weights for %d packet sizes", len(t.SizeRates), len(t.Sizes))
	}
	return nil
}

// packetSize draws a packet size by the size weights.
func (e *engine) packetSize() int32 {
	t := &e.cfg.Traffic
	if len(t.Sizes) == 1 {
		return int32(t.Sizes[0])
	}
	sum := 0
	for i := range t.Sizes {
		sum += e.sizeRate(i)
	}
	x := e.rng.IntN(max(sum, 1))
	for i := range t.Sizes[:len(t.Sizes)-1] {
		if w := e.sizeRate(i); x < w {
			return int32(t.Sizes[i])
		} else {
			x -= w
		}
	}
	return int32(t.Sizes[len(t.Sizes)-1])
}

func (e *engine) sizeRate(i int) int {
	if len(e.cfg.Traffic.SizeRates) == 0 {
		return 1
	}
	return e.cfg.Traffic.SizeRates[i]
}

// inject tests terminal tm's injection process (BookSim's _IssuePacket).
func (e *engine) inject(tm *terminal) bool {
	t := &e.cfg.Traffic
	if !t.Process.OnOff {
		return e.rng.Float64() < t.Rate
	}
	p := &t.Process
	if tm.on {
		tm.on = e.rng.Float64() >= p.Beta
	} else {
		tm.on = e.rng.Float64() < p.Alpha
	}
	return tm.on && e.rng.Float64() < p.R1
}

// newPacket creates a packet from terminal src to dst of size flits at cycle ctime.
func (e *engine) newPacket(src, dst, size int32, ctime int64, explicit int32) int32 {
	var i int32
	if k := len(e.freePkt); k > 0 {
		i = e.freePkt[k-1]
		e.freePkt = e.freePkt[:k-1]
	} else {
		i = int32(len(e.pkts))
		e.pkts = append(e.pkts, pkt{})
	}
	record := e.sim == running || e.sim == draining && ctime < e.drainTime
	e.pkts[i] = pkt{src: src, dst: dst, size: size, ctime: ctime, itime: -1, record: record, explicit: explicit,
		srcNode: e.terms[src].node, dstNode: e.terms[dst].node}
	e.inFlight += int64(size)
	e.ctimeSum += float64(size) * float64(ctime)
	if record {
		e.measuredInFlight += int64(size)
	}
	return i
}

// generate gives terminal tm, when it has no packet to send, its next packet: the
// injection process is tested for each cycle of tm's own timeline (qtime) until it
// fires or the timeline reaches now; the packet is created at that cycle.
func (e *engine) generate(tm *terminal, ti int32, t int64) {
	if tm.cur >= 0 {
		return
	}
	tr := &e.cfg.Traffic
	if len(tr.Packets) > 0 {
		if tm.next < len(tm.explicit) {
			p := tr.Packets[tm.explicit[tm.next]]
			if p.At <= t {
				tm.cur = e.newPacket(ti, int32(p.Dst), int32(p.Size), p.At, tm.explicit[tm.next])
				tm.sent = 0
				tm.next++
			}
		}
		return
	}
	for tm.cur < 0 && tm.qtime <= t {
		if e.inject(tm) {
			ctime := t
			if tr.IncludeQueuing {
				ctime = tm.qtime
			}
			dst := int32(tr.Pattern.Dest(int(ti), e.rng))
			tm.cur = e.newPacket(ti, dst, e.packetSize(), ctime, -1)
			tm.sent = 0
		}
		tm.qtime++
	}
	if e.sim == draining && tm.qtime > e.drainTime {
		tm.drained = true
	}
}

// send sends terminal tm's next flit into its router in cycle t if it may: a header
// needs an injection VC that is free and has a credit (round-robin after the last one
// used), a later flit a credit on its packet's VC.
func (e *engine) send(tm *terminal, t int64) {
	if tm.cur < 0 {
		return
	}
	pk := &e.pkts[tm.cur]
	if tm.sent == 0 && tm.curVC < 0 {
		for i := int32(1); i <= e.V; i++ {
			vc := int32(0)
			if tm.lastVC >= 0 {
				vc = (tm.lastVC + i) % e.V
			}
			if x := tm.vcBase + vc; e.available(x) && !e.full(x) {
				tm.curVC = vc
				break
			}
		}
	}
	if tm.curVC < 0 || e.full(tm.vcBase+tm.curVC) {
		return
	}
	x := tm.vcBase + tm.curVC
	f := flitRef(tm.cur) << 2
	if tm.sent == 0 {
		f |= flagHead
		e.take(x, 0)
		tm.lastVC = tm.curVC
		pk.itime = t
		e.firstHop(tm, pk)
	}
	tm.sent++
	tail := tm.sent == pk.size
	if tail {
		f |= flagTail
	}
	e.sending(x, tail)
	if e.sim != draining {
		tm.sentFlits++
		if f&flagHead != 0 {
			tm.sentPkts++
		}
	}
	lk := &e.links[tm.inj]
	if e.cfg.Trace != nil && lk.channel != topology.None {
		e.cfg.Trace(TraceEvent{Cycle: t, Packet: e.traceID(tm.cur), Head: f&flagHead != 0, Tail: tail, FromSource: true,
			Node: tm.node, In: lk.channel, Out: lk.channel, VC: int(tm.curVC)})
	}
	e.sendFlit(tm.inj, f, tm.curVC, t)
	if tail {
		tm.cur, tm.curVC = -1, -1
	}
}

func (e *engine) traceID(p int32) int {
	if x := e.pkts[p].explicit; x >= 0 {
		return int(x)
	}
	return int(p)
}

// firstHop sets the relation's VC class of a packet's first hop: on a terminal's own
// channel into its router, the class the relation gives that channel; from a router's
// own terminal, 0 (the header is at its source).
func (e *engine) firstHop(tm *terminal, pk *pkt) {
	pk.cls = 0
	if e.links[tm.inj].channel == topology.None {
		return
	}
	h := routing.Header{At: pk.srcNode, In: routing.Input{Channel: routing.Injection}, Src: pk.srcNode, Dst: pk.dstNode}
	outs := e.rel.Route(h, e.outBuf[:0])
	e.outBuf = outs
	for _, o := range outs {
		if int32(o.Channel) == tm.inj {
			pk.cls = int32(o.VC)
			return
		}
	}
}

// deliver takes flit f, arrived at terminal tm on VC vc of its ejection channel in cycle
// t: the credit goes straight back, and a tail completes its packet.
func (e *engine) deliver(tm *terminal, f flitRef, vc int32, t int64) {
	if e.sim != draining {
		tm.accFlits++
		if f&flagTail != 0 {
			tm.accPkts++
		}
	}
	e.sendCredit(tm.ej, 1<<uint(vc), t)
	e.credits++
	p := f.pkt()
	pk := &e.pkts[p]
	e.inFlight--
	e.ctimeSum -= float64(pk.ctime)
	if pk.record {
		e.measuredInFlight--
	}
	if f&flagTail == 0 {
		return
	}
	if e.sim == warmingUp || pk.record {
		e.stats.plat.add(float64(t - pk.ctime))
		e.stats.nlat.add(float64(t - pk.itime))
		e.stats.hops.add(float64(pk.hops))
	}
	if pk.explicit >= 0 {
		e.records[pk.explicit] = PacketRecord{Packet: e.cfg.Traffic.Packets[pk.explicit], Created: pk.ctime, Injected: pk.itime, Arrived: t, Hops: int(pk.hops)}
		e.delivered++
	}
	e.freePkt = append(e.freePkt, p)
}
