package cdg

import (
	"runtime"
	"strings"
	"testing"

	"github.com/wormcheck/wormcheck/model/routing"
)

// TestAnalyzeWithinBytes: an analysis whose dependency-graph search would not fit
// Options.MaxBytes stops before it allocates it (Stopped, the budget named), and one
// that fits only one goroutine's search runs on one and gives the result of two.
func TestAnalyzeWithinBytes(t *testing.T) {
	rel := routing.NewAdaptive(mustGrid(t, "hypercube:12"))
	s, err := newSearcher(rel)
	if err != nil {
		t.Fatal(err)
	}
	per := s.partBytes()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err = Analyze(rel, Options{MaxBytes: per / 2})
	runtime.ReadMemStats(&after)
	if !Stopped(err) || !strings.Contains(err.Error(), "memory budget") {
		t.Fatalf("MaxBytes %d below one search's %d: %v", per/2, per, err)
	}
	if got := int64(after.TotalAlloc - before.TotalAlloc); got > per/2 {
		t.Errorf("refused after allocating %d bytes (one search takes %d)", got, per)
	}
	one, err := Analyze(rel, Options{MaxBytes: per + per/2, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	two, err := Analyze(rel, Options{Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	if one.Acyclic != two.Acyclic || one.States != two.States || one.Edges != two.Edges || one.Destinations != two.Destinations {
		t.Errorf("one goroutine within the budget: %+v; two: %+v", one, two)
	}
}
