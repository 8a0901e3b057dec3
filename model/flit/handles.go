package flit

import (
	"encoding/binary"
	"fmt"
	"sync"
	"sync/atomic"
)

// Bytes is a short byte sequence held by a state without a pointer: a virtual channel's
// flit buffer (VC.Flits) or a message's delivery counts (Msg.Got). Runs of consecutive
// values (a worm's flits, a single count) are packed into the handle itself; other
// sequences are interned in a process-wide, append-only table, so equal sequences have
// equal handles. The zero Bytes is the empty sequence. States built from Bytes are
// pointer-free, so the garbage collector neither scans nor write-barriers them.
type Bytes uint32

// Outs is a sorted set of outputs (an Input's reserved outputs) held without a pointer,
// like Bytes: a single output is packed into the handle, larger sets are interned. The
// zero Outs is the empty set.
type Outs uint32

const (
	interned = 1 << 31
	chunkLog = 12
	chunkLen = 1 << chunkLog
	maxChunk = 1 << 15
)

// intern is an append-only table of sequences: lock-free reads by index, inserts and
// lookups by content under a lock.
type intern[T any] struct {
	mu     sync.RWMutex
	byKey  map[string]uint32
	n      uint32
	chunks [maxChunk]atomic.Pointer[[chunkLen][]T]
}

func (t *intern[T]) get(i uint32) []T {
	return t.chunks[i>>chunkLog].Load()[i&(chunkLen-1)]
}

// put returns the index of the sequence with the given key, adding it (as a copy made by
// clone) if it is new.
func (t *intern[T]) put(key []byte, clone func() []T) uint32 {
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
	i = t.n
	if i>>chunkLog >= maxChunk {
		panic("flit: interned sequence table is full")
	}
	c := t.chunks[i>>chunkLog].Load()
	if c == nil {
		c = new([chunkLen][]T)
		t.chunks[i>>chunkLog].Store(c)
	}
	c[i&(chunkLen-1)] = clone() // published by the map insert and the caller's lock release
	t.byKey[string(key)] = i
	t.n++
	return i
}

var (
	byteTable intern[uint8]
	outTable  intern[Out]
	// singleOuts[o+1] = o for o in Eject..MaxVirtualChannels-1.
	singleOuts = func() []Out {
		a := make([]Out, MaxVirtualChannels+1)
		for i := range a {
			a[i] = Out(i - 1)
		}
		return a
	}()
)

// MakeBytes returns the handle of b (which it does not retain).
func MakeBytes(b []uint8) Bytes {
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
	i := byteTable.put(b, func() []uint8 { return append([]uint8(nil), b...) })
	return Bytes(interned | i)
}

// Slice returns the sequence; it is shared and must not be modified.
func (b Bytes) Slice() []uint8 {
	if b&interned != 0 {
		return byteTable.get(uint32(b &^ interned))
	}
	f, n := int(b>>8)&0xff, int(b)&0xff
	return seq[f : f+n : f+n]
}

// Len returns the length of the sequence.
func (b Bytes) Len() int {
	if b&interned != 0 {
		return len(byteTable.get(uint32(b &^ interned)))
	}
	return int(b) & 0xff
}

// At returns element i of the sequence.
func (b Bytes) At(i int) uint8 {
	if b&interned != 0 {
		return byteTable.get(uint32(b &^ interned))[i]
	}
	return uint8(int(b>>8)&0xff + i)
}

// push returns b with f appended.
func (b Bytes) push(f uint8) Bytes {
	if b&interned == 0 {
		first, n := int(b>>8)&0xff, int(b)&0xff
		if n == 0 {
			return Bytes(uint32(f)<<8 | 1)
		}
		if int(f) == first+n && n < 255 {
			return b + 1
		}
	}
	s := b.Slice()
	var tmp [64]uint8
	t := append(append(tmp[:0], s...), f)
	return MakeBytes(t)
}

// pop returns b without its first element.
func (b Bytes) pop() Bytes {
	if b&interned == 0 {
		n := int(b) & 0xff
		if n <= 1 {
			return 0
		}
		return Bytes(uint32(int(b>>8)&0xff+1)<<8 | uint32(n-1))
	}
	return MakeBytes(b.Slice()[1:])
}

// bump returns b with element i incremented.
func (b Bytes) bump(i int) Bytes {
	if b&interned == 0 && int(b)&0xff == 1 && int(b>>8)&0xff < 255 {
		return b + 1<<8
	}
	s := b.Slice()
	var tmp [64]uint8
	t := append(tmp[:0], s...)
	t[i]++
	return MakeBytes(t)
}

// MakeOuts returns the handle of the set outs, which must be sorted ascending without
// duplicates (it is not retained).
func MakeOuts(outs []Out) Outs {
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
	i := outTable.put(key, func() []Out { return append([]Out(nil), outs...) })
	return Outs(interned | i)
}

// singleOut returns the handle of the set {o}.
func singleOut(o Out) Outs { return Outs(uint32(o + 2)) }

// Slice returns the outputs, ascending; the slice is shared and must not be modified.
func (o Outs) Slice() []Out {
	switch {
	case o == 0:
		return nil
	case o&interned != 0:
		return outTable.get(uint32(o &^ interned))
	}
	i := int(o) - 1
	return singleOuts[i : i+1 : i+1]
}

// Len returns the number of outputs.
func (o Outs) Len() int {
	switch {
	case o == 0:
		return 0
	case o&interned != 0:
		return len(outTable.get(uint32(o &^ interned)))
	}
	return 1
}

// At returns output i.
func (o Outs) At(i int) Out {
	if o&interned == 0 {
		return Out(int32(o) - 2)
	}
	return outTable.get(uint32(o &^ interned))[i]
}

// String renders the sequence like a []uint8.
func (b Bytes) String() string { return fmt.Sprint(b.Slice()) }

// String renders the outputs like a []Out.
func (o Outs) String() string { return fmt.Sprint(o.Slice()) }
