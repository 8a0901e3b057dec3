package checker

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"sync"
	"sync/atomic"
	"time"
)

// SwarmOptions configures Swarm. Context (or MaxWalks) must bound the run: a swarm
// that finds nothing never ends on its own.
type SwarmOptions[S any] struct {
	// Walkers is the number of goroutines walking at once; 0 means GOMAXPROCS.
	Walkers int
	// Seed seeds the walkers: walker w's random stream and move order derive from Seed
	// and w only, so a run with one walker and a MaxWalks bound is reproducible.
	Seed uint64
	// MaxDepth ends a walk after this many transitions (a model whose graph has cycles
	// would otherwise walk for ever); 0 means 1<<16.
	MaxDepth int
	// MaxWalks bounds the number of walks over all walkers; 0 means unbounded.
	MaxWalks int64
	// Context ends the run (a time limit, a signal). nil means context.Background().
	Context context.Context
	// CheckDeadlock, CheckLocalDeadlock and Invariants are checked in every state a walk
	// visits, as Explore checks them (CheckLocalDeadlock needs a LocalDeadlocker).
	CheckDeadlock      bool
	CheckLocalDeadlock bool
	Invariants         []Invariant[S]
	// CheckLivelock makes a walk that returns to a state it visited try the cycle as a
	// lasso (ReplayLasso): when the cycle is weakly fair and some message is pending
	// throughout, the swarm reports the livelock or starvation. Walks then keep the
	// encodings of the states they visit.
	CheckLivelock bool
	// Progress receives a line (walks, steps, rate, deepest walk) at most once per
	// ProgressEvery (0: DefaultProgressEvery); nil means none.
	Progress      io.Writer
	ProgressEvery time.Duration
	ProgressLabel string
}

// SwarmResult is what Swarm found: a violation (Verdict Violated, Violation set, with the
// walk's trace, loops cut out), or Inconclusive with what the walks covered. A swarm
// never answers Holds: walks sample the state graph, they do not cover it.
type SwarmResult[S any] struct {
	Verdict   Verdict
	Violation *Violation[S]
	Reason    string
	// Walks and Steps count the walks and transitions taken; Deepest is the longest
	// walk; Walker and Walk say which walker found the violation, and in which of its
	// walks.
	Walks, Steps  int64
	Deepest       int
	Walker        int
	Walk          int64
	Duration      time.Duration
	Walkers       int
	StatesPerSec  float64
	FoundAfterSec float64
}

// Swarm hunts for a violation with many randomised walks at once (SPIN's swarm
// verification, TLC's simulation mode): each walker starts at an initial state and takes
// one enabled transition after another until it finds a violation, reaches a Terminal
// state or state without successors, or has taken MaxDepth steps; then it starts again.
// Walkers differ in their move order: each keeps a salt that ranks actions, and takes
// the best-ranked successor with a probability of its own (0 to 7/8) or a uniformly
// random one otherwise, so some walkers run one message far ahead while others
// interleave evenly. The first violation stops every walker; its trace is replayed
// against the model, and cycles the walk went round are cut out (the trace is a simple
// path, not a shortest one: Explore on a smaller instance gives that).
func Swarm[S any](m Model[S], opt SwarmOptions[S]) (*SwarmResult[S], error) {
	if m == nil {
		return nil, fmt.Errorf("checker: Swarm: nil model")
	}
	if opt.Walkers <= 0 {
		opt.Walkers = runtime.GOMAXPROCS(0)
	}
	if opt.MaxDepth <= 0 {
		opt.MaxDepth = 1 << 16
	}
	if opt.Context == nil {
		opt.Context = context.Background()
	}
	var local LocalDeadlocker[S]
	if opt.CheckLocalDeadlock {
		l, ok := m.(LocalDeadlocker[S])
		if !ok {
			return nil, fmt.Errorf("checker: CheckLocalDeadlock is set but the model (%T) does not implement LocalDeadlocker", m)
		}
		local = l
	}
	lazy, _ := m.(SuccessorEncoder[S]) // builds only the successor a walk takes
	var fdec FrontierDecoder[S]
	if d, ok := m.(FrontierDecoder[S]); ok && lazy != nil {
		fdec = d // walks on encodings, decoded into each walker's scratch
	}
	inits := m.Init()
	if len(inits) == 0 {
		return nil, fmt.Errorf("checker: Swarm: the model has no initial state")
	}
	ctx, cancel := context.WithCancel(opt.Context)
	defer cancel()
	start := time.Now()
	var walks, steps, deepest atomic.Int64
	var once sync.Once
	type finding struct {
		walker  int
		walk    int64
		init    int
		actions []Action
		kind    ViolationKind
		inv     int
		at      time.Duration
		lasso   Lasso[S] // for a livelock or starvation
		cycle   int      // the lasso's cycle start
	}
	var found *finding
	stopProgress := swarmProgress(opt, &walks, &steps, &deepest, start)
	var wg sync.WaitGroup
	for w := 0; w < opt.Walkers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			rng := newSplitMix(opt.Seed*0x9e3779b97f4a7c15 + uint64(w)*0xbf58476d1ce4e5b9 + 1)
			salt := rng.next()
			greed := rng.next() % 8 // out of 8: how often the best-ranked action is taken
			var succ []Transition[S]
			var acts []Action
			var buf []byte
			var scratch S
			var cur, encs []byte
			var ends []int
			var keepEncs func(Action, []byte)
			if fdec != nil {
				keepEncs = func(a Action, enc []byte) {
					if len(ends) == 0 {
						ends = append(ends, 0)
					}
					encs = append(encs, enc...)
					ends = append(ends, len(encs))
				}
			}
			var walk int64
			for ctx.Err() == nil {
				if opt.MaxWalks > 0 && walks.Add(1) > opt.MaxWalks {
					return
				} else if opt.MaxWalks == 0 {
					walks.Add(1)
				}
				walk++
				init := int(rng.next() % uint64(len(inits)))
				s := inits[init]
				path := []Action{}
				var visited map[string]int // with CheckLivelock: encoding -> depth
				if opt.CheckLivelock {
					visited = map[string]int{string(m.Encode(s, nil)): 0}
				}
				for depth := 0; ; depth++ {
					encs, ends = encs[:0], ends[:0]
					kind, inv := swarmJudge(m, lazy, opt, local, s, &succ, &acts, &buf, keepEncs)
					if kind != 0 {
						steps.Add(int64(depth))
						if int64(depth) > deepest.Load() {
							deepest.Store(int64(depth))
						}
						once.Do(func() {
							found = &finding{walker: w, walk: walk, init: init, actions: append([]Action(nil), path...), kind: kind, inv: inv, at: time.Since(start)}
							cancel()
						})
						return
					}
					if len(acts) == 0 || depth >= opt.MaxDepth || ctx.Err() != nil {
						steps.Add(int64(depth))
						if int64(depth) > deepest.Load() {
							deepest.Store(int64(depth)) // a race between walkers only loses a maximum
						}
						break
					}
					k := int(rng.next() % uint64(len(acts)))
					if rng.next()%8 < greed {
						best := uint64(1<<64 - 1)
						for j, a := range acts {
							if r := mix64(uint64(a) ^ salt); r < best {
								best, k = r, j
							}
						}
					}
					path = append(path, acts[k])
					if visited != nil {
						var key string
						if fdec != nil {
							key = string(encs[ends[k]:ends[k+1]])
						} else if lazy != nil {
							key = string(m.Encode(lazy.Successor(s, acts[k]), nil))
						} else {
							key = string(m.Encode(succ[k].Next, nil))
						}
						if j, ok := visited[key]; ok {
							// Back at a state of this walk: try the cycle as a lasso.
							if l, f, err := ReplayLasso(m, init, path, j); err == nil {
								steps.Add(int64(depth + 1))
								if int64(depth+1) > deepest.Load() {
									deepest.Store(int64(depth + 1))
								}
								once.Do(func() {
									found = &finding{walker: w, walk: walk, init: init, actions: append([]Action(nil), path...), kind: f.Kind, at: time.Since(start), lasso: l, cycle: j}
									cancel()
								})
								return
							}
							clear(visited) // not a fair lasso: look for another cycle
						}
						visited[key] = depth + 1
					}
					switch {
					case fdec != nil:
						// Walk on encodings: the chosen successor's encoding is decoded into
						// the walker's scratch, and no successor is built whole.
						cur = append(cur[:0], encs[ends[k]:ends[k+1]]...)
						s = fdec.DecodeInto(cur, &scratch)
					case lazy != nil:
						s = lazy.Successor(s, acts[k])
					default:
						s = succ[k].Next
					}
				}
			}
		}(w)
	}
	wg.Wait()
	stopProgress()
	res := &SwarmResult[S]{Walks: walks.Load(), Steps: steps.Load(), Deepest: int(deepest.Load()), Duration: time.Since(start), Walkers: opt.Walkers}
	if opt.MaxWalks > 0 {
		res.Walks = min(res.Walks, opt.MaxWalks)
	}
	if s := res.Duration.Seconds(); s > 0 {
		res.StatesPerSec = float64(res.Steps) / s
	}
	if found == nil {
		res.Verdict = Inconclusive
		why := "the walk bound was reached"
		if err := opt.Context.Err(); err != nil {
			why = "stopped: " + err.Error()
		}
		res.Reason = fmt.Sprintf("swarm search found no violation in %d walks (%d transitions, deepest %d) by %d walkers; %s. A swarm samples the state graph: this is not a proof", res.Walks, res.Steps, res.Deepest, opt.Walkers, why)
		return res, nil
	}
	res.Walker, res.Walk, res.FoundAfterSec = found.walker, found.walk, found.at.Seconds()
	if found.kind.IsLasso() {
		_, f, _ := ReplayLasso(m, found.init, found.actions, found.cycle)
		res.Verdict = Violated
		res.Violation = &Violation[S]{Kind: found.kind, Trace: found.lasso.Trace, CycleStart: found.cycle, Message: f.String()}
		return res, nil
	}
	acts := cutLoops(m, found.init, found.actions)
	tr, err := Replay(m, found.init, acts)
	if err != nil {
		return nil, fmt.Errorf("checker: the swarm's trace does not replay (a model whose Successors is not deterministic): %w", err)
	}
	last := tr.Steps[len(tr.Steps)-1].State
	v := &Violation[S]{Kind: found.kind, Trace: tr}
	switch found.kind {
	case KindInvariant:
		v.Invariant = opt.Invariants[found.inv].Name
		if err := opt.Invariants[found.inv].Check(last); err != nil {
			v.Message = err.Error()
		}
	case KindLocalDeadlock:
		v.Stuck = local.LocalDeadlock(last, enabled(m, last))
		v.Message = fmt.Sprintf("local deadlock: %d message(s) can never move again after %d steps", len(v.Stuck), tr.Len())
		if len(m.Successors(last, nil)) == 0 && !m.Terminal(last) {
			v.Kind = KindDeadlock
			v.Message = fmt.Sprintf("deadlock: no enabled transition in a non-terminal state after %d steps", tr.Len())
		}
	case KindDeadlock:
		v.Message = fmt.Sprintf("deadlock: no enabled transition in a non-terminal state after %d steps", tr.Len())
		if l, ok := m.(LocalDeadlocker[S]); ok {
			v.Stuck = l.LocalDeadlock(last, nil)
		}
	}
	res.Verdict, res.Violation = Violated, v
	return res, nil
}

// swarmJudge checks state s as Explore would (invariants, local deadlock, deadlock) and
// leaves the actions of its transitions in *acts (and, without a SuccessorEncoder, the
// transitions in *succ; with keepEnc, each successor's encoding goes to it); it returns the kind of violation found (0: none) and, for an
// invariant, its index.
func swarmJudge[S any](m Model[S], lazy SuccessorEncoder[S], opt SwarmOptions[S], local LocalDeadlocker[S], s S, succ *[]Transition[S], acts *[]Action, buf *[]byte, keepEnc func(Action, []byte)) (ViolationKind, int) {
	for k, inv := range opt.Invariants {
		if inv.Check(s) != nil {
			return KindInvariant, k
		}
	}
	*acts = (*acts)[:0]
	if lazy != nil {
		*buf = lazy.EncodeSuccessors(s, (*buf)[:0], func(a Action, enc []byte) {
			*acts = append(*acts, a)
			if keepEnc != nil {
				keepEnc(a, enc)
			}
		})
	} else {
		*succ = m.Successors(s, (*succ)[:0])
		for _, t := range *succ {
			*acts = append(*acts, t.Action)
		}
	}
	if local != nil && len(local.LocalDeadlock(s, *acts)) > 0 {
		return KindLocalDeadlock, 0
	}
	if len(*acts) == 0 && opt.CheckDeadlock && !m.Terminal(s) {
		return KindDeadlock, 0
	}
	return 0, 0
}

// cutLoops returns the actions of a walk from initial state init with every detour that
// returns to a state already on it removed: the result visits each state once and ends
// in the same state.
func cutLoops[S any](m Model[S], init int, actions []Action) []Action {
	tr, err := Replay(m, init, actions)
	if err != nil {
		return actions
	}
	var out []Action
	keys := []string{string(m.Encode(tr.Steps[0].State, nil))} // keys[k]: the state after out[:k]
	at := map[string]int{keys[0]: 0}
	for i := 1; i < len(tr.Steps); i++ {
		k := string(m.Encode(tr.Steps[i].State, nil))
		if j, ok := at[k]; ok {
			for _, key := range keys[j+1:] {
				delete(at, key)
			}
			out, keys = out[:j], keys[:j+1]
			continue
		}
		out = append(out, tr.Steps[i].Action)
		keys = append(keys, k)
		at[k] = len(out)
	}
	return out
}

// swarmProgress starts the progress line of a swarm run and returns its stop function.
func swarmProgress[S any](opt SwarmOptions[S], walks, steps, deepest *atomic.Int64, start time.Time) func() {
	if opt.Progress == nil {
		return func() {}
	}
	every := opt.ProgressEvery
	if every <= 0 {
		every = DefaultProgressEvery
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	line := func() {
		el := time.Since(start).Seconds()
		label := opt.ProgressLabel
		if label != "" {
			label += ": "
		}
		fmt.Fprintf(opt.Progress, "%sswarm: %d walks, %d transitions (%.0f/s), deepest %d, %d walkers, elapsed %.0fs\n",
			label, walks.Load(), steps.Load(), float64(steps.Load())/max(el, 1e-9), deepest.Load(), opt.Walkers, el)
	}
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-done:
				line()
				return
			case <-t.C:
				line()
			}
		}
	}()
	return func() { close(done); wg.Wait() }
}

// splitMix is SplitMix64, the walkers' random stream: fast, seedable, no global state.
type splitMix struct{ x uint64 }

func newSplitMix(seed uint64) *splitMix { return &splitMix{seed} }

func (r *splitMix) next() uint64 {
	r.x += 0x9e3779b97f4a7c15
	return mix64(r.x)
}

// mix64 is SplitMix64's finaliser: a bijection of 64-bit words that spreads every bit.
func mix64(z uint64) uint64 {
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return z ^ z>>31
}
