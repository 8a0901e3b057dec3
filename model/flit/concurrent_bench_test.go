package flit

import (
	"encoding/binary"
	"fmt"
	"math/bits"
	"sync"
	"testing"

	"github.com/wormcheck/wormcheck/model/system"
)

// expandList is a fixed list of reachable states' encodings (one word each) of one
// model, in breadth-first order, to expand in a benchmark.
type expandList struct {
	m     *Model
	words []uint64
	ranks bool // the explorer checks the progress measure: EncodeSuccessorsProgress
}

// encodedBFS explores m breadth-first on encodings (DecodeInto, EncodeSuccessors), as
// the explorer does, and returns every reachable state's encoding in breadth-first
// order; it fails the benchmark if one is longer than a word.
func encodedBFS(b *testing.B, m *Model) []uint64 {
	var words []uint64
	seen := map[uint64]bool{}
	add := func(enc []byte) {
		if len(enc) != 8 {
			b.Fatalf("an encoding of %d bytes; the benchmark keeps one word", len(enc))
		}
		w := binary.LittleEndian.Uint64(enc)
		if !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	for _, s := range m.Init() {
		add(m.Encode(s, nil))
	}
	var scratch State
	var enc [8]byte
	var buf []byte
	yield := func(_ system.Action, e []byte) { add(e) }
	for k := 0; k < len(words); k++ {
		binary.LittleEndian.PutUint64(enc[:], words[k])
		buf = m.EncodeSuccessors(m.DecodeInto(enc[:], &scratch), buf, yield)
	}
	return words
}

// sampleBlocks keeps about n of words: runs of block consecutive states spread evenly
// over the list, so that the sample spans every level while neighbours stay neighbours
// (consecutive frontier states share worms, which DecodeInto exploits).
func sampleBlocks(words []uint64, n, block int) []uint64 {
	if n >= len(words) {
		return words
	}
	blocks := (n + block - 1) / block
	stride := len(words) / blocks
	out := make([]uint64, 0, blocks*block)
	for k := range blocks {
		lo := k * stride
		out = append(out, words[lo:min(lo+block, len(words))]...)
	}
	return out
}

// mixWord is XXH64's avalanche of a word: the benchmark's stand-in for the store's
// fingerprint of a successor.
func mixWord(h uint64) uint64 {
	h ^= h >> 33
	h *= 0xc2b2ae3d27d4eb4f
	h ^= h >> 29
	h *= 0x165667b19e3779f9
	return h ^ h>>32
}

// expandRange is one worker's share of a level: it expands the states of l.words in
// chunks g, g+n, g+2n, ... of chunk states each, as the explorer's worker does (the
// invariants when invs is set, DecodeInto into its own scratch, EncodeSuccessors or
// EncodeSuccessorsProgress with a yield that fingerprints each successor), and returns
// a digest of the successors, so that nothing is optimized away.
func (l *expandList) expandRange(g, n, chunk int, invs []system.Invariant[State]) uint64 {
	m := l.m
	var scratch State
	var enc [8]byte
	var buf []byte
	var rbuf, prank []uint32
	var sum uint64
	yield := func(_ system.Action, e []byte) { sum += mixWord(binary.LittleEndian.Uint64(e)) }
	yieldRank := func(_ system.Action, e []byte, rank []uint32) {
		sum += mixWord(binary.LittleEndian.Uint64(e)) + uint64(rank[0])
	}
	for lo := g * chunk; lo < len(l.words); lo += n * chunk {
		for _, w := range l.words[lo:min(lo+chunk, len(l.words))] {
			binary.LittleEndian.PutUint64(enc[:], w)
			s := m.DecodeInto(enc[:], &scratch)
			for _, inv := range invs {
				if err := inv.Check(s); err != nil {
					panic(err) // the instances hold
				}
			}
			if l.ranks {
				prank = m.Progress(s, prank[:0])
				buf, rbuf = m.EncodeSuccessorsProgress(s, buf, rbuf, yieldRank)
			} else {
				buf = m.EncodeSuccessors(s, buf, yield)
			}
		}
	}
	return sum
}

// BenchmarkExpandConcurrent measures whether the model's per-state work scales across
// goroutines: the same fixed list of reachable states is expanded (DecodeInto,
// Progress, EncodeSuccessorsProgress, a fingerprint per successor; with Inv also the
// model's invariants, as check.Run has the explorer check them) by one goroutine and by
// two that split it in interleaved chunks, with no store, so that any extra CPU per
// state with two is the model's (shared cache lines, locks, allocation) or the
// machine's. One op expands the whole list; cpu-ns/state is the process's CPU time
// (garbage collection included) per state, ns/state the wall time. Run it with -cpu 2:
// g2's wall ns/state against g1's is the speed-up, its cpu-ns/state against g1's the
// cost of sharing. Every table entry, move and invariant verdict is computed before
// timing (one warm pass), as in all but the first levels of a search.
//
// The instances are the explorer benchmarks' and are searched as those are, with the
// progress measure (unicast.SearchWith and treemcast.Check set CheckLiveness): WHScale
// is algos/unicast's benchWHScale (mesh:3x3, worms 0->8, 8->0, 2->6, 6->2, 1->7 of two
// flits, buffers of two; 1,944,810 states), sampled to about 200k states in blocks of
// 2048 spread over all levels; TM2 is algos/treemcast's benchTM2 (two 3-destination
// multicasts on mesh:3x3, one-port, on-stop pruning; 19,432 states), whole. calib is a
// loop of pure arithmetic: its ratio of CPU per iteration between two goroutines and one
// is the machine's own (e.g. two virtual CPUs on one physical core), which no change to
// the model can remove.
func BenchmarkExpandConcurrent(b *testing.B) {
	g := grid(b, "mesh:3x3")
	wh := mustNew(b, NewGridConfig(g, false, 1, 2, AllPort, unicasts(2, 0, 8, 8, 0, 2, 6, 6, 2, 1, 7)))
	tmCfg := NewGridConfig(g, false, 1, 2, OnePort, []Message{
		Multicast(0, 1, 2, 8, 6), Multicast(8, 1, 6, 0, 2),
	})
	tmCfg.Prune = PruneOnStop
	tm := mustNew(b, tmCfg)
	whAll := encodedBFS(b, wh)
	tmAll := encodedBFS(b, tm)
	if len(whAll) != 1944810 || len(tmAll) != 19432 {
		b.Fatalf("%d and %d reachable states; the instances have 1944810 and 19432", len(whAll), len(tmAll))
	}
	whSample := sampleBlocks(whAll, 200000, 2048)
	lists := []struct {
		name string
		l    *expandList
		invs bool
	}{
		{"WHScale", &expandList{m: wh, words: whSample, ranks: true}, false},
		{"WHScaleInv", &expandList{m: wh, words: whSample, ranks: true}, true},
		{"TM2", &expandList{m: tm, words: tmAll, ranks: true}, false},
	}
	const chunk = 1024
	for _, c := range lists {
		var invs []system.Invariant[State]
		if c.invs {
			invs = c.l.m.Invariants()
		}
		c.l.expandRange(0, 1, chunk, invs) // the warm pass
		for _, n := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/g%d", c.name, n), func(b *testing.B) {
				states := 0
				b.ReportAllocs()
				cpu0 := cpuTime()
				for b.Loop() {
					var wg sync.WaitGroup
					for k := range n {
						wg.Go(func() { c.l.expandRange(k, n, chunk, invs) })
					}
					wg.Wait()
					states += len(c.l.words)
				}
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(states), "cpu-ns/state")
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(states), "ns/state")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
	for _, n := range []int{1, 2} {
		b.Run(fmt.Sprintf("calib/g%d", n), func(b *testing.B) {
			const iters = 1 << 24
			cpu0 := cpuTime()
			for b.Loop() {
				var wg sync.WaitGroup
				out := make([]uint64, n*8) // a cache line each
				for k := range n {
					wg.Go(func() {
						h := uint64(k)
						for i := range iters / n {
							h = mixWord(h + uint64(i))
							h = bits.RotateLeft64(h, 7)
						}
						out[k*8] = h
					})
				}
				wg.Wait()
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N*iters), "cpu-ns/state")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*iters), "ns/state")
			b.ReportMetric(0, "ns/op")
		})
	}
}
