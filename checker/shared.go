package checker

import (
	"cmp"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Several workers share one table. Each expands its own chunks of the frontier and
// inserts every successor itself, as with LTSmin's lockless hash table (Laarman, van de
// Pol and Weber, "Boosting multi-core reachability performance with shared hash
// tables", FMCAD 2010): a new state claims an empty slot by compare-and-swap on its
// fingerprint and then publishes its value; a worker that finds the fingerprint waits
// for the value (a few instructions' time) and compares. No successor is handed to another worker, so a
// transition costs about what it costs one worker, whichever core stored the state.
//
// Determinism. Every discovery carries its key (records.go): the parent's id and the
// transition's index. The value of a state's slot (or its arena entry's key word) holds
// the least key seen so far, lowered by an atomic minimum; a state of an earlier level
// holds a record smaller than any key of this level, so the same minimum leaves it
// alone. Each worker lists the states it stored first or lowered the key of, with that
// key (local.keys), and the keys its lowerings replaced (local.stale): every key ever
// in a slot in the level is listed once, and the replaced ones are exactly the stale
// entries. A worker expands the chunks of a share in order, so its list is a few runs
// in key order, one per share it took chunks from. When the level is done, the stale
// keys are sorted and marked in the runs (dropStale: a merge of sorted lists, no table
// read), and mergeLevel merges the runs by key, leaving the marked entries out: the
// next frontier is in key order, and a state's least key is its parent record. So the
// frontier, ids, records and traces are those of one worker, whatever the interleaving.
//
// Growth. A table cannot grow while others probe it, so a shard grows in a pause: a
// worker that finds a shard 3/4 full asks for one (grower.req), every worker stops at
// its next insert (or at the end of its share of the level), and the last to stop
// grows the full shards. Workers add their new states to the shards' counts a few at a
// time (local.counts); sharedSlots leaves room for what they have not added yet.

// countBatch is the number of new states a worker stores in one shard before it adds
// them to the shard's count.
const countBatch = 16

// sharedSlots returns the least number of slots of a shard with several workers: above
// the 3/4 mark that asks for growth there is room for every worker's uncounted states
// and one insert each before the pause.
func sharedSlots(workers int) int {
	n := 256
	for n/4 <= workers*(countBatch+1) {
		n *= 2
	}
	return n
}

// local is one worker's own part of a shared store: its arena page, its new states per
// shard not yet added to the shards' counts, and the states it listed in the level being
// built (stored first, or lowered the key of): entry k has key keys[k] and state
// states[k] (and action acts[k]) or encoding encs[ends[k-1]:ends[k]].
type local[S any] struct {
	tail   arenaTail
	counts [1 << shardBits]uint8
	keys   []uint64
	states []S
	acts   []Action // with store.parents
	encs   []byte
	ends   []uint64
	runs   []int    // where each run of entries in key order starts (one per share)
	stale  []uint64 // the keys this worker's lowerings replaced
	_      [64]byte // locals are in one slice: keep each off the next one's cache lines
}

// staleBit marks an entry whose key is stale (keys and records are below wordTag, the
// same bit, so no key has it).
const staleBit = 1 << 63

// grower coordinates the pauses in which shards grow.
type grower struct {
	req     atomic.Bool // some shard is full: stop at the next insert
	mu      sync.Mutex
	cond    sync.Cond
	active  int // workers still expanding this level
	waiting int // workers stopped in pause
	gen     uint64
}

// insertShared is insert for several workers: it stores the state with fingerprint h
// and encoding enc with key k, or lowers its key to k, and reports whether it was new.
// l is the calling worker's part.
func (st *store[S]) insertShared(h uint64, enc []byte, k uint64, a Action, s S, l *local[S]) bool {
	if st.grow.req.Load() {
		st.pause(l)
	}
	si := shardOf(h)
	sh := &st.shards[si]
	word := st.word(h, enc)
	tab := sh.tab
	mask := uint64(len(tab)>>1 - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		fp := &tab[i<<1]
		f := atomic.LoadUint64(fp)
		if f == 0 {
			if atomic.CompareAndSwapUint64(fp, 0, h) {
				v := wordTag | k
				if !word {
					v = st.arena.put(&l.tail, k, enc)
				}
				atomic.StoreUint64(&tab[i<<1+1], v)
				st.fresh(l, sh, si, k, enc, a, s)
				return true
			}
			f = atomic.LoadUint64(fp) // another worker took the slot
		}
		if f != h {
			continue
		}
		v := atomic.LoadUint64(&tab[i<<1+1])
		if v == 0 {
			v = published(&tab[i<<1+1])
		}
		if word {
			if v&wordTag != 0 {
				if wordTag|k < v {
					st.lower(&tab[i<<1+1], wordTag, k, enc, a, s, l)
				}
				return false
			}
			continue
		}
		if v&wordTag == 0 && st.arena.equal(v, enc) {
			if kw := st.arena.keyWord(v); k < atomic.LoadUint64(kw) {
				st.lower(kw, 0, k, enc, a, s, l)
			}
			return false
		}
	}
}

// published returns the value at p once the worker that claimed its slot has written it.
func published(p *uint64) uint64 {
	for spins := 0; ; spins++ {
		if v := atomic.LoadUint64(p); v != 0 {
			return v
		}
		if spins > 64 {
			runtime.Gosched()
		}
	}
}

// lower makes the key at p (with tag, as its value is) of a state at most k. When it
// does, worker l lists the state with key k and notes the key it replaced, now stale.
func (st *store[S]) lower(p *uint64, tag, k uint64, enc []byte, a Action, s S, l *local[S]) {
	for {
		old := atomic.LoadUint64(p)
		if tag|k >= old {
			return
		}
		if atomic.CompareAndSwapUint64(p, old, tag|k) {
			l.stale = append(l.stale, old&^tag)
			st.list(l, k, enc, a, s)
			return
		}
	}
}

// list adds a state to worker l's entries, with key k.
func (st *store[S]) list(l *local[S], k uint64, enc []byte, a Action, s S) {
	l.keys = append(l.keys, k)
	if st.encoded {
		l.encs = append(l.encs, enc...)
		l.ends = append(l.ends, uint64(len(l.encs)))
		return
	}
	l.states = append(l.states, s)
	if st.parents {
		l.acts = append(l.acts, a)
	}
}

// startRun begins a run of l's entries: the worker starts on another share (or on the
// initial states), whose keys may be less than those it listed last. A worker's first
// run starts at 0.
func (l *local[S]) startRun() {
	if n := len(l.runs); n == 0 || l.runs[n-1] != len(l.keys) {
		l.runs = append(l.runs, len(l.keys))
	}
}

// runEnd returns where l's run r ends.
func (l *local[S]) runEnd(r int) int {
	if r+1 < len(l.runs) {
		return l.runs[r+1]
	}
	return len(l.keys)
}

// fresh lists a state worker l just stored first in shard sh (number si), and adds to
// the shard's count every countBatch of them, asking for growth when the shard is full.
func (st *store[S]) fresh(l *local[S], sh *shard, si, k uint64, enc []byte, a Action, s S) {
	st.list(l, k, enc, a, s)
	if l.counts[si]++; l.counts[si] == countBatch {
		l.counts[si] = 0
		n := atomic.AddInt64(&sh.n, countBatch)
		if n*4 >= int64(len(sh.tab)>>1)*3 {
			st.grow.req.Store(true)
		}
	}
}

// flush adds l's uncounted new states to the shards' counts.
func (st *store[S]) flush(l *local[S]) {
	for si, c := range l.counts {
		if c != 0 {
			atomic.AddInt64(&st.shards[si].n, int64(c))
			l.counts[si] = 0
		}
	}
}

// begin readies a level that n workers expand.
func (st *store[S]) begin(n int) {
	g := &st.grow
	if g.cond.L == nil {
		g.cond.L = &g.mu
	}
	g.active, g.waiting = n, 0
}

// pause stops worker l until the full shards have grown; the last worker to stop grows
// them.
func (st *store[S]) pause(l *local[S]) {
	st.flush(l)
	g := &st.grow
	g.mu.Lock()
	g.waiting++
	if g.waiting == g.active {
		st.growFull()
	} else {
		for gen := g.gen; gen == g.gen; {
			g.cond.Wait()
		}
	}
	g.mu.Unlock()
}

// leave ends worker l's share of the level; if every worker still active is waiting
// in pause, it grows the full shards for them.
func (st *store[S]) leave(l *local[S]) {
	st.flush(l)
	g := &st.grow
	g.mu.Lock()
	g.active--
	if g.active > 0 && g.waiting == g.active {
		st.growFull()
	}
	g.mu.Unlock()
}

// growFull doubles every shard that is 3/4 full and releases the paused workers. It runs
// with grow.mu held and no worker inside insertShared.
func (st *store[S]) growFull() {
	st.reserve(0)
	g := &st.grow
	g.waiting = 0
	g.gen++
	g.req.Store(false)
	g.cond.Broadcast()
}

// reserve grows every shard that could not take extra more states (spread evenly over
// the shards) without passing the 3/4 mark, each once, however many doublings it
// takes; no worker may use the table meanwhile. Before a level, with extra the number
// of new states expected, it moves the growth that the level would need out of its
// pauses. When the new tables come to 64 × committedFrom bytes or more, as many
// goroutines as workers grow the shards (growShards, table.go), their pages committed
// first: then two goroutines grow them in about half the time of one, where faulting the
// pages in one by one would serialise them.
func (st *store[S]) reserve(extra int64) {
	per := extra >> shardBits
	var want [1 << shardBits]int
	bytes := 0
	for i := range st.shards {
		sh := &st.shards[i]
		slots := len(sh.tab) >> 1
		for (sh.n+per)*4 >= int64(slots)*3 {
			slots *= 2
		}
		if slots > len(sh.tab)>>1 {
			want[i] = slots
			bytes += slots * 16
		}
	}
	workers := 1
	if bytes >= 64*committedFrom {
		workers = len(st.locals)
	}
	st.growShards(&want, workers)
	st.grow.req.Store(false)
}

// sortKeys returns keys sorted, in place or in *buf. The keys of a level that is not
// the first are (parent id + 1) << transBits | index with the parent among the width
// states of the frontier from st.parentFirst on, so they are placed by parent (a
// counting sort, linear), and the few that share a parent are then put in order by an
// insertion sort, which only has those to swap.
func (st *store[S]) sortKeys(keys []uint64, buf *[]uint64, starts *[]int32, width int) []uint64 {
	parent := func(k uint64) int { return int(k>>transBits - 1 - st.parentFirst) }
	if len(keys) < 64 || keys[0]>>transBits == 0 {
		slices.Sort(keys)
		return keys
	}
	*starts = grown(*starts, width+1)[:width+1]
	start := *starts
	clear(start)
	for _, k := range keys {
		start[parent(k)+1]++
	}
	for p := 1; p <= width; p++ {
		start[p] += start[p-1]
	}
	out := grown(*buf, len(keys))[:len(keys)]
	for _, k := range keys {
		p := parent(k)
		out[start[p]] = k
		start[p]++
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	*buf = keys[:0]
	return out
}

// dropStale marks (staleBit) every entry of the level whose key a lowering replaced:
// the replaced keys of all workers, sorted, are merged with each run of each worker.
// It runs after every worker has finished the level; width is the frontier's. Cost
// O(entries + stale keys + width).
func (st *store[S]) dropStale(width int) {
	all := st.staleKeys[:0]
	entries := 0
	for i := range st.locals {
		l := &st.locals[i]
		all = append(all, l.stale...)
		l.stale = l.stale[:0]
		entries += len(l.keys)
	}
	st.staleKeys = all
	if len(all) == 0 {
		return
	}
	sorted := st.sortKeys(all, &st.sortBuf, &st.sortStarts, width)
	st.staleKeys = sorted[:0] // sortBuf holds the other array now
	goroutines := 1
	if entries >= parallelMerge {
		goroutines = len(st.locals)
	}
	inTurn(len(st.locals), goroutines, func(i int) { st.locals[i].markStale(sorted) })
}

// markStale marks the entries of l whose key is in stale (sorted).
func (l *local[S]) markStale(stale []uint64) {
	for r := range l.runs {
		run := l.keys[l.runs[r]:l.runEnd(r)]
		if len(run) == 0 {
			continue
		}
		j, _ := slices.BinarySearch(stale, run[0])
		for i := 0; i < len(run) && j < len(stale); {
			switch {
			case run[i] < stale[j]:
				i++
			case run[i] > stale[j]:
				j++
			default:
				run[i] |= staleBit
				i++
				j++
			}
		}
	}
}

// parallelMerge is the least number of new states whose merge the workers share. It is
// a variable only so that this package's tests can share every merge
// (export_test.go).
var parallelMerge = 1 << 14

// keyRun is a run of a worker's entries in key order: worker w's entries [lo, hi).
type keyRun struct{ w, lo, hi int }

// mergeLevel ends a level of a shared store: it merges the runs of the workers' lists by
// key into the next frontier, leaving out the stale entries (dropStale), gives its
// states their ids and records, and empties the lists; it also grows the shards that
// the level's last stores filled. A wide level is cut into parts (four per worker, which
// the workers take in turn) at keys of its longest run; the parts are counted, then
// merged. Cost O(entries × runs), shared by the workers.
func (st *store[S]) mergeLevel() level[S] {
	st.reserve(0)
	var runs []keyRun
	entries, longest := 0, 0
	for w := range st.locals {
		l := &st.locals[w]
		entries += len(l.keys)
		for r, lo := range l.runs {
			if hi := l.runEnd(r); hi > lo {
				runs = append(runs, keyRun{w, lo, hi})
				if hi-lo > runs[longest].hi-runs[longest].lo {
					longest = len(runs) - 1
				}
			}
		}
	}
	parts := 1
	if entries >= parallelMerge {
		parts = 4 * len(st.locals) // claimed in turn (inTurn): a late start costs little
	}
	// cuts[j][r] is where part j starts in run r; part j holds the keys from the
	// longest run's (j*len/parts)-th on.
	cuts := make([][]int, parts+1)
	for j := range cuts {
		cuts[j] = make([]int, len(runs))
		for r, run := range runs {
			keys := st.locals[run.w].keys
			switch j {
			case 0:
				cuts[j][r] = run.lo
			case parts:
				cuts[j][r] = run.hi
			default:
				lr := runs[longest]
				k := st.locals[lr.w].keys[lr.lo+j*(lr.hi-lr.lo)/parts] &^ staleBit
				at, _ := slices.BinarySearchFunc(keys[run.lo:run.hi], k, func(e, k uint64) int { return cmp.Compare(e&^staleBit, k) })
				cuts[j][r] = run.lo + at
			}
		}
	}
	// A part's states and encodings start after those of every earlier part.
	at := make([]int, parts+1)
	bytes := make([]uint64, parts+1)
	count := func(j int) { at[j+1], bytes[j+1] = st.partSize(runs, cuts[j], cuts[j+1]) }
	st.inParts(parts, count)
	for j := range parts {
		at[j+1] += at[j]
		bytes[j+1] += bytes[j]
	}
	total := at[parts]
	first := st.recs.n
	next := level[S]{first: first}
	st.recs.extend(first + uint64(total))
	sp := &st.spare
	if st.encoded {
		next.encs = grown(sp.encs, int(bytes[parts]))[:bytes[parts]]
		next.ends = grown(sp.ends, total)[:total]
	} else {
		next.states = grown(sp.states, total)[:total]
		if st.parents {
			next.from, next.acts = grown(sp.from, total)[:total], grown(sp.acts, total)[:total]
		}
	}
	*sp = level[S]{}
	st.inParts(parts, func(j int) { st.mergePart(&next, runs, cuts[j], cuts[j+1], at[j], bytes[j]) })
	for i := range st.locals {
		l := &st.locals[i]
		clear(l.states) // drop the references
		l.keys, l.states, l.acts, l.encs, l.ends, l.runs = l.keys[:0], l.states[:0], l.acts[:0], l.encs[:0], l.ends[:0], l.runs[:0]
	}
	st.parentFirst = first
	st.accountRecs()
	return next
}

// inParts calls do(j) for every part j < parts, the workers' goroutines taking them in
// turn.
func (st *store[S]) inParts(parts int, do func(j int)) { inTurn(parts, len(st.locals), do) }

// partSize returns the number of entries in [from[r], to[r]) of each run r that are not
// stale, and the bytes of their encodings.
func (st *store[S]) partSize(runs []keyRun, from, to []int) (n int, bytes uint64) {
	for r, run := range runs {
		l := &st.locals[run.w]
		for k := from[r]; k < to[r]; k++ {
			if l.keys[k]&staleBit == 0 {
				n++
				if st.encoded {
					bytes += l.ends[k] - l.entryStart(k)
				}
			}
		}
	}
	return n, bytes
}

// entryStart returns where the encoding of l's entry k starts in l.encs.
func (l *local[S]) entryStart(k int) uint64 {
	if k == 0 {
		return 0
	}
	return l.ends[k-1]
}

// mergePart merges the entries in [from[r], to[r]) of each run r that are not stale
// into next, from position p and, for encodings, from byte start on.
func (st *store[S]) mergePart(next *level[S], runs []keyRun, from, to []int, p int, start uint64) {
	// heads[r] is what is left of run r; its front is never stale (the loop below
	// stops at an entry that is not, or at the end).
	type head struct {
		keys    []uint64
		at, end int
		l       *local[S]
	}
	heads := make([]head, 0, len(runs))
	for r, run := range runs {
		heads = append(heads, head{st.locals[run.w].keys, from[r], to[r], &st.locals[run.w]})
	}
	skip := func(h *head) {
		for h.at < h.end && h.keys[h.at]&staleBit != 0 {
			h.at++
		}
	}
	for r := range heads {
		skip(&heads[r])
	}
	for {
		// Take entries from the head with the least key for as long as they are less
		// than the next head's: in a stretch that one worker expanded, that is many.
		var best, second *head
		for r := range heads {
			h := &heads[r]
			if h.at == h.end {
				continue
			}
			switch {
			case best == nil || h.keys[h.at] < best.keys[best.at]:
				best, second = h, best
			case second == nil || h.keys[h.at] < second.keys[second.at]:
				second = h
			}
		}
		if best == nil {
			return
		}
		bound := uint64(staleBit) // above every key
		if second != nil {
			bound = second.keys[second.at]
		}
		l := best.l
		for ; best.at < best.end; best.at++ {
			e, k := best.at, best.keys[best.at]
			if k&staleBit != 0 {
				continue
			}
			if k > bound {
				break
			}
			st.recs.set(next.first+uint64(p), k)
			if st.encoded {
				start += uint64(copy(next.encs[start:], l.encs[l.entryStart(e):l.ends[e]]))
				next.ends[p] = start
			} else {
				next.states[p] = l.states[e]
				if st.parents {
					next.from[p] = unpackRecord(k).parent - st.parentFirst
					next.acts[p] = l.acts[e]
				}
			}
			p++
		}
	}
}
