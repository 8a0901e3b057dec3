package checker

import (
	"context"
	"encoding/binary"
	"fmt"
	"math"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"

	"github.com/wormcheck/wormcheck/checker/progress"
)

// Explore searches the states of m reachable from m.Init() breadth-first, level by
// level, checking opt.Invariants on every state and, with opt.CheckDeadlock, that every
// state without successors is Terminal.
//
// It returns Violated with a shortest trace to a violation; Holds when the whole
// reachable set was explored without one; Inconclusive when a bound (MaxDepth,
// MaxStates, MaxMemoryBytes) or the Context stopped it first. The verdict, state count
// and trace are the same for every opt.Workers (see the package doc for how). It
// returns an error for invalid options, a model without initial states, Symmetry on a
// model that is not a Canonicalizer, or a model that breaks its contract (a stored
// trace that does not replay).
//
// Cost: O(states + transitions) model calls and expected O(1) store operations per
// transition; memory is the store (Stats.StoreBytes) plus two frontiers of states.
func Explore[S any](m Model[S], opt Options[S]) (*Result[S], error) {
	if m == nil {
		return nil, fmt.Errorf("checker: Explore: nil model")
	}
	opt, err := opt.normalized()
	if err != nil {
		return nil, err
	}
	e := &explorer[S]{m: m, opt: opt}
	if opt.Symmetry {
		c, ok := m.(Canonicalizer[S])
		if !ok {
			return nil, fmt.Errorf("checker: Symmetry is set but the model (%T) does not implement Canonicalizer", m)
		}
		e.canon = c
	} else if l, ok := m.(SuccessorEncoder[S]); ok {
		e.lazy = l
	}
	if opt.CheckLocalDeadlock {
		l, ok := m.(LocalDeadlocker[S])
		if !ok {
			return nil, fmt.Errorf("checker: CheckLocalDeadlock is set but the model (%T) does not implement LocalDeadlocker", m)
		}
		e.local = l
	}
	e.initProgress()
	if d, ok := m.(FrontierDecoder[S]); ok && opt.SpillDir == "" {
		e.fdec = d
	} else if b, ok := m.(SuccessorBuilder[S]); ok && e.lazy != nil && opt.Workers == 1 && opt.SpillDir == "" {
		e.build = b
	}
	workers := opt.Workers
	if opt.SpillDir != "" {
		workers = 1 // the spilling store is spill.go's; this one keeps its counters
	}
	e.store = newStore[S](opt.Store == Exact, workers, e.fdec != nil, e.materializes())
	if opt.SpillDir != "" {
		if err := e.openSpill(); err != nil {
			return nil, err
		}
		defer e.spill.close()
	}
	start := time.Now()
	prog := startProgress(opt.Progress, opt, e.snapshot)
	res, err := e.run()
	if err == nil {
		err = e.fillProgress(res)
	}
	if err == nil && opt.CheckLiveness {
		err = e.decideLiveness(res)
	}
	prog.Stop()
	if err != nil {
		return nil, err
	}
	e.fillStats(&res.Stats, time.Since(start))
	return res, nil
}

// node is a state of a spilled frontier, decoded, and its id.
type node[S any] struct {
	state S
	id    uint64
}

// explorer holds one search. Only the coordinator goroutine writes its plain fields;
// workers share the store and the atomics.
type explorer[S any] struct {
	m     Model[S]
	opt   Options[S]
	canon Canonicalizer[S]    // nil unless opt.Symmetry
	lazy  SuccessorEncoder[S] // nil unless the model has one and Symmetry is off
	// build is set when lazy is, the model is a SuccessorBuilder but no FrontierDecoder,
	// and one worker without SpillDir explores: new successors are kept as they are
	// found, not materialized.
	build SuccessorBuilder[S]
	// fdec is set when the model is a FrontierDecoder and no SpillDir is set: levels
	// hold encodings, and each worker rebuilds the state it expands in its scratch.
	fdec FrontierDecoder[S]
	// local is set when opt.CheckLocalDeadlock is and the model is a LocalDeadlocker.
	local LocalDeadlocker[S]
	store *store[S]
	heap  heapSampler
	prog  progressCheck[S] // the Progressive certificate, if the model has one

	// With Options.SpillDir (spill.go): the visited set, the files and the decoder.
	spill   *spill
	sstore  *spillStore
	decoder Decoder[S]

	depth       int
	transitions int64
	branching   float64 // new states per frontier state in the last level

	// Published for progress reports.
	frontierLen atomic.Int64
	depthNow    atomic.Int64

	// Set once by the first worker that must stop the level.
	stopped    atomic.Bool
	stopMu     sync.Mutex
	stopReason string
	failure    error // a broken model contract found by a worker; stops the search
}

// candidate is a violation found while expanding frontier index idx; order is the
// invariant's index, len(Invariants) for a local deadlock, len(Invariants)+1 for a
// global one. The least (idx, order) wins.
type candidate struct {
	ok    bool
	idx   uint64
	order int
	kind  ViolationKind
	name  string
	msg   string
	id    uint64
}

func (c candidate) less(d candidate) bool {
	if !d.ok {
		return c.ok
	}
	return c.ok && (c.idx < d.idx || (c.idx == d.idx && c.order < d.order))
}

// run is the level loop.
func (e *explorer[S]) run() (*Result[S], error) {
	inits := e.m.Init()
	if len(inits) == 0 {
		return nil, fmt.Errorf("checker: the model (%T) has no initial state", e.m)
	}
	if e.spill != nil {
		return e.runSpill(inits)
	}
	if len(inits) > maxTrans+1 {
		return nil, fmt.Errorf("checker: the model (%T) has %d initial states; the explorer takes at most %d", e.m, len(inits), maxTrans+1)
	}
	var buf []byte
	st := e.store
	st.begin(1)
	if st.shared {
		st.locals[0].startRun()
	}
	for i, s := range inits {
		if e.canon != nil {
			s = e.canon.Canonical(s)
		}
		buf = e.m.Encode(s, buf[:0])
		if i == 0 && e.packs() {
			st.pk = newPacker(buf)
		}
		h, rec := fixHash(fingerprint(buf)), packRecord(noParent, uint32(i))
		switch {
		case st.shared:
			st.insertShared(h, buf, rec, Action(i), s, &st.locals[0])
		case st.pk != nil:
			var word [8]byte
			h, key, isWord := st.keyOf(buf, &word)
			st.insertKey(h, key, isWord, rec, Action(i), s)
		default:
			st.insert(h, buf, rec, Action(i), s)
		}
	}
	if st.shared {
		st.leave(&st.locals[0])
		st.dropStale(0)
	}
	st.states.Store(st.count())
	frontier := st.nextFrontier()
	for depth := 0; ; depth++ {
		e.depth = depth
		e.depthNow.Store(int64(depth))
		e.frontierLen.Store(int64(frontier.size()))
		last := e.opt.MaxDepth > 0 && depth == e.opt.MaxDepth
		best, beyond := e.expandLevel(&frontier, last)
		if res, stop, err := e.levelEnd(best, beyond, last); stop {
			if res != nil || err != nil {
				return res, err
			}
			break
		}
		next := e.store.nextFrontier()
		if next.size() == 0 {
			break
		}
		if e.materializes() {
			e.materialize(&frontier, &next)
		}
		e.branching = float64(next.size()) / float64(frontier.size())
		e.store.recycle(&frontier)
		frontier = next
	}
	return &Result[S]{Verdict: Holds}, nil
}

// levelEnd decides what a fully expanded level means for the search: stop with a
// violation (the least candidate), stop inconclusive (a cancellation or budget, or the
// depth bound with undiscovered states beyond it), stop complete (res and err nil: the
// depth bound was reached with nothing beyond), or go on to the next level (stop false).
func (e *explorer[S]) levelEnd(best candidate, beyond, last bool) (res *Result[S], stop bool, err error) {
	switch {
	case e.failure != nil:
		return nil, true, e.failure
	case best.ok:
		res, err = e.violated(best)
		return res, true, err
	case e.stopped.Load():
		return &Result[S]{Verdict: Inconclusive, Reason: e.stopReason}, true, nil
	case last && beyond:
		return &Result[S]{Verdict: Inconclusive, Reason: fmt.Sprintf("depth bound %d reached", e.opt.MaxDepth)}, true, nil
	case last:
		return nil, true, nil
	}
	if reason := e.overBudget(); reason != "" {
		return &Result[S]{Verdict: Inconclusive, Reason: reason}, true, nil
	}
	return nil, false, nil
}

// overBudget returns why the store exceeds MaxStates or MaxMemoryBytes, or "".
func (e *explorer[S]) overBudget() string {
	if n := e.store.states.Load(); e.opt.MaxStates > 0 && n > e.opt.MaxStates {
		return fmt.Sprintf("state budget %d exhausted (%d states stored)", e.opt.MaxStates, n)
	}
	if b := e.store.bytes.Load(); e.opt.MaxMemoryBytes > 0 && b > e.opt.MaxMemoryBytes {
		return fmt.Sprintf("memory budget %d bytes exhausted (store is %d bytes)", e.opt.MaxMemoryBytes, b)
	}
	if e.opt.MaxMemoryBytes > 0 {
		if h := e.heap.sample(e.opt.MaxMemoryBytes); h > e.opt.MaxMemoryBytes {
			return fmt.Sprintf("memory budget %d bytes exhausted (Go heap is %d bytes: store and frontiers)", e.opt.MaxMemoryBytes, h)
		}
	}
	return ""
}

// heapSampler reads the Go heap size (live and not yet swept objects: the store, the
// frontiers and garbage), so that the memory budget also covers frontier states, which
// the store estimate does not. It reads at most once per progress.SampleEvery of the
// last reading against the budget: every 20 ms far from it, down to every millisecond
// near it, so that a fast-growing search stops within a few MB of its budget. It never
// stops the world.
type heapSampler struct {
	last  atomic.Int64 // unix nanoseconds of the last reading
	bytes atomic.Int64
}

// sample returns the heap's size in bytes, read anew if the interval that the last
// reading and limit give has passed.
func (h *heapSampler) sample(limit int64) int64 {
	now := time.Now().UnixNano()
	every := min(progress.SampleEvery(uint64(h.bytes.Load()), uint64(limit)), 20*time.Millisecond)
	if last := h.last.Load(); now-last < int64(every) || !h.last.CompareAndSwap(last, now) {
		return h.bytes.Load()
	}
	s := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() == metrics.KindUint64 {
		h.bytes.Store(int64(s[0].Value.Uint64()))
	}
	return h.bytes.Load()
}

// fail stops the search with err, a model that breaks the explorer's limits or
// contract; the first error is kept.
func (e *explorer[S]) fail(err error) {
	e.stopMu.Lock()
	if e.failure == nil {
		e.failure = err
	}
	e.stopMu.Unlock()
	e.stop(err.Error())
}

// stop asks every worker to end the level; the first reason is kept.
func (e *explorer[S]) stop(reason string) {
	e.stopMu.Lock()
	if !e.stopped.Load() {
		e.stopReason = reason
		e.stopped.Store(true)
	}
	e.stopMu.Unlock()
}

// maxChunk is the largest number of frontier states a worker claims at a time;
// budgets, the Context and StopAtFirst are checked between chunks. Small levels use
// smaller chunks so that every worker gets a share.
const maxChunk = 256

// parallelLevel is the least width of a level that several workers share: a narrower
// level costs less than starting workers and handing successors between them. It is a
// variable only so that this package's tests can share every level (export_test.go)
// and keep the small models' searches on the parallel path.
var parallelLevel = 1024

// expandLevel expands every state of frontier with opt.Workers workers (one for a level
// narrower than parallelLevel). It returns the least violation candidate and, when last
// is set (the depth bound), whether some successor is not stored yet; in that case
// successors are looked up, not stored.
func (e *explorer[S]) expandLevel(frontier *level[S], last bool) (candidate, bool) {
	var width int
	if e.spill != nil {
		width = int(e.spill.width)
	} else {
		width = frontier.size()
	}
	chunk := int64(max(1, min(maxChunk, width/(4*e.opt.Workers))))
	n := e.opt.Workers
	if width < parallelLevel {
		n = 1
	}
	workers := make([]worker[S], max(1, min(n, width)))
	shares := make([]share, len(workers))
	for i := range shares {
		shares[i].next.Store(int64(i * width / len(shares)))
		shares[i].end = int64((i + 1) * width / len(shares))
	}
	st := e.store
	shared := st.shared // never with a spilling search (its store is spill.go's)
	if shared {
		if !last {
			// Grow now what the level is expected to need if it
			// grows like the last one, up to doubling the store: more is left to the
			// pauses, so that one wide level does not size the table for its
			// successors' successors.
			st.reserve(int64(min(float64(width)*e.branching, float64(st.count()))))
		}
		st.begin(len(workers))
	}
	for i := range workers {
		w := &workers[i]
		w.e, w.id = e, i
		if shared {
			w.loc = &st.locals[i]
		}
	}
	// This goroutine is worker 0: it starts at once, and takes the others' chunks
	// until they start.
	var wg sync.WaitGroup
	for i := 1; i < len(workers); i++ {
		w := &workers[i]
		wg.Go(func() { w.run(frontier, shares, chunk, last) })
	}
	workers[0].run(frontier, shares, chunk, last)
	wg.Wait()
	if shared && !last {
		st.dropStale(width)
	}
	var best candidate
	beyond := false
	for i := range workers {
		w := &workers[i]
		e.transitions += w.transitions
		e.prog.collect(&w.rank, e.depth)
		beyond = beyond || w.beyond
		if w.best.less(best) {
			best = w.best
		}
	}
	return best, beyond
}

// materializes reports whether new states are stored without their state and built
// after their level (the SuccessorEncoder path without a SuccessorBuilder or a
// FrontierDecoder).
func (e *explorer[S]) materializes() bool {
	return e.lazy != nil && e.build == nil && e.fdec == nil
}

// materialize builds the states of a new level stored without their state: state k of
// next is the successor of state next.from[k] of prev by its recorded action. Workers
// share the work; each state is built exactly once.
func (e *explorer[S]) materialize(prev, next *level[S]) {
	build := func(lo, hi int) {
		for k := lo; k < hi; k++ {
			next.states[k] = e.lazy.Successor(prev.states[next.from[k]], next.acts[k])
		}
	}
	n := next.size()
	w := min(e.opt.Workers, n/256+1)
	if w <= 1 {
		build(0, n)
		return
	}
	var wg sync.WaitGroup
	per := (n + w - 1) / w
	for lo := 0; lo < n; lo += per {
		hi := min(lo+per, n)
		wg.Go(func() { build(lo, hi) })
	}
	wg.Wait()
}

// packs reports whether the store keys encodings by a packer (pack.go): in Exact mode
// with one worker, in memory, for a model whose frontiers hold states (explored through
// Successors or a SuccessorEncoder; a FrontierDecoder's frontier holds the encodings
// themselves).
func (e *explorer[S]) packs() bool {
	return e.opt.Store == Exact && e.opt.Workers == 1 && e.opt.SpillDir == "" && e.fdec == nil
}

// worker is one goroutine's scratch space; dst and buf are reused across states so the
// hot path does not allocate.
type worker[S any] struct {
	e           *explorer[S]
	dst         []Transition[S]
	buf         []byte
	transitions int64
	pending     int64 // new states not yet added to store.states

	// The chunk being expanded with Options.SpillDir (spill.go).
	spillWork[S]

	// loc is the worker's part of a shared store (several workers, shared.go); id is
	// its index among the level's workers.
	loc *local[S]
	id  int

	// The successors of the state being expanded: end of each one's encoding in buf,
	// fingerprints, and what touch read (kept so the reads are not optimised away).
	ends    []uint32
	hs      []uint64
	touched uint64
	// With the store's packer: per successor its packed word and whether it has one,
	// and the bytes of the word being looked up.
	pks    []uint64
	pkWord []bool
	word   [8]byte

	// The SuccessorEncoder path: the state being expanded and its successor count, and
	// the successors yielded so far (encodings ending at ends, fingerprints in hs).
	lenc      []byte
	acts      []Action
	yield     func(Action, []byte)
	yieldRank func(Action, []byte, []uint32)
	// The SuccessorBuilder path (one worker): the yield and keep callbacks.
	yieldBuild func(Action, []byte, []uint32) bool
	keep       func(S)
	// The FrontierDecoder path: the memory the state being expanded is rebuilt in.
	scratch S
	cur     uint64
	curID   uint64
	nsucc   int
	curLast bool
	best    candidate
	beyond  bool
	rank    rankScratch // the progress check's ranks, count and least break
	_       [64]byte    // workers are in one slice: keep each one's fields off the next one's cache lines
}

// share is one worker's part of a level: the frontier states [start, end), of which it
// claims chunks from next on; once its own share is done, a worker claims the chunks
// left in the others'. Consecutive frontier states tend to share successors (their
// parents are close in key order), so a worker that expands a stretch of them finds
// most of those successors in its own cache, where chunks dealt out in turn would send
// every other re-discovery to the other core's.
type share struct {
	next atomic.Int64
	end  int64
	_    [48]byte // shares are in one slice, each claimed from by its own worker mostly
}

// run expands the states of frontier that w claims, first from its own share, then
// from the others'.
func (w *worker[S]) run(frontier *level[S], shares []share, chunk int64, last bool) {
	e := w.e
	if e.spill != nil {
		w.runSpill(chunk, last)
		return
	}
	for k := range shares {
		w.runShare(frontier, &shares[(w.id+k)%len(shares)], chunk, last)
	}
	if w.loc != nil {
		e.store.leave(w.loc)
	}
	e.store.states.Add(w.pending)
	w.pending = 0
}

// runShare expands the chunks w claims from share sh until it is done or the search
// stops.
func (w *worker[S]) runShare(frontier *level[S], sh *share, chunk int64, last bool) {
	e := w.e
	if w.loc != nil {
		w.loc.startRun()
	}
	for !e.stopped.Load() {
		lo := sh.next.Add(chunk) - chunk
		if lo >= sh.end {
			break
		}
		for i := lo; i < min(lo+chunk, sh.end); i++ {
			if e.fdec != nil {
				w.expand(e.fdec.DecodeInto(frontier.enc(int(i)), &w.scratch), frontier.id(int(i)), uint64(i), last)
			} else {
				w.expand(frontier.states[i], frontier.id(int(i)), uint64(i), last)
			}
		}
		e.store.states.Add(w.pending)
		w.pending = 0
		if reason := e.overBudget(); reason != "" {
			e.stop(reason)
		} else if err := e.opt.Context.Err(); err != nil {
			e.stop("cancelled: " + context.Cause(e.opt.Context).Error())
		} else if e.opt.StopAtFirst && w.best.ok {
			e.stop("violation found")
		}
	}
}

// expand checks state s, number i of the frontier with store id id, and stores its
// successors.
func (w *worker[S]) expand(s S, id, i uint64, last bool) {
	e := w.e
	for k, inv := range e.opt.Invariants {
		if err := inv.Check(s); err != nil {
			w.offer(candidate{ok: true, idx: i, order: k, kind: KindInvariant, name: inv.Name, msg: err.Error(), id: id})
			break
		}
	}
	if e.lazy != nil {
		w.expandLazy(s, id, i, last)
		return
	}
	succ := e.m.Successors(s, w.dst[:0])
	w.dst = succ
	w.transitions += int64(len(succ))
	if len(succ) > maxTrans+1 {
		e.fail(fmt.Errorf("checker: a state has %d successors; the explorer takes at most %d", len(succ), maxTrans+1))
		return
	}
	if e.local != nil {
		w.acts = w.acts[:0]
		for j := range succ {
			w.acts = append(w.acts, succ[j].Action)
		}
		w.checkLocal(s, i, id)
	}
	if len(succ) == 0 {
		if e.opt.CheckDeadlock && !e.m.Terminal(s) {
			w.offer(candidate{ok: true, idx: i, order: len(e.opt.Invariants) + 1, kind: KindDeadlock, id: id})
		}
		return
	}
	if last && w.beyond {
		return
	}
	if e.prog.on {
		w.rank.parent = e.prog.m.Progress(s, w.rank.parent[:0])
	}
	// Pass 1 encodes and hashes every successor and touches each one's home slot, so
	// that the cache misses of the lookups overlap instead of queueing one behind the
	// other in pass 2, which looks them up or stores them.
	st := e.store
	w.buf, w.ends, w.hs = w.buf[:0], w.ends[:0], w.hs[:0]
	for j := range succ {
		next := succ[j].Next
		if e.canon != nil {
			next = e.canon.Canonical(next)
			succ[j].Next = next
		}
		if e.prog.on {
			w.rank.child = e.prog.m.Progress(next, w.rank.child[:0])
			w.rank.check(i, j, id, succ[j].Action)
		}
		start := len(w.buf)
		w.buf = e.m.Encode(next, w.buf)
		h := uint64(0) // set by packKeys
		if st.pk == nil {
			h = fixHash(fingerprint(w.buf[start:]))
		}
		w.hs = append(w.hs, h)
		w.ends = append(w.ends, uint32(len(w.buf)))
	}
	if st.pk != nil {
		w.packKeys(w.buf)
	}
	if !last {
		w.touch(w.hs)
	}
	start := uint32(0)
	for j := range succ {
		enc, h := w.buf[start:w.ends[j]], w.hs[j]
		start = w.ends[j]
		if st.pk != nil {
			if !w.storePacked(j, enc, id, succ[j].Action, succ[j].Next, last) {
				return
			}
			continue
		}
		if last {
			if !w.contains(h, enc) {
				w.beyond = true
				return
			}
			continue
		}
		if w.store(st, h, enc, key{i, uint32(j)}, id, succ[j].Action, succ[j].Next) {
			w.pending++
		}
	}
}

// storePacked stores successor j of the state being expanded (store id id), keyed by
// packKeys, with its encoding enc, action a and state s, or with last looks it up; it
// returns false when last and the successor is not stored (w.beyond is set).
func (w *worker[S]) storePacked(j int, enc []byte, id uint64, a Action, s S, last bool) bool {
	st := w.e.store
	h, word := w.hs[j], w.pkWord[j]
	if word {
		binary.LittleEndian.PutUint64(w.word[:], w.pks[j])
		enc = w.word[:]
	}
	if last {
		if !st.containsKey(h, enc, word) {
			w.beyond = true
			return false
		}
	} else if st.insertKey(h, enc, word, packRecord(id, uint32(j)), a, s) {
		w.pending++
	}
	return true
}

// packKeys keys the successors whose encodings end at w.ends in buf by the store's
// packer (store.keyOf): it sets their fingerprints in w.hs and, per successor, its
// packed word (w.pks) if it is word-keyed (w.pkWord). When a successor widens the
// packer, the ones before it were keyed by the old layout, so all are keyed again.
func (w *worker[S]) packKeys(buf []byte) {
	st := w.e.store
	p := st.pk
	n := len(w.ends)
	w.pks, w.pkWord = grown(w.pks, n)[:n], grown(w.pkWord, n)[:n]
	for again := true; again; {
		again = false
		start := uint32(0)
		for j, end := range w.ends {
			enc := buf[start:end]
			start = end
			if pw, ok := p.pack(enc); ok {
				w.hs[j], w.pks[j], w.pkWord[j] = xxhashWord(pw), pw, true
				continue
			}
			used := p.used
			h, key, word := st.keyOf(enc, &w.word)
			again = again || p.used != used && j > 0
			w.hs[j], w.pks[j], w.pkWord[j] = h, 0, word
			if word {
				w.pks[j] = binary.LittleEndian.Uint64(key)
			}
		}
	}
}

// expandLazy is the successor loop of expand for a SuccessorEncoder: successors are
// hashed and stored from their encodings; their states are built by materialize.
func (w *worker[S]) expandLazy(s S, id, i uint64, last bool) {
	e := w.e
	if w.yield == nil {
		w.yield = w.storeEncoded
	}
	w.cur, w.curID, w.nsucc, w.curLast = i, id, 0, last
	w.acts = w.acts[:0]
	if e.build != nil {
		if w.yieldBuild == nil {
			w.yieldBuild, w.keep = w.storeBuilt, w.keepBuilt
		}
		if e.prog.on {
			w.rank.parent = e.prog.m.Progress(s, w.rank.parent[:0])
		}
		w.buf, w.rank.child = e.build.EncodeSuccessorsBuild(s, w.buf, w.rank.child, e.prog.on, w.yieldBuild, w.keep)
	} else if e.prog.on {
		w.rank.parent = e.prog.m.Progress(s, w.rank.parent[:0])
		if w.yieldRank == nil {
			w.yieldRank = w.storeEncodedRank
		}
		w.buf, w.rank.child = e.prog.enc.EncodeSuccessorsProgress(s, w.buf, w.rank.child, w.yieldRank)
		w.storeYielded()
	} else {
		w.buf = e.lazy.EncodeSuccessors(s, w.buf, w.yield)
		w.storeYielded()
	}
	w.transitions += int64(w.nsucc)
	if e.local != nil {
		w.checkLocal(s, i, id)
	}
	if w.nsucc == 0 && e.opt.CheckDeadlock && !e.m.Terminal(s) {
		w.offer(candidate{ok: true, idx: i, order: len(e.opt.Invariants) + 1, kind: KindDeadlock, id: id})
	}
}

// storeEncoded handles successor number w.nsucc of the state being expanded.
// It keeps the successor until storeYielded, which looks them all up at once.
func (w *worker[S]) storeEncoded(a Action, enc []byte) {
	if w.nsucc == maxTrans+1 {
		w.e.fail(fmt.Errorf("checker: a state has more than %d successors, the most the explorer takes", maxTrans+1))
	}
	if w.nsucc++; w.nsucc > maxTrans+1 {
		return
	}
	w.lenc = append(w.lenc, enc...)
	w.ends = append(w.ends, uint32(len(w.lenc)))
	h := uint64(0) // set by packKeys
	if w.e.store.pk == nil {
		h = fixHash(fingerprint(enc))
	}
	w.hs = append(w.hs, h)
	w.acts = append(w.acts, a)
}

// storeYielded stores the successors storeEncoded kept for the state just expanded,
// after touching their home slots so that the lookups' cache misses overlap (as expand
// does), or with the depth bound looks them up.
func (w *worker[S]) storeYielded() {
	st := w.e.store
	if st.pk != nil {
		w.packKeys(w.lenc)
	}
	if !w.curLast {
		w.touch(w.hs)
	}
	var zero S
	start := uint32(0)
	for j, end := range w.ends {
		enc, h := w.lenc[start:end], w.hs[j]
		start = end
		if st.pk != nil {
			if !w.storePacked(j, enc, w.curID, w.acts[j], zero, w.curLast) {
				break
			}
			continue
		}
		if w.curLast {
			if !w.contains(h, enc) {
				w.beyond = true
				break
			}
			continue
		}
		if w.store(st, h, enc, key{w.cur, uint32(j)}, w.curID, w.acts[j], zero) {
			w.pending++
		}
	}
	w.lenc, w.ends, w.hs = w.lenc[:0], w.ends[:0], w.hs[:0]
}

// checkLocal offers a local deadlock when the model finds one in s, number i of the
// frontier with store id id, given its enabled actions w.acts.
func (w *worker[S]) checkLocal(s S, i, id uint64) {
	if stuck := w.e.local.LocalDeadlock(s, w.acts); len(stuck) > 0 {
		w.offer(candidate{ok: true, idx: i, order: len(w.e.opt.Invariants), kind: KindLocalDeadlock, id: id})
	}
}

// enabled returns the actions of the transitions of s.
func enabled[S any](m Model[S], s S) []Action {
	var out []Action
	for _, t := range m.Successors(s, nil) {
		out = append(out, t.Action)
	}
	return out
}

// storeBuilt is storeEncoded (storeEncodedRank with the progress check) for a
// SuccessorBuilder with one worker: it reports whether the successor is new, so that the
// model hands it to keepBuilt.
func (w *worker[S]) storeBuilt(a Action, enc []byte, rank []uint32) bool {
	if w.e.local != nil {
		w.acts = append(w.acts, a)
	}
	if w.e.prog.on {
		w.rank.checkChild(rank, w.cur, w.nsucc, w.curID, a)
	}
	j := w.nsucc
	if w.nsucc++; j > maxTrans {
		if j == maxTrans+1 {
			w.e.fail(fmt.Errorf("checker: a state has more than %d successors, the most the explorer takes", maxTrans+1))
		}
		return false
	}
	st := w.e.store
	if st.pk != nil {
		// One successor at a time, stored at once: a packer that widens re-keys what
		// the store holds, this one included.
		h, key, word := st.keyOf(enc, &w.word)
		if w.curLast {
			if !w.beyond && !st.containsKey(h, key, word) {
				w.beyond = true
			}
			return false
		}
		var zero S
		if st.insertKey(h, key, word, packRecord(w.curID, uint32(j)), a, zero) {
			w.pending++
			return true
		}
		return false
	}
	h := fixHash(fingerprint(enc))
	if w.curLast {
		if !w.beyond && !w.contains(h, enc) {
			w.beyond = true
		}
		return false
	}
	var zero S
	if st.insert(h, enc, packRecord(w.curID, uint32(j)), a, zero) {
		w.pending++
		return true
	}
	return false
}

// keepBuilt gives the state storeBuilt just stored its value.
func (w *worker[S]) keepBuilt(s S) { w.e.store.keepLast(s) }

// storeEncodedRank is storeEncoded for a ProgressEncoder: it checks the successor's
// rank against the parent's, then stores it.
func (w *worker[S]) storeEncodedRank(a Action, enc []byte, rank []uint32) {
	w.rank.checkChild(rank, w.cur, w.nsucc, w.curID, a)
	w.storeEncoded(a, enc)
}

func (w *worker[S]) offer(c candidate) {
	if c.less(w.best) {
		w.best = c
	}
}

// violated builds the Result for candidate c: it rebuilds the trace by replay and
// re-checks the violation on the trace's last (concrete) state.
func (e *explorer[S]) violated(c candidate) (*Result[S], error) {
	tr, err := e.rebuildTrace(c.id)
	if err != nil {
		return nil, fmt.Errorf("checker: rebuilding the trace of a %s: %w", c.kind, err)
	}
	last := tr.Steps[len(tr.Steps)-1].State
	v := &Violation[S]{Kind: c.kind, Invariant: c.name, Trace: tr}
	switch c.kind {
	case KindInvariant:
		err := e.opt.Invariants[c.order].Check(last)
		if err == nil {
			return nil, fmt.Errorf("checker: the replayed trace (length %d) does not violate invariant %q (%s)", tr.Len(), c.name, e.suspect())
		}
		v.Message = err.Error()
	case KindDeadlock:
		if len(e.m.Successors(last, nil)) != 0 || e.m.Terminal(last) {
			return nil, fmt.Errorf("checker: the replayed trace (length %d) does not end in a deadlock (%s)", tr.Len(), e.suspect())
		}
		v.Message = fmt.Sprintf("deadlock: no enabled transition in a non-terminal state after %d steps", tr.Len())
		if l, ok := e.m.(LocalDeadlocker[S]); ok {
			v.Stuck = l.LocalDeadlock(last, nil)
		}
	case KindLocalDeadlock:
		v.Stuck = e.local.LocalDeadlock(last, enabled(e.m, last))
		if len(v.Stuck) == 0 {
			return nil, fmt.Errorf("checker: the replayed trace (length %d) does not end in a local deadlock (%s)", tr.Len(), e.suspect())
		}
		v.Message = fmt.Sprintf("local deadlock: %d message(s) can never move again after %d steps", len(v.Stuck), tr.Len())
		if len(e.m.Successors(last, nil)) == 0 && !e.m.Terminal(last) {
			// Nothing at all can move: the local deadlock is a global one.
			v.Kind = KindDeadlock
			v.Message = fmt.Sprintf("deadlock: no enabled transition in a non-terminal state after %d steps", tr.Len())
		}
	}
	return &Result[S]{Verdict: Violated, Violation: v}, nil
}

// suspect names the likely cause of a trace that does not replay to its violation.
func (e *explorer[S]) suspect() string {
	switch {
	case e.opt.Store == Fingerprint:
		return "a fingerprint collision, or a model whose Successors or Encode is not deterministic"
	case e.canon != nil:
		return "an unsound Canonicalizer, or a model whose Successors or Encode is not deterministic"
	}
	return "a model whose Successors, Encode or invariants are not deterministic"
}

// snapshot returns the figures a progress line shows.
func (e *explorer[S]) snapshot() progressSnapshot {
	return progressSnapshot{
		states:   e.store.states.Load(),
		frontier: e.frontierLen.Load(),
		depth:    e.depthNow.Load(),
	}
}

// fillStats computes the final figures of a finished search.
func (e *explorer[S]) fillStats(st *Stats, d time.Duration) {
	st.States = e.count()
	st.Transitions = e.transitions
	st.Depth = e.depth
	st.Duration = d
	if s := d.Seconds(); s > 0 {
		st.StatesPerSec = float64(st.States) / s
	}
	st.StoreBytes = e.store.bytes.Load()
	if st.States > 0 {
		st.BytesPerState = float64(st.StoreBytes) / float64(st.States)
	}
	st.Workers = e.opt.Workers
	if e.spill != nil {
		st.SpillBytes = e.spill.peak
	}
	if e.opt.Store == Fingerprint {
		n := float64(st.States)
		st.FingerprintCollisionBound = n * n / math.Exp2(65)
	}
}
