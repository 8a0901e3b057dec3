package multinode

import (
	"fmt"
	"slices"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Pair is two unicasts (indices into Schedule.Unicasts) that hold the same channel in the
// same step.
type Pair struct {
	A, B    int                `json:"-"`
	Step    int                `json:"step"`
	Channel topology.ChannelID `json:"-"`
	// For people and JSON.
	ChannelName string `json:"channel"`
	First       string `json:"first"`
	Second      string `json:"second"`
	GroupA      int    `json:"group_a"`
	GroupB      int    `json:"group_b"`
}

// Result is the verdict of Check on a multi-multicast schedule.
type Result struct {
	// Invalid is the first validity violation ("" when valid): a sender that does not hold
	// the message yet, a node that receives a message twice, a destination never reached,
	// a path that does not lead from sender to receiver, or a node sending or receiving
	// twice in one step for the same multicast (one-port).
	Invalid string
	// Contended is the first pair of unicasts of the same multicast that share a channel in
	// the same step (nil when every multicast is stepwise contention-free). When the
	// schedule carries virtual-channel classes (model.Unicast.VC), "share a channel"
	// means the same channel in the same class, as everywhere in wormcheck.
	Contended *Pair
	// ContendedPairs counts such same-multicast pairs; CrossPairs counts distinct pairs of
	// unicasts of different multicasts sharing a channel in the same step.
	ContendedPairs, CrossPairs int
	// NodeConflicts counts pairs of unicasts of different multicasts that leave the same
	// node in the same step (node contention under the one-port model).
	NodeConflicts int
	// MaxLoad is the largest number of unicasts holding one channel in one step.
	MaxLoad int
	// Hops is the total path length (channel-steps of traffic); Steps the last step.
	Hops  int
	Steps int
}

// Check judges schedule s, whose unicast k serves multicast s.Group[k] with source
// s.Sources[group] and destinations dests[group]: validity per multicast (001 §2.3
// phases compose into one multicast: each unicast leaves a node that holds the message,
// every destination gets it exactly once, one send and one receive per node per step),
// stepwise contention freedom per multicast, and the contention between multicasts.
// Cost O(sum of path lengths * log + contending pairs).
//
// This is a local checker. Representatives (r_i and the DCN representatives) receive the
// message without being destinations; that is the scheme, not a violation. The schedule
// verifier of package props (validity, timed and any-delay contention; on its way to
// main) agrees with Check on Types I and II and plain U-torus (validity, and which
// multicasts are stepwise contended), but its strict exactly-once refuses relays, and its
// path check refuses the directed-DDN paths of Types III and IV, which are not the
// network's shortest DOR paths.
func Check(g *topology.Network, s model.Schedule, dests [][]topology.NodeID) Result {
	var r Result
	r.Steps = s.Steps()
	groups := len(s.Sources)
	group := func(k int) int {
		if s.Group == nil {
			return 0
		}
		return s.Group[k]
	}
	if s.Group != nil && len(s.Group) != len(s.Unicasts) {
		r.Invalid = fmt.Sprintf("schedule has %d unicasts but %d group entries", len(s.Unicasts), len(s.Group))
		return r
	}
	if len(dests) != groups {
		r.Invalid = fmt.Sprintf("schedule has %d sources but %d destination sets", groups, len(dests))
		return r
	}
	// Validity, per multicast, in step order.
	got := make([]map[topology.NodeID]int, groups) // node -> step it holds the message from
	for i := range got {
		got[i] = map[topology.NodeID]int{s.Sources[i]: 0}
	}
	type slot struct {
		g    int
		v    topology.NodeID
		step int
	}
	sent, recv := map[slot]bool{}, map[slot]bool{}
	idx := make([]int, len(s.Unicasts))
	for k := range idx {
		idx[k] = k
	}
	slices.SortStableFunc(idx, func(a, b int) int { return s.Unicasts[a].Step - s.Unicasts[b].Step })
	for _, k := range idx {
		u := s.Unicasts[k]
		gi := group(k)
		if r.Invalid != "" {
			break
		}
		if gi < 0 || gi >= groups {
			r.Invalid = fmt.Sprintf("unicast %d names multicast %d; there are %d", k, gi, groups)
			break
		}
		when, ok := got[gi][u.From]
		switch {
		case u.Step < 1:
			r.Invalid = fmt.Sprintf("multicast %d: unicast %s -> %s has step %d", gi, g.NodeName(u.From), g.NodeName(u.To), u.Step)
		case !ok || when >= u.Step:
			r.Invalid = fmt.Sprintf("multicast %d: %s sends to %s in step %d before it holds the message", gi, g.NodeName(u.From), g.NodeName(u.To), u.Step)
		case sent[slot{gi, u.From, u.Step}]:
			r.Invalid = fmt.Sprintf("multicast %d: %s sends twice in step %d (one-port)", gi, g.NodeName(u.From), u.Step)
		case recv[slot{gi, u.To, u.Step}]:
			r.Invalid = fmt.Sprintf("multicast %d: %s receives twice in step %d (one-port)", gi, g.NodeName(u.To), u.Step)
		}
		if r.Invalid != "" {
			break
		}
		if _, dup := got[gi][u.To]; dup {
			r.Invalid = fmt.Sprintf("multicast %d: %s receives the message twice (again from %s in step %d)", gi, g.NodeName(u.To), g.NodeName(u.From), u.Step)
			break
		}
		if err := walk(g, u.From, u.To, u.Path); err != nil {
			r.Invalid = fmt.Sprintf("multicast %d: %v", gi, err)
			break
		}
		got[gi][u.To] = u.Step
		sent[slot{gi, u.From, u.Step}] = true
		recv[slot{gi, u.To, u.Step}] = true
	}
	if r.Invalid == "" {
		for gi, ds := range dests {
			for _, d := range ds {
				if _, ok := got[gi][d]; !ok {
					r.Invalid = fmt.Sprintf("multicast %d: destination %s never receives the message", gi, g.NodeName(d))
					break
				}
			}
			if r.Invalid != "" {
				break
			}
		}
	}

	// Contention, step by step. Within a step, uses[] lists (channel, unicast) sorted by
	// channel; each unicast then walks the holders of its channels and counts every later
	// unicast it meets once (mark[b] remembers the last a that counted b), so no pair list
	// is ever materialised. Cost O(sum over channels of load^2) time, O(uses) memory.
	// With virtual-channel classes (Unicast.VC) contention is per lane: channel and class
	// (model.Unicast.Lane); without, per physical channel.
	type use struct {
		c int // lane
		k int
	}
	lanes := s.Lanes()
	var uses []use
	mark := make([]int, len(s.Unicasts))
	for lo := 0; lo < len(idx); {
		hi := lo
		step := s.Unicasts[idx[lo]].Step
		for hi < len(idx) && s.Unicasts[idx[hi]].Step == step {
			hi++
		}
		uses = uses[:0]
		for _, k := range idx[lo:hi] {
			r.Hops += len(s.Unicasts[k].Path)
			for h := range s.Unicasts[k].Path {
				uses = append(uses, use{s.Unicasts[k].Lane(h, lanes), k})
			}
		}
		slices.SortFunc(uses, func(a, b use) int {
			if a.c != b.c {
				return a.c - b.c
			}
			return a.k - b.k
		})
		// run[i] = the end of the run of equal channels that uses[i] is in; where[k] lists
		// the positions of unicast k's channels.
		start := map[int]int{}
		for i := 0; i < len(uses); {
			j := i
			for j < len(uses) && uses[j].c == uses[i].c {
				j++
			}
			start[uses[i].c] = i
			r.MaxLoad = max(r.MaxLoad, j-i)
			i = j
		}
		for _, a := range idx[lo:hi] {
			for h, ch := range s.Unicasts[a].Path {
				c := s.Unicasts[a].Lane(h, lanes)
				for i := start[c]; i < len(uses) && uses[i].c == c; i++ {
					b := uses[i].k
					if b <= a || mark[b] == a+1 {
						continue
					}
					mark[b] = a + 1
					if group(a) == group(b) {
						r.ContendedPairs++
						if r.Contended == nil || (r.Contended.Step == step && a < r.Contended.A) {
							r.Contended = newPair(g, s, a, b, ch, group)
						}
					} else {
						r.CrossPairs++
					}
				}
			}
		}
		from := make([]int, 0, hi-lo)
		from = append(from, idx[lo:hi]...)
		slices.SortFunc(from, func(a, b int) int { return int(s.Unicasts[a].From - s.Unicasts[b].From) })
		for i := 0; i < len(from); {
			j := i
			for j < len(from) && s.Unicasts[from[j]].From == s.Unicasts[from[i]].From {
				j++
			}
			// Pairs leaving the same node for different multicasts: all pairs minus
			// same-group pairs, counted by group sizes.
			counts := map[int]int{}
			for x := i; x < j; x++ {
				counts[group(from[x])]++
			}
			n := j - i
			same := 0
			for _, m := range counts {
				same += m * (m - 1) / 2
			}
			r.NodeConflicts += n*(n-1)/2 - same
			i = j
		}
		lo = hi
	}
	return r
}

func newPair(g *topology.Network, s model.Schedule, a, b int, c topology.ChannelID, group func(int) int) *Pair {
	name := func(k int) string {
		u := s.Unicasts[k]
		return fmt.Sprintf("%s -> %s", g.NodeName(u.From), g.NodeName(u.To))
	}
	return &Pair{A: a, B: b, Step: s.Unicasts[a].Step, Channel: c, ChannelName: g.ChannelName(c),
		First: name(a), Second: name(b), GroupA: group(a), GroupB: group(b)}
}

// ContendedGroups counts the multicasts of s whose own unicasts are not stepwise
// contention-free (Check on each multicast alone; dests as for Check).
func ContendedGroups(g *topology.Network, s model.Schedule, dests [][]topology.NodeID) int {
	n := 0
	for gi := range s.Sources {
		var one model.Schedule
		one.Sources = s.Sources[gi : gi+1]
		for k, u := range s.Unicasts {
			if s.Group[k] == gi {
				one.Unicasts = append(one.Unicasts, u)
				one.Group = append(one.Group, 0)
			}
		}
		if Check(g, one, dests[gi:gi+1]).Contended != nil {
			n++
		}
	}
	return n
}
