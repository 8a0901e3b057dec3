package cdg

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// Realisation is a deadlock configuration put in place from the empty network: the
// flit instance it implies (its worms' sources and destinations, each worm as long in
// flits as the channels it holds, buffers of one flit, one model VC per relation VC,
// all-port), the moves that reach it, and the flit model's own account of the
// deadlocked state they end in.
type Realisation struct {
	Spec   unicast.Spec
	Result unicast.Result
	// Scheduled is true when the moves were built worm by worm along the
	// configuration's routes; false when the explorer found them (the worms' released
	// channels cross each other's held ones in a cycle, so no order of whole worms
	// works, or a built move was refused).
	Scheduled bool
}

// maxRealiseStates bounds the explorer's search of a configuration's instance when
// the worms cannot be placed one after another.
const maxRealiseStates = 2_000_000

// Realise builds the instance of configuration c of relation rel and a schedule from the
// empty network that reaches it, and confirms with the flit model's transition function
// (every move enabled where it is taken) that the last state is a deadlock. The worms
// go one after another, each along its route to its header's place: an order exists
// when no worm's released channels (the route before the channels it holds) include
// channels another holds at the end, in a cycle. Otherwise, or when a move is refused,
// the explorer searches the instance (up to maxRealiseStates states) for a deadlock.
// An error says the configuration was not reached.
func Realise(ctx context.Context, rel routing.Relation, c *Configuration) (*Realisation, error) {
	g := rel.Grid()
	sp := unicast.Spec{Topology: g.Spec(), Length: 1, Buffer: 1, VCs: rel.VCs(), Ports: model.AllPort, Routing: rel}
	if d, ok := rel.(routing.DOR); ok {
		// Saved traces name dimension order by its dateline mode.
		sp.Routing, sp.Dateline = nil, unicast.DatelineOff
		if d.R.Dateline {
			sp.Dateline = unicast.DatelineOn
		}
	}
	for _, w := range c.Worms {
		sp.Pairs = append(sp.Pairs, unicast.Pair{Src: w.Src, Dst: w.Dst})
		sp.Lengths = append(sp.Lengths, max(1, w.Held))
	}
	allOne := true
	for _, l := range sp.Lengths {
		allOne = allOne && l == sp.Lengths[0]
	}
	if allOne {
		sp.Length, sp.Lengths = sp.Lengths[0], nil
	}
	m, err := unicast.BuildOn(g, sp)
	if err != nil {
		return nil, fmt.Errorf("the configuration's instance: %v", err)
	}
	if order, ok := placementOrder(c); ok {
		if res, err := schedule(m, c, order); err == nil {
			return &Realisation{Spec: sp, Result: res, Scheduled: true}, nil
		}
	}
	opt := checker.Options[flit.State]{MaxStates: maxRealiseStates, Context: ctx}
	res := unicast.SearchWith(m, opt)
	switch res.Verdict {
	case checker.Violated:
		if res.Kind == checker.KindDeadlock {
			return &Realisation{Spec: sp, Result: res}, nil
		}
		return nil, fmt.Errorf("the configuration's instance shows %s, not a deadlock", res.Violation)
	case checker.Holds:
		return nil, fmt.Errorf("the configuration's instance (%s) is deadlock-free: the configuration is not reachable from the empty network", unicast.FormatPairs(sp.Pairs))
	}
	return nil, fmt.Errorf("the configuration's instance was not decided within %d states: %s", maxRealiseStates, res.Violation)
}

// placementOrder returns an order of c's worms in which each can run to its place
// while the earlier ones sit in theirs: worm i goes before worm j when i's released
// channels include one j holds. ok is false when that relation has a cycle.
func placementOrder(c *Configuration) ([]int, bool) {
	n := len(c.Worms)
	holder := map[Vertex]int{}
	for i, w := range c.Worms {
		for _, v := range w.HeldVertices() {
			holder[v] = i
		}
	}
	before := make([][]int, n)
	indeg := make([]int, n)
	for i, w := range c.Worms {
		for _, v := range w.Route[:len(w.Route)-w.Held] {
			if j, ok := holder[v]; ok && j != i {
				before[i] = append(before[i], j)
				indeg[j]++
			} else if ok {
				return nil, false // a worm whose route crosses its own held channels
			}
		}
	}
	var order []int
	for len(order) < n {
		next := -1
		for i := 0; i < n; i++ {
			if indeg[i] == 0 {
				next = i
				break
			}
		}
		if next < 0 {
			return nil, false
		}
		indeg[next] = -1
		order = append(order, next)
		for _, j := range before[next] {
			indeg[j]--
		}
	}
	return order, true
}

// schedule moves the worms of c one after another, in order, along their routes until
// each holds its channels, choosing every move among the model's enabled transitions,
// and checks that the last state is a deadlock.
func schedule(m *flit.Model, c *Configuration, order []int) (unicast.Result, error) {
	s := m.Init()[0]
	var acts []checker.Action
	var labels []string
	var succ []checker.Transition[flit.State]
	vcs := m.Config().VCs
	take := func(t checker.Transition[flit.State]) {
		acts = append(acts, t.Action)
		labels = append(labels, m.Describe(s, t.Action))
		s = t.Next
	}
	for _, i := range order {
		route := c.Worms[i].Route
		pos := 0 // the route vertices the header has taken
		for {
			succ = m.Successors(s, succ[:0])
			var alloc, move *checker.Transition[flit.State]
			for k := range succ {
				mv, err := m.Explain(s, succ[k].Action)
				if err != nil || mv.Msg != i {
					continue
				}
				switch {
				case mv.Kind == flit.KindAlloc && pos < len(route) && mv.To == flit.Out(int(route[pos].Channel)*vcs+route[pos].VC):
					alloc = &succ[k]
				case mv.Kind == flit.KindMove && mv.To >= 0 && move == nil:
					move = &succ[k]
				}
			}
			if move != nil {
				take(*move)
				continue
			}
			if alloc != nil {
				take(*alloc)
				pos++
				continue
			}
			break
		}
		if pos != len(route) {
			return unicast.Result{}, fmt.Errorf("worm %d reached %d of its %d route channels", i, pos, len(route))
		}
	}
	if len(m.Successors(s, succ[:0])) != 0 || m.Terminal(s) {
		return unicast.Result{}, fmt.Errorf("the placed configuration is not a deadlock of the flit model")
	}
	if err := m.CheckAll(s); err != nil {
		return unicast.Result{}, err
	}
	return unicast.Result{Verdict: checker.Violated, Property: "deadlock", Kind: checker.KindDeadlock, Model: m,
		Actions: acts, Labels: labels, Final: s, Depth: len(acts), Violation: m.DeadlockText(s, true)}, nil
}

// steps returns the realisation's moves in the witness schema, each naming the message
// (worm) that moved, its flit and the channel it entered (render.FlitSteps, from the
// flit model's own account of each move). An error is a realisation that does not
// replay on its own model.
func (r *Realisation) steps() ([]props.TraceStep, error) {
	tr, err := checker.Replay[flit.State](r.Result.Model, 0, r.Result.Actions)
	if err != nil {
		return nil, fmt.Errorf("the realised moves do not replay: %v", err)
	}
	return render.FlitSteps(r.Result.Model, tr), nil
}
