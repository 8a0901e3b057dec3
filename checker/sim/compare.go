package sim

import (
	"fmt"
	"math"

	"github.com/wormcheck/wormcheck/model"
	flitmodel "github.com/wormcheck/wormcheck/model/flit"
	"github.com/wormcheck/wormcheck/model/topology"
)

// McastAlgo is one way of realising multicast traffic in a comparison: tree-based
// multicast with pruning (Tree), a path-based routing (Multicast), a unicast-based
// collective (Schedule), or separate addressing (none: one unicast per destination).
type McastAlgo struct {
	Name      string
	Tree      bool
	Prune     flitmodel.Prune
	Multicast MulticastFunc
	Schedule  func(src topology.NodeID, dests []topology.NodeID) (*model.Schedule, error)
}

// CompareSpec is 000 §5.3's experiment: multicast-only traffic with a fixed number of
// destinations per message, latency against offered load, for several algorithms on
// one network. Base gives everything but the traffic and the multicast algorithm
// (Grid, Length, Ports, VCs, Buffer, Ts, Tr, Seed, Warmup, Cycles, Process...).
type CompareSpec struct {
	Base  Config
	Algos []McastAlgo
	Dests int
	// Loads are offered loads in data flits delivered per node per cycle: a load x
	// generates x / (Dests * Length) multicasts per node per cycle, the same traffic for
	// every algorithm.
	Loads []float64
}

// ComparePoint is one simulation of a comparison.
type ComparePoint struct {
	Load      float64 `json:"load"`
	Rate      float64 `json:"rate"`
	Latency   Stat    `json:"latency"`
	Saturated bool    `json:"saturated"`
	Deadlock  bool    `json:"deadlocked"`
	Accepted  float64 `json:"accepted"`
	Prunes    int64   `json:"prunes,omitempty"`
}

// CompareResult holds Points[a][i]: algorithm a at load i.
type CompareResult struct {
	Algos  []string         `json:"algos"`
	Dests  int              `json:"dests"`
	Loads  []float64        `json:"loads"`
	Points [][]ComparePoint `json:"points"`
}

// Compare runs the comparison: every algorithm at every load with the same seed (common
// random numbers: the same generation times and destination sets). Unless Base sets
// it, the drain limit is one window (at least 5000 cycles), so saturated points end
// early.
// Reference: 000 §5.1 (traffic), §5.2-§5.3 (Figs. 6-9).
func Compare(spec CompareSpec) (*CompareResult, error) {
	if spec.Dests < 1 {
		return nil, fmt.Errorf("dests %d: a multicast needs at least one destination", spec.Dests)
	}
	if len(spec.Algos) == 0 || len(spec.Loads) == 0 {
		return nil, fmt.Errorf("algos %d, loads %d: a comparison needs both", len(spec.Algos), len(spec.Loads))
	}
	L := spec.Base.Length
	if L == 0 {
		L = 32
	}
	res := &CompareResult{Dests: spec.Dests, Loads: spec.Loads}
	for _, a := range spec.Algos {
		res.Algos = append(res.Algos, a.Name)
		var row []ComparePoint
		for _, x := range spec.Loads {
			if !(x > 0) {
				return nil, fmt.Errorf("load %v: offered loads must be > 0", x)
			}
			cfg := spec.Base
			if cfg.DrainLimit == 0 {
				// A saturated point need not drain for 20 windows: one is enough to
				// tell (Result.Saturated).
				cfg.DrainLimit = max(cfg.Cycles, 5000)
			}
			cfg.Tree, cfg.Prune, cfg.Multicast, cfg.MulticastSchedule = a.Tree, a.Prune, a.Multicast, a.Schedule
			cfg.Traffic = Traffic{Rate: x / float64(spec.Dests*L), Process: spec.Base.Traffic.Process, Multicast: 1, MinDests: spec.Dests, MaxDests: spec.Dests}
			r, err := Run(cfg)
			if err != nil {
				return nil, fmt.Errorf("%s at load %v: %v", a.Name, x, err)
			}
			row = append(row, ComparePoint{Load: x, Rate: cfg.Traffic.Rate, Latency: r.Multicast, Saturated: r.Saturated || r.Deadlocked,
				Deadlock: r.Deadlocked, Accepted: r.Accepted, Prunes: r.Prunes})
		}
		res.Points = append(res.Points, row)
	}
	return res, nil
}

// Latency returns algorithm a's mean latencies by load, NaN where it saturated.
func (r *CompareResult) Latency(a int) []float64 {
	out := make([]float64, len(r.Loads))
	for i, p := range r.Points[a] {
		out[i] = p.Latency.Mean
		if p.Saturated {
			out[i] = math.NaN()
		}
	}
	return out
}

// Reduction returns, per load, the latency reduction of algorithm a against algorithm
// b, 1 - latency(a)/latency(b), NaN where either saturated.
func (r *CompareResult) Reduction(a, b int) []float64 {
	la, lb := r.Latency(a), r.Latency(b)
	out := make([]float64, len(la))
	for i := range la {
		out[i] = 1 - la[i]/lb[i]
	}
	return out
}

// MaxReduction returns the largest reduction of a against b below saturation and the
// load where it occurs (NaN, NaN if no load has both unsaturated).
func (r *CompareResult) MaxReduction(a, b int) (red, load float64) {
	red, load = math.NaN(), math.NaN()
	for i, x := range r.Reduction(a, b) {
		if !math.IsNaN(x) && (math.IsNaN(red) || x > red) {
			red, load = x, r.Loads[i]
		}
	}
	return red, load
}
