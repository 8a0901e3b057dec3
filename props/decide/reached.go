package decide

import (
	"errors"
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/algos/unicast"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props/cdg"
)

// The configuration a realisation's moves end in, so that what routing prints is the
// state its trace reaches. Moves built worm by worm along the configuration's routes end
// in it; the explorer, when it searches an instance, first looks for the configuration's
// own state (exactly), and only when that is not reached takes another deadlock of the
// instance, which is then the configuration reported (reachedConfiguration).

// errTarget marks the configuration's state in the explorer's search for it.
var errTarget = errors.New("the configuration's state")

// holdsAsIn reports whether every worm of c owns exactly its held VCs in state s of m
// (worm i of c is message i of m) and no other message owns one.
func holdsAsIn(m *flit.Model, s flit.State, c *Configuration) bool {
	want := map[flit.Out]int{}
	vcs := m.Config().VCs
	for i, w := range c.Worms {
		for _, v := range w.HeldVertices() {
			want[flit.Out(int(v.Channel)*vcs+v.VC)] = i
		}
	}
	n := 0
	for o, vc := range s.VCs {
		if vc.Owner < 0 {
			continue
		}
		if i, ok := want[flit.Out(o)]; !ok || i != int(vc.Owner) {
			return false
		}
		n++
	}
	return n == len(want)
}

// reachExactly searches m for the state of configuration c (holdsAsIn) with no other
// check, and returns the shortest moves to it as a deadlock result when it is one; ok
// false when the search does not reach it (or it is not a deadlock there).
func reachExactly(m *flit.Model, c *Configuration, opt checker.Options[flit.State]) (unicast.Result, bool) {
	opt.CheckDeadlock, opt.CheckLocalDeadlock, opt.CheckLiveness = false, false, false
	opt.Invariants = []checker.Invariant[flit.State]{{Name: "configuration", Check: func(s flit.State) error {
		if holdsAsIn(m, s, c) {
			return errTarget
		}
		return nil
	}}}
	r, err := checker.Explore[flit.State](m, opt)
	if err != nil || r.Verdict != checker.Violated {
		return unicast.Result{}, false
	}
	v := r.Violation
	final := v.Trace.Steps[len(v.Trace.Steps)-1].State
	if len(m.Successors(final, nil)) != 0 || m.Terminal(final) {
		return unicast.Result{}, false
	}
	res := unicast.Result{Verdict: checker.Violated, Property: checker.PropDeadlock, Kind: checker.KindDeadlock, Model: m,
		Trace: v.Trace, Depth: len(v.Trace.Steps) - 1, States: r.Stats.States,
		Violation: "deadlock: " + unicast.Blocked(m, final), Stuck: m.Stuck(final)}
	return res, true
}

// exploreFor searches m for a deadlock, preferring the state of configuration c: the
// explorer's shortest deadlock when it is c's, else c's own state when it is reached,
// else the explorer's result as it is (another deadlock, or none).
func exploreFor(m *flit.Model, c *Configuration, opt checker.Options[flit.State]) unicast.Result {
	res := unicast.SearchWith(m, opt)
	if res.Verdict != checker.Violated || res.Kind != checker.KindDeadlock || holdsAsIn(m, res.Final(), c) {
		return res
	}
	if exact, ok := reachExactly(m, c, opt); ok {
		return exact
	}
	return res
}

// reachedConfiguration returns the configuration r's moves end in: its stuck worms, each
// with the route its header took (the VCs allocated to it, in order), the VCs it owns at
// the end (a suffix of that route) and the outputs rel permits its header there.
func reachedConfiguration(rel routing.Relation, r *Realisation) (*Configuration, error) {
	m := r.Result.Model
	tr := r.Result.Trace
	if len(tr.Steps) == 0 {
		return nil, fmt.Errorf("the realisation has no moves")
	}
	routes := make([][]flit.Out, len(r.Spec.Pairs))
	for k, a := range r.Result.Actions() {
		mv, err := m.Explain(tr.Steps[k].State, a)
		if err == nil && mv.Kind == flit.KindAlloc {
			routes[mv.Msg] = append(routes[mv.Msg], mv.To)
		}
	}
	final := tr.Steps[len(tr.Steps)-1].State
	budget := 0
	if b, ok := rel.(routing.Budgeted); ok {
		budget = b.MisrouteBudget()
	}
	c := &Configuration{}
	for _, i := range m.Stuck(final) {
		p := r.Spec.Pairs[i]
		w := ConfWorm{Src: p.Src, Dst: p.Dst}
		for _, o := range routes[i] {
			w.Route = append(w.Route, cdg.Vertex{Channel: m.Channel(o), VC: m.VCOf(o)})
			if int(final.VCs[o].Owner) == i {
				w.Held++
			}
		}
		h := routing.Header{At: p.Src, In: routing.Input{Channel: routing.Injection}, Src: p.Src, Dst: p.Dst}
		for _, v := range w.Route {
			outs := rel.Route(h, nil)
			k := slices.IndexFunc(outs, func(o routing.Output) bool { return o.Channel == v.Channel && o.VC == v.VC })
			if k < 0 {
				return nil, fmt.Errorf("worm %d's hop to %v is not one its relation permits", i, v)
			}
			if outs[k].Misroute && h.Misroutes < budget {
				h.Misroutes++ // as the flit model counts them: up to the budget
			}
			h = routing.Header{At: rel.Grid().Channel(v.Channel).To, In: routing.Input{Channel: v.Channel, VC: v.VC}, Src: p.Src, Dst: p.Dst, Misroutes: h.Misroutes}
		}
		w.Misroutes = h.Misroutes
		if len(w.Route) > 0 {
			for _, o := range rel.Route(h, nil) {
				w.Waits = append(w.Waits, cdg.Vertex{Channel: o.Channel, VC: o.VC})
			}
		}
		c.Worms = append(c.Worms, w)
		c.Channels += w.Held
	}
	return c, nil
}
