package banyan

import (
	"fmt"
	"math"
	"math/bits"

	"github.com/wormcheck/wormcheck/model/topology"
)

// PathTable holds the unicast path of every (source, destination) pair of a banyan as a
// bitset over its channels, so that a pattern of unicasts is checked for blocking with a
// few word operations per packet. It is the optimised twin of topology.Banyan.FirstConflict
// (TestPathTableAgreesWithNaive cross-checks them). Building it costs O(N^2 n).
type PathTable struct {
	b     *topology.Banyan
	n     int
	words int
	bits  []uint64
}

// PathTableBytes is the size of b's path table: N^2 bitsets of one bit per channel. It
// grows as N^2 N log N (banyan:1024 about 1.4 GiB, banyan:4096 about 110 GiB); ok is
// false when it does not fit in an int64.
func PathTableBytes(b *topology.Banyan) (bytes int64, ok bool) {
	n, w := int64(b.Nodes()), int64(b.Channels()+63)/64
	if n > 0 && (n > math.MaxInt64/n || w > math.MaxInt64/8/(n*n)) {
		return 0, false
	}
	return n * n * w * 8, true
}

// NewPathTable precomputes the path bitsets of b. It refuses, with an error saying
// why, a table larger than maxBytes (0: any size an int64 can count), so that a large
// banyan is a message rather than an exhausted machine.
func NewPathTable(b *topology.Banyan, maxBytes int64) (*PathTable, error) {
	size, ok := PathTableBytes(b)
	if !ok || (maxBytes > 0 && size > maxBytes) {
		return nil, fmt.Errorf("banyan:%d: the path table needs %s, more than the memory budget of %s", b.Nodes(), mib(size, ok), mib(maxBytes, true))
	}
	n := b.Nodes()
	w := (b.Channels() + 63) / 64
	t := &PathTable{b: b, n: n, words: w, bits: make([]uint64, n*n*w)}
	for s := 0; s < n; s++ {
		for d := 0; d < n; d++ {
			row := t.path(s, d)
			for _, c := range b.Route(s, d) {
				row[c/64] |= 1 << (uint(c) % 64)
			}
		}
	}
	return t, nil
}

// mib writes a byte count in MiB for a message ("beyond int64" when !ok).
func mib(b int64, ok bool) string {
	if !ok {
		return "more bytes than an int64 counts"
	}
	return fmt.Sprintf("%d MiB", (b+1<<20-1)>>20)
}

// Banyan returns the network the table was built for.
func (t *PathTable) Banyan() *topology.Banyan { return t.b }

func (t *PathTable) path(s, d int) []uint64 {
	o := (s*t.n + d) * t.words
	return t.bits[o : o+t.words]
}

// Conflict reports whether the unicasts s1->d1 and s2->d2 share a channel.
func (t *PathTable) Conflict(s1, d1, s2, d2 int) bool {
	p, q := t.path(s1, d1), t.path(s2, d2)
	for i := range p {
		if p[i]&q[i] != 0 {
			return true
		}
	}
	return false
}

// SharedLink returns the first channel (lowest id) the two unicasts share, or -1.
func (t *PathTable) SharedLink(s1, d1, s2, d2 int) topology.ChannelID {
	p, q := t.path(s1, d1), t.path(s2, d2)
	for i := range p {
		if x := p[i] & q[i]; x != 0 {
			return topology.ChannelID(i*64 + bits.TrailingZeros64(x))
		}
	}
	return -1
}

// Scratch is reusable accumulator space for Blocks; one per goroutine.
type Scratch []uint64

// NewScratch returns accumulator space for t.
func (t *PathTable) NewScratch() Scratch { return make(Scratch, t.words) }

// Blocks reports whether the unicasts srcs[k] -> dsts[k] (k < len(srcs)) block, and if so
// the indices a < b of a conflicting pair (b is the first packet whose path meets an
// earlier one). Cost O(k * words) when nothing blocks.
func (t *PathTable) Blocks(srcs, dsts []int, acc Scratch) (a, b int, blocked bool) {
	clear(acc)
	for k := range srcs {
		p := t.path(srcs[k], dsts[k])
		hit := false
		for i := range p {
			if acc[i]&p[i] != 0 {
				hit = true
			}
			acc[i] |= p[i]
		}
		if hit {
			for j := 0; j < k; j++ {
				if t.Conflict(srcs[j], dsts[j], srcs[k], dsts[k]) {
					return j, k, true
				}
			}
		}
	}
	return 0, 0, false
}
