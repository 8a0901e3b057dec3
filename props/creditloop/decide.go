package creditloop

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/system"
	"github.com/wormcheck/wormcheck/model/vct"
	"github.com/wormcheck/wormcheck/props"
)

// Decision is the verdict on one credit loop under the vct semantics: violated when a
// deadlock whose full buffers lie in the loop is reachable from the empty network,
// holds when none is, inconclusive when the search bound was reached first.
type Decision struct {
	Verdict props.Verdict
	Reason  string
	// How says how the verdict was reached: "constructed" (the deadlock was put in
	// place by a schedule built from the routes), "search" (the exhaustive search of
	// the loop's routes), "" (inconclusive before any search).
	How string
	// Cycle is the deadlock's cycle of full buffers (violated), Minimal whether it is a
	// shortest cycle of the loop, so that no deadlock of the loop has fewer packets.
	Cycle   []int32
	Minimal bool
	// Instance, Actions and Stuck are the deadlock: the flows and sizes, the actions
	// that reach it from the empty network, and the packets that never move again in
	// its last state.
	Instance *Instance
	Actions  []system.Action
	Stuck    []int
	// States counts the states of the exhaustive search (0 where none ran).
	States int64
}

// decide decides one loop: it tries to fill the loop's cycles, shortest first, with
// platoons of K packets built from the routes that take their arcs (construct); when
// none can be filled that way, the exhaustive search of every route through the loop
// decides (search).
func (a *Analysis) decide(ctx context.Context, loop *Loop, lf *loopFlows) Decision {
	cands, exact := cycles(a.graph, loop.Channels)
	for ci, c := range cands {
		if ctx.Err() != nil {
			break
		}
		flows, actions, ok := a.construct(c, lf)
		if !ok {
			continue
		}
		d, err := a.confirm(flows, actions, true)
		if err != nil {
			// A construction that does not replay is a bug of the construction, not of
			// the fabric: the search below decides instead.
			loop.notes = append(loop.notes, fmt.Sprintf("a constructed deadlock on cycle %d did not replay: %v", ci, err))
			continue
		}
		d.How, d.Cycle = "constructed", c
		d.Minimal = exact && len(c) == len(cands[0])
		d.Reason = fmt.Sprintf("reachable deadlock: %d full buffers of %d packets each around the loop", len(c), a.k)
		return d
	}
	return a.search(ctx, loop, lf)
}

// choice is one route taking arc i of a cycle: its channels, the index at where the
// arc starts, and the cycle positions its channels before at pass (zs).
type choice struct {
	flow vct.Flow
	at   int
	zs   []int
}

// construct builds a schedule that fills cycle c: for each arc i a route taking it
// and a platoon of K packets of that route parked at c[i]. A platoon passes cycle
// buffers before its own only while they are still empty, so the platoons are filled in
// an order where i comes before j whenever route i passes c[j]; construct picks routes
// whose order exists. It returns the flows (flow i for arc i) and the actions.
func (a *Analysis) construct(c []int32, lf *loopFlows) ([]vct.Flow, []system.Action, bool) {
	n := len(c)
	pos := make(map[int32]int, n)
	for i, v := range c {
		pos[v] = i
	}
	opts := make([][]choice, n)
	for i := range n {
		for _, fr := range lf.arcs[[2]int32{c[i], c[(i+1)%n]}] {
			fl := flowOf(a.Fabric, fr)
			at := slices.IndexFunc(fl.Route, func(h fabric.Hop) bool { return a.Channels.ID(h) == c[i] })
			if at < 0 {
				continue
			}
			ch := choice{flow: fl, at: at}
			for _, h := range fl.Route[:at] {
				if j, ok := pos[a.Channels.ID(h)]; ok {
					ch.zs = append(ch.zs, j)
				}
			}
			opts[i] = append(opts[i], ch)
		}
		if len(opts[i]) == 0 {
			return nil, nil, false
		}
		slices.SortStableFunc(opts[i], func(x, y choice) int {
			if len(x.zs) != len(y.zs) {
				return len(x.zs) - len(y.zs)
			}
			return x.at - y.at
		})
	}
	pick := make([]int, n)
	order, ok := orderPlatoons(opts, pick, 0, new(int))
	if !ok {
		return nil, nil, false
	}
	flows := make([]vct.Flow, n)
	for i := range n {
		flows[i] = opts[i][pick[i]].flow
		flows[i].Packets = a.k
	}
	m, err := vct.New(vct.Config{Fabric: a.Fabric, Flows: flows, Buffer: a.opt.Buffer, Packet: a.opt.Packet})
	if err != nil {
		return nil, nil, false
	}
	index := map[fabric.Hop]int{}
	for j, h := range m.Channels() {
		index[h] = j
	}
	var actions []system.Action
	for _, i := range order {
		ch := opts[i][pick[i]]
		for range a.k {
			actions = append(actions, vct.Inject(i))
			for _, h := range ch.flow.Route[:ch.at] {
				actions = append(actions, vct.Move(index[h]))
			}
		}
	}
	return flows, actions, true
}

// maxOrderTries bounds the route combinations orderPlatoons tries for one cycle.
const maxOrderTries = 4096

// orderPlatoons chooses, from arc i on, a route per arc (pick) such that "i before j
// when route i passes c[j]" has no cycle, and returns a fill order; depth-first over
// the choices, cheapest first, at most maxOrderTries complete choices.
func orderPlatoons(opts [][]choice, pick []int, i int, tries *int) ([]int, bool) {
	if i == len(opts) {
		*tries++
		return topoOrder(opts, pick)
	}
	for k := range opts[i] {
		if *tries >= maxOrderTries {
			return nil, false
		}
		pick[i] = k
		if order, ok := orderPlatoons(opts, pick, i+1, tries); ok {
			return order, true
		}
	}
	return nil, false
}

// topoOrder orders the arcs so that i comes before every j its route passes (Kahn's
// algorithm, least index first), or reports a cycle.
func topoOrder(opts [][]choice, pick []int) ([]int, bool) {
	n := len(opts)
	indeg := make([]int, n)
	for i := range n {
		for _, j := range opts[i][pick[i]].zs {
			indeg[j]++
		}
	}
	var order []int
	done := make([]bool, n)
	for len(order) < n {
		next := -1
		for i := range n {
			if !done[i] && indeg[i] == 0 {
				next = i
				break
			}
		}
		if next < 0 {
			return nil, false
		}
		done[next] = true
		order = append(order, next)
		for _, j := range opts[next][pick[next]].zs {
			indeg[j]--
		}
	}
	return order, true
}

// confirm replays a schedule in the model and checks that its last state is a
// deadlock: of every packet when all is set (a construction parks every packet it
// injects), of some otherwise.
func (a *Analysis) confirm(flows []vct.Flow, actions []system.Action, all bool) (Decision, error) {
	in := newInstance(a.Fabric, flows, a.opt.Buffer, a.opt.Packet)
	m, _, err := in.Build()
	if err != nil {
		return Decision{}, err
	}
	tr, err := checker.Replay[vct.State](m, 0, actions)
	if err != nil {
		return Decision{}, err
	}
	last := tr.Steps[len(tr.Steps)-1].State
	stuck := m.LocalDeadlock(last, nil)
	if len(stuck) == 0 || (all && len(stuck) != m.Packets()) {
		return Decision{}, fmt.Errorf("%d of %d packets are stuck in the last state", len(stuck), m.Packets())
	}
	return Decision{Verdict: props.Violated, Instance: in, Actions: actions, Stuck: stuck}, nil
}

// search decides a loop exhaustively: every route through a channel of the loop, each
// with K packets per loop channel it passes (no deadlock needs more: a deadlock's
// packets that are not in its full buffers can be left out of any run that reaches it,
// since fewer packets only free buffers), explored for a state in which packets stand
// still forever in a buffer of the loop. With K > 1 it first searches with buffers of one
// packet, a much smaller space: a deadlock found there becomes one at K by platoons
// (every step of a packet taken by K packets of its route in a row), which is replayed.
func (a *Analysis) search(ctx context.Context, loop *Loop, lf *loopFlows) Decision {
	if lf.over {
		return Decision{Verdict: props.Inconclusive, Reason: fmt.Sprintf("no cycle of the loop could be filled by construction, and more than %d routes pass it, too many for the exhaustive search", maxThrough)}
	}
	in := make(map[int32]bool, len(loop.Channels))
	for _, v := range loop.Channels {
		in[v] = true
	}
	var flows []vct.Flow
	for _, fr := range lf.through {
		fl := flowOf(a.Fabric, fr)
		k := 0
		for _, h := range fl.Route {
			if in[a.Channels.ID(h)] {
				k++
			}
		}
		fl.Packets = k
		flows = append(flows, fl)
	}
	var small Decision
	if a.k > 1 {
		small = a.searchAt(ctx, in, flows, 1)
		if small.Verdict == props.Violated {
			scaled := slices.Clone(flows)
			for i := range scaled {
				scaled[i].Packets *= a.k
			}
			var actions []system.Action
			for _, x := range small.Actions {
				for range a.k {
					actions = append(actions, x)
				}
			}
			d, err := a.confirm(scaled, actions, false)
			if err == nil {
				d.How, d.States, d.Cycle = "search", small.States, small.Cycle
				d.Reason = fmt.Sprintf("reachable deadlock, found with one packet per buffer by the exhaustive search (%d states) and run with platoons of %d", small.States, a.k)
				return d
			}
			loop.notes = append(loop.notes, "a deadlock found with one packet per buffer did not scale to "+fmt.Sprint(a.k)+": "+err.Error())
		}
	}
	for i := range flows {
		flows[i].Packets *= a.k
	}
	d := a.searchAt(ctx, in, flows, a.k)
	if d.Verdict == props.Inconclusive && small.Verdict == props.Holds {
		d.Reason += fmt.Sprintf("; with buffers of one packet the loop never fills (%d states)", small.States)
	}
	return d
}

// searchAt explores the flows with buffers of k packets for a state in which packets
// stand still forever in a buffer of the loop (the channels in).
func (a *Analysis) searchAt(ctx context.Context, in map[int32]bool, flows []vct.Flow, k int) Decision {
	inst := newInstance(a.Fabric, flows, k*a.opt.Packet, a.opt.Packet)
	m, _, err := inst.Build()
	if err != nil {
		return Decision{Verdict: props.Inconclusive, Reason: fmt.Sprintf("the loop's routes do not form a model: %v", err)}
	}
	chans := m.Channels()
	onLoop := func(s vct.State) error {
		stuck := m.LocalDeadlock(s, nil)
		pos := m.Positions(s)
		for _, p := range stuck {
			if c := pos[p].Channel; c >= 0 && in[a.Channels.ID(chans[c])] {
				return errors.New("packets stand still forever in a buffer of the loop")
			}
		}
		return nil
	}
	res, err := checker.Explore[vct.State](m, checker.Options[vct.State]{
		Context: ctx, MaxStates: a.opt.MaxStates,
		Invariants: []checker.Invariant[vct.State]{{Name: "no deadlock on the loop", Check: onLoop}},
	})
	if err != nil {
		return Decision{Verdict: props.Inconclusive, Reason: err.Error()}
	}
	d := Decision{How: "search", States: res.Stats.States, Verdict: res.Verdict}
	switch res.Verdict {
	case props.Holds:
		d.Reason = fmt.Sprintf("no reachable deadlock: the %d routes through the loop, with %d packets per buffer, never fill it (%d states)", len(flows), k, res.Stats.States)
	case props.Inconclusive:
		d.Reason = fmt.Sprintf("no cycle could be filled by construction; the exhaustive search stopped: %s", res.Reason)
	case props.Violated:
		d.Instance, d.Actions = inst, res.Violation.Trace.Actions()
		last := res.Violation.Trace.Steps[len(res.Violation.Trace.Steps)-1].State
		d.Stuck = m.LocalDeadlock(last, nil)
		d.Cycle = stuckCycle(a, m, last)
		d.Reason = fmt.Sprintf("reachable deadlock found by the exhaustive search (%d states)", res.Stats.States)
	}
	return d
}

// stuckCycle returns the cycle of full buffers of a deadlocked state: from a buffer of
// a stuck head, following each head's next buffer until one repeats.
func stuckCycle(a *Analysis, m *vct.Model, s vct.State) []int32 {
	g := m.WaitFor(s)
	set := g.LocalDeadlock()
	cyc := g.Cycle(set)
	chans := m.Channels()
	var out []int32
	for _, e := range cyc {
		w := g.Waits[e.Wait]
		if w.At >= 0 {
			id := a.Channels.ID(chans[w.At])
			if !slices.Contains(out, id) {
				out = append(out, id)
			}
		}
	}
	return out
}
