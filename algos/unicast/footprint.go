package unicast

import (
	"fmt"
	"math/bits"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Footprints are, per worm (src, dst) of a family, the network virtual channels the worm
// can ever hold under the family's relation, read off the flit model itself: every
// reachable state of the worm's single-worm instance (with each of the family's
// (Length, Buffer)) is visited and every virtual channel it owns there is collected.
// They are computed without props/cdg and props/decide, so a cross-check that prunes with them stays
// independent of the decision it checks.
//
// Two worms of a placement interact when their footprints share a virtual channel, or
// (one-port) a source or a destination, or (all-port) a destination more worms of the
// placement go to than it has delivery channels (flit.Model.EjectPorts). Connected
// keeps a placement only when its worms form one component of that graph. This is
// sound by the removal lemma:
//
//  1. A worm's moves depend on the rest of the state only through whether a virtual
//     channel it would take is free, whether its destination's delivery channels are
//     all held, and (one-port) whether its source injects another worm (model/flit
//     moves.go: gateFree, gateEject, injectBusy); the relation is a pure function of
//     the worm's own header (routing.Relation), and a header takes any free permitted
//     output, one transition each (KindAlloc). Buffers are per virtual channel and hold
//     only their owner's flits.
//  2. So in any instance, every state's projection on one worm is a state of the
//     worm's single-worm instance (the others only disable moves), and the worm holds
//     only channels of its footprint.
//  3. If a placement splits into groups A and B with no interaction, no channel either
//     group can hold is one the other can, and no delivery count can reach the limit,
//     so every move of A is enabled or not regardless of B's state and changes nothing
//     of B's, and vice versa: the reachable states are exactly the pairs of reachable
//     states of A's and B's instances, and a state is a deadlock (nothing enabled, not
//     terminal) iff each part is terminal or a deadlock and one is a deadlock. A
//     livelock or starvation cycle likewise projects onto one of the parts.
//
// Hence the placement is violated iff one of its components is, and a family that
// contains every placement of fewer worms need only check the connected ones.
type Footprints struct {
	ports  model.PortModel
	ejects int
	words  int
	vcs    map[Pair][]uint64 // bit o: the worm can hold network virtual channel o
	states map[Pair]int64    // reachable states of the single-worm instance (first Params)
}

// maxFootprintStates bounds the states of one single-worm instance NewFootprints visits.
const maxFootprintStates = 1 << 20

// NewFootprints explores the single-worm instance of every pair in pairs with the
// instance parameters of tmpl (its Pairs ignored; with each (Length, Buffer) of params,
// or tmpl's own when params is empty) and returns their footprints. Cost: one
// breadth-first search per pair and parameter pair; an instance over
// maxFootprintStates states, or a model fault, is an error.
func NewFootprints(g *topology.Network, tmpl Spec, params [][2]int, pairs []Pair) (*Footprints, error) {
	if len(params) == 0 {
		params = [][2]int{{tmpl.Length, tmpl.Buffer}}
	}
	fp := &Footprints{ports: tmpl.Ports, vcs: map[Pair][]uint64{}, states: map[Pair]int64{}}
	for _, p := range pairs {
		for k, lb := range params {
			sp := tmpl
			sp.Pairs, sp.Lengths, sp.Length, sp.Buffer = []Pair{p}, nil, lb[0], lb[1]
			m, err := BuildOn(g, sp)
			if err != nil {
				return nil, err
			}
			if fp.words == 0 {
				fp.words, fp.ejects = (m.VCs()+63)/64, m.EjectPorts()
			}
			bs := fp.vcs[p]
			if bs == nil {
				bs = make([]uint64, fp.words)
				fp.vcs[p] = bs
			}
			n, err := holdable(m, bs)
			if err != nil {
				return nil, fmt.Errorf("footprint of %d->%d: %w", p.Src, p.Dst, err)
			}
			if k == 0 {
				fp.states[p] = n
			}
		}
	}
	return fp, nil
}

// holdable visits every reachable state of the single-worm model m, sets in bs every
// virtual channel the worm owns in one, and returns how many states there are.
func holdable(m *flit.Model, bs []uint64) (int64, error) {
	seen := map[string]bool{}
	queue := m.Init()
	seen[string(m.Encode(queue[0], nil))] = true
	var buf []byte
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for o, v := range s.VCs {
			if v.Owner >= 0 {
				bs[o/64] |= 1 << (o % 64)
			}
		}
		for _, tr := range m.Successors(s, nil) {
			buf = m.Encode(tr.Next, buf[:0])
			if !seen[string(buf)] {
				if len(seen) >= maxFootprintStates {
					return 0, fmt.Errorf("more than %d states alone", maxFootprintStates)
				}
				seen[string(buf)] = true
				queue = append(queue, tr.Next)
			}
		}
	}
	if err := m.Err(); err != nil {
		return 0, err
	}
	return int64(len(seen)), nil
}

// Channels returns how many network virtual channels worm p can hold (0 for a pair
// NewFootprints was not given).
func (fp *Footprints) Channels(p Pair) int {
	n := 0
	for _, w := range fp.vcs[p] {
		n += bits.OnesCount64(w)
	}
	return n
}

// CanHold reports whether worm p can hold network virtual channel o (the flit model's
// index: channel x VCs + VC) in its single-worm instance; false for a pair NewFootprints
// was not given.
func (fp *Footprints) CanHold(p Pair, o int) bool {
	bs := fp.vcs[p]
	return bs != nil && o >= 0 && o/64 < len(bs) && bs[o/64]&(1<<(o%64)) != 0
}

// States returns the reachable states of worm p's single-worm instance with the first
// (Length, Buffer) (0 for a pair NewFootprints was not given).
func (fp *Footprints) States(p Pair) int64 { return fp.states[p] }

// share reports whether the footprints of a and b have a virtual channel in common.
func (fp *Footprints) share(a, b Pair) bool {
	x, y := fp.vcs[a], fp.vcs[b]
	if x == nil || y == nil {
		return true // unknown: assume they interact
	}
	for i := range x {
		if x[i]&y[i] != 0 {
			return true
		}
	}
	return false
}

// Interact reports whether worms i and j of placement ps interact (see Footprints).
func (fp *Footprints) Interact(ps []Pair, i, j int) bool {
	a, b := ps[i], ps[j]
	if fp.ports == model.OnePort && (a.Src == b.Src || a.Dst == b.Dst) {
		return true
	}
	if fp.ports != model.OnePort && a.Dst == b.Dst {
		n := 0
		for _, p := range ps {
			if p.Dst == a.Dst {
				n++
			}
		}
		if n > fp.ejects {
			return true
		}
	}
	return fp.share(a, b)
}

// Components returns the interaction components of placement ps, each a list of worm
// indices ascending, ordered by their least index.
func (fp *Footprints) Components(ps []Pair) [][]int {
	comp := make([]int, len(ps))
	for i := range comp {
		comp[i] = -1
	}
	var out [][]int
	for s := range ps {
		if comp[s] >= 0 {
			continue
		}
		c := len(out)
		comp[s] = c
		members := []int{s}
		for k := 0; k < len(members); k++ {
			for j := range ps {
				if comp[j] < 0 && fp.Interact(ps, members[k], j) {
					comp[j] = c
					members = append(members, j)
				}
			}
		}
		sortInts(members)
		out = append(out, members)
	}
	return out
}

// Connected reports whether the worms of ps form one interaction component.
func (fp *Footprints) Connected(ps []Pair) bool {
	return len(ps) <= 1 || len(fp.Components(ps)) == 1
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
