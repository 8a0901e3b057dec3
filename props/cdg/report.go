package cdg

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/render"
)

// Report is the static proof of a routing relation on a whole topology
// (`wormcheck routing`): the report (property deadlock, semantics static, the verdict of
// the CDG and Duato conditions, the states they counted), the analysis with both
// graphs' figures, and the CDG's own cycle even when Duato's condition proves the
// relation. Encoded as JSON it is the report's fields followed by "analysis" and
// "cdg_witness".
type Report struct {
	props.Report
	Analysis   *Result        `json:"analysis"`
	CDGWitness *props.Witness `json:"cdg_witness"`

	rel routing.Relation
}

// Prove proves the relation spec (a built-in name, or a routing file read with read)
// deadlock-free on topology topo, which may be "" when the file names its own, with
// Analyze. Errors are bad input (props.ErrBadInput) naming --topo or --routing.
func Prove(topo, spec string, read func(string) ([]byte, error)) (*Report, error) {
	var g *model.Grid
	if topo != "" {
		var err error
		if g, err = model.ParseNetwork(topo); err != nil {
			return nil, props.BadInputf("--topo: %v", err)
		}
	} else if routing.IsBuiltin(spec) {
		return nil, props.BadInputf("--topo: missing (a built-in routing needs a topology)")
	}
	rel, err := routing.Resolve(g, spec, read)
	if err != nil {
		return nil, props.BadInputf("--routing: %v", err)
	}
	start := time.Now()
	res, err := Analyze(rel, Options{})
	if err != nil {
		return nil, props.BadInputf("--routing: %v", err)
	}
	r := &Report{
		Report: props.Report{
			Schema:    props.ReportSchema,
			Command:   "routing",
			Instance:  props.Instance{Topology: res.Topology, Algorithm: res.Relation, Params: map[string]any{"vcs": res.VCs}},
			Property:  "deadlock",
			Semantics: "static",
			Verdict:   res.Verdict(),
			Reason:    res.Reason(),
			Stats:     props.Stats{States: res.States, Seconds: time.Since(start).Seconds()},
			Witness:   res.Witness(),
		},
		Analysis: res, CDGWitness: res.CDGWitness(), rel: rel,
	}
	return r, nil
}

// SVG draws the witness cycle on the topology (2-D meshes and tori, irregular
// networks): the cycle that leaves the relation unproven, else the CDG's own cycle
// (which Duato's condition overcame); where the CDG is acyclic, the certificate: every
// held channel numbered in a topological order of the CDG (ranksSVG).
func (r *Report) SVG() ([]byte, error) {
	res := r.Analysis
	w := res.Witness()
	if w == nil || w.Kind != props.WitnessCycle {
		w = res.CDGWitness()
	}
	if (w == nil || len(w.Cycle) == 0) && res.Acyclic && res.Stranded == nil {
		return r.ranksSVG()
	}
	if w == nil || len(w.Cycle) == 0 {
		return nil, props.BadInputf("--svg: there is no cycle to draw (%s)", res.Reason())
	}
	what, _, _ := strings.Cut(w.Violation, ":")
	pic, err := render.StaticCycle(r.rel.Grid(), w, fmt.Sprintf("%s on %s: %s", res.Relation, res.Topology, what),
		fmt.Sprintf("static check, %d VCs: %s", res.VCs, res.Verdict()))
	if err != nil {
		return nil, props.BadInputf("--svg: %v", err)
	}
	return pic, nil
}

// Conditions are the figures that say which condition proved the relation: FigCDGAcyclic always, and
// FigDuatoProved and FigEscapeVertices where the relation has an escape subfunction.
func (r *Report) Conditions() map[string]float64 {
	res := r.Analysis
	figs := map[string]float64{FigCDGAcyclic: b2f(res.Acyclic)}
	if d := res.Duato; d != nil {
		figs[FigDuatoProved] = b2f(d.Connected && d.Decided && d.Acyclic)
		figs[FigEscapeVertices] = float64(d.Escape)
	}
	return figs
}

// b2f is 1 for true, 0 for false: a yes/no figure.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// WriteText writes the analysis for people (Result.WriteText) and the seconds it took.
func (r *Report) WriteText(w io.Writer) {
	r.Analysis.WriteText(w)
	fmt.Fprintf(w, "%.3fs\n", r.Stats.Seconds)
}

// Figures of a static routing report (Report.Figures): FigCDGAcyclic is 1 when the
// channel dependency graph is acyclic (Dally & Seitz 1987, Theorem 1: deadlock-free),
// else 0; FigDuatoProved is 1 when Duato's condition holds (the escape subfunction is
// connected and its extended dependency graph acyclic, Duato 1993, Theorem 1), 0 when
// it was tried and failed, absent when the relation has no escape subfunction;
// FigEscapeVertices counts the (channel, VC) pairs the escape subfunction offers.
// Claims that say which condition proves a relation (proofs' RT1-RT4) read them.
const (
	FigCDGAcyclic     = "cdg_acyclic"
	FigDuatoProved    = "duato_proved"
	FigEscapeVertices = "escape_vertices"
)

// ranksSVG draws the certificate of an acyclic channel dependency graph: its vertices
// numbered in a topological order (Kahn's, smallest vertex first), so every dependency
// goes up.
func (r *Report) ranksSVG() ([]byte, error) {
	res := r.Analysis
	gr, err := Dependencies(r.rel)
	if err != nil {
		return nil, props.BadInputf("--svg: %v", err)
	}
	vs := gr.Vertices()
	index := make(map[Vertex]int, len(vs)) // lookup only
	for i, v := range vs {
		index[v] = i
	}
	indeg := make([]int, len(vs))
	for _, v := range vs {
		for _, w := range gr.Succ(v) {
			indeg[index[w]]++
		}
	}
	var ready []int
	for i := range vs {
		if indeg[i] == 0 {
			ready = append(ready, i)
		}
	}
	var ranks []render.RankedChannel
	for len(ready) > 0 {
		slices.Sort(ready)
		i := ready[0]
		ready = ready[1:]
		ranks = append(ranks, render.RankedChannel{Channel: vs[i].Channel, VC: vs[i].VC, Rank: len(ranks) + 1})
		for _, w := range gr.Succ(vs[i]) {
			if indeg[index[w]]--; indeg[index[w]] == 0 {
				ready = append(ready, index[w])
			}
		}
	}
	if len(ranks) != len(vs) {
		return nil, props.BadInputf("--svg: the dependency graph has a cycle after all (%d of %d vertices ranked)", len(ranks), len(vs))
	}
	pic, err := render.ChannelRanks(r.rel.Grid(), ranks, res.VCs, fmt.Sprintf("%s on %s: an acyclic channel dependency graph", res.Relation, res.Topology),
		fmt.Sprintf("static check, %d VCs: %s; every dependency goes to a larger number", res.VCs, res.Verdict()))
	if err != nil {
		return nil, props.BadInputf("--svg: %v", err)
	}
	return pic, nil
}
