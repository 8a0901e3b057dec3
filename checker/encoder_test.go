package checker_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
)

// lazy adds a straightforward SuccessorEncoder to a model, so that Explore takes its
// encoded-successor path; every answer is derived from Successors and Encode.
type lazy[S any] struct {
	checker.Model[S]
	built *int // number of Successor calls, if not nil
}

func (l lazy[S]) EncodeSuccessors(s S, buf []byte, yield func(checker.Action, []byte)) []byte {
	for _, t := range l.Successors(s, nil) {
		buf = l.Encode(t.Next, buf[:0])
		yield(t.Action, buf)
	}
	return buf
}

func (l lazy[S]) Successor(s S, a checker.Action) S {
	if l.built != nil {
		*l.built++
	}
	for _, t := range l.Successors(s, nil) {
		if t.Action == a {
			return t.Next
		}
	}
	panic(fmt.Sprintf("action %d not enabled", a))
}

// sameAsPlain explores m with and without the SuccessorEncoder path, with invariants
// inv and deadlock checking, for every worker count and store, and returns the first
// difference in verdict, counts or trace, or "".
func sameAsPlain[S any](m checker.Model[S], inv []checker.Invariant[S]) string {
	for _, store := range allStores {
		for _, w := range allWorkers {
			opt := checker.Options[S]{Workers: w, Store: store, CheckDeadlock: true, Invariants: inv}
			a, err := checker.Explore(m, opt)
			if err != nil {
				return err.Error()
			}
			b, err := checker.Explore[S](lazy[S]{Model: m}, opt)
			if err != nil {
				return err.Error()
			}
			if a.Verdict != b.Verdict || a.Stats.States != b.Stats.States || a.Stats.Transitions != b.Stats.Transitions || a.Stats.Depth != b.Stats.Depth {
				return fmt.Sprintf("%v workers %d: plain %v %d states %d transitions depth %d, encoder %v %d states %d transitions depth %d", store, w,
					a.Verdict, a.Stats.States, a.Stats.Transitions, a.Stats.Depth, b.Verdict, b.Stats.States, b.Stats.Transitions, b.Stats.Depth)
			}
			if (a.Violation == nil) != (b.Violation == nil) {
				return fmt.Sprintf("%v workers %d: violation differs", store, w)
			}
			if a.Violation != nil && (a.Violation.Kind != b.Violation.Kind || !slices.Equal(a.Violation.Trace.Actions(), b.Violation.Trace.Actions())) {
				return fmt.Sprintf("%v workers %d: trace %v, encoder %v", store, w, a.Violation.Trace.Actions(), b.Violation.Trace.Actions())
			}
		}
	}
	return ""
}

func TestSuccessorEncoderToyModels(t *testing.T) {
	for name, diff := range map[string]func() string{
		"counters 3x4": func() string {
			return sameAsPlain[checkertest.CountersState](checkertest.Counters{N: 3, K: 4}, nil)
		},
		"counters invariant": func() string {
			m := checkertest.Counters{N: 4, K: 8}
			return sameAsPlain(checker.Model[checkertest.CountersState](m), []checker.Invariant[checkertest.CountersState]{checkertest.SumBelow(14)})
		},
		"two locks":      func() string { return sameAsPlain[checkertest.TwoLocksState](checkertest.TwoLocks{}, nil) },
		"philosophers 5": func() string { return sameAsPlain[checkertest.PhilState](checkertest.Philosophers{N: 5}, nil) },
		"ring 4":         func() string { return sameAsPlain[checkertest.RingState](checkertest.Ring{N: 4}, nil) },
		"counters differential": func() string {
			return differential[checkertest.CountersState](lazy[checkertest.CountersState]{Model: checkertest.Counters{N: 3, K: 4}})
		},
		"philosophers differential": func() string {
			return differential[checkertest.PhilState](lazy[checkertest.PhilState]{Model: checkertest.Philosophers{N: 5}})
		},
	} {
		if d := diff(); d != "" {
			t.Errorf("%s: %s", name, d)
		}
	}
}

// TestSuccessorEncoderBuildsOnlyNewStates pins that the encoder path builds each stored
// state once: Successor is called once per non-initial state.
func TestSuccessorEncoderBuildsOnlyNewStates(t *testing.T) {
	for _, w := range allWorkers {
		n := 0
		m := lazy[checkertest.CountersState]{Model: checkertest.Counters{N: 3, K: 4}, built: &n}
		if w > 1 {
			m.built = nil // the counter is not synchronised
		}
		res, err := checker.Explore[checkertest.CountersState](m, checker.Options[checkertest.CountersState]{Workers: w})
		if err != nil {
			t.Fatal(err)
		}
		if w == 1 && int64(n) != res.Stats.States-1 {
			t.Errorf("Successor called %d times for %d states", n, res.Stats.States)
		}
	}
}

// TestSuccessorEncoderRandomGraphs compares the two paths on random graphs.
func TestSuccessorEncoderRandomGraphs(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261122)
	params.MinSuccessfulTests = 150
	props := gopter.NewProperties(params)
	props.Property("the encoder path gives the plain path's results", prop.ForAll(
		func(g checkertest.Graph) (bool, error) {
			if d := sameAsPlain[int](g, nil); d != "" {
				return false, fmt.Errorf("%s", d)
			}
			if d := differential[int](lazy[int]{Model: g}); d != "" {
				return false, fmt.Errorf("%s", d)
			}
			return true, nil
		},
		checkertest.GenGraph(40),
	))
	props.TestingRun(t)
}

// TestSuccessorEncoderNoBigger pins that a model's SuccessorEncoder path stores its
// states as compactly as its plain path: a user's encoder whose encodings are longer
// than a word (checkertest.ByteEncoderMesh) is keyed by the store's packer too, so it
// costs no more bytes per state than the same model without the encoder.
func TestSuccessorEncoderNoBigger(t *testing.T) {
	mm, err := checkertest.MeshSmall().Model()
	if err != nil {
		t.Fatal(err)
	}
	plain, err := checker.Explore[checkertest.MeshState](checkertest.ByteMesh{BasicMesh: checkertest.BasicMesh{M: mm}}, checker.Options[checkertest.MeshState]{})
	if err != nil {
		t.Fatal(err)
	}
	enc, err := checker.Explore[checkertest.MeshState](checkertest.ByteEncoderMesh{EncoderMesh: checkertest.EncoderMesh{BasicMesh: checkertest.BasicMesh{M: mm}}}, checker.Options[checkertest.MeshState]{})
	if err != nil {
		t.Fatal(err)
	}
	if enc.Stats.States != plain.Stats.States || enc.Stats.Transitions != plain.Stats.Transitions {
		t.Fatalf("encoder %d states %d transitions, plain %d %d", enc.Stats.States, enc.Stats.Transitions, plain.Stats.States, plain.Stats.Transitions)
	}
	if enc.Stats.StoreBytes > plain.Stats.StoreBytes {
		t.Fatalf("encoder path stores %d bytes, plain %d", enc.Stats.StoreBytes, plain.Stats.StoreBytes)
	}
}
