package checker

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"testing"
)

// TestUnhashWord checks that unhashWord inverts xxhashWord, and what the packer relies
// on: the preimages of 0 and 1 (fixHash's reserved values) have more than packBits bits,
// so no packed word hashes to either.
func TestUnhashWord(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 10000 {
		v := r.Uint64() >> (i % 64)
		if got := unhashWord(xxhashWord(v)); got != v {
			t.Fatalf("unhashWord(xxhashWord(%#x)) = %#x", v, got)
		}
	}
	for _, h := range []uint64{0, 1} {
		if z := unhashWord(h); bits.Len64(z) <= packBits || xxhashWord(z) != h {
			t.Fatalf("the preimage of %d is %#x (%d bits); it must have more than %d", h, z, bits.Len64(z), packBits)
		}
	}
}

// TestPackerStore drives the Exact store's packer through every case: encodings of the
// packer's length whose varying bits grow (widen and re-key, with states stored under
// the old layout), then more varying bits than a packed word holds (frozen: those keep
// their bytes), then states of the packer's length inside its bits (packed) and outside
// them (bytes), and 8-byte encodings (never word-keyed beside a packer). Every encoding
// must be new exactly once and found afterwards, and the count must be exact.
func TestPackerStore(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	var encs [][]byte
	add := func(b []byte) { encs = append(encs, b) }
	for i := range 2000 { // 10 bytes, varying in more and more low bits
		add(binary.LittleEndian.AppendUint16(binary.LittleEndian.AppendUint64(nil, uint64(i)*uint64(i)), 7))
	}
	for range 500 { // scrambled: too many varying bits
		add(binary.LittleEndian.AppendUint16(binary.LittleEndian.AppendUint64(nil, r.Uint64()), uint16(r.Uint32())))
	}
	for i := range 500 { // inside the bits learned before the freeze, then 8 bytes
		add(binary.LittleEndian.AppendUint16(binary.LittleEndian.AppendUint64(nil, uint64(i)), 7))
		add(binary.LittleEndian.AppendUint64(nil, uint64(i)*uint64(i)))
	}
	st := newStore[int](true, 1, false, false)
	st.begin(1)
	st.pk = newPacker(encs[0])
	var word [8]byte
	want := map[string]bool{}
	for round := range 2 {
		for i, enc := range encs {
			h, key, isWord := st.keyOf(enc, &word)
			isNew := st.insertKey(h, key, isWord, packRecord(uint64(i), 0), 0, i)
			if isNew != (round == 0 && !want[string(enc)]) {
				t.Fatalf("round %d: encoding %d (%x) new=%v", round, i, enc, isNew)
			}
			want[string(enc)] = true
			if h, key, isWord := st.keyOf(enc, &word); !st.containsKey(h, key, isWord) {
				t.Fatalf("encoding %d not found after insert", i)
			}
		}
		if !st.pk.frozen || st.pk.used == 0 {
			t.Fatalf("packer frozen=%v with %d bits; the scrambled encodings must freeze it", st.pk.frozen, st.pk.used)
		}
	}
	if got := st.count(); got != int64(len(want)) {
		t.Fatalf("%d states, want %d", got, len(want))
	}
}

// TestPackerStoreRandom inserts random encodings, near the packer's length and bit
// budget, into a packing store and checks each insert's novelty and the count against a
// map: a packed key that lost a bit would take two encodings for one. After the first
// encodings have spread over most of the flippable bits, the others differ from ref in
// one or two bits, so that two encodings that differ in one bit are frequent.
func TestPackerStoreRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for trial := range 200 {
		n := 1 + r.IntN(26)
		ref := make([]byte, n)
		for i := range ref {
			ref[i] = byte(r.Uint32())
		}
		// Per byte, a random mask of about 3 bits that may flip: up to about 78 bits
		// in all, across the packer's budget.
		flip := make([]byte, n)
		for i := range flip {
			flip[i] = byte(r.Uint32()) & byte(r.Uint32()|r.Uint32())
		}
		st := newStore[int](true, 1, false, false)
		st.begin(1)
		st.pk = newPacker(ref)
		seen := map[string]bool{}
		var word [8]byte
		for k := range 3000 {
			enc := append([]byte(nil), ref...)
			if k%50 == 49 {
				enc = append(enc, 1) // another length now and then
			}
			if k < 100 { // learn most of the bits
				for i := range n {
					enc[i] ^= byte(r.Uint32()) & flip[i]
				}
			} else { // then differ from ref in one or two of them, so that a lost bit shows
				for range 1 + r.IntN(2) {
					i := r.IntN(n)
					enc[i] ^= flip[i] & (1 << r.IntN(8))
				}
			}
			h, key, isWord := st.keyOf(enc, &word)
			if got := st.insertKey(h, key, isWord, packRecord(uint64(k), 0), 0, k); got != !seen[string(enc)] {
				t.Fatalf("trial %d: encoding %x new=%v, seen before=%v", trial, enc, got, seen[string(enc)])
			}
			seen[string(enc)] = true
		}
		if got := st.count(); got != int64(len(seen)) {
			t.Fatalf("trial %d: %d states, want %d", trial, got, len(seen))
		}
	}
}

// TestEdgeClasses: the liveness graph's class ids read back as written, across the
// switch from two bytes an edge to four.
func TestEdgeClasses(t *testing.T) {
	var c edgeClasses
	const n = 70000
	for e := range n {
		c.add(uint32(e % (n - 1000)))
	}
	if c.wide == nil {
		t.Fatal("ids past 65535 did not widen the classes")
	}
	for e := range n {
		if got := c.at(e); got != uint32(e%(n-1000)) {
			t.Fatalf("edge %d: class %d, want %d", e, got, e%(n-1000))
		}
	}
}
