package topology

import "fmt"

// Region is the routing header of the region-encoding scheme of 002 §2.2: a packet
// carrying Region{Min, Max} is delivered to every node y with Min <= y <= Max. A unicast
// tag to node d is the degenerate region {d, d}, so one header format serves both.
//
// Reference: 002 §2.2 (region encoding, after [5], as in NEC Cenju-3).
type Region struct {
	Min int `json:"min"`
	Max int `json:"max"`
}

// UnicastTag returns the tag of a unicast to node d: the region {d, d}.
func UnicastTag(d int) Region { return Region{d, d} }

// Size returns the number of nodes in the region, Max-Min+1.
func (r Region) Size() int { return r.Max - r.Min + 1 }

// Contains reports whether node y lies in the region.
func (r Region) Contains(y int) bool { return r.Min <= y && y <= r.Max }

// String renders the region as "[min,max]".
func (r Region) String() string { return fmt.Sprintf("[%d,%d]", r.Min, r.Max) }

// CheckRegion validates a header for this banyan: 0 <= Min <= Max <= N-1.
func (b *Banyan) CheckRegion(r Region) error {
	switch {
	case r.Min < 0 || r.Min >= b.size:
		return fmt.Errorf("region %v: min %d is not a node of banyan:%d", r, r.Min, b.size)
	case r.Max < 0 || r.Max >= b.size:
		return fmt.Errorf("region %v: max %d is not a node of banyan:%d", r, r.Max, b.size)
	case r.Min > r.Max:
		return fmt.Errorf("region %v: min %d exceeds max %d", r, r.Min, r.Max)
	}
	return nil
}

// RegionStep applies the SE rule of 002 §2.2 at stage i to a packet whose header (as it
// left stage i+1) is h. It returns the output ports used as a mask (bit p set = port p;
// 1 upper only, 2 lower only, 3 replicate) and the header each copy carries out of the
// SE: out[p] is meaningful only when bit p of the mask is set.
//
// The rule, re-derived from the definitions because the extracted formulas are garbled:
// route on bits m_i of min and M_i of max. m_i = M_i = b sends the packet unchanged on
// port b. m_i = 0, M_i = 1 replicates it; the copy on port 0 keeps min and gets
// max = M_{n-1}..M_{i+1} 0 1..1 (the largest address below the split), the copy on port 1
// keeps max and gets min = m_{n-1}..m_{i+1} 1 0..0 (the smallest address above it). The
// rule presumes m_i' = M_i' for every i' > i, which the recursion keeps true from a valid
// header at stage n-1 on; m_i = 1, M_i = 0 cannot then occur (it would mean min > max).
//
// Reference: 002 §2.2.
func (b *Banyan) RegionStep(i int, h Region) (ports int, out [2]Region) {
	mi := (h.Min >> i) & 1
	Mi := (h.Max >> i) & 1
	switch {
	case mi == Mi:
		out[mi] = h
		return 1 << mi, out
	default: // mi = 0, Mi = 1 (mi = 1, Mi = 0 is excluded by min <= max with equal prefixes)
		low := (1 << i) - 1
		prefix := h.Max &^ ((1 << (i + 1)) - 1)
		out[0] = Region{h.Min, prefix | low}
		out[1] = Region{prefix | 1<<i, h.Max}
		return 3, out
	}
}

// TreeLink is one channel of a region-routed packet's tree: the channel, the index of
// its parent in the tree (-1 for the injection channel), the header the packet carries on
// it and, for a stage input, the output ports the SE uses (0 for an external output).
type TreeLink struct {
	Channel ChannelID
	Parent  int
	Header  Region
	Ports   int
	// Children are the indices of the links the SE feeds from this one (0, 1 or 2 of them;
	// Children[k] is valid for k < NumChildren), in port order.
	Children    [2]int
	NumChildren int
}

// RegionTree returns the set of channels a packet from node src with header h occupies:
// a tree rooted at the injection channel, listed in breadth-first order (parents before
// children, stage n-1 first, external outputs last within each branch depth). Each branch
// applies RegionStep at every stage. Cost O(n * |h|).
//
// Reference: 002 §2.2, Fig. 2 (missing; reconstructed from the rules).
func (b *Banyan) RegionTree(src int, h Region) ([]TreeLink, error) {
	if src < 0 || src >= b.size {
		return nil, fmt.Errorf("source %d is not a node of banyan:%d", src, b.size)
	}
	if err := b.CheckRegion(h); err != nil {
		return nil, err
	}
	tree := []TreeLink{{Channel: b.Injection(src), Parent: -1, Header: h}}
	for k := 0; k < len(tree); k++ {
		s, a := b.Link(tree[k].Channel)
		if s < 0 {
			continue
		}
		ports, out := b.RegionStep(s, tree[k].Header)
		tree[k].Ports = ports
		for p := 0; p < 2; p++ {
			if ports&(1<<p) == 0 {
				continue
			}
			tree[k].Children[tree[k].NumChildren] = len(tree)
			tree[k].NumChildren++
			tree = append(tree, TreeLink{Channel: b.Out(s, a>>1, p), Parent: k, Header: out[p]})
		}
	}
	return tree, nil
}

// RegionDestinations returns the nodes a packet from src with header h reaches, in
// ascending order: the external output links at the leaves of its tree.
func (b *Banyan) RegionDestinations(src int, h Region) ([]int, error) {
	tree, err := b.RegionTree(src, h)
	if err != nil {
		return nil, err
	}
	var out []int
	for _, l := range tree {
		if s, y := b.Link(l.Channel); s < 0 {
			out = append(out, y)
		}
	}
	sortInts(out)
	return out, nil
}

// UnicastPath returns the channels of a unicast from src to dst as the unicast tag
// {dst, dst} routes it; it equals Route(src, dst).
func (b *Banyan) UnicastPath(src, dst int) []ChannelID { return b.Route(src, dst) }

// InputLabelAt returns the label of the stage-i input link a packet from src with
// destination prefix d (only bits n-1..i+1 of d matter) enters: d_{n-1}..d_{i+1}
// s_{i-1}..s_0 s_i. The proof of 002 Theorem 2 states this formula; with the wiring of
// Definition 1 as reconstructed in Banyan it follows by induction on the stage
// (TestInputLabelAt checks it). In particular bit 0, the SE input port, is s_i: the port
// a packet arrives on depends only on its source.
func (b *Banyan) InputLabelAt(i, src, d int) int {
	hi := d &^ ((1 << (i + 1)) - 1)
	low := (src & ((1 << i) - 1)) << 1
	return hi | low | (src>>i)&1
}

func sortInts(a []int) {
	for i := 1; i < len(a); i++ {
		for j := i; j > 0 && a[j] < a[j-1]; j-- {
			a[j], a[j-1] = a[j-1], a[j]
		}
	}
}
