package checker

import (
	"encoding/binary"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
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

// diamond is a model whose second state is expanded before its first by another
// worker: init reaches a (slow to expand) and b, both of which reach c by different
// actions, and c violates "never c". The least key of c is a's transition, so every
// worker count must report the trace init, a, c; a store that kept the first
// discovery, or its action, would report init, b, c. It is also a SuccessorEncoder, so
// that the states built after their level (materialize) take the lowered key's action.
type diamond struct{ slow time.Duration }

func (diamond) Init() []byte { return []byte{'i'} }

func (d diamond) Successors(s byte, dst []Transition[byte]) []Transition[byte] {
	switch s {
	case 'i':
		return append(dst, Transition[byte]{Action: 1, Next: 'a'}, Transition[byte]{Action: 2, Next: 'b'})
	case 'a':
		time.Sleep(d.slow) // b's worker finds c first
		return append(dst, Transition[byte]{Action: 3, Next: 'c'})
	case 'b':
		return append(dst, Transition[byte]{Action: 4, Next: 'c'})
	}
	return dst
}

func (diamond) Encode(s byte, buf []byte) []byte { return append(buf, s) }
func (diamond) Terminal(byte) bool               { return true }
func (diamond) Describe(s byte, a Action) string { return fmt.Sprintf("%c by %d", s, a) }

func (d diamond) EncodeSuccessors(s byte, buf []byte, yield func(Action, []byte)) []byte {
	for _, t := range d.Successors(s, nil) {
		yield(t.Action, []byte{t.Next})
	}
	return buf
}

func (d diamond) Successor(s byte, a Action) byte {
	for _, t := range d.Successors(s, nil) {
		if t.Action == a {
			return t.Next
		}
	}
	panic("diamond: no such action")
}

// plainDiamond hides diamond's SuccessorEncoder.
type plainDiamond struct{ Model[byte] }

// TestLoweredKeyWins checks that the state two workers discover out of key order gets
// the least key's parent and action, in both stores, with and without materialize.
func TestLoweredKeyWins(t *testing.T) {
	never := Invariant[byte]{Name: "never c", Check: func(s byte) error {
		if s == 'c' {
			return errors.New("c")
		}
		return nil
	}}
	d := diamond{slow: 30 * time.Millisecond}
	for _, m := range []Model[byte]{d, plainDiamond{d}} {
		for _, store := range []StoreMode{Exact, Fingerprint} {
			for _, w := range []int{1, 2} {
				res, err := Explore(m, Options[byte]{Store: store, Workers: w, Invariants: []Invariant[byte]{never}})
				if err != nil || res.Violation == nil {
					t.Fatalf("%T, %v, %d workers: %v %v", m, store, w, res, err)
				}
				if got, want := res.Violation.Trace.String(), "0 init\n1 i by 1\n2 a by 3\n"; got != want {
					t.Errorf("%T, %v, %d workers: trace\n%swant\n%s", m, store, w, got, want)
				}
			}
		}
	}
}

// fan is a model whose initial state has n successors, each a terminal state.
type fan struct{ n int }

func (fan) Init() []uint32 { return []uint32{0} }

func (f fan) Successors(s uint32, dst []Transition[uint32]) []Transition[uint32] {
	if s != 0 {
		return dst
	}
	for i := 1; i <= f.n; i++ {
		dst = append(dst, Transition[uint32]{Action: Action(i), Next: uint32(i)})
	}
	return dst
}

func (fan) Encode(s uint32, buf []byte) []byte { return binary.LittleEndian.AppendUint32(buf, s) }
func (fan) Terminal(uint32) bool               { return true }
func (fan) Describe(uint32, Action) string     { return "" }

// TestTooManySuccessors checks that a state with more successors than a parent record
// can index is an error, not a wrong trace, and that the most it can index is fine.
func TestTooManySuccessors(t *testing.T) {
	for _, w := range []int{1, 2} {
		res, err := Explore[uint32](fan{maxTrans + 1}, Options[uint32]{Workers: w})
		if err != nil || res.Stats.States != maxTrans+2 {
			t.Errorf("%d workers, %d successors: %v %v", w, maxTrans+1, res, err)
		}
		_, err = Explore[uint32](fan{maxTrans + 2}, Options[uint32]{Workers: w})
		if err == nil || !strings.Contains(err.Error(), "successors") {
			t.Errorf("%d workers, %d successors: error %v, want one about successors", w, maxTrans+2, err)
		}
	}
}

// TestMergeLevel checks the end of a shared level on random workers' lists: entries in
// a few runs each in key order (as a worker lists them, one run per share it took
// chunks from), some stale, their replaced keys noted by any worker. The next level must
// be the entries that are not stale, in key order, each with its key as its record, and
// an encoded level must carry each entry's encoding; with every merge cut into parts.
func TestMergeLevel(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261124)
	params.MinSuccessfulTests = 300
	props := gopter.NewProperties(params)
	props.Property("mergeLevel keeps the entries that are not stale, in key order", prop.ForAll(
		func(workers, width, entries int, staleShare float64, encoded bool, seed uint64) (bool, error) {
			if msg := checkMerge(workers, width, entries, staleShare, encoded, seed); msg != "" {
				return false, fmt.Errorf("%d workers, width %d, %d entries, %.2f stale, encoded %v, seed %d: %s",
					workers, width, entries, staleShare, encoded, seed, msg)
			}
			return true, nil
		},
		gen.IntRange(2, 4), gen.IntRange(1, 300), gen.IntRange(0, 2000), gen.Float64Range(0, 0.5),
		gen.Bool(), gen.UInt64(),
	))
	props.TestingRun(t)
}

// checkMerge builds one random level for TestMergeLevel, ends it, and returns what is
// wrong with the result, or "".
func checkMerge(workers, width, entries int, staleShare float64, encoded bool, seed uint64) string {
	r := rand.New(rand.NewPCG(seed, 7))
	st := newStore[uint64](true, workers, encoded, false)
	for range 5 { // ids of earlier levels
		st.recs.add(0)
	}
	st.parentFirst = st.recs.n - 1
	keys := map[uint64]bool{}
	for len(keys) < entries && len(keys) < width*8 {
		keys[packRecord(st.parentFirst+uint64(r.IntN(width)), uint32(r.IntN(8)))] = true
	}
	all := slices.Sorted(maps.Keys(keys))
	enc := func(k uint64) []byte { return []byte(fmt.Sprint(k)) } // of varying length
	// Deal the keys, in order, to runs: each worker has up to three, and a run takes a
	// stretch of keys, as a share of the frontier does.
	type run struct{ w, r int }
	runs := map[run][]uint64{}
	var order []run
	for i := 0; i < len(all); {
		ru := run{r.IntN(workers), r.IntN(3)}
		n := 1 + r.IntN(50)
		if _, ok := runs[ru]; !ok {
			order = append(order, ru)
		}
		runs[ru] = append(runs[ru], all[i:min(i+n, len(all))]...)
		i += n
	}
	var want []uint64
	for _, k := range all {
		if r.Float64() < staleShare {
			l := &st.locals[r.IntN(workers)]
			l.stale = append(l.stale, k)
		} else {
			want = append(want, k)
		}
	}
	for w := range st.locals {
		l := &st.locals[w]
		for ri := range 3 {
			ks := runs[run{w, ri}]
			slices.Sort(ks)
			l.startRun()
			for _, k := range ks {
				st.list(l, k, enc(k), 0, k)
			}
		}
	}
	st.dropStale(width)
	next := st.mergeLevel()
	if next.size() != len(want) {
		return fmt.Sprintf("%d states, want %d", next.size(), len(want))
	}
	for i, k := range want {
		id := next.id(i)
		if got := st.recs.pages[id>>recPageBits][id&(1<<recPageBits-1)]; got != k {
			return fmt.Sprintf("state %d has record %#x, want %#x", i, got, k)
		}
		if encoded && string(next.enc(i)) != string(enc(k)) {
			return fmt.Sprintf("state %d has encoding %q, want %q", i, next.enc(i), enc(k))
		}
		if !encoded && next.states[i] != k {
			return fmt.Sprintf("state %d is %#x, want %#x", i, next.states[i], k)
		}
	}
	return ""
}
