package proofs

import (
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/props"
)

// TestTableRowsNotesAndClosingLine pins the table of a run: a claim not run shows "-",
// an unexpected verdict is marked, notes come after the rows, and the closing line
// counts the claims run when the run was interrupted.
func TestTableRowsNotesAndClosingLine(t *testing.T) {
	var b strings.Builder
	tab := NewTable(&b)
	rep := &Report{AsExpected: true}
	rows := []ClaimReport{
		{ID: "WH1", Source: strings.Repeat("s", 40), Semantics: "flit", Expected: "holds", Verdict: "holds", AsExp: true, Instances: 3, States: 120, Seconds: 0.5},
		{ID: "WH2", Source: "002", Semantics: "flit", Expected: "violated", Verdict: "holds", Instances: 1, States: 9, Note: "a note", Error: "bad"},
		{ID: "WH3", Source: "002", Semantics: "flit", Expected: "holds", Verdict: NotRun},
	}
	for _, r := range rows {
		rep.Claims = append(rep.Claims, r)
		tab.Row(r)
	}
	rep.Interrupted = true
	tab.Finish(rep)
	got := b.String()
	for _, want := range []string{
		"CLAIM  SOURCE",
		"WH1    " + strings.Repeat("s", 33) + "…",
		"ok",
		"UNEXPECTED",
		"WH3    002",
		"\nNotes:\n  WH2: error: bad\n  WH2: a note\n",
		"\ninterrupted: 2 of 3 claims run, the last one inconclusive\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("table lacks %q:\n%s", want, got)
		}
	}
	if !strings.Contains(got, "        -            -         -") {
		t.Errorf("a claim not run should show - for its figures:\n%s", got)
	}
	var nilTable *Table
	nilTable.Row(rows[0]) // a nil table writes nothing and does not panic
	nilTable.Finish(rep)
}

// TestTableClosingLine checks the closing lines of an uninterrupted run: the verdict
// line and the fixed summary.
func TestTableClosingLine(t *testing.T) {
	for _, c := range []struct {
		asExpected bool
		want       string
	}{{true, "\nall 1 claims as expected\nsummary: claims=1 as_expected=1 unexpected=0 not_run=0 violated=0 measured=0\n"},
		{false, "\nsome claims are NOT as expected\nsummary: claims=1 as_expected=0 unexpected=1 not_run=0 violated=0 measured=0\n"}} {
		var b strings.Builder
		NewTable(&b).Finish(&Report{AsExpected: c.asExpected, Claims: []ClaimReport{{ID: "X", Verdict: Holds, AsExp: c.asExpected}}})
		if !strings.HasSuffix(b.String(), c.want) {
			t.Errorf("as expected %v: got %q, want suffix %q", c.asExpected, b.String(), c.want)
		}
	}
}

// TestWriteClaimsListsFamiliesBySize lists the catalogue's first claim and checks that
// every family shows its three sizes, with "-" for a size where it is not run.
func TestWriteClaimsListsFamiliesBySize(t *testing.T) {
	c := Claim{ID: "XX1", Source: "000 §1", Semantics: "flit", Expected: "holds", Statement: "a claim",
		Families: []Family{{Name: "fam", Sizes: [numSizes]string{"", "mesh:3x3", "mesh:4x4"}, Evidence: true}}}
	var b strings.Builder
	WriteClaims(&b, []Claim{c})
	got := b.String()
	for _, want := range []string{"ID   SOURCE  SEMANTICS  EXPECTED  CLAIM\n", "XX1  000 §1  flit       holds     a claim\n", "  XX1 fam (evidence): - | mesh:3x3 | mesh:4x4\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("list lacks %q:\n%s", want, got)
		}
	}
}

// TestProgressPlainLines checks the plain (non-terminal) reporter: a line when a claim
// ends, nothing for a claim not run, and a progress line in the shared format.
func TestProgressPlainLines(t *testing.T) {
	var b syncBuilder
	m := new(Meter)
	p := StartProgress(&b, m, false)
	p.ClaimDone(Result{Claim: Claim{ID: "WH1"}, Outcome: Outcome{Verdict: "holds", Instances: 2, States: 7}, Seconds: 1.25})
	p.ClaimDone(NotRunResult(Claim{ID: "WH2"}))
	p.Stop()
	if got, want := b.String(), "prove WH1: holds, 2 instances, 7 states, 1.2s\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	m.reset("TM2", 3, time.Now())
	m.startFamily("mesh:3x3 pairs:2")
	m.Expect(10)
	m.Add(4, 1000)
	line := progressLine(m.Snapshot(), 500)
	for _, want := range []string{"prove TM2 [1/3 mesh:3x3 pairs:2]", "4/10 40%", "1000 states"} {
		if !strings.Contains(line, want) {
			t.Errorf("progress line %q lacks %q", line, want)
		}
	}
	// The line fits an 80-column terminal, however long the family's name and figures.
	m.reset("AN4", 12, time.Now())
	m.startFamily("mesh:8x8 all-placements:3 L=2 B=1 routing negative-first shard 17/128 samples 100000")
	m.Expect(123456789)
	m.Add(98765432, 9876543210)
	for _, line := range []string{progressLine(m.Snapshot(), 1.5e6), progressLine(MeterSnapshot{Claim: "WH1"}, 0)} {
		if n := len([]rune(line)); n > 79 {
			t.Errorf("progress line of %d columns; want at most 79:\n%s", n, line)
		}
		if !strings.HasPrefix(line, "prove ") {
			t.Errorf("progress line %q does not start with the claim", line)
		}
	}
	var nilProgress *Progress
	nilProgress.ClaimDone(Result{})
	nilProgress.Stop()
}

// syncBuilder is a strings.Builder that the reporter's goroutine may write to.
type syncBuilder struct {
	mu sync.Mutex
	b  strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuilder) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestReportVerdict reads a run's verdict: interrupted beats unexpected beats holds.
func TestReportVerdict(t *testing.T) {
	for _, c := range []struct {
		rep  Report
		want props.Verdict
	}{
		{Report{AsExpected: true}, props.Holds},
		{Report{AsExpected: false}, props.Violated},
		{Report{AsExpected: false, Interrupted: true}, props.Inconclusive},
	} {
		if got := c.rep.Verdict(); got != c.want {
			t.Errorf("%+v: %s, want %s", c.rep, got, c.want)
		}
	}
}

// TestNotesWrapped: prove's notes are wrapped to 80 columns at spaces (a word longer than
// a line stays whole), and no word is lost.
func TestNotesWrapped(t *testing.T) {
	long := strings.Repeat("the contention-free formula holds on every torus we tried ", 6) + strings.Repeat("x", 100)
	lines := wrap(long, notesWidth-4)
	if len(lines) < 5 {
		t.Errorf("%d lines; want the note wrapped", len(lines))
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > notesWidth-4 && !strings.Contains(l, strings.Repeat("x", 100)) {
			t.Errorf("line of %d runes: %q", n, l)
		}
	}
	if got := strings.Join(strings.Fields(strings.Join(lines, " ")), " "); got != strings.Join(strings.Fields(long), " ") {
		t.Errorf("wrapping changed the words:\n%s", got)
	}
	var b strings.Builder
	tb := &Table{w: &b, notes: []string{long}}
	tb.Finish(&Report{AsExpected: true})
	for _, l := range strings.Split(b.String(), "\n") {
		if n := len([]rune(l)); n > notesWidth && !strings.Contains(l, strings.Repeat("x", 100)) {
			t.Errorf("printed line of %d columns: %q", n, l)
		}
	}
}
