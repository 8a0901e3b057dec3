package checker

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestStoreMixesWordsAndArena checks the Exact-mode table on encodings of mixed lengths
// in one shard: word-keyed states (8 bytes, kept as fingerprints alone while the shard
// has no arena entry) stored before and after arena entries (other lengths, which widen
// the slots), with every store kind. Each encoding must be new exactly once, found
// afterwards, and states of different lengths must never be taken for each other, also
// when an 8-byte encoding is a prefix of a longer one.
func TestStoreMixesWordsAndArena(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var encs [][]byte
	for i := range 3000 {
		var b []byte
		switch i % 3 {
		case 0, 1: // words first and most often
			b = binary.LittleEndian.AppendUint64(nil, r.Uint64())
		default:
			b = binary.LittleEndian.AppendUint64(nil, r.Uint64())
			b = append(b, byte(i), byte(i>>8)) // 10 bytes, an 8-byte prefix of its own
			encs = append(encs, b[:8:8])
		}
		encs = append(encs, b)
	}
	for _, c := range []struct{ exact, keyed bool }{{true, false}, {true, true}, {false, false}, {false, true}} {
		workers := 1
		if c.keyed {
			workers = 2
		}
		st := newStore[int](c.exact, workers, false, false)
		st.begin(1)
		for round := range 2 {
			for i, enc := range encs {
				h := fixHash(fingerprint(enc))
				var isNew bool
				if c.keyed {
					isNew = st.insertShared(h, enc, packRecord(uint64(i), 0), 0, i, &st.locals[0])
				} else {
					isNew = st.insert(h, enc, packRecord(uint64(i), 0), 0, i)
				}
				if isNew != (round == 0) {
					t.Fatalf("exact=%v keyed=%v round %d: encoding %d (%d bytes) new=%v", c.exact, c.keyed, round, i, len(enc), isNew)
				}
				if !st.contains(h, enc) {
					t.Fatalf("exact=%v keyed=%v: encoding %d not found after insert", c.exact, c.keyed, i)
				}
			}
		}
		if c.keyed {
			st.leave(&st.locals[0])
		}
		if got := st.count(); got != int64(len(encs)) {
			t.Fatalf("exact=%v keyed=%v: %d states, want %d", c.exact, c.keyed, got, len(encs))
		}
		wide := 0
		for i := range st.shards {
			wide += int(st.shards[i].wide)
		}
		if want := fmt.Sprint(c.exact || c.keyed); fmt.Sprint(wide == len(st.shards)) != want {
			t.Errorf("exact=%v keyed=%v: %d of %d shards have values", c.exact, c.keyed, wide, len(st.shards))
		}
	}
}

// TestSortKeys checks dropStale's counting sort against a comparison sort on random
// keys of one level, with many keys per parent and keys of every parent.
func TestSortKeys(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	st := newStore[int](true, 2, false, false)
	st.parentFirst = 1000
	for _, n := range []int{10, 64, 1000, 5000} {
		for _, width := range []int{1, 7, 300} {
			seen := map[uint64]bool{}
			var keys []uint64
			for len(keys) < n {
				k := packRecord(st.parentFirst+uint64(r.IntN(width)), uint32(r.IntN(maxTrans)))
				if !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
			}
			want := slices.Clone(keys)
			slices.Sort(want)
			var buf []uint64
			if got := st.sortKeys(keys, &buf, new([]int32), width); !slices.Equal(got, want) {
				t.Fatalf("%d keys, width %d: not sorted", n, width)
			}
		}
	}
}
