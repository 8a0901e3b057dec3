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
				a.match(i, o)
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

// separableNaive is a separable allocation as its definition reads: the requests
// grouped by port of the first side (sorted), each group's winner by round robin, then
// the winners grouped by port of the second side: the naive twin of
// allocator.separable.
func (a *allocator) separableNaive(inputFirst bool) {
	first := func(r request) int32 { return r.in }
	second := func(r request) int32 { return r.out }
	firstPri := func(r request) int32 { return r.inPri }
	secondPri := func(r request) int32 { return r.outPri }
	firstPtr, secondPtr := a.ptrIn, a.ptrOut
	firstSize, secondSize := a.nout, a.nin
	if !inputFirst {
		first, second = second, first
		firstPri, secondPri = secondPri, firstPri
		firstPtr, secondPtr = secondPtr, firstPtr
		firstSize, secondSize = secondSize, firstSize
	}
	reqs := slices.Clone(a.reqs)
	slices.SortFunc(reqs, func(x, y request) int {
		if first(x) != first(y) {
			return int(first(x) - first(y))
		}
		return int(second(x) - second(y))
	})
	var winners []request
	for lo := 0; lo < len(reqs); {
		hi, best := lo, lo
		p := first(reqs[lo])
		for hi < len(reqs) && first(reqs[hi]) == p {
			r, b := reqs[hi], reqs[best]
			if hi != best && supersedesNaive(second(r), firstPri(r), second(b), firstPri(b), firstPtr[p], firstSize) {
				best = hi
			}
			hi++
		}
		winners = append(winners, reqs[best])
		lo = hi
	}
	slices.SortFunc(winners, func(x, y request) int {
		if second(x) != second(y) {
			return int(second(x) - second(y))
		}
		return int(first(x) - first(y))
	})
	for lo := 0; lo < len(winners); {
		hi, best := lo, lo
		q := second(winners[lo])
		for hi < len(winners) && second(winners[hi]) == q {
			r, b := winners[hi], winners[best]
			if hi != best && supersedesNaive(first(r), secondPri(r), first(b), secondPri(b), secondPtr[q], secondSize) {
				best = hi
			}
			hi++
		}
		w := winners[best]
		a.match(w.in, w.out)
		firstPtr[first(w)] = (second(w) + 1) % firstSize
		secondPtr[q] = (first(w) + 1) % secondSize
		lo = hi
	}
}

// TestSeparableAgainstNaive compares the one-pass separable allocators (input first and
// output first) with their naive twin over sequences of random allocations with random
// priorities, grant by grant and pointer by pointer.
func TestSeparableAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for k := 0; k < 300; k++ {
		inputFirst := k%2 == 0
		kind := SeparableOutputFirst
		if inputFirst {
			kind = SeparableInputFirst
		}
		nin, nout := 1+rng.IntN(90), 1+rng.IntN(90)
		fast, naive := newAllocator(kind, nin, nout, 1), newAllocator(kind, nin, nout, 1)
		for round := 0; round < 20; round++ {
			fast.clear()
			naive.clear()
			seen := map[[2]int32]bool{}
			for n := rng.IntN(3 * min(nin, nout)); n > 0; n-- {
				r := [2]int32{int32(rng.IntN(nin)), int32(rng.IntN(nout))}
				if !seen[r] {
					seen[r] = true
					pi, po := int32(rng.IntN(3)), int32(rng.IntN(3))
					fast.add(r[0], r[1], int32(n), pi, po)
					naive.add(r[0], r[1], int32(n), pi, po)
				}
			}
			fast.allocate()
			naive.separableNaive(inputFirst)
			if !slices.Equal(fast.inMatch, naive.inMatch) || !slices.Equal(fast.outMatch, naive.outMatch) ||
				!slices.Equal(fast.ptrIn, naive.ptrIn) || !slices.Equal(fast.ptrOut, naive.ptrOut) {
				t.Fatalf("%v %dx%d round %d: requests %v\nfast  %v %v %v\nnaive %v %v %v", kind, nin, nout, round, naive.reqs,
					fast.inMatch, fast.ptrIn, fast.ptrOut, naive.inMatch, naive.ptrIn, naive.ptrOut)
			}
		}
	}
}

// supersedesNaive is supersedes as its definition reads: higher priority first, then
// the position whose distance round the arbiter from the pointer is smaller.
func supersedesNaive(p1, pri1, p2, pri2, ptr, size int32) bool {
	return pri1 > pri2 || pri1 == pri2 && (p1-ptr+size)%size < (p2-ptr+size)%size
}

// TestSupersedesAgainstNaive compares supersedes (by rank) with its definition over
// every pair of positions, every pointer and priorities round the ones VC allocation
// uses (VCPrioritizeEmpty lowers a priority by 2^30).
func TestSupersedesAgainstNaive(t *testing.T) {
	pris := []int32{-1 << 30, -1<<30 + 1, -2, -1, 0, 1, 2, 1 << 20}
	for size := int32(1); size <= 12; size++ {
		for ptr := int32(0); ptr < size; ptr++ {
			for p1 := int32(0); p1 < size; p1++ {
				for p2 := int32(0); p2 < size; p2++ {
					for _, pri1 := range pris {
						for _, pri2 := range pris {
							if got, want := supersedes(p1, pri1, p2, pri2, ptr, size), supersedesNaive(p1, pri1, p2, pri2, ptr, size); got != want {
								t.Fatalf("supersedes(%d, %d, %d, %d, ptr %d, size %d) = %v, want %v", p1, pri1, p2, pri2, ptr, size, got, want)
							}
						}
					}
				}
			}
		}
	}
}

// TestOfferAgainstNaive gives every allocator kind its requests through offer, each
// requester's in a run (now and then one requester's split in two runs or repeated, as
// a caller might), and its naive twin the same requests through add, and compares every
// grant and pointer over sequences of allocations: the input-first allocator's dropping
// of a requester's lesser requests must change nothing.
func TestOfferAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for k := 0; k < 300; k++ {
		kind := Allocator(k % 3)
		nin, nout := 1+rng.IntN(90), 1+rng.IntN(90)
		fast, naive := newAllocator(kind, nin, nout, 1), newAllocator(kind, nin, nout, 1)
		for round := 0; round < 20; round++ {
			fast.clear()
			naive.clear()
			var rs []request
			for _, in := range rng.Perm(nin)[:rng.IntN(nin+1)] {
				for _, out := range rng.Perm(nout)[:1+rng.IntN(min(nout, 9))] {
					rs = append(rs, request{in: int32(in), out: int32(out), inPri: int32(rng.IntN(3)) - 1<<30*int32(rng.IntN(2))})
				}
			}
			if len(rs) > 1 && rng.IntN(4) == 0 { // a run split, or a request offered twice
				i := rng.IntN(len(rs))
				rs = append(rs, rs[i])
				if rng.IntN(2) == 0 {
					rs = append(rs[:i:i], rs[i+1:]...)
				}
			}
			for _, r := range rs {
				fast.offer(r.in, r.out, r.inPri)
				naive.add(r.in, r.out, 0, r.inPri, 0)
			}
			fast.allocate()
			switch kind {
			case ISLIP:
				naive.islipNaive()
			default:
				naive.separableNaive(kind == SeparableInputFirst)
			}
			if !slices.Equal(fast.inMatch, naive.inMatch) || !slices.Equal(fast.outMatch, naive.outMatch) ||
				!slices.Equal(fast.ptrIn, naive.ptrIn) || !slices.Equal(fast.ptrOut, naive.ptrOut) ||
				!slices.Equal(fast.gptr, naive.gptr) || !slices.Equal(fast.aptr, naive.aptr) {
				t.Fatalf("%v %dx%d round %d: requests %v\nfast  %v %v %v\nnaive %v %v %v", kind, nin, nout, round, rs,
					fast.inMatch, fast.ptrIn, fast.ptrOut, naive.inMatch, naive.ptrIn, naive.ptrOut)
			}
		}
	}
}
