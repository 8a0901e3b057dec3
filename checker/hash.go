package checker

import (
	"encoding/binary"
	"math/bits"
)

// The xxHash64 primes (Yann Collet, xxHash specification, XXH64).
const (
	xxPrime1 uint64 = 0x9E3779B185EBCA87
	xxPrime2 uint64 = 0xC2B2AE3D27D4EB4F
	xxPrime3 uint64 = 0x165667B19E3779F9
	xxPrime4 uint64 = 0x85EBCA77C2B2AE63
	xxPrime5 uint64 = 0x27D4EB2F165667C5
)

// fingerprint returns the 64-bit fingerprint of a state encoding: xxHash64 with the
// fixed seed 0, so fingerprints, shard placement and therefore every reported number
// are the same on every run and machine (hash/maphash would draw a random seed).
// Cost: O(len(b)), about 1 ns per 8 bytes; it does not allocate.
func fingerprint(b []byte) uint64 {
	if len(b) == 8 {
		return xxhashWord(binary.LittleEndian.Uint64(b))
	}
	return xxhash64(b, 0)
}

// xxhashWord is xxhash64 with seed 0 of the 8 little-endian bytes of v, unrolled: the
// common case of a state packed in a word costs a dozen instructions.
func xxhashWord(v uint64) uint64 {
	h := xxPrime5 + 8
	h ^= xxRound(0, v)
	return xxAvalanche(bits.RotateLeft64(h, 27)*xxPrime1 + xxPrime4)
}

// xxhash64 is the reference XXH64 algorithm over b with the given seed.
func xxhash64(b []byte, seed uint64) uint64 {
	n := len(b)
	var h uint64
	if n >= 32 {
		v1 := seed + xxPrime1 + xxPrime2
		v2 := seed + xxPrime2
		v3 := seed
		v4 := seed - xxPrime1
		for len(b) >= 32 {
			v1 = xxRound(v1, binary.LittleEndian.Uint64(b[0:8]))
			v2 = xxRound(v2, binary.LittleEndian.Uint64(b[8:16]))
			v3 = xxRound(v3, binary.LittleEndian.Uint64(b[16:24]))
			v4 = xxRound(v4, binary.LittleEndian.Uint64(b[24:32]))
			b = b[32:]
		}
		h = bits.RotateLeft64(v1, 1) + bits.RotateLeft64(v2, 7) +
			bits.RotateLeft64(v3, 12) + bits.RotateLeft64(v4, 18)
		h = xxMerge(h, v1)
		h = xxMerge(h, v2)
		h = xxMerge(h, v3)
		h = xxMerge(h, v4)
	} else {
		h = seed + xxPrime5
	}
	h += uint64(n)
	for len(b) >= 8 {
		h ^= xxRound(0, binary.LittleEndian.Uint64(b[:8]))
		h = bits.RotateLeft64(h, 27)*xxPrime1 + xxPrime4
		b = b[8:]
	}
	if len(b) >= 4 {
		h ^= uint64(binary.LittleEndian.Uint32(b[:4])) * xxPrime1
		h = bits.RotateLeft64(h, 23)*xxPrime2 + xxPrime3
		b = b[4:]
	}
	for _, c := range b {
		h ^= uint64(c) * xxPrime5
		h = bits.RotateLeft64(h, 11) * xxPrime1
	}
	return xxAvalanche(h)
}

// xxAvalanche is XXH64's final mix.
func xxAvalanche(h uint64) uint64 {
	h ^= h >> 33
	h *= xxPrime2
	h ^= h >> 29
	h *= xxPrime3
	h ^= h >> 32
	return h
}

func xxRound(acc, input uint64) uint64 {
	acc += input * xxPrime2
	acc = bits.RotateLeft64(acc, 31)
	return acc * xxPrime1
}

func xxMerge(acc, val uint64) uint64 {
	acc ^= xxRound(0, val)
	return acc*xxPrime1 + xxPrime4
}
