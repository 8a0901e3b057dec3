package checker

import (
	"bytes"
	"sync"
	"sync/atomic"
	"unsafe"
)

// arena keeps, in Exact mode, the encodings of the states that are not word-keyed, in
// pages of words that are never moved, so that several workers may append to it and
// read it at once. An entry is a key word (the state's least key in its level, lowered
// atomically by several workers), the encoding's length and the encoding, padded to a
// word. A reference to an entry is (page + 1) << 32 | word offset, never 0 (which marks
// a slot whose value is not written yet) and never with wordTag.
//
// Each worker fills a page of its own (arenaTail) and takes a new one under mu when it
// is full, so appends take no lock; entries are written before the slot that refers to
// them is published (an atomic store), and only their key word changes afterwards.
type arena struct {
	mu    sync.Mutex
	pages *[arenaPages][]uint64 // allocated at the first entry
	n     int                   // pages handed out
	ctr   *atomic.Int64         // the store's byte count, which the pages add to
}

// arenaPages bounds the number of pages; page k has 1<<min(10+k, 24) words or more, so
// the arena holds hundreds of gigabytes.
const arenaPages = 4096

// arenaTail is the page a worker appends its entries to.
type arenaTail struct {
	page []uint64
	id   uint64 // its index in arena.pages
	pos  int    // first free word
}

// put appends an entry with key k and encoding enc through t and returns its reference.
func (a *arena) put(t *arenaTail, k uint64, enc []byte) uint64 {
	need := 2 + (len(enc)+7)/8
	if t.page == nil || t.pos+need > len(t.page) {
		a.newPage(t, need)
	}
	off := t.pos
	t.page[off] = k
	t.page[off+1] = uint64(len(enc))
	copy(wordBytes(t.page[off+2:off+need]), enc)
	t.pos += need
	return (t.id+1)<<32 | uint64(off)
}

// newPage gives t a fresh page of at least need words.
func (a *arena) newPage(t *arenaTail, need int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.pages == nil {
		a.pages = new([arenaPages][]uint64)
	}
	if a.n == arenaPages {
		panic("checker: the Exact store's arena is full (more than 500 GB of encodings)")
	}
	size := max(need, 1<<min(10+a.n, 24))
	p := make([]uint64, size)
	a.pages[a.n] = p
	t.page, t.id, t.pos = p, uint64(a.n), 0
	a.n++
	a.ctr.Add(int64(size) * 8)
}

// entry returns the words of the entry at ref, from its key word on.
func (a *arena) entry(ref uint64) []uint64 {
	return a.pages[ref>>32-1][uint32(ref):]
}

// keyWord returns the address of the key word of the entry at ref.
func (a *arena) keyWord(ref uint64) *uint64 { return &a.entry(ref)[0] }

// equal reports whether the entry at ref holds encoding enc.
func (a *arena) equal(ref uint64, enc []byte) bool {
	e := a.entry(ref)
	n := e[1]
	return n == uint64(len(enc)) && bytes.Equal(wordBytes(e[2 : 2+(n+7)/8])[:n], enc)
}

// wordBytes views words as bytes.
func wordBytes(w []uint64) []byte {
	if len(w) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&w[0])), 8*len(w))
}
