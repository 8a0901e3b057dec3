// Package proofs is wormcheck's claims catalogue: every claim of ../shared/DESIGN.md with
// its stable id, its source, the instance family it is checked on, the semantics, the
// expected verdict and the code that checks it. `wormcheck prove` and `go test
// ./proofs/...` run it.
//
// Each family of claims lives in its own file and registers its claims from init; the
// registry is filled once at start-up and read-only afterwards.
package proofs

import (
	"context"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/props"
)

// Expect is the verdict a claim is expected to reach.
type Expect string

// The expected verdicts of the catalogue.
const (
	ExpectHolds    Expect = "holds"
	ExpectViolated Expect = "violated"
	ExpectMeasured Expect = "measured"
)

// Verdict values an Outcome may carry.
const (
	Holds        = "holds"
	Violated     = "violated"
	Inconclusive = "inconclusive"
	Measured     = "measured"
)

// Claim is one entry of the catalogue.
type Claim struct {
	ID        string // stable id, e.g. "WH2"
	Source    string // e.g. "000 Fig. 3" or "Dally & Seitz, cited by 000/004"
	Statement string // the claim in one sentence
	Semantics string // flit, timed, step, any-delay, static or sim
	Expected  Expect
	// Run checks the claim. It must honour ctx (cancellation) and opt.Quick (a smaller
	// family that still exercises the claim, for CI).
	Run func(ctx context.Context, opt Options) Outcome
}

// Options configure a catalogue run.
type Options struct {
	Quick    bool      // smaller families, for CI and quick looks
	Workers  int       // explorer workers (0 = 1)
	Progress io.Writer // where long runs report progress; nil = silent
}

// Outcome is what checking a claim produced.
type Outcome struct {
	Verdict   string // holds, violated, inconclusive or measured
	Instances int    // how many instances were checked
	States    int64  // total states explored (0 for static claims)
	// Witness is a JSON-able object: a trace, a contending pair, an unreachable pair...;
	// nil when there is none.
	Witness any
	// Figures are measured values (for "measured" claims and for context), e.g. the
	// paper's figure beside ours.
	Figures map[string]float64
	// Note is one or two sentences for people: the family checked, a reconstruction, a
	// disagreement with the paper.
	Note string
	// Files are witness artefacts keyed by extension ("json", "svg", "pcap"), written by
	// `prove --witness-dir D` as D/ID.EXT.
	Files map[string][]byte
	Err   error
	// Certificate says, for a claim judged by exploring flit or banyan transition
	// systems, how its verdict knows every message is delivered (checker.Tally over the
	// instances explored); nil for other claims.
	Certificate *props.Certificate
}

// certificate returns the claim-level certificate of the explored instances: their
// tally's for a claim that holds, and for a violated or inconclusive claim a "none" that
// says so (a violation claims no delivery).
func certificate(verdict string, t checker.Tally) *props.Certificate {
	if verdict == Holds {
		return t.Certificate()
	}
	return &props.Certificate{Kind: checker.CertNone, Transitions: t.Transitions,
		Note: fmt.Sprintf("the claim is %s, so no delivery is claimed; %d explored instance(s) were certified by progress, %d by the liveness check", verdict, t.Progress, t.Liveness)}
}

var (
	mu       sync.Mutex
	registry = map[string]Claim{}
)

// Register adds a claim to the catalogue; it panics on a duplicate id (a programming
// error caught by every test run).
func Register(c Claim) {
	mu.Lock()
	defer mu.Unlock()
	if _, dup := registry[c.ID]; dup {
		panic("proofs: duplicate claim id " + c.ID)
	}
	registry[c.ID] = c
}

// order is the catalogue order of DESIGN.md; ids not listed sort after, by name.
var order = []string{
	"WH1", "WH2", "WH3", "TM1", "TM2", "TM3", "TM4",
	"NP1", "NP2", "NP3", "NP4", "NP5", "NP6", "NP7", "NP8", "NP9", "NP10",
	"MN1", "MN2", "MN3", "MN4", "MN5", "MN6", "MN6B", "MN7",
	"HB1", "HB2", "HB3",
	"DC1", "DC2", "DC3", "DC4", "DC5", "DC6", "DC7", "DC8",
	"RT1", "RT2", "RT3", "RT4", "RT5", "RT6",
}

// All returns the registered claims in catalogue order.
func All() []Claim {
	mu.Lock()
	defer mu.Unlock()
	rank := map[string]int{}
	for i, id := range order {
		rank[id] = i
	}
	out := make([]Claim, 0, len(registry))
	for _, c := range registry {
		out = append(out, c)
	}
	sort.Slice(out, func(i, j int) bool {
		ri, oki := rank[out[i].ID]
		rj, okj := rank[out[j].ID]
		switch {
		case oki && okj:
			return ri < rj
		case oki != okj:
			return oki
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Lookup returns the claim with the given id.
func Lookup(id string) (Claim, bool) {
	mu.Lock()
	defer mu.Unlock()
	c, ok := registry[id]
	return c, ok
}

// Result is a claim's outcome with its timing, as `prove` reports it.
type Result struct {
	Claim   Claim
	Outcome Outcome
	Seconds float64
}

// AsExpected reports whether the outcome matches the claim's expectation.
func (r Result) AsExpected() bool {
	if r.Outcome.Err != nil {
		return false
	}
	return r.Outcome.Verdict == string(r.Claim.Expected)
}

// Run checks one claim, timing it and turning a panic into an error outcome so that one
// broken claim cannot take the catalogue down.
func Run(ctx context.Context, c Claim, opt Options) (r Result) {
	start := time.Now()
	r.Claim = c
	defer func() {
		if p := recover(); p != nil {
			r.Outcome = Outcome{Verdict: Inconclusive, Err: fmt.Errorf("claim %s panicked: %v", c.ID, p)}
		}
		r.Seconds = time.Since(start).Seconds()
	}()
	r.Outcome = c.Run(ctx, opt)
	if r.Outcome.Err != nil && r.Outcome.Verdict == "" {
		r.Outcome.Verdict = Inconclusive
	}
	return r
}
