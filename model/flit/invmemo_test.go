package flit

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestInvariantsByWorm checks the invariants decided from worms' verdicts (invmemo.go)
// against the direct checks: on the reachable states of several instances, decoded
// into one scratch, each invariant gives the direct check's verdict and message; and on
// states made of arbitrary combinations of reachable worms' entries (most of them
// unreachable: two worms in one channel, two injecting at one one-port node, too many
// delivering at a node, a terminal state short of flits), the invariants report a
// violation whenever the direct checks on the decoded state do, at the same invariant or
// an earlier one (the parts alone assume what ownership checks across worms: that no two
// worms share a channel). Random models (randomModel)
// include one-port nodes, several VCs and tree multicasts.
func TestInvariantsByWorm(t *testing.T) {
	models := decodeModels(t)
	// One-port, two worms from node 4 and two into node 8 on different channels: their
	// entries injecting or delivering at once combine into states beyond the ports'
	// limits that no channel conflict gives away.
	models = append(models, mustNew(t, NewGridConfig(grid(t, "mesh:3x3"), false, 1, 2, OnePort, unicasts(2, 4, 5, 4, 3, 6, 8, 2, 8))))
	// More than 64 virtual channels, where ownershipAcross looks at the state's channels
	// instead of the entries' channel sets; worms 0->3 and 1->3 (and 4->7, 5->7) share
	// channels, so that combinations of their entries hold one channel twice.
	big := mustNew(t, NewGridConfig(grid(t, "mesh:4x4"), false, 2, 1, AllPort, unicasts(2, 0, 3, 1, 3, 4, 7, 5, 7)))
	if big.nvc <= 64 {
		t.Fatalf("mesh:4x4 with 2 VCs has %d virtual channels; the test wants more than 64", big.nvc)
	}
	models = append(models, big)
	for seed := range uint64(12) {
		models = append(models, randomModel(t, seed))
	}
	limit, combos := 3000, 3000
	if testing.Short() {
		limit, combos = 800, 800
	}
	var violations int
	for mi, m := range models {
		states, encs := reachable(m, limit)
		var scratch State
		var per [][]uint32 // the worms' entries met, per message
		per = make([][]uint32, len(m.cfg.Messages))
		for k := range states {
			if len(encs[k]) != 8 {
				continue
			}
			s := m.DecodeInto(encs[k], &scratch)
			for j, inv := range m.Invariants() {
				got, want := inv.Check(s), m.direct(j)(s)
				if fmt.Sprint(got) != fmt.Sprint(want) {
					t.Fatalf("model %d state %d invariant %s: %v, direct %v", mi, k, inv.Name, got, want)
				}
			}
			idx, _ := wordIndices(binary.LittleEndian.Uint64(encs[k]), len(m.cfg.Messages), nil)
			for i, x := range idx {
				per[i] = append(per[i], x)
			}
		}
		r := rand.New(rand.NewPCG(uint64(mi), 7))
		for range combos {
			var enc []byte
			for i := range per {
				enc = appendUvarint(enc, per[i][r.IntN(len(per[i]))])
			}
			if len(enc) > 8 {
				continue
			}
			enc = padWord(enc, 0)
			s := m.DecodeInto(enc, &scratch)
			first, firstDirect := -1, -1
			var msg error
			for j, inv := range m.Invariants() {
				if err := inv.Check(s); err != nil && first < 0 {
					first, msg = j, err
				}
				if err := m.direct(j)(s); err != nil && firstDirect < 0 {
					firstDirect = j
				}
			}
			if firstDirect >= 0 {
				violations++
				if first < 0 || first > firstDirect {
					t.Fatalf("model %d, worms %x: the first invariant violated by worms is %d (%v), directly %d", mi, enc, first, msg, firstDirect)
				}
			}
			// Fresh scratch: a state with two worms in one channel leaves it dirty.
			scratch = State{}
		}
	}
	if violations == 0 {
		t.Fatal("no combination of worms violated an invariant: the comparison tested nothing")
	}
	t.Logf("%d violations among the combinations, all reported by worms too", violations)
}

// TestWormVerdictsKeptByDecode checks the conjunction of worms' verdicts DecodeInto keeps
// once the invariants are in use (frontier.inv) against the worms' own verdicts: on the
// reachable states of a model, decoded in turn into one scratch (so that most are
// patched from the previous one), and after one worm's entry is given a verdict that
// fails the ownership part alone, on every state that holds that entry.
func TestWormVerdictsKeptByDecode(t *testing.T) {
	m := mustNew(t, NewGridConfig(grid(t, "mesh:3x3"), false, 1, 2, AllPort, unicasts(2, 0, 8, 8, 0, 2, 6)))
	_, encs := reachable(m, 2000)
	m.Invariants()
	conj := func(s *State) uint32 {
		decs, _ := m.frontDecs(s)
		all := ^uint32(0)
		for i, d := range decs {
			all &= m.wormInv(i, d)
		}
		return all
	}
	var scratch State
	for _, e := range encs {
		conj(ptr(m.DecodeInto(e, &scratch))) // decide every entry met
	}
	bad := m.DecodeInto(encs[len(encs)/2], &scratch).front.decs[1]
	bad.inv.Store(bad.inv.Load() &^ (1 << invOwnership))
	held := 0
	for k, e := range encs {
		s := m.DecodeInto(e, &scratch)
		got, ok := m.wormVerdicts(&s)
		if !ok || s.front.inv == 0 || got != conj(&s) {
			t.Fatalf("state %d: kept verdicts %b (%v, kept %b); the worms' %b", k, got, ok, s.front.inv, conj(&s))
		}
		if s.front.decs[1] == bad {
			held++
			if got&(1<<invOwnership) != 0 {
				t.Fatalf("state %d holds the entry failing ownership; kept verdicts %b", k, got)
			}
		}
	}
	if held < 2 {
		t.Fatalf("%d states hold the altered entry; the test wants several", held)
	}
}

func ptr[T any](v T) *T { return &v }
