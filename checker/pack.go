package checker

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// A model held to the basic contract hands the explorer only its encodings, and an
// encoding longer than a word is kept in the Exact store's arena (two words of header
// and the padded bytes) beside a two-word slot. Yet such encodings usually vary in few
// bits: a byte per packet that counts to 9, a counter in a little-endian int32. A
// packer keys them by a word instead, losslessly, so that they are stored as word-keyed
// states are (a fingerprint a slot, no arena), as a hand-written search packs its states.
//
// The packer takes the length n and the bytes ref of the first initial state's encoding,
// and learns vary, per byte, the bits in which some encoding of length n differs from
// ref. An encoding of length n that agrees with ref outside vary packs into the word of
// its varying bits (pext of enc^ref by vary, byte by byte, in order); the map is
// injective on those encodings, and the word's fingerprint (xxhashWord, a bijection)
// identifies it. Packed words have at most packBits bits, so their fingerprint is never
// 0 or 1 (the preimages of 0 and 1 under xxhashWord have bit lengths 62 and 64:
// hash_test.go), so every packed state is word-keyed.
//
// When an encoding of length n varies in new bits, vary grows and the store re-keys the
// packed states it holds (store.repack: each packed word is recovered from its
// fingerprint by unhashWord and unpacked with the old layout). When the varying bits
// would pass packBits, vary is frozen: from then on an encoding of length n outside it,
// and every encoding of another length, is kept with its bytes in the arena, never
// word-keyed, whatever its length (8 bytes included). A state is therefore always keyed
// the same way: packed if and only if it has length n and lies inside the frozen (or
// final) vary, which contains every vary it was packed under.
type packer struct {
	n     int
	ref   []byte
	vary  []byte
	shift []uint8      // where byte i's varying bits start in the packed word
	tab   [][256]uint8 // tab[i][d]: pext of d by vary[i]
	used  int          // varying bits in all
	low   bool         // every vary byte is a run of low bits (1<<k - 1)
	// frozen is set when vary cannot grow (it would pass packBits).
	frozen bool
}

// packBits bounds the bits of a packed word (see packer).
const packBits = 61

// maxPackLen bounds the encodings a packer takes (its tables cost 257 bytes a byte).
const maxPackLen = 256

// newPacker returns a packer for the encodings of the length of ref, or nil when that
// is 8 bytes (word-keyed as they are) or more than maxPackLen.
func newPacker(ref []byte) *packer {
	if len(ref) == 8 || len(ref) > maxPackLen {
		return nil
	}
	p := &packer{n: len(ref), ref: append([]byte(nil), ref...), vary: make([]byte, len(ref)),
		shift: make([]uint8, len(ref)), tab: make([][256]uint8, len(ref))}
	return p
}

// pack returns the packed word of enc and true, or false when enc has another length or
// differs from ref outside vary. Cost O(len(enc)); it does not allocate.
func (p *packer) pack(enc []byte) (uint64, bool) {
	if len(enc) != p.n {
		return 0, false
	}
	ref, vary, shift, tab := p.ref[:len(enc)], p.vary[:len(enc)], p.shift[:len(enc)], p.tab[:len(enc)]
	var w uint64
	var bad byte
	if p.low {
		// Every vary byte is a run of low bits, so a difference inside it is its own pext.
		for i, b := range enc {
			d := b ^ ref[i]
			bad |= d &^ vary[i]
			w |= uint64(d) << shift[i]
		}
		return w, bad == 0
	}
	for i, b := range enc {
		d := b ^ ref[i]
		bad |= d &^ vary[i]
		w |= uint64(tab[i][d]) << shift[i]
	}
	return w, bad == 0
}

// unpack writes into enc (of length n) the encoding whose packed word is w.
func (p *packer) unpack(w uint64, enc []byte) {
	for i := range p.n {
		v := p.vary[i]
		k := bits.OnesCount8(v)
		enc[i] = p.ref[i] ^ pdep8(byte(w>>p.shift[i])&byte(1<<k-1), v)
	}
}

// widen makes vary cover enc, of length n and outside vary, and reports whether it did:
// it does not when vary is frozen or would pass packBits (then it freezes). Each byte's
// bits are widened to all those below its highest varying bit where that fits, since a
// counter's bits appear one by one and each widening re-keys the store; else just to
// the bits that vary.
func (p *packer) widen(enc []byte) bool {
	if p.frozen || len(enc) != p.n {
		return false
	}
	for _, smear := range []bool{true, false} {
		used := 0
		for i, b := range enc {
			used += bits.OnesCount8(p.widened(i, b, smear))
		}
		if used > packBits {
			continue
		}
		for i, b := range enc {
			p.vary[i] = p.widened(i, b, smear)
		}
		p.layout()
		return true
	}
	p.frozen = true
	return false
}

// widened returns byte i's varying bits once encoding byte b is seen, smeared down to
// bit 0 if smear is set.
func (p *packer) widened(i int, b byte, smear bool) byte {
	v := p.vary[i] | (b ^ p.ref[i])
	if smear && v != 0 {
		v = byte(1<<bits.Len8(v) - 1)
	}
	return v
}

// layout recomputes shift and tab from vary.
func (p *packer) layout() {
	at := 0
	p.low = true
	for i, v := range p.vary {
		p.low = p.low && v&(v+1) == 0
		p.shift[i] = uint8(at)
		for d := range 256 {
			p.tab[i][d] = pext8(byte(d), v)
		}
		at += bits.OnesCount8(v)
	}
	if at > packBits {
		panic(fmt.Sprintf("checker: internal: the packer's layout has %d bits, more than %d", at, packBits))
	}
	p.used = at
}

// clone returns a copy of p that later widenings of p do not change.
func (p *packer) clone() *packer {
	q := *p
	q.vary = append([]byte(nil), p.vary...)
	q.shift = append([]uint8(nil), p.shift...)
	q.tab = append([][256]uint8(nil), p.tab...)
	return &q
}

// pext8 gathers the bits of d selected by mask into the low bits, in order.
func pext8(d, mask byte) byte {
	var out, k byte
	for b := range 8 {
		if mask>>b&1 != 0 {
			out |= (d >> b & 1) << k
			k++
		}
	}
	return out
}

// pdep8 scatters the low bits of x to the positions of mask's bits, in order.
func pdep8(x, mask byte) byte {
	var out, k byte
	for b := range 8 {
		if mask>>b&1 != 0 {
			out |= (x >> k & 1) << b
			k++
		}
	}
	return out
}

// unhashWord inverts xxhashWord: each of its steps is a multiplication by an odd
// constant, a rotation, an addition or xor of a constant, or an xor-shift.
func unhashWord(h uint64) uint64 {
	h = unxorshift(h, 32)
	h *= oddInverse(xxPrime3)
	h = unxorshift(h, 29)
	h *= oddInverse(xxPrime2)
	h = unxorshift(h, 33)
	h = bits.RotateLeft64((h-xxPrime4)*oddInverse(xxPrime1), -27)
	h ^= xxPrime5 + 8 // the seed (0) + prime 5 + the length
	return bits.RotateLeft64(h*oddInverse(xxPrime1), -31) * oddInverse(xxPrime2)
}

// oddInverse returns the inverse of odd a modulo 2^64 (Newton's iteration).
func oddInverse(a uint64) uint64 {
	x := a
	for range 6 {
		x *= 2 - a*x
	}
	return x
}

// unxorshift inverts h ^= h >> s.
func unxorshift(h uint64, s uint) uint64 {
	x := h
	for range 64/s + 1 {
		x = h ^ x>>s
	}
	return x
}

// keyOf returns how the store keys the state with encoding enc: its fingerprint, the
// bytes it is stored and compared by (enc, or its packed word in *word), and whether it
// is word-keyed. With a packer, an encoding that varies in new bits widens it and
// re-keys the store first.
func (st *store[S]) keyOf(enc []byte, word *[8]byte) (uint64, []byte, bool) {
	p := st.pk
	if p == nil {
		h := fixHash(fingerprint(enc))
		return h, enc, st.word(h, enc)
	}
	w, ok := p.pack(enc)
	if !ok {
		old := p.clone()
		if !p.widen(enc) {
			return fixHash(fingerprint(enc)), enc, false
		}
		st.repack(old)
		w, _ = p.pack(enc)
	}
	binary.LittleEndian.PutUint64(word[:], w)
	return xxhashWord(w), word[:], true
}

// repack re-keys the packed states of the store, packed under old, by the packer's
// new layout: their fingerprints change, so every shard is rebuilt. One worker; cost
// O(states).
func (st *store[S]) repack(old *packer) {
	type entry struct{ h, v uint64 }
	var all []entry
	var counts [1 << shardBits]int
	enc := make([]byte, old.n)
	for i := range st.shards {
		sh := &st.shards[i]
		w := sh.wide
		for k := 0; k < len(sh.tab); k += 1 << w {
			h := sh.tab[k]
			if h == 0 {
				continue
			}
			v := uint64(wordTag)
			if w != 0 {
				v = sh.tab[k+1]
			}
			if v&wordTag != 0 {
				old.unpack(unhashWord(h), enc)
				pw, _ := st.pk.pack(enc)
				h = xxhashWord(pw)
			}
			all = append(all, entry{h, v})
			counts[shardOf(h)]++
		}
	}
	var wide [1 << shardBits]bool
	for _, e := range all {
		if e.v&wordTag == 0 {
			wide[shardOf(e.h)] = true
		}
	}
	for i := range st.shards {
		sh := &st.shards[i]
		slots := 16
		for counts[i]*4 >= slots*3 {
			slots *= 2
		}
		sh.wide = 0
		if wide[i] {
			sh.wide = 1
		}
		sh.tab = newTable(slots << sh.wide)
		sh.n = int64(counts[i])
	}
	for _, e := range all {
		sh := &st.shards[shardOf(e.h)]
		w := sh.wide
		mask := uint64(len(sh.tab)>>w - 1)
		i := e.h & mask
		for sh.tab[i<<w] != 0 {
			i = (i + 1) & mask
		}
		sh.tab[i<<w] = e.h
		if w != 0 {
			sh.tab[i<<1+1] = e.v
		}
	}
	for i := range st.shards {
		st.account(&st.shards[i])
	}
}
