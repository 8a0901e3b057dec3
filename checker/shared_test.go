package checker

import (
	"errors"
	"fmt"
	"slices"
	"testing"
)

// tally is a model for the shared table's tests: three counters modulo 24, any of which may
// step (24^3 = 13,824 states, 3 transitions each), with a violation of "the counters
// never read 5, 7, 11" at depth 23.
type tally struct{}

func (tally) Init() [][3]uint8 { return [][3]uint8{{}} }

func (tally) Successors(s [3]uint8, dst []Transition[[3]uint8]) []Transition[[3]uint8] {
	for i := range s {
		n := s
		n[i] = (n[i] + 1) % 24
		dst = append(dst, Transition[[3]uint8]{Action: Action(i), Next: n})
	}
	return dst
}

func (tally) Encode(s [3]uint8, buf []byte) []byte { return append(buf, s[:]...) }
func (tally) Terminal([3]uint8) bool               { return false }
func (tally) Describe(_ [3]uint8, a Action) string { return fmt.Sprintf("step %d", a) }

// TestSharedTable runs several workers on the shared table, whose every shard grows
// once or more in a pause while the workers expand a level (run it with -race), and
// checks that counts, depth and the shortest trace equal one worker's, in both stores.
func TestSharedTable(t *testing.T) {
	never := Invariant[[3]uint8]{Name: "never 5,7,11", Check: func(s [3]uint8) error {
		if s == [3]uint8{5, 7, 11} {
			return fmt.Errorf("reached %v", s)
		}
		return nil
	}}
	for _, store := range []StoreMode{Exact, Fingerprint} {
		one, err := Explore[[3]uint8](tally{}, Options[[3]uint8]{Store: store})
		if err != nil || one.Stats.States != 13824 || one.Stats.Transitions != 3*13824 {
			t.Fatalf("%v, one worker: %v %v", store, one, err)
		}
		bad, err := Explore[[3]uint8](tally{}, Options[[3]uint8]{Store: store, Invariants: []Invariant[[3]uint8]{never}})
		if err != nil || bad.Verdict != Violated || bad.Violation.Trace.Len() != 23 {
			t.Fatalf("%v, one worker, violation: %v %v", store, bad, err)
		}
		for _, w := range []int{2, 3} {
			res, err := Explore[[3]uint8](tally{}, Options[[3]uint8]{Store: store, Workers: w})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != Holds || res.Stats.States != one.Stats.States || res.Stats.Transitions != one.Stats.Transitions || res.Stats.Depth != one.Stats.Depth {
				t.Errorf("%v, %d workers: %v, %+v; one worker: %+v", store, w, res.Verdict, res.Stats, one.Stats)
			}
			res, err = Explore[[3]uint8](tally{}, Options[[3]uint8]{Store: store, Workers: w, Invariants: []Invariant[[3]uint8]{never}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Verdict != Violated || res.Violation.Trace.String() != bad.Violation.Trace.String() {
				t.Errorf("%v, %d workers: %v with trace\n%v\nwant\n%v", store, w, res.Verdict, res.Violation, bad.Violation.Trace)
			}
		}
	}
}

// TestNarrowLevelsOneWorker checks that a level narrower than parallelLevel, expanded by
// one goroutine over the several workers' keyed store, gives what the parallel path and
// one worker give: the same verdicts, counts and traces.
func TestNarrowLevelsOneWorker(t *testing.T) {
	defer func(old int) { parallelLevel = old }(parallelLevel)
	never := Invariant[[3]uint8]{Name: "never 2,2,2", Check: func(s [3]uint8) error {
		if s == [3]uint8{2, 2, 2} {
			return errors.New("all at 2")
		}
		return nil
	}}
	var want []string
	for _, pl := range []int{1, 1 << 30} {
		parallelLevel = pl
		for _, store := range []StoreMode{Exact, Fingerprint} {
			for _, w := range []int{1, 2, 3} {
				res, err := Explore[[3]uint8](tally{}, Options[[3]uint8]{Store: store, Workers: w, Invariants: []Invariant[[3]uint8]{never}})
				if err != nil || res.Violation == nil {
					t.Fatalf("parallelLevel %d, %v, workers %d: %v %v", pl, store, w, res, err)
				}
				got := []string{res.Verdict.String(), fmt.Sprint(res.Stats.States, res.Stats.Transitions, res.Stats.Depth), res.Violation.Trace.String()}
				if want == nil {
					want = got
				} else if !slices.Equal(got, want) {
					t.Fatalf("parallelLevel %d, %v, workers %d: %q, want %q", pl, store, w, got, want)
				}
			}
		}
	}
}
