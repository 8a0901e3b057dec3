package banyan

import (
	"context"
	"fmt"
	"iter"
	"math/bits"
	"strings"

	"github.com/wormcheck/wormcheck/model/topology"
)

// Order is the monotonicity of Property 1: destinations ascending or descending in the
// order of the (consecutive) sources.
type Order int

// The orders of Property 1.
const (
	Ascending Order = iota
	Descending
	AnyOrder // not monotone: destinations in any order (a family that must block)
)

var orderNames = [...]string{"ascending", "descending", "any"}

// String names the order.
func (o Order) String() string {
	if o >= 0 && int(o) < len(orderNames) {
		return orderNames[o]
	}
	return fmt.Sprintf("Order(%d)", int(o))
}

// Concentration is how the active sources of a pattern are placed.
type Concentration int

// The concentrations: Plain is 002 Property 1's "any source between two active sources
// is also active" (sources x..x+k-1 with x+k-1 <= N-1); Cyclic also admits sources
// consecutive modulo N (x, x+1, ..., N-1, 0, 1, ...), as a wrapping phase 2 would use;
// Scattered admits any set of distinct sources (a family that must block).
const (
	Plain Concentration = iota
	Cyclic
	Scattered
)

var concNames = [...]string{"plain", "cyclic", "scattered"}

// String names the concentration.
func (c Concentration) String() string {
	if c >= 0 && int(c) < len(concNames) {
		return concNames[c]
	}
	return fmt.Sprintf("Concentration(%d)", int(c))
}

// ParseOrder and ParseConcentration read the names of String.
func ParseOrder(s string) (Order, error) {
	for i, n := range orderNames {
		if n == s {
			return Order(i), nil
		}
	}
	return 0, fmt.Errorf("order %q: use ascending, descending or any", s)
}

// ParseConcentration reads plain, cyclic or scattered.
func ParseConcentration(s string) (Concentration, error) {
	for i, n := range concNames {
		if n == s {
			return Concentration(i), nil
		}
	}
	return 0, fmt.Errorf("concentration %q: use plain, cyclic or scattered", s)
}

// MonotonePatterns enumerates every unicast pattern of Property 1 on N nodes with the
// given order and concentration (Plain or Cyclic): k = 1..N active sources x, x+1, ...,
// x+k-1 (mod N when Cyclic; each cyclic start once, so a full pattern appears N times,
// once per starting source) and k distinct destinations, sorted in the given order and
// assigned to the sources in turn. There are sum_k C(N,k) * starts(k) patterns, so this
// is for N <= 16; Property1ByPairs decides the same question for larger N. The yielded
// slice is reused.
//
// Reference: 002 Property 1.
func MonotonePatterns(size int, order Order, conc Concentration) iter.Seq[[]topology.BanyanPacket] {
	return func(yield func([]topology.BanyanPacket) bool) {
		buf := make([]topology.BanyanPacket, 0, size)
		dests := make([]int, 0, size)
		for mask := uint64(1); mask < 1<<uint(size); mask++ {
			dests = dests[:0]
			for m := mask; m != 0; m &= m - 1 {
				dests = append(dests, bits.TrailingZeros64(m))
			}
			if order == Descending {
				for i, j := 0, len(dests)-1; i < j; i, j = i+1, j-1 {
					dests[i], dests[j] = dests[j], dests[i]
				}
			}
			k := len(dests)
			starts := size - k + 1
			if conc == Cyclic {
				starts = size
			}
			for x := 0; x < starts; x++ {
				buf = buf[:0]
				for l, d := range dests {
					buf = append(buf, topology.BanyanPacket{Source: (x + l) % size, Dest: topology.UnicastTag(d)})
				}
				if !yield(buf) {
					return
				}
			}
		}
	}
}

// PairResult is the outcome of Property1ByPairs: the pairs examined and, if one blocks,
// a full monotone pattern containing it (the witness) with its conflict.
type PairResult struct {
	Pairs    int64                   `json:"pairs"`
	Pattern  []topology.BanyanPacket `json:"pattern,omitempty"`
	Conflict *topology.LinkConflict  `json:"conflict,omitempty"`
}

// fillDest returns the l-th smallest node other than y and y2 (l >= 1): the filler
// destinations of an AnyOrder witness.
func fillDest(n, y, y2, l int) int {
	for d := 0; d < n; d++ {
		if d == y || d == y2 {
			continue
		}
		if l--; l == 0 {
			return d
		}
	}
	return -1
}

// Property1ByPairs decides whether every monotone pattern of the given order and
// concentration is nonblocking, in O(N^4) pair checks instead of O(N 2^N) patterns.
//
// Why pairs suffice (our argument; the paper gives none): a pattern blocks exactly when
// two of its packets share a link (blocking is a pairwise relation). The packets at
// source positions a < b = a+j of a monotone pattern have destinations with
// |y_b - y_a| >= j, because the j-1 packets between them have distinct destinations
// strictly between y_a and y_b. Conversely any pair of sources (x, x+j) (mod N when
// Cyclic, x+j <= N-1 when Plain) and destinations with y' - y >= j (ascending) or
// y - y' >= j (descending) extends to a full monotone concentrated pattern: sources
// x..x+j, destinations y, y±1, ..., y±(j-1), y'. So the family is nonblocking if and
// only if no such pair conflicts. The witness is that extension, re-checked with the
// naive topology.Banyan.FirstConflict.
//
// The families that drop a condition are searched the same way, so that the check is
// seen to fail where it should: AnyOrder (distinct destinations in any order; every pair
// of distinct destinations extends) and Scattered (any two distinct sources, taken as a
// two-packet pattern).
//
// It watches ctx once per N pair checks and returns ctx's error with the pairs checked
// so far when ctx ends.
func Property1ByPairs(ctx context.Context, t *PathTable, order Order, conc Concentration) (PairResult, error) {
	var res PairResult
	n := t.n
	for x := 0; x < n; x++ {
		for step := 1; step < n; step++ {
			x2, j := x+step, step
			if x2 >= n {
				if conc == Plain {
					break
				}
				x2 -= n
			}
			if conc == Scattered {
				// Any two distinct sources, adjacent in a two-packet pattern.
				j = 1
			}
			for y := 0; y < n; y++ {
				if err := ctx.Err(); err != nil {
					return res, err
				}
				lo, hi := y+j, n-1
				switch order {
				case Descending:
					lo, hi = 0, y-j
				case AnyOrder:
					lo, hi = 0, n-1
				}
				for y2 := lo; y2 <= hi; y2++ {
					if y2 == y {
						continue
					}
					res.Pairs++
					if !t.Conflict(x, y, x2, y2) {
						continue
					}
					pat := make([]topology.BanyanPacket, 0, j+1)
					dir := 1
					if order == Descending {
						dir = -1
					}
					for l := 0; l < j; l++ {
						d := y + l*dir
						if order == AnyOrder && l > 0 {
							d = fillDest(n, y, y2, l)
						}
						pat = append(pat, topology.BanyanPacket{Source: (x + l) % n, Dest: topology.UnicastTag(d)})
					}
					pat = append(pat, topology.BanyanPacket{Source: x2, Dest: topology.UnicastTag(y2)})
					c, err := t.b.FirstConflict(pat)
					if err != nil {
						return res, err
					}
					if c == nil {
						return res, fmt.Errorf("pair %d->%d, %d->%d conflicts in the path table but its pattern passes the naive check", x, y, x2, y2)
					}
					res.Pattern, res.Conflict = pat, c
					return res, nil
				}
			}
		}
	}
	return res, nil
}

// ParsePattern reads a pattern of packets written "0->3,1->5,2->4-7": packets separated
// by ',' (or ';'), each a source, "->", and a destination (unicast tag) or a range lo-hi
// (region header). Every node must be in 0..size-1 and every range non-empty.
func ParsePattern(spec string, size int) ([]topology.BanyanPacket, error) {
	spec = strings.ReplaceAll(spec, ";", ",")
	if strings.TrimSpace(spec) == "" {
		return nil, fmt.Errorf("pattern is empty; give packets such as \"0->3,1->5,2->4-7\"")
	}
	var out []topology.BanyanPacket
	for i, part := range strings.Split(spec, ",") {
		src, dst, ok := strings.Cut(strings.TrimSpace(part), "->")
		if !ok {
			return nil, fmt.Errorf("pattern packet %d %q: want SOURCE->DEST or SOURCE->LO-HI", i+1, part)
		}
		s, err := parseNode(src, size)
		if err != nil {
			return nil, fmt.Errorf("pattern packet %d source: %v", i+1, err)
		}
		lo, hi, isRange := strings.Cut(dst, "-")
		a, err := parseNode(lo, size)
		if err != nil {
			return nil, fmt.Errorf("pattern packet %d destination: %v", i+1, err)
		}
		b := a
		if isRange {
			if b, err = parseNode(hi, size); err != nil {
				return nil, fmt.Errorf("pattern packet %d destination: %v", i+1, err)
			}
			if b < a {
				return nil, fmt.Errorf("pattern packet %d: range %q is empty", i+1, dst)
			}
		}
		out = append(out, topology.BanyanPacket{Source: s, Dest: topology.Region{Min: a, Max: b}})
	}
	return out, nil
}

// FormatPattern writes a pattern as ParsePattern reads it: "SRC->DST" for a unicast,
// "SRC->MIN-MAX" for a region, comma-separated.
func FormatPattern(pat []topology.BanyanPacket) string {
	parts := make([]string, len(pat))
	for i, p := range pat {
		if p.Dest.Min == p.Dest.Max {
			parts[i] = fmt.Sprintf("%d->%d", p.Source, p.Dest.Min)
		} else {
			parts[i] = fmt.Sprintf("%d->%d-%d", p.Source, p.Dest.Min, p.Dest.Max)
		}
	}
	return strings.Join(parts, ",")
}

// FigStartCombinations is the figure of a two-phase deadlock report that counts the
// initial states searched: one per combination of phase-1 starts (one when the starts
// are fixed).
const FigStartCombinations = "start_combinations"
