package pipeline

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// islipNaive is iSLIP as its definition reads, over the requests sorted by resource
// and by requester: the naive twin of allocator.islip's bit sets.
func (a *allocator) islipNaive() {
	byOut := slices.Clone(a.reqs)
	slices.SortFunc(byOut, func(x, y request) int {
		if x.out != y.out {
			return int(x.out - y.out)
		}
		return int(x.in - y.in)
	})
	byIn := slices.Clone(a.reqs)
	slices.SortFunc(byIn, func(x, y request) int {
		if x.in != y.in {
			return int(x.in - y.in)
		}
		return int(x.out - y.out)
	})
	// first returns the first key at or after ptr, wrapping, among rs (sorted by key)
	// that ok accepts.
	first := func(rs []request, ptr int32, key func(request) int32, ok func(request) bool) int32 {
		start := 0
		for start < len(rs) && key(rs[start]) < ptr {
			start++
		}
		for i := range rs {
			if r := rs[(start+i)%len(rs)]; ok(r) {
				return key(r)
			}
		}
		return -1
	}
	group := func(rs []request, key func(request) int32, f func(int32, []request)) {
		for lo := 0; lo < len(rs); {
			hi := lo
			for hi < len(rs) && key(rs[hi]) == key(rs[lo]) {
				hi++
			}
			f(key(rs[lo]), rs[lo:hi])
			lo = hi
		}
	}
	in := func(r request) int32 { return r.in }
	out := func(r request) int32 { return r.out }
	for iter := 0; iter < a.iters; iter++ {
		group(byOut, out, func(o int32, rs []request) {
			a.grants[o] = -1
			if a.outMatch[o] < 0 {
				a.grants[o] = first(rs, a.gptr[o], in, func(r request) bool { return a.inMatch[r.in] < 0 })
			}
		})
		group(byIn, in, func(i int32, rs []request) {
			o := first(rs, a.aptr[i], out, func(r request) bool { return a.grants[r.out] == i })
			if o >= 0 {
				a.inMatch[i], a.outMatch[o] = o, i
				if iter == 0 {
					a.gptr[o] = (i + 1) % a.nin
					a.aptr[i] = (o + 1) % a.nout
				}
			}
		})
	}
}

// TestISLIPAgainstNaive runs the bit-set iSLIP and its naive twin side by side over
// sequences of random allocations (pointers carried from one to the next), on
// allocators of up to 150 ports a side (three words of bits), and compares every grant
// and pointer.
func TestISLIPAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for k := 0; k < 300; k++ {
		nin, nout, iters := 1+rng.IntN(150), 1+rng.IntN(150), 1+rng.IntN(3)
		fast, naive := newAllocator(ISLIP, nin, nout, iters), newAllocator(ISLIP, nin, nout, iters)
		for round := 0; round < 20; round++ {
			fast.clear()
			naive.clear()
			seen := map[[2]int32]bool{}
			for n := rng.IntN(2 * min(nin, nout)); n > 0; n-- {
				r := [2]int32{int32(rng.IntN(nin)), int32(rng.IntN(nout))}
				if !seen[r] {
					seen[r] = true
					fast.add(r[0], r[1], 0, 0, 0)
					naive.add(r[0], r[1], 0, 0, 0)
				}
			}
			fast.allocate()
			naive.islipNaive()
			if !slices.Equal(fast.inMatch, naive.inMatch) || !slices.Equal(fast.outMatch, naive.outMatch) ||
				!slices.Equal(fast.gptr, naive.gptr) || !slices.Equal(fast.aptr, naive.aptr) {
				t.Fatalf("%dx%d, %d iterations, round %d: requests %v\nfast  in %v ptr %v %v\nnaive in %v ptr %v %v",
					nin, nout, iters, round, naive.reqs, fast.inMatch, fast.gptr, fast.aptr, naive.inMatch, naive.gptr, naive.aptr)
			}
		}
	}
}
