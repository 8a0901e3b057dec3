// Package plan turns a list of sends (sender, receiver, step) into a model.Schedule: it
// routes each send with dimension-order routing and numbers every sender's sends in the
// order they were added (the Order field of 004 §6.1's timing model). Every unicast-based
// collective of package algos builds its schedule through it.
package plan

import (
	"fmt"
	"slices"
	"sort"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Builder collects the sends of one schedule. The zero value is not usable; call New.
type Builder struct {
	dor     topology.DOR
	sched   model.Schedule
	sent    map[topology.NodeID]int
	stop    func() bool // asked every StopEvery sends; nil: never
	total   int         // unicasts the whole build sends, for Stopped
	stopped bool        // stop said yes: later sends are dropped
	step    int         // step of the last send taken
}

// StopEvery is how many sends a Builder takes between two questions to its stop
// function: routing 4096 sends costs about a millisecond on a 512x512 torus, so a
// build ends within milliseconds of stop turning true while the question stays cheap.
const StopEvery = 4096

// Stopped is the error of a build that its stop function ended early: it took Sent of
// the Total unicasts (one per destination of every multicast) and was in step Step.
type Stopped struct {
	Sent, Total, Step int
}

func (e *Stopped) Error() string {
	return fmt.Sprintf("stopped while building the schedule after %d of %d unicasts (in step %d)", e.Sent, e.Total, e.Step)
}

// StopWhen makes b ask stop, every StopEvery sends, whether to end the build; once it
// says yes b drops every later send (Stopped reports that, Result returns the error,
// which names total, the unicasts the whole build would send). Builders call it before
// their first send; a nil stop never stops.
//
// The unicasts' list is made room for total at once: grown by doubling, it would hold
// its old and new arrays together (three times the list) at the end of a large build.
func (b *Builder) StopWhen(stop func() bool, total int) {
	b.stop, b.total = stop, total
	b.sched.Unicasts = slices.Grow(b.sched.Unicasts, total-len(b.sched.Unicasts))
}

// Stopped says whether the stop function ended the build; a builder's loops check it
// to skip work whose sends would be dropped anyway.
func (b *Builder) Stopped() bool { return b.stopped }

// New starts a schedule on grid g routed by r, with the given port model, sources and
// destinations (copied).
func New(r topology.DOR, ports model.PortModel, sources, dests []topology.NodeID) *Builder {
	return &Builder{
		dor: r,
		sched: model.Schedule{
			Topology:     r.Grid,
			Sources:      append([]topology.NodeID(nil), sources...),
			Destinations: append([]topology.NodeID(nil), dests...),
			Ports:        ports,
		},
		sent: map[topology.NodeID]int{},
	}
}

// Send adds the unicast from -> to in step (1-based); its Order is one more than the
// number of sends from already added. Call Send in each sender's send order.
func (b *Builder) Send(from, to topology.NodeID, step int) {
	if b.stopped {
		return
	}
	if b.stop != nil && len(b.sched.Unicasts)%StopEvery == 0 && len(b.sched.Unicasts) > 0 && b.stop() {
		b.stopped = true
		return
	}
	b.step = step
	b.sent[from]++
	b.sched.Unicasts = append(b.sched.Unicasts, model.Unicast{
		From: from, To: to, Path: b.dor.Path(from, to), Step: step, Order: b.sent[from],
	})
}

// SendGroup is Send for a schedule of several multicasts: the unicast belongs to
// multicast group g.
func (b *Builder) SendGroup(from, to topology.NodeID, step, g int) {
	if b.Send(from, to, step); !b.stopped {
		b.sched.Group = append(b.sched.Group, g)
	}
}

// Result is Schedule for a build that may have been stopped: the schedule, or a
// *Stopped error saying how far the build got.
func (b *Builder) Result() (*model.Schedule, error) {
	if b.stopped {
		return nil, &Stopped{Sent: len(b.sched.Unicasts), Total: b.total, Step: b.step}
	}
	return b.Schedule(), nil
}

// Schedule returns the schedule, its unicasts sorted by step, then sender, then order
// (the listing model.Schedule documents). Cost O(n log n).
func (b *Builder) Schedule() *model.Schedule {
	s := b.sched
	if s.Group == nil {
		// Sorted in place: (step, sender, order) names one send, so the order is total
		// and a copy of a large list (which a memory budget would see at once) is not needed.
		slices.SortFunc(s.Unicasts, func(a, c model.Unicast) int {
			if a.Step != c.Step {
				return a.Step - c.Step
			}
			if a.From != c.From {
				return int(a.From) - int(c.From)
			}
			return a.Order - c.Order
		})
		return &s
	}
	idx := make([]int, len(s.Unicasts))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool {
		a, c := s.Unicasts[idx[i]], s.Unicasts[idx[j]]
		if a.Step != c.Step {
			return a.Step < c.Step
		}
		if a.From != c.From {
			return a.From < c.From
		}
		return a.Order < c.Order
	})
	us := make([]model.Unicast, len(idx))
	var gs []int
	if s.Group != nil {
		gs = make([]int, len(idx))
	}
	for i, k := range idx {
		us[i] = s.Unicasts[k]
		if gs != nil {
			gs[i] = s.Group[k]
		}
	}
	s.Unicasts, s.Group = us, gs
	return &s
}

// AllBut returns every node of g except src, in id order: a broadcast's destinations.
func AllBut(g *topology.Network, src topology.NodeID) []topology.NodeID {
	out := make([]topology.NodeID, 0, g.Nodes()-1)
	for v := 0; v < g.Nodes(); v++ {
		if topology.NodeID(v) != src {
			out = append(out, topology.NodeID(v))
		}
	}
	return out
}

// CheckNode reports an error naming field if v is not a node of g.
func CheckNode(g *topology.Network, field string, v topology.NodeID) error {
	if v < 0 || int(v) >= g.Nodes() {
		return fmt.Errorf("%s %d is not a node of %s (nodes are 0..%d)", field, v, g.Spec(), g.Nodes()-1)
	}
	return nil
}

// Log4 returns k with 4^k == n, or -1 if n is not a power of four.
func Log4(n int) int {
	k := 0
	for p := 1; p <= n; p *= 4 {
		if p == n {
			return k
		}
		k++
	}
	return -1
}

// Log2 returns d with 2^d == n, or -1 if n is not a power of two.
func Log2(n int) int {
	d := 0
	for p := 1; p <= n; p *= 2 {
		if p == n {
			return d
		}
		d++
	}
	return -1
}
