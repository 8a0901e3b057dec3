package multinode

import (
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/props"
)

// Scheme is one contender of 001 §4.4's latency comparison: plain U-torus (Partition
// nil) or the three-phase scheme on a partition with a Phase 1 selection.
type Scheme struct {
	Partition *partition.Params
	Select    Selection
}

// Name is "U-torus" (SPU on a mesh) or §4.4's "HT[B]" name.
func (s Scheme) Name(g *model.Grid) string {
	if s.Partition == nil {
		if g.Kind() == model.Mesh {
			return "SPU"
		}
		return "U-torus"
	}
	return SchemeName(*s.Partition, s.Select)
}

// PaperSchemes are the schemes of 001 §4.4 on a torus: U-torus, the four types with
// h = 4 and load balancing (4IB, 4IIB, 4IIIB with δ = 2, 4IVB; Fig. 5), and Types III
// and IV with h = 2 (2IIIB with δ = 1, 2IVB; Fig. 8). On a mesh only SPU and Types I and
// II (§5). Reconstruction: the text does not say which h Fig. 5 uses; Figs. 8 and 10
// name 4IIIB, so h = 4 is taken as the main one.
func PaperSchemes(g *model.Grid) []Scheme {
	p := func(t partition.Type, h, d int) *partition.Params {
		return &partition.Params{Type: t, H: h, Delta: d}
	}
	out := []Scheme{{}, {Partition: p(partition.TypeI, 4, 0)}, {Partition: p(partition.TypeII, 4, 0)}}
	if g.Kind() == model.Torus {
		out = append(out, Scheme{Partition: p(partition.TypeIII, 4, 2)}, Scheme{Partition: p(partition.TypeIV, 4, 0)},
			Scheme{Partition: p(partition.TypeIII, 2, 1)}, Scheme{Partition: p(partition.TypeIV, 2, 0)})
	}
	return out
}

// LatencyOptions are the parameters of a latency measurement (001 §4.4: ts = 300 or
// 30, tc = 1, L = 32..1024; the paper names no receive overhead, so Tr is 0 there).
type LatencyOptions struct {
	Ts, Tr, L int
	// VCs per channel; the torus always uses the two dateline classes of model.DOR (so
	// at least 2 VCs), since with one VC worms deadlock round the rings under the heavy
	// contention of these instances. 0 = 2.
	VCs   int
	Seeds []uint64 // one instance per seed; the figures are averaged over them
	// SharedCPU gives each node one processor for the sends of every multicast, so their
	// ts queue up; without it each multicast has its own (sim.ScheduleOptions.CPUPerGroup,
	// as in props' timed model). 001 does not say which its simulator used.
	SharedCPU bool
}

// LatencyRow is one scheme at one instance size, averaged over the seeds.
type LatencyRow struct {
	Scheme  string  `json:"scheme"`
	Sources int     `json:"sources"`
	Dests   int     `json:"dests"` // per source; 001 §4.4 takes both = m
	Hotspot float64 `json:"hotspot"`
	Seeds   int     `json:"seeds"`
	// Mean is the average over multicasts of the time its last destination received the
	// message (001 §4.4's "average multicast latency"); Makespan the time the last
	// multicast completed. Both from the flit-level execution (checker/sim).
	Mean     float64 `json:"mean_latency"`
	Makespan float64 `json:"makespan"`
	// TimedMean and TimedMakespan are the same in package props' contention-free timed
	// model (no channel waits; each node's sends of one multicast are prepared in turn,
	// those of different multicasts independently), for reference.
	TimedMean     float64 `json:"timed_mean_latency"`
	TimedMakespan float64 `json:"timed_makespan"`
	Unicasts      float64 `json:"unicasts"`
	FlitHops      float64 `json:"flit_hops"`
}

// groupCompletion returns, per multicast, the first time each destination received
// that multicast's message, maximised over its destinations. It fails when a
// destination is never reached.
func groupCompletion(s *model.Schedule, deliver []int64, dests [][]model.NodeID) ([]int64, error) {
	type key struct {
		g int
		v model.NodeID
	}
	first := map[key]int64{}
	for i, u := range s.Unicasts {
		k := key{s.GroupOf(i), u.To}
		if t, ok := first[k]; !ok || deliver[i] < t {
			first[k] = deliver[i]
		}
	}
	out := make([]int64, len(dests))
	for gi, ds := range dests {
		for _, d := range ds {
			t, ok := first[key{gi, d}]
			if !ok {
				return nil, fmt.Errorf("multicast %d: destination %s never receives", gi, s.Topology.NodeName(d))
			}
			out[gi] = max(out[gi], t)
		}
	}
	return out, nil
}

func meanMax(ts []int64) (float64, float64) {
	var sum, mx int64
	for _, t := range ts {
		sum += t
		mx = max(mx, t)
	}
	if len(ts) == 0 {
		return 0, 0
	}
	return float64(sum) / float64(len(ts)), float64(mx)
}

// scheduleOf builds sc's schedule for in and the destination set of every multicast.
func scheduleOf(in Instance, sc Scheme, seed uint64) (model.Schedule, [][]model.NodeID, error) {
	if sc.Partition == nil {
		s, err := PlainUTorus(in, UTorus)
		if err != nil {
			return s, nil, err
		}
		dests := make([][]model.NodeID, len(in.Multicasts))
		for i, mc := range in.Multicasts {
			dests[i] = withoutSource(mc)
		}
		return s, dests, nil
	}
	plan, err := Build(in, Options{Partition: *sc.Partition, Select: sc.Select, Seed: seed})
	if err != nil {
		return model.Schedule{}, nil, err
	}
	return plan.Schedule, plan.Dests, nil
}

// MeasureLatency draws one instance per seed on g with the given numbers of sources and
// destinations per source (001 §4.4: both m = 80..240)
// and hot-spot factor p (Generate), builds every scheme's schedule on it, executes it at
// flit level with real channel arbitration (sim.ExecuteSchedule: one-port nodes, one
// processor per node, dateline VCs) and in the contention-free timed model
// (props.Simulate), and returns one row per scheme averaged over the seeds.
//
// Reference: 001 §4.4 (Figs. 5 and 10: average multicast latency on a 16x16 torus,
// ts = 300, tc = 1, |M_i| = 32), §5.2 on a mesh.
func MeasureLatency(g *model.Grid, sources, dests int, p float64, schemes []Scheme, opt LatencyOptions) ([]LatencyRow, error) {
	if len(opt.Seeds) == 0 {
		return nil, fmt.Errorf("multinode: latency needs at least one seed")
	}
	if opt.VCs == 0 {
		opt.VCs = 2
	}
	rows := make([]LatencyRow, len(schemes))
	for k, sc := range schemes {
		rows[k] = LatencyRow{Scheme: sc.Name(g), Sources: sources, Dests: dests, Hotspot: p, Seeds: len(opt.Seeds)}
	}
	n := float64(len(opt.Seeds))
	for _, seed := range opt.Seeds {
		in, err := Generate(g, GenOptions{Sources: sources, Dests: dests, Hotspot: p, Seed: seed})
		if err != nil {
			return nil, err
		}
		for k, sc := range schemes {
			s, dests, err := scheduleOf(in, sc, seed)
			if err != nil {
				return nil, fmt.Errorf("multinode: %s: %v", rows[k].Scheme, err)
			}
			res, err := sim.ExecuteSchedule(g, &s, sim.ScheduleOptions{Ts: opt.Ts, Tr: opt.Tr, L: opt.L, VCs: opt.VCs, Dateline: true, CPUPerGroup: !opt.SharedCPU})
			if err != nil {
				return nil, fmt.Errorf("multinode: %s, %d sources, seed %d: %v", rows[k].Scheme, sources, seed, err)
			}
			done, err := groupCompletion(&s, res.Deliver, dests)
			if err != nil {
				return nil, fmt.Errorf("multinode: %s, %d sources, seed %d: %v", rows[k].Scheme, sources, seed, err)
			}
			mean, mk := meanMax(done)
			tm, err := props.Simulate(&s, props.Params{Ts: int64(opt.Ts), Tr: int64(opt.Tr), Tc: 1, L: int64(opt.L)})
			if err != nil {
				return nil, fmt.Errorf("multinode: %s: timed model: %v", rows[k].Scheme, err)
			}
			tdone, err := groupCompletion(&s, tm.Deliver, dests)
			if err != nil {
				return nil, err
			}
			tmean, tmk := meanMax(tdone)
			r := &rows[k]
			r.Mean += mean / n
			r.Makespan += mk / n
			r.TimedMean += tmean / n
			r.TimedMakespan += tmk / n
			r.Unicasts += float64(len(s.Unicasts)) / n
			r.FlitHops += float64(res.FlitHops) / n
		}
	}
	return rows, nil
}

// LatencyTable renders rows (of any sizes) as a Markdown table, with each scheme's mean
// latency relative to the first row of the same size (U-torus).
func LatencyTable(rows []LatencyRow) string {
	var b strings.Builder
	b.WriteString("| sources | dests | p | scheme | mean latency | / U-torus | makespan | contention-free mean | contention-free makespan | unicasts | flit-hops |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|---|\n")
	base := 0.0
	for i, r := range rows {
		if i == 0 || r.Sources != rows[i-1].Sources || r.Dests != rows[i-1].Dests || r.Hotspot != rows[i-1].Hotspot {
			base = r.Mean
		}
		rel := 0.0
		if base > 0 {
			rel = r.Mean / base
		}
		fmt.Fprintf(&b, "| %d | %d | %.2f | %s | %.0f | %.2f | %.0f | %.0f | %.0f | %.0f | %.0f |\n",
			r.Sources, r.Dests, r.Hotspot, r.Scheme, r.Mean, rel, r.Makespan, r.TimedMean, r.TimedMakespan, r.Unicasts, r.FlitHops)
	}
	return b.String()
}
