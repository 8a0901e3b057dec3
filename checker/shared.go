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
// key (local.fresh), in the order it found them, which is key order: it expands its
// chunks in order. So the entry whose key is a state's least key is in order in its
// worker's list, and every other entry of the state is stale. When the level is done,
// the fingerprints of the lowered states make a bit filter (lowFilter); every worker
// re-reads the key of each of its entries that the filter names (settle: a few percent
// of them, where reading every one would cost a cache miss an entry) and drops the
// stale ones, and mergeLevel merges the lists by key: the next frontier is in key
// order, and a state's least key is its parent record. So the frontier, ids, records
// and traces are those of one worker, whatever the interleaving.
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
// shard not yet added to the shards' counts, and the states it stored first in the
// level being built, with their states or encodings.
type local[S any] struct {
	tail    arenaTail
	counts  [1 << shardBits]uint8
	fresh   []freshEntry
	states  []S
	encs    []byte
	acts    []Action     // with store.parents: the action of each fresh entry's key
	lowh    []uint64     // the fingerprints of the states this worker lowered the key of
	moved   []freshEntry // settle's entries out of order, kept for the next level
	sorted  []freshEntry // and the buffer they are sorted into
	start   []int32      // and the counting sort's positions
	touched uint64       // what reread's touches read, kept so they are not optimised away
	_       [64]byte     // locals are in one slice: keep each off the next one's cache lines
}

// freshEntry is a state a worker stored first, or lowered the key of, in the current
// level: its fingerprint, its arena reference (0 for a state without one), the key it
// found it with, and where its state (index in states) or its encoding (start in encs,
// and size) is.
type freshEntry struct {
	h, ref, key uint64
	at          uint64
	size        uint32
}

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
				var ref uint64
				v := wordTag | k
				if !word {
					ref = st.arena.put(&l.tail, k, enc)
					v = ref
				}
				atomic.StoreUint64(&tab[i<<1+1], v)
				st.fresh(l, sh, si, h, ref, k, enc, a, s)
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
					st.lower(&tab[i<<1+1], wordTag, h, 0, k, enc, a, s, l)
				}
				return false
			}
			continue
		}
		if v&wordTag == 0 && st.arena.equal(v, enc) {
			if kw := st.arena.keyWord(v); k < atomic.LoadUint64(kw) {
				st.lower(kw, 0, h, v, k, enc, a, s, l)
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

// lower makes the key at p (with tag, as its value is) of the state with fingerprint
// h and arena reference ref at most k. When it does, the worker lists the state with
// key k and notes h for settle, which drops the state's entries with larger keys.
func (st *store[S]) lower(p *uint64, tag, h, ref, k uint64, enc []byte, a Action, s S, l *local[S]) {
	for {
		old := atomic.LoadUint64(p)
		if tag|k >= old {
			return
		}
		if atomic.CompareAndSwapUint64(p, old, tag|k) {
			l.lowh = append(l.lowh, h)
			st.list(l, h, ref, k, enc, a, s)
			return
		}
	}
}

// list adds a state to worker l's entries, with key k.
func (st *store[S]) list(l *local[S], h, ref, k uint64, enc []byte, a Action, s S) {
	e := freshEntry{h: h, ref: ref, key: k}
	if st.encoded {
		e.at, e.size = uint64(len(l.encs)), uint32(len(enc))
		l.encs = append(l.encs, enc...)
	} else {
		e.at = uint64(len(l.states))
		l.states = append(l.states, s)
		if st.parents {
			l.acts = append(l.acts, a)
		}
	}
	l.fresh = append(l.fresh, e)
}

// fresh lists a state worker l just stored first in shard sh (number si), and adds to
// the shard's count every countBatch of them, asking for growth when the shard is full.
func (st *store[S]) fresh(l *local[S], sh *shard, si, h, ref, k uint64, enc []byte, a Action, s S) {
	st.list(l, h, ref, k, enc, a, s)
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
	st.growShards()
	g := &st.grow
	g.waiting = 0
	g.gen++
	g.req.Store(false)
	g.cond.Broadcast()
}

// growShards doubles every shard that is 3/4 full; no worker may use the table meanwhile.
func (st *store[S]) growShards() { st.reserve(0) }

// reserve grows every shard that could not take extra more states (spread evenly over
// the shards) without passing the 3/4 mark; no worker may use the table meanwhile.
// Before a level, with extra the number of new states expected, it moves the growth
// that the level would need out of its pauses. One goroutine grows them all: a new
// table is mostly first-touched pages, and on this kind of VM two threads faulting
// pages in at once took four times the CPU of one and longer (mesh benchmark, two
// workers: 1.0 s of resize CPU against 0.22 s, 1.32-1.66 s a search against 1.20-1.31).
func (st *store[S]) reserve(extra int64) {
	per := extra >> shardBits
	for i := range st.shards {
		sh := &st.shards[i]
		slots := len(sh.tab) >> 1
		for (sh.n+per)*4 >= int64(slots)*3 {
			slots *= 2
		}
		if slots > len(sh.tab)>>1 {
			sh.resize(slots) // once, however many doublings it takes
		}
		st.account(sh)
	}
	st.grow.req.Store(false)
}

// sortKeys returns entries sorted by key, in place or in *buf. The keys of a level
// that is not the first are (parent id + 1) << transBits | index with the parent among
// the width states of the frontier from st.parentFirst on, so the entries are placed
// by parent (a counting sort, linear), and the few that share a parent are then put in
// order by an insertion sort, which only has those to swap.
func (st *store[S]) sortKeys(entries []freshEntry, buf *[]freshEntry, starts *[]int32, width int) []freshEntry {
	parent := func(e *freshEntry) int { return int(e.key>>transBits - 1 - st.parentFirst) }
	if len(entries) < 64 || entries[0].key>>transBits == 0 {
		slices.SortFunc(entries, func(a, b freshEntry) int { return cmp.Compare(a.key, b.key) })
		return entries
	}
	*starts = grown(*starts, width+1)[:width+1]
	start := *starts
	clear(start)
	for k := range entries {
		start[parent(&entries[k])+1]++
	}
	for p := 1; p <= width; p++ {
		start[p] += start[p-1]
	}
	out := slices.Grow((*buf)[:0], len(entries))[:len(entries)]
	for k := range entries {
		p := parent(&entries[k])
		out[start[p]] = entries[k]
		start[p]++
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].key < out[j-1].key; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	*buf = entries[:0]
	return out
}

// lowFilter is a bit set of the fingerprints of the states whose key some worker
// lowered in the level: settle re-reads the key of a state only if its bit is set.
type lowFilter struct {
	bits  []uint64
	shift uint
}

// lowered builds the filter of the level from every worker's lowh, and empties them.
// It has about 16 bits per lowered state, so few other states share a bit.
func (st *store[S]) lowered() lowFilter {
	n := 0
	for i := range st.locals {
		n += len(st.locals[i].lowh)
	}
	logBits := uint(6)
	for 1<<logBits < 16*n {
		logBits++
	}
	f := lowFilter{bits: make([]uint64, 1<<(logBits-6)), shift: 64 - logBits}
	for i := range st.locals {
		l := &st.locals[i]
		for _, h := range l.lowh {
			b := f.bit(h)
			f.bits[b>>6] |= 1 << (b & 63)
		}
		l.lowh = l.lowh[:0]
	}
	return f
}

// bit returns the bit of fingerprint h (a multiplicative hash of it: the table's slots
// already sort states by h's low and high bits).
func (f lowFilter) bit(h uint64) uint64 { return h * 0x9E3779B97F4A7C15 >> f.shift }

// has reports whether h's bit is set.
func (f lowFilter) has(h uint64) bool {
	b := f.bit(h)
	return f.bits[b>>6]&(1<<(b&63)) != 0
}

// settle drops l's stale entries (those whose key is not their state's least key) and
// puts the others in key order. It runs after every worker has finished the level, on
// each worker's list at once, with the level's filter of lowered states. The list is in
// key order as found, unless the worker took chunks from an earlier share at the end of
// the level: those entries are taken out, sorted and merged back.
func (st *store[S]) settle(l *local[S], low lowFilter, width int) {
	// Re-read the keys the filter names, a group at a time, touching the group's home
	// slots first so that their cache misses overlap.
	const group = 16
	var hits [group]int
	n := 0
	for k := range l.fresh {
		if low.has(l.fresh[k].h) {
			hits[n] = k
			if n++; n == group {
				st.reread(l, hits[:n])
				n = 0
			}
		}
	}
	st.reread(l, hits[:n])
	moved := l.moved[:0]
	out := 0
	last := uint64(0)
	for _, e := range l.fresh {
		if e.key == stale {
			continue
		}
		if e.key < last {
			moved = append(moved, e)
			continue
		}
		last = e.key
		l.fresh[out] = e
		out++
	}
	l.fresh = l.fresh[:out+len(moved)]
	if len(moved) == 0 {
		return
	}
	moved = st.sortKeys(moved, &l.sorted, &l.start, width)
	// Merge from the back: l.fresh[:out] and moved into l.fresh[:out+len(moved)].
	i, j := out-1, len(moved)-1
	for p := out + len(moved) - 1; j >= 0; p-- {
		if i >= 0 && l.fresh[i].key > moved[j].key {
			l.fresh[p] = l.fresh[i]
			i--
		} else {
			l.fresh[p] = moved[j]
			j--
		}
	}
	l.moved = moved[:0]
}

// stale marks an entry whose key is not its state's least key.
const stale = ^uint64(0)

// reread marks the entries of l at indices ks stale unless their key is the least key
// the store holds for their state.
func (st *store[S]) reread(l *local[S], ks []int) {
	var x uint64
	for _, k := range ks {
		if e := &l.fresh[k]; e.ref == 0 {
			x += st.shards[shardOf(e.h)].home(e.h)
		}
	}
	l.touched += x
	for _, k := range ks {
		e := &l.fresh[k]
		var v uint64
		if e.ref != 0 {
			v = *st.arena.keyWord(e.ref)
		} else {
			v = st.wordValue(e.h) &^ wordTag
		}
		if v != e.key {
			e.key = stale
		}
	}
}

// wordValue returns the value of the state without an arena entry whose fingerprint is
// h; the table must not change meanwhile.
func (st *store[S]) wordValue(h uint64) uint64 {
	sh := &st.shards[shardOf(h)]
	mask := uint64(len(sh.tab)>>1 - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		if sh.tab[i<<1] == h {
			if v := sh.tab[i<<1+1]; v&wordTag != 0 {
				return v
			}
		}
	}
}

// parallelMerge is the least number of new states whose merge the workers share. It is
// a variable only so that this package's tests can share every merge
// (export_test.go).
var parallelMerge = 1 << 14

// mergeLevel ends a level of a shared store: it merges the workers' settled lists by
// key into the next frontier, gives its states their ids and records, and empties the
// lists; it also grows the shards that the level's last stores filled. A wide level is
// cut into one part per worker at keys of its longest list, and the parts are merged at
// once. Cost O(new states × workers), shared by the workers.
func (st *store[S]) mergeLevel() level[S] {
	st.growShards()
	total := 0
	encBytes := 0
	longest := 0
	for i := range st.locals {
		total += len(st.locals[i].fresh)
		encBytes += len(st.locals[i].encs)
		if len(st.locals[i].fresh) > len(st.locals[longest].fresh) {
			longest = i
		}
	}
	first := st.recs.n
	next := level[S]{first: first}
	st.recs.extend(first + uint64(total))
	sp := &st.spare
	if st.encoded {
		next.encs = grown(sp.encs, encBytes)[:encBytes]
		next.ends = grown(sp.ends, total)[:total]
	} else {
		next.states = grown(sp.states, total)[:total]
		if st.parents {
			next.from, next.acts = grown(sp.from, total)[:total], grown(sp.acts, total)[:total]
		}
	}
	*sp = level[S]{}
	parts := 1
	if total >= parallelMerge {
		parts = len(st.locals)
	}
	// cuts[j][w] is where part j starts in worker w's list; part j holds the keys from
	// the longest list's (j*len/parts)-th on.
	cuts := make([][]int, parts+1)
	for j := range cuts {
		cuts[j] = make([]int, len(st.locals))
		for w := range st.locals {
			f := st.locals[w].fresh
			switch j {
			case 0:
			case parts:
				cuts[j][w] = len(f)
			default:
				k := st.locals[longest].fresh[j*len(st.locals[longest].fresh)/parts].key
				cuts[j][w], _ = slices.BinarySearchFunc(f, k, func(e freshEntry, k uint64) int { return cmp.Compare(e.key, k) })
			}
		}
	}
	// A part's encodings start after the bytes of every earlier part.
	starts := make([]uint64, parts+1)
	if st.encoded {
		for j := range parts {
			starts[j+1] = starts[j] + st.partBytes(cuts[j], cuts[j+1])
		}
	}
	var wg sync.WaitGroup
	for j := range parts {
		merge := func() { st.mergePart(&next, cuts[j], cuts[j+1], starts[j]) }
		if parts == 1 {
			merge()
		} else {
			wg.Go(merge)
		}
	}
	wg.Wait()
	for i := range st.locals {
		l := &st.locals[i]
		clear(l.states) // drop the references
		l.fresh, l.states, l.encs, l.acts = l.fresh[:0], l.states[:0], l.encs[:0], l.acts[:0]
	}
	st.parentFirst = first
	st.accountRecs()
	return next
}

// partBytes returns the bytes of the encodings of the entries in [from[w], to[w]) of
// each worker's list.
func (st *store[S]) partBytes(from, to []int) uint64 {
	var n uint64
	for w := range st.locals {
		for _, e := range st.locals[w].fresh[from[w]:to[w]] {
			n += uint64(e.size)
		}
	}
	return n
}

// mergePart merges the entries in [from[w], to[w]) of each worker's list into next,
// from position sum(from) and, for encodings, from byte start on.
func (st *store[S]) mergePart(next *level[S], from, to []int, start uint64) {
	heads := slices.Clone(from)
	p := 0
	for _, h := range from {
		p += h
	}
	end := p
	for w := range to {
		end += to[w] - from[w]
	}
	for ; p < end; p++ {
		best := -1
		var bk uint64
		for w := range st.locals {
			if f := st.locals[w].fresh; heads[w] < to[w] && (best < 0 || f[heads[w]].key < bk) {
				best, bk = w, f[heads[w]].key
			}
		}
		l := &st.locals[best]
		e := &l.fresh[heads[best]]
		heads[best]++
		st.recs.set(next.first+uint64(p), e.key)
		if st.encoded {
			start += uint64(copy(next.encs[start:], l.encs[e.at:e.at+uint64(e.size)]))
			next.ends[p] = start
			continue
		}
		next.states[p] = l.states[e.at]
		if st.parents {
			next.from[p] = unpackRecord(e.key).parent - st.parentFirst
			next.acts[p] = l.acts[e.at]
		}
	}
}
