package flit

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/wormcheck/wormcheck/checker"
)

// decodeModels are the instances TestDecodeInto walks: testModels (unicast worms on a
// mesh, worms with two dateline VC classes on a ring, tree multicasts with on-stop
// pruning, tree multicasts over adaptive routing with partial pruning, budgeted
// non-minimal worms), smallMulticasts (interned buffers and output sets), the WH2
// benchmark instance (four worms, dateline VCs, torus:4) and tree multicasts without
// pruning (the TM1 benchmark's policy).
func decodeModels(t testing.TB) []*Model {
	g := grid(t, "mesh:3x3")
	tm := NewGridConfig(g, false, 1, 2, AllPort, []Message{
		Multicast(0, 1, 5, 7), Multicast(8, 1, 0, 6),
	})
	tm.Prune = PruneNone
	return append(testModels(t), smallMulticasts(t),
		mustNew(t, NewGridConfig(grid(t, "torus:4"), true, 2, 2, AllPort, unicasts(3, 0, 2, 1, 3, 2, 0, 3, 1))),
		mustNew(t, tm))
}

// reachable returns up to limit reachable states of m, breadth-first, as Successors
// builds them, with their encodings.
func reachable(m *Model, limit int) ([]State, [][]byte) {
	queue := m.Init()
	encs := [][]byte{m.Encode(queue[0], nil)}
	seen := map[string]bool{string(encs[0]): true}
	for k := 0; k < len(queue) && len(queue) < limit; k++ {
		for _, tr := range m.Successors(queue[k], nil) {
			e := m.Encode(tr.Next, nil)
			if !seen[string(e)] {
				seen[string(e)] = true
				queue = append(queue, tr.Next)
				encs = append(encs, e)
			}
		}
	}
	return queue, encs
}

// expanded is everything the explorer asks of a state: its encoding, Progress,
// Terminal, the invariants' verdict, its successors' actions, encodings and ranks from
// Successors, and EncodeSuccessorsProgress's, which must be the same.
func expanded(t *testing.T, m *Model, s State) string {
	b := fmt.Appendf(nil, "enc %x rank %v terminal %v inv %v\n", m.Encode(s, nil), m.Progress(s, nil), m.Terminal(s), m.CheckAll(s))
	var succ, encs []byte
	for _, tr := range m.Successors(s, nil) {
		succ = fmt.Appendf(succ, "%#x %x %v\n", uint64(tr.Action), m.Encode(tr.Next, nil), m.Progress(tr.Next, nil))
	}
	m.EncodeSuccessorsProgress(s, nil, nil, func(a checker.Action, enc []byte, rank []uint32) {
		encs = fmt.Appendf(encs, "%#x %x %v\n", uint64(a), enc, rank)
	})
	if string(succ) != string(encs) {
		t.Fatalf("EncodeSuccessorsProgress\n%s\ndiffers from Successors\n%s\nof\n%s", encs, succ, m.Format(s))
	}
	return string(append(b, succ...))
}

// randomStates returns the distinct states of n seeded random walks of m of up to 50
// steps, as Successors builds them, with their encodings: deeper than a breadth-first
// prefix, so worms' table indices pass 127 and encodings longer than a word show up.
func randomStates(m *Model, n int) ([]State, [][]byte) {
	var states []State
	var encs [][]byte
	seen := map[string]bool{}
	for k := range n {
		s := randomState(m, int64(k), 10+k%40)
		if e := m.Encode(s, nil); !seen[string(e)] {
			seen[string(e)] = true
			states, encs = append(states, s), append(encs, e)
		}
	}
	return states, encs
}

// TestDecodeInto: over the whole reachable sets of several instances (the first 20,000
// states of the larger ones; 4,000 in -short), decoded into one reused scratch in a
// random order (so that anything left from the previous state shows), DecodeInto gives
// the state Decode gives and Successors built, field for field, with its encoding and
// correct Progress sums, and the model answers every question on it as on the built
// state. The last instance's random-walk states mix one-word encodings with longer ones.
// Successors and kept states built from a decoded state must survive the scratch's
// reuse (they may not share its memory).
func TestDecodeInto(t *testing.T) {
	limit, walks := 20000, 3000
	if testing.Short() {
		limit, walks = 4000, 1000
	}
	mixed := mustNew(t, NewGridConfig(grid(t, "mesh:3x3"), false, 2, 2, AllPort, unicasts(3, 0, 8, 2, 6, 6, 2, 8, 0, 1, 7, 7, 1)))
	// More than 64 virtual channels, and more than 8 worms (never one word).
	wide := mustNew(t, NewGridConfig(grid(t, "mesh:4x4"), false, 2, 2, AllPort, unicasts(3, 5, 7, 6, 4, 9, 1, 10, 2)))
	many := mustNew(t, NewGridConfig(grid(t, "mesh:3x3"), false, 1, 1, AllPort,
		unicasts(2, 0, 8, 1, 7, 2, 6, 3, 5, 5, 3, 6, 2, 7, 1, 8, 0, 4, 0)))
	for i, m := range append(decodeModels(t), mixed, wide, many) {
		states, encs := reachable(m, limit)
		if m == mixed || m == many {
			states, encs = randomStates(m, walks)
		}
		order := rand.New(rand.NewPCG(uint64(i), 13)).Perm(len(states))
		var scratch State
		var prev []State  // successors and kept states built from the previous decoded state
		var prevC []State // copies of them made when they were built
		lens := map[int]int{}
		for n, k := range order {
			lens[len(encs[k])]++
			d := m.DecodeInto(encs[k], &scratch)
			ref, err := m.Decode(encs[k])
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(d.Msgs, ref.Msgs) || !slices.Equal(d.VCs, ref.VCs) {
				t.Fatalf("model %d state %d (%d-th decoded): DecodeInto\n%v\nDecode\n%v", i, k, n, d, ref)
			}
			if !slices.Equal(d.Msgs, states[k].Msgs) || !slices.Equal(d.VCs, states[k].VCs) {
				t.Fatalf("model %d state %d: DecodeInto\n%v\nbuilt\n%v", i, k, d, states[k])
			}
			if p, o := m.progressSums(&d); !d.sums.ok || p != d.sums.pot || o != d.sums.outs {
				t.Fatalf("model %d state %d: sums %+v, recomputed %d/%d", i, k, d.sums, p, o)
			}
			if len(encs[k]) == 8 && d.worms.tab != m.tab {
				t.Fatalf("model %d state %d: no encoding carried", i, k)
			}
			for j, s := range prev {
				if !slices.Equal(s.Msgs, prevC[j].Msgs) || !slices.Equal(s.VCs, prevC[j].VCs) {
					t.Fatalf("model %d state %d: a state built from the previous decoded state changed with the scratch", i, k)
				}
			}
			if n%4 == 0 || n < 2000 {
				if got, want := expanded(t, m, d), expanded(t, m, states[k]); got != want {
					t.Fatalf("model %d state %d: decoded\n%s\nbuilt\n%s", i, k, got, want)
				}
			}
			prev = prev[:0]
			for _, tr := range m.Successors(d, nil) {
				prev = append(prev, tr.Next)
			}
			m.EncodeSuccessorsBuild(d, nil, nil, true, func(checker.Action, []byte, []uint32) bool { return true },
				func(s State) { prev = append(prev, s) })
			prevC = prevC[:0]
			for _, s := range prev {
				prevC = append(prevC, State{Msgs: slices.Clone(s.Msgs), VCs: slices.Clone(s.VCs)})
			}
		}
		if m == mixed && (lens[8] == 0 || len(lens) < 2) {
			t.Fatalf("model %d: encoding lengths %v; want one-word and longer ones", i, lens)
		}
		t.Logf("model %d: %d states, table %d sequences, encoding lengths %v", i, len(states), m.tab.Len(), lens)
	}
}

// TestDecodeIntoAllocs: once the scratch and the table's decoded entries exist,
// DecodeInto allocates nothing, for one-word encodings and for longer ones.
func TestDecodeIntoAllocs(t *testing.T) {
	ms := decodeModels(t)
	// Nine worms of one flit on mesh:3x3 need more than a word.
	ms = append(ms, mustNew(t, NewGridConfig(grid(t, "mesh:3x3"), false, 1, 1, AllPort,
		unicasts(1, 0, 8, 1, 7, 2, 6, 3, 5, 5, 3, 6, 2, 7, 1, 8, 0, 4, 0))))
	long := false
	for i, m := range ms {
		_, encs := reachable(m, 3000)
		for _, e := range encs {
			long = long || len(e) > 8
		}
		var scratch State
		for _, e := range encs {
			m.DecodeInto(e, &scratch)
		}
		if a := testing.AllocsPerRun(5, func() {
			for _, e := range encs {
				m.DecodeInto(e, &scratch)
			}
		}); a != 0 {
			t.Errorf("model %d: %v allocations per %d decodes", i, a, len(encs))
		}
	}
	if !long {
		t.Fatal("no instance has an encoding longer than a word")
	}
}

// TestDecodeIntoConcurrent: workers decode, each into its own scratch, encodings that
// another goroutine is still producing (the table grows while they read, and they race
// to build the same decoded entries); every state is Decode's. Run it with -race.
func TestDecodeIntoConcurrent(t *testing.T) {
	for i, m := range []*Model{decodeModels(t)[6], smallMulticasts(t)} {
		work := make(chan []byte, 64)
		go func() {
			defer close(work)
			queue := m.Init()
			seen := map[string]bool{}
			for k := 0; k < len(queue) && k < 3000; k++ {
				for _, tr := range m.Successors(queue[k], nil) {
					e := m.Encode(tr.Next, nil)
					if !seen[string(e)] {
						seen[string(e)] = true
						queue = append(queue, tr.Next)
						work <- e
						work <- e
					}
				}
			}
		}()
		var wg sync.WaitGroup
		errs := make(chan error, 3)
		for range 3 {
			wg.Go(func() {
				var scratch State
				for e := range work {
					d := m.DecodeInto(e, &scratch)
					ref, err := m.Decode(e)
					if err == nil && (!slices.Equal(d.Msgs, ref.Msgs) || !slices.Equal(d.VCs, ref.VCs)) {
						err = fmt.Errorf("model %d: %x decodes to\n%v\nwant\n%v", i, e, d, ref)
					}
					if err != nil {
						select {
						case errs <- err:
						default:
						}
						for range work {
						}
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
	}
}

// benchEncodings returns the encodings of benchStates' states, in breadth-first order.
func benchEncodings(b *testing.B) (*Model, [][]byte) {
	m, states := benchStates(b, 2000)
	encs := make([][]byte, len(states))
	for k, s := range states {
		encs[k] = m.Encode(s, nil)
	}
	return m, encs
}

// BenchmarkDecodeInto is the encoded frontier's per-state cost: rebuild a state of the
// WH1 benchmark instance from its encoding in a reused scratch (states in breadth-first
// order, as a frontier holds them).
func BenchmarkDecodeInto(b *testing.B) {
	m, encs := benchEncodings(b)
	var scratch State
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for i := 0; b.Loop(); i++ {
		m.DecodeInto(encs[i%len(encs)], &scratch)
	}
}

// BenchmarkDecodeIntoExpand is the encoded-frontier explorer's per-state model work:
// DecodeInto, then EncodeSuccessorsProgress (compare BenchmarkEncodeSuccessors, the
// per-state work when the frontier holds built states).
func BenchmarkDecodeIntoExpand(b *testing.B) {
	m, encs := benchEncodings(b)
	var scratch State
	var buf []byte
	var rbuf []uint32
	yield := func(a checker.Action, enc []byte, rank []uint32) {}
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for i := 0; b.Loop(); i++ {
		s := m.DecodeInto(encs[i%len(encs)], &scratch)
		buf, rbuf = m.EncodeSuccessorsProgress(s, buf, rbuf, yield)
	}
}

// TestExpansionsAcrossModels interleaves the expansions of models with different numbers
// of worms, fresh each round so that moves are met for the first time, so that they
// share pooled scratch: in one goroutine, and in three at once in different orders (as
// prove's concurrent family members do). Every state, decoded into its model's scratch,
// expands as Successors says. A scratch that kept the previous model's worm count gave
// wrong encodings or panicked.
func TestExpansionsAcrossModels(t *testing.T) {
	g := grid(t, "mesh:3x3")
	configs := []Config{
		NewGridConfig(g, false, 1, 2, AllPort, unicasts(2, 0, 8, 8, 0, 2, 6, 6, 2)),
		NewGridConfig(g, false, 1, 2, AllPort, unicasts(2, 0, 8, 8, 0, 2, 6)),
		NewGridConfig(g, false, 1, 1, AllPort, unicasts(1, 0, 8, 1, 7, 2, 6, 3, 5, 5, 3, 6, 2, 7, 1, 8, 0, 4, 0)),
		NewGridConfig(g, false, 1, 2, AllPort, unicasts(3, 0, 2)),
	}
	if err := interleave(configs); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make([]error, 3)
	for k := range errs {
		order := slices.Clone(configs)
		rand.New(rand.NewPCG(uint64(k), 1)).Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })
		wg.Go(func() { errs[k] = interleave(order) })
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// interleave expands, for three rounds of fresh models of configs, their states in turn
// (the k-th state of each, breadth-first, decoded into the model's own scratch) and
// checks EncodeSuccessors against Successors.
func interleave(configs []Config) error {
	for round := range 3 {
		var ms []*Model
		var queues [][][]byte
		var scratches []State
		var seen []map[string]bool
		for _, c := range configs {
			m, err := New(c)
			if err != nil {
				return err
			}
			e := m.Encode(m.Init()[0], nil)
			ms = append(ms, m)
			queues = append(queues, [][]byte{e})
			scratches = append(scratches, State{})
			seen = append(seen, map[string]bool{string(e): true})
		}
		for k := 0; k < 300; k++ {
			for i, m := range ms {
				if k >= len(queues[i]) {
					continue
				}
				d := m.DecodeInto(queues[i][k], &scratches[i])
				var got []string
				m.EncodeSuccessors(d, nil, func(a checker.Action, enc []byte) {
					got = append(got, fmt.Sprintf("%#x %x", uint64(a), enc))
					if !seen[i][string(enc)] {
						seen[i][string(enc)] = true
						queues[i] = append(queues[i], slices.Clone(enc))
					}
				})
				// Successors and Encode after EncodeSuccessors: they use the pooled
				// scratch too, and would leave it set for this model.
				var want []string
				for _, tr := range m.Successors(d, nil) {
					want = append(want, fmt.Sprintf("%#x %x", uint64(tr.Action), m.Encode(tr.Next, nil)))
				}
				if !slices.Equal(got, want) {
					return fmt.Errorf("round %d model %d state %d: EncodeSuccessors %v, Successors %v", round, i, k, got, want)
				}
			}
		}
	}
	return nil
}

// TestWordIndices checks wordIndices, whose one-byte path skips the uvarint loop, against
// the uvarint encoding it reads: every tuple of n indices (mixing one-, two- and
// three-byte uvarints) whose encoding fits a word is read back whole, with zero padding
// or other bytes after it, and a word whose last index is cut off is refused.
func TestWordIndices(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	sizes := []uint32{0x80, 0x4000, 0x200000}
	for range 20000 {
		n := r.IntN(9)
		idx := make([]uint32, n)
		var enc []byte
		for i := range idx {
			idx[i] = r.Uint32N(sizes[r.IntN(len(sizes))])
			enc = appendUvarint(enc, idx[i])
		}
		if len(enc) > 8 {
			got, ok := wordIndices(binary.LittleEndian.Uint64(enc[:8]), n, nil)
			if ok {
				t.Fatalf("%x: %d indices read from a word that cuts them off: %v", enc, n, got)
			}
			continue
		}
		for len(enc) < 8 {
			enc = append(enc, byte(r.IntN(2))*byte(r.IntN(256))) // padding, or other bytes
		}
		got, ok := wordIndices(binary.LittleEndian.Uint64(enc), n, nil)
		if !ok || !slices.Equal(got, idx) && (len(got) != 0 || len(idx) != 0) {
			t.Fatalf("%x: read %v %v; encoded %v", enc, got, ok, idx)
		}
	}
}
