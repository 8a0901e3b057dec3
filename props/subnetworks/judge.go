package subnetworks

import (
	"context"
	"fmt"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// The static judges of one DDN family of 001: its contention levels against Table 1
// (Levels), properties P1-P5 (P1P5) and the strong connectivity of directed DDNs
// (Connected). Each fills one report whose stats count what it examined; the entry's
// "partition" algorithm calls them, and the claims NP1-NP7 run them over the sweep
// partition.Family lists.

// LevelWitness is the evidence of a Table 1 mismatch: the instance, the levels found and
// expected, and the node or channel that attains the offending level.
type LevelWitness struct {
	Topology  string `json:"topology"`
	Type      string `json:"type"`
	H         int    `json:"h"`
	Delta     int    `json:"delta,omitempty"`
	NodeLevel int    `json:"node_level"`
	LinkLevel int    `json:"link_level"`
	WantLink  string `json:"want_link_level"`
	Node      string `json:"node,omitempty"`
	Channel   string `json:"channel,omitempty"`
}

// PropertyWitness is the evidence of a failed (or undecided) property P1-P5.
type PropertyWitness struct {
	Topology string `json:"topology"`
	Type     string `json:"type"`
	H        int    `json:"h"`
	Delta    int    `json:"delta,omitempty"`
	Property string `json:"property"`
	Verdict  string `json:"verdict"`
	Detail   string `json:"detail"`
}

// ReachWitness is an unreachable member pair of a directed subnetwork.
type ReachWitness struct {
	Topology   string `json:"topology"`
	Type       string `json:"type"`
	H          int    `json:"h"`
	Delta      int    `json:"delta,omitempty"`
	Subnetwork string `json:"subnetwork"`
	From       string `json:"from"`
	To         string `json:"to"`
}

// TableLink returns 001 Table 1's link level for the type as twice its value (h/2 is
// fractional for odd h) and whether the lemma applies to h (Lemma 4 needs an even h).
func TableLink(typ partition.Type, h int) (twice int, applies bool) {
	switch typ {
	case partition.TypeI, partition.TypeIII:
		return 2, true
	case partition.TypeII:
		return 2 * h, true
	}
	return h, h%2 == 0
}

func halfString(twice int) string {
	if twice%2 == 0 {
		return fmt.Sprint(twice / 2)
	}
	return fmt.Sprintf("%d/2", twice)
}

// Levels judges the DDNs of p on g against 001 Table 1: node level 1 and the type's link
// level. It fills rep: verdict, stats (the subnetworks counted), figures node_level,
// link_level, table_link and lemma_applies (0 for Type IV with odd h, where Table 1's
// h/2 is no link count), and for a mismatch an instance witness (LevelWitness).
// Reference: 001 Definition 3, Table 1, Lemmas 1-4.
func Levels(g *topology.Network, p partition.Params, ddns []partition.Subnetwork, rep *props.Report) {
	l := partition.ComputeLevels(g, ddns)
	twice, applies := TableLink(p.Type, p.H)
	rep.Stats.Checked, rep.Stats.Unit = int64(len(ddns)), "subnetworks"
	rep.Figures = map[string]float64{"node_level": float64(l.Node), "link_level": float64(l.Link),
		"table_link": float64(twice) / 2, "lemma_applies": 0}
	if applies {
		rep.Figures["lemma_applies"] = 1
	}
	rep.Reason = fmt.Sprintf("node level %d, link level %d; Table 1: node level 1, link level %s", l.Node, l.Link, halfString(twice))
	if l.Node <= 1 && 2*l.Link == twice {
		return
	}
	w := &LevelWitness{Topology: g.Spec(), Type: p.Type.String(), H: p.H, Delta: p.Delta,
		NodeLevel: l.Node, LinkLevel: l.Link, WantLink: halfString(twice)}
	if l.Node > 1 {
		w.Node = g.NodeName(l.NodeWitness)
	} else {
		w.Channel = g.ChannelName(l.LinkWitness)
	}
	rep.Verdict = props.Violated
	what := fmt.Sprintf("link level %d, want %s (channel %s)", w.LinkLevel, w.WantLink, w.Channel)
	if w.Node != "" {
		what = fmt.Sprintf("node level %d, want 1 (node %s)", w.NodeLevel, w.Node)
	}
	if !applies {
		what += "; Lemma 4 needs an even h"
	}
	rep.Witness = &props.Witness{Kind: props.WitnessInstance, Violation: what, Detail: w}
	rep.Text = what
	// The picture marks every node and channel above Table 1's level.
	opt := &props.PartitionEvidence{Title: what, Violated: true}
	for v, n := range l.NodeCount {
		if n > 1 {
			opt.Pair = append(opt.Pair, topology.NodeID(v))
		}
	}
	if len(opt.Pair) > 0 {
		opt.Caption = "a node in more than one DDN"
	}
	for c, n := range l.LinkCount {
		if 2*n > twice {
			opt.HotChannels = append(opt.HotChannels, topology.ChannelID(c))
		}
	}
	rep.Evidence = partitionEvidence(g, p, ddns, opt)
}

// partitionEvidence completes ev with ddns and the DCN blocks of p on g; nil when the
// DCNs cannot be built.
func partitionEvidence(g *topology.Network, p partition.Params, ddns []partition.Subnetwork, ev *props.PartitionEvidence) props.Evidence {
	dcns, err := partition.DCNs(g, p.H)
	if err != nil {
		return nil
	}
	ev.Grid, ev.DDNs, ev.DCNs = g, evidenceSubnetworks(ddns), evidenceSubnetworks(dcns)
	return ev
}

// violationEvidence returns the evidence that marks check c's witness: VIOLATED and
// what in the title, its nodes ringed, its channels and subnetworks marked.
func violationEvidence(c partition.Check, what string) *props.PartitionEvidence {
	opt := &props.PartitionEvidence{Title: what, Violated: true, Pair: c.Nodes, HotChannels: c.Channels, HotSubnetworks: c.Subnetworks}
	if len(c.Nodes) > 0 {
		opt.Caption = "a node the violation names"
	}
	return opt
}

// P1P5 judges properties P1 (tolerance 1), P2, P3, P4 and P5 of 001 §2.3 on the DDNs of
// p and the DCNs of g. The verdict is violated when one fails, inconclusive when one is
// undecided (a bounded isomorphism search), else holds; figures violated_checks and
// inconclusive_checks count them, and the witness is the first failing (else undecided)
// property as a PropertyWitness. When ctx ends during the isomorphism checks (P4, P5)
// the undecided ones are inconclusive and say so.
func P1P5(ctx context.Context, g *topology.Network, p partition.Params, ddns []partition.Subnetwork, rep *props.Report) error {
	dcns, err := partition.DCNs(g, p.H)
	if err != nil {
		return props.BadInputf("%v", err)
	}
	checks := []partition.Check{
		partition.CheckP1(g, ddns, 1), partition.CheckP2(g, dcns), partition.CheckP3(ddns, dcns),
		partition.CheckIsomorphic("P4", g, ddns, partition.IsoOptions{Context: ctx}), partition.CheckIsomorphic("P5", g, dcns, partition.IsoOptions{Context: ctx}),
	}
	rep.Stats.Checked, rep.Stats.Unit = int64(len(checks)), "properties"
	var bad, undecided int
	var first *partition.Check
	for i, c := range checks {
		switch c.Verdict {
		case props.Violated:
			bad++
			if first == nil || first.Verdict != props.Violated {
				first = &checks[i]
			}
		case props.Inconclusive:
			undecided++
			if first == nil {
				first = &checks[i]
			}
		}
	}
	rep.Figures = map[string]float64{"violated_checks": float64(bad), "inconclusive_checks": float64(undecided)}
	rep.Reason = fmt.Sprintf("P1-P5: %d violated, %d undecided", bad, undecided)
	if first == nil {
		return nil
	}
	rep.Verdict = props.Inconclusive
	if bad > 0 {
		rep.Verdict = props.Violated
	}
	w := &PropertyWitness{Topology: g.Spec(), Type: p.Type.String(), H: p.H, Delta: p.Delta,
		Property: first.Property, Verdict: first.Verdict.String(), Detail: first.Witness}
	rep.Witness = &props.Witness{Kind: props.WitnessInstance, Violation: first.Property + ": " + first.Witness, Detail: w}
	rep.Text = rep.Witness.Violation
	if first.Verdict == props.Violated {
		rep.Evidence = partitionEvidence(g, p, ddns, violationEvidence(*first, rep.Text))
	}
	return nil
}

// Connected judges that every DDN of p is strongly connected under its own channels
// (001 §3.1; §3.2 for meshes, where directed DDNs are not). Stats count the subnetworks;
// the figure multi_member is 1 when the DDNs have more than one member. The witness of
// a violation is the first unreachable member pair (ReachWitness), with the DDN as evidence.
// When ctx ends between two DDNs the verdict is inconclusive and the stats count the
// DDNs judged.
func Connected(ctx context.Context, g *topology.Network, p partition.Params, ddns []partition.Subnetwork, rep *props.Report) {
	rep.Stats.Checked, rep.Stats.Unit = int64(len(ddns)), "subnetworks"
	rep.Figures = map[string]float64{"multi_member": 0}
	if len(ddns) > 0 && len(ddns[0].Nodes) > 1 {
		rep.Figures["multi_member"] = 1
	}
	rep.Reason = "every DDN is strongly connected"
	for k, s := range ddns {
		if ctx.Err() != nil {
			rep.Verdict, rep.Stats.Checked = props.Inconclusive, int64(k)
			rep.Reason = fmt.Sprintf("stopped (%v) after %d of %d DDNs, all strongly connected", context.Cause(ctx), k, len(ddns))
			return
		}
		reach := partition.StronglyConnected(g, s)
		if reach.Connected {
			continue
		}
		w := &ReachWitness{Topology: g.Spec(), Type: p.Type.String(), H: p.H, Delta: p.Delta,
			Subnetwork: s.Name, From: g.NodeName(reach.From), To: g.NodeName(reach.To)}
		what := fmt.Sprintf("%s cannot reach %s in %s of %s", w.From, w.To, w.Subnetwork, w.Topology)
		rep.Verdict, rep.Reason, rep.Text = props.Violated, what, what
		rep.Witness = &props.Witness{Kind: props.WitnessInstance, Violation: what, Detail: w}
		var pair []topology.NodeID
		if reach.From != reach.To {
			pair = []topology.NodeID{reach.From, reach.To}
		}
		rep.Evidence = partitionEvidence(g, p, ddns[k:k+1], &props.PartitionEvidence{Title: what, Pair: pair, Caption: what, Violated: true, HotSubnetworks: []string{s.Name}})
		return
	}
}
