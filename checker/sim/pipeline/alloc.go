package pipeline

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
)

// Allocator is how a router matches requests to resources: input virtual channels to
// output virtual channels (VC allocation) and router inputs to outputs (switch
// allocation). The choice changes latency near saturation (how many requests a cycle
// grants), not which grants are legal.
type Allocator uint8

// The allocators. ISLIP is iterative round-robin matching (McKeown): every free output
// grants the first requesting input at or after its pointer, every input accepts the
// first granting output at or after its pointer, pointers move past an accepted pair in
// the first iteration only. The separable allocators arbitrate at one side first with
// a round-robin arbiter per port (highest priority, then the first at or after the
// arbiter's pointer), then among the survivors at the other side; both arbiters of a
// granted pair move their pointers past it.
//
// Reference: BookSim2 src/allocators (islip.cpp, separable_input_first.cpp,
// separable_output_first.cpp) and src/arbiters/roundrobin_arb.cpp.
const (
	ISLIP Allocator = iota
	SeparableInputFirst
	SeparableOutputFirst
)

var allocatorNames = [...]string{"islip", "separable_input_first", "separable_output_first"}

// String returns BookSim's name of the allocator.
func (a Allocator) String() string {
	if int(a) < len(allocatorNames) {
		return allocatorNames[a]
	}
	return fmt.Sprintf("Allocator(%d)", uint8(a))
}

// MarshalText writes BookSim's name of the allocator.
func (a Allocator) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// ParseAllocator reads an allocator as BookSim's vc_allocator and sw_allocator keys
// spell it: "islip", "islip(N)" (N iterations; BookSim's input-queued router passes no
// alloc_iters to its allocators, so without the parameter iSLIP runs one),
// "separable_input_first", "separable_output_first", the separable ones optionally with
// their arbiter "(round_robin)". It returns the allocator and its iterations.
func ParseAllocator(spec string) (Allocator, int, error) {
	name, param, hasParam := strings.Cut(strings.TrimSuffix(strings.TrimSpace(spec), ")"), "(")
	for i, n := range allocatorNames {
		if n != name {
			continue
		}
		a := Allocator(i)
		switch {
		case !hasParam:
			return a, 1, nil
		case a == ISLIP:
			it, err := strconv.Atoi(strings.TrimSpace(param))
			if err != nil || it < 1 || it > 64 {
				return a, 0, fmt.Errorf("allocator %q: the iterations must be 1..64", spec)
			}
			return a, it, nil
		case strings.TrimSpace(param) == "round_robin":
			return a, 1, nil
		}
		return a, 0, fmt.Errorf("allocator %q: only round_robin arbiters are simulated", spec)
	}
	return 0, 0, fmt.Errorf("allocator %q is not simulated; want islip, separable_input_first or separable_output_first (BookSim's max_size, pim, loa, wavefront and select are not)", spec)
}

// request is one request of an allocation: requester in wants resource out; label is
// what the grant carries back (the VC of a switch request), the priorities order
// requests at the input and at the output side.
type request struct {
	in, out, label, inPri, outPri int32
}

// allocator is one allocator of one router, with its pointers, which persist from
// cycle to cycle. Requests are few (at most one per input VC), so they are kept in a
// slice and sorted per allocation.
type allocator struct {
	kind      Allocator
	nin, nout int32
	iters     int
	reqs      []request
	inMatch   []int32 // requester -> resource granted, or -1
	outMatch  []int32 // resource -> requester, or -1
	// gptr and aptr are iSLIP's grant (per resource) and accept (per requester)
	// pointers; ptrIn and ptrOut the separable allocators' arbiter pointers.
	gptr, aptr    []int32
	ptrIn, ptrOut []int32
	grants        []int32 // per resource: the requester granted this iteration
	bits          islipBits
	// bestIn and bestOut are the separable arbiters' current winners (request indices,
	// -1 none) and keyIn, keyOut their ranks (see rank); touched and touched2 the ports
	// they were set for.
	bestIn, bestOut   []int32
	keyIn, keyOut     []int64
	touched, touched2 []int32
	// granted lists the requesters granted by the last allocation (what clear resets).
	granted []int32
	// offered: the last request came from offer, with rank offerKey at its requester.
	offered  bool
	offerKey int64
}

func newAllocator(kind Allocator, nin, nout, iters int) *allocator {
	a := &allocator{kind: kind, nin: int32(nin), nout: int32(nout), iters: max(iters, 1)}
	a.inMatch = filled(nin, -1)
	a.outMatch = filled(nout, -1)
	a.grants = filled(nout, -1)
	a.gptr, a.aptr = make([]int32, nout), make([]int32, nin)
	a.ptrIn, a.ptrOut = make([]int32, nin), make([]int32, nout)
	a.bestIn, a.bestOut = filled(nin, -1), filled(nout, -1)
	a.keyIn, a.keyOut = make([]int64, nin), make([]int64, nout)
	return a
}

func filled(n int, v int32) []int32 {
	s := make([]int32, n)
	for i := range s {
		s[i] = v
	}
	return s
}

// clear drops the requests and grants of the last allocation (not the pointers).
func (a *allocator) clear() {
	for _, in := range a.granted {
		a.outMatch[a.inMatch[in]] = -1
		a.inMatch[in] = -1
	}
	a.granted = a.granted[:0]
	a.reqs = a.reqs[:0]
	a.offered = false
}

// match grants resource out to requester in.
func (a *allocator) match(in, out int32) {
	a.inMatch[in], a.outMatch[out] = out, in
	a.granted = append(a.granted, in)
}

func (a *allocator) add(in, out, label, inPri, outPri int32) {
	a.reqs = append(a.reqs, request{in, out, label, inPri, outPri})
	a.offered = false
}

// offer adds the request of requester in for resource out with input priority pri
// (label and output priority 0), as add does. A separable input-first allocator keeps
// only the best of the requests one requester offers in a row: its first stage picks,
// for each requester, the request that supersedes the requester's others, so the ones
// dropped here could win nothing, and two that tie are the same request. The grants
// and pointers are those of adding every request.
func (a *allocator) offer(in, out, pri int32) {
	if a.kind != SeparableInputFirst {
		a.add(in, out, 0, pri, 0)
		return
	}
	k := rank(out, pri, a.ptrIn[in], a.nout)
	if n := len(a.reqs); a.offered && a.reqs[n-1].in == in {
		if k > a.offerKey {
			a.reqs[n-1] = request{in: in, out: out, inPri: pri}
			a.offerKey = k
		}
		return
	}
	a.reqs = append(a.reqs, request{in: in, out: out, inPri: pri})
	a.offered, a.offerKey = true, k
}

// find returns the index of the request (in, out), or -1.
func (a *allocator) find(in, out int32) int {
	for i := range a.reqs {
		if a.reqs[i].in == in && a.reqs[i].out == out {
			return i
		}
	}
	return -1
}

// outputAssigned returns the resource granted to requester in, or -1.
func (a *allocator) outputAssigned(in int32) int32 { return a.inMatch[in] }

// label returns the label of request (in, out), or -1.
func (a *allocator) label(in, out int32) int32 {
	if i := a.find(in, out); i >= 0 {
		return a.reqs[i].label
	}
	return -1
}

// supersedes reports whether a request from position p1 with priority pri1 wins
// over one from p2 with pri2 at a round-robin arbiter of size positions whose pointer
// is at ptr: higher priority first, then the first position at or after the pointer.
func supersedes(p1, pri1, p2, pri2, ptr, size int32) bool {
	return rank(p1, pri1, ptr, size) > rank(p2, pri2, ptr, size)
}

// rank orders the requests at one round-robin arbiter as supersedes does, as one
// number: the priority above, and below it how early position pos (0 <= pos < size)
// comes in the round from pointer ptr (0 <= ptr < size). A higher rank supersedes.
func rank(pos, pri, ptr, size int32) int64 {
	d := pos - ptr
	if d < 0 {
		d += size
	}
	return int64(pri)<<32 + int64(size-1-d)
}

// wrap returns the position after pos (0 <= pos < size) round an arbiter of size.
func wrap(pos, size int32) int32 {
	if pos++; pos == size {
		return 0
	}
	return pos
}

// allocate computes the grants of the requests added since clear.
func (a *allocator) allocate() {
	if len(a.reqs) == 0 {
		return
	}
	switch a.kind {
	case ISLIP:
		a.islip()
	case SeparableInputFirst:
		a.separable(true)
	case SeparableOutputFirst:
		a.separable(false)
	}
}

// islip runs the iterations of iSLIP. Requests are kept as bit sets, the requesters of
// each resource and the resources of each requester, so that a round-robin choice is a
// scan for the first set bit at or after the pointer. Cost O(iterations x requests x
// words) with words = ceil(ports/64).
func (a *allocator) islip() {
	a.bits.reset(a)
	for _, r := range a.reqs {
		a.bits.set(r.out, r.in)
	}
	b := &a.bits
	for iter := 0; iter < a.iters; iter++ {
		// Grant: each free resource grants the first free requester at or after its pointer.
		for _, out := range b.outs {
			a.grants[out] = -1
			if a.outMatch[out] < 0 {
				a.grants[out] = firstSet(b.reqOf(out), b.matched, a.gptr[out], a.nin)
			}
		}
		// Accept: each requester accepts the first granting resource at or after its pointer.
		for _, out := range b.outs {
			if g := a.grants[out]; g >= 0 {
				b.grantTo(g, out)
			}
		}
		for _, in := range b.ins {
			out := firstSet(b.grantsOf(in), nil, a.aptr[in], a.nout)
			if out < 0 {
				continue
			}
			a.match(in, out)
			b.match(in)
			if iter == 0 {
				a.gptr[out] = (in + 1) % a.nin
				a.aptr[in] = (out + 1) % a.nout
			}
		}
		b.clearGrants()
	}
}

// islipBits holds the requests of one iSLIP allocation as bit sets: req[out] over the
// requesters (wIn words each), grant[in] over the resources (wOut words each), and
// matched over the requesters; outs and ins list the resources and requesters with
// requests, in increasing order.
type islipBits struct {
	wIn, wOut  int
	req, grant []uint64
	matched    []uint64
	outs, ins  []int32
	seenOut    []bool
	seenIn     []bool
}

func (b *islipBits) reset(a *allocator) {
	if b.seenOut == nil {
		b.wIn, b.wOut = int(a.nin+63)/64, int(a.nout+63)/64
		b.req = make([]uint64, int(a.nout)*b.wIn)
		b.grant = make([]uint64, int(a.nin)*b.wOut)
		b.matched = make([]uint64, b.wIn)
		b.seenOut, b.seenIn = make([]bool, a.nout), make([]bool, a.nin)
	}
	for _, out := range b.outs {
		clear(b.reqOf(out))
		b.seenOut[out] = false
	}
	for _, in := range b.ins {
		b.seenIn[in] = false
	}
	clear(b.matched)
	b.outs, b.ins = b.outs[:0], b.ins[:0]
}

// set records the request of requester in for resource out.
func (b *islipBits) set(out, in int32) {
	b.req[int(out)*b.wIn+int(in)/64] |= 1 << (uint(in) % 64)
	if !b.seenOut[out] {
		b.seenOut[out] = true
		b.outs = insertSorted(b.outs, out)
	}
	if !b.seenIn[in] {
		b.seenIn[in] = true
		b.ins = insertSorted(b.ins, in)
	}
}

func (b *islipBits) reqOf(out int32) []uint64 { return b.req[int(out)*b.wIn : int(out+1)*b.wIn] }
func (b *islipBits) grantsOf(in int32) []uint64 {
	return b.grant[int(in)*b.wOut : int(in+1)*b.wOut]
}
func (b *islipBits) grantTo(in, out int32) {
	b.grant[int(in)*b.wOut+int(out)/64] |= 1 << (uint(out) % 64)
}
func (b *islipBits) match(in int32) { b.matched[int(in)/64] |= 1 << (uint(in) % 64) }

func (b *islipBits) clearGrants() {
	for _, in := range b.ins {
		clear(b.grantsOf(in))
	}
}

// insertSorted inserts x into the increasing list xs.
func insertSorted(xs []int32, x int32) []int32 {
	i := len(xs)
	xs = append(xs, x)
	for i > 0 && xs[i-1] > x {
		xs[i] = xs[i-1]
		i--
	}
	xs[i] = x
	return xs
}

// firstSet returns the first position at or after ptr, wrapping round below size, set
// in set and not in exclude (nil: nothing excluded); -1 if none.
func firstSet(set, exclude []uint64, ptr, size int32) int32 {
	w := len(set)
	word := func(i int) uint64 {
		if exclude != nil {
			return set[i] &^ exclude[i]
		}
		return set[i]
	}
	// From ptr to the end, then from 0 to ptr.
	for pass := 0; pass < 2; pass++ {
		lo, hi := int(ptr), int(size)
		if pass == 1 {
			lo, hi = 0, int(ptr)
		}
		for i := lo / 64; i < w && i*64 < hi; i++ {
			x := word(i)
			if i == lo/64 {
				x &= ^uint64(0) << (uint(lo) % 64)
			}
			if x != 0 {
				if p := i*64 + bits.TrailingZeros64(x); p < hi {
					return int32(p)
				}
			}
		}
	}
	return -1
}

// separable runs a separable allocation: inputFirst picks one resource per requester,
// then one requester per resource among those picks; otherwise resources pick first.
// Each arbiter's winner is the request of highest rank at its port (the one that
// supersedes every other), an order that does not depend on the order requests come in
// (two of equal rank at a port are the same pair: the first added stays), so one pass
// over the requests finds every first-side winner and one pass over those every grant.
// Cost O(requests).
func (a *allocator) separable(inputFirst bool) {
	firstPtr, secondPtr := a.ptrIn, a.ptrOut
	firstSize, secondSize := a.nout, a.nin // an arbiter of the first side chooses among the other side
	best1, best2 := a.bestIn, a.bestOut
	key1, key2 := a.keyIn, a.keyOut
	if !inputFirst {
		firstPtr, secondPtr = secondPtr, firstPtr
		firstSize, secondSize = secondSize, firstSize
		best1, best2 = best2, best1
		key1, key2 = key2, key1
	}
	// First stage: one winner per port p of the first side, among the others o.
	touched := a.touched[:0]
	for i := range a.reqs {
		r := &a.reqs[i]
		p, o, pri := r.in, r.out, r.inPri
		if !inputFirst {
			p, o, pri = r.out, r.in, r.outPri
		}
		k := rank(o, pri, firstPtr[p], firstSize)
		if best1[p] < 0 {
			touched = append(touched, p)
		} else if k <= key1[p] {
			continue
		}
		best1[p], key1[p] = int32(i), k
	}
	// Second stage: each port q of the second side picks among the winners that chose it.
	touched2 := a.touched2[:0]
	for _, p := range touched {
		i := best1[p]
		best1[p] = -1
		r := &a.reqs[i]
		q, pri := r.out, r.outPri
		if !inputFirst {
			q, pri = r.in, r.inPri
		}
		k := rank(p, pri, secondPtr[q], secondSize)
		if best2[q] < 0 {
			touched2 = append(touched2, q)
		} else if k <= key2[q] {
			continue
		}
		best2[q], key2[q] = i, k
	}
	for _, q := range touched2 {
		r := &a.reqs[best2[q]]
		best2[q] = -1
		a.match(r.in, r.out)
		p, o := r.in, r.out
		if !inputFirst {
			p, o = r.out, r.in
		}
		firstPtr[p] = wrap(o, firstSize)
		secondPtr[q] = wrap(p, secondSize)
	}
	a.touched, a.touched2 = touched, touched2
}
