package cdg

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Headers is every reachable header state of a relation, over all destinations at once,
// as plain data: the states the exact decision (props/decide) searches for a deadlock
// configuration. State i is a header holding vertex Vertex[i] (channel*VCs + VC) toward
// destination Dst[i]; Src[i] is a source whose header reaches it, Class[i] its class as
// the search numbers it (source class*Misroutes + misroutes taken), Parent[i] the state
// it was first reached from (-1: from its source), and AtDst[i] says the header is at
// its destination. The states toward destination d are DstFirst[d]:DstFirst[d+1]. The
// arcs of state i, one per permitted output, are ArcTo/ArcVertex[First[i]:First[i+1]]:
// the vertex the output takes and the state it leads to (-1 when that is the
// destination: the worm is then delivered, never blocked). Headers still at their
// sources hold no vertex and are no states; Stranded is one that the relation offers
// nothing (a one-worm deadlock of its own), nil when there is none.
type Headers struct {
	Grid          *topology.Network
	VCs           int
	Classes       int                   // classes of states per vertex (source classes x Misroutes)
	Misroutes     int                   // misroute counts tracked: budget+1, or 1
	SourceClasser routing.SourceClasser // nil: the relation does not read the source
	Vertex, Dst   []int32
	Src, Class    []int32
	Parent        []int32
	AtDst         []bool
	DstFirst      []int32
	First         []int32
	ArcTo         []int32
	ArcVertex     []int32
	Stranded      *routing.Header
}

// StatesBound is the error of ReachableHeaders when the states would pass their bound.
type StatesBound struct{ States, Bound int64 }

func (e *StatesBound) Error() string {
	return fmt.Sprintf("more than %d header states (bound %d)", e.States, e.Bound)
}

// ReachableHeaders enumerates the header states of rel toward every destination, one
// breadth-first search per destination, up to maxStates states (a *StatesBound error
// past them). Unlike the dependency graphs' search, it keeps every header's input and,
// for a relation whose promises are not trusted, its source, and it records parents.
// ctx (nil: never) stops it between destinations. Cost O(states x outputs).
func ReachableHeaders(ctx context.Context, rel routing.Relation, maxStates int64) (*Headers, error) {
	return ReachableHeadersTo(ctx, rel, maxStates, nil)
}

// ReachableHeadersTo is ReachableHeaders toward the destinations dests holds only (nil:
// all): the states toward each of them are the same as in the whole (every source's
// header, every arc), and there are none toward the others.
func ReachableHeadersTo(ctx context.Context, rel routing.Relation, maxStates int64, dests []bool) (*Headers, error) {
	s, err := newSearcherFor(rel, true)
	if err != nil {
		return nil, err
	}
	g := s.g
	sp := &Headers{Grid: g, VCs: s.vcs, Classes: s.classes, Misroutes: s.mis, SourceClasser: s.sc}
	loc := make([]int32, len(s.stamp))
	sp.First = append(sp.First, 0)
	sp.DstFirst = make([]int32, g.Nodes()+1)
	for d := 0; d < g.Nodes(); d++ {
		dst := topology.NodeID(d)
		sp.DstFirst[d] = int32(len(sp.Vertex))
		if !g.Endpoint(dst) || dests != nil && !dests[d] {
			continue // no worm is addressed to it, or the caller leaves it out
		}
		if err := Stop(ctx); err != nil {
			return nil, err
		}
		if err := s.search(dst); err != nil {
			return nil, err
		}
		if sp.Stranded == nil && s.sourceStranded != nil {
			h := *s.sourceStranded
			sp.Stranded = &h
		}
		base := int32(len(sp.Vertex))
		if n := int64(base) + int64(len(s.order)); n > maxStates {
			return nil, &StatesBound{n, maxStates}
		}
		for i, st := range s.order {
			loc[st] = base + int32(i)
		}
		for i, st := range s.order {
			v := int32(int(st) / s.classes)
			sp.Vertex = append(sp.Vertex, v)
			sp.Dst = append(sp.Dst, int32(d))
			sp.Src = append(sp.Src, s.rep[st])
			sp.Class = append(sp.Class, int32(int(st)%s.classes))
			p := s.parent[st]
			if p >= 0 {
				p = loc[p]
			}
			sp.Parent = append(sp.Parent, p)
			sp.AtDst = append(sp.AtDst, s.chTo[int(v)/s.vcs] == dst)
			for _, a := range s.arcs[s.first[i]:s.first[i+1]] {
				to := loc[a.to]
				if s.chTo[int(a.vtx)/s.vcs] == dst {
					to = -1
				}
				sp.ArcTo = append(sp.ArcTo, to)
				sp.ArcVertex = append(sp.ArcVertex, a.vtx)
			}
			sp.First = append(sp.First, int32(len(sp.ArcTo)))
		}
	}
	if err := Stop(ctx); err != nil {
		return nil, err
	}
	sp.DstFirst[g.Nodes()] = int32(len(sp.Vertex))
	return sp, nil
}
