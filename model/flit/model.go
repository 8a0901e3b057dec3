package flit

import (
	"encoding/binary"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/model/topology"
)

func chanID(c int) topology.ChannelID { return topology.ChannelID(c) }

func chanNode(v int) topology.NodeID { return topology.NodeID(v) }

// Model is the flit-level wormhole network of a Config as a system.Model[State]. It is
// immutable after New (but for its interning table and its fault record, both safe for
// concurrent use) and safe for concurrent use.
type Model struct {
	cfg        Config
	rel        routing.Relation
	nvc        int               // number of network virtual channels: Channels*VCs
	per        int               // model VCs per relation VC: VCs / Routing.VCs()
	budget     int               // misroute budget of a routing.Budgeted relation, -1 otherwise
	chFrom     []topology.NodeID // sending router of each physical channel
	vcTo       []topology.NodeID // receiving router of each virtual channel
	into       [][]int32         // virtual channels entering each node
	ejects     int               // delivery channels per node (ejectPorts)
	flits      []int             // format length per message
	expect     []int             // flits each destination must receive, per message
	destIdx    [][]int16         // destIdx[m][node] = index of node in Dests, or -1
	aloneState                   // the start state worms' entries are checked on (invmemo.go)

	tab *Table // the interning table of this model's states

	// The route cache: the validated outputs of every header the model routes, by
	// (message, destination, input, misroutes), filled on first use; nil when the table
	// would exceed maxRouteCache entries (then every header asks the relation).
	rcache []atomic.Pointer[[]routing.Output]
	rbase  []int // rbase[i]: index of message i's first entry

	faultMu sync.Mutex
	fault   error // the first contract breach of the relation (see Err)

	compact   bool // Config.Compact and no pruning policy (compact.go)
	lowest    bool // Config.LowestVC and some interchangeable virtual channels (vcgroups.go)
	groupOnce sync.Once
	groups    []uint8   // vcGroups
	fullOnce  sync.Once // Full's model, built on first use
	full      *Model
	leanOnce  sync.Once // Lean's model, built on first use
	lean      *Model

	distOnce sync.Once  // Progress's weights, computed on first use (computeDist)
	weight   [][]uint32 // weight[i][o]: the weight of a flit of message i in virtual channel o
	top      []uint32   // top[i]+1: the weight of a delivered flit of message i
	acyclic  bool       // every message's header graph is acyclic (Acyclic)
}

// New validates cfg and builds its model. Cost O(messages*nodes + channels*VCs).
func New(cfg Config) (*Model, error) { return build(cfg, nil) }

// build is New with the model's vcGroups given (nil: computed when LowestVC needs them).
func build(cfg Config, groups []uint8) (*Model, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	m := &Model{cfg: cfg, rel: cfg.Routing, budget: -1, tab: NewTable(), compact: cfg.Compact && cfg.Prune == PruneNone, groups: groups}
	m.tab.worms = make([]localSet, len(cfg.Messages))
	m.cfg.Messages = append([]Message(nil), cfg.Messages...)
	if b, ok := cfg.Routing.(routing.Budgeted); ok {
		m.budget = min(max(b.MisrouteBudget(), 0), 255)
	}
	nodes := cfg.Net.Nodes()
	m.nvc = cfg.Net.Channels() * cfg.VCs
	m.per = cfg.VCs / cfg.Routing.VCs()
	m.chFrom = make([]topology.NodeID, cfg.Net.Channels())
	for c := range m.chFrom {
		m.chFrom[c], _ = cfg.Net.Ends(chanID(c))
	}
	m.vcTo = make([]topology.NodeID, m.nvc)
	m.into = make([][]int32, nodes)
	for o := 0; o < m.nvc; o++ {
		_, to := cfg.Net.Ends(chanID(o / cfg.VCs))
		m.vcTo[o] = to
		m.into[to] = append(m.into[to], int32(o))
	}
	m.ejects = m.ejectPorts()
	m.lowest = cfg.LowestVC && m.interchangeable()
	for _, msg := range m.cfg.Messages {
		m.flits = append(m.flits, msg.Flits())
		exp := msg.Length
		if msg.Multicast {
			exp = 1 + msg.Length
		}
		m.expect = append(m.expect, exp)
		idx := make([]int16, nodes)
		for v := range idx {
			idx[v] = -1
		}
		for di, d := range msg.Dests {
			idx[d] = int16(di)
		}
		m.destIdx = append(m.destIdx, idx)
	}
	n := 0
	for _, msg := range m.cfg.Messages {
		m.rbase = append(m.rbase, n)
		n += len(msg.Dests) * (m.nvc + 1) * (max(m.budget, 0) + 1)
	}
	if n <= maxRouteCache {
		m.rcache = make([]atomic.Pointer[[]routing.Output], n)
	}
	return m, nil
}

// maxRouteCache bounds the route cache's entries (8 bytes each, plus the outputs of the
// headers actually routed).
const maxRouteCache = 1 << 16

// Err returns why states built by m may be wrong, or nil: the first breach of the
// routing relation's contract met while building states (an output channel that does
// not leave the router, or a virtual channel outside [0, VCs())), whose outputs were
// ignored, or ErrTableFull (wrapped) when the interning table ran out of indices. A
// search of m that ends with Err non-nil did not explore the model it was asked to:
// callers report a relation breach as an error and a full table as inconclusive.
func (m *Model) Err() error {
	m.faultMu.Lock()
	defer m.faultMu.Unlock()
	if m.fault != nil {
		return m.fault
	}
	if err := m.tab.Err(); err != nil {
		return fmt.Errorf("%w (%d sequences)", err, m.tab.Len())
	}
	return nil
}

// Table returns the model's interning table, which resolves the Bytes and Outs handles
// of its states.
func (m *Model) Table() *Table { return m.tab }

// AuxBytes returns the bytes the model holds beside the explorer's store: its interning
// table, which grows with the distinct buffer contents, delivery counts and output sets
// of the states built so far. It lives in the Go heap, so the explorer's heap sampling
// (Options.MaxMemoryBytes) already counts it; AuxBytes lets a caller report it.
func (m *Model) AuxBytes() int64 { return m.tab.Bytes() }

func (m *Model) setFault(err error) {
	m.faultMu.Lock()
	if m.fault == nil {
		m.fault = err
	}
	m.faultMu.Unlock()
}

// Relation returns the model's routing relation.
func (m *Model) Relation() routing.Relation { return m.rel }

// Config returns the model's configuration (do not modify its slices).
func (m *Model) Config() Config { return m.cfg }

// VCs returns the number of network virtual channels (Channels*VCs); Out values 0..VCs()-1.
func (m *Model) VCs() int { return m.nvc }

// EjectPorts returns how many worms a router can deliver at once (one under OnePort;
// under AllPort one per channel into a router, see ejectPorts): a worm whose header
// reaches its destination waits only when that many others are being delivered there.
func (m *Model) EjectPorts() int { return m.ejects }

// ExpectedFlits returns how many flits each destination of message i must receive: its
// address flit and its data for a multicast, Length for a unicast.
func (m *Model) ExpectedFlits(i int) int { return m.expect[i] }

// Init returns the single initial state: every message waiting at its source, every
// virtual channel free.
func (m *Model) Init() []State {
	s := State{Msgs: make([]Msg, len(m.cfg.Messages)), VCs: make([]VC, m.nvc)}
	for i := range s.Msgs {
		s.Msgs[i].In.Cur = -1
		s.Msgs[i].Got = m.tab.MakeBytes(make([]uint8, len(m.cfg.Messages[i].Dests)))
	}
	for i := range s.VCs {
		s.VCs[i] = VC{Owner: -1, In: Input{Cur: -1}}
	}
	s.sums.pot, s.sums.outs = m.progressSums(&s)
	s.sums.ok = true
	return []State{s}
}

// Terminal reports whether every message has been fully delivered: every source done and
// every virtual channel free.
func (m *Model) Terminal(s State) bool {
	for i := range s.Msgs {
		if !s.Msgs[i].Done {
			return false
		}
	}
	for i := range s.VCs {
		if s.VCs[i].Owner >= 0 {
			return false
		}
	}
	return true
}

// Kind is the kind of a transition.
type Kind uint8

// The transition kinds. Every transition moves at most one flit.
const (
	// KindMove moves the next flit of an input (from its buffer or, when re-injecting,
	// from its auxiliary buffer) to the output it is connected to; into Eject it is a
	// delivery. When it empties a closed input the input is released (the tail release)
	// and its outputs are closed, in the same transition.
	KindMove Kind = iota + 1
	// KindFollow moves an address flit into an output its message already reserved at
	// this router (000 §2.1 case (b)).
	KindFollow
	// KindAlloc reserves a free output (a virtual channel of the routing's class, or the
	// ejection channel) for the address flit at the head of an input and moves the flit
	// into it: a worm header's VC allocation, or a new branch (000 §2.1 case (a), after
	// which the data is re-injected from the auxiliary buffer).
	KindAlloc
	// KindPrune releases the other branches of a message at a router (000 §3).
	KindPrune
)

var kindNames = [...]string{"?", "move", "follow", "alloc", "prune"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", k)
}

// MakeAction packs a transition: its kind, the input it acts on (message i's source is
// input i; virtual channel o is input Messages+o) and an argument (the output+1 for
// KindAlloc, else 0).
func MakeAction(k Kind, input int, arg int) system.Action {
	return system.Action(uint64(k)<<56 | uint64(uint32(input))<<24 | uint64(uint32(arg)&0xffffff))
}

// SplitAction is the inverse of MakeAction.
func SplitAction(a system.Action) (k Kind, input int, arg int) {
	return Kind(a >> 56), int(uint32(a>>24) & 0xffffffff), int(a & 0xffffff)
}

// cursor names one input channel of a state: a message's source (vc < 0) or a virtual
// channel; msg is the message it carries and at the router it belongs to.
type cursor struct {
	input int
	msg   int
	vc    int
	at    topology.NodeID
	in    Input // the input's routing state (a copy: succSteps hold no pointer)
}

// nextFlit returns the flit an input would send next and whether it comes from the
// auxiliary buffer; ok is false when the input has nothing to send.
func (m *Model) nextFlit(s *State, c cursor) (f uint8, aux, ok bool) {
	if c.in.Reinj > 0 {
		return uint8(m.cfg.Messages[c.msg].Length - int(c.in.Reinj) + 1), true, true
	}
	if c.vc < 0 {
		g := &s.Msgs[c.msg]
		if int(g.Sent) < m.flits[c.msg] {
			return g.Sent, false, true
		}
		return 0, false, false
	}
	v := &s.VCs[c.vc]
	if v.Flits != 0 {
		return v.Flits.At(m.tab, 0), false, true
	}
	return 0, false, false
}

// addrDest returns the destination index of flit f of message i if it is an address flit.
func (m *Model) addrDest(i int, f uint8) (int, bool) {
	msg := &m.cfg.Messages[i]
	if f == 0 {
		return 0, true
	}
	if msg.Multicast && int(f) > msg.Length {
		return int(f) - msg.Length, true
	}
	return 0, false
}

// header returns the routing header of the address flit for destination di of input c:
// the router, the input (channel and relation VC, or Injection at the source), the
// message's source and destination, and its misroutes (Budgeted relations only).
func (m *Model) header(s *State, c cursor, di int) routing.Header {
	msg := &m.cfg.Messages[c.msg]
	h := routing.Header{At: c.at, In: routing.Input{Channel: routing.Injection}, Src: msg.Source, Dst: msg.Dests[di]}
	if c.vc >= 0 {
		h.In = routing.Input{Channel: chanID(c.vc / m.cfg.VCs), VC: (c.vc % m.cfg.VCs) / m.per}
	}
	if m.budget >= 0 {
		h.Misroutes = int(s.Msgs[c.msg].Mis)
	}
	return h
}

// permitted returns the relation's outputs for the address flit for destination di of
// input c (which must not be at that destination), most preferred first, in *rb (reused
// scratch). Outputs that break the relation's contract are dropped and recorded (Err).
func (m *Model) permitted(s *State, c cursor, di int, rb *[]routing.Output) []routing.Output {
	if m.rcache == nil {
		return m.route(s, c, di, rb)
	}
	k := m.rbase[c.msg] + (di*(m.nvc+1)+c.vc+1)*(max(m.budget, 0)+1)
	if m.budget >= 0 {
		k += int(s.Msgs[c.msg].Mis)
	}
	if p := m.rcache[k].Load(); p != nil {
		return *p
	}
	var fresh []routing.Output
	outs := m.route(s, c, di, &fresh)
	outs = outs[:len(outs):len(outs)]
	m.rcache[k].Store(&outs) // equal values if two workers race: Route is pure
	return outs
}

// route asks the relation for the outputs of the address flit for destination di of
// input c, into *rb, and drops (and records) outputs that break its contract.
func (m *Model) route(s *State, c cursor, di int, rb *[]routing.Output) []routing.Output {
	h := m.header(s, c, di)
	outs := m.rel.Route(h, (*rb)[:0])
	*rb = outs
	k := 0
	for _, o := range outs {
		if o.Channel < 0 || int(o.Channel) >= len(m.chFrom) || m.chFrom[o.Channel] != h.At || o.VC < 0 || o.VC >= m.rel.VCs() {
			m.setFault(fmt.Errorf("routing %q: header %+v got output %+v, which is not a channel of router %s with a virtual channel below %d", m.rel.Name(), h, o, m.cfg.Net.NodeName(h.At), m.rel.VCs()))
			continue
		}
		outs[k] = o
		k++
	}
	return outs[:k]
}

// matches reports whether model output o is on the relation's output r: its physical
// channel, and one of the model VCs of r's relation VC.
func (m *Model) matches(o Out, r routing.Output) bool {
	return o >= 0 && int(o)/m.cfg.VCs == int(r.Channel) && (int(o)%m.cfg.VCs)/m.per == r.VC
}

// reserved returns the index in in.Outs of the first reserved output among the permitted
// ones, in the relation's order, and whether that hop is a misroute; -1 if none. This is
// 000 §4's router: "it checks first if there is a reserved output channel among those
// supplied by the routing function".
func (m *Model) reserved(in *Input, outs []routing.Output) (int, bool) {
	if in.Outs == 0 {
		return -1, false
	}
	for _, r := range outs {
		for j, o := range in.Outs.Slice(m.tab) {
			if m.matches(o, r) {
				return j, r.Misroute
			}
		}
	}
	return -1, false
}

// isDest reports whether router r is destination di of message i.
func (m *Model) isDest(i, di int, r topology.NodeID) bool { return m.cfg.Messages[i].Dests[di] == r }

func (m *Model) room(s *State, o Out) bool {
	return o == Eject || s.VCs[o].Flits.Len(m.tab) < m.cfg.Buffer
}

// ejectPorts is how many worms a router can deliver at once (New keeps it in m.ejects): one under OnePort; under
// AllPort one per channel into an n-dimensional router (2n; the most channels into any
// router on a network without dimensions), the all-port model's "a node
// receives on all its channels at once", which checker/sim gives every node too. With one
// VC per channel no more worms can arrive at once, so the limit only binds with VCs.
func (m *Model) ejectPorts() int {
	if m.cfg.Ports == OnePort {
		return 1
	}
	if g, ok := m.cfg.Net.(interface{ Dims() int }); ok && g.Dims() > 0 {
		return 2 * g.Dims()
	}
	most := 0
	for _, in := range m.into {
		most = max(most, len(in)/m.cfg.VCs)
	}
	return most
}

// ejecting counts the worms that hold a delivery channel of router r: inputs at r that
// have reserved Eject.
func (m *Model) ejecting(s *State, r topology.NodeID) int {
	k := 0
	for _, o := range m.into[r] {
		v := &s.VCs[o]
		// Outputs are kept ascending and Eject (-1) is the least, so a reserved delivery
		// channel is always the first output.
		if v.Owner >= 0 && v.In.Outs != 0 && v.In.Outs.At(m.tab, 0) == Eject {
			k++
		}
	}
	return k
}

// ejectBusy reports whether every delivery channel of router r is held.
func (m *Model) ejectBusy(s *State, r topology.NodeID) bool {
	return m.ejecting(s, r) >= m.ejects
}

// injectBusy reports whether node n's injection channel is held (one-port only).
func (m *Model) injectBusy(s *State, n topology.NodeID) bool {
	if m.cfg.Ports != OnePort {
		return false
	}
	for i := range s.Msgs {
		g := &s.Msgs[i]
		if m.cfg.Messages[i].Source == n && g.Sent > 0 && !g.Done {
			return true
		}
	}
	return false
}

func (m *Model) cursors(s *State, yield func(c cursor) bool) {
	for i := range s.Msgs {
		if s.Msgs[i].Done {
			continue
		}
		if !yield(cursor{input: i, msg: i, vc: -1, at: m.cfg.Messages[i].Source, in: s.Msgs[i].In}) {
			return
		}
	}
	for o := range s.VCs {
		v := &s.VCs[o]
		if v.Owner < 0 {
			continue
		}
		if !yield(cursor{input: len(s.Msgs) + o, msg: int(v.Owner), vc: o, at: m.vcTo[o], in: v.In}) {
			return
		}
	}
}

// succStep is one enabled transition before it is applied: its action, the input it acts
// on, its kind, applyTo's argument (the output taken for KindAlloc, the index of the
// output followed for KindFollow, the index of the output the stopped flit needs for
// KindPrune, -1 if none) and whether the hop is a misroute of a Budgeted relation.
type succStep struct {
	a   system.Action
	c   cursor
	k   Kind
	arg int
	mis bool
}

// steps appends the enabled transitions of s in Successors order, without applying them.
// rb is scratch for the relation's outputs.
func (m *Model) steps(s *State, dst []succStep, rb *[]routing.Output) []succStep {
	for i := range s.Msgs {
		if s.Msgs[i].Done {
			continue
		}
		dst = m.inputSteps(s, cursor{input: i, msg: i, vc: -1, at: m.cfg.Messages[i].Source, in: s.Msgs[i].In}, dst, rb)
	}
	for o := range s.VCs {
		v := &s.VCs[o]
		if v.Owner < 0 {
			continue
		}
		dst = m.inputSteps(s, cursor{input: len(s.Msgs) + o, msg: int(v.Owner), vc: o, at: m.vcTo[o], in: v.In}, dst, rb)
	}
	return dst
}

// Successors appends the enabled transitions of s: inputs in order (message sources by
// message, then virtual channels by index), and for each input its moves, then its
// allocations by output index, then its pruning. Each successor gets its own copy of
// the virtual channels (and of the messages when the succStep changes one or s lives in
// DecodeInto's scratch); the messages are otherwise shared with s.
func (m *Model) Successors(s State, dst []system.Transition[State]) []system.Transition[State] {
	sc := scratchPool.Get().(*scratch)
	sc.st = m.steps(&s, sc.st[:0], &sc.rb)
	for _, st := range sc.st {
		dst = append(dst, system.Transition[State]{Action: st.a, Next: m.applyStep(&s, st)})
	}
	sc.release()
	return dst
}

// Successor returns the target of the enabled transition a of s: the Next of the
// transition with action a among Successors(s). It panics if a is not enabled in s (the
// explorer only asks for actions EncodeSuccessors reported).
func (m *Model) Successor(s State, a system.Action) State {
	_, input, _ := SplitAction(a)
	var c cursor
	switch {
	case input < len(s.Msgs) && !s.Msgs[input].Done:
		c = cursor{input: input, msg: input, vc: -1, at: m.cfg.Messages[input].Source, in: s.Msgs[input].In}
	case input >= len(s.Msgs) && input-len(s.Msgs) < len(s.VCs) && s.VCs[input-len(s.Msgs)].Owner >= 0:
		o := input - len(s.Msgs)
		c = cursor{input: input, msg: int(s.VCs[o].Owner), vc: o, at: m.vcTo[o], in: s.VCs[o].In}
	default:
		panic(fmt.Sprintf("flit: Successor: action %#x acts on an idle input", uint64(a)))
	}
	sc := scratchPool.Get().(*scratch)
	defer sc.release()
	sc.st = m.inputSteps(&s, c, sc.st[:0], &sc.rb)
	for _, st := range sc.st {
		if st.a == a {
			return m.applyStep(&s, st)
		}
	}
	panic(fmt.Sprintf("flit: Successor: action %#x is not enabled", uint64(a)))
}

// scratch is the reusable successor buffer of EncodeSuccessors and Successors.
type scratch struct {
	st    []succStep
	rb    []routing.Output
	state State
	log   touched
	held  [][]int32 // held[i]: the virtual channels worm i holds in the parent, ascending
	idx   []uint32  // idx[i]: the index of worm i's local state in the parent (see Encode)
	local []byte    // a worm's local state being built
	merge []int32   // a worm's channels after a step
	owned []int32   // the channels held in the parent, ascending
	moved uint32    // the index encodeStep gave the moved worm's local state
	chans []chanRef // the channels held in the parent, ascending (encodeBuild)
	moves []move    // a worm's candidate moves being built (movesOf)
	word  [8]byte   // a successor's one-word encoding (encodeBuild)
	rank  [2]uint32 // a successor's rank (encodeBuild)
}

// release returns the scratch to the pool.
func (sc *scratch) release() { scratchPool.Put(sc) }

// holders fills sc.held and sc.owned for s: the channels each worm holds, and every
// held channel, ascending. It is the one scan of the network's channels an expansion
// makes.
func (m *Model) holders(sc *scratch, s *State) {
	n := len(s.Msgs)
	for len(sc.held) < n {
		sc.held = append(sc.held, nil)
	}
	held := sc.held[:n]
	for i := range held {
		held[i] = held[i][:0]
	}
	sc.owned = sc.owned[:0]
	for o := range s.VCs {
		if w := int(s.VCs[o].Owner); w >= 0 && w < n {
			held[w] = append(held[w], int32(o))
			sc.owned = append(sc.owned, int32(o))
		}
	}
}

// encodeParent fills sc.idx for s, whose holders are in sc: the index of each worm's
// local state (see Encode).
func (m *Model) encodeParent(sc *scratch, s *State) {
	n := len(s.Msgs)
	sc.idx = sc.idx[:0]
	if s.worms.tab == m.tab && m.tab != nil {
		if idx, ok := wordIndices(s.worms.enc, n, sc.idx); ok {
			sc.idx = idx
			return
		}
		sc.idx = sc.idx[:0]
	}
	for i := 0; i < n; i++ {
		sc.local = m.wormLocal(sc.local[:0], s, i, sc.held[i])
		sc.idx = append(sc.idx, m.internWorm(i, sc.local))
	}
}

// wordIndices appends to dst the n uvarint worm indices of a one-word encoding (Encode,
// little-endian); false if the word holds fewer.
func wordIndices(enc uint64, n int, dst []uint32) ([]uint32, bool) {
	if n <= 8 && enc&(0x8080808080808080>>(64-8*uint(n))) == 0 {
		// The usual case: every index is below 0x80, one byte each.
		for range n {
			dst = append(dst, uint32(enc&0x7f))
			enc >>= 8
		}
		return dst, true
	}
	left := 8
	for i := 0; i < n; i++ {
		var x uint32
		for shift := 0; ; shift += 7 {
			if left == 0 || shift > 28 {
				return dst, false
			}
			b := byte(enc)
			enc >>= 8
			left--
			x |= uint32(b&0x7f) << shift
			if b < 0x80 {
				break
			}
		}
		dst = append(dst, x)
	}
	return dst, true
}

// encodeStep appends the encoding of t, the parent (whose worms encodeParent described
// in sc) after a step of worm msg that wrote the logged channels: every write of a step
// is within its own worm (its source, the channels it holds, a free channel it takes),
// so only that worm's local state is built and interned again.
func (m *Model) encodeStep(sc *scratch, t *State, msg int, buf []byte) []byte {
	all := sc.merge[:0]
	if sc.log.full { // the log lost channels: find the worm's
		for o := range t.VCs {
			if int(t.VCs[o].Owner) == msg {
				all = append(all, int32(o))
			}
		}
	} else {
		all = append(all, sc.held[msg]...)
		all = append(all, sc.log.idx[:sc.log.n]...)
	}
	for i := 1; i < len(all); i++ { // insertion sort: a worm holds a few channels
		for j := i; j > 0 && all[j] < all[j-1]; j-- {
			all[j], all[j-1] = all[j-1], all[j]
		}
	}
	k := 0
	for _, o := range all {
		if t.VCs[o].Owner == int8(msg) && (k == 0 || all[k-1] != o) {
			all[k] = o
			k++
		}
	}
	// Store the buffers back only when they grew: a pointer write per successor costs a
	// write barrier while the collector runs.
	if cap(all) != cap(sc.merge) {
		sc.merge = all
	}
	local := m.wormLocal(sc.local[:0], t, msg, all[:k])
	if cap(local) != cap(sc.local) {
		sc.local = local
	}
	x := m.internWorm(msg, local)
	sc.moved = x
	return appendIndices(buf, sc.idx, msg, x)
}

// appendIndices appends the encoding (Encode) of the worm indices idx with worm msg's
// replaced by x.
func appendIndices(buf []byte, idx []uint32, msg int, x uint32) []byte {
	base := len(buf)
	for i, y := range idx {
		if i == msg {
			y = x
		}
		buf = appendUvarint(buf, y)
	}
	return padWord(buf, base)
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

// touched logs the virtual channels a step writes, each once, so that EncodeSuccessors
// restores only those; a nil log records nothing.
type touched struct {
	idx  [32]int32
	n    int
	full bool // more than len(idx) channels written: restore everything
}

func (t *touched) add(vc int) {
	if t == nil || vc < 0 || t.full {
		return
	}
	for _, o := range t.idx[:t.n] {
		if o == int32(vc) {
			return
		}
	}
	if t.n == len(t.idx) {
		t.full = true
		return
	}
	t.idx[t.n] = int32(vc)
	t.n++
}

// EncodeSuccessors calls yield, for every transition Successors(s) returns and in the
// same order, with its action and the encoding of its target (Encode of Next), without
// building the targets: the enabled moves are found by evaluating the gates of s's
// worms' candidate moves (wormMoves), and a target's encoding is s's with the moved
// worm's index replaced by the one the move is known to give; a move met for the first
// time is applied to a scratch copy of s (restored where the step wrote), and only the
// moved worm is re-encoded and interned. enc is valid only during the call to yield. buf is scratch
// space for the encodings; the possibly grown buffer is returned for reuse. It
// implements system.SuccessorEncoder.
func (m *Model) EncodeSuccessors(s State, buf []byte, yield func(a system.Action, enc []byte)) []byte {
	buf, _ = m.encodeBuild(s, buf, nil, false, yields{plain: yield}, nil)
	return buf
}

// EncodeSuccessorsProgress is EncodeSuccessors that also yields each successor's
// Progress, so that the explorer checks the progress measure without building the
// successors (system.ProgressEncoder). rank is valid only during the call to yield.
func (m *Model) EncodeSuccessorsProgress(s State, buf []byte, rbuf []uint32, yield func(a system.Action, enc []byte, rank []uint32)) ([]byte, []uint32) {
	return m.encodeBuild(s, buf, rbuf, true, yields{ranked: yield}, nil)
}

// EncodeSuccessorsBuild is EncodeSuccessorsProgress (ranks only when ranks is set) that
// builds a successor when yield returns true and hands it to keep: a copy of the scratch
// state the step was applied to, with its Progress sums, sharing the messages with s
// when the step did not write them and s is not DecodeInto's (system.SuccessorBuilder). The explorer keeps its new
// states so instead of rebuilding them with Successor.
func (m *Model) EncodeSuccessorsBuild(s State, buf []byte, rbuf []uint32, ranks bool, yield func(a system.Action, enc []byte, rank []uint32) bool, keep func(State)) ([]byte, []uint32) {
	return m.encodeBuild(s, buf, rbuf, ranks, yields{build: yield}, keep)
}

// built returns a copy of t, the scratch state that is s after a step of worm msg
// whose encoding is enc, as applyTo would build it: its channels carved from a slab, its
// messages shared with s unless the step wrote message msg or s lives in DecodeInto's
// scratch, its Progress sums when ok,
// and its encoding when it is one word.
func (m *Model) built(s, t *State, msg int, enc []byte, ok bool, pot, outs uint64) State {
	n := State{Msgs: s.Msgs, VCs: carveVCs(len(t.VCs))}
	copy(n.VCs, t.VCs)
	if t.Msgs[msg] != s.Msgs[msg] || s.front != nil {
		n.Msgs = carveMsgs(len(t.Msgs))
		copy(n.Msgs, t.Msgs)
	}
	n.sums = sums{pot: pot, outs: outs, ok: ok}
	if len(enc) == 8 {
		n.worms = worms{tab: m.tab, enc: binary.LittleEndian.Uint64(enc)}
	}
	return n
}

// inputSteps appends the enabled transitions of input c. A data flit (or a re-injected
// one) moves to the current output if it has room. An address flit at its destination
// follows a reserved ejection or takes the free ejection channel. Elsewhere it asks the
// relation: the first reserved output among the permitted ones (000 §4) is followed if
// it has room; with none reserved, every free model VC of every permitted output is its
// own KindAlloc transition, in ascending output order (so the explorer covers every
// selection function), and with none free the flit waits. Pruning is offered where the
// policy prunes a stopped input.
func (m *Model) inputSteps(s *State, c cursor, dst []succStep, rb *[]routing.Output) []succStep {
	f, aux, ok := m.nextFlit(s, c)
	if !ok {
		return dst
	}
	if c.vc < 0 && s.Msgs[c.msg].Sent == 0 && !aux && m.injectBusy(s, c.at) {
		return dst
	}
	in := &c.in
	di, isAddr := m.addrDest(c.msg, f)
	if aux || !isAddr {
		o := in.Outs.At(m.tab, int(in.Cur))
		if m.room(s, o) {
			return append(dst, succStep{a: MakeAction(KindMove, c.input, 0), c: c, k: KindMove})
		}
		if m.stopPrunable(in, int(in.Cur)) {
			return append(dst, m.pruneStep(c, int(in.Cur)))
		}
		return dst
	}
	if m.isDest(c.msg, di, c.at) {
		for j, o := range in.Outs.Slice(m.tab) {
			if o == Eject {
				return m.followStep(s, c, j, false, dst)
			}
		}
		if !m.ejectBusy(s, c.at) {
			return append(dst, succStep{a: MakeAction(KindAlloc, c.input, 0), c: c, k: KindAlloc, arg: int(Eject)})
		}
		if m.prunable(in) {
			dst = append(dst, m.pruneStep(c, -1))
		}
		return dst
	}
	outs := m.permitted(s, c, di, rb)
	if j, mis := m.reserved(in, outs); j >= 0 {
		return m.followStep(s, c, j, mis, dst)
	}
	n0 := len(dst)
	for _, r := range outs {
		base := int(r.Channel)*m.cfg.VCs + r.VC*m.per
		for o := base; o < base+m.per; o++ {
			if s.VCs[o].Owner >= 0 || m.lowest && !m.lowestFree(s, o) {
				continue // held, or not the lowest free of its class (Config.LowestVC)
			}
			// Insert in ascending output order; a repeated output keeps its first flag.
			k := len(dst)
			for k > n0 && dst[k-1].arg > o {
				k--
			}
			if k > n0 && dst[k-1].arg == o {
				continue
			}
			dst = append(dst, succStep{})
			copy(dst[k+1:], dst[k:])
			dst[k] = succStep{a: MakeAction(KindAlloc, c.input, o+1), c: c, k: KindAlloc, arg: o, mis: r.Misroute}
		}
	}
	if len(dst) == n0 && m.prunable(in) {
		dst = append(dst, m.pruneStep(c, -1))
	}
	return dst
}

// followStep appends the move of an address flit into reserved output j, or the pruning
// of a stopped input when j has no room.
func (m *Model) followStep(s *State, c cursor, j int, mis bool, dst []succStep) []succStep {
	if m.room(s, c.in.Outs.At(m.tab, j)) {
		return append(dst, succStep{a: MakeAction(KindFollow, c.input, 0), c: c, k: KindFollow, arg: j, mis: mis})
	}
	if m.stopPrunable(&c.in, j) {
		return append(dst, m.pruneStep(c, j))
	}
	return dst
}

// prunable reports whether an input blocked at an address flit for want of a free output
// has branches its policy would prune.
func (m *Model) prunable(in *Input) bool {
	switch m.cfg.Prune {
	case PruneOnNoFree, PruneOnStop:
		return in.Outs.Len(m.tab) > 0
	case PrunePartial:
		return m.stopPrunable(in, -1)
	}
	return false
}

// stopPrunable reports whether an input whose next flit is stopped by the full buffer of
// output index blocked has other branches its policy prunes when flits stop (PruneOnStop:
// any; PrunePartial: any but the local ejection).
func (m *Model) stopPrunable(in *Input, blocked int) bool {
	switch m.cfg.Prune {
	case PruneOnStop:
		return in.Outs.Len(m.tab) > 1 || blocked < 0 && in.Outs.Len(m.tab) > 0
	case PrunePartial:
		for j, o := range in.Outs.Slice(m.tab) {
			if j != blocked && o != Eject {
				return true
			}
		}
	}
	return false
}

// pruneStep is the pruning of input c whose next flit needs output index blocked (-1: a
// new output).
func (m *Model) pruneStep(c cursor, blocked int) succStep {
	return succStep{a: MakeAction(KindPrune, c.input, 0), c: c, k: KindPrune, arg: blocked}
}

func (m *Model) applyStep(s *State, st succStep) State { return m.applyTo(s, st) }

// applyTo builds the successor of s for the transition st.
func (m *Model) applyTo(s0 *State, st succStep) State {
	// Copy what the transition changes: the virtual channels always, the messages only
	// when it acts at a source, delivers or counts a misroute (states are immutable, so
	// an unchanged Msgs slice is shared with the predecessor).
	c := st.c
	s := State{Msgs: s0.Msgs, VCs: carveVCs(len(s0.VCs))}
	copy(s.VCs, s0.VCs)
	var target Out = None
	switch st.k {
	case KindMove:
		target = c.in.Outs.At(m.tab, int(c.in.Cur))
	case KindFollow:
		target = c.in.Outs.At(m.tab, st.arg)
	case KindAlloc:
		target = Out(st.arg)
	}
	if c.vc < 0 || target == Eject || st.mis && m.budget >= 0 || s0.front != nil || m.compact {
		s.Msgs = carveMsgs(len(s0.Msgs))
		copy(s.Msgs, s0.Msgs)
	}
	var log touched
	m.applyInto(s0, st, &s, &log)
	if m.compact {
		var rb []routing.Output
		m.compactWorm(&s, c.msg, nil, &log, nil, &rb)
	}
	if s0.sums.ok && !log.full {
		s.sums.pot, s.sums.outs = m.stepSums(s0, &s, &log, c.msg, s0.sums.pot, s0.sums.outs)
		s.sums.ok = true
	}
	return s
}

// slab is a block the channel and message arrays of built states are carved from, so
// that building a state costs no allocation of its own: one allocation serves
// slabBytes/state-size states. A block lives as long as one state carved from it; the
// explorer drops a level's states together, so little is held beyond them. The arrays
// hold no pointers, so the garbage collector does not scan the blocks.
type slab struct {
	vcs  []VC
	msgs []Msg
}

const slabBytes = 32 << 10

var slabPool = sync.Pool{New: func() any { return new(slab) }}

// carveVCs returns a fresh array of n channels (contents undefined: the caller
// overwrites it) from a slab.
func carveVCs(n int) []VC {
	sl := slabPool.Get().(*slab)
	if len(sl.vcs) < n {
		sl.vcs = make([]VC, max(n, slabBytes/int(unsafe.Sizeof(VC{}))))
	}
	v := sl.vcs[:n:n]
	sl.vcs = sl.vcs[n:]
	slabPool.Put(sl)
	return v
}

// carveMsgs is carveVCs for message arrays.
func carveMsgs(n int) []Msg {
	sl := slabPool.Get().(*slab)
	if len(sl.msgs) < n {
		sl.msgs = make([]Msg, max(n, slabBytes/4/int(unsafe.Sizeof(Msg{}))))
	}
	v := sl.msgs[:n:n]
	sl.msgs = sl.msgs[n:]
	slabPool.Put(sl)
	return v
}

// applyInto applies the transition st of s0 to s, a copy of s0 whose top-level slices
// (the messages too when the step acts at a source, delivers or counts a misroute) it may
// write; inner slices are shared with s0 and replaced, never written.
func (m *Model) applyInto(s0 *State, st succStep, s *State, log *touched) {
	c, k, arg := st.c, st.k, st.arg
	log.add(c.vc)
	var in *Input
	if c.vc < 0 {
		in = &s.Msgs[c.msg].In
	} else {
		in = &s.VCs[c.vc].In
	}
	if k == KindPrune {
		m.prune(s, in, arg, log)
		return
	}
	if st.mis && m.budget >= 0 && int(s.Msgs[c.msg].Mis) < m.budget {
		s.Msgs[c.msg].Mis++
	}
	f, aux, _ := m.nextFlit(s0, c)
	msg := &m.cfg.Messages[c.msg]
	// Take the flit off the input.
	switch {
	case aux:
		in.Reinj--
	case c.vc < 0:
		s.Msgs[c.msg].Sent++
	default:
		s.VCs[c.vc].Flits = s.VCs[c.vc].Flits.pop(m.tab)
	}
	// Choose its output.
	switch k {
	case KindFollow:
		in.Cur = int8(arg)
	case KindAlloc:
		o := Out(arg)
		j := 0
		old := in.Outs.Slice(m.tab)
		for j < len(old) && old[j] < o {
			j++
		}
		if len(old) == 0 {
			in.Outs = singleOut(o)
		} else {
			var tmp [16]Out
			outs := append(tmp[:0], old[:j]...)
			outs = append(outs, o)
			outs = append(outs, old[j:]...)
			in.Outs = m.tab.MakeOuts(outs)
		}
		in.Cur = int8(j)
		if o != Eject {
			log.add(int(o))
			s.VCs[o] = VC{Owner: int8(c.msg), In: Input{Cur: -1}}
		}
	}
	if msg.Multicast && !aux {
		if int(f) >= 1 && int(f) <= msg.Length {
			in.Aux++ // data from the buffer is copied into the auxiliary buffer
		} else if k == KindAlloc && int(in.Aux) == msg.Length {
			// A new branch opened after the data has passed: re-inject the data from
			// the auxiliary buffer behind its address flit (000 §2.1 case (a)). The
			// first address of a stream is followed by the data itself instead.
			in.Reinj = uint8(msg.Length)
		}
	}
	o := in.Outs.At(m.tab, int(in.Cur))
	if o == Eject {
		g := &s.Msgs[c.msg]
		g.Got = g.Got.bump(m.tab, int(m.destIdx[c.msg][c.at]))
	} else {
		log.add(int(o))
		v := &s.VCs[o]
		v.Flits = v.Flits.push(m.tab, f)
	}
	m.finishInput(s, c, log)
	if o == Eject && m.budget >= 0 && s.Msgs[c.msg].Mis > 0 && m.delivered(s, c.msg) {
		// A delivered worm's misroutes no longer matter: forget them, so that its end
		// is one state whatever route it took.
		s.Msgs[c.msg].Mis = 0
	}
}

// delivered reports whether message i has left its source and holds no virtual channel.
func (m *Model) delivered(s *State, i int) bool {
	if !s.Msgs[i].Done {
		return false
	}
	for o := range s.VCs {
		if int(s.VCs[o].Owner) == i {
			return false
		}
	}
	return true
}

// seq holds the bytes 0..255: Bytes.Slice of a packed run is a capacity-clipped slice
// of it.
var seq = func() (a [256]uint8) {
	for i := range a {
		a[i] = uint8(i)
	}
	return
}()

// finishInput releases an input that has nothing more to send: a source whose every flit
// and re-injection has left, or a closed, empty virtual channel. Its outputs are closed,
// which may release them in turn.
func (m *Model) finishInput(s *State, c cursor, log *touched) {
	if c.vc < 0 {
		g := &s.Msgs[c.msg]
		if int(g.Sent) == m.flits[c.msg] && g.In.Reinj == 0 {
			outs := g.In.Outs
			g.Done = true
			g.In = Input{Cur: -1}
			for _, o := range outs.Slice(m.tab) {
				m.closeOut(s, o, log)
			}
		}
		return
	}
	m.tryRelease(s, c.vc, log)
}

func (m *Model) closeOut(s *State, o Out, log *touched) {
	if o == Eject {
		return
	}
	log.add(int(o))
	s.VCs[o].Closed = true
	m.tryRelease(s, int(o), log)
}

func (m *Model) tryRelease(s *State, vc int, log *touched) {
	v := &s.VCs[vc]
	if !v.Closed || v.Flits != 0 || v.In.Reinj > 0 {
		return
	}
	outs := v.In.Outs
	s.VCs[vc] = VC{Owner: -1, In: Input{Cur: -1}}
	for _, o := range outs.Slice(m.tab) {
		m.closeOut(s, o, log)
	}
}

// prune releases the branches the policy cuts at input in, whose next flit needs output
// index blocked (-1: a new output): with PruneOnStop every output but the blocked one;
// with PrunePartial also keeping the local ejection; with PruneOnNoFree every output.
func (m *Model) prune(s *State, in *Input, blocked int, log *touched) {
	keep := func(j int, o Out) bool {
		switch m.cfg.Prune {
		case PrunePartial:
			return o == Eject || j == blocked
		case PruneOnStop:
			return j == blocked
		}
		return false
	}
	var kept, cut []Out
	cur := int8(-1)
	for j, o := range in.Outs.Slice(m.tab) {
		if keep(j, o) {
			if int8(j) == in.Cur || j == blocked {
				cur = int8(len(kept))
			}
			kept = append(kept, o)
		} else {
			cut = append(cut, o)
		}
	}
	in.Outs = m.tab.MakeOuts(kept)
	in.Cur = cur
	for _, o := range cut {
		m.closeOut(s, o, log)
	}
}

// blockedOut returns the index in the input's outputs of the output its next flit needs
// (the current output for data and re-injected flits, the reserved branch an address flit
// follows), or -1 when the next flit needs a new output. Not on the search's hot path: it
// allocates the relation's output buffer.
func (m *Model) blockedOut(s *State, c cursor) int {
	f, aux, ok := m.nextFlit(s, c)
	if !ok {
		return -1
	}
	di, isAddr := m.addrDest(c.msg, f)
	if aux || !isAddr {
		return int(c.in.Cur)
	}
	if m.isDest(c.msg, di, c.at) {
		for j, o := range c.in.Outs.Slice(m.tab) {
			if o == Eject {
				return j
			}
		}
		return -1
	}
	var rb []routing.Output
	j, _ := m.reserved(&c.in, m.permitted(s, c, di, &rb))
	return j
}

// Describe renders an action of state from, e.g. "m1 flit 2 (0,0)->(1,0).vc0".
func (m *Model) Describe(from State, a system.Action) string {
	k, input, arg := SplitAction(a)
	var c cursor
	found := false
	m.cursors(&from, func(x cursor) bool {
		if x.input == input {
			c, found = x, true
			return false
		}
		return true
	})
	if !found {
		return fmt.Sprintf("%v on unknown input %d", k, input)
	}
	where := "at " + m.cfg.Net.NodeName(c.at)
	if k == KindPrune {
		return fmt.Sprintf("m%d prunes branches %s (%s)", c.msg, where, m.outList(c.in.Outs.Slice(m.tab)))
	}
	f, aux, ok := m.nextFlit(&from, c)
	if !ok {
		return fmt.Sprintf("m%d %v with no flit %s", c.msg, k, where)
	}
	what := fmt.Sprintf("m%d flit %d", c.msg, f)
	if di, isAddr := m.addrDest(c.msg, f); isAddr && m.cfg.Messages[c.msg].Multicast {
		what = fmt.Sprintf("m%d addr d%d=%s", c.msg, di+1, m.cfg.Net.NodeName(m.cfg.Messages[c.msg].Dests[di]))
	} else if aux {
		what += " (aux)"
	}
	var o Out
	switch k {
	case KindMove:
		o = c.in.Outs.At(m.tab, int(c.in.Cur))
	case KindFollow:
		if j := m.blockedOut(&from, c); j >= 0 {
			o = c.in.Outs.At(m.tab, j)
		}
	case KindAlloc:
		o = Out(arg - 1)
	}
	verb := ""
	switch k {
	case KindFollow:
		verb = "follows "
	case KindAlloc:
		verb = "takes "
	}
	if o == Eject {
		return fmt.Sprintf("%s delivered %s", what, where)
	}
	return fmt.Sprintf("%s %s%s", what, verb, m.VCName(o))
}

func (m *Model) outList(outs []Out) string {
	parts := make([]string, len(outs))
	for i, o := range outs {
		parts[i] = m.VCName(o)
	}
	return strings.Join(parts, ", ")
}

var _ system.Model[State] = (*Model)(nil)
var _ system.SuccessorEncoder[State] = (*Model)(nil)
var _ system.Progressive[State] = (*Model)(nil)
var _ system.ProgressEncoder[State] = (*Model)(nil)
var _ system.FrontierDecoder[State] = (*Model)(nil)
