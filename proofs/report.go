package proofs

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/wormcheck/wormcheck/props"
)

// This file builds the report of a catalogue run (`wormcheck prove`): one ClaimReport
// per claim, gathered in a Report that knows whether every verdict is as expected and
// whether the run was cut short. The command line prints it as a table or as JSON.

// ClaimReport is one claim's entry in a Report (`prove --json`'s claims[]).
type ClaimReport struct {
	ID        string `json:"id"`
	Source    string `json:"source"`
	Claim     string `json:"claim"`
	Semantics string `json:"semantics"`
	Expected  string `json:"expected"`
	Verdict   string `json:"verdict"`
	AsExp     bool   `json:"as_expected"`
	Instances int    `json:"instances"`
	States    int64  `json:"states"`
	// Reduction names the partial-order reduction that produced States: "none" (the
	// catalogue's searches are unreduced); empty when the claim explored no state space.
	Reduction string         `json:"reduction,omitempty"`
	Seconds   float64        `json:"seconds"`
	Witness   *props.Witness `json:"witness"`
	Figures   map[string]any `json:"figures,omitempty"`
	Note      string         `json:"note,omitempty"`
	Error     string         `json:"error,omitempty"`
	// Certificate says how a flit or banyan claim knows every message is delivered.
	Certificate *props.Certificate `json:"certificate,omitempty"`
}

// Report is the outcome of a catalogue run at one size (`prove --json`'s object).
type Report struct {
	// Schema tags the JSON object: ReportSchema (docs/report.md); Command is "prove".
	Schema      string        `json:"schema"`
	Version     string        `json:"version"`
	Command     string        `json:"command"`
	Size        string        `json:"size"`
	Quick       bool          `json:"quick"`
	AsExpected  bool          `json:"as_expected"`
	Interrupted bool          `json:"interrupted,omitempty"`
	Claims      []ClaimReport `json:"claims"`
}

// CatalogueReduction is the reduction behind the catalogue's state counts: none. Its
// searches are unreduced (the claims' families are small; TestDeadlockNotionsAgree
// checks that stubborn-set reduction gives every member the same verdict).
const CatalogueReduction = "none"

// ReportSchema is the schema tag of prove's JSON object.
const ReportSchema = "wormcheck-prove/1"

// NewReport starts the report of a run at size by the tool of the given version.
func NewReport(version string, size Size) *Report {
	return &Report{Schema: ReportSchema, Version: version, Command: "prove", Size: size.String(), Quick: size == Quick, AsExpected: true}
}

// Add records the result r of claim c and returns its entry. The error, if any, is put on
// one line.
func (rep *Report) Add(c Claim, r Result) ClaimReport {
	cr := ClaimReport{
		ID: c.ID, Source: c.Source, Claim: c.Statement, Semantics: c.Semantics,
		Expected: string(c.Expected), Verdict: r.Outcome.Verdict, AsExp: r.AsExpected(),
		Instances: r.Outcome.Instances, States: r.Outcome.States, Seconds: r.Seconds,
		Witness: WitnessOf(r.Outcome.Witness), Figures: figuresJSON(r.Outcome.Figures), Note: r.Outcome.Note,
		Certificate: r.Outcome.Certificate,
	}
	if cr.States > 0 {
		cr.Reduction = CatalogueReduction
	}
	if r.Outcome.Err != nil {
		cr.Error = strings.NewReplacer("\n", " ", "\r", " ").Replace(r.Outcome.Err.Error())
	}
	if !cr.AsExp {
		rep.AsExpected = false
	}
	if r.Outcome.Interrupted || r.Outcome.Verdict == NotRun {
		rep.Interrupted = true
	}
	rep.Claims = append(rep.Claims, cr)
	return cr
}

// Run checks the claims in order with opt, adding each result to the report and passing
// it to each (which may print it or write its files; an error from each ends the run
// and is returned). Once ctx is done, the claims left are recorded as not run.
func (rep *Report) Run(ctx context.Context, claims []Claim, opt Options, each func(Result, ClaimReport) error) error {
	for _, c := range claims {
		var r Result
		if ctx.Err() != nil {
			r = NotRunResult(c)
		} else {
			r = Check(ctx, c, opt)
		}
		if err := each(r, rep.Add(c, r)); err != nil {
			return err
		}
	}
	return nil
}

// Ran counts the claims of the report that were run.
func (rep *Report) Ran() int {
	n := 0
	for _, c := range rep.Claims {
		if c.Verdict != NotRun {
			n++
		}
	}
	return n
}

// Mark is the table's mark of the entry: "ok", "UNEXPECTED", or "" when not run.
func (cr ClaimReport) Mark() string {
	switch {
	case cr.Verdict == NotRun:
		return ""
	case !cr.AsExp:
		return "UNEXPECTED"
	}
	return "ok"
}

// Notes are the table's notes of the entry: its error and its note, each naming the claim.
func (cr ClaimReport) Notes() []string {
	var notes []string
	if cr.Error != "" {
		notes = append(notes, fmt.Sprintf("%s: error: %s", cr.ID, cr.Error))
	}
	if cr.Note != "" {
		notes = append(notes, fmt.Sprintf("%s: %s", cr.ID, cr.Note))
	}
	return notes
}

// figuresJSON makes figures encodable: a value that is not a finite number (the mean
// latency of a saturated point is NaN) becomes null.
func figuresJSON(f map[string]float64) map[string]any {
	if f == nil {
		return nil
	}
	out := make(map[string]any, len(f))
	for k, v := range f {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			out[k] = nil
		} else {
			out[k] = v
		}
	}
	return out
}

// Select returns the catalogue, or the claims named in a comma-separated list of ids
// (case-insensitive, each once, in the order given).
func Select(only string) ([]Claim, error) {
	all := All()
	if strings.TrimSpace(only) == "" {
		return all, nil
	}
	var out []Claim
	for _, id := range strings.Split(only, ",") {
		id = strings.ToUpper(strings.TrimSpace(id))
		c, ok := Lookup(id)
		if !ok {
			ids := make([]string, len(all))
			for i, c := range all {
				ids[i] = c.ID
			}
			return nil, fmt.Errorf("--only: no claim %q; known: %s", id, strings.Join(ids, ","))
		}
		if !slices.ContainsFunc(out, func(x Claim) bool { return x.ID == id }) {
			out = append(out, c)
		}
	}
	return out, nil
}
