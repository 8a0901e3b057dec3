package flit

import (
	"slices"

	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Interchangeable virtual channels (Config.LowestVC).
//
// Swapping two virtual channels x and y of one physical channel c, in a state's channels
// and in every reservation, maps a model onto itself when nothing the model does tells
// them apart: every header of its messages that arrives on x is permitted what the same
// header arriving on y is, and every set of outputs the relation permits a header of its
// messages holds x exactly when it holds y, with the same misroute flag. The model
// virtual channels of one relation VC (VCs/R of them) are always so; relation VCs are
// when the relation treats them alike (a BookSim routing function that offers every VC
// of a channel, adaptive relations on several VCs). Only the headers of the model's own
// messages count (headerWalk), so the check is exact for the instance.
//
// vcGroups gives, per channel, the partition of its relation VCs into classes of
// interchangeable ones. Two free channels of one class lead a header's allocation to
// states that such a swap maps onto each other (it fixes the state they leave: both are
// free and empty), so LowestVC offers only the lowest free one of each class.

// vcGroups returns, for each class node c*R+r (R = Routing.VCs()), the least relation
// VC of channel c interchangeable with r; computed once. Cost: the messages' header walks
// and, per channel, a comparison of the relation's answers for each pair of relation
// VCs its headers reach, O(R^2) relation calls per header context.
func (m *Model) vcGroups() []uint8 {
	m.groupOnce.Do(func() {
		if m.groups == nil {
			m.groups = m.computeGroups()
		}
	})
	return m.groups
}

// interchangeable reports whether some class of vcGroups, or some relation VC, holds
// several model virtual channels of a channel (so LowestVC has something to choose).
func (m *Model) interchangeable() bool {
	groups := m.vcGroups() // lowestFree reads them
	if m.per > 1 {
		return true
	}
	for x, g := range groups {
		if int(g) != x%m.rel.VCs() {
			return true
		}
	}
	return false
}

// headerContext is what a header carries besides where it is: the relation reads it.
type headerContext struct {
	src, dst topology.NodeID
	mis      int
}

func (m *Model) computeGroups() []uint8 {
	nR := m.rel.VCs()
	nch := len(m.chFrom)
	groups := make([]uint8, nch*nR)
	for x := range groups {
		groups[x] = uint8(x % nR)
	}
	if nR == 1 {
		return groups
	}
	// arrive[x]: the contexts of the headers arriving on class node x; member[c]: per
	// set of outputs a header was permitted, the relation VCs of channel c in it and
	// those of them flagged as misroutes.
	arrive := map[int]map[headerContext]bool{}
	member := map[int]map[[2]uint32]bool{}
	for i := range m.cfg.Messages {
		m.headerWalk(i, func(h routing.Header, from int, outs []routing.Output) {
			if from >= 0 {
				if arrive[from] == nil {
					arrive[from] = map[headerContext]bool{}
				}
				arrive[from][headerContext{h.Src, h.Dst, h.Misroutes}] = true
			}
			sig := map[int][2]uint32{}
			for _, o := range outs {
				v := sig[int(o.Channel)]
				v[0] |= 1 << o.VC
				if o.Misroute {
					v[1] |= 1 << o.VC
				}
				sig[int(o.Channel)] = v
			}
			for c, v := range sig {
				if member[c] == nil {
					member[c] = map[[2]uint32]bool{}
				}
				member[c][v] = true
			}
		})
	}
	for c := range nch {
		if member[c] == nil {
			continue // no header of the model takes channel c
		}
		for b := 1; b < nR; b++ {
			for a := range b {
				if int(groups[c*nR+a]) == a && m.alike(c, a, b, arrive, member[c]) {
					groups[c*nR+b] = uint8(a)
					break
				}
			}
		}
	}
	return groups
}

// alike reports whether relation VCs a and b of channel c are interchangeable (see
// above): every output set the walks met holds both or neither, with the same misroute
// flag, and every header context that arrives on either is permitted the same outputs on
// both.
func (m *Model) alike(c, a, b int, arrive map[int]map[headerContext]bool, member map[[2]uint32]bool) bool {
	for v := range member {
		if v[0]>>a&1 != v[0]>>b&1 || v[1]>>a&1 != v[1]>>b&1 {
			return false
		}
	}
	nR := m.rel.VCs()
	at := m.vcTo[c*m.cfg.VCs]
	route := func(vc int, x headerContext) []routing.Output {
		h := routing.Header{At: at, In: routing.Input{Channel: chanID(c), VC: vc}, Src: x.src, Dst: x.dst, Misroutes: x.mis}
		outs := m.rel.Route(h, nil)
		slices.SortFunc(outs, func(p, q routing.Output) int {
			if p.Channel != q.Channel {
				return int(p.Channel) - int(q.Channel)
			}
			if p.VC != q.VC {
				return p.VC - q.VC
			}
			if p.Misroute == q.Misroute {
				return 0
			}
			if p.Misroute {
				return 1
			}
			return -1
		})
		return slices.Compact(outs)
	}
	for _, vc := range []int{a, b} {
		for x := range arrive[c*nR+vc] {
			if !slices.Equal(route(a, x), route(b, x)) {
				return false
			}
		}
	}
	return true
}

// lowestFree reports whether virtual channel o is free and no lower virtual channel of
// its channel interchangeable with it (vcGroups) is (Config.LowestVC).
func (m *Model) lowestFree(s *State, o int) bool {
	if s.VCs[o].Owner >= 0 {
		return false
	}
	nR := m.rel.VCs()
	base := o - o%m.cfg.VCs
	row := m.groups[(o/m.cfg.VCs)*nR : (o/m.cfg.VCs+1)*nR]
	g := row[(o-base)/m.per]
	for q := base; q < o; q++ {
		if row[(q-base)/m.per] == g && s.VCs[q].Owner < 0 {
			return false
		}
	}
	return true
}
