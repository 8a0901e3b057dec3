package checker

import (
	"bytes"
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
