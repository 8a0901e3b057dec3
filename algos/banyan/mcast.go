package banyan

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Arbitration is the policy an SE uses when several packets request the same output
// link at once.
type Arbitration int

// The arbitration policies of 002 §3.2.
const (
	// Free lets any contender win; the explorer tries every choice (the "randomly
	// selected" of the Fig. 4 narrative).
	Free Arbitration = iota
	// UpperFirst grants the contender from the upper input link (port bit 0) first and
	// then whatever of the lower input's request still fits (002 Theorem 2). It is work
	// conserving: a lower request is not held back by an upper one that cannot be
	// granted now.
	UpperFirst
)

var arbNames = [...]string{"free", "upper-first"}

// String names the policy as the command line spells it.
func (a Arbitration) String() string {
	if a >= 0 && int(a) < len(arbNames) {
		return arbNames[a]
	}
	return fmt.Sprintf("Arbitration(%d)", int(a))
}

// ParseArbitration reads "free" or "upper-first".
func ParseArbitration(s string) (Arbitration, error) {
	for i, n := range arbNames {
		if n == s {
			return Arbitration(i), nil
		}
	}
	return 0, fmt.Errorf("arbitration %q: use free or upper-first", s)
}

// Timing is the granularity of time in the transition system.
type Timing int

// The timings.
const (
	// Lockstep is the slotted unbuffered MIN of 002 §4 and of the proof of Theorem 2
	// ("any multicast packet simultaneously requests output link(s) ... at the same stage
	// i"): every message is injected in slot 0; in each transition (one clock cycle) every
	// waiting head of every packet requests its next link(s) at once and each SE and each
	// node arbitrates among the requests it receives. A request whose links are all free
	// and that loses no arbitration is granted; requests for busy links wait.
	Lockstep Timing = iota
	// Async is fully asynchronous: one transition grants one request of one packet; all
	// interleavings are explored. Arbitration applies only among requests pending at the
	// same SE in the same state.
	Async
)

var timingNames = [...]string{"lockstep", "async"}

// String names the timing.
func (t Timing) String() string {
	if t >= 0 && int(t) < len(timingNames) {
		return timingNames[t]
	}
	return fmt.Sprintf("Timing(%d)", int(t))
}

// ParseTiming reads "lockstep" or "async".
func ParseTiming(s string) (Timing, error) {
	for i, n := range timingNames {
		if n == s {
			return Timing(i), nil
		}
	}
	return 0, fmt.Errorf("timing %q: use lockstep or async", s)
}

// Acquire says how a replicating packet takes its two output links.
type Acquire int

// The acquisition modes.
const (
	// Atomic: a replicating head "requests the two output links" (002 §3.2) as one
	// request, granted only when both are free; meanwhile it holds neither.
	Atomic Acquire = iota
	// Split: each output link is a request of its own; a replicating head may hold one
	// output and wait for the other.
	Split
)

var acquireNames = [...]string{"atomic", "split"}

// String names the mode.
func (a Acquire) String() string {
	if a >= 0 && int(a) < len(acquireNames) {
		return acquireNames[a]
	}
	return fmt.Sprintf("Acquire(%d)", int(a))
}

// ParseAcquire reads "atomic" or "split".
func ParseAcquire(s string) (Acquire, error) {
	for i, n := range acquireNames {
		if n == s {
			return Acquire(i), nil
		}
	}
	return 0, fmt.Errorf("acquire %q: use atomic or split", s)
}

// Options configure the transition system.
type Options struct {
	Arbitration Arbitration
	Timing      Timing
	Acquire     Acquire
	// Starts, if not nil, fixes the phase-1 start s of each message (one entry per
	// message); otherwise every start of ValidStarts (no wrap) is an initial choice.
	Starts []int
	// Phase1Only models only the region copies of phase 1 (no recycled unicasts).
	Phase1Only bool
	// Flits is the worm length L in flits for the lockstep timing; 0 (the default) is the
	// abstraction in which a packet releases every link the cycle its last branch
	// arrives. With L >= n+1 the tail drains one link per cycle: with one flit per link
	// and E = L-(n+1) flits still at the source when the last branch arrives in cycle T,
	// the link at depth d of the tree (the injection link is depth 0, the external outputs
	// depth n) is released at the end of cycle T+E+d+1, and the phase-1 copies count as
	// received (their phase-2 unicasts become ready) once the outputs are released.
	Flits int
}

// System is the multi-packet transition system of the unbuffered wrap-around MIN
// running the two-phase multicast (002 §3) with wormhole hold-and-wait at the SEs.
//
// Granularity (our reconstruction; Fig. 4 is missing): a packet is a worm long enough to
// span the whole network (L >= n+1 flits), so the MIN being unbuffered it holds every
// link its header has acquired, from its injection link to its heads, until all its
// branches have reached their nodes. By default its tail then drains at once: it
// releases every link in the cycle its last branch arrives. In the asynchronous timing
// this abstraction does not change deadlock verdicts (a progressive drain can always be
// scheduled to finish before anything else moves, and releasing earlier only enables
// more). In the lockstep timing release times are part of the timing, so Options.Flits
// models a tail that drains one link per cycle. A head at the input of an SE at stage i requests the output link(s)
// its header selects (RegionStep); acquiring a link moves the head one stage on. A
// packet's first request is its injection link. The phase-2 copies of a message (one
// unicast per destination, from node s+l to D_l) become ready when the message's
// phase-1 packet has drained, i.e. when every copy has been received in full. Node
// injection links are arbitrated freely under both policies (the policy is the SEs').
//
// A state is deadlocked when some packet is not done and no request can be granted.
type System struct {
	b       *topology.Banyan
	msgs    []Multicast
	opt     Options
	starts  [][]int           // starts[m] = the starts explored for message m
	plan    [][][]packetShape // plan[m][si][k]: packet k of message m with start starts[m][si]
	offset  []int             // offset[m] = index of message m's first packet in a state
	packets int
}

// packetShape is the static tree of one packet.
type packetShape struct {
	pkt    topology.BanyanPacket
	phase  int
	tree   []topology.TreeLink
	leaves uint64
	// byDepth[d] = the tree links at depth d.
	byDepth []uint64
}

// State is a global state: the start chosen for each message, and per packet its status
// and the set of tree links it holds (bit k = tree link k of its shape).
type State struct {
	Start  []uint8  // index into the explored starts of each message
	Status []uint8  // per packet: 0 not yet ready (phase 2), 1 active, 2 done, 3 draining
	Held   []uint64 // per packet: tree links held
	// Drain counts, for a draining packet, the cycles since its last branch arrived
	// (Options.Flits > 0 only; nil otherwise).
	Drain []uint8
}

const (
	waiting  = 0
	active   = 1
	done     = 2
	draining = 3
)

// NewSystem builds the transition system for msgs on banyan b. Trees must fit in 64
// links (N <= 32).
func NewSystem(b *topology.Banyan, msgs []Multicast, opt Options) (*System, error) {
	if len(msgs) == 0 {
		return nil, fmt.Errorf("msgs: no multicast given")
	}
	if opt.Starts != nil && len(opt.Starts) != len(msgs) {
		return nil, fmt.Errorf("starts: %d given for %d messages", len(opt.Starts), len(msgs))
	}
	if b.Nodes() > 32 {
		return nil, fmt.Errorf("banyan:%d: the deadlock model is limited to N <= 32", b.Nodes())
	}
	if opt.Flits != 0 && (opt.Timing != Lockstep || opt.Flits < b.Stages()+1 || opt.Flits > 200) {
		return nil, fmt.Errorf("flits %d: a worm length applies to the lockstep timing and must be in %d..200 (or 0 for instant release)", opt.Flits, b.Stages()+1)
	}
	sys := &System{b: b, msgs: msgs, opt: opt}
	for m, msg := range msgs {
		if msg.Source < 0 || msg.Source >= b.Nodes() || len(msg.Dests) == 0 {
			return nil, fmt.Errorf("msgs message %d (%v): bad source or no destination", m+1, msg)
		}
		st := ValidStarts(b.Nodes(), msg.Fanout(), false)
		if opt.Starts != nil {
			s := opt.Starts[m]
			if s < 0 || s+msg.Fanout() > b.Nodes() {
				return nil, fmt.Errorf("starts: message %d (%v) start %d puts its copies past node %d", m+1, msg, s, b.Nodes()-1)
			}
			st = []int{s}
		}
		sys.starts = append(sys.starts, st)
		var perStart [][]packetShape
		for _, s := range st {
			pk := []topology.BanyanPacket{Phase1(msg, s)}
			if !opt.Phase1Only {
				pk = append(pk, Phase2(msg, s, b.Nodes())...)
			}
			var shapes []packetShape
			for k, p := range pk {
				tree, err := b.RegionTree(p.Source, p.Dest)
				if err != nil {
					return nil, fmt.Errorf("msgs message %d: %v", m+1, err)
				}
				sh := packetShape{pkt: p, phase: min(k, 1) + 1, tree: tree, byDepth: make([]uint64, b.Stages()+1)}
				depth := make([]int, len(tree))
				for i, l := range tree {
					if l.NumChildren == 0 {
						sh.leaves |= 1 << uint(i)
					}
					if i > 0 {
						depth[i] = depth[l.Parent] + 1
					}
					sh.byDepth[depth[i]] |= 1 << uint(i)
				}
				shapes = append(shapes, sh)
			}
			perStart = append(perStart, shapes)
		}
		sys.plan = append(sys.plan, perStart)
		sys.offset = append(sys.offset, sys.packets)
		sys.packets += len(perStart[0])
	}
	return sys, nil
}

// Banyan returns the network.
func (sys *System) Banyan() *topology.Banyan { return sys.b }

// Messages returns the multicasts.
func (sys *System) Messages() []Multicast { return sys.msgs }

// Options returns the options the system was built with.
func (sys *System) Options() Options { return sys.opt }

// StartsOf returns the phase-1 start of every message in s.
func (sys *System) StartsOf(s State) []int {
	out := make([]int, len(s.Start))
	for m, si := range s.Start {
		out[m] = sys.starts[m][si]
	}
	return out
}

func (sys *System) shape(s State, p int) *packetShape {
	m := 0
	for m+1 < len(sys.offset) && sys.offset[m+1] <= p {
		m++
	}
	return &sys.plan[m][s.Start[m]][p-sys.offset[m]]
}

// PacketName names packet p in state s, e.g. "m1.p1 1->[5,8]" or "m2.c3 10->10".
func (sys *System) PacketName(s State, p int) string {
	m := 0
	for m+1 < len(sys.offset) && sys.offset[m+1] <= p {
		m++
	}
	k := p - sys.offset[m]
	sh := sys.shape(s, p)
	if k == 0 {
		return fmt.Sprintf("m%d.phase1 %v", m+1, sh.pkt)
	}
	return fmt.Sprintf("m%d.copy%d %v", m+1, k-1, sh.pkt)
}

// HeldChannels returns the channels of its region tree that packet p holds in state s,
// in tree order (none if it holds nothing).
func (sys *System) HeldChannels(s State, p int) []topology.ChannelID {
	h := s.Held[p]
	if h == 0 {
		return nil
	}
	sh := sys.shape(s, p)
	var cs []topology.ChannelID
	for k := range sh.tree {
		if h&(1<<uint(k)) != 0 {
			cs = append(cs, sh.tree[k].Channel)
		}
	}
	return cs
}

// Init returns one initial state per combination of starts, message 1's start varying
// slowest.
func (sys *System) Init() []State {
	var out []State
	idx := make([]uint8, len(sys.msgs))
	for {
		st := State{Start: append([]uint8(nil), idx...), Status: make([]uint8, sys.packets), Held: make([]uint64, sys.packets)}
		if sys.opt.Flits > 0 {
			st.Drain = make([]uint8, sys.packets)
		}
		for m := range sys.msgs {
			st.Status[sys.offset[m]] = active
		}
		out = append(out, st)
		m := len(idx) - 1
		for ; m >= 0; m-- {
			idx[m]++
			if int(idx[m]) < len(sys.starts[m]) {
				break
			}
			idx[m] = 0
		}
		if m < 0 {
			return out
		}
	}
}

// request is one pending request: packet p's head at tree link k (k = -1: injection)
// asks for the children in mask (bit c = Children[c]; for injection, bit 0).
type request struct {
	p, k  int
	mask  int
	chans uint64 // tree-link bits of p requested
	links [2]topology.ChannelID
	nl    int
	key   int // arbiter: SE (stage*N/2 + label) or N*n/2 + node for injection
	lower bool
}

// requests lists the grantable requests of s in a deterministic order (packet, tree
// link, child). owner maps channels to holders.
func (sys *System) requests(s State, owner []int32, dst []request) []request {
	n := sys.b.Nodes()
	for p := range s.Status {
		if s.Status[p] != active {
			continue
		}
		sh := sys.shape(s, p)
		if s.Held[p] == 0 {
			c := sh.tree[0].Channel
			if owner[c] < 0 {
				dst = append(dst, request{p: p, k: -1, mask: 1, chans: 1, links: [2]topology.ChannelID{c}, nl: 1,
					key: sys.b.Stages()*n/2 + sh.pkt.Source})
			}
			continue
		}
		for held := s.Held[p]; held != 0; held &= held - 1 {
			k := bits.TrailingZeros64(held)
			l := &sh.tree[k]
			if l.NumChildren == 0 {
				continue
			}
			stage, label := sys.b.Link(l.Channel)
			r := request{p: p, k: k, key: stage*n/2 + label>>1, lower: label&1 == 1}
			for c := 0; c < l.NumChildren; c++ {
				ci := l.Children[c]
				if s.Held[p]&(1<<uint(ci)) != 0 {
					continue
				}
				ch := sh.tree[ci].Channel
				if sys.opt.Acquire == Split {
					if owner[ch] < 0 {
						q := r
						q.mask, q.chans, q.links[0], q.nl = 1<<c, 1<<uint(ci), ch, 1
						dst = append(dst, q)
					}
					continue
				}
				r.mask |= 1 << c
				r.chans |= 1 << uint(ci)
				r.links[r.nl] = ch
				r.nl++
			}
			if sys.opt.Acquire == Atomic && r.nl > 0 {
				free := true
				for i := 0; i < r.nl; i++ {
					if owner[r.links[i]] >= 0 {
						free = false
					}
				}
				if free {
					dst = append(dst, r)
				}
			}
		}
	}
	return dst
}

func (sys *System) owners(s State) []int32 {
	owner := make([]int32, sys.b.Channels())
	for i := range owner {
		owner[i] = -1
	}
	for p, h := range s.Held {
		if h == 0 {
			continue
		}
		sh := sys.shape(s, p)
		for ; h != 0; h &= h - 1 {
			owner[sh.tree[bits.TrailingZeros64(h)].Channel] = int32(p)
		}
	}
	return owner
}

func overlaps(a, b *request) bool {
	for i := 0; i < a.nl; i++ {
		for j := 0; j < b.nl; j++ {
			if a.links[i] == b.links[j] {
				return true
			}
		}
	}
	return false
}

// grant applies the granted requests to a copy of s and completes packets whose every
// branch has arrived.
func (sys *System) grant(s State, rs []request) State {
	t := State{Start: s.Start, Status: append([]uint8(nil), s.Status...), Held: append([]uint64(nil), s.Held...)}
	if s.Drain != nil {
		t.Drain = append([]uint8(nil), s.Drain...)
		sys.drainTick(&t)
	}
	for _, r := range rs {
		t.Held[r.p] |= r.chans
	}
	for _, r := range rs {
		p := r.p
		sh := sys.shape(t, p)
		if t.Status[p] == active && t.Held[p]&sh.leaves == sh.leaves {
			if sys.opt.Flits > 0 {
				t.Status[p], t.Drain[p] = draining, 0
				continue
			}
			sys.finish(&t, p)
		}
	}
	return t
}

// finish marks packet p done, releases its links and readies the copies of a phase-1
// packet.
func (sys *System) finish(t *State, p int) {
	t.Status[p], t.Held[p] = done, 0
	if sys.shape(*t, p).phase != 1 {
		return
	}
	m := 0
	for m+1 < len(sys.offset) && sys.offset[m+1] <= p {
		m++
	}
	end := sys.packets
	if m+1 < len(sys.offset) {
		end = sys.offset[m+1]
	}
	for q := p + 1; q < end; q++ {
		t.Status[q] = active
	}
}

// drainTick advances the tails of draining packets by one cycle (Options.Flits): the
// link at depth d is released once the count exceeds E+d; a packet whose outputs are
// released is done. Releases take effect at the end of the cycle: t's grants were
// computed from the holdings before the tick.
func (sys *System) drainTick(t *State) {
	e := sys.opt.Flits - (sys.b.Stages() + 1)
	for p, st := range t.Status {
		if st != draining {
			continue
		}
		t.Drain[p]++
		c := int(t.Drain[p])
		sh := sys.shape(*t, p)
		for d := range sh.byDepth {
			if c > e+d {
				t.Held[p] &^= sh.byDepth[d]
			}
		}
		if c > e+sys.b.Stages() {
			sys.finish(t, p)
		}
	}
}

func (sys *System) anyDraining(s State) bool {
	for _, st := range s.Status {
		if st == draining {
			return true
		}
	}
	return false
}

// choices splits the requests of one lockstep cycle into arbitration groups (one per SE
// and one per node injection link, ordered by stage, SE label, then node) and returns,
// per group, its admissible grant sets as index lists into rs.
func (sys *System) choices(rs []request) [][][]int {
	// Sort indices by (key, upper before lower, index): deterministic group order.
	order := make([]int, len(rs))
	for i := range order {
		order[i] = i
	}
	// insertion sort by (key, lower, index): stable and deterministic
	for i := 1; i < len(order); i++ {
		for j := i; j > 0 && less(&rs[order[j]], &rs[order[j-1]], order[j], order[j-1]); j-- {
			order[j], order[j-1] = order[j-1], order[j]
		}
	}
	var out [][][]int
	for i := 0; i < len(order); {
		j := i
		for j < len(order) && rs[order[j]].key == rs[order[i]].key {
			j++
		}
		out = append(out, sys.groupChoices(rs, order[i:j]))
		i = j
	}
	return out
}

func less(a, b *request, ia, ib int) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	if a.lower != b.lower {
		return !a.lower
	}
	return ia < ib
}

// groupChoices returns the admissible grant sets of one arbiter: under Free every
// maximal set of pairwise disjoint requests; under UpperFirst (SEs only) the single set
// built greedily, upper-input requests first.
func (sys *System) groupChoices(rs []request, g []int) [][]int {
	injection := rs[g[0]].k < 0
	if sys.opt.Arbitration == UpperFirst && !injection {
		var set []int
		for _, i := range g {
			ok := true
			for _, j := range set {
				if overlaps(&rs[i], &rs[j]) {
					ok = false
				}
			}
			if ok {
				set = append(set, i)
			}
		}
		return [][]int{set}
	}
	var out [][]int
	for sub := 1; sub < 1<<uint(len(g)); sub++ {
		ok := true
		for a := 0; a < len(g) && ok; a++ {
			for b := a + 1; b < len(g) && ok; b++ {
				if sub&(1<<a) != 0 && sub&(1<<b) != 0 && overlaps(&rs[g[a]], &rs[g[b]]) {
					ok = false
				}
			}
		}
		if !ok {
			continue
		}
		maximal := true
		for c := 0; c < len(g) && maximal; c++ {
			if sub&(1<<c) != 0 {
				continue
			}
			fits := true
			for a := 0; a < len(g); a++ {
				if sub&(1<<a) != 0 && overlaps(&rs[g[a]], &rs[g[c]]) {
					fits = false
				}
			}
			if fits {
				maximal = false
			}
		}
		if maximal {
			set := make([]int, 0, len(g))
			for a := 0; a < len(g); a++ {
				if sub&(1<<a) != 0 {
					set = append(set, g[a])
				}
			}
			out = append(out, set)
		}
	}
	return out
}

// Successors implements checker.Model. Lockstep: one transition per combination of the
// arbiters' choices (action = that combination as a mixed-radix number, arbiters in
// (stage, SE) order then nodes). Async: one transition per grantable request that the
// policy admits (action = packet<<20 | (tree link+1)<<4 | child mask).
func (sys *System) Successors(s State, dst []checker.Transition[State]) []checker.Transition[State] {
	owner := sys.owners(s)
	rs := sys.requests(s, owner, nil)
	if len(rs) == 0 && !sys.anyDraining(s) {
		return dst
	}
	if sys.opt.Timing == Async {
		for i := range rs {
			if sys.opt.Arbitration == UpperFirst && rs[i].lower && rs[i].k >= 0 {
				beaten := false
				for j := range rs {
					if j != i && rs[j].key == rs[i].key && !rs[j].lower && overlaps(&rs[i], &rs[j]) {
						beaten = true
					}
				}
				if beaten {
					continue
				}
			}
			a := checker.Action(uint64(rs[i].p)<<20 | uint64(rs[i].k+1)<<4 | uint64(rs[i].mask))
			dst = append(dst, checker.Transition[State]{Action: a, Next: sys.grant(s, rs[i:i+1])})
		}
		return dst
	}
	ch := sys.choices(rs)
	idx := make([]int, len(ch))
	for combo := uint64(0); ; combo++ {
		var set []request
		for g := range ch {
			for _, i := range ch[g][idx[g]] {
				set = append(set, rs[i])
			}
		}
		dst = append(dst, checker.Transition[State]{Action: checker.Action(combo), Next: sys.grant(s, set)})
		g := len(ch) - 1
		for ; g >= 0; g-- {
			idx[g]++
			if idx[g] < len(ch[g]) {
				break
			}
			idx[g] = 0
		}
		if g < 0 {
			return dst
		}
	}
}

// Encode implements checker.Model: starts, statuses, each held mask as a uvarint, then
// the drain counters (Options.Flits > 0).
func (sys *System) Encode(s State, buf []byte) []byte {
	buf = append(buf, s.Start...)
	buf = append(buf, s.Status...)
	for _, h := range s.Held {
		buf = binary.AppendUvarint(buf, h)
	}
	return append(buf, s.Drain...)
}

// Terminal implements checker.Model: every packet is done.
func (sys *System) Terminal(s State) bool {
	for _, st := range s.Status {
		if st != done {
			return false
		}
	}
	return true
}

// Describe implements checker.Model: the grants of the transition, e.g.
// "grant m1.phase1 1->[5,8]: s1.in2 -> s0.in2+s0.in3".
func (sys *System) Describe(from State, action checker.Action) string {
	owner := sys.owners(from)
	rs := sys.requests(from, owner, nil)
	var set []request
	if sys.opt.Timing == Async {
		a := uint64(action)
		p, k, mask := int(a>>20), int(a>>4&0xffff)-1, int(a&0xf)
		for _, r := range rs {
			if r.p == p && r.k == k && r.mask == mask {
				set = append(set, r)
			}
		}
	} else {
		ch := sys.choices(rs)
		combo := uint64(action)
		for g := len(ch) - 1; g >= 0; g-- {
			c := int(combo % uint64(len(ch[g])))
			combo /= uint64(len(ch[g]))
			for _, i := range ch[g][c] {
				set = append([]request{rs[i]}, set...)
			}
		}
	}
	if len(set) == 0 {
		if sys.opt.Timing == Lockstep && sys.anyDraining(from) {
			return "cycle: tails drain"
		}
		return fmt.Sprintf("unknown action %d", action)
	}
	parts := make([]string, 0, len(set))
	for _, r := range set {
		sh := sys.shape(from, r.p)
		links := make([]string, r.nl)
		for i := 0; i < r.nl; i++ {
			links[i] = sys.b.ChannelName(r.links[i])
		}
		at := "inject"
		if r.k >= 0 {
			at = sys.b.ChannelName(sh.tree[r.k].Channel)
		}
		parts = append(parts, fmt.Sprintf("%s: %s -> %s", sys.PacketName(from, r.p), at, strings.Join(links, "+")))
	}
	prefix := "grant "
	if sys.opt.Timing == Lockstep {
		prefix = "cycle: grant "
	}
	return prefix + strings.Join(parts, "; ")
}

// Wait is one edge of a deadlock's wait-for graph: packet Waiter's head at link At
// needs link Link, which packet Holder holds.
type Wait struct {
	Waiter string `json:"waiter"`
	At     string `json:"at"`
	Link   string `json:"link"`
	Holder string `json:"holder"`
	// Stage and Label locate Link (Stage -1: external output to node Label).
	Stage, Label int `json:"-"`
	WaiterIdx    int `json:"-"`
	HolderIdx    int `json:"-"`
	Channel      int `json:"-"`
	AtChannel    int `json:"-"`
}

// Waits lists, for state s, every link an active packet's head needs that another packet
// holds: the wait-for edges that explain a deadlock.
func (sys *System) Waits(s State) []Wait {
	owner := sys.owners(s)
	var out []Wait
	for p := range s.Status {
		if s.Status[p] != active {
			continue
		}
		sh := sys.shape(s, p)
		add := func(at topology.ChannelID, atName string, need topology.ChannelID) {
			if o := owner[need]; o >= 0 && int(o) != p {
				st, lb := sys.b.Link(need)
				out = append(out, Wait{Waiter: sys.PacketName(s, p), At: atName, Link: sys.b.ChannelName(need),
					Holder: sys.PacketName(s, int(o)), Stage: st, Label: lb, WaiterIdx: p, HolderIdx: int(o),
					Channel: int(need), AtChannel: int(at)})
			}
		}
		if s.Held[p] == 0 {
			add(-1, fmt.Sprintf("node %d", sh.pkt.Source), sh.tree[0].Channel)
			continue
		}
		for held := s.Held[p]; held != 0; held &= held - 1 {
			l := &sh.tree[bits.TrailingZeros64(held)]
			for c := 0; c < l.NumChildren; c++ {
				ci := l.Children[c]
				if s.Held[p]&(1<<uint(ci)) == 0 {
					add(l.Channel, sys.b.ChannelName(l.Channel), sh.tree[ci].Channel)
				}
			}
		}
	}
	return out
}

// Violation describes a deadlocked state in one line.
func (sys *System) Violation(s State) string {
	ws := sys.Waits(s)
	parts := make([]string, 0, len(ws))
	for _, w := range ws {
		parts = append(parts, fmt.Sprintf("%s at %s waits for %s held by %s", w.Waiter, w.At, w.Link, w.Holder))
	}
	return fmt.Sprintf("deadlock (starts %v): %s", sys.StartsOf(s), strings.Join(parts, "; "))
}

var _ checker.Model[State] = (*System)(nil)
