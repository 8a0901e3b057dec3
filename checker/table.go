package checker

import (
	"sync"
	"sync/atomic"
	"unsafe"
)

// A shard's table grows by doubling, or before a level by as many doublings as the
// level is expected to need, into a new table. A new table's pages are fresh memory
// that the kernel must fault in, and the first touch of each is a probe's read: left to
// itself a page would fault twice, in as the shared zero page and again at the first
// write. So the pages of a large new table are made present first, in one call
// (commit), before the states are rehashed into it; with several workers, they grow
// the shards side by side (growShards). Faulting pages in by probing reads, two threads
// at once took four times the CPU of one on the VMs we measure on; committed, they
// share the work.

// committedFrom is the size in bytes from which a new table's pages are committed
// before use. It is a variable only so that this package's tests commit small tables
// (export_test.go).
var committedFrom = 64 << 10

// grow gives shard sh a table of slots slots (a power of two, not less than it has),
// holding the same states. No other goroutine may use the shard meanwhile.
func (sh *shard) grow(slots int) {
	if words := slots << sh.wide; words != len(sh.tab) {
		tab := newTable(words)
		rehash(tab, sh.tab, sh.wide)
		sh.tab = tab
	}
}

// newTable returns a zeroed table of words words, its pages present if it is large.
func newTable(words int) []uint64 {
	tab := make([]uint64, words)
	if words*8 >= committedFrom {
		// The whole pages of tab: a large allocation starts on a page, but say so.
		b := unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(tab))), words*8)
		const page = 4096
		start := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
		lo, hi := (page-start%page)%page, uintptr(len(b))-(start+uintptr(len(b)))%page
		if lo < hi {
			commit(b[lo:hi])
		}
	}
	return tab
}

// rehash puts the states of table from (slots of 1<<w words, fingerprint first) into
// the empty table to, a power of two of slots that is at least from's.
func rehash(to, from []uint64, w uint8) {
	if w == 0 {
		rehashWords(to, from, nil)
		return
	}
	mask := uint64(len(to)>>1 - 1)
	for j := 0; j+1 < len(from); j += 2 {
		if h := from[j]; h != 0 {
			i := h & mask
			for to[2*i] != 0 {
				i = (i + 1) & mask
			}
			to[2*i], to[2*i+1] = h, from[j+1]
		}
	}
}

// rehashWords puts the fingerprints of table from (one word a slot) into the empty
// table to, a power of two of slots that is at least from's, and calls move(j, i) for
// each, if move is not nil, with its slots in from and in to, so that a caller moves the
// values it keeps beside them.
func rehashWords(to, from []uint64, move func(from, to int)) {
	mask := uint64(len(to) - 1)
	for j, h := range from {
		if h == 0 {
			continue
		}
		i := h & mask
		for to[i] != 0 {
			i = (i + 1) & mask
		}
		to[i] = h
		if move != nil {
			move(j, int(i))
		}
	}
}

// widen gives the slots of a shard of word-keyed states (one worker) values, for its
// first arena entry: its slots get wordTag. Slots keep their places.
func (sh *shard) widen() {
	tab := newTable(2 * len(sh.tab))
	for i, h := range sh.tab {
		if h != 0 {
			tab[2*i], tab[2*i+1] = h, wordTag
		}
	}
	sh.tab, sh.wide = tab, 1
}

// growShards grows every shard i of st with want[i] != 0 to want[i] slots, with up to
// workers goroutines, each growing whole shards. No worker may use the table
// meanwhile.
func (st *store[S]) growShards(want *[1 << shardBits]int, workers int) {
	inTurn(len(want), workers, func(i int) {
		if want[i] != 0 {
			st.shards[i].grow(want[i])
		}
	})
	for i := range st.shards {
		st.account(&st.shards[i])
	}
}

// inTurn calls do(i) for every i < n, on the calling goroutine and on goroutines-1
// others, each claiming the next i when it is done with its last. The caller starts at
// once, and a goroutine that starts late (waking a parked thread is slow next to a
// small part) claims fewer, so no one waits for it.
func inTurn(n, goroutines int, do func(i int)) {
	var next atomic.Int32
	work := func() {
		for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
			do(i)
		}
	}
	var wg sync.WaitGroup
	for range min(goroutines, n) - 1 {
		wg.Go(work)
	}
	work()
	wg.Wait()
}
