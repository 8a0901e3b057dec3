package pipeline

import (
	"strings"
	"testing"
)

// TestPermutationTables checks each permutation against destinations computed by hand
// from BookSim2's definitions (src/traffic.cpp) on 16 terminals (4x4, addresses of 4
// bits, two base-4 digits) and 64 (8x8).
func TestPermutationTables(t *testing.T) {
	cases := []struct {
		spec string
		n    int
		p    PatternParams
		want map[int]int
	}{
		// bitcomp: the complement of every address bit.
		{"bitcomp", 16, PatternParams{}, map[int]int{0: 15, 1: 14, 5: 10, 9: 6, 15: 0}},
		// transpose: the high and low halves of the address swapped.
		{"transpose", 16, PatternParams{}, map[int]int{0: 0, 1: 4, 4: 1, 6: 9, 5: 5, 11: 14, 15: 15}},
		{"transpose", 64, PatternParams{}, map[int]int{1: 8, 9: 9, 7: 56, 47: 61, 19: 26}},
		// bitrev: the address bits reversed.
		{"bitrev", 16, PatternParams{}, map[int]int{1: 8, 2: 4, 3: 12, 6: 6, 11: 13, 15: 15}},
		// shuffle: the address rotated left by one bit.
		{"shuffle", 16, PatternParams{}, map[int]int{1: 2, 8: 1, 9: 3, 6: 12, 15: 15}},
		// tornado: each base-k digit advanced by ceil(k/2)-1 (1 for k=4, 3 for k=8).
		{"tornado", 16, PatternParams{K: 4, N: 2, XR: 1}, map[int]int{0: 5, 3: 4, 15: 0, 6: 11}},
		{"tornado", 64, PatternParams{K: 8, N: 2, XR: 1}, map[int]int{0: 27, 7: 26, 63: 18}},
		{"tornado(8,1,1)", 8, PatternParams{}, map[int]int{0: 3, 5: 0, 7: 2}},
		// neighbor: each base-k digit advanced by one.
		{"neighbor", 64, PatternParams{K: 8, N: 2, XR: 1}, map[int]int{0: 9, 7: 8, 63: 0, 56: 1}},
		// xr widens a digit: k = 2 routers of xr = 2 terminals in x, 4 positions a digit.
		{"neighbor", 16, PatternParams{K: 2, N: 2, XR: 2}, map[int]int{0: 5, 3: 4, 15: 0}},
	}
	for _, c := range cases {
		pt, err := ParsePattern(c.spec, c.n, c.p)
		if err != nil {
			t.Fatalf("%s: %v", c.spec, err)
		}
		if pt.Random() {
			t.Errorf("%s: a permutation reports itself random", c.spec)
		}
		for s, d := range c.want {
			if got := pt.Dest(s, nil); got != d {
				t.Errorf("%s on %d: %d -> %d, want %d", c.spec, c.n, s, got, d)
			}
		}
		seen := map[int]bool{}
		for s := 0; s < c.n; s++ {
			seen[pt.Dest(s, nil)] = true
		}
		if len(seen) != c.n {
			t.Errorf("%s on %d: not a permutation (%d destinations)", c.spec, c.n, len(seen))
		}
	}
}

// TestRandomPermutation: randperm is a permutation fixed by its seed alone.
func TestRandomPermutation(t *testing.T) {
	a, _ := ParsePattern("randperm", 64, PatternParams{PermSeed: 3})
	b, _ := ParsePattern("randperm(3)", 64, PatternParams{PermSeed: 9})
	c, _ := ParsePattern("randperm", 64, PatternParams{PermSeed: 4})
	seen, differ := map[int]bool{}, false
	r := newRand(1)
	for s := 0; s < 64; s++ {
		d := a.Dest(s, r)
		seen[d] = true
		if d != b.Dest(s, r) {
			t.Fatalf("randperm seed 3 from the key and from the name differ at %d", s)
		}
		differ = differ || d != c.Dest(s, r)
	}
	if len(seen) != 64 || !differ {
		t.Fatalf("randperm: %d destinations, seeds 3 and 4 differ: %v", len(seen), differ)
	}
}

// TestRandomPatterns checks the random patterns' supports and frequencies: uniform
// draws every terminal including the source (BookSim's RandomInt(nodes-1)), hotspot
// only its hot terminals by weight, diagonal the source or the next terminal.
func TestRandomPatterns(t *testing.T) {
	r := newRand(1)
	count := func(spec string, n, src, draws int) map[int]int {
		pt, err := ParsePattern(spec, n, PatternParams{K: 2, N: 1})
		if err != nil {
			t.Fatalf("%s: %v", spec, err)
		}
		if !pt.Random() {
			t.Fatalf("%s: not reported random", spec)
		}
		m := map[int]int{}
		for i := 0; i < draws; i++ {
			m[pt.Dest(src, r)]++
		}
		return m
	}
	u := count("uniform", 16, 5, 16000)
	for d := 0; d < 16; d++ {
		if u[d] < 800 || u[d] > 1200 {
			t.Errorf("uniform: destination %d drawn %d times of 16000", d, u[d])
		}
	}
	h := count("hotspot({3,7},{1,3})", 16, 5, 8000)
	if len(h) != 2 || h[3] < 1700 || h[3] > 2300 || h[7] < 5700 {
		t.Errorf("hotspot({3,7},{1,3}): %v", h)
	}
	if d := count("diagonal", 16, 15, 1000); len(d) != 2 || d[15] == 0 || d[0] == 0 {
		t.Errorf("diagonal from 15: %v", d)
	}
	if a := count("asymmetric", 16, 11, 1000); len(a) != 2 || a[3] == 0 || a[11] == 0 {
		t.Errorf("asymmetric from 11: %v", a)
	}
	if b := count("background({0,1,2})", 4, 0, 1000); len(b) != 1 || b[3] != 1000 {
		t.Errorf("background excluding 0..2 of 4: %v", b)
	}
	if bd := count("bad_dragon(2,1)", 16, 1, 2000); len(bd) != 8 || bd[0] != 0 || bd[8] == 0 {
		t.Errorf("bad_dragon(2,1) from group 0 of two groups of 8: %v", bd)
	}
}

// TestPatternErrors: patterns that cannot run on the terminals are refused in one line
// naming the pattern.
func TestPatternErrors(t *testing.T) {
	for _, c := range []struct {
		spec string
		n    int
	}{{"transpose", 32}, {"bitcomp", 12}, {"taper64", 16}, {"hotspot({40})", 16}, {"zipf", 16}, {"tornado(x)", 16},
		{"background({0,1})", 2}, {"hotspot({1},{0})", 4}} {
		_, err := ParsePattern(c.spec, c.n, PatternParams{K: 4, N: 2, XR: 1})
		if err == nil || strings.Contains(err.Error(), "\n") || !strings.HasPrefix(err.Error(), "traffic ") {
			t.Errorf("%s on %d: %v", c.spec, c.n, err)
		}
	}
}

// TestKnuthGenerator checks knuthRand against the self-test of Knuth's ran_array
// (TAOCP vol. 2, 3.6): after ran_start(310952), 2010 batches of 1009 numbers end with
// 995235265 first, and so do 1010 batches of 2009.
func TestKnuthGenerator(t *testing.T) {
	for _, c := range []struct{ batches, size int }{{2010, 1009}, {1010, 2009}} {
		r := newKnuthRand(310952)
		a := make([]int64, c.size)
		for m := 0; m < c.batches; m++ {
			r.array(a)
		}
		if a[0] != 995235265 {
			t.Errorf("%d batches of %d: a[0] = %d, Knuth's self-test says 995235265", c.batches, c.size, a[0])
		}
	}
}

// TestRandomPermutationIsBookSims: randperm on 64 terminals is BookSim2's own
// permutation for the perm_seed (source:destination pairs its packets took in BookSim2,
// commit 28f43299, mesh88_lat with traffic = randperm, watched packets).
func TestRandomPermutationIsBookSims(t *testing.T) {
	for seed, want := range map[uint64]map[int]int{
		0: {1: 30, 4: 57, 6: 17, 7: 9, 16: 12, 26: 36, 28: 4, 29: 59, 33: 31, 34: 38, 41: 37, 47: 58, 52: 52, 54: 11, 55: 26, 58: 29, 60: 50, 63: 23},
		7: {1: 38, 7: 2, 16: 9, 26: 27, 28: 10, 47: 55, 52: 62, 54: 23, 55: 52, 63: 4},
	} {
		pt, err := ParsePattern("randperm", 64, PatternParams{PermSeed: seed})
		if err != nil {
			t.Fatal(err)
		}
		for s, d := range want {
			if got := pt.Dest(s, nil); got != d {
				t.Errorf("perm_seed %d: %d -> %d, BookSim %d", seed, s, got, d)
			}
		}
	}
}
