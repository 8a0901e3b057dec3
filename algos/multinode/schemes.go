package multinode

import (
	"fmt"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
)

// Scheme is one contender of 001 §4.4's comparisons: plain U-torus (Partition nil; SPU on
// a mesh) or the three-phase scheme on a partition with a Phase 1 selection.
type Scheme struct {
	Partition *partition.Params
	Select    Selection
}

// Name is "U-torus" (SPU on a mesh) or §4.4's "HT[B]" name.
func (s Scheme) Name(g *topology.Network) string {
	if s.Partition == nil {
		if g.Kind() == topology.Mesh {
			return "SPU"
		}
		return "U-torus"
	}
	return SchemeName(*s.Partition, s.Select)
}

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

// PaperSchemes are the schemes of 001 §4.4 on a torus: U-torus, the four types with
// h = 4 and load balancing (4IB, 4IIB, 4IIIB with δ = 2, 4IVB; Fig. 5), and Types III
// and IV with h = 2 (2IIIB with δ = 1, 2IVB; Fig. 8). On a mesh only SPU and Types I and
// II (§5). Reconstruction: the text does not say which h Fig. 5 uses; Figs. 8 and 10
// name 4IIIB, so h = 4 is taken as the main one.
func PaperSchemes(g *topology.Network) []Scheme {
	p := func(t partition.Type, h, d int) *partition.Params {
		return &partition.Params{Type: t, H: h, Delta: d}
	}
	out := []Scheme{{}, {Partition: p(partition.TypeI, 4, 0)}, {Partition: p(partition.TypeII, 4, 0)}}
	if g.Kind() == topology.Torus {
		out = append(out, Scheme{Partition: p(partition.TypeIII, 4, 2)}, Scheme{Partition: p(partition.TypeIV, 4, 0)},
			Scheme{Partition: p(partition.TypeIII, 2, 1)}, Scheme{Partition: p(partition.TypeIV, 2, 0)})
	}
	return out
}

// Schedule builds the scheme's schedule for in (seed drives a random Phase 1 selection)
// and the destination set of every multicast, without its source: what a latency
// measurement waits for.
func (s Scheme) Schedule(in Instance, seed uint64) (model.Schedule, [][]topology.NodeID, error) {
	if s.Partition == nil {
		sched, err := PlainUTorus(in, UTorus)
		if err != nil {
			return sched, nil, err
		}
		dests := make([][]topology.NodeID, len(in.Multicasts))
		for i, mc := range in.Multicasts {
			dests[i] = withoutSource(mc)
		}
		return sched, dests, nil
	}
	plan, err := Build(in, Options{Partition: *s.Partition, Select: s.Select, Seed: seed})
	if err != nil {
		return model.Schedule{}, nil, err
	}
	return plan.Schedule, plan.Dests, nil
}

// Contender is one scheme's schedule in a comparison: its name ("U-torus", "SPU" or §4.4's
// "HT[B]"), its schedule and the destination set of every multicast.
type Contender struct {
	Scheme   string
	Schedule model.Schedule
	Dests    [][]topology.NodeID
}

// Contenders builds plain U-torus (SPU on a mesh) and the three-phase scheme for each of
// the given partitions on the same instance, in that order, for a comparison that judges
// each schedule (package props/check). Selection Own applies to Types II and IV; the
// other types fall back to Centralised.
//
// Reference: 001 §4.4 (the comparison against U-torus).
func Contenders(in Instance, parts []partition.Params, sel Selection, seed uint64) ([]Contender, error) {
	base, err := PlainUTorus(in, UTorus)
	if err != nil {
		return nil, err
	}
	dests := make([][]topology.NodeID, len(in.Multicasts))
	for i, mc := range in.Multicasts {
		dests[i] = mc.Dests
	}
	out := []Contender{{Scheme: Scheme{}.Name(in.Grid), Schedule: base, Dests: dests}}
	for _, p := range parts {
		ps := sel
		if ps == Own && (p.Type == partition.TypeI || p.Type == partition.TypeIII) {
			ps = Centralised
		}
		plan, err := Build(in, Options{Partition: p, Select: ps, Seed: seed})
		if err != nil {
			return nil, err
		}
		out = append(out, Contender{Scheme: SchemeName(p, ps), Schedule: plan.Schedule, Dests: plan.Dests})
	}
	return out, nil
}
