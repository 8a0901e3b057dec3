package partition

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Check is the verdict on one property of a DDN/DCN family, with a witness for people
// when it does not hold (the node, channel or pair that breaks it), and the same witness
// as values for pictures: the nodes, channels and subnetworks (by name) it names.
type Check struct {
	Property    string               `json:"property"`
	Verdict     checker.Verdict      `json:"verdict"`
	Witness     string               `json:"witness,omitempty"`
	Nodes       []topology.NodeID    `json:"-"`
	Channels    []topology.ChannelID `json:"-"`
	Subnetworks []string             `json:"-"`
}

// at returns c with its witness's nodes, channels and subnetworks.
func (c Check) at(nodes []topology.NodeID, chans []topology.ChannelID, subs ...string) Check {
	c.Nodes, c.Channels, c.Subnetworks = nodes, chans, subs
	return c
}

func holds(p string) Check { return Check{Property: p, Verdict: checker.Holds} }

func violated(p, format string, args ...any) Check {
	return Check{Property: p, Verdict: checker.Violated, Witness: fmt.Sprintf(format, args...)}
}

// CheckP1 judges P1 of 001 §2.3: the DDNs together incur about the same level of node
// contention on every node and about the same level of link contention on every link.
// "About the same" is made precise as: the per-node membership counts span at most
// tolerance, and so do the per-channel counts (tolerance 1 admits Type I and III, where
// some nodes are in no DDN, and Type IV with odd h).
func CheckP1(t topology.Topology, ddns []Subnetwork, tolerance int) Check {
	l := ComputeLevels(t, ddns)
	if d := l.Node - l.MinNode; d > tolerance {
		v := minIndex(l.NodeCount)
		return violated("P1", "node %s is in %d DDNs but node %s in %d (spread %d > %d)",
			t.NodeName(l.NodeWitness), l.Node, t.NodeName(topology.NodeID(v)), l.MinNode, d, tolerance).at([]topology.NodeID{l.NodeWitness, topology.NodeID(v)}, nil)
	}
	if d := l.Link - l.MinLink; d > tolerance {
		c := minIndex(l.LinkCount)
		return violated("P1", "channel %s is in %d DDNs but channel %s in %d (spread %d > %d)",
			t.ChannelName(l.LinkWitness), l.Link, t.ChannelName(topology.ChannelID(c)), l.MinLink, d, tolerance).at(nil, []topology.ChannelID{l.LinkWitness, topology.ChannelID(c)})
	}
	return holds("P1")
}

func minIndex(xs []int) int {
	best := 0
	for i, x := range xs {
		if x < xs[best] {
			best = i
		}
	}
	return best
}

// CheckP2 judges P2: the DCNs are pairwise disjoint and together contain every node. The
// witness is a node in two DCNs or in none.
func CheckP2(t topology.Topology, dcns []Subnetwork) Check {
	owner := make([]int, t.Nodes())
	for i := range owner {
		owner[i] = -1
	}
	for k, d := range dcns {
		for _, v := range d.Nodes {
			if owner[v] >= 0 {
				return violated("P2", "node %s is in both %s and %s", t.NodeName(v), dcns[owner[v]].Name, d.Name).at([]topology.NodeID{v}, nil, dcns[owner[v]].Name, d.Name)
			}
			owner[v] = k
		}
	}
	for v, o := range owner {
		if o < 0 {
			return violated("P2", "node %s is in no DCN", t.NodeName(topology.NodeID(v))).at([]topology.NodeID{topology.NodeID(v)}, nil)
		}
	}
	return holds("P2")
}

// CheckP3 judges P3: every DDN shares at least one member node with every DCN. The
// witness is the first (DDN, DCN) pair that meets nowhere. Cost O(sum of sizes + the
// number of DDN x DCN pairs): each DDN's members are bucketed by the DCN that holds them.
func CheckP3(ddns, dcns []Subnetwork) Check {
	owner := dcnOwners(dcns)
	hit := make([]bool, len(dcns))
	for _, a := range ddns {
		clear(hit)
		for _, v := range a.Nodes {
			if int(v) < len(owner) {
				for _, k := range owner[v] {
					hit[k] = true
				}
			}
		}
		for k, ok := range hit {
			if !ok {
				return violated("P3", "%s and %s share no node", a.Name, dcns[k].Name).at(nil, nil, a.Name, dcns[k].Name)
			}
		}
	}
	return holds("P3")
}

// dcnOwners lists, for every node id up to the largest member, the DCNs holding it.
func dcnOwners(dcns []Subnetwork) [][]int32 {
	top := -1
	for _, d := range dcns {
		if n := len(d.Nodes); n > 0 {
			top = max(top, int(d.Nodes[n-1]))
		}
	}
	owner := make([][]int32, top+1)
	for k, d := range dcns {
		for _, v := range d.Nodes {
			owner[v] = append(owner[v], int32(k))
		}
	}
	return owner
}

// CheckIsomorphic judges P4 (for DDNs) or P5 (for DCNs): every subnetwork is isomorphic
// to the first one (isomorphism is an equivalence, so that suffices). An inconclusive
// search makes the check inconclusive, never holds; so does opt.Context ending, which is
// looked at before each pair.
func CheckIsomorphic(name string, g *topology.Network, subs []Subnetwork, opt IsoOptions) Check {
	out := holds(name)
	for _, s := range subs[min(1, len(subs)):] {
		if opt.Context != nil && opt.Context.Err() != nil {
			return Check{Property: name, Verdict: checker.Inconclusive, Witness: fmt.Sprintf("stopped (%v) before %s", context.Cause(opt.Context), s.Name)}
		}
		r := Isomorphic(g, subs[0], s, opt)
		switch r.Verdict {
		case checker.Violated:
			return violated(name, "%s and %s are not isomorphic (%s: %s)", subs[0].Name, s.Name, r.Via, r.Reason).at(nil, nil, subs[0].Name, s.Name)
		case checker.Inconclusive:
			out = Check{Property: name, Verdict: checker.Inconclusive, Witness: fmt.Sprintf("%s and %s: %s", subs[0].Name, s.Name, r.Reason)}
		}
	}
	return out
}

// CheckConnected judges that every subnetwork is strongly connected under its own
// channels; the witness is an unreachable member pair.
func CheckConnected(name string, g *topology.Network, subs []Subnetwork) Check {
	for _, s := range subs {
		if r := StronglyConnected(g, s); !r.Connected {
			return violated(name, "in %s, %s cannot reach %s", s.Name, g.NodeName(r.From), g.NodeName(r.To)).at([]topology.NodeID{r.From, r.To}, nil, s.Name)
		}
	}
	return holds(name)
}

// Properties is the full judgement of a DDN/DCN family.
type Properties struct {
	Levels    Levels
	DCNLevels Levels
	Checks    []Check // P1, P2, P3, P4, P5, DDN strong connectivity, DCN strong connectivity
}

// CheckProperties computes the contention levels of the DDNs and DCNs and judges P1-P5
// and strong connectivity (P1 with tolerance 1).
//
// Reference: 001 §2.3 P1-P5, §3.1, Definition 3.
func CheckProperties(g *topology.Network, ddns, dcns []Subnetwork, opt IsoOptions) Properties {
	return Properties{
		Levels:    ComputeLevels(g, ddns),
		DCNLevels: ComputeLevels(g, dcns),
		Checks: []Check{
			CheckP1(g, ddns, 1),
			CheckP2(g, dcns),
			CheckP3(ddns, dcns),
			CheckIsomorphic("P4", g, ddns, opt),
			CheckIsomorphic("P5", g, dcns, opt),
			CheckConnected("DDN strongly connected", g, ddns),
			CheckConnected("DCN strongly connected", g, dcns),
		},
	}
}
