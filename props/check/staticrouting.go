package check

import (
	"context"
	"fmt"
	"io"
	"os"
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
		if g, err = model.ParseNetwork(topo); err != nil {
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

// routingAlgorithm is a routing relation itself, proved deadlock-free statically on a
// whole topology (CheckRouting): the entry's form of `wormcheck routing`, so that a
// claim or a user's test judges a relation through Run like any other instance.
func routingAlgorithm() Algorithm {
	return Algorithm{
		Name:    "routing",
		Summary: "a routing relation, proved deadlock-free statically on a whole topology (CDG, Duato)",
		Doc: `A routing relation (a built-in or a routing file) on a whole topology, judged without a
search: deadlock holds when its channel dependency graph is acyclic (Dally & Seitz 1987,
Theorem 1) or when Duato's condition holds for its escape subfunction (Duato 1993,
Theorem 1); it is violated when a reachable header is offered no output (a stranded
header, witness kind instance), and inconclusive when neither condition holds (they are
sufficient only: the witness is a cycle, not a proven deadlock; explore the relation
with unicast --routing to decide). Figures cdg_acyclic, duato_proved and
escape_vertices say which condition held.`,
		Properties: []Support{{"deadlock", "static"}},
		Params: []Param{
			{"routing", "", "routing relation: a built-in (dor, west-first, north-last, negative-first, odd-even, adaptive, duato, nonminimal, nonminimal:B) or a routing file"},
		},
		prepare: prepareRouting,
	}
}

func prepareRouting(r *request) (job, error) {
	spec := r.str("routing")
	if spec == "" {
		return nil, badf("--routing is missing; e.g. --routing west-first --topo mesh:4x4")
	}
	rr, err := CheckRouting(r.topology, spec, os.ReadFile)
	if err != nil {
		return nil, err
	}
	return func(context.Context) (*props.Report, error) {
		rep := rr.Report
		res := rr.Analysis
		rep.Command = ""
		rep.Instance = props.Instance{Topology: res.Topology, Algorithm: "routing", Params: map[string]any{"routing": res.Relation, "vcs": res.VCs}}
		rep.Figures = map[string]float64{FigCDGAcyclic: b2f(res.Acyclic)}
		if d := res.Duato; d != nil {
			rep.Figures[FigDuatoProved] = b2f(d.Connected && d.Decided && d.Acyclic)
			rep.Figures[FigEscapeVertices] = float64(d.Escape)
		}
		if rep.Witness == nil && rr.CDGWitness != nil {
			rep.Notes = append(rep.Notes, "the channel dependency graph has a cycle, which Duato's condition overcomes: "+rr.CDGWitness.Violation)
		}
		if r.opt.drawPicture(rep.Verdict) {
			rep.SVG, _ = rr.SVG() // nil where no cycle exists or the topology is not drawn
		}
		return &rep, nil
	}, nil
}

// b2f is 1 for true, 0 for false: a yes/no figure.
func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}
