package flit

import (
	"encoding/binary"
	"sync/atomic"
)

// localSet is the table of one worm's local states (Model.Encode): an intern table of
// byte sequences whose lookups by content take no lock. A lookup probes an
// open-addressing index of packed words (the key's hash in the high half, its sequence's
// index plus one in the low half), loaded atomically, and compares the key with the
// sequence stored there; only a key it does not find takes the lock, which inserts it.
// Inserts publish the sequence (in the intern's chunks) before the word that names it,
// and a grown index before it is used, so a reader sees either nothing (and falls back
// to the lock) or a complete entry. This is the explorer's hottest lookup (once per
// successor: EncodeSuccessors), where a Go map under a read lock cost twice as much.
type localSet struct {
	intern[uint8]
	index atomic.Pointer[localIndex]
	// decs[k][off] is the decoded form of the entry in chunk k at offset off (locate),
	// built on first use by DecodeInto and published atomically.
	decs [numChunks]atomic.Pointer[[]atomic.Pointer[wormDec]]
}

// localIndex is an open-addressing table of packed words, at most half full.
type localIndex struct {
	slots []atomic.Uint64
	mask  uint64
	used  int
}

// localHash hashes a key (a worm's local state, tens of bytes) 8 bytes at a time with
// a multiply-xorshift mix; it need not resist adversaries, only spread the keys.
func localHash(key []byte) uint64 {
	const m1, m2 = 0x9e3779b97f4a7c15, 0xbf58476d1ce4e5b9
	h := uint64(len(key)) * m1
	for len(key) >= 8 {
		h = (h ^ binary.LittleEndian.Uint64(key)) * m2
		h ^= h >> 29
		key = key[8:]
	}
	var tail uint64
	for i, b := range key {
		tail |= uint64(b) << (8 * i)
	}
	h = (h ^ tail) * m1
	h ^= h >> 32
	h *= m2
	return h ^ h>>29
}

// find returns the index of key in x, or false when x does not hold it.
func (t *localSet) find(x *localIndex, key []byte, h uint64) (uint32, bool) {
	tag := h &^ (1<<32 - 1)
	for i := h & x.mask; ; i = (i + 1) & x.mask {
		v := x.slots[i].Load()
		if v == 0 {
			return 0, false
		}
		if v&^(1<<32-1) == tag {
			j := uint32(v) - 1
			if string(t.get(j)) == string(key) {
				return j, true
			}
		}
	}
}

// add returns the index of key (a worm's local state), inserting a copy if it is new.
// When the table is full it records that (Table.Err) and returns index 0.
func (t *localSet) add(key []byte) uint32 {
	h := localHash(key)
	if x := t.index.Load(); x != nil {
		if j, ok := t.find(x, key, h); ok {
			return j
		}
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	x := t.index.Load()
	if x != nil {
		if j, ok := t.find(x, key, h); ok {
			return j
		}
	}
	i := t.n.Load()
	if i >= MaxInterned || t.limit > 0 && i >= t.limit {
		t.full.Store(true)
		return 0
	}
	if x == nil || 2*(x.used+1) > len(x.slots) {
		x = t.grow(x)
	}
	k, off := locate(i)
	c := t.chunks[k].Load()
	if c == nil {
		s := make([][]uint8, uint64(1)<<(k+firstChunkLog))
		c = &s
		t.chunks[k].Store(c)
		t.size.Add(int64(len(s)) * 24)
	}
	(*c)[off] = append([]uint8(nil), key...)
	t.n.Store(i + 1)
	t.size.Add(int64(len(key)))
	t.place(x, h, i)
	return i
}

// place stores the word of index i with hash h in x (under the lock).
func (t *localSet) place(x *localIndex, h uint64, i uint32) {
	s := h & x.mask
	for x.slots[s].Load() != 0 {
		s = (s + 1) & x.mask
	}
	x.slots[s].Store(h&^(1<<32-1) | uint64(i+1))
	x.used++
}

// grow returns an index twice the size of x (or a first one) holding x's entries, and
// publishes it (under the lock). Readers still probing x find what x held and take the
// lock for the rest.
func (t *localSet) grow(x *localIndex) *localIndex {
	n := 64
	if x != nil {
		n = 2 * len(x.slots)
	}
	y := &localIndex{slots: make([]atomic.Uint64, n), mask: uint64(n - 1)}
	if x != nil {
		for s := range x.slots {
			v := x.slots[s].Load()
			if v == 0 {
				continue
			}
			j := uint32(v) - 1
			t.place(y, localHash(t.get(j)), j)
		}
		t.size.Add(-int64(len(x.slots)) * 8)
	}
	t.size.Add(int64(n) * 8)
	t.index.Store(y)
	return y
}
