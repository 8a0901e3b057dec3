package checker_test

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
)

// vec is N counters of 0..K as a byte slice: a state with memory behind it, so that an
// explorer keeping a state rebuilt in a FrontierDecoder's scratch (which the next
// DecodeInto overwrites) would see it change. A counter steps by one or, from 0, jumps
// to 2; every counter at K is Terminal, and with Stall set the state where counter 0 is
// at 1 and counter 1 at K has no successor, a deadlock.
type vec struct {
	N, K  int
	Stall bool
}

func (v vec) Init() [][]byte { return [][]byte{make([]byte, v.N)} }

func (v vec) Successors(s []byte, dst []checker.Transition[[]byte]) []checker.Transition[[]byte] {
	if v.Stall && s[0] == 1 && int(s[1]) == v.K {
		return dst
	}
	for i, c := range s {
		for j, d := range []int{1, 2} {
			if int(c)+d > v.K || d == 2 && c != 0 {
				continue
			}
			next := slices.Clone(s)
			next[i] += byte(d)
			dst = append(dst, checker.Transition[[]byte]{Action: checker.Action(2*i + j), Next: next})
		}
	}
	return dst
}

func (v vec) Encode(s []byte, buf []byte) []byte { return append(buf, s...) }

func (v vec) Terminal(s []byte) bool {
	for _, c := range s {
		if int(c) != v.K {
			return false
		}
	}
	return true
}

func (v vec) Describe(_ []byte, a checker.Action) string {
	return fmt.Sprintf("counter %d +%d", a/2, a%2+1)
}

func (v vec) Decode(enc []byte) ([]byte, error) {
	if len(enc) != v.N {
		return nil, fmt.Errorf("%d bytes, want %d", len(enc), v.N)
	}
	return slices.Clone(enc), nil
}

// framed is a model with DecodeInto, counting its calls: the explorer keeps its levels
// as encodings.
type framed[S any] struct {
	checker.Model[S]
	into    func(enc []byte, scratch *S) S
	decoded *atomic.Int64
}

func (f framed[S]) DecodeInto(enc []byte, scratch *S) S {
	f.decoded.Add(1)
	return f.into(enc, scratch)
}

// vecInto rebuilds a vec state in *scratch's memory.
func vecInto(enc []byte, scratch *[]byte) []byte {
	*scratch = append((*scratch)[:0], enc...)
	return *scratch
}

// expanded counts the states a search expands (checks the invariants of), by encoding.
type expanded struct {
	mu sync.Mutex
	n  map[string]int
}

// invariant returns an invariant that holds everywhere and counts its states.
func (x *expanded) invariant() checker.Invariant[[]byte] {
	return checker.Invariant[[]byte]{Name: "counted", Check: func(s []byte) error {
		x.mu.Lock()
		defer x.mu.Unlock()
		if x.n == nil {
			x.n = map[string]int{}
		}
		x.n[string(s)]++
		return nil
	}}
}

// same returns an error unless x and y expanded the same states, each once.
func (x *expanded) same(y *expanded) error {
	for s, k := range y.n {
		if k != 1 || x.n[s] != 1 {
			return fmt.Errorf("state %v expanded %d times, and %d times keeping states", []byte(s), k, x.n[s])
		}
	}
	if len(x.n) != len(y.n) {
		return fmt.Errorf("%d states expanded, %d keeping states", len(y.n), len(x.n))
	}
	return nil
}

// TestFrontierDecoderSameAsStates checks that keeping levels as encodings (a
// FrontierDecoder) changes nothing: the same verdicts, counts, depths and traces as
// keeping states, on invariant violations, deadlocks, complete searches, depth bounds
// and the SuccessorEncoder path, for every store and worker count, each state expanded
// once. The states are
// slices rebuilt in one scratch per worker, so a state the explorer kept past the next
// DecodeInto would change under it.
func TestFrontierDecoderSameAsStates(t *testing.T) {
	type vopt = checker.Options[[]byte]
	below := func(n int) []checker.Invariant[[]byte] {
		return []checker.Invariant[[]byte]{{Name: fmt.Sprintf("sum below %d", n), Check: func(s []byte) error {
			sum := 0
			for _, c := range s {
				sum += int(c)
			}
			if sum >= n {
				return fmt.Errorf("sum is %d", sum)
			}
			return nil
		}}}
	}
	cases := []struct {
		name string
		m    vec
		opt  vopt
		want checker.Verdict
	}{
		{"complete", vec{N: 4, K: 4}, vopt{CheckDeadlock: true}, checker.Holds},
		{"invariant", vec{N: 4, K: 4}, vopt{Invariants: below(9)}, checker.Violated},
		{"deadlock", vec{N: 3, K: 3, Stall: true}, vopt{CheckDeadlock: true}, checker.Violated},
		{"depth bound", vec{N: 4, K: 4}, vopt{MaxDepth: 6}, checker.Inconclusive},
	}
	for _, c := range cases {
		for _, lz := range []bool{false, true} {
			var plain checker.Model[[]byte] = c.m
			if lz {
				plain = lazy[[]byte]{Model: c.m}
			}
			for _, store := range allStores {
				for _, w := range []int{1, 2, 3} {
					where := fmt.Sprintf("%s/lazy=%v/%v/workers=%d", c.name, lz, store, w)
					opt := c.opt
					opt.Store, opt.Workers = store, w
					var plainSeen, encSeen expanded
					opt.Invariants = append(slices.Clone(c.opt.Invariants), plainSeen.invariant())
					a := explore(t, plain, opt)
					opt.Invariants[len(opt.Invariants)-1] = encSeen.invariant()
					var n atomic.Int64
					var m checker.Model[[]byte] = framed[[]byte]{plain, vecInto, &n}
					if lz {
						m = lazyFramed{lazy[[]byte]{Model: c.m}, framed[[]byte]{c.m, vecInto, &n}}
					}
					b := explore(t, m, opt)
					if n.Load() == 0 {
						t.Fatalf("%s: DecodeInto was never called", where)
					}
					if a.Verdict != c.want || b.Verdict != a.Verdict || a.Reason != b.Reason {
						t.Fatalf("%s: states %v (%s), encodings %v (%s); want %v", where, a.Verdict, a.Reason, b.Verdict, b.Reason, c.want)
					}
					sa, sb := a.Stats, b.Stats
					if sa.States != sb.States || sa.Transitions != sb.Transitions || sa.Depth != sb.Depth {
						t.Fatalf("%s: states %d/%d/%d, encodings %d/%d/%d (states/transitions/depth)", where,
							sa.States, sa.Transitions, sa.Depth, sb.States, sb.Transitions, sb.Depth)
					}
					if err := plainSeen.same(&encSeen); err != nil {
						t.Fatalf("%s: %v", where, err)
					}
					if a.Violation != nil && (a.Violation.Trace.String() != b.Violation.Trace.String() ||
						!slices.Equal(a.Violation.Trace.Actions(), b.Violation.Trace.Actions())) {
						t.Fatalf("%s: traces differ:\n%s\n%s", where, a.Violation.Trace, b.Violation.Trace)
					}
				}
			}
		}
	}
}

// lazyFramed is a SuccessorEncoder that is also a FrontierDecoder.
type lazyFramed struct {
	lazy[[]byte]
	f framed[[]byte]
}

func (l lazyFramed) DecodeInto(enc []byte, scratch *[]byte) []byte {
	return l.f.DecodeInto(enc, scratch)
}

// TestFrontierDecoderIsWhatIsExpanded shows that the comparison above can fail: the
// explorer expands what DecodeInto returns, so a DecodeInto that returns a stale state
// (the first one it decoded, whatever enc says) changes the counts.
func TestFrontierDecoderIsWhatIsExpanded(t *testing.T) {
	m := vec{N: 3, K: 3}
	a := explore(t, checker.Model[[]byte](m), checker.Options[[]byte]{CheckDeadlock: true})
	var n atomic.Int64
	stale := func(enc []byte, scratch *[]byte) []byte {
		if *scratch == nil {
			*scratch = slices.Clone(enc)
		}
		return *scratch
	}
	b := explore(t, checker.Model[[]byte](framed[[]byte]{m, stale, &n}), checker.Options[[]byte]{CheckDeadlock: true})
	if b.Stats.States == a.Stats.States && b.Stats.Transitions == a.Stats.Transitions {
		t.Fatalf("a stale scratch went unnoticed: %d states, %d transitions both ways", a.Stats.States, a.Stats.Transitions)
	}
}

// framedVec is vec with DecodeInto beside Decode, for spilling searches.
type framedVec struct {
	vec
	decoded *atomic.Int64
}

func (f framedVec) DecodeInto(enc []byte, scratch *[]byte) []byte {
	f.decoded.Add(1)
	return vecInto(enc, scratch)
}

// TestFrontierDecoderSpill checks that a spilling search rebuilds frontier states with
// DecodeInto when the model has it, with the in-memory search's results.
func TestFrontierDecoderSpill(t *testing.T) {
	var n atomic.Int64
	m := framedVec{vec{N: 3, K: 3, Stall: true}, &n}
	sameWithSpill[[]byte](t, "vec/stall", m, checker.Options[[]byte]{CheckDeadlock: true})
	n.Store(0)
	res := explore(t, checker.Model[[]byte](m), checker.Options[[]byte]{CheckDeadlock: true, SpillDir: t.TempDir()})
	if res.Verdict != checker.Violated || n.Load() == 0 {
		t.Fatalf("spilling: %v with %d DecodeInto calls; want a deadlock found through DecodeInto", res.Verdict, n.Load())
	}
}
