package schedule

import (
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
)

// AnyDelayModel is the any-delay semantics of a schedule as a checker.Model, for the BFS
// explorer: every worm event is one transition, so all orderings are explored. A state
// gives, per unicast, how many of its channels the header has acquired (Head; -1 = not
// started) and the tail has released (Tail; Tail = h+1 once delivered). A worm is
// pipelined (DESIGN.md, wormhole switching): its tail may release channel c_k only after
// its header has acquired c_(k+1), or, for the last channels, reached the destination, so
// a started worm holds at least one channel until it is delivered and a header that
// cannot advance keeps every channel behind it. Enabling rules
// are those of DecideAnyDelay: a unicast starts when its sender holds the message (a
// source, or its receiving unicast is delivered), its predecessor in the send order has
// started, and every earlier unicast of the node through the same first channel
// (one-port: every earlier one) has released that channel. A header may advance onto a
// channel another unicast holds; the invariant "no channel is held by two unicasts"
// (AnyDelayInvariant) then fails, and the explorer's shortest trace is the interleaving.
// It is exponential: use it for small schedules and as the cross-check of DecideAnyDelay.
type AnyDelayModel struct {
	s     *model.Schedule
	rec   map[[2]int]int
	rank  []int
	lists map[[2]int][]int
}

// AnyDelayState is a state of AnyDelayModel; see there.
type AnyDelayState struct {
	Head []int16
	Tail []int16
}

// NewAnyDelayModel builds the model of s; s must be causal (Definition 1 condition 2)
// and have paths shorter than 32000 hops.
func NewAnyDelayModel(s *model.Schedule) (*AnyDelayModel, error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	rec := receivers(s)
	if w := causal(s, rec, nil); w != nil {
		return nil, fmt.Errorf("schedule is not causal: %s", w.String())
	}
	for i, u := range s.Unicasts {
		if len(u.Path) >= 32000 {
			return nil, fmt.Errorf("unicast %d has %d hops; at most 31999", i, len(u.Path))
		}
	}
	rank, lists := sendOrder(s)
	return &AnyDelayModel{s: s, rec: rec, rank: rank, lists: lists}, nil
}

// Init returns the state with no unicast started.
func (m *AnyDelayModel) Init() []AnyDelayState {
	n := len(m.s.Unicasts)
	st := AnyDelayState{Head: make([]int16, n), Tail: make([]int16, n)}
	for i := range st.Head {
		st.Head[i] = -1
	}
	return []AnyDelayState{st}
}

// Action kinds (action = 4*unicast + kind); a unicast's events are start, then header
// acquisitions and tail releases interleaved (pipelined), then delivery.
const (
	adStart = iota
	adAcquire
	adRelease
	adDeliver
)

func (m *AnyDelayModel) delivered(x AnyDelayState, i int) bool {
	return int(x.Tail[i]) == len(m.s.Unicasts[i].Path)+1
}

// enabled reports whether event kind of unicast i can happen in x.
func (m *AnyDelayModel) enabled(x *AnyDelayState, i, kind int) bool {
	s := m.s
	u := &s.Unicasts[i]
	h := int16(len(u.Path))
	switch kind {
	case adStart:
		if x.Head[i] != -1 {
			return false
		}
		g := s.GroupOf(i)
		if !isSource(s, u.From, g) && !m.delivered(*x, m.rec[[2]int{int(u.From), g}]) {
			return false
		}
		list := m.lists[[2]int{int(u.From), g}]
		if m.rank[i] > 1 && x.Head[list[m.rank[i]-2]] == -1 {
			return false
		}
		for _, k := range list[:m.rank[i]-1] {
			if (s.Ports == model.OnePort || s.Unicasts[k].Path[0] == u.Path[0]) && x.Tail[k] < 1 {
				return false
			}
		}
		return true
	case adAcquire:
		return x.Head[i] >= 0 && x.Head[i] < h
	case adRelease:
		// Wormhole pipelining: the tail leaves channel c_k only once the header holds
		// c_(k+1), or has reached the destination (the last channels).
		return x.Head[i] >= 0 && (x.Tail[i] < x.Head[i]-1 || (x.Tail[i] < h && x.Head[i] == h))
	case adDeliver:
		return x.Tail[i] == h && x.Head[i] == h
	}
	return false
}

// apply performs event kind of unicast i on x in place (it must be enabled).
func (m *AnyDelayModel) apply(x *AnyDelayState, i, kind int) {
	switch kind {
	case adStart:
		x.Head[i] = 0
	case adAcquire:
		x.Head[i]++
	case adRelease:
		x.Tail[i]++
	case adDeliver:
		x.Tail[i]++
	}
}

// Successors lists the enabled worm events, by unicast index then kind (start, acquire,
// release, deliver; release and deliver exclude each other).
func (m *AnyDelayModel) Successors(x AnyDelayState, dst []checker.Transition[AnyDelayState]) []checker.Transition[AnyDelayState] {
	for i := range m.s.Unicasts {
		for kind := adStart; kind <= adDeliver; kind++ {
			if !m.enabled(&x, i, kind) {
				continue
			}
			y := AnyDelayState{Head: append([]int16(nil), x.Head...), Tail: append([]int16(nil), x.Tail...)}
			m.apply(&y, i, kind)
			dst = append(dst, checker.Transition[AnyDelayState]{Action: checker.Action(4*i + kind), Next: y})
		}
	}
	return dst
}

// Progress implements system.Progressive: the rank of x is the number of worm events
// that have happened, the sum over unicasts of Head+1 and Tail; every transition (a
// start, an acquisition, a release or a delivery) adds exactly one, so the explorer
// certifies that every run is finite and, without a deadlock, delivers every unicast.
func (m *AnyDelayModel) Progress(x AnyDelayState, buf []uint32) []uint32 {
	n := uint32(0)
	for i := range x.Head {
		n += uint32(x.Head[i]+1) + uint32(x.Tail[i])
	}
	return append(buf, n)
}

// Encode writes head and tail of every unicast, two bytes each.
func (m *AnyDelayModel) Encode(x AnyDelayState, buf []byte) []byte {
	for i := range x.Head {
		buf = append(buf, byte(x.Head[i]), byte(x.Head[i]>>8), byte(x.Tail[i]), byte(x.Tail[i]>>8))
	}
	return buf
}

// Terminal reports whether every unicast is delivered.
func (m *AnyDelayModel) Terminal(x AnyDelayState) bool {
	for i := range x.Head {
		if !m.delivered(x, i) {
			return false
		}
	}
	return true
}

// Describe renders an action: "#2 (0,0)->(1,1) acquires (0,0)->(1,0)".
func (m *AnyDelayModel) Describe(from AnyDelayState, a checker.Action) string {
	i, kind := int(a/4), int(a%4)
	u := m.s.Unicasts[i]
	t := m.s.Topology
	head := fmt.Sprintf("#%d %s->%s", i, t.NodeName(u.From), t.NodeName(u.To))
	switch kind {
	case adStart:
		return head + " starts"
	case adAcquire:
		return head + " acquires " + t.ChannelName(u.Path[from.Head[i]])
	case adRelease:
		return head + " releases " + t.ChannelName(u.Path[from.Tail[i]])
	}
	return head + " delivered"
}

// AnyDelayInvariant is the invariant "no directed channel is held by two unicasts".
func (m *AnyDelayModel) AnyDelayInvariant() checker.Invariant[AnyDelayState] {
	return checker.Invariant[AnyDelayState]{Name: "any-delay contention freedom", Check: func(x AnyDelayState) error {
		held := map[int]int{}
		lanes := m.s.Lanes()
		for i := range m.s.Unicasts {
			u := &m.s.Unicasts[i]
			for p := max(x.Tail[i], 0); p < x.Head[i] && int(p) < len(u.Path); p++ {
				l := u.Lane(int(p), lanes)
				if j, ok := held[l]; ok {
					return fmt.Errorf("#%d and #%d both hold %s", j, i, m.s.Topology.ChannelName(u.Path[p]))
				}
				held[l] = i
			}
		}
		return nil
	}}
}

// ExploreAnyDelay checks any-delay contention freedom of s with the BFS explorer; it
// returns the explorer's result (with a shortest interleaving when violated).
func ExploreAnyDelay(s *model.Schedule, opt checker.Options[AnyDelayState]) (*checker.Result[AnyDelayState], *AnyDelayModel, error) {
	m, err := NewAnyDelayModel(s)
	if err != nil {
		return nil, nil, err
	}
	opt.Invariants = append(opt.Invariants, m.AnyDelayInvariant())
	opt.CheckDeadlock = true
	res, err := checker.Explore[AnyDelayState](m, opt)
	return res, m, err
}

// AnyDelayBFS checks any-delay contention freedom with the explorer and returns the
// report; when violated, Witness is the contending pair with the shortest interleaving
// and Trace is the replayable trace (its Algorithm, Topology and Params are left for the
// caller, who knows how the schedule was built). Bounds in opt make the verdict
// inconclusive, never holds.
func AnyDelayBFS(s *model.Schedule, opt checker.Options[AnyDelayState]) *props.Report {
	r := newReport(s, checker.PropAnyDelay, props.SemAnyDelay)
	res, _, err := ExploreAnyDelay(s, opt)
	if err != nil {
		return fail(r, err)
	}
	r.Stats = props.Stats{States: res.Stats.States, Transitions: res.Stats.Transitions, Depth: res.Stats.Depth,
		Seconds: res.Stats.Duration.Seconds(), StatesPerSec: res.Stats.StatesPerSec}
	switch res.Verdict {
	case checker.Inconclusive:
		return fail(r, fmt.Errorf("%s", res.Reason))
	case checker.Holds:
		return finish(r, nil, fmt.Sprintf("explored all %d states of the worm-event interleavings", res.Stats.States))
	}
	v := res.Violation
	steps := v.Trace.Steps
	w := &props.ScheduleWitness{Kind: "channel", ChannelID: -1, Note: v.Message}
	last := steps[len(steps)-1]
	if i := int(last.Action / 4); last.Action%4 == adAcquire {
		u := &s.Unicasts[i]
		lanes := s.Lanes()
		k := int(last.State.Head[i] - 1)
		c, lane := u.Path[k], u.Lane(k, lanes)
		w.B, w.Channel, w.ChannelID = props.Ref(s, i), s.Topology.ChannelName(c), int(c)
		for j := range s.Unicasts {
			x := &s.Unicasts[j]
			if j == i {
				continue
			}
			for p := max(last.State.Tail[j], 0); p < last.State.Head[j] && int(p) < len(x.Path); p++ {
				if x.Lane(int(p), lanes) == lane {
					w.A = props.Ref(s, j)
				}
			}
		}
	}
	tf := &tracefile.File{Format: tracefile.Format, Topology: s.Topology.Spec(), Property: checker.PropAnyDelay,
		Semantics: props.SemAnyDelay, Violation: v.Message}
	for _, st := range steps[1:] {
		w.Interleaving = append(w.Interleaving, st.Label)
		tf.Actions = append(tf.Actions, uint64(st.Action))
		tf.Labels = append(tf.Labels, st.Label)
	}
	r.Trace = tf
	return finish(r, w, fmt.Sprintf("shortest interleaving of %d worm events", len(steps)-1))
}

// ReplayAnyDelay re-executes a saved any-delay trace against the model of s and reports
// Violated when it reaches a state where two unicasts hold one channel (the saved
// violation), Holds when it does not; a trace that does not fit the model is an error.
func ReplayAnyDelay(s *model.Schedule, tf *tracefile.File) (*props.Report, error) {
	m, err := NewAnyDelayModel(s)
	if err != nil {
		return nil, err
	}
	acts := make([]checker.Action, len(tf.Actions))
	for i, a := range tf.Actions {
		acts[i] = checker.Action(a)
	}
	tr, err := checker.Replay[AnyDelayState](m, tf.Init, acts)
	if err != nil {
		return nil, err
	}
	for k, st := range tr.Steps[1:] {
		if k < len(tf.Labels) && tf.Labels[k] != st.Label {
			return nil, fmt.Errorf("trace step %d is %q in the file but %q in the model", k+1, tf.Labels[k], st.Label)
		}
	}
	r := newReport(s, checker.PropAnyDelay, props.SemAnyDelay)
	r.Command = "replay"
	if err := m.AnyDelayInvariant().Check(tr.Steps[len(tr.Steps)-1].State); err != nil {
		return finish(r, &props.ScheduleWitness{Kind: "channel", ChannelID: -1, Note: err.Error()}, "replayed"), nil
	}
	return finish(r, nil, "replayed; the last state shows no contention"), nil
}

// AnyDelayWalk executes actions on the model from its initial state, one event at a
// time, checking that each is enabled (so the execution respects causality, send order
// and pipelining) and tracking which unicast holds each channel. It stops at the first
// acquisition of a channel another unicast holds and returns the index of that action,
// the holder and the acquirer; at = -1 when the walk ends without contention. Cost: O(1)
// per acquisition or release plus the enabling test of a start (O(send-order prefix)).
func (m *AnyDelayModel) AnyDelayWalk(actions []checker.Action) (at, holder, acquirer int, err error) {
	x := m.Init()[0]
	lanes := m.s.Lanes()
	held := make([]int32, m.s.Topology.Channels()*lanes) // lane -> unicast+1
	for k, a := range actions {
		i, kind := int(a/4), int(a%4)
		if i >= len(m.s.Unicasts) || !m.enabled(&x, i, kind) {
			return -1, 0, 0, fmt.Errorf("any-delay walk step %d: action %d is not enabled", k+1, a)
		}
		u := &m.s.Unicasts[i]
		switch kind {
		case adAcquire:
			l := u.Lane(int(x.Head[i]), lanes)
			if h := held[l]; h != 0 {
				m.apply(&x, i, kind)
				return k, int(h - 1), i, nil
			}
			held[l] = int32(i + 1)
		case adRelease:
			held[u.Lane(int(x.Tail[i]), lanes)] = 0
		}
		m.apply(&x, i, kind)
	}
	return -1, 0, 0, nil
}
