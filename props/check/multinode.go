package check

import (
	"fmt"
	"strings"

	"github.com/wormcheck/wormcheck/algos/multinode"
	"github.com/wormcheck/wormcheck/algos/partition"
	"github.com/wormcheck/wormcheck/checker/sim"
	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/schedule"
)

// The comparisons of the multi-node multicast's schemes (check --algo multinode
// --compare [--latency]): package multinode builds the schedules (Contenders,
// Scheme.Schedule); here they are judged — by multinode.Check, by package props'
// schedule properties as a second opinion, and at flit level by checker/sim beside the
// contention-free timed model — and tabulated.

// schemeRow is one scheme of a comparison: its name ("U-torus" or e.g. "4IIIB" in §4.4's
// notation: h, type, B for load balancing in Phase 1) and multinode.Check's figures.
type schemeRow struct {
	Scheme   string
	Unicasts int
	multinode.Result
	// Props is package props' opinion of the same schedule.
	Props propsOpinion
	// ContendedGroups counts the multicasts Check finds stepwise contended (to set beside
	// Props.StepwiseGroups).
	ContendedGroups int
	// VCContendedGroups and VCCrossPairs are the same judgement per virtual channel, with
	// the two classes of 004 Fig. 2 that U-torus is designed around
	// (topology.Network.WrapAheadClasses): worms contend only in the same class.
	VCContendedGroups int
	VCCrossPairs      int
}

// compareSchemes builds plain U-torus (SPU on a mesh) and the three-phase scheme for each
// of the given partitions on the same instance (multinode.Contenders), checks all of them
// and returns one row each.
//
// Reference: 001 §4.4 (the comparison against U-torus), here counted on the schedules:
// contending unicast pairs between multicasts, node conflicts, the largest channel load
// in a step, and the number of steps.
func compareSchemes(in multinode.Instance, parts []partition.Params, sel multinode.Selection, seed uint64) ([]schemeRow, error) {
	cs, err := multinode.Contenders(in, parts, sel, seed)
	if err != nil {
		return nil, err
	}
	rows := make([]schemeRow, len(cs))
	for i, c := range cs {
		rows[i] = judgeScheme(in.Grid, c.Scheme, c.Schedule, c.Dests)
	}
	return rows, nil
}

// judgeScheme checks one schedule with multinode.Check (per physical channel and per
// virtual channel) and with package props.
func judgeScheme(g *topology.Network, name string, s model.Schedule, dests [][]topology.NodeID) schemeRow {
	r := schemeRow{Scheme: name, Unicasts: len(s.Unicasts), Result: multinode.Check(g, s, dests), Props: askProps(s)}
	r.ContendedGroups = multinode.ContendedGroups(g, s, dests)
	if vc, err := s.WithWrapAheadClasses(); err == nil {
		r.VCCrossPairs = multinode.Check(g, *vc, dests).CrossPairs
		r.VCContendedGroups = multinode.ContendedGroups(g, *vc, dests)
	}
	return r
}

// schemeTable renders rows as a Markdown table.
func schemeTable(rows []schemeRow) string {
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

// propsOpinion is what package props' schedule properties say about a multi-multicast
// schedule: schedule.Validity (004 Definition 1 per group) and schedule.ExactlyOnce on the
// whole schedule, and schedule.Stepwise on each multicast's own unicasts (StepwiseGroups
// counts the multicasts it finds contended). Refused is set when props' structural check
// (model.Schedule.Check) refuses the schedule; the verdicts are then Inconclusive.
// multinode.Build marks the schedules of directed DDNs (Types III and IV) Explicit, so
// their paths, which go the DDN's way round and are not always shortest, are accepted as
// walks and judged like any other.
type propsOpinion struct {
	Validity       props.Verdict
	ExactlyOnce    props.Verdict
	StepwiseGroups int
	Reason         string
	Refused        string
}

// askProps runs package props' schedule properties on s, as an independent second
// opinion beside multinode.Check. Note that schedule.ExactlyOnce also forbids a node that is
// not a destination from receiving, so the three-phase scheme's relays (representatives
// that are not destinations) make it Violated by construction.
func askProps(s model.Schedule) propsOpinion {
	var out propsOpinion
	if err := s.Check(); err != nil {
		out.Validity, out.ExactlyOnce = props.Inconclusive, props.Inconclusive
		out.Refused = err.Error()
		return out
	}
	v := schedule.Validity(&s)
	e := schedule.ExactlyOnce(&s)
	out.Validity, out.ExactlyOnce = v.Verdict, e.Verdict
	switch {
	case v.Verdict != props.Holds:
		out.Reason = fmt.Sprintf("validity: %s %s", v.Reason, v.Text)
	case e.Verdict != props.Holds:
		out.Reason = fmt.Sprintf("exactly-once: %s %s", e.Reason, e.Text)
	}
	groups := len(s.Sources)
	if s.Group == nil {
		groups = 1
	}
	for gi := 0; gi < groups; gi++ {
		sub := model.Schedule{Topology: s.Topology, Sources: s.Sources[gi : gi+1], Ports: s.Ports, Routing: s.Routing, Ties: s.Ties, Explicit: s.Explicit}
		if s.Group == nil {
			sub.Sources = s.Sources
		}
		sub.Destinations = s.DestinationsOf(gi)
		for k, u := range s.Unicasts {
			if s.GroupOf(k) == gi {
				sub.Unicasts = append(sub.Unicasts, u)
			}
		}
		if schedule.Stepwise(&sub).Verdict != props.Holds {
			out.StepwiseGroups++
		}
	}
	return out
}

// latencyOptions are the parameters of a latency measurement (001 §4.4: ts = 300 or
// 30, tc = 1, L = 32..1024; the paper names no receive overhead, so Tr is 0 there).
type latencyOptions struct {
	Ts, Tr, L int
	// VCs per channel; the torus always uses the two dateline classes of topology.DOR (so
	// at least 2 VCs), since with one VC worms deadlock round the rings under the heavy
	// contention of these instances. 0 = 2.
	VCs   int
	Seeds []uint64 // one instance per seed; the figures are averaged over them
	// SharedCPU gives each node one processor for the sends of every multicast, so their
	// ts queue up; without it each multicast has its own (sim.ScheduleOptions.CPUPerGroup,
	// as in props' timed model). 001 does not say which its simulator used.
	SharedCPU bool
}

// latencyRow is one scheme at one instance size, averaged over the seeds.
type latencyRow struct {
	Scheme  string
	Sources int
	Dests   int // per source; 001 §4.4 takes both = m
	Hotspot float64
	Seeds   int
	// Mean is the average over multicasts of the time its last destination received the
	// message (001 §4.4's "average multicast latency"); Makespan the time the last
	// multicast completed. Both from the flit-level execution (checker/sim).
	Mean     float64
	Makespan float64
	// TimedMean and TimedMakespan are the same in package props' contention-free timed
	// model (no channel waits; each node's sends of one multicast are prepared in turn,
	// those of different multicasts independently), for reference.
	TimedMean     float64
	TimedMakespan float64
	Unicasts      float64
	FlitHops      float64
}

// groupCompletion returns, per multicast, the first time each destination received
// that multicast's message, maximised over its destinations. It fails when a
// destination is never reached.
func groupCompletion(s *model.Schedule, deliver []int64, dests [][]topology.NodeID) ([]int64, error) {
	type key struct {
		g int
		v topology.NodeID
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

// measureLatency draws one instance per seed on g with the given numbers of sources and
// destinations per source (001 §4.4: both m = 80..240) and hot-spot factor p
// (multinode.Generate), builds every scheme's schedule on it, executes it at flit level
// with real channel arbitration (sim.ExecuteSchedule: one-port nodes, one processor per
// node, dateline VCs) and in the contention-free timed model (schedule.Simulate), and
// returns one row per scheme averaged over the seeds.
//
// Reference: 001 §4.4 (Figs. 5 and 10: average multicast latency on a 16x16 torus,
// ts = 300, tc = 1, |M_i| = 32), §5.2 on a mesh.
func measureLatency(g *topology.Network, sources, dests int, p float64, schemes []multinode.Scheme, opt latencyOptions) ([]latencyRow, error) {
	if len(opt.Seeds) == 0 {
		return nil, fmt.Errorf("multinode: latency needs at least one seed")
	}
	if opt.VCs == 0 {
		opt.VCs = 2
	}
	rows := make([]latencyRow, len(schemes))
	for k, sc := range schemes {
		rows[k] = latencyRow{Scheme: sc.Name(g), Sources: sources, Dests: dests, Hotspot: p, Seeds: len(opt.Seeds)}
	}
	n := float64(len(opt.Seeds))
	for _, seed := range opt.Seeds {
		in, err := multinode.Generate(g, multinode.GenOptions{Sources: sources, Dests: dests, Hotspot: p, Seed: seed})
		if err != nil {
			return nil, err
		}
		for k, sc := range schemes {
			s, dests, err := sc.Schedule(in, seed)
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
			tm, err := schedule.Simulate(&s, props.Params{Ts: int64(opt.Ts), Tr: int64(opt.Tr), Tc: 1, L: int64(opt.L)})
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

// latencyTable renders rows (of any sizes) as a Markdown table, with each scheme's mean
// latency relative to the first row of the same size (U-torus).
func latencyTable(rows []latencyRow) string {
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
