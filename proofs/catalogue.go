package proofs

import (
	"slices"

	"github.com/wormcheck/wormcheck/algos/partition"
)

// catalogue is the claims catalogue, one row a claim, in the order of DESIGN.md's table.
// An id is stable once published; a claim's families (what each size holds and the
// judge that checks it) are built by its group's file.
var catalogue = []Claim{
	{ID: "WH1", Source: "Dally & Seitz, cited by 000/004", Semantics: "flit", Expected: ExpectHolds,
		Statement: "unicast XY routing on a 2-D mesh is deadlock-free",
		Families:  wh1Families()},
	{ID: "WH2", Source: "Dally & Seitz, cited by 000/004", Semantics: "flit", Expected: ExpectViolated,
		Statement: "DOR on a torus ring without dateline VC classes deadlocks",
		Families:  wh2Families()},
	{ID: "WH3", Source: "Dally & Seitz, cited by 000/004", Semantics: "flit", Expected: ExpectHolds,
		Statement: "DOR on a torus with two dateline VC classes is deadlock-free",
		Families:  wh3Families()},
	{ID: "TM1", Source: "000 Fig. 3", Semantics: "flit", Expected: ExpectViolated,
		Statement: "tree multicast without pruning deadlocks (XY mesh)",
		Families:  tm1Families()},
	{ID: "TM2", Source: "000 Lemma 1", Semantics: "flit", Expected: ExpectHolds,
		Statement: "tree multicast with total pruning is deadlock-free (XY mesh; DOR+2VC torus)",
		Families:  tm2Families()},
	{ID: "TM3", Source: "000 §2", Semantics: "flit", Expected: ExpectHolds,
		Statement: "every destination gets the data exactly once, along its XY path",
		Families:  tm3Families()},

	{ID: "NP1", Source: "001 Lemma 1", Semantics: "static", Expected: ExpectHolds,
		Statement: "Type I DDNs (Definition 4) have node level 1 and link level 1 on every torus",
		Families:  one([3]string{"tori 2..12", "tori 2..20", "tori 2..32"}, lemma(partition.TypeI))},
	{ID: "NP2", Source: "001 Lemma 2", Semantics: "static", Expected: ExpectHolds,
		Statement: "Type II DDNs (Definition 5) have node level 1 and link level h on every torus",
		Families:  one([3]string{"tori 2..12", "tori 2..20", "tori 2..32"}, lemma(partition.TypeII))},
	{ID: "NP3", Source: "001 Lemma 3", Semantics: "static", Expected: ExpectHolds,
		Statement: "Type III DDNs (Definition 6, every delta in 1..h-1) have node level 1 and link level 1 on every torus",
		Families:  one([3]string{"tori 2..12", "tori 2..20", "tori 2..32"}, lemma(partition.TypeIII))},
	{ID: "NP4", Source: "001 Lemma 4", Semantics: "static", Expected: ExpectHolds,
		Statement: "Type IV DDNs (Definition 7) have node level 1 and link level h/2 on every torus, for even h (for odd h the level is (h+1)/2; see the note)",
		Families:  one([3]string{"tori 2..12", "tori 2..20", "tori 2..32"}, lemma(partition.TypeIV))},
	{ID: "NP5", Source: "001 P1-P5, Def. 8", Semantics: "static", Expected: ExpectHolds,
		Statement: "on every torus with sides >= 3 and for every type: the DCNs are disjoint and cover (P2), every DDN meets every DCN (P3), P1 (counts within 1), the DDNs are isomorphic (P4) and so are the DCNs (P5)",
		Families:  one([3]string{"tori 3..12 (and sides of 2)", "tori 3..20", "tori 3..32"}, runNP5)},
	{ID: "NP6", Source: "001 §3.1", Semantics: "static", Expected: ExpectHolds,
		Statement: "every directed DDN (Types III and IV) is strongly connected under its own channels on every torus with sides >= 3",
		Families:  one([3]string{"tori 3..12", "tori 3..20", "tori 3..32"}, runNP6)},
	{ID: "NP7", Source: "001 §3.2", Semantics: "static", Expected: ExpectViolated,
		Statement: "directed DDNs (Types III and IV) are strongly connected on a mesh (expected violated: an unreachable member pair)",
		Families:  one([3]string{"meshes 2..12", "meshes 2..20", "meshes 2..32"}, runNP7)},
	{ID: "NP8", Source: "001 §4.2 (Robinson et al.)", Semantics: "timed", Expected: ExpectHolds,
		Statement: "one U-torus multicast is depth contention-free and takes ceil(log2(1+|D|))(Ts+L*Tc)",
		Families:  one([3]string{"6x6 sets of 1..3; 40 random on 16x16", "6x6 sets of 1..4; 100 random on 16x16", "6x6 sets of 1..6; 300 random on 16x16"}, runNP8)},
	{ID: "NP9", Source: "001 §5.1 (Kesavan & Panda)", Semantics: "timed", Expected: ExpectViolated,
		Statement: "several U-mesh multicasts contend at nodes",
		Families:  one([3]string{"5 seeded 8x8 instances", "20 seeded 8x8 instances", "20 seeded 8x8 instances"}, runNP9)},
	{ID: "NP10", Source: "001 §5.1", Semantics: "timed", Expected: ExpectMeasured,
		Statement: "SPU's node contention vs U-mesh's on the same instances",
		Families:  one([3]string{"8 instances per m", "40 instances per m", "40 instances per m"}, runNP10)},

	{ID: "MN1", Source: "002 Property 1", Semantics: "static", Expected: ExpectHolds,
		Statement: "monotone + concentrated patterns are nonblocking in the broadcast banyan",
		Families:  one([3]string{"N = 8, 16 by pairs; N = 8 enumerated; 200 samples on N = 64", "N = 8..64 by pairs; N = 8, 16 enumerated; 2000 samples", "N = 8..64 by pairs; N = 8, 16 enumerated; 2000 samples"}, runMN1)},
	{ID: "MN2", Source: "002 Property 1", Semantics: "static", Expected: ExpectViolated,
		Statement: "dropping monotonicity or concentration admits blocking",
		Families:  one([3]string{"N = 4, 8", "N = 4, 8", "N = 4, 8"}, runMN2)},
	{ID: "MN3", Source: "002 §2.2", Semantics: "static", Expected: ExpectHolds,
		Statement: "region-encoded routing reaches exactly [min, max]",
		Families:  one([3]string{"N = 2..16", "N = 2..64", "N = 2..64"}, runMN3)},
	{ID: "MN4", Source: "002 Theorem 1", Semantics: "static", Expected: ExpectHolds,
		Statement: "two-phase multicast copies never block each other",
		Families:  one([3]string{"N = 16 exhaustive; 300 samples on N = 64", "N = 16 exhaustive; 3000 samples on N = 64", "N = 16 exhaustive; 3000 samples on N = 64"}, runMN4)},
	{ID: "MN5", Source: "002 Fig. 4", Semantics: "flit", Expected: ExpectViolated,
		Statement: "several multicasts with free arbitration deadlock (1->{5..8}, 15->{7..12}, N=16)",
		Families:  one([3]string{"Fig. 4, every start pair", "Fig. 4, every start pair", "Fig. 4, every start pair"}, runMN5)},
	{ID: "MN6", Source: "002 Theorem 2", Semantics: "flit", Expected: ExpectHolds,
		Statement: "upper-input-link-first arbitration is deadlock-free",
		Families:  one([3]string{"Fig. 4; 3000 sampled pairs on N = 8; 300 worm samples", "Fig. 4; 30000 sampled pairs on N = 8; every source pair on N = 16; 1000 worm samples", "Fig. 4; every pair on N = 8; every source pair on N = 16; 3000 worm samples"}, runMN6)},
	{ID: "MN7", Source: "002 §4", Semantics: "sim", Expected: ExpectMeasured,
		Statement: "the throughput recursion of 002 §4 for the unbuffered broadcast banyan with multicast agrees with slotted simulation (n = 7)",
		Families:  one([3]string{"2 cases, 2000 slots", "24 cases, 5000 slots", "24 cases, 20000 slots"}, runMN7)},

	{ID: "HB1", Source: "003 §2.2", Semantics: "step", Expected: ExpectHolds,
		Statement: "SBT broadcast reaches every node exactly once in n steps",
		Families:  one([3]string{"hypercubes n = 3..7", "hypercubes n = 3..10", "hypercubes n = 3..10"}, runHB1)},
	{ID: "HB2", Source: "003 eqs. 5-11", Semantics: "static", Expected: ExpectHolds,
		Statement: "the model's hop and replication distributions equal the tree's",
		Families:  one([3]string{"n = 2..12", "n = 2..12", "n = 2..12"}, runHB2)},
	{ID: "HB3", Source: "003 §3-4", Semantics: "sim", Expected: ExpectMeasured,
		Statement: "the analytical mean unicast and broadcast latencies of 003 (eqs. 1-33) agree with flit-level simulation below saturation",
		Families:  one([3]string{"n = 6, one case, load 0.5, 20000 cycles", "n = 6, 4 cases x 4 loads, 20000 cycles", "n = 6..8, 10 cases x 4 loads, 40000 cycles"}, runHB3)},

	{ID: "DC1", Source: "004 Thm 2, Cor 1-2", Semantics: "step", Expected: ExpectHolds,
		Statement: "DCF reaches every node exactly once in d steps on a 2^d x 2^d torus",
		Families:  one([3]string{"DCF tori 4x4..16x16", "DCF tori 4x4..32x32", "DCF tori 4x4..64x64"}, runDC1)},
	{ID: "DC2", Source: "004 Thm 3", Semantics: "step", Expected: ExpectHolds,
		Statement: "DCF is stepwise contention-free",
		Families:  one([3]string{"DCF tori 4x4..16x16", "DCF tori 4x4..32x32", "DCF tori 4x4..64x64"}, runDC2)},
	{ID: "DC3", Source: "004 Thm 4, Cor 4", Semantics: "timed", Expected: ExpectHolds,
		Statement: "DCF is depth contention-free for all ts, tr, tc, L",
		Families:  one([3]string{"DCF tori 4x4..16x16", "DCF tori 4x4..32x32", "DCF tori 4x4..64x64"}, runDC3)},
	{ID: "DC4", Source: "004 §4", Semantics: "step", Expected: ExpectHolds,
		Statement: "EDN is stepwise contention-free",
		Families:  one([3]string{"EDN tori 4x4..16x16", "EDN tori 4x4..32x32", "EDN tori 4x4..64x64"}, runDC4)},
	{ID: "DC5", Source: "004 §4", Semantics: "timed", Expected: ExpectViolated,
		Statement: "EDN is not depth contention-free",
		Families:  one([3]string{"EDN on 16x16", "EDN on 16x16", "EDN on 16x16"}, runDC5)},
	{ID: "DC6", Source: "004 §5.2", Semantics: "timed", Expected: ExpectViolated,
		Statement: "Z_block broadcast is not depth contention-free",
		Families:  one([3]string{"Z_block tori 4x4..16x16", "Z_block tori 4x4..32x32", "Z_block tori 4x4..64x64"}, runDC6)},
	{ID: "DC7", Source: "004 §6.1", Semantics: "timed", Expected: ExpectHolds,
		Statement: "DCF's contention-free completion time equals its formula",
		Families:  one([3]string{"DCF tori 4x4..16x16 x 128 timing points", "DCF tori 4x4..32x32 x 128 points", "DCF tori 4x4..64x64 x 128 points"}, runDC7)},
	{ID: "DC8", Source: "004 §6.2 Fig. 8", Semantics: "sim", Expected: ExpectMeasured,
		Statement: "EDN's simulated broadcast time on a 32x32 torus exceeds its contention-free formula because of channel contention",
		Families:  one([3]string{"L = 64", "L = 32, 128", "L = 32, 128, 512"}, runDC8)},

	{ID: "MN6B", Source: "002 Theorem 2", Semantics: "flit", Expected: ExpectViolated,
		Statement: "upper-input-link-first is deadlock-free for any number of multicasts and any arrival times (Theorem 2 as stated); expected to FAIL: three multicasts (lockstep) or two (asynchronous) deadlock",
		Families:  one([3]string{"a triple (L = 1, 4, 8, 12); async Fig. 4; 5000 random triples", "the same; 20000 random triples", "the same; 100000 random triples"}, runMN6b)},
	{ID: "TM4", Source: "000 §5.3 Figs. 7-9", Semantics: "sim", Expected: ExpectMeasured,
		Statement: "tree-based multicast with pruning reduces multicast latency against multiple unicasts (up to 30% on an 8x8 mesh) on 8x8 mesh, 8x8 torus and 8x8x8 torus with 4 to 25 destinations",
		Families:  one([3]string{"mesh:8x8 V = 1, 2; n = 4, 25; 2 loads; 3000 cycles", "mesh:8x8 V = 1, 2; n = 4..25; 6 loads; 4000 cycles", "mesh, torus 8x8 and 8x8x8, 2 VC counts each; n = 4..25; 6 loads; 10000 cycles"}, runTM4)},

	{ID: "RT1", Source: "Glass & Ni (turn model)", Semantics: "flit + static", Expected: ExpectHolds,
		Statement: "west-first, north-last, negative-first are deadlock-free on 2-D meshes",
		Families:  one([3]string{"meshes to 8x8 static; mesh:2x3 up to 2 worms", "as quick (the routing claims' default is their quick family)", "meshes to 32x32 static; mesh:2x3 up to 2 worms; 50 + 20 samples of 3 and 4 worms on mesh:3x3"}, runRT1)},
	{ID: "RT2", Source: "Dally & Seitz", Semantics: "flit", Expected: ExpectViolated,
		Statement: "minimal fully adaptive routing with one VC deadlocks on a 2-D mesh",
		Families:  one([3]string{"meshes 2x2, 2x3, 3x3 by size, 1..4 worms, until a deadlock", "the same", "the same"}, runRT2)},
	{ID: "RT3", Source: "Chiu (odd-even)", Semantics: "flit + static", Expected: ExpectHolds,
		Statement: "odd-even is deadlock-free on 2-D meshes",
		Families:  one([3]string{"meshes to 8x8 static; mesh:3x3 up to 2 worms", "as quick", "meshes to 32x32 static; mesh:3x3, 3x2 placements and 50 samples on mesh:4x3"}, runRT3)},
	{ID: "RT4", Source: "Duato", Semantics: "flit + static", Expected: ExpectHolds,
		Statement: "fully adaptive minimal routing with an escape channel is deadlock-free (mesh, torus) though its CDG is cyclic",
		Families:  one([3]string{"6 topologies static; mesh:2x3, torus:3x3 placements", "as quick", "8 topologies static; mesh:2x3, torus:3x3 placements and 50 + 50 samples"}, runRT4)},
	{ID: "RT5", Source: "000 Lemma 1, adaptive R", Semantics: "flit", Expected: ExpectHolds,
		Statement: "tree multicast with pruning over RT4's routing is deadlock-free",
		Families:  one([3]string{"mesh:2x2 pairs:2; without pruning pairs:3", "as quick", "mesh:2x2 pairs:3, mesh:2x3 pairs:1; without pruning pairs:3"}, runRT5)},
	{ID: "RT6", Source: "—", Semantics: "flit (liveness)", Expected: ExpectViolated,
		Statement: "non-minimal adaptive routing without a misroute budget livelocks; with one every message is delivered",
		Families:  one([3]string{"mesh:2x3, every (src,dst)", "as quick", "mesh:3x3, every (src,dst)"}, runRT6)},
}

// All returns the claims in catalogue order; the caller owns the slice.
func All() []Claim { return slices.Clone(catalogue) }

// Lookup returns the claim with the given id (case-sensitive, as published).
func Lookup(id string) (Claim, bool) {
	i := slices.IndexFunc(catalogue, func(c Claim) bool { return c.ID == id })
	if i < 0 {
		return Claim{}, false
	}
	return catalogue[i], true
}
