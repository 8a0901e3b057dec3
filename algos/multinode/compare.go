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
	rows := []Row{{Scheme: name, Unicasts: len(base.Unicasts), Result: Check(in.Grid, base, dests)}}
	for _, p := range parts {
		ps := sel
		if ps == Own && (p.Type == partition.TypeI || p.Type == partition.TypeIII) {
			ps = Centralised
		}
		plan, err := Build(in, Options{Partition: p, Select: ps, Seed: seed})
		if err != nil {
			return nil, err
		}
		rows = append(rows, Row{Scheme: SchemeName(p, ps), Unicasts: len(plan.Schedule.Unicasts), Result: Check(in.Grid, plan.Schedule, plan.Dests)})
	}
	return rows, nil
}

// Table renders rows as a Markdown table.
func Table(rows []Row) string {
	var b strings.Builder
	b.WriteString("| scheme | valid | per-multicast CF | steps | unicasts | channel-hops | contending pairs between multicasts | node conflicts | max channel load |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rows {
		valid := "yes"
		if r.Invalid != "" {
			valid = "no: " + r.Invalid
		}
		cf := "yes"
		if r.Contended != nil {
			cf = fmt.Sprintf("no (%d pairs; e.g. step %d %s and %s on %s)", r.ContendedPairs, r.Contended.Step, r.Contended.First, r.Contended.Second, r.Contended.ChannelName)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d | %d | %d | %d |\n", r.Scheme, valid, cf, r.Steps, r.Unicasts, r.Hops, r.CrossPairs, r.NodeConflicts, r.MaxLoad)
	}
	return b.String()
}
