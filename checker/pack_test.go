package checker_test

import (
	"encoding/binary"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/checkertest"
)

// oddEncodings is Counters{N: 4, K: 16} with encodings chosen to take every branch of
// the Exact store's packer: the first initial state's encoding has 12 bytes, so the
// packer packs 12-byte encodings; their varying bits appear level by level (the counters
// and their sum), so the packer widens and re-keys the store in the middle of levels;
// states whose counter 1 is 3 scramble bytes 4..11 (more varying bits than a word holds,
// so the packer freezes and keeps them, and later 12-byte states outside its bits, with
// their bytes); and states whose counter 0 is odd have 8-byte encodings, which a packer
// of 12-byte encodings does not take as word-keyed.
type oddEncodings struct{ checkertest.Counters }

func (m oddEncodings) Encode(s checkertest.CountersState, buf []byte) []byte {
	if s.Counter(0)%2 == 1 {
		return binary.LittleEndian.AppendUint64(buf, uint64(s))
	}
	buf = binary.LittleEndian.AppendUint32(buf, uint32(s))
	x := uint64(s.Counter(0) + s.Counter(1) + s.Counter(2) + s.Counter(3))
	if s.Counter(1) == 3 {
		x = (uint64(s) + 1) * 0x9E3779B97F4A7C15
	}
	return binary.LittleEndian.AppendUint64(buf, x)
}

// TestPackedStoreAgrees: on oddEncodings, the one-worker Exact search (packed keys) and
// the two-worker one (shared store, no packer) find every state and transition of
// Counters{4, 16}, and the same shortest invariant violation.
func TestPackedStoreAgrees(t *testing.T) {
	m := oddEncodings{checkertest.Counters{N: 4, K: 16}}
	var first string
	for _, w := range []int{1, 2} {
		res, err := checker.Explore[checkertest.CountersState](m, counters{Workers: w})
		if err != nil || res.Verdict != checker.Holds || res.Stats.States != 65536 || res.Stats.Transitions != 4*15*16*16*16 {
			t.Fatalf("workers %d: %v, %+v, %v; want holds, 65536 states, 245760 transitions", w, res.Verdict, res.Stats, err)
		}
		res, err = checker.Explore[checkertest.CountersState](m, counters{Workers: w, Invariants: []checker.Invariant[checkertest.CountersState]{checkertest.SumBelow(40)}})
		if err != nil || res.Verdict != checker.Violated || res.Violation.Trace.Len() != 40 {
			t.Fatalf("workers %d: %v, %v; want a violation at depth 40", w, res, err)
		}
		if tr := res.Violation.Trace.String(); first == "" {
			first = tr
		} else if tr != first {
			t.Errorf("workers %d: trace\n%s differs from workers 1's\n%s", w, tr, first)
		}
	}
}

// TestPackedStoreMesh: the mesh benchmark model with a byte a packet (9-byte encodings)
// has MeshSmall's pinned counts, and the same Delivered violation as the packed-word
// model, at depth 5.
func TestPackedStoreMesh(t *testing.T) {
	mm, err := checkertest.MeshSmall().Model()
	if err != nil {
		t.Fatal(err)
	}
	m := checkertest.ByteMesh{BasicMesh: checkertest.BasicMesh{M: mm}}
	res, err := checker.Explore[checkertest.MeshState](m, meshOpts{})
	if err != nil || res.Verdict != checker.Holds || res.Stats.States != 15552 || res.Stats.Transitions != 73872 || res.Stats.Depth != 25 {
		t.Fatalf("%v, %+v, %v; want holds, 15552 states, 73872 transitions, depth 25", res.Verdict, res.Stats, err)
	}
	res, err = checker.Explore[checkertest.MeshState](m, meshOpts{Invariants: []checker.Invariant[checkertest.MeshState]{checkertest.Delivered(2, 0, mm)}})
	if err != nil {
		t.Fatal(err)
	}
	wantViolation(t, m, res, checker.KindInvariant, 5)
	want, err := checker.Explore[checkertest.MeshState](mm, meshOpts{Invariants: []checker.Invariant[checkertest.MeshState]{checkertest.Delivered(2, 0, mm)}})
	if err != nil || want.Violation.Trace.String() != res.Violation.Trace.String() {
		t.Fatalf("trace\n%s\ndiffers from the word-encoded model's\n%v (%v)", res.Violation.Trace.String(), want.Violation, err)
	}
}
