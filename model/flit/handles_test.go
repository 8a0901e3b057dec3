package flit

import (
	"errors"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
	"github.com/wormcheck/wormcheck/checker"
)

// TestBytesOps checks the Bytes fast paths (push, pop, bump) against the same operations
// on plain slices, and that equal sequences get equal handles (seeded gopter property).
func TestBytesOps(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(20261123)
	params.MinSuccessfulTests = 500
	props := gopter.NewProperties(params)
	tab := NewTable()
	props.Property("Bytes ops match slices", prop.ForAll(func(b []uint8, f uint8, run bool) bool {
		if run && len(b) > 0 { // bias towards runs, the packed form
			for i := range b {
				b[i] = b[0] + uint8(i)
			}
		}
		h := tab.MakeBytes(b)
		if !slices.Equal(h.Slice(tab), b) || h.Len(tab) != len(b) || h != tab.MakeBytes(slices.Clone(b)) {
			return false
		}
		for i := range b {
			if h.At(tab, i) != b[i] {
				return false
			}
		}
		if p := h.push(tab, f); p != tab.MakeBytes(append(slices.Clone(b), f)) {
			return false
		}
		if len(b) == 0 {
			return true
		}
		if h.pop(tab) != tab.MakeBytes(b[1:]) {
			return false
		}
		i := int(f) % len(b)
		if b[i] == 255 {
			return true
		}
		c := slices.Clone(b)
		c[i]++
		return h.bump(tab, i) == tab.MakeBytes(c)
	}, gen.SliceOf(gen.UInt8()), gen.UInt8(), gen.Bool()))
	props.TestingRun(t)
}

// TestOutsOps checks MakeOuts round trips, single outputs included.
func TestOutsOps(t *testing.T) {
	tab := NewTable()
	for _, tc := range [][]Out{nil, {Eject}, {0}, {MaxVirtualChannels - 1}, {Eject, 3}, {1, 2, 7, 900}} {
		o := tab.MakeOuts(tc)
		if !slices.Equal(o.Slice(tab), tc) || o.Len(tab) != len(tc) || o != tab.MakeOuts(slices.Clone(tc)) {
			t.Errorf("%v: handle %d reads %v (len %d)", tc, o, o.Slice(tab), o.Len(tab))
		}
		for i, x := range tc {
			if o.At(tab, i) != x {
				t.Errorf("%v: At(%d) = %d", tc, i, o.At(tab, i))
			}
		}
		if len(tc) == 1 && o != singleOut(tc[0]) {
			t.Errorf("%v: singleOut differs", tc)
		}
	}
}

// TestTableFull: a model whose table runs out of indices does not panic; its Err says
// ErrTableFull, so a caller reports the search inconclusive. (The real capacity,
// MaxInterned, needs more memory than a machine has; the test lowers it.)
func TestTableFull(t *testing.T) {
	m := smallMulticasts(t)
	m.tab.bytes.limit, m.tab.outs.limit = 3, 3
	// States built after the table filled are not faithful (and may be many): bound it.
	if _, err := checker.Explore[State](m, checker.Options[State]{MaxStates: 20000, CheckDeadlock: true}); err != nil {
		t.Fatal(err)
	}
	if err := m.Err(); !errors.Is(err, ErrTableFull) {
		t.Fatalf("Err = %v; want ErrTableFull", err)
	}
	if n := m.tab.bytes.n.Load() + m.tab.outs.n.Load(); m.AuxBytes() <= 0 || n < 3 || n > 6 {
		t.Fatalf("AuxBytes %d, %d sequences", m.AuxBytes(), n)
	}
	// The same for the table of one worm's local states (Encode).
	w := smallMulticasts(t)
	w.tab.worms[1].limit = 5
	if _, err := checker.Explore[State](w, checker.Options[State]{MaxStates: 20000, CheckDeadlock: true}); err != nil {
		t.Fatal(err)
	}
	if err := w.Err(); !errors.Is(err, ErrTableFull) || w.tab.worms[1].n.Load() != 5 {
		t.Fatalf("Err = %v with %d local states; want ErrTableFull at 5", err, w.tab.worms[1].n.Load())
	}
	fresh := smallMulticasts(t)
	walkAll(fresh, func(State) {})
	if err := fresh.Err(); err != nil {
		t.Fatalf("a fresh model's Err = %v", err)
	}
	t.Logf("%d sequences, %d bytes", fresh.Table().Len(), fresh.AuxBytes())
}

// TestTablesArePerModel: two models intern independently (a handle's index belongs to
// its model's table), and a model's table is not shared with a new model.
func TestTablesArePerModel(t *testing.T) {
	a, b := smallMulticasts(t), smallMulticasts(t)
	if a.Table() == b.Table() {
		t.Fatal("two models share a table")
	}
	walkAll(a, func(State) {})
	if b.Table().Len() != 0 || a.Table().Len() == 0 {
		t.Fatalf("a holds %d sequences, b %d", a.Table().Len(), b.Table().Len())
	}
}

// smallMulticasts is two tree multicasts on mesh:2x3 whose buffers and output sets get
// interned; its state space is small enough to walk.
func smallMulticasts(t testing.TB) *Model {
	cfg := NewGridConfig(grid(t, "mesh:2x3"), false, 1, 2, OnePort, []Message{
		Multicast(0, 1, 5, 2), Multicast(5, 1, 0, 3),
	})
	cfg.Prune = PrunePartial
	return mustNew(t, cfg)
}
