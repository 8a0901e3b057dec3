package flit

import (
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// TestBytesOps checks the Bytes fast paths (push, pop, bump) against the same operations
// on plain slices, and that equal sequences get equal handles (seeded gopter property).
func TestBytesOps(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261123)
	params.MinSuccessfulTests = 500
	props := gopter.NewProperties(params)
	props.Property("Bytes ops match slices", prop.ForAll(func(b []uint8, f uint8, run bool) bool {
		if run && len(b) > 0 { // bias towards runs, the packed form
			for i := range b {
				b[i] = b[0] + uint8(i)
			}
		}
		h := MakeBytes(b)
		if !slices.Equal(h.Slice(), b) || h.Len() != len(b) || h != MakeBytes(slices.Clone(b)) {
			return false
		}
		for i := range b {
			if h.At(i) != b[i] {
				return false
			}
		}
		if p := h.push(f); p != MakeBytes(append(slices.Clone(b), f)) {
			return false
		}
		if len(b) == 0 {
			return true
		}
		if h.pop() != MakeBytes(b[1:]) {
			return false
		}
		i := int(f) % len(b)
		if b[i] == 255 {
			return true
		}
		c := slices.Clone(b)
		c[i]++
		return h.bump(i) == MakeBytes(c)
	}, gen.SliceOf(gen.UInt8()), gen.UInt8(), gen.Bool()))
	props.TestingRun(t)
}

// TestOutsOps checks MakeOuts round trips, single outputs included.
func TestOutsOps(t *testing.T) {
	for _, tc := range [][]Out{nil, {Eject}, {0}, {MaxVirtualChannels - 1}, {Eject, 3}, {1, 2, 7, 900}} {
		o := MakeOuts(tc)
		if !slices.Equal(o.Slice(), tc) || o.Len() != len(tc) || o != MakeOuts(slices.Clone(tc)) {
			t.Errorf("%v: handle %d reads %v (len %d)", tc, o, o.Slice(), o.Len())
		}
		for i, x := range tc {
			if o.At(i) != x {
				t.Errorf("%v: At(%d) = %d", tc, i, o.At(i))
			}
		}
		if len(tc) == 1 && o != singleOut(tc[0]) {
			t.Errorf("%v: singleOut differs", tc)
		}
	}
}
