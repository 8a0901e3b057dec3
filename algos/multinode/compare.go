package multinode

import (
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/model"
)

// Row is one scheme of a comparison: its name ("U-torus" or e.g. "4IIIB" in §4.4's
// notation: h, type, B for load balancing in Phase 1) and Check's figures.
type Row struct {
	Scheme   string `json:"scheme"`
	Unicasts int    `json:"unicasts"`
	Result
	// Props is package props' opinion of the same schedule.
	Props PropsVerdicts `json:"props"`
	// ContendedGroups counts the multicasts Check finds stepwise contended (to set beside
	// Props.StepwiseGroups).
	ContendedGroups int `json:"contended_groups"`
	// VCContendedGroups and VCCrossPairs are the same judgement per virtual channel, with
	// the two classes of 004 Fig. 2 that U-torus is designed around
	// (model.Grid.WrapAheadClasses): worms contend only in the same class.
	VCContendedGroups int `json:"vc_contended_groups"`
	VCCrossPairs      int `json:"vc_cross_pairs"`
}

// Valid reports whether the schedule was valid and every multicast stepwise
// contention-free.
func (r Row) Valid() bool { return r.Invalid == "" && r.Contended == nil }

// SchemeName renders §4.4's "HT[B]" name of a partitioned scheme.
func SchemeName(p partition.Params, sel Selection) string {
	name := fmt.Sprintf("%d%v", p.H, p.Type)
	if p.Type == partition.TypeIII {
		name += fmt.Sprintf("(δ=%d)", p.Delta)
	}
	switch sel {
	case Centralised:
		name += "B"
	case Random:
		name += "R"
	}
	return name
}

// Compare builds plain U-torus (SPU on a mesh) and the three-phase scheme for each of
// the given partitions on the same instance, checks all of them and returns one row each.
// Selection Own applies to Types II and IV; the other types fall back to Centralised.
//
// Reference: 001 §4.4 (the comparison against U-torus), here counted on the schedules:
// contending unicast pairs between multicasts, node conflicts, the largest channel load
// in a step, and the number of steps.
func Compare(in Instance, parts []partition.Params, sel Selection, seed uint64) ([]Row, error) {
	base, err := PlainUTorus(in, UTorus)
	if err != nil {
		return nil, err
	}
	dests := make([][]model.NodeID, len(in.Multicasts))
	for i, mc := range in.Multicasts {
		dests[i] = mc.Dests
	}
	name := "U-torus"
	if in.Grid.Kind() == model.Mesh {
		name = "SPU"
	}
	rows := []Row{row(in.Grid, name, base, dests)}
	for _, p := range parts {
		ps := sel
		if ps == Own && (p.Type == partition.TypeI || p.Type == partition.TypeIII) {
			ps = Centralised
		}
		plan, err := Build(in, Options{Partition: p, Select: ps, Seed: seed})
		if err != nil {
			return nil, err
		}
		rows = append(rows, row(in.Grid, SchemeName(p, ps), plan.Schedule, plan.Dests))
	}
	return rows, nil
}

// row checks one schedule with Check (per physical channel and per virtual channel) and
// with package props.
func row(g *model.Grid, name string, s model.Schedule, dests [][]model.NodeID) Row {
	r := Row{Scheme: name, Unicasts: len(s.Unicasts), Result: Check(g, s, dests), Props: VerifyWithProps(s)}
	r.ContendedGroups = contendedGroups(g, s, dests)
	if vc, err := s.WithWrapAheadClasses(); err == nil {
		r.VCCrossPairs = Check(g, *vc, dests).CrossPairs
		r.VCContendedGroups = contendedGroups(g, *vc, dests)
	}
	return r
}

// contendedGroups counts the multicasts whose own unicasts are not stepwise
// contention-free.
func contendedGroups(g *model.Grid, s model.Schedule, dests [][]model.NodeID) int {
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

// Table renders rows as a Markdown table.
func Table(rows []Row) string {
	var b strings.Builder
	b.WriteString("| scheme | valid | per-multicast CF | props: validity / exactly-once / contended multicasts | contended multicasts per VC | steps | unicasts | channel-hops | contending pairs between multicasts | same, per VC | node conflicts | max channel load |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		valid := "yes"
		if r.Invalid != "" {
			valid = "no: " + r.Invalid
		}
		cf := "yes"
		if r.Contended != nil {
			cf = fmt.Sprintf("no: %d multicasts, %d pairs; e.g. step %d %s and %s on %s", r.ContendedGroups, r.ContendedPairs, r.Contended.Step, r.Contended.First, r.Contended.Second, r.Contended.ChannelName)
		}
		pv := fmt.Sprintf("%s / %s / %d", r.Props.Validity, r.Props.ExactlyOnce, r.Props.StepwiseGroups)
		if r.Props.Refused != "" {
			pv = "refused by model.Schedule.Check"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %d | %d | %d | %d | %d | %d | %d | %d |\n", r.Scheme, valid, cf, pv, r.VCContendedGroups, r.Steps, r.Unicasts, r.Hops, r.CrossPairs, r.VCCrossPairs, r.NodeConflicts, r.MaxLoad)
	}
	return b.String()
}
