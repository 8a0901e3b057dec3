package flit

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"sync"
	"sync/atomic"
)

// Bytes is a short byte sequence held by a state without a pointer: a virtual channel's
// flit buffer (VC.Flits) or a message's delivery counts (Msg.Got). Runs of consecutive
// values (a worm's flits, a single count) are packed into the handle itself; other
// sequences are interned in the Table of the model whose states hold them, so equal
// sequences have equal handles within one model. The zero Bytes is the empty sequence.
// States built from Bytes are pointer-free, so the garbage collector neither scans nor
// write-barriers them. A handle means something only with its model's table: read it
// with Slice, Len and At given Model.Table().
type Bytes uint32

// Outs is a sorted set of outputs (an Input's reserved outputs) held without a pointer,
// like Bytes: a single output is packed into the handle, larger sets are interned in the
// model's Table. The zero Outs is the empty set.
type Outs uint32

const (
	interned = 1 << 31
	// MaxInterned is how many sequences one model's table holds of each kind (byte
	// sequences, output sets): the handles' 31 index bits. Each interned sequence costs
	// at least 40 bytes, so a table this full needs more than 80 GiB and the memory
	// budget stops a search long before; a table that fills anyway makes the model's
	// Err return ErrTableFull instead of panicking.
	MaxInterned = 1<<31 - 1
	// chunk k of a table holds the sequences with indices firstChunk*(2^k-1) ..
	// firstChunk*(2^(k+1)-1)-1, so a small model's table costs a few hundred bytes.
	firstChunkLog = 6
	numChunks     = 32 - firstChunkLog
)

// ErrTableFull is the error Model.Err wraps when the model's interning table has no
// index left: the states built after it are not faithful, so the search that met it must
// be reported inconclusive.
var ErrTableFull = errors.New("flit: the interning table of the model is full")

// Table interns the sequences of one model's states (Bytes and Outs that do not fit in
// their handle). It belongs to one Model (Model.Table) and is freed with it; Bytes
// reports its size for the memory budget. Reads by index are lock-free; inserts and
// lookups by content take a lock, except lookups of worm-local states (localSet), which
// are lock-free. Safe for concurrent use.
type Table struct {
	bytes intern[uint8]
	outs  intern[Out]
	worms []localSet // per message, its worm-local states (Model.Encode)
}

// NewTable returns an empty table (for states built without a model, e.g. in tests).
func NewTable() *Table { return &Table{} }

// Bytes returns the table's approximate size in bytes: the sequences, their index and
// their content-keyed map.
func (t *Table) Bytes() int64 {
	n := t.bytes.size.Load() + t.outs.size.Load()
	for i := range t.worms {
		n += t.worms[i].size.Load()
	}
	return n
}

// Len returns how many sequences the table holds.
func (t *Table) Len() int {
	n := int(t.bytes.n.Load() + t.outs.n.Load())
	for i := range t.worms {
		n += int(t.worms[i].n.Load())
	}
	return n
}

// Err returns ErrTableFull once an insert found the table full, else nil.
func (t *Table) Err() error {
	if t.bytes.full.Load() || t.outs.full.Load() {
		return ErrTableFull
	}
	for i := range t.worms {
		if t.worms[i].full.Load() {
			return ErrTableFull
		}
	}
	return nil
}

// intern is an append-only table of sequences: lock-free reads by index, inserts and
// lookups by content under a lock.
type intern[T any] struct {
	mu     sync.RWMutex
	byKey  map[string]uint32
	n      atomic.Uint32
	size   atomic.Int64
	full   atomic.Bool
	limit  uint32 // capacity; 0 means MaxInterned (tests set less to reach a full table)
	chunks [numChunks]atomic.Pointer[[][]T]
}

// locate returns the chunk of index i and its offset there.
func locate(i uint32) (int, uint32) {
	q := uint64(i)>>firstChunkLog + 1
	k := bits.Len64(q) - 1
	return k, i - uint32((uint64(1)<<k-1)<<firstChunkLog)
}

func (t *intern[T]) get(i uint32) []T {
	k, off := locate(i)
	return (*t.chunks[k].Load())[off]
}

// put returns the index of the sequence with the given key, adding it (as a copy made by
// clone) if it is new. When the table is full it records that (see Table.Err) and
// returns index 0, so the caller's state is wrong but well-formed.
func (t *intern[T]) put(key []byte, clone func() []T, elem int) uint32 {
	t.mu.RLock()
	i, ok := t.byKey[string(key)]
	t.mu.RUnlock()
	if ok {
		return i
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if i, ok := t.byKey[string(key)]; ok {
		return i
	}
	if t.byKey == nil {
		t.byKey = map[string]uint32{}
	}
	i = t.n.Load()
	if i >= MaxInterned || t.limit > 0 && i >= t.limit {
		t.full.Store(true)
		return 0
	}
	k, off := locate(i)
	c := t.chunks[k].Load()
	if c == nil {
		s := make([][]T, uint64(1)<<(k+firstChunkLog))
		c = &s
		t.chunks[k].Store(c)
		t.size.Add(int64(len(s)) * 24)
	}
	v := clone()
	(*c)[off] = v // published by the map insert and the caller's lock release
	t.byKey[string(key)] = i
	t.n.Store(i + 1)
	// The sequence, its map key and a map entry (key header, value, overhead).
	t.size.Add(int64(len(v)*elem) + int64(len(key)) + 48)
	return i
}

// singleOuts[o+1] = o for o in Eject..MaxVirtualChannels-1 (read-only).
var singleOuts = func() []Out {
	a := make([]Out, MaxVirtualChannels+1)
	for i := range a {
		a[i] = Out(i - 1)
	}
	return a
}()

// MakeBytes returns the handle of b (which it does not retain).
func (t *Table) MakeBytes(b []uint8) Bytes {
	n := len(b)
	if n == 0 {
		return 0
	}
	run := n < 256 && int(b[0])+n <= 256
	for i := 1; run && i < n; i++ {
		run = int(b[i]) == int(b[0])+i
	}
	if run {
		return Bytes(uint32(b[0])<<8 | uint32(n))
	}
	i := t.bytes.put(b, func() []uint8 { return append([]uint8(nil), b...) }, 1)
	return Bytes(interned | i)
}

// Slice returns the sequence; it is shared and must not be modified.
func (b Bytes) Slice(t *Table) []uint8 {
	if b&interned != 0 {
		return t.bytes.get(uint32(b &^ interned))
	}
	f, n := int(b>>8)&0xff, int(b)&0xff
	return seq[f : f+n : f+n]
}

// Len returns the length of the sequence.
func (b Bytes) Len(t *Table) int {
	if b&interned != 0 {
		return len(t.bytes.get(uint32(b &^ interned)))
	}
	return int(b) & 0xff
}

// At returns element i of the sequence.
func (b Bytes) At(t *Table, i int) uint8 {
	if b&interned != 0 {
		return t.bytes.get(uint32(b &^ interned))[i]
	}
	return uint8(int(b>>8)&0xff + i)
}

// push returns b with f appended.
func (b Bytes) push(t *Table, f uint8) Bytes {
	if b&interned == 0 {
		first, n := int(b>>8)&0xff, int(b)&0xff
		if n == 0 {
			return Bytes(uint32(f)<<8 | 1)
		}
		if int(f) == first+n && n < 255 {
			return b + 1
		}
	}
	s := b.Slice(t)
	var tmp [64]uint8
	u := append(append(tmp[:0], s...), f)
	return t.MakeBytes(u)
}

// pop returns b without its first element.
func (b Bytes) pop(t *Table) Bytes {
	if b&interned == 0 {
		n := int(b) & 0xff
		if n <= 1 {
			return 0
		}
		return Bytes(uint32(int(b>>8)&0xff+1)<<8 | uint32(n-1))
	}
	return t.MakeBytes(b.Slice(t)[1:])
}

// bump returns b with element i incremented.
func (b Bytes) bump(t *Table, i int) Bytes {
	if b&interned == 0 && int(b)&0xff == 1 && int(b>>8)&0xff < 255 {
		return b + 1<<8
	}
	s := b.Slice(t)
	var tmp [64]uint8
	u := append(tmp[:0], s...)
	u[i]++
	return t.MakeBytes(u)
}

// MakeOuts returns the handle of the set outs, which must be sorted ascending without
// duplicates (it is not retained).
func (t *Table) MakeOuts(outs []Out) Outs {
	switch len(outs) {
	case 0:
		return 0
	case 1:
		return Outs(uint32(outs[0] + 2))
	}
	var tmp [256]byte
	key := tmp[:0]
	for _, o := range outs {
		key = binary.LittleEndian.AppendUint32(key, uint32(o))
	}
	i := t.outs.put(key, func() []Out { return append([]Out(nil), outs...) }, 4)
	return Outs(interned | i)
}

// singleOut returns the handle of the set {o}.
func singleOut(o Out) Outs { return Outs(uint32(o + 2)) }

// Slice returns the outputs, ascending; the slice is shared and must not be modified.
func (o Outs) Slice(t *Table) []Out {
	switch {
	case o == 0:
		return nil
	case o&interned != 0:
		return t.outs.get(uint32(o &^ interned))
	}
	i := int(o) - 1
	return singleOuts[i : i+1 : i+1]
}

// Len returns the number of outputs.
func (o Outs) Len(t *Table) int {
	switch {
	case o == 0:
		return 0
	case o&interned != 0:
		return len(t.outs.get(uint32(o &^ interned)))
	}
	return 1
}

// At returns output i.
func (o Outs) At(t *Table, i int) Out {
	if o&interned == 0 {
		return Out(int32(o) - 2)
	}
	return t.outs.get(uint32(o &^ interned))[i]
}

// String renders a packed sequence like a []uint8, an interned one by its index (its
// contents are in the model's table).
func (b Bytes) String() string {
	if b&interned != 0 {
		return fmt.Sprintf("bytes#%d", uint32(b&^interned))
	}
	return fmt.Sprint(b.Slice(nil))
}

// String renders a packed set like a []Out, an interned one by its index.
func (o Outs) String() string {
	if o&interned != 0 {
		return fmt.Sprintf("outs#%d", uint32(o&^interned))
	}
	return fmt.Sprint(o.Slice(nil))
}
