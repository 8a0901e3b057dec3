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
	r := Result{Steps: s.Steps()}
	if s.Group != nil && len(s.Group) != len(s.Unicasts) {
		r.Invalid = fmt.Sprintf("schedule has %d unicasts but %d group entries", len(s.Unicasts), len(s.Group))
		return r
	}
	if len(dests) != len(s.Sources) {
		r.Invalid = fmt.Sprintf("schedule has %d sources but %d destination sets", len(s.Sources), len(dests))
		return r
	}
	idx := make([]int, len(s.Unicasts)) // the unicasts in step order
	for k := range idx {
		idx[k] = k
	}
	slices.SortStableFunc(idx, func(a, b int) int { return s.Unicasts[a].Step - s.Unicasts[b].Step })
	r.Invalid = validity(g, s, dests, idx)
	mark := make([]int, len(s.Unicasts)) // countContention's, shared by the steps
	for lo := 0; lo < len(idx); {
		hi := lo
		for hi < len(idx) && s.Unicasts[idx[hi]].Step == s.Unicasts[idx[lo]].Step {
			hi++
		}
		countContention(g, s, idx[lo:hi], mark, &r)
		r.NodeConflicts += nodeConflicts(s, idx[lo:hi])
		lo = hi
	}
	return r
}

// groupOf is the multicast unicast k of s belongs to.
func groupOf(s model.Schedule, k int) int {
	if s.Group == nil {
		return 0
	}
	return s.Group[k]
}

// validity checks, per multicast and in step order (idx), that every unicast leaves a
// node that holds the message, that no node sends or receives twice in a step (one
// port), that no node receives the message twice, that every path is a walk of g, and
// that every destination receives the message; it returns the first problem, "" for
// none.
func validity(g *topology.Network, s model.Schedule, dests [][]topology.NodeID, idx []int) string {
	groups := len(s.Sources)
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
	for _, k := range idx {
		u := s.Unicasts[k]
		gi := groupOf(s, k)
		if gi < 0 || gi >= groups {
			return fmt.Sprintf("unicast %d names multicast %d; there are %d", k, gi, groups)
		}
		when, ok := got[gi][u.From]
		switch {
		case u.Step < 1:
			return fmt.Sprintf("multicast %d: unicast %s -> %s has step %d", gi, g.NodeName(u.From), g.NodeName(u.To), u.Step)
		case !ok || when >= u.Step:
			return fmt.Sprintf("multicast %d: %s sends to %s in step %d before it holds the message", gi, g.NodeName(u.From), g.NodeName(u.To), u.Step)
		case sent[slot{gi, u.From, u.Step}]:
			return fmt.Sprintf("multicast %d: %s sends twice in step %d (one-port)", gi, g.NodeName(u.From), u.Step)
		case recv[slot{gi, u.To, u.Step}]:
			return fmt.Sprintf("multicast %d: %s receives twice in step %d (one-port)", gi, g.NodeName(u.To), u.Step)
		}
		if _, dup := got[gi][u.To]; dup {
			return fmt.Sprintf("multicast %d: %s receives the message twice (again from %s in step %d)", gi, g.NodeName(u.To), g.NodeName(u.From), u.Step)
		}
		if err := walk(g, u.From, u.To, u.Path); err != nil {
			return fmt.Sprintf("multicast %d: %v", gi, err)
		}
		got[gi][u.To] = u.Step
		sent[slot{gi, u.From, u.Step}] = true
		recv[slot{gi, u.To, u.Step}] = true
	}
	for gi, ds := range dests {
		for _, d := range ds {
			if _, ok := got[gi][d]; !ok {
				return fmt.Sprintf("multicast %d: destination %s never receives the message", gi, g.NodeName(d))
			}
		}
	}
	return ""
}

// countContention counts in r the channel contention among the unicasts of one step
// (step): pairs of the same multicast (the first kept as r.Contended) and of different
// ones, the hops and the largest load of a lane. uses lists (lane, unicast) sorted by
// lane; each unicast then walks the holders of its lanes and counts every later unicast
// it meets once (mark[b] remembers the last a that counted b; mark has an entry per
// unicast of s), so no pair list is ever materialised. Cost O(sum over lanes of load^2) time, O(uses) memory. With
// virtual-channel classes (Unicast.VC) contention is per lane: channel and class
// (model.Unicast.Lane); without, per physical channel.
func countContention(g *topology.Network, s model.Schedule, step, mark []int, r *Result) {
	type use struct {
		c int // lane
		k int
	}
	lanes := s.Lanes()
	var uses []use
	for _, k := range step {
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
	start := map[int]int{} // the first position of each lane in uses
	for i := 0; i < len(uses); {
		j := i
		for j < len(uses) && uses[j].c == uses[i].c {
			j++
		}
		start[uses[i].c] = i
		r.MaxLoad = max(r.MaxLoad, j-i)
		i = j
	}
	group := func(k int) int { return groupOf(s, k) }
	for _, a := range step {
		for h, ch := range s.Unicasts[a].Path {
			c := s.Unicasts[a].Lane(h, lanes)
			for i := start[c]; i < len(uses) && uses[i].c == c; i++ {
				b := uses[i].k
				if b <= a || mark[b] == a+1 {
					continue
				}
				mark[b] = a + 1
				if group(a) != group(b) {
					r.CrossPairs++
					continue
				}
				r.ContendedPairs++
				if r.Contended == nil || (r.Contended.Step == s.Unicasts[a].Step && a < r.Contended.A) {
					r.Contended = newPair(g, s, a, b, ch, group)
				}
			}
		}
	}
}

// nodeConflicts counts the pairs of unicasts of one step (step) that leave the same
// node for different multicasts: all pairs leaving a node minus its same-multicast
// pairs, counted by group sizes.
func nodeConflicts(s model.Schedule, step []int) int {
	from := slices.Clone(step)
	slices.SortFunc(from, func(a, b int) int { return int(s.Unicasts[a].From - s.Unicasts[b].From) })
	n := 0
	for i := 0; i < len(from); {
		j := i
		for j < len(from) && s.Unicasts[from[j]].From == s.Unicasts[from[i]].From {
			j++
		}
		counts := map[int]int{}
		for x := i; x < j; x++ {
			counts[groupOf(s, from[x])]++
		}
		same := 0
		for _, m := range counts {
			same += m * (m - 1) / 2
		}
		n += (j-i)*(j-i-1)/2 - same
		i = j
	}
	return n
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
