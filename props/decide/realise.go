package decide

import (
	"context"
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/cdg"
)

// Realisation is a deadlock configuration put in place from the empty network: the
// flit instance it implies (its worms' sources and destinations, each worm as long in
// flits as the channels it holds, buffers of one flit, one model VC per relation VC
// (a routing.Replicated relation: its base on as many model VCs), all-port), the moves that reach it, and the flit model's own account of the
// deadlocked state they end in.
type Realisation struct {
	Spec   unicast.Spec
	Result unicast.Result
	// Moved lists the worms injected at another source than the configuration's: from
	// its own the flit model does not reach the held channels (a route from there
	// crosses them, say), from this one it does (realiseFromOtherSources).
	Moved []int
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
	// A relation replicated over more VCs is its base on that many model VCs, as the
	// flit model reads a relation with more VCs than it names.
	base, _ := routing.Unreplicate(rel)
	sp := unicast.Spec{Topology: g.Spec(), Length: 1, Buffer: 1, VCs: rel.VCs(), Ports: model.AllPort, Routing: base}
	if d, ok := base.(routing.DOR); ok {
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
	res := exploreFor(m, c, opt)
	var how string
	switch {
	case res.Verdict == checker.Violated && res.Kind == checker.KindDeadlock:
		return &Realisation{Spec: sp, Result: res}, nil
	case res.Verdict == checker.Holds:
		how = "deadlock-free"
	case res.Verdict == checker.Violated && (res.Kind == checker.KindLivelock || res.Kind == checker.KindStarvation):
		// Liveness is judged only after an exhaustive search found no deadlock.
		how = "deadlock-free (" + res.Violation + ")"
	case res.Verdict == checker.Violated:
		return nil, fmt.Errorf("the configuration's instance shows %s, not a deadlock", res.Violation)
	default:
		return nil, fmt.Errorf("the configuration's instance was not decided within %d states: %s", maxRealiseStates, res.Violation)
	}
	r, complete, err := realiseFromOtherSources(ctx, g, sp, c, opt)
	if r != nil || err != nil {
		return r, err
	}
	others := "and so is every instance with its worms injected at other sources that can hold their channels"
	if !complete {
		others = fmt.Sprintf("and so are the first %d instances with worms injected at other sources (not all were tried)", maxSourceTries)
	}
	return nil, &Unreachable{Proved: complete, Reason: fmt.Sprintf("the configuration's instance (%s) is %s, %s: the configuration is not reachable from the empty network", sp.Worms(), how, others)}
}

// Unreachable is Realise's error for a configuration the flit model does not reach
// from the empty network. Proved is true when the explorer settled it: the instance
// with the configuration's sources and every other choice of sources that can hold the
// worms' channels (realiseFromOtherSources) were each explored exhaustively, with worms
// as long as the channels they hold and buffers of one flit, and none deadlocks.
type Unreachable struct {
	Proved bool
	Reason string
}

func (e *Unreachable) Error() string { return e.Reason }

// maxSourceTries bounds the instances realiseFromOtherSources explores, and
// maxSourceCandidates the other sources it considers per worm.
const (
	maxSourceTries      = 64
	maxSourceCandidates = 256
)

// realiseFromOtherSources looks for the configuration's deadlock with some worms
// injected elsewhere. A configuration names one source per worm (the first the search
// met), but the same held channels may be reachable only from another: a worm whose
// route from the named source crosses its own held channels, say. The candidates for
// a worm are the endpoints whose single-worm flit model (unicast.Footprints) can hold
// every channel the worm holds; instances that move one worm are tried first, then
// two, and so on, at most maxSourceTries of them, each explored up to opt's bound.
// It returns nil and no error when none deadlocks; complete is then true when every
// candidate instance was tried and explored exhaustively.
func realiseFromOtherSources(ctx context.Context, g *topology.Network, sp unicast.Spec, c *Configuration, opt checker.Options[flit.State]) (real *Realisation, complete bool, err error) {
	vcs := max(1, sp.VCs)
	alts := make([][]topology.NodeID, len(c.Worms))
	any, complete0 := false, true
	for i, w := range c.Worms {
		var cands []unicast.Pair
		for _, s := range g.Endpoints() {
			if s != w.Src && s != w.Dst {
				cands = append(cands, unicast.Pair{Src: s, Dst: w.Dst})
			}
		}
		if len(cands) > maxSourceCandidates {
			// Each candidate costs a single-worm search: on a large network try the
			// first ones only, and the refusal is not settled.
			cands, complete0 = cands[:maxSourceCandidates], false
		}
		if ctx != nil && ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
		tmpl := sp
		tmpl.Pairs, tmpl.Lengths, tmpl.Length = nil, nil, max(1, w.Held)
		fp, err := unicast.NewFootprints(g, tmpl, nil, cands)
		if err != nil {
			return nil, false, nil // a source alone too large to explore: none tried
		}
		for _, p := range cands {
			ok := true
			for _, v := range w.HeldVertices() {
				ok = ok && fp.CanHold(p, int(v.Channel)*vcs+v.VC)
			}
			if ok {
				alts[i] = append(alts[i], p.Src)
				any = true
			}
		}
	}
	if !any {
		return nil, complete0, nil
	}
	tries, complete := 0, complete0
	// Subsets of worms to move by size, then every choice of their sources.
	var try func(from, left int, spec unicast.Spec, moved []int) (*Realisation, error)
	try = func(from, left int, spec unicast.Spec, moved []int) (*Realisation, error) {
		if left == 0 {
			if tries++; tries > maxSourceTries {
				complete = false
				return nil, nil
			}
			m, err := unicast.BuildOn(g, spec)
			if err != nil {
				complete = false
				return nil, nil
			}
			res := exploreFor(m, c, opt)
			if res.Verdict == checker.Violated && res.Kind == checker.KindDeadlock {
				return &Realisation{Spec: spec, Result: res, Moved: slices.Clone(moved)}, nil
			}
			if res.Verdict != checker.Holds && res.Kind != checker.KindLivelock && res.Kind != checker.KindStarvation {
				complete = false // undecided within its bound, or another violation
			}
			if ctx != nil && ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, nil
		}
		for i := from; i < len(c.Worms) && tries <= maxSourceTries; i++ {
			for _, s := range alts[i] {
				next := spec
				next.Pairs = slices.Clone(spec.Pairs)
				next.Pairs[i].Src = s
				if r, err := try(i+1, left-1, next, append(moved, i)); r != nil || err != nil {
					return r, err
				}
			}
		}
		return nil, nil
	}
	for k := 1; k <= len(c.Worms) && tries <= maxSourceTries; k++ {
		if r, err := try(0, k, sp, nil); r != nil || err != nil {
			return r, false, err
		}
	}
	return nil, complete && tries <= maxSourceTries, nil
}

// placementOrder returns an order of c's worms in which each can run to its place
// while the earlier ones sit in theirs: worm i goes before worm j when i's released
// channels include one j holds. ok is false when that relation has a cycle.
func placementOrder(c *Configuration) ([]int, bool) {
	n := len(c.Worms)
	holder := map[cdg.Vertex]int{}
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
	tr := checker.Trace[flit.State]{Steps: []checker.Step[flit.State]{{State: s}}}
	var succ []checker.Transition[flit.State]
	vcs := m.Config().VCs
	take := func(t checker.Transition[flit.State]) {
		tr.Steps = append(tr.Steps, checker.Step[flit.State]{Action: t.Action, Label: m.Describe(s, t.Action), State: t.Next})
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
	return unicast.Result{Verdict: checker.Violated, Property: checker.PropDeadlock, Kind: checker.KindDeadlock, Model: m,
		Trace: tr, Depth: tr.Len(), Violation: m.DeadlockText(s, true)}, nil
}

// steps returns the realisation's moves in the witness schema, each naming the message
// (worm) that moved, its flit and the channel it entered (props.FlitSteps, from the
// flit model's own account of each move).
func (r *Realisation) steps() ([]props.TraceStep, error) {
	return props.FlitSteps(r.Result.Model, r.Result.Trace), nil
}
