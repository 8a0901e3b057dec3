// Package proofs is wormcheck's claims catalogue: every claim of the source papers that
// wormcheck machine-checks, as data. A Claim is its stable id, its source, the claim in
// one sentence, the semantics, the expected verdict and its instance families; a Family
// is a name, what it holds at each Size (quick for CI, default for `wormcheck prove`,
// full for `prove --full`) and the library judge that checks it. The runner (Check)
// runs a claim's families in order, sums what they counted and decides the claim's
// verdict from theirs; `wormcheck prove` and `go test ./proofs/...` call it.
//
// The judging of an instance happens in the library, through the one entry
// (props/check.Run) that `wormcheck check` and users' tests call: WH and TM members
// (deadlock, exactly-once), NP1-NP7 (partition: levels, p1-p5, connected), NP9-NP10
// (node-contention, port-pairs), MN1-MN4 (banyan-route nonblocking, region-route),
// HB1-HB2 (sbt: validity, exactly-once, steps-exact, stepwise, distributions) and
// DC1-DC7 (dcf, edn, zblock: validity, exactly-once, steps-exact, stepwise, depth,
// any-delay, formula; DC8 flit-contention). A judge here only says which instances a claim takes and how
// their reports add up (counts, the first witness, notes and figures). NP8, the flit
// claims MN5-MN6B and RT1-RT6, and the measured simulations TM4, MN7 and HB3 still
// judge in this package.
//
// The sweeps over family members live beside their algorithms (algos/unicast,
// algos/treemcast, algos/banyan, algos/partition) and run on the one worker pool,
// checker.Sweep.
//
// The catalogue is one ordered table of data (catalogue.go, in DESIGN.md's order); each
// group of claims builds its families and judges in its own file.
package proofs

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
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

// Verdict values an Outcome may carry. NotRun is the verdict of a claim that a run
// never started because it was interrupted first.
const (
	Holds        = "holds"
	Violated     = "violated"
	Inconclusive = "inconclusive"
	Measured     = "measured"
	NotRun       = "not run"
)

// Size is how much of each instance family a run checks.
type Size int

// The three sizes of a family. Quick is the seconds-long form CI runs; Default is what
// `wormcheck prove` runs (the whole catalogue in about three minutes on 2 cores); Full
// is the complete families (about an hour on 2 cores).
const (
	Quick Size = iota
	Default
	Full
	numSizes
)

var sizeNames = [numSizes]string{Quick: "quick", Default: "default", Full: "full"}

// String returns "quick", "default" or "full", or "Size(n)" for an unknown value.
func (s Size) String() string {
	if s >= 0 && s < numSizes {
		return sizeNames[s]
	}
	return fmt.Sprintf("Size(%d)", int(s))
}

// ParseSize reads "quick", "default" or "full".
func ParseSize(s string) (Size, error) {
	for i, n := range sizeNames {
		if n == s {
			return Size(i), nil
		}
	}
	return 0, fmt.Errorf("size %q: want quick, default or full", s)
}

// pick returns the value for size s among the quick, default and full ones.
func pick[T any](s Size, quick, def, full T) T {
	switch s {
	case Quick:
		return quick
	case Default:
		return def
	}
	return full
}

// Claim is one entry of the catalogue.
type Claim struct {
	ID        string // stable id, e.g. "WH2"
	Source    string // e.g. "000 Fig. 3" or "Dally & Seitz, cited by 000/004"
	Statement string // the claim in one sentence
	Semantics string // flit, timed, step, any-delay, static or sim
	Expected  Expect
	// Families are checked in order; the claim's verdict is decided from theirs (see
	// Check).
	Families []Family
}

// families counts the claim's families that run at size s.
func (c Claim) families(s Size) int {
	n := 0
	for _, f := range c.Families {
		if f.Sizes[s] != "" {
			n++
		}
	}
	return n
}

// Family is one instance family of a claim.
type Family struct {
	// Name names the family in notes and listings, e.g. "mesh:3x3 placements".
	Name string
	// Sizes says in a few words which instances the family holds at each Size, for
	// `prove --list` and the README; "" means the family does not run at that size.
	Sizes [numSizes]string
	// Evidence marks a family whose verdict is not the claim's: a cross-check or a
	// comparison reported beside it (e.g. the other pruning policies of TM2). Its
	// errors and interruptions still count.
	Evidence bool
	// Judge checks the family at env.Size. It must honour ctx: when ctx is done it
	// returns what it counted so far with verdict Inconclusive (and no conclusion in
	// its Note), and the runner reports the claim as interrupted.
	Judge func(ctx context.Context, env Env) Outcome
}

// Env is what a judge is given besides its context.
type Env struct {
	Size    Size
	Workers int       // workers of the member pool (checker.Sweep) or the explorer; >= 1
	Meter   *Meter    // counts members and states as they are checked; never nil
	Family  string    // the family's name
	Claim   string    // the claim's id
	Started time.Time // when the claim started
	// Notion is how the flit claims check deadlock (the zero Notion as prove does);
	// Trail, when not nil, records their checks.
	Notion Notion
	Trail  *Trail
}

// Options configure a catalogue run.
type Options struct {
	Size    Size
	Workers int // 0 = 1
	// Meter, when not nil, receives the counts of the running claim as they grow, for a
	// progress line; the runner resets it at the start of each claim.
	Meter *Meter
	// Notion and Trail are for the soundness tests that compare deadlock notions: how
	// the flit claims check deadlock (the zero Notion: as prove does), and, when not
	// nil, where their checks are recorded.
	Notion Notion
	Trail  *Trail
}

// Outcome is what checking a family, or a whole claim, produced.
type Outcome struct {
	Verdict   string // holds, violated, inconclusive or measured
	Instances int    // how many instances were checked
	States    int64  // total states explored (0 for static claims)
	// Witness is the evidence: a saved trace (*tracefile.File), a schedule witness, a
	// *props.Witness or any JSON-able structure (a blocking pattern, an unreachable
	// pair); nil when there is none. Check returns it as a *props.Witness (WitnessOf).
	Witness any
	// Figures are measured values (for "measured" claims and for context), e.g. the
	// paper's figure beside ours.
	Figures map[string]float64
	// Note is one or two sentences for people: the family checked, a reconstruction, a
	// disagreement with the paper.
	Note string
	// Files are witness data files keyed by extension ("json", "witness.json",
	// "report.json"), written by `prove --witness-dir D` as D/ID.EXT.
	Files map[string][]byte
	// Evidence is what `prove --witness-dir D` draws as D/ID.svg, and for a flit-level
	// run captures as D/ID.pcap (props/render, in the command line); nil for none.
	Evidence props.Evidence
	Err      error
	// Interrupted is set by the runner when the context ended before the claim did.
	Interrupted bool
	// Certificate says, for a claim judged by exploring flit or banyan transition
	// systems, how its verdict knows every message is delivered (checker.Tally over the
	// instances explored); nil for other claims. A family reports its instances'
	// certificates in Tally instead, and Check turns the claim's tallies into one.
	Certificate *props.Certificate
	// Tally counts the delivery certificates of the instances a family explored (nil
	// for a family that explores none).
	Tally *checker.Tally
}

// cancelled is the outcome of a judge whose context ended: what it counted, no verdict.
func cancelled(ctx context.Context, out Outcome) Outcome {
	out.Verdict = Inconclusive
	out.Err = ctx.Err()
	return out
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

// Result is a claim's outcome with its timing, as `prove` reports it.
type Result struct {
	Claim   Claim
	Outcome Outcome
	Seconds float64
}

// AsExpected reports whether the outcome matches the claim's expectation.
func (r Result) AsExpected() bool {
	if r.Outcome.Err != nil || r.Outcome.Interrupted {
		return false
	}
	return r.Outcome.Verdict == string(r.Claim.Expected)
}

// NotRunResult is the result of a claim that an interrupted run never started.
func NotRunResult(c Claim) Result {
	return Result{Claim: c, Outcome: Outcome{Verdict: NotRun}}
}

// Check runs one claim: its families in order at opt.Size, timed, a panic turned into
// an error outcome so that one broken claim cannot take the catalogue down. The claim's
// Instances and States are the families' sums; its verdict is
//   - inconclusive, marked Interrupted, when ctx ended before the last family finished
//     (the note says how far it got; no family's conclusion is reported);
//   - inconclusive when a family failed with an error;
//   - for an expected "measured" claim, measured when every family measured;
//   - violated when a family that is not Evidence is violated (the first such family's
//     witness and files are the claim's);
//   - inconclusive when such a family is inconclusive;
//   - holds otherwise.
//
// Notes are the families' notes in order, joined by "; "; figures are merged (a later
// family's key replaces an earlier one's).
func Check(ctx context.Context, c Claim, opt Options) (r Result) {
	start := time.Now()
	r.Claim = c
	meter := opt.Meter
	if meter == nil {
		meter = new(Meter)
	}
	meter.reset(c.ID, c.families(opt.Size), start)
	defer func() {
		if p := recover(); p != nil {
			r.Outcome = Outcome{Verdict: Inconclusive, Err: fmt.Errorf("claim %s panicked: %v\n%s", c.ID, p, debug.Stack())}
		}
		r.Seconds = time.Since(start).Seconds()
	}()
	env := Env{Size: opt.Size, Workers: max(1, opt.Workers), Meter: meter, Claim: c.ID, Started: start, Notion: opt.Notion, Trail: opt.Trail}
	var outs []Outcome
	var fams []Family
	for _, f := range c.Families {
		if f.Sizes[opt.Size] == "" {
			continue
		}
		if ctx.Err() != nil {
			break
		}
		env.Family = f.Name
		meter.startFamily(f.Name)
		o := f.Judge(ctx, env)
		meter.endFamily()
		outs = append(outs, o)
		fams = append(fams, f)
		if o.Err != nil || (ctx.Err() != nil) {
			break
		}
	}
	r.Outcome = combine(ctx, c, opt.Size, fams, outs)
	if !r.Outcome.Interrupted {
		r.Outcome.Certificate = claimCertificate(r.Outcome.Verdict, outs)
	}
	if r.Outcome.Witness != nil {
		r.Outcome.Witness = WitnessOf(r.Outcome.Witness)
	}
	return r
}

// claimCertificate is the claim's delivery certificate: from the families' tallies
// merged (every family's, comparisons included: their violated members count as
// violated, not as certified), or the one family's own certificate, or nil.
func claimCertificate(verdict string, outs []Outcome) *props.Certificate {
	var t checker.Tally
	tallied := false
	var own *props.Certificate
	for _, o := range outs {
		if o.Tally != nil {
			t.Merge(*o.Tally)
			tallied = true
		}
		if o.Certificate != nil && own == nil {
			own = o.Certificate
		}
	}
	if tallied {
		return certificate(verdict, t)
	}
	return own
}

// combine decides a claim's outcome from its families' (see Check).
func combine(ctx context.Context, c Claim, size Size, fams []Family, outs []Outcome) Outcome {
	var out Outcome
	var notes []string
	for i, o := range outs {
		out.Instances += o.Instances
		out.States += o.States
		if o.Note != "" {
			notes = append(notes, o.Note)
		}
		for k, v := range o.Figures {
			if out.Figures == nil {
				out.Figures = map[string]float64{}
			}
			out.Figures[k] = v
		}
		if o.Err != nil && out.Err == nil && !errors.Is(o.Err, context.Canceled) && !errors.Is(o.Err, context.DeadlineExceeded) {
			out.Err = fmt.Errorf("family %s: %w", fams[i].Name, o.Err)
		}
	}
	if ctx.Err() != nil {
		done := 0
		for _, o := range outs {
			if o.Err == nil {
				done++
			}
		}
		out.Verdict, out.Interrupted, out.Err = Inconclusive, true, nil
		out.Figures, out.Witness, out.Files, out.Evidence = nil, nil, nil, nil
		out.Note = fmt.Sprintf("interrupted (%v) after %d of %d families: %d instances, %d states counted; no verdict", context.Cause(ctx), done, c.families(size), out.Instances, out.States)
		return out
	}
	out.Note = strings.Join(notes, "; ")
	if out.Err != nil {
		out.Verdict = Inconclusive
		return out
	}
	if c.Expected == ExpectMeasured {
		out.Verdict = Measured
		for _, o := range outs {
			if o.Verdict != Measured {
				out.Verdict = o.Verdict
				break
			}
		}
		for _, o := range outs {
			if o.Witness != nil && out.Witness == nil {
				out.Witness, out.Files, out.Evidence = o.Witness, o.Files, o.Evidence
				if _, ok := o.Witness.(*props.Witness); !ok {
					// A measured claim's evidence is a measurement (a table, a figure
					// with its context), not a counterexample.
					out.Witness = &props.Witness{Kind: props.WitnessMeasurement, Detail: o.Witness}
				}
			}
		}
		return out
	}
	out.Verdict = Holds
	for i, o := range outs {
		if fams[i].Evidence {
			continue
		}
		switch o.Verdict {
		case Violated:
			if out.Verdict != Violated {
				out.Verdict, out.Witness, out.Files, out.Evidence = Violated, o.Witness, o.Files, o.Evidence
			}
		case Holds:
		default:
			if out.Verdict == Holds {
				out.Verdict = Inconclusive
			}
		}
	}
	if out.Verdict == Holds {
		// A claim that holds may still carry a witness of interest (e.g. MN1's cyclic
		// concentration): the first such family's that has one; an Evidence family's
		// witness (another policy's deadlock) is not the claim's.
		for i, o := range outs {
			if o.Witness != nil && !fams[i].Evidence {
				out.Witness, out.Files, out.Evidence = o.Witness, o.Files, o.Evidence
				break
			}
		}
		for i, o := range outs {
			if out.Files == nil && o.Files != nil && !fams[i].Evidence {
				out.Files = o.Files
			}
			if out.Evidence == nil && o.Evidence != nil && !fams[i].Evidence {
				out.Evidence = o.Evidence
			}
		}
	}
	return out
}

// one is the single family of a claim that is checked by one library judge over its
// whole instance set (static and measured claims, and searches that stop at their
// first finding); sizes says what it holds at each size.
func one(sizes [numSizes]string, judge func(ctx context.Context, env Env) Outcome) []Family {
	return []Family{{Name: "all", Sizes: sizes, Judge: judge}}
}

// joinNotes joins a family's note lines as the catalogue prints them.
func joinNotes(notes []string) string { return strings.Join(notes, "; ") }
