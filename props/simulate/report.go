package simulate

import (
	"encoding/json"
	"math"

	"github.com/wormcheck/wormcheck/checker/sim"
)

// This file is the report object of `wormcheck sim --json` (schema wormcheck-sim/1,
// docs/report.md), one struct per mode, each starting with the same Header: a caller
// reads fields, never keys of a map. JSON has no NaN: a Figure that is not a finite
// number is written null.

// Report is the report object of one run: a *TrafficReport, *SweepReport,
// *ComparisonReport, *CollectiveReport or *BookSimReport.
type Report interface {
	// Head is the header the report starts with (version, verdict, reason, ...).
	Head() *Header
}

// Header starts every report: the schema (set by the caller that writes the file), the
// tool's version, the command and the semantics (both "sim"), and, for a run stopped
// early, verdict inconclusive with the reason; for a traffic run that deadlocked,
// verdict violated.
type Header struct {
	Schema    string `json:"schema,omitempty"`
	Version   string `json:"version"`
	Command   string `json:"command"`
	Semantics string `json:"semantics"`
	Verdict   string `json:"verdict,omitempty"`
	Reason    string `json:"reason,omitempty"`
}

// Head returns h.
func (h *Header) Head() *Header { return h }

func header(version string) Header {
	return Header{Version: version, Command: "sim", Semantics: "sim"}
}

// inconclusive marks h inconclusive with reason when reason is not "".
func (h *Header) inconclusive(reason string) {
	if reason != "" {
		h.Verdict, h.Reason = "inconclusive", reason
	}
}

// Figure is a measured or modelled number that may be undefined (NaN: no sample, a
// saturated load): written as null in JSON.
type Figure float64

// MarshalJSON writes the number, or null when it is not finite.
func (f Figure) MarshalJSON() ([]byte, error) {
	x := float64(f)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return []byte("null"), nil
	}
	return json.Marshal(x)
}

// figures converts xs.
func figures(xs []float64) []Figure {
	out := make([]Figure, len(xs))
	for i, x := range xs {
		out[i] = Figure(x)
	}
	return out
}

// TrafficReport is a traffic run: its instance, what it measured, the latency model
// beside it and the run's speed.
type TrafficReport struct {
	Header
	Instance TrafficInstance `json:"instance"`
	Result   TrafficResult   `json:"result"`
	Model    ModelFigures    `json:"model"`
	Stats    Speed           `json:"stats"`
}

// TrafficInstance names a traffic run or a collective: topology, algorithm and the
// parameters.
type TrafficInstance struct {
	Topology   string        `json:"topology"`
	Algorithm  string        `json:"algorithm"`
	Parameters TrafficParams `json:"parameters"`
}

// TrafficParams are the parameters of a traffic run (Routing and Selection only with a
// routing relation).
type TrafficParams struct {
	Rate      float64 `json:"rate"`
	Length    int     `json:"length"`
	VCs       int     `json:"vcs"`
	Buffers   int     `json:"buffers"`
	Ts        int     `json:"ts"`
	Tr        int     `json:"tr"`
	Ports     string  `json:"ports"`
	Process   string  `json:"process"`
	Broadcast float64 `json:"broadcast"`
	Multicast float64 `json:"multicast"`
	HotSpot   float64 `json:"hotspot"`
	Seed      uint64  `json:"seed"`
	Warmup    int64   `json:"warmup"`
	Cycles    int64   `json:"cycles"`
	Routing   string  `json:"routing,omitempty"`
	Selection string  `json:"selection,omitempty"`
}

// TrafficResult is what a traffic run measured (sim.Result, latencies per message
// class).
type TrafficResult struct {
	Cycles     int64       `json:"cycles"`
	Generated  int64       `json:"generated"`
	Completed  int64       `json:"completed"`
	FlitHops   int64       `json:"flit_hops"`
	Accepted   float64     `json:"accepted"`
	Saturated  bool        `json:"saturated"`
	Deadlocked bool        `json:"deadlocked"`
	Unicast    LatencyStat `json:"unicast"`
	Broadcast  LatencyStat `json:"broadcast"`
	Multicast  LatencyStat `json:"multicast"`
}

// LatencyStat is a latency estimate: messages measured, the largest latency, and the
// mean with its 95% half-width where they are defined.
type LatencyStat struct {
	N    int      `json:"n"`
	Max  int64    `json:"max"`
	Mean *float64 `json:"mean,omitempty"`
	CI95 *float64 `json:"ci95,omitempty"`
}

func latencyStat(s sim.Stat) LatencyStat {
	o := LatencyStat{N: s.N, Max: s.Max}
	if !math.IsNaN(s.Mean) {
		m := s.Mean
		o.Mean = &m
	}
	if !math.IsNaN(s.CI95) {
		c := s.CI95
		o.CI95 = &c
	}
	return o
}

// ModelFigures is the latency model printed beside a run: its name and unicast (and
// broadcast) latency, or why it does not apply.
type ModelFigures struct {
	Name      string   `json:"name"`
	Error     string   `json:"error,omitempty"`
	Unicast   *float64 `json:"unicast,omitempty"`
	Broadcast *float64 `json:"broadcast,omitempty"`
}

// Speed is how fast a run went.
type Speed struct {
	Seconds        float64 `json:"seconds"`
	CyclesPerSec   float64 `json:"cycles_per_sec"`
	FlitHopsPerSec float64 `json:"flit_hops_per_sec"`
}

// SweepReport is a latency-vs-load sweep: a row per load done and the plot's file.
type SweepReport struct {
	Header
	Instance SweepInstance `json:"instance"`
	Sweep    []SweepRow    `json:"sweep"`
	Plot     string        `json:"plot"`
}

// SweepInstance names a sweep.
type SweepInstance struct {
	Topology  string `json:"topology"`
	Algorithm string `json:"algorithm"`
}

// SweepRow is one load of a sweep: offered load (flits/node/cycle), message rate, the
// simulated and modelled latency (null once saturated), and whether it saturated.
type SweepRow struct {
	Load      float64 `json:"load"`
	Rate      float64 `json:"rate"`
	Sim       Figure  `json:"sim"`
	Model     Figure  `json:"model"`
	Saturated bool    `json:"saturated"`
}

// ComparisonReport is 000 §5.3's comparison: a row per destination count done.
type ComparisonReport struct {
	Header
	Instance ComparisonInstance `json:"instance"`
	Compare  []CompareRow       `json:"compare"`
	Plot     string             `json:"plot"`
}

// ComparisonInstance names a comparison: the algorithms and the options asked for.
type ComparisonInstance struct {
	Topology   string   `json:"topology"`
	Algorithms []string `json:"algorithms"`
	Ports      string   `json:"ports"`
	Length     int      `json:"length"`
	Prune      string   `json:"prune"`
}

// CompareRow is one destination count of a comparison: every algorithm at every load,
// and the tree's latency reduction against separate addressing when both ran.
type CompareRow struct {
	Dests            int            `json:"dests"`
	Points           []ComparePoint `json:"points"`
	Reduction        []Figure       `json:"reduction,omitempty"`
	MaxReduction     *Figure        `json:"max_reduction,omitempty"`
	MaxReductionLoad *Figure        `json:"max_reduction_load,omitempty"`
}

// ComparePoint is one algorithm at one load of a comparison.
type ComparePoint struct {
	Algorithm  string  `json:"algorithm"`
	Load       float64 `json:"load"`
	Rate       float64 `json:"rate"`
	Mean       Figure  `json:"mean"`
	CI95       Figure  `json:"ci95"`
	N          int     `json:"n"`
	Saturated  bool    `json:"saturated"`
	Deadlocked bool    `json:"deadlocked"`
	Accepted   float64 `json:"accepted"`
	Prunes     int64   `json:"prunes"`
}

// CollectiveReport is a collective run at zero load.
type CollectiveReport struct {
	Header
	Instance   CollectiveInstance `json:"instance"`
	Completion int64              `json:"completion"`
	FlitHops   int64              `json:"flit_hops"`
	Seconds    float64            `json:"seconds"`
	Contention *sim.Contention    `json:"contention"`
	TimedModel *int64             `json:"timed_model,omitempty"`
	Formula    *float64           `json:"formula,omitempty"`
}

// CollectiveInstance names a collective run.
type CollectiveInstance struct {
	Topology   string           `json:"topology"`
	Algorithm  string           `json:"algorithm"`
	Parameters CollectiveParams `json:"parameters"`
}

// CollectiveParams are a collective run's parameters.
type CollectiveParams struct {
	Ts      int `json:"ts"`
	Tr      int `json:"tr"`
	Length  int `json:"length"`
	VCs     int `json:"vcs"`
	Buffers int `json:"buffers"`
	Source  int `json:"source"`
}

// StoppedReport is a run stopped before it started: its instance and why.
type StoppedReport struct {
	Header
	Instance StoppedInstance `json:"instance"`
}

// StoppedInstance names a run stopped before it started.
type StoppedInstance struct {
	Topology   string   `json:"topology"`
	Algorithm  string   `json:"algorithm"`
	Parameters struct{} `json:"parameters"`
}

// Stopped is the report of a run that a signal or a budget stopped before it started.
func Stopped(version, topology, algorithm, reason string) *StoppedReport {
	r := &StoppedReport{Header: header(version), Instance: StoppedInstance{Topology: topology, Algorithm: algorithm}}
	r.Verdict, r.Reason = "inconclusive", reason
	return r
}
