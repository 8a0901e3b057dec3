package checker

import "sync/atomic"

// shardBits sets the number of visited-store shards, 1<<shardBits. A state's shard is
// chosen by the top bits of its fingerprint; a shard grows on its own, so growth copies
// a 64th of the table at a time.
const shardBits = 6

// key is a discovery's place within its BFS level: the index of the parent in the
// frontier, then the index of the transition among the parent's successors. The memory
// store keeps it packed (packRecord, with the parent's id); the spilling store
// (spill.go) keeps it as it is.
type key struct {
	parent uint64
	trans  uint32
}

func (a key) less(b key) bool {
	return a.parent < b.parent || (a.parent == b.parent && a.trans < b.trans)
}

// level is one breadth-first level in frontier order: its states have the consecutive
// ids first, first+1, ... (records.go), and the level holds either the states
// themselves or, for a FrontierDecoder, their encodings (state k's is
// encs[ends[k-1]:ends[k]]), which cost a word or two each where a state may cost
// hundreds of bytes. When new states are built after their level (materialize), from[k]
// and acts[k] say which state of the level before and which action lead to state k.
type level[S any] struct {
	first  uint64
	states []S
	encs   []byte
	ends   []uint64 // 64-bit: a level's encodings may pass 4 GiB
	from   []uint64
	acts   []Action
}

// size returns the number of states of l.
func (l *level[S]) size() int {
	if l.ends != nil {
		return len(l.ends)
	}
	return len(l.states)
}

// id returns the id of state k of l.
func (l *level[S]) id(k int) uint64 { return l.first + uint64(k) }

// enc returns the encoding of state k of an encoded level.
func (l *level[S]) enc(k int) []byte {
	start := uint64(0)
	if k > 0 {
		start = l.ends[k-1]
	}
	return l.encs[start:l.ends[k]]
}

// store is the visited-state set: 1<<shardBits shards, each an open-addressing (linear
// probing) hash table of fingerprints with, where a lookup needs one, a value beside
// each fingerprint; the states' parent records by id (records.go); and in Exact mode an
// arena of the encodings that are not word-keyed (arena.go).
//
// A slot is one word (the fingerprint) or two (fingerprint, value) in the one array
// tab, so that a lookup reads one cache line. A value is wordTag | key for a state
// without an arena entry and the reference of its arena entry otherwise; a key is only
// read with several workers, which lower it (shared.go), so with one worker a value is
// kept only by a shard that holds an arena entry (widened at the first one): a shard of
// word-keyed states, and every shard in Fingerprint mode, is then its fingerprints alone,
// 8 bytes a slot as in a hand-written table of packed states. Exact mode keeps no arena
// entry for a word-keyed state (an 8-byte encoding, which its fingerprint identifies:
// wordKeyed).
//
// Invariants: a shard's table has a power-of-two number of slots and, between levels,
// is at most 3/4 full; the fingerprint 0 marks an empty slot (a fingerprint of 0 is
// stored as 1); a value of 0 marks a slot being filled (several workers).
//
// With one worker a state's first discovery in a level has its least key, since the
// frontier is expanded in key order: a state gets its id and record when it is stored,
// and the new states, appended to next, are already the next frontier in key order.
// With several workers (shared.go) they share the table, and the ids are given at the
// end of the level, in key order.
type store[S any] struct {
	exact   bool
	shared  bool // several workers insert at once (shared.go)
	encoded bool // a FrontierDecoder's levels hold encodings, not states
	parents bool // levels keep from and acts (the states are built after their level)
	// pk, when set (one worker, Exact mode, a model's plain Successors path), keys the
	// encodings of one length other than 8 by packed words (pack.go): keyOf.
	pk      *packer
	shards  [1 << shardBits]shard
	arena   arena
	recs    records
	recSize int64 // recs' bytes as last counted in storeCounters.bytes
	// parentFirst is the id of the first state of the level being expanded, whose
	// states are the parents of the level being built.
	parentFirst uint64
	next        level[S] // with one worker: the level being built, in key order
	spare       level[S] // a level expanded already, whose slices the next level reuses
	tail        arenaTail
	locals      []local[S] // with several workers: each one's part of the level (shared.go)
	grow        grower
	// With several workers: the keys the level's lowerings replaced (dropStale) and the
	// buffers they are sorted with.
	staleKeys  []uint64
	sortBuf    []uint64
	sortStarts []int32
	storeCounters
}

// storeCounters are the figures progress lines and budgets read while workers run.
type storeCounters struct {
	bytes  atomic.Int64 // estimated size of the visited set, updated when something grows
	states atomic.Int64 // number of stored states, flushed by workers in batches
}

// shard is one hash table of the store. n counts its states; with several workers it
// is added to atomically, a few states at a time (local.counts).
type shard struct {
	tab  []uint64 // slot i: fingerprint tab[i<<wide] (0 when empty), value tab[i<<wide+1] when wide is 1
	wide uint8    // 1 when slots hold a value
	n    int64
	size int64 // last size counted in storeCounters.bytes
	_    [64]byte
}

// newStore returns an empty store; workers is the number of goroutines that insert at
// once (shared for more than one).
func newStore[S any](exact bool, workers int, encoded, parents bool) *store[S] {
	st := &store[S]{exact: exact, shared: workers > 1, encoded: encoded, parents: parents}
	st.arena.ctr = &st.bytes
	slots := 16
	if st.shared {
		slots = sharedSlots(workers)
		st.locals = make([]local[S], workers)
	}
	for i := range st.shards {
		sh := &st.shards[i]
		if st.shared {
			sh.wide = 1
		}
		sh.tab = make([]uint64, slots<<sh.wide)
		st.account(sh)
	}
	st.startLevel()
	return st
}

// shardOf returns the shard index of fingerprint h.
func shardOf(h uint64) uint64 { return h >> (64 - shardBits) }

// fixHash maps the reserved empty marker 0 to 1.
func fixHash(h uint64) uint64 {
	if h == 0 {
		return 1
	}
	return h
}

// wordTag marks the value of a slot whose state has no arena entry (it is word-keyed,
// or the store is in Fingerprint mode); the rest of the value is the state's key.
const wordTag = 1 << 63

// wordKeyed reports whether the state with encoding enc and (fixed) fingerprint h is
// identified by h alone, so that Exact mode need not keep or compare its encoding: enc
// has 8 bytes, on which XXH64 is a bijection (every step of it on one 8-byte lane is
// invertible: multiplication by an odd prime, rotation, xor with a constant, xor-shift;
// hash_test.go inverts it), and h is not 1, the one fixed fingerprint that two
// encodings share (fixHash maps 0 to 1). Two word-keyed states are then equal exactly
// when their fingerprints are, and a word-keyed state never equals a state of another
// length. This is what makes a model whose state packs into a uint64 (the hand-written
// searches' layout) cost a fingerprint-mode store with no arena.
func wordKeyed(h uint64, enc []byte) bool { return len(enc) == 8 && h != 1 }

// word reports whether a state with fingerprint h and encoding enc is stored without an
// arena entry.
func (st *store[S]) word(h uint64, enc []byte) bool { return !st.exact || wordKeyed(h, enc) }

// insert stores, with one worker, the state with fingerprint h and encoding enc if it is
// new, with record rec (packRecord: its parent and transition) and, when the store
// keeps them, its state s or its encoding and its action a in the next level, and
// reports whether it was new. Expected cost O(1) (amortised over growth).
func (st *store[S]) insert(h uint64, enc []byte, rec uint64, a Action, s S) bool {
	return st.insertKey(h, enc, st.word(h, enc), rec, a, s)
}

// insertKey is insert for a state keyed by keyOf: fingerprint h, key bytes enc and
// word, whether it is word-keyed.
func (st *store[S]) insertKey(h uint64, enc []byte, word bool, rec uint64, a Action, s S) bool {
	sh := &st.shards[shardOf(h)]
	if sh.wide == 0 && word {
		// The common case, fingerprints alone, probed here without a call: the loop of a
		// hand-written table of packed states.
		mask := uint64(len(sh.tab) - 1)
		for i := h & mask; ; i = (i + 1) & mask {
			switch sh.tab[i] {
			case 0:
				st.add(sh, i, h, enc, word, rec, a, s)
				return true
			case h:
				return false
			}
		}
	}
	i, found := sh.find(h, enc, word, &st.arena)
	if found {
		return false // with one worker the first discovery had the least key
	}
	st.add(sh, i, h, enc, word, rec, a, s)
	return true
}

// find returns the slot of the state with fingerprint h (and encoding enc, if not word)
// in sh's table and true, or the empty slot where it would go and false. It is the
// whole of a repeat discovery's work with one worker, so its loop calls nothing unless a
// fingerprint matches. It must not run while another goroutine writes the shard.
func (sh *shard) find(h uint64, enc []byte, word bool, a *arena) (uint64, bool) {
	w := sh.wide
	mask := uint64(len(sh.tab)>>w - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch sh.tab[i<<w] {
		case 0:
			return i, false
		case h:
			if w == 0 {
				if word { // a shard without values holds word-keyed states only
					return i, true
				}
				continue
			}
			v := sh.tab[i<<1+1]
			if word == (v&wordTag != 0) && (word || a.equal(v, enc)) {
				return i, true
			}
		}
	}
}

// home reads the fingerprint in the home slot of h (its value, if any, is on the same
// cache line), for touch.
func (sh *shard) home(h uint64) uint64 {
	return sh.tab[h&uint64(len(sh.tab)>>sh.wide-1)<<sh.wide]
}

// add stores a new state in empty slot i of shard sh (one worker).
func (st *store[S]) add(sh *shard, i, h uint64, enc []byte, word bool, rec uint64, a Action, s S) {
	st.recs.add(rec)
	sh.n++
	grew := false
	if !word && sh.wide == 0 {
		sh.widen()
		grew = true
	}
	sh.tab[i<<sh.wide] = h
	if sh.wide != 0 {
		v := uint64(wordTag)
		if !word {
			v = st.arena.put(&st.tail, rec, enc)
		}
		sh.tab[i<<1+1] = v
	}
	switch {
	case st.encoded:
		st.next.encs = append(st.next.encs, enc...)
		st.next.ends = append(st.next.ends, uint64(len(st.next.encs)))
	default:
		st.next.states = append(st.next.states, s)
		if st.parents {
			st.next.from = append(st.next.from, unpackRecord(rec).parent-st.parentFirst)
			st.next.acts = append(st.next.acts, a)
		}
	}
	if sh.full() {
		sh.double()
		grew = true
	}
	if grew {
		st.account(sh)
	}
	if st.recs.n&(1<<10-1) == 0 {
		st.accountRecs()
	}
}

// keepLast sets the state of the state last added, which was stored without one (a
// SuccessorBuilder with one worker, so nothing was added since).
func (st *store[S]) keepLast(s S) {
	st.next.states[len(st.next.states)-1] = s
}

// contains reports whether the state with fingerprint h (and encoding enc) is stored.
// Any worker may call it on any shard in a level that stores nothing (the depth bound's).
func (st *store[S]) contains(h uint64, enc []byte) bool {
	return st.containsKey(h, enc, st.word(h, enc))
}

// containsKey is contains for a state keyed by keyOf.
func (st *store[S]) containsKey(h uint64, enc []byte, word bool) bool {
	_, found := st.shards[shardOf(h)].find(h, enc, word, &st.arena)
	return found
}

// double doubles the number of slots (table.go). No other goroutine may use the shard
// meanwhile.
func (sh *shard) double() { sh.grow(2 * len(sh.tab) >> sh.wide) }

// full reports whether sh holds 3/4 of its slots or more.
func (sh *shard) full() bool { return sh.n*4 >= int64(len(sh.tab)>>sh.wide)*3 }

// regrow returns a fingerprint table of twice the size of hashes (open addressing with
// linear probing, 0 = empty) holding the same fingerprints, and calls move(from, to) for
// each, if not nil, so that the caller moves the values kept beside it. Cost O(table
// size).
func regrow(hashes []uint64, move func(from, to int)) []uint64 {
	out := newTable(2 * len(hashes))
	rehashWords(out, hashes, move)
	return out
}

// account refreshes the store-wide byte estimate with shard sh's table size.
func (st *store[S]) account(sh *shard) {
	if size := int64(cap(sh.tab)) * 8; size != sh.size {
		st.bytes.Add(size - sh.size)
		sh.size = size
	}
}

// accountRecs refreshes the store-wide byte estimate with the records' size.
func (st *store[S]) accountRecs() {
	if size := st.recs.bytes(); size != st.recSize {
		st.bytes.Add(size - st.recSize)
		st.recSize = size
	}
}

// record returns the parent record of state id.
func (st *store[S]) record(id uint64) parentRecord { return st.recs.get(id) }

// count returns the exact number of stored states. It must not run concurrently with
// insert.
func (st *store[S]) count() int64 {
	var n int64
	for i := range st.shards {
		n += st.shards[i].n
	}
	return n
}

// startLevel begins the next level of a store with one worker: its states get the ids
// from the number of records on.
func (st *store[S]) startLevel() {
	st.next = level[S]{first: st.recs.n}
}

// nextFrontier ends a level: it returns the states first stored in it, in key order,
// and starts a new one. With one worker the list add built is already the next
// frontier; with several, mergeLevel merges the workers' lists.
func (st *store[S]) nextFrontier() level[S] {
	if st.shared {
		return st.mergeLevel()
	}
	st.accountRecs()
	next := st.next
	st.parentFirst = next.first
	st.startLevel()
	n := next.size()
	sp := &st.spare
	if st.encoded {
		st.next.encs = grown(sp.encs, len(next.encs))
		st.next.ends = grown(sp.ends, n)
	} else {
		st.next.states = grown(sp.states, n)
		if st.parents {
			st.next.from, st.next.acts = grown(sp.from, n), grown(sp.acts, n)
		}
	}
	*sp = level[S]{}
	return next
}

// recycle takes a level that has been expanded (and whose successors are built), so
// that a later level reuses its memory instead of the allocator's, which on a fresh
// page costs a page fault.
func (st *store[S]) recycle(l *level[S]) {
	clear(l.states) // drop the references
	st.spare = *l
}

// grown returns s emptied if it can hold n elements, else an empty slice that can.
func grown[T any](s []T, n int) []T {
	if cap(s) >= n {
		return s[:0]
	}
	return make([]T, 0, n)
}
