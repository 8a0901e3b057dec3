package proofs

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestSelect checks that ids are matched case-insensitively, each once, and that an
// unknown id is refused with the flag named.
func TestSelect(t *testing.T) {
	cs, err := Select(" wh1, WH2,wh1")
	if err != nil || len(cs) != 2 || cs[0].ID != "WH1" || cs[1].ID != "WH2" {
		t.Fatalf("got %v, %v", cs, err)
	}
	if _, err := Select("WH1,nosuch"); err == nil || !strings.HasPrefix(err.Error(), "--only: no claim \"NOSUCH\"") {
		t.Fatalf("unknown id: %v", err)
	}
	if cs, _ := Select(""); len(cs) != len(All()) {
		t.Fatalf("empty selection: %d claims", len(cs))
	}
}

// TestReportAdd checks that one unexpected verdict or one claim not run marks the whole
// report, and that an error is put on one line.
func TestReportAdd(t *testing.T) {
	c, _ := Lookup("WH1")
	rep := NewReport("test", Quick)
	good := Result{Claim: c, Outcome: Outcome{Verdict: string(c.Expected)}}
	if cr := rep.Add(c, good); cr.Mark() != "ok" || !rep.AsExpected || rep.Interrupted {
		t.Fatalf("as expected: mark %q, report %+v", cr.Mark(), rep)
	}
	bad := Result{Claim: c, Outcome: Outcome{Verdict: "inconclusive", Err: errors.New("a\nb")}}
	cr := rep.Add(c, bad)
	if cr.Mark() != "UNEXPECTED" || rep.AsExpected || cr.Error != "a b" || len(cr.Notes()) != 1 {
		t.Fatalf("unexpected: %+v, report %+v", cr, rep)
	}
	if cr := rep.Add(c, NotRunResult(c)); cr.Mark() != "" || !rep.Interrupted || rep.Ran() != 2 {
		t.Fatalf("not run: mark %q, report %+v", cr.Mark(), rep)
	}
}

// TestReportRunInterrupted checks that once the context is done the claims left are
// recorded as not run (none is checked), and that an error from each ends the run.
func TestReportRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	claims, _ := Select("WH1,WH2")
	rep := NewReport("test", Quick)
	var seen []string
	err := rep.Run(ctx, claims, Options{Size: Quick, Workers: 1}, func(r Result, cr ClaimReport) error {
		seen = append(seen, cr.ID+" "+cr.Verdict)
		return nil
	})
	if err != nil || len(seen) != 2 || rep.Ran() != 0 || !rep.Interrupted || seen[0] != "WH1 "+NotRun {
		t.Fatalf("seen %v, err %v, report %+v", seen, err, rep)
	}
	stop := errors.New("disk full")
	rep = NewReport("test", Quick)
	if err := rep.Run(ctx, claims, Options{Size: Quick, Workers: 1}, func(Result, ClaimReport) error { return stop }); err != stop || len(rep.Claims) != 1 {
		t.Fatalf("err %v after %d claims", err, len(rep.Claims))
	}
}

// TestSummaryLine: the summary line counts each kind of outcome once.
func TestSummaryLine(t *testing.T) {
	rep := &Report{Claims: []ClaimReport{
		{ID: "A1", Verdict: Holds, AsExp: true},
		{ID: "A2", Verdict: Violated, AsExp: true},
		{ID: "A3", Verdict: Measured, AsExp: true},
		{ID: "A4", Verdict: Holds, AsExp: false},
		{ID: "A5", Verdict: NotRun},
	}}
	want := "summary: claims=5 as_expected=3 unexpected=1 not_run=1 violated=1 measured=1"
	if got := Summary(rep); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
