package checker

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"testing"
)

// TestFingerprintVectors pins xxHash64 (seed 0) to the published test vectors, so the
// fingerprint, and every count and trace that depends on it, cannot drift.
func TestFingerprintVectors(t *testing.T) {
	for _, tc := range []struct {
		in   []byte
		want uint64
	}{
		{[]byte(""), 0xEF46DB3751D8E999},
		{[]byte("a"), 0xD24EC4F1A98C6E5B},
		{[]byte("abc"), 0x44BC2CF5AD770999},
		{[]byte("Hello, World!"), 0xC49AACF8080FE47F},
		{bytes.Repeat([]byte("a"), 32), 0x856E843298F99AD7},
		{bytes.Repeat([]byte("a"), 33), 0x18F3FF0C21E3B24B},
	} {
		if got := fingerprint(tc.in); got != tc.want {
			t.Errorf("fingerprint(%q) = %#x, want %#x", tc.in, got, tc.want)
		}
	}
}

// TestFingerprintInverts8Bytes checks what wordKeyed relies on: XXH64 restricted to
// 8-byte inputs is a bijection, shown by inverting it step by step (each step is a
// multiplication by an odd constant, a rotation, an xor with a constant or an
// xor-shift) on inputs chosen to cover every byte position.
func TestFingerprintInverts8Bytes(t *testing.T) {
	inv := func(a uint64) uint64 { // the inverse of odd a modulo 2^64 (Newton)
		x := a
		for range 6 {
			x *= 2 - a*x
		}
		return x
	}
	unshift := func(h uint64, s uint) uint64 { // inverts h ^= h >> s
		x := h
		for range 64/s + 1 {
			x = h ^ x>>s
		}
		return x
	}
	invert := func(h uint64) uint64 {
		h = unshift(h, 32)
		h *= inv(xxPrime3)
		h = unshift(h, 29)
		h *= inv(xxPrime2)
		h = unshift(h, 33)
		h = bits.RotateLeft64((h-xxPrime4)*inv(xxPrime1), -27)
		h ^= xxPrime5 + 8 // the seed (0) + prime 5 + the length
		return bits.RotateLeft64(h*inv(xxPrime1), -31) * inv(xxPrime2)
	}
	x := uint64(0x9E3779B97F4A7C15)
	for i := range 10000 {
		v := x
		if i < 64 {
			v = 1 << i
		}
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], v)
		if got, want := fingerprint(b[:]), xxhash64(b[:], 0); got != want {
			t.Fatalf("the fingerprint of %#x is %#x; the general XXH64 gives %#x", v, got, want)
		}
		if got := invert(fingerprint(b[:])); got != v {
			t.Fatalf("the fingerprint of %#x inverts to %#x", v, got)
		}
		x = x*6364136223846793005 + 1442695040888963407
	}
}
