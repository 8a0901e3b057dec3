package checker

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"sync/atomic"
)

// Searches larger than memory (Options.SpillDir).
//
// As in TLC's disk queue, the frontier and the parent records live in sequential files
// and memory holds only what must be random-access: the visited set (fingerprints, and
// in Exact mode the encodings they are compared with) and, for the level being built,
// one small entry per new state (its least key, for the deterministic order).
//
// Files, in a private directory under SpillDir removed when the search ends:
//   - parents: a 16-byte record per state, (parent id, transition index) little-endian
//     (records.go: Replay re-derives the actions), in BFS
//     order, so that the id of a state is its position in the file and a trace is read
//     back with one ReadAt per step;
//   - frontier-0, frontier-1: the current and the next level, a uvarint length and the
//     encoding per state, in frontier order; the model's Decode rebuilds the states.
//
// Order. A state's key is (index of the parent in the frontier, index of the
// transition); the next frontier lists the states of the level by least key, as in
// memory. Workers claim chunks of consecutive frontier states in order and write, per
// chunk, every state they store first or whose key they lower, in key order (a chunk
// is expanded in order). Chunks are appended to the next frontier in chunk order, and
// an entry is written only if its key is still the state's least key. A chunk is
// appended only after every earlier chunk is done, and only earlier chunks hold smaller
// keys, so by then that test is final: each state is written once, at its least key.

// spillRecordSize is the size of one parent record in the parents file.
const spillRecordSize = 16

// Outcomes of spillStore.insert.
const (
	spillDup     = iota // already stored, with a key at most as small
	spillNew            // stored now
	spillLowered        // stored earlier in this level; its key is now the smaller one given
)

// spillFresh is a state first stored in the current level: its least key so far and, in
// Exact mode, the arena offset of its encoding (to tell colliding fingerprints apart).
type spillFresh struct {
	key key
	off uint64
}

// spillShard is one shard of the visited set of a spilling search: an open-addressing
// table of fingerprints (in Exact mode with a parallel table of arena offsets) and a
// second, level-sized table from fingerprint to the level's fresh entries.
//
// Invariants: both tables have a power-of-two size and are at most 3/4 full; 0 marks an
// empty slot; lvlI[i] indexes fresh.
type spillShard struct {
	mu     sync.Mutex
	hashes []uint64
	offs   []uint64 // Exact mode: arena offset per slot of hashes
	arena  []byte   // Exact mode: uvarint length, then the encoding, per state
	n      int      // states stored
	lvlH   []uint64
	lvlI   []uint32
	fresh  []spillFresh
	size   int64 // last size reported to the store's byte count
	_      [64]byte
}

// spillStore is the visited set of a spilling search. Its state and byte counts go to
// the counters of the explorer's (unused) in-memory store, which progress lines and
// budgets read.
type spillStore struct {
	exact, locked bool
	ctr           *storeCounters
	shards        [1 << shardBits]spillShard
}

func newSpillStore(exact, locked bool, ctr *storeCounters) *spillStore {
	st := &spillStore{exact: exact, locked: locked, ctr: ctr}
	for i := range st.shards {
		sh := &st.shards[i]
		sh.hashes = make([]uint64, 16)
		if exact {
			sh.offs = make([]uint64, 16)
		}
		sh.lvlH = make([]uint64, 16)
		sh.lvlI = make([]uint32, 16)
		st.account(sh)
	}
	return st
}

// insert stores the state with fingerprint h (and encoding enc) with level key k if it
// is new, or lowers its key if it was stored earlier in this level with a larger one.
// It returns the outcome and, for spillNew and spillLowered, the shard and the index of
// the state's fresh entry. Expected cost O(1) amortised.
func (st *spillStore) insert(h uint64, enc []byte, k key) (int, uint8, uint32) {
	si := shardOf(h)
	sh := &st.shards[si]
	if st.locked {
		sh.mu.Lock()
		defer sh.mu.Unlock()
	}
	mask := uint64(len(sh.hashes) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch sh.hashes[i] {
		case 0:
			sh.hashes[i] = h
			var off uint64
			if st.exact {
				off = uint64(len(sh.arena))
				sh.offs[i] = off
				sh.arena = binary.AppendUvarint(sh.arena, uint64(len(enc)))
				sh.arena = append(sh.arena, enc...)
			}
			sh.n++
			idx := uint32(len(sh.fresh))
			sh.fresh = append(sh.fresh, spillFresh{key: k, off: off})
			sh.lvlPut(h, idx)
			if sh.n*4 >= len(sh.hashes)*3 {
				sh.grow(st.exact)
			}
			st.account(sh)
			return spillNew, uint8(si), idx
		case h:
			var off uint64
			if st.exact {
				off = sh.offs[i]
				if !arenaEqual(sh.arena, off, enc) {
					continue
				}
			}
			idx, ok := sh.lvlGet(h, off, st.exact)
			if ok && k.less(sh.fresh[idx].key) {
				sh.fresh[idx].key = k
				return spillLowered, uint8(si), idx
			}
			return spillDup, 0, 0
		}
	}
}

// contains reports whether the state with fingerprint h (and encoding enc) is stored.
func (st *spillStore) contains(h uint64, enc []byte) bool {
	sh := &st.shards[shardOf(h)]
	if st.locked {
		sh.mu.Lock()
		defer sh.mu.Unlock()
	}
	mask := uint64(len(sh.hashes) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch sh.hashes[i] {
		case 0:
			return false
		case h:
			if !st.exact || arenaEqual(sh.arena, sh.offs[i], enc) {
				return true
			}
		}
	}
}

// live reports whether k is still the least key of fresh entry idx of shard si.
func (st *spillStore) live(si uint8, idx uint32, k key) bool {
	sh := &st.shards[si]
	if st.locked {
		sh.mu.Lock()
		defer sh.mu.Unlock()
	}
	return sh.fresh[idx].key == k
}

// arenaEqual reports whether the encoding stored at arena offset off is enc.
func arenaEqual(arena []byte, off uint64, enc []byte) bool {
	n, w := binary.Uvarint(arena[off:])
	start := off + uint64(w)
	return bytes.Equal(arena[start:start+n], enc)
}

// lvlPut adds fingerprint h -> fresh index idx to the level table.
func (sh *spillShard) lvlPut(h uint64, idx uint32) {
	if (len(sh.fresh))*4 >= len(sh.lvlH)*3 {
		oldH, oldI := sh.lvlH, sh.lvlI
		sh.lvlH = make([]uint64, 2*len(oldH))
		sh.lvlI = make([]uint32, 2*len(oldH))
		for j, g := range oldH {
			if g != 0 {
				sh.lvlPlace(g, oldI[j])
			}
		}
	}
	sh.lvlPlace(h, idx)
}

func (sh *spillShard) lvlPlace(h uint64, idx uint32) {
	mask := uint64(len(sh.lvlH) - 1)
	i := h & mask
	for sh.lvlH[i] != 0 {
		i = (i + 1) & mask
	}
	sh.lvlH[i], sh.lvlI[i] = h, idx
}

// lvlGet returns the fresh index of the state with fingerprint h (in Exact mode, and
// arena offset off), if it was first stored in this level.
func (sh *spillShard) lvlGet(h, off uint64, exact bool) (uint32, bool) {
	mask := uint64(len(sh.lvlH) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		switch sh.lvlH[i] {
		case 0:
			return 0, false
		case h:
			idx := sh.lvlI[i]
			if !exact || sh.fresh[idx].off == off {
				return idx, true
			}
		}
	}
}

// grow doubles the fingerprint table (and the offsets with it).
func (sh *spillShard) grow(exact bool) {
	var offs []uint64
	if exact {
		offs = make([]uint64, 2*len(sh.hashes))
	}
	sh.hashes = regrow(sh.hashes, func(from, to int) {
		if exact {
			offs[to] = sh.offs[from]
		}
	})
	sh.offs = offs
}

// endLevel forgets the level's fresh entries; the level table keeps its size (the next
// level is usually as wide). It must not run concurrently with insert.
func (st *spillStore) endLevel() {
	for i := range st.shards {
		sh := &st.shards[i]
		clear(sh.lvlH)
		sh.fresh = sh.fresh[:0]
		st.account(sh)
	}
}

// account refreshes the byte count with shard sh's current size.
func (st *spillStore) account(sh *spillShard) {
	size := int64(cap(sh.hashes))*8 + int64(cap(sh.offs))*8 + int64(cap(sh.arena)) +
		int64(cap(sh.lvlH))*8 + int64(cap(sh.lvlI))*4 + int64(cap(sh.fresh))*32
	if size != sh.size {
		st.ctr.bytes.Add(size - sh.size)
		sh.size = size
	}
}

// count returns the number of stored states; not concurrently with insert.
func (st *spillStore) count() int64 {
	var n int64
	for i := range st.shards {
		n += int64(st.shards[i].n)
	}
	return n
}

// spillEntry is one state a worker wrote into its chunk: its key, fresh entry (shard
// and index) and the end of its encoding in the chunk's bytes.
type spillEntry struct {
	key key
	idx uint32
	si  uint8
	end uint32
}

// spillChunk is what a worker found while expanding frontier states [lo, lo+n).
type spillChunk struct {
	lo, n   uint64
	entries []spillEntry
	enc     []byte
}

func (c *spillChunk) add(k key, si uint8, idx uint32, enc []byte) {
	c.enc = append(c.enc, enc...)
	c.entries = append(c.entries, spillEntry{key: k, idx: idx, si: si, end: uint32(len(c.enc))})
}

// spill is the disk side of a spilling search: the parents file, the two frontier
// files, the reader of the current level and the in-order writer of the next.
type spill struct {
	dir     string
	parents *os.File
	pw      *bufio.Writer // appends to parents
	files   [2]*os.File   // frontier files; cur indexes the one being read
	cur     int
	r       *bufio.Reader
	w       *bufio.Writer // appends to files[1-cur]

	base  uint64 // id of the first state of the current level
	width uint64 // states in the current level
	total uint64 // states written to parents

	// Reading the current level (claim).
	rmu  sync.Mutex
	next uint64

	// Writing the next level (submit): chunks arrive in any order and are appended in
	// chunk order.
	wmu     sync.Mutex
	wantLo  uint64
	waiting []*spillChunk
	free    []*spillChunk
	written uint64 // states of the next level written so far
	err     error  // first I/O or decoding error
	errSet  atomic.Bool
	peak    int64 // largest sum of file sizes at a level end
}

// openSpill creates the private directory and files under dir.
func openSpill(dir string) (*spill, error) {
	d, err := os.MkdirTemp(dir, "wormcheck-spill-")
	if err != nil {
		return nil, fmt.Errorf("checker: SpillDir: %w", err)
	}
	sp := &spill{dir: d}
	if sp.parents, err = os.Create(filepath.Join(d, "parents")); err != nil {
		sp.close()
		return nil, fmt.Errorf("checker: SpillDir: %w", err)
	}
	for i := range sp.files {
		if sp.files[i], err = os.Create(filepath.Join(d, fmt.Sprintf("frontier-%d", i))); err != nil {
			sp.close()
			return nil, fmt.Errorf("checker: SpillDir: %w", err)
		}
	}
	sp.pw = bufio.NewWriterSize(sp.parents, 1<<20)
	sp.w = bufio.NewWriterSize(sp.files[1], 1<<20)
	sp.r = bufio.NewReaderSize(sp.files[0], 1<<20)
	return sp, nil
}

// close removes the files.
func (sp *spill) close() {
	for _, f := range append([]*os.File{sp.parents}, sp.files[:]...) {
		if f != nil {
			_ = f.Close()
		}
	}
	_ = os.RemoveAll(sp.dir)
}

// fail records the first error; the explorer stops the level and returns it.
func (sp *spill) fail(err error) {
	sp.wmu.Lock()
	if sp.err == nil {
		sp.err = err
		sp.errSet.Store(true)
	}
	sp.wmu.Unlock()
}

// put appends a state of the next level: its parent record and its encoding.
func (sp *spill) put(parent uint64, trans uint32, enc []byte) {
	var rec [spillRecordSize]byte
	binary.LittleEndian.PutUint64(rec[:8], parent)
	binary.LittleEndian.PutUint64(rec[8:], uint64(trans))
	_, _ = sp.pw.Write(rec[:])
	var l [binary.MaxVarintLen64]byte
	_, _ = sp.w.Write(l[:binary.PutUvarint(l[:], uint64(len(enc)))])
	_, _ = sp.w.Write(enc)
	sp.written++
}

// submit hands over a finished chunk and returns an empty one for the worker's next
// chunk. Chunks are appended in order of lo; an entry is appended only if its key is
// still its state's least key (see the file comment).
func (sp *spill) submit(st *spillStore, c *spillChunk) *spillChunk {
	sp.wmu.Lock()
	defer sp.wmu.Unlock()
	if c.lo != sp.wantLo {
		sp.waiting = append(sp.waiting, c)
	} else {
		sp.append(st, c)
		for found := true; found; {
			found = false
			for i, w := range sp.waiting {
				if w.lo == sp.wantLo {
					sp.waiting = append(sp.waiting[:i], sp.waiting[i+1:]...)
					sp.append(st, w)
					found = true
					break
				}
			}
		}
	}
	if k := len(sp.free); k > 0 {
		f := sp.free[k-1]
		sp.free = sp.free[:k-1]
		return f
	}
	return &spillChunk{}
}

// append writes chunk c's live entries; the caller holds wmu.
func (sp *spill) append(st *spillStore, c *spillChunk) {
	start := uint32(0)
	for _, en := range c.entries {
		if st.live(en.si, en.idx, en.key) {
			sp.put(sp.base+en.key.parent, en.key.trans, c.enc[start:en.end])
		}
		start = en.end
	}
	sp.wantLo = c.lo + c.n
	c.entries, c.enc = c.entries[:0], c.enc[:0]
	sp.free = append(sp.free, c)
}

// claim reads up to n states of the current level into enc (concatenated, ends[k] the
// end of the k-th) and returns the frontier index of the first and how many it read.
func (sp *spill) claim(n uint64, enc []byte, ends []uint32) (uint64, []byte, []uint32) {
	sp.rmu.Lock()
	defer sp.rmu.Unlock()
	lo := sp.next
	cnt := min(n, sp.width-lo)
	enc, ends = enc[:0], ends[:0]
	for range cnt {
		l, err := binary.ReadUvarint(sp.r)
		if err == nil {
			k := len(enc)
			enc = slices.Grow(enc, int(l))[:k+int(l)]
			_, err = io.ReadFull(sp.r, enc[k:])
		}
		if err != nil {
			sp.fail(fmt.Errorf("checker: reading the spilled frontier: %w", err))
			return lo, enc, ends[:0]
		}
		ends = append(ends, uint32(len(enc)))
	}
	sp.next += cnt
	return lo, enc, ends
}

// endLevel makes the level just written the one to read. It returns its width.
func (sp *spill) endLevel() (uint64, error) {
	if sp.err != nil {
		return 0, sp.err
	}
	if len(sp.waiting) != 0 {
		return 0, errors.New("checker: internal: a spilled chunk was never appended")
	}
	if err := sp.w.Flush(); err != nil {
		return 0, fmt.Errorf("checker: writing the spilled frontier: %w", err)
	}
	if err := sp.pw.Flush(); err != nil {
		return 0, fmt.Errorf("checker: writing the spilled parent records: %w", err)
	}
	var size int64
	for _, f := range append([]*os.File{sp.parents}, sp.files[:]...) {
		if fi, err := f.Stat(); err == nil {
			size += fi.Size()
		}
	}
	sp.peak = max(sp.peak, size)
	// The file just read is emptied and written next; the file just written is read.
	old := sp.files[sp.cur]
	if err := old.Truncate(0); err != nil {
		return 0, fmt.Errorf("checker: SpillDir: %w", err)
	}
	if _, err := old.Seek(0, io.SeekStart); err != nil {
		return 0, fmt.Errorf("checker: SpillDir: %w", err)
	}
	sp.cur = 1 - sp.cur
	if _, err := sp.files[sp.cur].Seek(0, io.SeekStart); err != nil {
		return 0, fmt.Errorf("checker: SpillDir: %w", err)
	}
	sp.r.Reset(sp.files[sp.cur])
	sp.w.Reset(old)
	sp.base += sp.width
	sp.width, sp.written = sp.written, 0
	sp.total += sp.width
	sp.next, sp.wantLo = 0, 0
	return sp.width, nil
}

// record reads the parent record of state id.
func (sp *spill) record(id uint64) (parentRecord, error) {
	if err := sp.pw.Flush(); err != nil {
		return parentRecord{}, err
	}
	var b [spillRecordSize]byte
	if _, err := sp.parents.ReadAt(b[:], int64(id)*spillRecordSize); err != nil {
		return parentRecord{}, fmt.Errorf("checker: reading spilled parent record %d: %w", id, err)
	}
	return parentRecord{parent: binary.LittleEndian.Uint64(b[:8]), trans: uint32(binary.LittleEndian.Uint64(b[8:]))}, nil
}

// spillWork is a worker's scratch space for a spilling search.
type spillWork[S any] struct {
	window []byte // encodings of the claimed frontier states, concatenated
	wends  []uint32
	nodes  []node[S]
	chunk  *spillChunk
}

// openSpill sets up a spilling search: the decoder, the files and the visited set.
func (e *explorer[S]) openSpill() error {
	d, ok := e.m.(Decoder[S])
	if !ok {
		return fmt.Errorf("checker: SpillDir is set but the model (%T) does not implement Decoder", e.m)
	}
	sp, err := openSpill(e.opt.SpillDir)
	if err != nil {
		return err
	}
	e.decoder, e.spill = d, sp
	e.sstore = newSpillStore(e.opt.Store == Exact, e.opt.Workers > 1, &e.store.storeCounters)
	return nil
}

// runSpill is run's level loop for a spilling search.
func (e *explorer[S]) runSpill(inits []S) (*Result[S], error) {
	var buf []byte
	for i, s := range inits {
		if e.canon != nil {
			s = e.canon.Canonical(s)
		}
		buf = e.m.Encode(s, buf[:0])
		if st, _, _ := e.sstore.insert(fixHash(fingerprint(buf)), buf, key{uint64(i), 0}); st == spillNew {
			e.spill.put(noParent, uint32(i), buf)
		}
	}
	e.sstore.endLevel()
	width, err := e.spill.endLevel()
	if err != nil {
		return nil, err
	}
	e.store.states.Store(e.sstore.count())
	for depth := 0; ; depth++ {
		e.depth = depth
		e.depthNow.Store(int64(depth))
		e.frontierLen.Store(int64(width))
		last := e.opt.MaxDepth > 0 && depth == e.opt.MaxDepth
		best, beyond := e.expandLevel(nil, last)
		if e.spill.errSet.Load() {
			return nil, e.spill.err
		}
		if res, stop, err := e.levelEnd(best, beyond, last); stop {
			if res != nil || err != nil {
				return res, err
			}
			break
		}
		e.sstore.endLevel()
		if width, err = e.spill.endLevel(); err != nil {
			return nil, err
		}
		if width == 0 {
			break
		}
	}
	return &Result[S]{Verdict: Holds}, nil
}

// runSpill is worker.run for a spilling search: it claims chunks of the frontier file
// in order, decodes them, expands them and hands what it stored to the next level's
// writer.
func (w *worker[S]) runSpill(chunk int64, last bool) {
	e, sp := w.e, w.e.spill
	nodes := w.nodes
	if w.chunk == nil {
		w.chunk = &spillChunk{}
	}
	for !e.stopped.Load() {
		var lo uint64
		lo, w.window, w.wends = sp.claim(uint64(chunk), w.window, w.wends)
		if sp.errSet.Load() {
			e.stop("spill error")
			break
		}
		if len(w.wends) == 0 {
			break
		}
		w.chunk.lo, w.chunk.n = lo, uint64(len(w.wends))
		if fd, ok := e.m.(FrontierDecoder[S]); ok {
			// The files hold encodings this search wrote: each state is rebuilt in the
			// worker's scratch and expanded at once, none allocated per entry.
			start := uint32(0)
			for k, end := range w.wends {
				s := fd.DecodeInto(w.window[start:end], &w.scratch)
				w.expand(s, sp.base+lo+uint64(k), lo+uint64(k), last)
				start = end
			}
		} else {
			nodes = nodes[:0]
			start := uint32(0)
			for k, end := range w.wends {
				s, err := e.decoder.Decode(w.window[start:end])
				if err != nil {
					sp.fail(fmt.Errorf("checker: the model's Decode refused the encoding of frontier state %d at depth %d: %w", lo+uint64(k), e.depth, err))
					e.stop("spill error")
					w.nodes = nodes
					return
				}
				nodes = append(nodes, node[S]{state: s, id: sp.base + lo + uint64(k)})
				start = end
			}
			for k := range nodes {
				w.expand(nodes[k].state, nodes[k].id, lo+uint64(k), last)
			}
		}
		if !last {
			w.chunk = sp.submit(e.sstore, w.chunk)
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
	w.nodes = nodes
	e.store.states.Add(w.pending)
	w.pending = 0
}

// store stores a successor, found by the transition of key k from state parentID, in
// the visited set in use (st, the memory store, unless the search spills) and reports
// whether it is new. It is the successor loops' one call per transition, so it calls
// the store that takes the successor directly.
func (w *worker[S]) store(st *store[S], h uint64, enc []byte, k key, parentID uint64, a Action, s S) bool {
	switch {
	case w.e.sstore != nil:
		return w.spillInsert(h, enc, k)
	case w.loc != nil:
		return st.insertShared(h, enc, packRecord(parentID, k.trans), a, s, w.loc)
	}
	return st.insert(h, enc, packRecord(parentID, k.trans), a, s)
}

// spillInsert stores a successor in the spilling store and reports whether it is new.
func (w *worker[S]) spillInsert(h uint64, enc []byte, k key) bool {
	e := w.e
	st, si, idx := e.sstore.insert(h, enc, k)
	if st != spillDup {
		w.chunk.add(k, si, idx, enc)
	}
	return st == spillNew
}

// contains reports whether a successor is stored in the visited set in use.
func (w *worker[S]) contains(h uint64, enc []byte) bool {
	if w.e.sstore == nil {
		return w.e.store.contains(h, enc)
	}
	return w.e.sstore.contains(h, enc)
}

// record returns the parent record of state id, from memory or the parents file.
func (e *explorer[S]) record(id uint64) (parentRecord, error) {
	if e.spill == nil {
		return e.store.record(id), nil
	}
	return e.spill.record(id)
}

// count returns the number of stored states; not concurrently with insert.
func (e *explorer[S]) count() int64 {
	if e.sstore == nil {
		return e.store.count()
	}
	return e.sstore.count()
}

// touch reads the home slot of each fingerprint in hs in the visited set in use, one
// independent load each, so that their cache misses overlap; the lookups that follow
// then mostly hit the cache. The shared table is read with atomic loads, since other
// workers write it; the spilling store is locked then, and is not touched.
func (w *worker[S]) touch(hs []uint64) {
	e := w.e
	var x uint64
	switch {
	case e.sstore != nil:
		if e.sstore.locked {
			return
		}
		for _, h := range hs {
			sh := &e.sstore.shards[shardOf(h)]
			x += sh.hashes[h&uint64(len(sh.hashes)-1)]
		}
	default:
		if w.loc != nil {
			for _, h := range hs {
				sh := &e.store.shards[shardOf(h)]
				x += atomic.LoadUint64(&sh.tab[h&uint64(len(sh.tab)>>1-1)<<1])
			}
			break
		}
		for _, h := range hs {
			x += e.store.shards[shardOf(h)].home(h)
		}
	}
	w.touched += x
}
