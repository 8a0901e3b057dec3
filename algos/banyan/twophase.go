package banyan

import (
	"fmt"
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Multicast is one multicast request: a source node and its destination set, kept
// sorted ascending without duplicates (D_0 < D_1 < ... < D_{f-1} of 002 §3.1).
type Multicast struct {
	Source int   `json:"source"`
	Dests  []int `json:"dests"`
}

// Fanout returns f = |D|.
func (m Multicast) Fanout() int { return len(m.Dests) }

// String renders the multicast as "1->5-8" or "5->0,3,6,11,13" (runs of three or more
// consecutive nodes as ranges).
func (m Multicast) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%d->", m.Source)
	for i := 0; i < len(m.Dests); {
		j := i
		for j+1 < len(m.Dests) && m.Dests[j+1] == m.Dests[j]+1 {
			j++
		}
		if i > 0 {
			sb.WriteByte(',')
		}
		switch {
		case j-i >= 2:
			fmt.Fprintf(&sb, "%d-%d", m.Dests[i], m.Dests[j])
		case j > i:
			fmt.Fprintf(&sb, "%d,%d", m.Dests[i], m.Dests[j])
		default:
			fmt.Fprintf(&sb, "%d", m.Dests[i])
		}
		i = j + 1
	}
	return sb.String()
}

// ParseMulticasts reads multicasts written as "1->5,6,7,8;15->7-12": messages separated
// by ';', a source, "->", and destinations or ranges a-b separated by ','. Every node must
// be in 0..size-1; destinations are sorted and must not repeat.
func ParseMulticasts(spec string, size int) ([]Multicast, error) {
	if strings.TrimSpace(spec) == "" {
		return nil, fmt.Errorf("msgs is empty; give multicasts such as \"1->5,6,7,8;15->7-12\"")
	}
	var out []Multicast
	for i, part := range strings.Split(spec, ";") {
		src, dst, ok := strings.Cut(strings.TrimSpace(part), "->")
		if !ok {
			return nil, fmt.Errorf("msgs message %d %q: want SOURCE->DESTS", i+1, part)
		}
		s, err := parseNode(src, size)
		if err != nil {
			return nil, fmt.Errorf("msgs message %d source: %v", i+1, err)
		}
		m := Multicast{Source: s}
		for _, d := range strings.Split(dst, ",") {
			lo, hi, isRange := strings.Cut(d, "-")
			a, err := parseNode(lo, size)
			if err != nil {
				return nil, fmt.Errorf("msgs message %d destination: %v", i+1, err)
			}
			b := a
			if isRange {
				if b, err = parseNode(hi, size); err != nil {
					return nil, fmt.Errorf("msgs message %d destination: %v", i+1, err)
				}
				if b < a {
					return nil, fmt.Errorf("msgs message %d: range %q is empty", i+1, d)
				}
			}
			for y := a; y <= b; y++ {
				m.Dests = append(m.Dests, y)
			}
		}
		slices.Sort(m.Dests)
		for k := 1; k < len(m.Dests); k++ {
			if m.Dests[k] == m.Dests[k-1] {
				return nil, fmt.Errorf("msgs message %d: destination %d repeats", i+1, m.Dests[k])
			}
		}
		out = append(out, m)
	}
	return out, nil
}

func parseNode(s string, size int) (int, error) {
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("%q is not a node number", s)
	}
	if v < 0 || v >= size {
		return 0, fmt.Errorf("node %d is not in 0..%d", v, size-1)
	}
	return v, nil
}

// ValidStarts returns the starts s phase 1 may choose for fanout f on N nodes.
//
// Decision (002 §3.1 leaves it open): phase 1 copies with ONE region header [s, s+f-1],
// and a region is an interval min <= max (the SE rule has no case m_i = 1, M_i = 0), so
// s+f-1 must not wrap past N-1: s ranges over 0..N-f. With wrap = true every s in 0..N-1
// is returned, for analysing a phase 2 whose sources wrap (its phase 1 would need two
// regions, i.e. two packets from the same source).
func ValidStarts(size, f int, wrap bool) []int {
	hi := size - f
	if wrap {
		hi = size - 1
	}
	out := make([]int, 0, hi+1)
	for s := 0; s <= hi; s++ {
		out = append(out, s)
	}
	return out
}

// Phase1 returns the phase-1 packet of m with start s: the region copy from the source to
// the f consecutive outlets s..s+f-1.
//
// Reference: 002 §3.1, phase 1.
func Phase1(m Multicast, s int) topology.BanyanPacket {
	return topology.BanyanPacket{Source: m.Source, Dest: topology.Region{Min: s, Max: s + m.Fanout() - 1}}
}

// Phase2 returns the phase-2 packets of m with start s: the recycled copy at node
// (s+l) mod N goes to D_l, l = 0..f-1.
//
// Reference: 002 §3.1, phase 2.
func Phase2(m Multicast, s, size int) []topology.BanyanPacket {
	out := make([]topology.BanyanPacket, len(m.Dests))
	for l, d := range m.Dests {
		out[l] = topology.BanyanPacket{Source: (s + l) % size, Dest: topology.UnicastTag(d)}
	}
	return out
}

// Theorem1Result is the outcome of CheckTheorem1: destination sets and (set, start)
// instances checked, and the first blocking instance if any.
type Theorem1Result struct {
	Verdict   checker.Verdict        `json:"verdict"`
	Sets      int64                  `json:"sets"`
	Instances int64                  `json:"instances"`
	Dests     []int                  `json:"dests,omitempty"`
	Start     int                    `json:"start,omitempty"`
	Conflict  *topology.LinkConflict `json:"conflict,omitempty"`
}

// CheckTheorem1 checks 002 Theorem 1 exhaustively on the table's banyan: for every
// nonempty destination set (a bitmask; N <= 24 keeps it finite in practice) and every
// start s of ValidStarts(N, f, wrap), the f phase-2 copies pass without blocking. Phase 1
// is a single region tree and cannot block itself (MN3 checks its trees). A blocking
// instance is re-checked with topology.Banyan.FirstConflict and returned as the witness.
//
// Reference: 002 Theorem 1.
func CheckTheorem1(t *PathTable, wrap bool) (Theorem1Result, error) {
	n := t.n
	if n > 24 {
		return Theorem1Result{}, fmt.Errorf("banyan:%d: exhaustive Theorem 1 check is limited to N <= 24", n)
	}
	res := Theorem1Result{Verdict: checker.Holds}
	acc := t.NewScratch()
	srcs := make([]int, n)
	dsts := make([]int, 0, n)
	for mask := uint64(1); mask < 1<<uint(n); mask++ {
		res.Sets++
		dsts = dsts[:0]
		for m := mask; m != 0; m &= m - 1 {
			dsts = append(dsts, bits.TrailingZeros64(m))
		}
		f := len(dsts)
		for _, s := range ValidStarts(n, f, wrap) {
			res.Instances++
			for l := 0; l < f; l++ {
				srcs[l] = (s + l) % n
			}
			if _, _, blocked := t.Blocks(srcs[:f], dsts, acc); blocked {
				m := Multicast{Dests: slices.Clone(dsts)}
				c, err := t.b.FirstConflict(Phase2(m, s, n))
				if err != nil || c == nil {
					return res, fmt.Errorf("set %v start %d blocks in the path table but not in the naive check (%v)", dsts, s, err)
				}
				res.Verdict, res.Dests, res.Start, res.Conflict = checker.Violated, m.Dests, s, c
				return res, nil
			}
		}
	}
	return res, nil
}
