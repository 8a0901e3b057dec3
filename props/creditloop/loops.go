package creditloop

import (
	"slices"

	"github.com/wormcheck/wormcheck/model/fabric"
	"github.com/wormcheck/wormcheck/model/scc"
	"github.com/wormcheck/wormcheck/model/vct"
)

// maxGirthRoots bounds the channels of one loop from which a shortest cycle is
// searched (one breadth-first search each); beyond it the girth is the shortest cycle
// found through the first maxGirthRoots channels.
const maxGirthRoots = 2048

// maxCandidates bounds the cycles of one loop the decision tries to fill.
const maxCandidates = 64

// components returns the credit loops of g: its strongly connected components of more
// than one channel, each as its channels in increasing id order, loops ordered by their
// least channel.
func components(g *graph) [][]int32 {
	n := g.ch.Len()
	comp, count := scc.Components(n, nil, func(v int32, i int) (int32, bool) {
		out := g.out(v)
		if i < len(out) {
			return out[i], true
		}
		return 0, false
	})
	members := make([][]int32, count)
	for v := range int32(n) {
		if c := comp[v]; c >= 0 {
			members[c] = append(members[c], v)
		}
	}
	var loops [][]int32
	for _, m := range members {
		if len(m) > 1 {
			loops = append(loops, m)
		}
	}
	slices.SortFunc(loops, func(a, b []int32) int { return int(a[0] - b[0]) })
	return loops
}

// shortestCycle returns a shortest cycle through root within the channels in, by
// breadth-first search, or nil.
func shortestCycle(g *graph, in map[int32]bool, root int32) []int32 {
	parent := map[int32]int32{root: -1}
	queue := []int32{root}
	for len(queue) > 0 {
		v := queue[0]
		queue = queue[1:]
		for _, w := range g.out(v) {
			if !in[w] {
				continue
			}
			if w == root {
				var cyc []int32
				for x := v; x != -1; x = parent[x] {
					cyc = append(cyc, x)
				}
				slices.Reverse(cyc)
				return cyc
			}
			if _, seen := parent[w]; !seen {
				parent[w] = v
				queue = append(queue, w)
			}
		}
	}
	return nil
}

// rotate returns a cycle starting at its least channel, so that equal cycles compare
// equal.
func rotate(c []int32) []int32 {
	i := slices.Index(c, slices.Min(c))
	return append(slices.Clone(c[i:]), c[:i]...)
}

// cycles returns the shortest cycle through each channel of a loop (through the first
// maxGirthRoots), distinct, shortest first, at most maxCandidates of them, and whether
// every channel was a root (then the first is a shortest cycle of the loop).
func cycles(g *graph, loop []int32) ([][]int32, bool) {
	in := make(map[int32]bool, len(loop))
	for _, v := range loop {
		in[v] = true
	}
	var out [][]int32
	seen := map[string]bool{}
	roots := loop[:min(len(loop), maxGirthRoots)]
	for _, r := range roots {
		c := shortestCycle(g, in, r)
		if c == nil {
			continue
		}
		c = rotate(c)
		k := key(c)
		if !seen[k] {
			seen[k] = true
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b []int32) int {
		if len(a) != len(b) {
			return len(a) - len(b)
		}
		return slices.Compare(a, b)
	})
	if len(out) > maxCandidates {
		out = out[:maxCandidates]
	}
	return out, len(roots) == len(loop)
}

func key(c []int32) string {
	b := make([]byte, 0, 4*len(c))
	for _, v := range c {
		b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
	}
	return string(b)
}

// flowRef is one route of the fabric: from a source port to a destination LID.
type flowRef struct {
	src  fabric.PortRef
	dlid uint16
}

// loopFlows are the routes that touch one loop: by arc of the loop, the routes that
// take it (arcs), and every route through a channel of the loop (through, up to
// maxThrough; over says there were more). Routes that are dropped count up to where
// they are dropped (a dropped packet leaves its buffer as a delivered one does), and
// routes round a forwarding loop count with the arc that closes it.
type loopFlows struct {
	arcs    map[[2]int32][]flowRef
	through []flowRef
	over    bool
}

// maxArcFlows bounds the routes remembered per arc of a loop, maxThrough those through
// a loop (the exhaustive search takes them all, so beyond it there is none).
const (
	maxArcFlows = 16
	maxThrough  = 48
)

// collectFlows traces every route again and, for each loop, remembers the routes that
// touch it (loopFlows). loopOf gives each channel's loop index (-1 for none).
func collectFlows(f *fabric.Fabric, ch *Channels, srcs []fabric.PortRef, dsts []uint16, loopOf []int32, nloops int) []loopFlows {
	out := make([]loopFlows, nloops)
	for i := range out {
		out[i].arcs = map[[2]int32][]flowRef{}
	}
	touched := make([]int32, 0, 8)
	for _, dlid := range dsts {
		owner := f.Owner(dlid)
		for _, src := range srcs {
			if src == owner || (src.Port == 0 && owner.Node == src.Node) {
				continue
			}
			fl := flowOf(f, flowRef{src, dlid})
			fr := flowRef{src, dlid}
			touched = touched[:0]
			for j, h := range fl.Route {
				id := ch.ID(h)
				l := loopOf[id]
				if l < 0 {
					continue
				}
				if !slices.Contains(touched, l) {
					touched = append(touched, l)
					lf := &out[l]
					if len(lf.through) < maxThrough {
						lf.through = append(lf.through, fr)
					} else {
						lf.over = true
					}
				}
				next := int32(-1)
				switch {
				case j+1 < len(fl.Route):
					next = ch.ID(fl.Route[j+1])
				case fl.Loop:
					next = ch.ID(fl.Route[fl.Again])
				}
				if next >= 0 {
					if loopOf[next] == l {
						a := [2]int32{id, next}
						if len(out[l].arcs[a]) < maxArcFlows {
							out[l].arcs[a] = append(out[l].arcs[a], fr)
						}
					}
				}
			}
		}
	}
	return out
}

// flowOf is the flow of one route: its channels, its SL, and where a route round a
// forwarding loop goes on after its last channel (the channel that leaves the switch it
// comes back to). A route that ends before its first channel has none.
func flowOf(f *fabric.Fabric, fr flowRef) vct.Flow {
	p := f.Route(fr.src, fr.dlid)
	fl := vct.Flow{Src: fr.src, DLID: fr.dlid, SL: f.PathSL.SL(fr.src, fr.dlid), Route: p.Hops, Packets: 1}
	if p.End == fabric.Loop {
		fl.Loop = true
		fl.Again = slices.IndexFunc(p.Hops, func(h fabric.Hop) bool { return h.Node == p.At })
	}
	return fl
}
