// Package subnetworks judges the network partitions of 001 (Wang, Tseng, Shiu & Sheu):
// the data-distributing networks (DDNs, Types I-IV) and data-collecting networks (DCNs)
// of a 2-D torus or mesh, built by algos/partition. Partition reports one family
// (`wormcheck partition`): its subnetworks, their node and link contention levels and
// properties P1-P5 with a picture; Levels, P1P5 and Connected are the static judges the
// entry's "partition" algorithm and the claims NP1-NP7 call.
package subnetworks

import (
	"fmt"
	"io"
	"strings"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
)

// Spec selects the data-distributing networks of 001: a 2-D torus or mesh, the
// DDN type (I..IV, Definitions 4-7), the dilation H and, for Type III, the shift Delta
// (0 means H/2).
type Spec struct {
	Topology string
	Type     string
	H, Delta int
}

// ReportSchema is the schema tag of partition's JSON object (docs/report.md).
const ReportSchema = "wormcheck-partition/1"

// Report is the result of Partition and the `partition --json` object: the
// subnetworks, their node and link contention levels (001 Definition 3) with a witness
// each, the DCNs' levels, and the verdict of every property (P1-P5, strong
// connectivity).
type Report struct {
	// Schema tags the JSON object: ReportSchema (docs/report.md).
	Schema      string            `json:"schema"`
	Version     string            `json:"version"`
	Command     string            `json:"command"`
	Topology    string            `json:"topology"`
	Type        string            `json:"type"`
	H           int               `json:"h"`
	Delta       int               `json:"delta,omitempty"`
	Subnetworks int               `json:"subnetworks"`
	DCNs        int               `json:"dcns"`
	NodeLevel   int               `json:"node_level"`
	LinkLevel   int               `json:"link_level"`
	NodeWitness string            `json:"node_witness"`
	LinkWitness string            `json:"link_witness"`
	DCNLevels   [2]int            `json:"dcn_levels"`
	Verdict     props.Verdict     `json:"verdict"`
	Properties  []partition.Check `json:"properties"`
	DDNs        []Subnetwork      `json:"ddns"`
	// Evidence is the partition: the DDNs and the DCN blocks, with the first violated
	// property marked (props/render draws it).
	Evidence *props.PartitionEvidence `json:"-"`
}

// Subnetwork describes one DDN for people and scripts.
type Subnetwork struct {
	Name        string   `json:"name"`
	Orientation string   `json:"orientation"`
	Members     []string `json:"members"`
	Channels    int      `json:"channels"`
}

// channelBytes is a lower bound on what Partition holds per channel of its network (the
// network, the DDNs' and DCNs' channel lists, the contention counts and the
// isomorphism checks' maps): measured at 150-290 bytes per channel on tori of 128x128
// to 512x512, every type and dilation.
const channelBytes = 128

// Bytes returns a lower bound on the memory Partition takes on the mesh or torus spec
// names, and its channel count, without building anything, so that a caller with a
// memory budget can refuse an instance that cannot fit; ok is false for a spec that is
// not a mesh or torus Parse accepts.
func Bytes(spec string) (bytes, channels int64, ok bool) {
	kind, _, _ := strings.Cut(strings.ToLower(strings.TrimSpace(spec)), ":")
	if kind != "mesh" && kind != "torus" {
		return 0, 0, false
	}
	_, _, channels, ok = topology.GridBytes(spec)
	return channels * channelBytes, channels, ok
}

// Partition builds the DDNs and DCNs of spec and judges their properties. Errors are bad
// input (props.ErrBadInput), one line naming the field.
func Partition(spec Spec) (*Report, error) {
	if spec.Type == "" {
		return nil, props.FieldErrorf("{Spec.Type} is missing; use I, II, III or IV")
	}
	if spec.H == 0 {
		return nil, props.FieldErrorf("{Spec.H} is missing; give the dilation, e.g. {Spec.H} 4")
	}
	if spec.Topology == "" {
		return nil, props.FieldErrorf("{Spec.Topology} is missing; e.g. {Spec.Topology} torus:16x16")
	}
	g, err := topology.Parse(spec.Topology)
	if err != nil {
		return nil, props.FieldErrorf("{Spec.Topology}: %v", err)
	}
	typ, err := partition.ParseType(spec.Type)
	if err != nil {
		return nil, props.FieldErrorf("{Spec.Type}: %v", err)
	}
	p := partition.Params{Type: typ, H: spec.H, Delta: spec.Delta}
	if typ == partition.TypeIII && p.Delta == 0 {
		p.Delta = max(1, spec.H/2)
	}
	ddns, err := partition.DDNs(g, p)
	if err != nil {
		return nil, props.BadInputf("%v", err)
	}
	dcns, err := partition.DCNs(g, p.H)
	if err != nil {
		return nil, props.BadInputf("%v", err)
	}
	pr := partition.CheckProperties(g, ddns, dcns, partition.IsoOptions{})
	rep := &Report{Schema: ReportSchema, Command: "partition", Topology: g.Spec(), Type: typ.String(), H: p.H, Delta: p.Delta,
		Subnetworks: len(ddns), DCNs: len(dcns), NodeLevel: pr.Levels.Node, LinkLevel: pr.Levels.Link,
		DCNLevels: [2]int{pr.DCNLevels.Node, pr.DCNLevels.Link}, Properties: pr.Checks, Verdict: props.Holds}
	if pr.Levels.NodeWitness != topology.None {
		rep.NodeWitness = g.NodeName(pr.Levels.NodeWitness)
	}
	if pr.Levels.LinkWitness != topology.None {
		rep.LinkWitness = g.ChannelName(pr.Levels.LinkWitness)
	}
	for _, c := range pr.Checks {
		switch {
		case c.Verdict == props.Violated:
			rep.Verdict = props.Violated
		case c.Verdict == props.Inconclusive && rep.Verdict == props.Holds:
			rep.Verdict = props.Inconclusive
		}
	}
	for _, s := range ddns {
		j := Subnetwork{Name: s.Name, Orientation: s.Orientation.String(), Channels: len(s.Channels)}
		for _, v := range s.Nodes {
			j.Members = append(j.Members, g.NodeName(v))
		}
		rep.DDNs = append(rep.DDNs, j)
	}
	ev := &props.PartitionEvidence{Title: fmt.Sprintf("DDN partition Type %s of %s, h=%d", rep.Type, rep.Topology, rep.H)}
	for _, c := range pr.Checks {
		if c.Verdict == props.Violated {
			// The first violated property is marked on the picture and named in its title.
			ev = violationEvidence(c, fmt.Sprintf("%s: %s %s", ev.Title, c.Property, c.Witness))
			break
		}
	}
	ev.Grid, ev.DDNs, ev.DCNs = g, evidenceSubnetworks(ddns), evidenceSubnetworks(dcns)
	rep.Evidence = ev
	return rep, nil
}

// evidenceSubnetworks converts subnetworks into the evidence's.
func evidenceSubnetworks(subs []partition.Subnetwork) []props.Subnetwork {
	out := make([]props.Subnetwork, len(subs))
	for i, s := range subs {
		out[i] = props.Subnetwork{Name: s.Name, Directed: s.Orientation != partition.Undirected, Nodes: s.Nodes, Channels: s.Channels}
	}
	return out
}

// SetVersion sets the tool version the JSON object names (props.Body).
func (r *Report) SetVersion(v string) { r.Version = v }

// WriteText writes Text to w (props.Body).
func (r *Report) WriteText(w io.Writer) { io.WriteString(w, r.Text()) }

// Text renders the report for people.
func (r *Report) Text() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s, Type %s, h=%d", r.Topology, r.Type, r.H)
	if r.Type == "III" {
		fmt.Fprintf(&b, ", delta=%d", r.Delta)
	}
	fmt.Fprintf(&b, ": %d DDNs, %d DCNs: %s\n", r.Subnetworks, r.DCNs, strings.ToUpper(r.Verdict.String()))
	fmt.Fprintf(&b, "  node contention level %d (e.g. %s), link contention level %d (e.g. %s)\n", r.NodeLevel, r.NodeWitness, r.LinkLevel, r.LinkWitness)
	fmt.Fprintf(&b, "  DCNs: node level %d, link level %d\n", r.DCNLevels[0], r.DCNLevels[1])
	for _, c := range r.Properties {
		fmt.Fprintf(&b, "  %-24s %s", c.Property, c.Verdict)
		if c.Witness != "" {
			fmt.Fprintf(&b, ": %s", c.Witness)
		}
		b.WriteByte('\n')
	}
	for _, s := range r.DDNs {
		members := s.Members
		more := ""
		if len(members) > 8 {
			members, more = members[:8], fmt.Sprintf(" ... (%d members)", len(s.Members))
		}
		fmt.Fprintf(&b, "  %-8s %-10s %4d channels  %s%s\n", s.Name, s.Orientation, s.Channels, strings.Join(members, " "), more)
	}
	return b.String()
}
