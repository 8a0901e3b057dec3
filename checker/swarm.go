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
	Walks, Steps int64
	Deepest      int
	Walker       int
	Walk         int64
	// FoundBy says how the walk that found the violation chose its moves ("novel walk
	// from depth 5 of the previous walk").
	FoundBy       string
	Duration      time.Duration
	Walkers       int
	StatesPerSec  float64
	FoundAfterSec float64
}

// Swarm hunts for a violation with many randomised walks at once (SPIN's swarm
// verification, TLC's simulation mode): each walker starts at an initial state and takes
// one enabled transition after another until it finds a violation, reaches a Terminal
// state or state without successors, or has taken its walk's depth bound; then it starts
// again. Walks vary in three ways, so that a deadlock that needs rare moves in a narrow
// order (each worm misrouting once and turning back before the others close the cycle)
// is met as well as one that most interleavings reach:
//
//   - how a walk picks (walkKind, walk by walk in walkSchedule's order): uniformly at
//     random; by the walker's own ranking of actions, taken with a probability of its
//     own (0 to 7/8), so some walkers run one message far ahead while others interleave
//     evenly; the successor whose state the whole swarm has visited least (a shared
//     sketch of visit counts), which steers walks away from the interleavings already
//     walked; or actions at random with weights that fall with how often the walker
//     has taken each, which favours the moves it rarely takes;
//   - where it starts: half the walks restart from a state of the walker's previous
//     walk instead of an initial state, half of those from the state where it had the
//     fewest enabled transitions (the nearest it came to a deadlock), the others from a
//     random depth;
//   - how deep it goes: half the walks stop after 4 to 64 transitions, the others at
//     MaxDepth.
//
// A walker's choices derive from Seed and its index only, so a run with one walker and
// a MaxWalks bound is reproducible. The first violation stops every walker; its trace is
// replayed against the model, and cycles the walk went round are cut out (the trace is
// a simple path, not a shortest one: Explore on a smaller instance gives that).
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
	sh := &swarmShared[S]{m: m, opt: opt, inits: m.Init(), sketch: newVisitSketch()}
	if opt.CheckLocalDeadlock {
		l, ok := m.(LocalDeadlocker[S])
		if !ok {
			return nil, fmt.Errorf("checker: CheckLocalDeadlock is set but the model (%T) does not implement LocalDeadlocker", m)
		}
		sh.local = l
	}
	sh.lazy, _ = m.(SuccessorEncoder[S]) // builds only the successor a walk takes
	if d, ok := m.(FrontierDecoder[S]); ok && sh.lazy != nil {
		sh.fdec = d // walks on encodings, decoded into each walker's scratch
	}
	if len(sh.inits) == 0 {
		return nil, fmt.Errorf("checker: Swarm: the model has no initial state")
	}
	var cancel context.CancelFunc
	sh.ctx, cancel = context.WithCancel(opt.Context)
	defer cancel()
	sh.cancel = cancel
	sh.start = time.Now()
	stopProgress := swarmProgress(opt, &sh.walks, &sh.steps, &sh.deepest, sh.start)
	var wg sync.WaitGroup
	for w := 0; w < opt.Walkers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			newWalker(sh, w).run()
		}(w)
	}
	wg.Wait()
	stopProgress()
	return sh.result()
}

// result turns what the walkers found into the swarm's result: the violation with its
// trace replayed (loops cut), or Inconclusive with what the walks covered.
func (sh *swarmShared[S]) result() (*SwarmResult[S], error) {
	m, opt := sh.m, sh.opt
	res := &SwarmResult[S]{Walks: sh.walks.Load(), Steps: sh.steps.Load(), Deepest: int(sh.deepest.Load()), Duration: time.Since(sh.start), Walkers: opt.Walkers}
	if opt.MaxWalks > 0 {
		res.Walks = min(res.Walks, opt.MaxWalks)
	}
	if s := res.Duration.Seconds(); s > 0 {
		res.StatesPerSec = float64(res.Steps) / s
	}
	found := sh.found
	if found == nil {
		res.Verdict = Inconclusive
		why := "the walk bound was reached"
		if err := opt.Context.Err(); err != nil {
			why = "stopped: " + err.Error()
		}
		res.Reason = fmt.Sprintf("swarm search found no violation in %d walks (%d transitions, deepest %d) by %d walkers; %s. A swarm samples the state graph: this is not a proof", res.Walks, res.Steps, res.Deepest, opt.Walkers, why)
		return res, nil
	}
	res.Walker, res.Walk, res.FoundAfterSec, res.FoundBy = found.walker, found.walk, found.at.Seconds(), found.by
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
		v.Stuck = sh.local.LocalDeadlock(last, enabled(m, last))
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

// swarmShared is what a swarm's walkers share: the model and its optional views, the
// options, the counters, the visit sketch and the first finding.
type swarmShared[S any] struct {
	m      Model[S]
	lazy   SuccessorEncoder[S]
	fdec   FrontierDecoder[S]
	local  LocalDeadlocker[S]
	opt    SwarmOptions[S]
	inits  []S
	sketch *visitSketch
	ctx    context.Context
	cancel context.CancelFunc
	start  time.Time

	walks, steps, deepest atomic.Int64
	once                  sync.Once
	found                 *swarmFinding[S]
}

// swarmFinding is the first violation a walker met.
type swarmFinding[S any] struct {
	walker  int
	walk    int64
	init    int
	actions []Action
	kind    ViolationKind
	inv     int
	at      time.Duration
	by      string
	lasso   Lasso[S] // for a livelock or starvation
	cycle   int      // the lasso's cycle start
}

// report records a finding (the first one only) and stops every walker.
func (sh *swarmShared[S]) report(f *swarmFinding[S]) {
	sh.once.Do(func() {
		f.at = time.Since(sh.start)
		sh.found = f
		sh.cancel()
	})
}

// ended counts a walk that ended at depth after taking own transitions (a restarted
// walk replayed the others).
func (sh *swarmShared[S]) ended(depth, own int) {
	sh.steps.Add(int64(own))
	if int64(depth) > sh.deepest.Load() {
		sh.deepest.Store(int64(depth)) // a race between walkers only loses a maximum
	}
}

// walkKind is how a walk picks its next transition (Swarm's doc).
type walkKind uint8

const (
	walkUniform walkKind = iota
	walkGreedy
	walkNovel
	walkRare
	walkKinds
)

var walkKindNames = [walkKinds]string{"uniform", "greedy", "novel", "rare"}

// walkSchedule is the order in which a walker's walks take the kinds: uniform and novel
// walks, which find the most of the deadlocks tried (misrouted and adaptive squares),
// twice as often as greedy and rare ones.
var walkSchedule = []walkKind{walkUniform, walkNovel, walkGreedy, walkUniform, walkNovel, walkRare}

// visitSketch counts how often the swarm's novel walks have visited each state, by the
// low bits of its fingerprint (states that share them share a count, which only makes
// a state look less novel than it is). Shared by the walkers; lock-free.
type visitSketch struct{ counts []atomic.Uint32 }

const visitSketchBits = 20

func newVisitSketch() *visitSketch {
	return &visitSketch{counts: make([]atomic.Uint32, 1<<visitSketchBits)}
}

func (v *visitSketch) count(h uint64) uint32 { return v.counts[h&(1<<visitSketchBits-1)].Load() }
func (v *visitSketch) visit(h uint64)        { v.counts[h&(1<<visitSketchBits-1)].Add(1) }

// walker is one goroutine of a swarm: its random stream, its ranking of actions, its
// previous walk (where restarts start) and its scratch space.
type walker[S any] struct {
	sh           *swarmShared[S]
	w            int
	rng          *splitMix
	salt, greed  uint64
	succ         []Transition[S]
	acts         []Action
	buf          []byte
	scratch      S
	cur, encs    []byte
	ends         []int
	prev         []Action
	prevInit     int
	walks        int64
	kind         walkKind
	keepEncs     bool
	visited      map[string]int // with CheckLivelock: the walk's states, encoding -> depth
	restartDepth int
	// narrow is the depth of the walk's state with the fewest enabled transitions (not
	// its start, not one without any), narrowest how many it had; prevNarrow is the
	// previous walk's narrow.
	narrow, narrowest, prevNarrow int
	taken                         map[Action]uint32 // rare walks: how often the walker took each action
}

func newWalker[S any](sh *swarmShared[S], w int) *walker[S] {
	rng := newSplitMix(sh.opt.Seed*0x9e3779b97f4a7c15 + uint64(w)*0xbf58476d1ce4e5b9 + 1)
	wk := &walker[S]{sh: sh, w: w, rng: rng}
	wk.salt = rng.next()
	wk.greed = rng.next() % 8 // out of 8: how often the best-ranked action is taken
	return wk
}

// run walks until the swarm is stopped or its walk bound is reached.
func (wk *walker[S]) run() {
	sh := wk.sh
	for sh.ctx.Err() == nil {
		if sh.opt.MaxWalks > 0 && sh.walks.Add(1) > sh.opt.MaxWalks {
			return
		} else if sh.opt.MaxWalks == 0 {
			sh.walks.Add(1)
		}
		wk.walks++
		if wk.walk() {
			return
		}
	}
}

// walk takes one walk and says whether it found a violation.
func (wk *walker[S]) walk() bool {
	sh, opt, m := wk.sh, wk.sh.opt, wk.sh.m
	wk.kind = walkSchedule[(int64(wk.w)+wk.walks)%int64(len(walkSchedule))]
	wk.keepEncs = sh.fdec != nil || wk.kind == walkNovel && sh.lazy != nil
	bound := opt.MaxDepth
	if wk.rng.next()%2 == 0 {
		bound = min(bound, 4<<(wk.rng.next()%5))
	}
	init, path, s := wk.begin()
	for depth := len(path); ; depth++ {
		wk.encs, wk.ends = wk.encs[:0], wk.ends[:0]
		kind, inv := swarmJudge(m, sh.lazy, opt, sh.local, s, &wk.succ, &wk.acts, &wk.buf, wk.keepEnc())
		if kind != 0 {
			sh.ended(depth, depth-wk.restartDepth)
			sh.report(&swarmFinding[S]{walker: wk.w, walk: wk.walks, init: init, actions: append([]Action(nil), path...), kind: kind, inv: inv, by: wk.by()})
			return true
		}
		if n := len(wk.acts); n > 0 && depth > 0 && n <= wk.narrowest {
			wk.narrow, wk.narrowest = depth, n
		}
		if len(wk.acts) == 0 || depth >= bound || sh.ctx.Err() != nil {
			sh.ended(depth, depth-wk.restartDepth)
			wk.prev, wk.prevInit, wk.prevNarrow = append(wk.prev[:0], path...), init, wk.narrow
			return false
		}
		k := wk.pick(s)
		path = append(path, wk.acts[k])
		if wk.visited != nil {
			key := wk.key(s, k)
			if j, ok := wk.visited[key]; ok {
				// Back at a state of this walk: try the cycle as a lasso.
				if l, f, err := ReplayLasso(m, init, path, j); err == nil {
					sh.ended(depth+1, depth+1-wk.restartDepth)
					sh.report(&swarmFinding[S]{walker: wk.w, walk: wk.walks, init: init, actions: append([]Action(nil), path...), kind: f.Kind, lasso: l, cycle: j, by: wk.by()})
					return true
				}
				clear(wk.visited) // not a fair lasso: look for another cycle
			}
			wk.visited[key] = depth + 1
		}
		s = wk.next(s, k)
	}
}

// begin returns where a walk starts: an initial state, or, for half the walks after
// the first, the state at a random depth of the walker's previous walk (its actions
// replayed), with the path to it; with CheckLivelock it fills the walk's visited states.
func (wk *walker[S]) begin() (init int, path []Action, s S) {
	sh := wk.sh
	wk.restartDepth = 0
	wk.narrow, wk.narrowest = 0, 1<<30
	if sh.opt.CheckLivelock {
		if wk.visited == nil {
			wk.visited = map[string]int{}
		}
		clear(wk.visited)
	}
	if len(wk.prev) >= 2 && wk.rng.next()%2 == 0 {
		init = wk.prevInit
		s = sh.inits[init]
		n := 1 + int(wk.rng.next()%uint64(len(wk.prev)-1))
		if wk.rng.next()%2 == 0 && wk.prevNarrow > 0 {
			n = wk.prevNarrow // where the previous walk had the fewest ways on
		}
		if wk.visited != nil {
			wk.visited[string(sh.m.Encode(s, nil))] = 0
		}
		for i, a := range wk.prev[:n] {
			next, ok := successorBy(sh.m, sh.lazy, s, a, &wk.succ)
			if !ok {
				break // a model whose successors are not deterministic: walk from here
			}
			s = next
			path = append(path, a)
			if wk.visited != nil {
				wk.visited[string(sh.m.Encode(s, nil))] = i + 1
			}
		}
		wk.restartDepth = len(path)
		return init, path, s
	}
	init = int(wk.rng.next() % uint64(len(sh.inits)))
	s = sh.inits[init]
	if wk.visited != nil {
		wk.visited[string(sh.m.Encode(s, nil))] = 0
	}
	return init, nil, s
}

// successorBy returns the target of enabled action a of s.
func successorBy[S any](m Model[S], lazy SuccessorEncoder[S], s S, a Action, succ *[]Transition[S]) (S, bool) {
	if lazy != nil {
		return lazy.Successor(s, a), true
	}
	*succ = m.Successors(s, (*succ)[:0])
	for _, t := range *succ {
		if t.Action == a {
			return t.Next, true
		}
	}
	var zero S
	return zero, false
}

// keepEnc is the callback that keeps each successor's encoding, when the walk needs
// them (walking on encodings, or choosing the novel successor); nil otherwise.
func (wk *walker[S]) keepEnc() func(Action, []byte) {
	if !wk.keepEncs {
		return nil
	}
	return func(_ Action, enc []byte) {
		if len(wk.ends) == 0 {
			wk.ends = append(wk.ends, 0)
		}
		wk.encs = append(wk.encs, enc...)
		wk.ends = append(wk.ends, len(wk.encs))
	}
}

// pick chooses the index of the transition of s (among wk.acts) the walk takes.
func (wk *walker[S]) pick(s S) int {
	acts := wk.acts
	k := int(wk.rng.next() % uint64(len(acts)))
	switch wk.kind {
	case walkGreedy:
		if wk.rng.next()%8 < wk.greed {
			best := uint64(1<<64 - 1)
			for j, a := range acts {
				if r := mix64(uint64(a) ^ wk.salt); r < best {
					best, k = r, j
				}
			}
		}
	case walkRare:
		// Each action with a weight 1/(1+n)^2, n the times the walker took it.
		if wk.taken == nil {
			wk.taken = map[Action]uint32{}
		}
		var total float64
		for _, a := range acts {
			c := float64(wk.taken[a]) + 1
			total += 1 / (c * c)
		}
		x := float64(wk.rng.next()>>11) / (1 << 53) * total
		for j, a := range acts {
			c := float64(wk.taken[a]) + 1
			if x -= 1 / (c * c); x <= 0 {
				k = j
				break
			}
		}
		wk.taken[acts[k]]++
	case walkNovel:
		if wk.rng.next()%8 == 0 {
			break // now and then a uniform step, so that equal counts do not trap the walk
		}
		least, ties := uint32(1<<32-1), uint64(0)
		for j := range acts {
			c := wk.sh.sketch.count(fingerprint(wk.encoding(s, j)))
			switch {
			case c < least:
				least, k, ties = c, j, 1
			case c == least:
				ties++
				if wk.rng.next()%ties == 0 {
					k = j // a uniform choice among the least visited
				}
			}
		}
		wk.sh.sketch.visit(fingerprint(wk.encoding(s, k)))
	}
	return k
}

// encoding returns the encoding of the j-th successor of s.
func (wk *walker[S]) encoding(s S, j int) []byte {
	if wk.keepEncs {
		return wk.encs[wk.ends[j]:wk.ends[j+1]]
	}
	if wk.sh.lazy != nil {
		wk.cur = wk.sh.m.Encode(wk.sh.lazy.Successor(s, wk.acts[j]), wk.cur[:0])
	} else {
		wk.cur = wk.sh.m.Encode(wk.succ[j].Next, wk.cur[:0])
	}
	return wk.cur
}

// key is the visited-map key of the k-th successor of s.
func (wk *walker[S]) key(s S, k int) string {
	if wk.keepEncs {
		return string(wk.encs[wk.ends[k]:wk.ends[k+1]])
	}
	if wk.sh.lazy != nil {
		return string(wk.sh.m.Encode(wk.sh.lazy.Successor(s, wk.acts[k]), nil))
	}
	return string(wk.sh.m.Encode(wk.succ[k].Next, nil))
}

// next returns the k-th successor of s, the state the walk moves to.
func (wk *walker[S]) next(s S, k int) S {
	switch {
	case wk.sh.fdec != nil:
		// Walk on encodings: the chosen successor's encoding is decoded into the
		// walker's scratch, and no successor is built whole.
		wk.cur = append(wk.cur[:0], wk.encs[wk.ends[k]:wk.ends[k+1]]...)
		return wk.sh.fdec.DecodeInto(wk.cur, &wk.scratch)
	case wk.sh.lazy != nil:
		return wk.sh.lazy.Successor(s, wk.acts[k])
	}
	return wk.succ[k].Next
}

// by names how the walk that found a violation chose: its kind, and the depth it
// restarted from.
func (wk *walker[S]) by() string {
	if wk.restartDepth > 0 {
		return fmt.Sprintf("%s walk from depth %d of the previous walk", walkKindNames[wk.kind], wk.restartDepth)
	}
	return walkKindNames[wk.kind] + " walk"
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
