package checker

import (
	"encoding/binary"
	"sort"
	"sync/atomic"
	"unsafe"
)

// shardBits sets the number of visited-store shards, 1<<shardBits. A state's shard is
// chosen by the top bits of its fingerprint, so a state always lands in the same shard,
// and with several workers one worker owns each shard for a level (owners.go): only it
// inserts there, so no lock serialises insertions.
const shardBits = 6

// noParent is the parent id of an initial state; its record's action is then the
// index of the state in Model.Init().
const noParent = ^uint64(0)

// parentRecord is all the store keeps per state to rebuild a trace: the id of the state
// it was first (least key) reached from and the action taken. Traces are re-derived by
// Replay, so states themselves are never kept in the store.
type parentRecord struct {
	parent uint64
	action Action
}

// key orders discoveries within one BFS level: the index of the parent in the current
// frontier, then the index of the transition among the parent's successors. Every
// transition has a distinct key, so the least key of a state is unique and does not
// depend on which worker found it first.
type key struct {
	parent uint64
	trans  uint32
}

func (a key) less(b key) bool {
	return a.parent < b.parent || (a.parent == b.parent && a.trans < b.trans)
}

// fresh is a state first stored in the current level with several workers, with the
// least key among its discoveries so far; its state is at the same index of the shard's
// fstates, or its encoding ends at end in the shard's fencs (a FrontierDecoder). The
// fresh lists of all shards, sorted by key, form the next frontier.
type fresh struct {
	key key
	id  uint64
	end uint32
}

// level is one breadth-first level in frontier order: each state's store id and either
// the states themselves or, for a FrontierDecoder, their encodings (state k's is
// encs[ends[k-1]:ends[k]]), which cost a word or two each where a state may cost
// hundreds of bytes. With parents asked for (the SuccessorEncoder path, whose new states
// are built after the level) from[k] is the index of state k's parent in the level
// before.
type level[S any] struct {
	ids    []uint64
	states []S
	encs   []byte
	ends   []uint64 // 64-bit: a level's encodings may pass 4 GiB
	from   []uint64
}

// size returns the number of states of l.
func (l *level[S]) size() int { return len(l.ids) }

// enc returns the encoding of state k of an encoded level.
func (l *level[S]) enc(k int) []byte {
	start := uint64(0)
	if k > 0 {
		start = l.ends[k-1]
	}
	return l.encs[start:l.ends[k]]
}

// store is the visited-state set: 1<<shardBits shards, each an open-addressing
// (linear probing) hash table of fingerprints with, per slot where it is needed, a
// value beside the fingerprint: the record index (Fingerprint mode) or, in Exact mode,
// the offset of the state's arena entry (record index as 4 bytes, uvarint length,
// encoding), plus the records. Exact mode keeps no arena entry for a word-keyed state
// (an 8-byte encoding, which its fingerprint identifies: wordKeyed); its value is
// wordTag and the record index. With several workers a value without an arena offset
// also carries a hint of the state's least key in the level (hintMax).
//
// A slot is one word (the fingerprint) or two (fingerprint, value) in the one array
// tab, so that a lookup reads one cache line. Values are kept only where a lookup reads
// them: with several workers (keyed: lower reads the record index), and in Exact mode
// for a shard that holds an arena entry (widened at the first one). With one worker a
// shard of word-keyed states, and every shard in Fingerprint mode, is its fingerprints
// alone, 8 bytes a slot as in a hand-written table of packed states.
//
// Invariants: a shard's table has a power-of-two number of slots and is at most 3/4
// full; the fingerprint 0 marks an empty slot (a fingerprint of 0 is stored as 1); with
// several workers, records in [levelStart, n) are exactly the states of shard.fresh, in
// the same order.
//
// With one worker (keyed false) a state's first discovery in a level has its least
// key, since the frontier is expanded in key order; insert then skips the key
// comparison on states already stored and appends new states to one list, next, which is
// then already the next frontier. With several, each shard is written by its owner only
// (owners.go), which compares keys since discoveries reach it out of order, and
// nextFrontier sorts the shards' fresh lists by key.
type store[S any] struct {
	exact   bool
	keyed   bool // several workers: a repeat discovery may have a lesser key
	encoded bool // a FrontierDecoder's levels hold encodings, not states
	parents bool // with one worker, next.from is filled (the SuccessorEncoder path)
	shards  [1 << shardBits]shard[S]
	next    level[S] // with one worker: the level being built, in key order
	storeCounters
}

// storeCounters are the figures progress lines and budgets read while workers run.
type storeCounters struct {
	bytes  atomic.Int64 // estimated size of the visited set, updated when a shard grows
	states atomic.Int64 // number of stored states, flushed by workers in batches
}

// recPageBits sets the size of a page of parent records, 1<<recPageBits records. Full
// pages are never copied or reallocated, so growth copies at most one page and a
// shard's records cost their size plus the slack of its last page.
const recPageBits = 14

type shard[S any] struct {
	tab        []uint64         // slot i: fingerprint tab[i<<wide] (0 when empty), value tab[i<<wide+1] when wide is 1
	wide       uint8            // 1 when slots hold a value (see store), else 0
	n          uint32           // records stored
	recs       [][]parentRecord // pages of parent records
	arena      []byte           // Exact mode: record index (4 bytes), uvarint length, encoding, per record
	levelStart uint32
	fresh      []fresh // several workers: the states first stored in this level
	fstates    []S     // their states (parallel to fresh), unless encoded
	fencs      []byte  // their encodings, when encoded
	size       int64   // last size reported to store.bytes
	_          [64]byte
}

func newStore[S any](exact, keyed, encoded bool) *store[S] {
	st := &store[S]{exact: exact, keyed: keyed, encoded: encoded}
	for i := range st.shards {
		sh := &st.shards[i]
		if keyed {
			sh.wide = 1
		}
		sh.tab = make([]uint64, 16<<sh.wide)
		st.account(sh)
	}
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

// insert stores the state with fingerprint h (and encoding enc in Exact mode) if it is
// new, with parent record (parentID, action) and level key k, and reports whether it
// was new. If the state was already stored in the current level with a larger key, its
// key and parent record are lowered to k. The new state's frontier entry keeps s, or
// enc when the store is encoded. Expected cost O(1) (amortised over growth).
func (st *store[S]) insert(h uint64, enc []byte, k key, parentID uint64, action Action, s S) bool {
	si := shardOf(h)
	sh := &st.shards[si]
	i, found := sh.find(h, enc, st.exact)
	if !found {
		st.add(sh, si, i, h, enc, k, parentID, action, s)
		return true
	}
	if st.keyed {
		sh.lower(i, st.exact, k, parentID, action)
	}
	// With one worker the first discovery had the least key.
	return false
}

// find returns the slot of the state with fingerprint h (and encoding enc in Exact
// mode) in sh's table and true, or the empty slot where it would go and false. It is
// the whole of a repeat discovery's work with one worker, so its loop calls nothing
// and runs in registers; a state whose encoding must be compared goes to findArena.
func (sh *shard[S]) find(h uint64, enc []byte, exact bool) (uint64, bool) {
	if exact && !wordKeyed(h, enc) {
		return sh.findArena(h, enc)
	}
	// A word-keyed state equals a stored one exactly when the stored one is word-keyed
	// too (equal): every state of a shard without arena entries is.
	w := sh.wide
	mixed := exact && len(sh.arena) != 0
	mask := uint64(len(sh.tab)>>w - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch sh.tab[i<<w] {
		case 0:
			return i, false
		case h:
			if !mixed || sh.tab[i<<w+1]&wordTag != 0 {
				return i, true
			}
		}
	}
}

// home reads the fingerprint in the home slot of h (its value, if any, is on the same
// cache line), for touch.
func (sh *shard[S]) home(h uint64) uint64 {
	return sh.tab[h&uint64(len(sh.tab)>>sh.wide-1)<<sh.wide]
}

// value returns the value of slot i of a wide shard.
func (sh *shard[S]) value(i uint64) uint64 { return sh.tab[i<<1+1] }

// findArena is find for an Exact-mode state that is not word-keyed: a slot with its
// fingerprint holds it if the encoding in the arena is enc (a shard with an empty arena
// holds word-keyed states only).
func (sh *shard[S]) findArena(h uint64, enc []byte) (uint64, bool) {
	w := sh.wide
	mask := uint64(len(sh.tab)>>w - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch sh.tab[i<<w] {
		case 0:
			return i, false
		case h:
			if len(sh.arena) != 0 && sh.equal(sh.value(i), false, enc) {
				return i, true
			}
		}
	}
}

// add stores a new state in empty slot i of shard sh (number si).
func (st *store[S]) add(sh *shard[S], si, i, h uint64, enc []byte, k key, parentID uint64, action Action, s S) {
	rec := sh.n
	sh.n++
	sh.tab[i<<sh.wide] = h
	grew := false
	if rec&(1<<recPageBits-1) == 0 {
		sh.recs = append(sh.recs, make([]parentRecord, 0, 16)) // grows up to a page
		grew = true
	}
	page := &sh.recs[len(sh.recs)-1]
	if len(*page) == cap(*page) {
		// Grow by a quarter, not append's doubling: a small search's pages are mostly
		// their last, and their slack would be a third of the records.
		c := min(cap(*page)+max(16, cap(*page)/4), 1<<recPageBits)
		*page = append(make([]parentRecord, 0, c), *page...)
		grew = true
	}
	*page = append(*page, parentRecord{parentID, action})
	switch {
	case st.exact && wordKeyed(h, enc):
		if sh.wide != 0 {
			sh.tab[i<<1+1] = wordTag | st.hint(k) | uint64(rec)
		}
	case st.exact:
		if sh.wide == 0 {
			sh.widen()
			grew = true
		}
		c := cap(sh.arena)
		sh.tab[i<<1+1] = uint64(len(sh.arena))
		sh.arena = binary.LittleEndian.AppendUint32(sh.arena, rec)
		sh.arena = binary.AppendUvarint(sh.arena, uint64(len(enc)))
		sh.arena = append(sh.arena, enc...)
		grew = grew || cap(sh.arena) != c
	case sh.wide != 0:
		sh.tab[i<<1+1] = st.hint(k) | uint64(rec)
	}
	id := uint64(rec)<<shardBits | si
	switch {
	case st.keyed:
		f := fresh{key: k, id: id}
		if st.encoded {
			sh.fencs = append(sh.fencs, enc...)
			f.end = uint32(len(sh.fencs))
		} else {
			sh.fstates = append(sh.fstates, s)
		}
		sh.fresh = append(sh.fresh, f)
	case st.encoded:
		st.next.ids = append(st.next.ids, id)
		st.next.encs = append(st.next.encs, enc...)
		st.next.ends = append(st.next.ends, uint64(len(st.next.encs)))
	default:
		st.next.ids = append(st.next.ids, id)
		st.next.states = append(st.next.states, s)
		if st.parents {
			st.next.from = append(st.next.from, k.parent)
		}
	}
	if int(sh.n)*4 >= len(sh.tab)>>sh.wide*3 {
		sh.grow()
		grew = true
	}
	if grew {
		st.account(sh)
	}
}

// widen gives the slots of an Exact-mode shard of word-keyed states (one worker) values,
// for its first arena entry: its word-keyed slots get wordTag (their record index is not
// needed with one worker, which never lowers a key). Slots keep their places.
func (sh *shard[S]) widen() {
	tab := make([]uint64, 2*len(sh.tab))
	for i, h := range sh.tab {
		if h != 0 {
			tab[2*i], tab[2*i+1] = h, wordTag
		}
	}
	sh.tab, sh.wide = tab, 1
}

// keepLast sets the state of the state last added, which was stored without one (a
// SuccessorBuilder with one worker, so nothing was added since).
func (st *store[S]) keepLast(s S) {
	st.next.states[len(st.next.states)-1] = s
}

// lower gives the state in slot i the key k and parent record (parentID, action) if it
// was stored in the current level with a greater key.
func (sh *shard[S]) lower(i uint64, exact bool, k key, parentID uint64, action Action) {
	var rec uint32
	v := sh.value(i)
	hinted := !exact || v&wordTag != 0
	if hinted {
		rec = uint32(v)
	} else {
		rec = binary.LittleEndian.Uint32(sh.arena[v:])
	}
	if rec < sh.levelStart {
		return // stored in an earlier level
	}
	if h := v >> 32 & hintMax; hinted && h != 0 && k.parent+1 > h {
		return // its key's parent comes first: k is larger
	}
	f := &sh.fresh[rec-sh.levelStart]
	if k.less(f.key) {
		f.key = k
		sh.recs[rec>>recPageBits][rec&(1<<recPageBits-1)] = parentRecord{parentID, action}
		if hinted {
			sh.tab[i<<1+1] = v&^(hintMax<<32) | keyHint(k)
		}
	}
}

// hintMax bounds the key hint a wide slot keeps, with several workers, beside the
// record index of a state without an arena entry (bits 32-62 of its value): the index
// of the parent of its least key so far, plus one, or 0 when that does not fit. lower
// then sets aside most later discoveries (a larger parent index) without reading the
// state's fresh entry, a cache miss.
const hintMax = 1<<31 - 1

// keyHint returns the key hint of k, in place (see hintMax).
func keyHint(k key) uint64 {
	if k.parent+1 >= hintMax {
		return 0
	}
	return (k.parent + 1) << 32
}

// hint returns the key hint of a new state with least key k in a store with several
// workers, and 0 with one (no lookup reads it).
func (st *store[S]) hint(k key) uint64 {
	if !st.keyed {
		return 0
	}
	return keyHint(k)
}

// contains reports whether the state with fingerprint h (and encoding enc) is stored.
// Any worker may call it on any shard in a level that stores nothing (the depth bound's).
func (st *store[S]) contains(h uint64, enc []byte) bool {
	_, found := st.shards[shardOf(h)].find(h, enc, st.exact)
	return found
}

// equal reports whether the state of the Exact-mode slot value v (an arena offset, or
// wordTag and a record index) is the state with encoding enc, whose fingerprint equals
// the slot's; word says whether enc is word-keyed (wordKeyed).
func (sh *shard[S]) equal(v uint64, word bool, enc []byte) bool {
	if v&wordTag != 0 {
		return word
	}
	return arenaEqual(sh.arena, v+4, enc)
}

// wordTag marks an Exact-mode slot whose state is word-keyed: the slot holds the record
// index instead of an arena offset, and the state's encoding is not kept.
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

// grow doubles the number of slots. Cost O(table size); fingerprints are kept, so
// nothing is rehashed.
func (sh *shard[S]) grow() {
	if sh.wide == 0 {
		sh.tab = regrow(sh.tab, nil)
		return
	}
	out := make([]uint64, 2*len(sh.tab))
	mask := uint64(len(out)>>1 - 1)
	for j := 0; j < len(sh.tab); j += 2 {
		h := sh.tab[j]
		if h == 0 {
			continue
		}
		i := h & mask
		for out[2*i] != 0 {
			i = (i + 1) & mask
		}
		out[2*i], out[2*i+1] = h, sh.tab[j+1]
	}
	sh.tab = out
}

// regrow returns a fingerprint table of twice the size of hashes (open addressing with
// linear probing, 0 = empty) holding the same fingerprints, and calls move(from, to) for
// each, if not nil, so that the caller moves the values kept beside it. Cost O(table
// size).
func regrow(hashes []uint64, move func(from, to int)) []uint64 {
	out := make([]uint64, 2*len(hashes))
	mask := uint64(len(out) - 1)
	for j, h := range hashes {
		if h == 0 {
			continue
		}
		i := h & mask
		for out[i] != 0 {
			i = (i + 1) & mask
		}
		out[i] = h
		if move != nil {
			move(j, int(i))
		}
	}
	return out
}

// account refreshes the store-wide byte estimate with shard sh's current size. add calls
// it when something of the shard grew.
func (st *store[S]) account(sh *shard[S]) {
	size := int64(cap(sh.tab))*8 + st.recBytes(sh) + int64(cap(sh.recs))*24 +
		int64(cap(sh.arena))
	if size != sh.size {
		st.bytes.Add(size - sh.size)
		sh.size = size
	}
}

// recBytes returns the bytes of shard sh's record pages.
func (st *store[S]) recBytes(sh *shard[S]) int64 {
	k := len(sh.recs)
	if k == 0 {
		return 0
	}
	return (int64(k-1)<<recPageBits + int64(cap(sh.recs[k-1]))) * int64(unsafe.Sizeof(parentRecord{}))
}

// record returns the parent record of state id.
func (st *store[S]) record(id uint64) parentRecord {
	sh := &st.shards[id&(1<<shardBits-1)]
	rec := id >> shardBits
	return sh.recs[rec>>recPageBits][rec&(1<<recPageBits-1)]
}

// count returns the exact number of stored states. It must not run concurrently with
// insert.
func (st *store[S]) count() int64 {
	var n int64
	for i := range st.shards {
		n += int64(st.shards[i].n)
	}
	return n
}

// nextFrontier ends a level: it returns the states first stored in it, ordered by key,
// and starts a new level. width is the size of the frontier the keys refer to. With one
// worker the list add built is already in key order; with several, the shards' fresh
// lists are placed by key: cost O(width + new states), plus a sort of the few states
// sharing one parent.
func (st *store[S]) nextFrontier(width int) level[S] {
	if !st.keyed {
		next := st.next
		n := next.size()
		st.next = level[S]{ids: make([]uint64, 0, n)}
		if st.encoded {
			st.next.encs = make([]byte, 0, len(next.encs))
			st.next.ends = make([]uint64, 0, n)
		} else {
			st.next.states = make([]S, 0, n)
			if st.parents {
				st.next.from = make([]uint64, 0, n)
			}
		}
		for i := range st.shards {
			st.shards[i].levelStart = st.shards[i].n
		}
		return next
	}
	total := 0
	for i := range st.shards {
		total += len(st.shards[i].fresh)
	}
	if total == 0 {
		return level[S]{}
	}
	start := make([]int, width+1)
	for i := range st.shards {
		for _, f := range st.shards[i].fresh {
			start[f.key.parent+1]++
		}
	}
	for i := 1; i <= width; i++ {
		start[i] += start[i-1]
	}
	// Place every fresh state at its parent's group, reading each shard's lists in order;
	// an encoded level first notes where each encoding is (refs), and copies them after
	// the sort.
	next := level[S]{ids: make([]uint64, total), from: make([]uint64, total)}
	var refs []freshRef
	if st.encoded {
		refs = make([]freshRef, total)
	} else {
		next.states = make([]S, total)
	}
	trans := make([]uint32, total)
	pos := start[:width]
	for i := range st.shards {
		sh := &st.shards[i]
		for j, f := range sh.fresh {
			p := pos[f.key.parent]
			pos[f.key.parent]++
			next.ids[p], next.from[p], trans[p] = f.id, f.key.parent, f.key.trans
			if refs != nil {
				refs[p] = freshRef{uint32(i), uint32(j)}
			} else {
				next.states[p] = sh.fstates[j]
			}
		}
	}
	// After placement pos[p] is the end of parent p's group. Within a group, order by
	// transition index (insertion sort for the usual small group).
	byTrans := groupSort[S]{trans: trans, next: &next, refs: refs}
	a := 0
	for _, b := range pos {
		g := byTrans.window(a, b)
		if b-a > 16 {
			sort.Sort(g)
			a = b
			continue
		}
		for i := 1; i < b-a; i++ {
			for j := i; j > 0 && g.Less(j, j-1); j-- {
				g.Swap(j, j-1)
			}
		}
		a = b
	}
	if refs != nil {
		next.ends = make([]uint64, total)
		for p, r := range refs {
			sh := &st.shards[r.shard]
			from := uint32(0)
			if r.idx > 0 {
				from = sh.fresh[r.idx-1].end
			}
			next.encs = append(next.encs, sh.fencs[from:sh.fresh[r.idx].end]...)
			next.ends[p] = uint64(len(next.encs))
		}
	}
	for i := range st.shards {
		sh := &st.shards[i]
		clear(sh.fstates) // drop the references
		sh.fresh, sh.fstates, sh.fencs = sh.fresh[:0], sh.fstates[:0], sh.fencs[:0]
		sh.levelStart = sh.n
	}
	return next
}

// freshRef names a fresh entry: its shard and its index in the shard's fresh list.
type freshRef struct{ shard, idx uint32 }

// groupSort sorts positions of a new level by transition index, moving each position's
// id, parent, state or encoding reference with it; window views positions [lo, hi).
type groupSort[S any] struct {
	trans  []uint32
	next   *level[S]
	refs   []freshRef
	lo, hi int
}

func (g groupSort[S]) window(lo, hi int) groupSort[S] { g.lo, g.hi = lo, hi; return g }

func (g groupSort[S]) Len() int           { return g.hi - g.lo }
func (g groupSort[S]) Less(i, j int) bool { return g.trans[g.lo+i] < g.trans[g.lo+j] }

func (g groupSort[S]) Swap(i, j int) {
	i, j = g.lo+i, g.lo+j
	g.trans[i], g.trans[j] = g.trans[j], g.trans[i]
	n := g.next
	n.ids[i], n.ids[j] = n.ids[j], n.ids[i]
	n.from[i], n.from[j] = n.from[j], n.from[i]
	if g.refs != nil {
		g.refs[i], g.refs[j] = g.refs[j], g.refs[i]
	} else {
		n.states[i], n.states[j] = n.states[j], n.states[i]
	}
}
