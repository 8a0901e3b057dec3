package check

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/model"
	"github.com/wormcheck/wormcheck/model/routing"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/cdg"
	"github.com/wormcheck/wormcheck/props/render"
)

// RoutingReport is the static proof of a routing relation on a whole topology
// (`wormcheck routing`): the report (property deadlock, semantics static, the verdict of
// the CDG and Duato conditions, the states they counted), the analysis with both
// graphs' figures, and the CDG's own cycle even when Duato's condition proves the
// relation. Encoded as JSON it is the report's fields followed by "analysis" and
// "cdg_witness".
type RoutingReport struct {
	props.Report
	Analysis   *cdg.Result    `json:"analysis"`
	CDGWitness *props.Witness `json:"cdg_witness"`

	rel routing.Relation
}

// CheckRouting proves the relation spec (a built-in name, or a routing file read with
// read) deadlock-free on topology topo, which may be "" when the file names its own,
// with cdg.Analyze. Errors are bad input (ErrBadInput) naming --topo or --routing.
func CheckRouting(topo, spec string, read func(string) ([]byte, error)) (*RoutingReport, error) {
	var g *model.Grid
	if topo != "" {
		var err error
		if g, err = model.ParseGrid(topo); err != nil {
			return nil, badf("--topo: %v", err)
		}
	} else if routing.IsBuiltin(spec) {
		return nil, badf("--topo: missing (a built-in routing needs a topology)")
	}
	rel, err := routing.Resolve(g, spec, read)
	if err != nil {
		return nil, badf("--routing: %v", err)
	}
	start := time.Now()
	res, err := cdg.Analyze(rel, cdg.Options{})
	if err != nil {
		return nil, badf("--routing: %v", err)
	}
	r := &RoutingReport{
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

// SVG draws the witness cycle on the topology (2-D meshes and tori): the cycle that
// leaves the relation unproven, else the CDG's own cycle (which Duato's condition
// overcame); an error when there is no cycle to draw.
func (r *RoutingReport) SVG() ([]byte, error) {
	res := r.Analysis
	w := res.Witness()
	if w == nil || w.Kind != props.WitnessCycle {
		w = res.CDGWitness()
	}
	if w == nil || len(w.Cycle) == 0 {
		return nil, badf("--svg: there is no cycle to draw (%s)", res.Reason())
	}
	what, _, _ := strings.Cut(w.Violation, ":")
	pic, err := render.StaticCycle(r.rel.Grid(), w, fmt.Sprintf("%s on %s: %s", res.Relation, res.Topology, what),
		fmt.Sprintf("static check, %d VCs: %s", res.VCs, res.Verdict()))
	if err != nil {
		return nil, badf("--svg: %v", err)
	}
	return pic, nil
}

// WriteText writes the analysis for people (cdg.Result.WriteText) and the seconds it took.
func (r *RoutingReport) WriteText(w io.Writer) {
	r.Analysis.WriteText(w)
	fmt.Fprintf(w, "%.3fs\n", r.Stats.Seconds)
}
