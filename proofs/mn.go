package proofs

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"time"

	"github.com/wormcheck/wormcheck/algos/banyan"
	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/model/topology"
	"github.com/wormcheck/wormcheck/props"
	"github.com/wormcheck/wormcheck/props/check"
	"github.com/wormcheck/wormcheck/props/gen"
)

// The MN family: the multistage banyan claims of 002 (Property 1, region encoding,
// Theorems 1 and 2, the Fig. 4 deadlock). Reference: 002 §2-§3.
// mnSeed is the fixed seed of the MN family's samples (props/gen.Sampler).
const mnSeed = 2002

// banyanRoute checks q on banyan:N for nonblocking through the typed entry
// (check.BanyanRoute; its Banyan is set here).
func banyanRoute(ctx context.Context, n int, q check.BanyanRoute) (*props.Report, error) {
	b, err := topology.NewBanyan(n)
	if err != nil {
		return nil, err
	}
	q.Banyan = b
	return q.Check(ctx, checker.PropNonblocking, check.Options{})
}

// twoPhase checks one two-phase instance on banyan:N for deadlock with the entry's typed
// request (starts nil for every start combination, flits 0 for links released when the
// last branch arrives) and counts its delivery certificate in tally.
func twoPhase(ctx context.Context, env Env, tally *checker.Tally, n int, msgs []banyan.Multicast, arb banyan.Arbitration, timing banyan.Timing, starts []int, flits, workers int) (*props.Report, error) {
	b, err := topology.NewBanyan(n)
	if err != nil {
		return nil, err
	}
	req := check.TwoPhase{Banyan: b, Msgs: msgs, Options: banyan.Options{Arbitration: arb, Timing: timing, Starts: starts, Flits: flits}}
	rep, err := env.flitCheck(ctx, req, checker.PropDeadlock, check.Options{Workers: workers})
	if err == nil {
		tally.Add(rep.Certificate)
	}
	return rep, err
}

// startCombinations is the number of initial states a two-phase report searched.
func startCombinations(rep *props.Report) int { return int(rep.Figures[banyan.FigStartCombinations]) }

// twoPhaseFiles are the files of a two-phase deadlock: its replayable trace (its
// picture and capture are drawn from its evidence).
func twoPhaseFiles(rep *props.Report) map[string][]byte {
	data, _ := json.MarshalIndent(rep.Trace, "", "  ")
	return map[string][]byte{"json": data}
}

// conflictOf returns the blocking witness of a banyan-route report (nil when it has
// none).
func conflictOf(rep *props.Report) *check.BanyanConflict {
	if rep.Witness == nil {
		return nil
	}
	d, _ := rep.Witness.Detail.(*check.BanyanConflict)
	return d
}

// detailOf returns the witness detail of a banyan report (nil when it has none), for an
// outcome's witness.
func detailOf(rep *props.Report) any {
	if rep.Witness == nil {
		return nil
	}
	return rep.Witness.Detail
}

// runMN1 checks Property 1 for every monotone, concentrated pattern through the entry
// (banyan-route's monotone family): exhaustively by the pair reduction for N = 8, 16, 32
// (and 64, which is cheap), cross-checked by enumerating every pattern (method
// enumerate) for N = 8 (and 16 in the full run), plus a gopter sample of whole patterns
// on N = 64, each checked as one pattern by the naive link-conflict check.
// Cyclic concentration (sources consecutive modulo N) is checked too and reported: it is
// not needed by Property 1 as stated, and the two-phase algorithm never uses it (see
// banyan.ValidStarts), but it decides whether a wrapping phase 2 would be safe.
func runMN1(ctx context.Context, env Env) Outcome {
	sizes, enumerate, samples := []int{8, 16, 32, 64}, []int{8, 16}, 2000
	if env.Size == Quick {
		sizes, enumerate, samples = []int{8, 16}, []int{8}, 200
	}
	out := Outcome{Verdict: Holds, Figures: map[string]float64{}}
	var cyclicWitness any
	family := func(n int, ord banyan.Order, conc banyan.Concentration, method string) (*props.Report, error) {
		return banyanRoute(ctx, n, check.BanyanRoute{Order: ord, Concentration: conc, Enumerate: method == "enumerate"})
	}
	for _, n := range sizes {
		for _, ord := range []banyan.Order{banyan.Ascending, banyan.Descending} {
			for _, conc := range []banyan.Concentration{banyan.Plain, banyan.Cyclic} {
				if ctx.Err() != nil {
					return Outcome{Verdict: Inconclusive, Err: ctx.Err()}
				}
				r, err := family(n, ord, conc, "pairs")
				if err != nil {
					return Outcome{Verdict: Inconclusive, Err: err}
				}
				out.Instances += int(r.Stats.Checked)
				out.Figures[fmt.Sprintf("pairs_N%d_%v_%v", n, ord, conc)] = float64(r.Stats.Checked)
				d := conflictOf(r)
				if d == nil {
					continue
				}
				w := map[string]any{"N": n, "order": ord.String(), "concentration": conc.String(), "pattern": d.Pattern, "conflict": d.Conflict}
				if conc == banyan.Plain {
					out.Verdict, out.Witness = Violated, w
					out.Evidence = r.Evidence
					return out
				}
				cyclicWitness = w
			}
		}
	}
	// Cross-check the pair reduction against full pattern enumeration.
	for _, n := range enumerate {
		for _, ord := range []banyan.Order{banyan.Ascending, banyan.Descending} {
			for _, conc := range []banyan.Concentration{banyan.Plain, banyan.Cyclic} {
				r, err := family(n, ord, conc, "enumerate")
				if err != nil {
					return Outcome{Verdict: Inconclusive, Err: err}
				}
				if d := conflictOf(r); d != nil && conc == banyan.Plain {
					return Outcome{Verdict: Violated, Instances: out.Instances, Witness: map[string]any{"N": n, "pattern": d.Pattern, "conflict": d.Conflict},
						Note: "a monotone concentrated pattern blocks (found by enumeration but not by pairs: the pair reduction is wrong)"}
				} else if d != nil && cyclicWitness == nil {
					return Outcome{Verdict: Inconclusive, Err: fmt.Errorf("N=%d %v cyclic pattern %v blocks but the pair reduction found none", n, ord, d.Pattern)}
				}
				out.Figures[fmt.Sprintf("patterns_N%d_%v_%v", n, ord, conc)] = float64(r.Stats.Checked)
				out.Instances += int(r.Stats.Checked)
			}
		}
	}
	// gopter sample of whole patterns on N = 64.
	params := gen.NewSampler(mnSeed)
	g := gen.Bools(64)
	for i := 0; i < samples; i++ {
		mask, _ := gen.Draw(params, g)
		start, _ := gen.Draw(params, gen.IntRange(0, 63))
		desc, _ := gen.Draw(params, gen.Bool())
		var dests []int
		for y, in := range mask {
			if in {
				dests = append(dests, y)
			}
		}
		if len(dests) == 0 {
			continue
		}
		if desc {
			slices.Reverse(dests)
		}
		start %= 64 - len(dests) + 1
		pat := make([]topology.BanyanPacket, len(dests))
		for l, d := range dests {
			pat[l] = topology.BanyanPacket{Source: start + l, Dest: topology.UnicastTag(d)}
		}
		r, err := banyanRoute(ctx, 64, check.BanyanRoute{Pattern: pat})
		if err != nil {
			return Outcome{Verdict: Inconclusive, Err: err}
		}
		out.Instances++
		if d := conflictOf(r); d != nil {
			out.Verdict, out.Witness = Violated, map[string]any{"N": 64, "pattern": pat, "conflict": d.Conflict}
			return out
		}
	}
	out.Figures["gopter_samples_N64"] = float64(samples)
	if cyclicWitness != nil {
		out.Witness = map[string]any{"cyclic_concentration_blocks": cyclicWitness}
		out.Note = fmt.Sprintf("Plain concentration: no blocking for N = %v (every monotone pattern, by pairs) and %d sampled patterns on N = 64; cyclic concentration DOES block, witness given: Property 1 needs plain concentration.", sizes, samples)
	} else {
		out.Note = fmt.Sprintf("No monotone (ascending or descending) concentrated pattern blocks for N = %v: exhaustive by the pair reduction (a pattern blocks iff two of its packets share a link, and every compatible pair extends to a pattern), cross-checked by enumerating every pattern for N = %v and %d gopter patterns on N = 64. Cyclic concentration (sources consecutive modulo N) is also nonblocking on all these sizes, so Property 1 holds with or without wrap-around of the sources; the two-phase algorithm still cannot wrap, because its phase 1 region [s, s+f-1] must be an interval.", sizes, enumerate, samples)
	}
	return out
}

// runMN2 finds minimal blocking patterns when one condition of Property 1 is dropped:
// (a) concentrated sources with non-monotone destinations, (b) ascending destinations
// with sources that are not concentrated. It searches N = 4, then 8, by increasing number
// of packets k, so the first witness of each kind is minimal in (N, k); every candidate
// pattern is checked through the entry (banyan-route's pattern).
func runMN2(ctx context.Context, env Env) Outcome {
	type wit struct {
		N        int                     `json:"N"`
		K        int                     `json:"k"`
		Pattern  []topology.BanyanPacket `json:"pattern"`
		Conflict *topology.LinkConflict  `json:"conflict"`
	}
	var nonMonotone, nonConcentrated *wit
	var runErr error
	var shown *props.Report
	instances := 0
	// blocks checks one pattern; it returns the conflict (nil when it does not block).
	blocks := func(n int, pat []topology.BanyanPacket) (*props.Report, *topology.LinkConflict) {
		r, err := banyanRoute(ctx, n, check.BanyanRoute{Pattern: pat})
		if err != nil {
			runErr = err
			return nil, nil
		}
		if d := conflictOf(r); d != nil {
			return r, d.Conflict
		}
		return r, nil
	}
	for _, n := range []int{4, 8} {
		for k := 2; k <= n && (nonMonotone == nil || nonConcentrated == nil); k++ {
			if ctx.Err() != nil {
				return Outcome{Verdict: Inconclusive, Err: ctx.Err()}
			}
			// (a) sources x..x+k-1, destinations a k-permutation that is not monotone.
			if nonMonotone == nil {
				for x := 0; x+k <= n && nonMonotone == nil; x++ {
					forPermutations(n, k, func(d []int) bool {
						if monotone(d) {
							return true
						}
						instances++
						pat := make([]topology.BanyanPacket, k)
						for l := range d {
							pat[l] = topology.BanyanPacket{Source: x + l, Dest: topology.UnicastTag(d[l])}
						}
						if r, c := blocks(n, pat); c != nil {
							nonMonotone, shown = &wit{n, k, pat, c}, r
							return false
						}
						return runErr == nil
					})
				}
			}
			// (b) k sources that are not consecutive, ascending destinations.
			if nonConcentrated == nil {
				forSubsets(n, k, func(src []int) bool {
					if src[k-1]-src[0] == k-1 {
						return true
					}
					ok := true
					forSubsets(n, k, func(d []int) bool {
						instances++
						pat := make([]topology.BanyanPacket, k)
						for l := range d {
							pat[l] = topology.BanyanPacket{Source: src[l], Dest: topology.UnicastTag(d[l])}
						}
						if _, c := blocks(n, pat); c != nil {
							nonConcentrated = &wit{n, k, pat, c}
							ok = false
						}
						return ok && runErr == nil
					})
					return ok && runErr == nil
				})
			}
			if runErr != nil {
				return Outcome{Verdict: Inconclusive, Err: runErr}
			}
		}
	}
	out := Outcome{Instances: instances, Verdict: Holds}
	if nonMonotone != nil && nonConcentrated != nil {
		out.Verdict = Violated
		out.Evidence = shown.Evidence
		out.Note = fmt.Sprintf("Dropping monotonicity: %v blocks on N=%d (k=%d; k=2 is always monotone). Dropping concentration: %v blocks on N=%d (k=%d).",
			nonMonotone.Pattern, nonMonotone.N, nonMonotone.K, nonConcentrated.Pattern, nonConcentrated.N, nonConcentrated.K)
	} else {
		out.Note = "no blocking pattern found without one of the conditions on N <= 8"
	}
	out.Witness = map[string]any{"non_monotone": nonMonotone, "non_concentrated": nonConcentrated}
	if out.Evidence != nil {
		if data, err := witnessJSON(out.Witness); err == nil {
			out.Files = map[string][]byte{"witness.json": data}
		}
	}
	return out
}

func monotone(d []int) bool {
	up, down := true, true
	for i := 1; i < len(d); i++ {
		up = up && d[i] > d[i-1]
		down = down && d[i] < d[i-1]
	}
	return up || down
}

// forSubsets calls f with every k-subset of 0..n-1 in ascending order, lexicographically,
// until f returns false.
func forSubsets(n, k int, f func([]int) bool) {
	c := make([]int, k)
	for i := range c {
		c[i] = i
	}
	for {
		if !f(c) {
			return
		}
		i := k - 1
		for i >= 0 && c[i] == n-k+i {
			i--
		}
		if i < 0 {
			return
		}
		c[i]++
		for j := i + 1; j < k; j++ {
			c[j] = c[j-1] + 1
		}
	}
}

// forPermutations calls f with every k-permutation of 0..n-1 until f returns false.
func forPermutations(n, k int, f func([]int) bool) {
	d := make([]int, 0, k)
	used := make([]bool, n)
	var rec func() bool
	rec = func() bool {
		if len(d) == k {
			return f(d)
		}
		for y := 0; y < n; y++ {
			if used[y] {
				continue
			}
			used[y] = true
			d = append(d, y)
			ok := rec()
			d = d[:len(d)-1]
			used[y] = false
			if !ok {
				return false
			}
		}
		return true
	}
	rec()
}

// runMN3 checks through the entry (region-route's regions) that the region tree of
// every source and every interval [min, max] reaches exactly the nodes min..max, each
// once, with no channel used twice, for N = 2..64 (quick: N <= 16).
func runMN3(ctx context.Context, env Env) Outcome {
	maxN := pick(env.Size, 16, 64, 64)
	out := Outcome{Verdict: Holds}
	for n := 2; n <= maxN; n *= 2 {
		if ctx.Err() != nil {
			return Outcome{Verdict: Inconclusive, Err: ctx.Err()}
		}
		r, err := check.Run(ctx, check.Instance{Algorithm: "region-route", Topology: fmt.Sprintf("banyan:%d", n)}, checker.PropRegions, check.Options{})
		if err != nil {
			return Outcome{Verdict: Inconclusive, Err: err}
		}
		out.Instances += int(r.Figures["region_trees"])
		if r.Verdict != props.Holds {
			return Outcome{Verdict: r.Verdict.String(), Instances: out.Instances, Witness: detailOf(r)}
		}
	}
	out.Note = fmt.Sprintf("Every source and every interval on N = 2..%d: the SE rule of §2.2 (re-derived) delivers to exactly min..max, each once, along a tree.", maxN)
	return out
}

// runMN4 checks Theorem 1 through the entry: for every destination set and every start
// s (s+f-1 <= N-1) on N = 16 the phase-2 copies do not block (banyan-route's two-phase
// family), every phase-1 region tree on N = 16 is a tree reaching exactly s..s+f-1
// (region-route), and random instances on N = 64 (gopter; each a pattern for the naive check)
// do not block. The wrapping variant (s+f-1 past N-1, phase-2 sources consecutive
// modulo N) is reported as a figure.
func runMN4(ctx context.Context, env Env) Outcome {
	samples := pick(env.Size, 300, 3000, 3000)
	out := Outcome{Verdict: Holds, Figures: map[string]float64{}}
	r, err := banyanRoute(ctx, 16, check.BanyanRoute{TwoPhase: true})
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	out.Figures["phase2_seconds_N16"] = r.Stats.Seconds
	out.Instances += int(r.Stats.Checked)
	out.Figures["sets_N16"] = r.Figures["sets"]
	out.Figures["instances_N16"] = r.Figures["instances"]
	if r.Verdict == props.Violated {
		out.Verdict, out.Witness = Violated, detailOf(r)
		out.Evidence = r.Evidence
		return out
	}
	rw, err := banyanRoute(ctx, 16, check.BanyanRoute{TwoPhase: true, Wrap: true})
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	out.Figures["wrapping_instances_N16"] = rw.Figures["instances"]
	wrapNote := "the wrapping variant (phase-2 sources consecutive modulo N) does not block either"
	if d := conflictOf(rw); d != nil {
		wrapNote = fmt.Sprintf("the wrapping variant blocks: set %v start %d (%v)", d.Dests, *d.Start, d.Conflict)
	}
	// Phase 1: every source, fanout and start.
	rp, err := check.Run(ctx, check.Instance{Algorithm: "region-route", Topology: "banyan:16"}, checker.PropRegions, check.Options{})
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	out.Instances += int(rp.Figures["phase1_copies"])
	if rp.Verdict != props.Holds {
		return Outcome{Verdict: rp.Verdict.String(), Witness: detailOf(rp)}
	}
	// gopter sample on N = 64.
	params := gen.NewSampler(mnSeed)
	for i := 0; i < samples; i++ {
		if ctx.Err() != nil {
			return Outcome{Verdict: Inconclusive, Err: ctx.Err()}
		}
		mask, _ := gen.Draw(params, gen.Bools(64))
		sRaw, _ := gen.Draw(params, gen.IntRange(0, 63))
		m := banyan.Multicast{}
		for y, in := range mask {
			if in {
				m.Dests = append(m.Dests, y)
			}
		}
		if len(m.Dests) == 0 {
			continue
		}
		s := sRaw % (64 - m.Fanout() + 1)
		rs, err := banyanRoute(ctx, 64, check.BanyanRoute{Pattern: banyan.Phase2(m, s, 64)})
		if err != nil {
			return Outcome{Verdict: Inconclusive, Err: err}
		}
		out.Instances++
		if d := conflictOf(rs); d != nil {
			out.Verdict, out.Witness = Violated, map[string]any{"N": 64, "dests": m.Dests, "start": s, "conflict": d.Conflict}
			return out
		}
	}
	out.Note = fmt.Sprintf("N = 16: all %d destination sets x every start s in 0..N-f (%d instances) in %.2fs; every phase-1 tree; %d gopter instances on N = 64. Phase 1 cannot wrap (its region is an interval); %s.",
		int64(r.Figures["sets"]), int64(r.Figures["instances"]), out.Figures["phase2_seconds_N16"], samples, wrapNote)
	return out
}

// fig4 is the instance of 002 Fig. 4.
const fig4 = "1->5,6,7,8;15->7-12"

// runMN5 explores the Fig. 4 instance (every pair of phase-1 starts) with free
// arbitration in the lockstep timing and expects a deadlock; the shortest trace is saved
// as a trace file that replays.
var runMN5 = certified(mn5)

func mn5(ctx context.Context, env Env, tally *checker.Tally) Outcome {
	msgs, _ := banyan.ParseMulticasts(fig4, 16)
	rep, err := twoPhase(ctx, env, tally, 16, msgs, banyan.Free, banyan.Lockstep, nil, 0, env.Workers)
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	out := Outcome{Instances: startCombinations(rep), States: rep.Stats.States, Verdict: rep.Verdict.String()}
	if ctx.Err() != nil {
		return cancelled(ctx, out) // a search cut short found nothing either way
	}
	if rep.Verdict != checker.Violated {
		out.Note = "no deadlock found with free arbitration"
		return out
	}
	tf := rep.Trace
	ok, _, err := banyan.ReplayDeadlock(tf)
	if err != nil || !ok {
		return Outcome{Verdict: Inconclusive, Err: fmt.Errorf("MN5 trace does not replay to a deadlock: %v", err)}
	}
	out.Witness = tf
	out.Files, out.Evidence = twoPhaseFiles(rep), rep.Evidence
	// The narrative of Fig. 4 itself: phase-1 regions exactly {5..8} and {7..12}.
	frep, err := twoPhase(ctx, env, tally, 16, msgs, banyan.Free, banyan.Lockstep, []int{5, 7}, 0, 1)
	figNote := ""
	if err == nil && frep.Verdict == checker.Violated {
		out.States += frep.Stats.States
		figNote = " With starts 5 and 7 (phase-1 regions exactly {5..8} and {7..12}, the figure's narrative): " + frep.Trace.Violation + "."
	}
	out.Note = fmt.Sprintf("Lockstep timing, atomic acquisition, every start pair (%d initial states): shortest deadlock after %d cycles: %s.%s", startCombinations(rep), len(tf.Actions), tf.Violation, figNote)
	return out
}

// runMN6 checks Theorem 2 in the lockstep timing (the paper's slotted MIN, whose
// proof assumes that packets request links at the same stage simultaneously): the Fig. 4
// instance with every start pair by the explorer; every pair of multicasts on N = 8 with
// every start pair (quick: a seeded sample) and the Fig. 4 family on N = 16 (every pair
// of sources with the destination sets {5..8} and {7..12}, every start pair; quick: the
// figure's sources only) by the fast simulator. Beyond pairs the theorem fails: MN6B.
var runMN6 = certified(mn6)

func mn6(ctx context.Context, env Env, tally *checker.Tally) Outcome {
	out := Outcome{Verdict: Holds, Figures: map[string]float64{}}
	msgs, _ := banyan.ParseMulticasts(fig4, 16)
	start := time.Now()
	res, err := twoPhase(ctx, env, tally, 16, msgs, banyan.UpperFirst, banyan.Lockstep, nil, 0, env.Workers)
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	out.States += res.Stats.States
	out.Instances += startCombinations(res)
	out.Figures["fig4_states"] = float64(res.Stats.States)
	out.Figures["fig4_seconds"] = time.Since(start).Seconds()
	if res.Verdict != checker.Holds {
		return mn6Violation(out, res)
	}
	// N = 8: every pair of multicasts.
	var all8 []banyan.Multicast
	for src := 0; src < 8; src++ {
		for mask := 1; mask < 256; mask++ {
			m := banyan.Multicast{Source: src}
			for y := 0; y < 8; y++ {
				if mask>>y&1 == 1 {
					m.Dests = append(m.Dests, y)
				}
			}
			all8 = append(all8, m)
		}
	}
	start = time.Now()
	var pairList [][2]banyan.Multicast
	if env.Size != Full {
		r := rand.New(rand.NewSource(mnSeed))
		for i := 0; i < pick(env.Size, 3000, 30000, 0); i++ {
			pairList = append(pairList, [2]banyan.Multicast{all8[r.Intn(len(all8))], all8[r.Intn(len(all8))]})
		}
	}
	var sw banyan.PairSweep
	meter := func(rows, cycles int64) { env.Meter.Add(rows, cycles) }
	if env.Size != Full {
		env.Meter.Expect(int64(len(pairList)))
		sw, err = banyan.SweepPairs(ctx, banyan.UpperFirst, env.Workers, 8, len(pairList), func(i int, yield func(a, c banyan.Multicast)) {
			yield(pairList[i][0], pairList[i][1])
		}, meter)
	} else {
		env.Meter.Expect(int64(len(all8)))
		sw, err = banyan.SweepPairs(ctx, banyan.UpperFirst, env.Workers, 8, len(all8), func(i int, yield func(a, c banyan.Multicast)) {
			for j := i; j < len(all8); j++ {
				yield(all8[i], all8[j])
			}
		}, meter)
	}
	out.Instances += int(sw.Instances)
	out.States += sw.Cycles
	if o, stop := sweepOutcome(ctx, env, sw, err, out); stop {
		return o
	}
	pairs := sw.Pairs
	out.Figures["N8_pairs"] = float64(pairs)
	out.Figures["N8_instances"] = float64(sw.Instances)
	out.Figures["N8_seconds"] = time.Since(start).Seconds()
	out.Figures["N8_cycles"] = float64(sw.Cycles)
	// N = 16: the Fig. 4 family.
	start = time.Now()
	srcs := []int{1, 15}
	if env.Size != Quick {
		srcs = srcs[:0]
		for s := 0; s < 16; s++ {
			srcs = append(srcs, s)
		}
	}
	env.Meter.Expect(int64(len(srcs)))
	sw, err = banyan.SweepPairs(ctx, banyan.UpperFirst, env.Workers, 16, len(srcs), func(i int, yield func(a, c banyan.Multicast)) {
		for _, s2 := range srcs {
			if env.Size == Quick && s2 == srcs[i] {
				continue
			}
			yield(banyan.Multicast{Source: srcs[i], Dests: msgs[0].Dests}, banyan.Multicast{Source: s2, Dests: msgs[1].Dests})
		}
	}, meter)
	out.Instances += int(sw.Instances)
	out.States += sw.Cycles
	if o, stop := sweepOutcome(ctx, env, sw, err, out); stop {
		return o
	}
	fam := sw.Pairs
	out.Figures["N16_pairs"] = float64(fam)
	out.Figures["N16_instances"] = float64(sw.Instances)
	out.Figures["N16_seconds"] = time.Since(start).Seconds()
	// Worms whose tails drain one link per cycle: a seeded sample of pairs on N = 8 with
	// the explorer (the fast simulator releases at once).
	flitSamples := pick(env.Size, 300, 1000, 3000)
	rf := rand.New(rand.NewSource(mnSeed + 1))
	for i := 0; i < flitSamples; i++ {
		if ctx.Err() != nil {
			return Outcome{Verdict: Inconclusive, Err: ctx.Err()}
		}
		pair := []banyan.Multicast{all8[rf.Intn(len(all8))], all8[rf.Intn(len(all8))]}
		starts := []int{rf.Intn(9 - pair[0].Fanout()), rf.Intn(9 - pair[1].Fanout())}
		fr, err := twoPhase(ctx, env, tally, 8, pair, banyan.UpperFirst, banyan.Lockstep, starts, 4+4*(i%2), 1)
		if err != nil {
			return Outcome{Verdict: Inconclusive, Err: err}
		}
		out.Instances++
		out.States += fr.Stats.States
		if fr.Verdict != checker.Holds {
			return mn6Violation(out, fr)
		}
	}
	out.Figures["N8_flit_samples"] = float64(flitSamples)
	out.Note = fmt.Sprintf("Lockstep timing (slotted, all sources inject in slot 0), atomic acquisition, upper-first: no deadlock on Fig. 4 (every start pair, %d states), on %d pairs of multicasts on N = 8 (every start pair, %.1fs) and on %d source pairs of the Fig. 4 family on N = 16 (%.1fs); fast-simulator figures are simulated cycles. %d sampled pairs on N = 8 with worms of L = 4 or 8 flits draining one link per cycle (explorer): no deadlock either.%s",
		res.Stats.States, pairs, out.Figures["N8_seconds"], fam, out.Figures["N16_seconds"], flitSamples, " Pairs only: Theorem 2 fails with three multicasts, or two arriving asynchronously (claim MN6B).")
	return out
}

func mn6Violation(out Outcome, rep *props.Report) Outcome {
	out.Verdict = rep.Verdict.String()
	if rep.Verdict != checker.Violated {
		out.Note = "the explorer did not confirm the fast simulator's deadlock: " + rep.Reason
		out.Verdict = Inconclusive
		return out
	}
	out.Witness = rep.Trace
	out.Files, out.Evidence = twoPhaseFiles(rep), rep.Evidence
	out.Note = fmt.Sprintf("%v arbitration deadlocks in the lockstep model: %s", rep.Instance.Params["arbitration"], rep.Trace.Violation)
	return out
}

// sweepOutcome turns a sweep that found a deadlock (or failed) into MN6's outcome,
// confirming the deadlock with the explorer through the entry; stop is false when the
// sweep was clean.
func sweepOutcome(ctx context.Context, env Env, sw banyan.PairSweep, err error, out Outcome) (Outcome, bool) {
	if err != nil {
		if ctx.Err() != nil {
			return cancelled(ctx, out), true
		}
		return Outcome{Verdict: Inconclusive, Err: err, Instances: out.Instances}, true
	}
	if !sw.Found {
		return out, false
	}
	var tally checker.Tally // the confirmation is not one of the claim's members
	wr, err := twoPhase(ctx, env, &tally, sw.N, []banyan.Multicast{sw.A, sw.C}, sw.Arbitration, banyan.Lockstep, []int{sw.S1, sw.S2}, 0, 1)
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}, true
	}
	return mn6Violation(out, wr), true
}

// triple is the smallest three-multicast deadlock under upper-first that a seeded random
// search with the fast simulator found on N = 8 (total fanout 5); runMN6b re-derives its
// verdict with the explorer over every start combination.
const triple = "2->4,5;5->2,7;0->4"

// runMN6b checks Theorem 2 beyond MN6's pairs: (a) the three multicasts of triple on
// N = 8 in the lockstep timing with upper-first, every start combination, by the
// explorer; (b) Fig. 4 in the asynchronous timing with upper-first; (c) a seeded random
// sample of triples on N = 8 (fanouts 1..4, random starts) with the fast simulator,
// whose deadlock rate is reported. The verdict is the explorer's on (a) and (b).
var runMN6b = certified(mn6b)

func mn6b(ctx context.Context, env Env, tally *checker.Tally) Outcome {
	out := Outcome{Verdict: Holds, Figures: map[string]float64{}}
	b8, _ := topology.NewBanyan(8)
	msgs, _ := banyan.ParseMulticasts(triple, 8)
	res, err := twoPhase(ctx, env, tally, 8, msgs, banyan.UpperFirst, banyan.Lockstep, nil, 0, env.Workers)
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	out.States += res.Stats.States
	out.Instances += startCombinations(res)
	var notes []string
	if res.Verdict == checker.Violated {
		out.Verdict = Violated
		out.Files, out.Evidence = twoPhaseFiles(res), res.Evidence
		out.Witness = res.Trace
		notes = append(notes, fmt.Sprintf("Lockstep, upper-first, %s on N = 8 (%d start combinations, %d states): %s. A third multicast delays one branch of an upper-input packet by a cycle; the lower-input packet then takes the link first and the priority, which only orders simultaneous requests, cannot undo it - the proof's premise that all copies request at stage i at the same time fails as soon as any packet has been blocked once.",
			triple, startCombinations(res), res.Stats.States, res.Trace.Violation))
	} else {
		notes = append(notes, fmt.Sprintf("lockstep, upper-first, %s on N = 8: %v", triple, res.Verdict))
	}
	// The same triple with worms of L flits whose tails drain one link per cycle.
	if res.Verdict == checker.Violated {
		var held []string
		for _, l := range []int{4, 8, 12} {
			fr, err := twoPhase(ctx, env, tally, 8, msgs, banyan.UpperFirst, banyan.Lockstep, nil, l, env.Workers)
			if err != nil {
				return Outcome{Verdict: Inconclusive, Err: err}
			}
			out.States += fr.Stats.States
			out.Instances += startCombinations(fr)
			held = append(held, fmt.Sprintf("L=%d %v (%d states)", l, fr.Verdict, fr.Stats.States))
		}
		notes = append(notes, "With tails draining one link per cycle (worm length L): "+strings.Join(held, ", ")+".")
	}
	// (b) Fig. 4 asynchronously.
	f4, _ := banyan.ParseMulticasts(fig4, 16)
	ares, err := twoPhase(ctx, env, tally, 16, f4, banyan.UpperFirst, banyan.Async, []int{5, 7}, 0, env.Workers)
	if err != nil {
		return Outcome{Verdict: Inconclusive, Err: err}
	}
	out.States += ares.Stats.States
	out.Instances++
	if ares.Verdict == checker.Violated {
		out.Verdict = Violated
		data, _ := json.MarshalIndent(ares.Trace, "", "  ")
		if out.Files == nil {
			out.Files = map[string][]byte{}
		}
		out.Files["async.json"] = data
		if out.Witness == nil {
			out.Witness = ares.Trace
		}
		notes = append(notes, fmt.Sprintf("Asynchronous, upper-first, Fig. 4 with starts 5, 7 (%d states): %s.", ares.Stats.States, ares.Trace.Violation))
	}
	// (c) seeded random triples.
	samples := pick(env.Size, 5000, 20000, 100000)
	fs, _ := banyan.NewFastLockstep(b8, nil, nil, banyan.UpperFirst)
	r := rand.New(rand.NewSource(mnSeed))
	dead := 0
	for i := 0; i < samples; i++ {
		if i%1024 == 0 && ctx.Err() != nil {
			return Outcome{Verdict: Inconclusive, Err: ctx.Err()}
		}
		ms := make([]banyan.Multicast, 3)
		st := make([]int, 3)
		for k := range ms {
			maxf := 1 + r.Intn(4)
			mask := 0
			for on := 1 + r.Intn(maxf); on > 0; on-- {
				mask |= 1 << r.Intn(8)
			}
			ms[k].Source = r.Intn(8)
			for y := 0; y < 8; y++ {
				if mask>>y&1 == 1 {
					ms[k].Dests = append(ms[k].Dests, y)
				}
			}
			st[k] = r.Intn(8 - ms[k].Fanout() + 1)
		}
		if err := fs.Reset(ms, st); err != nil {
			return Outcome{Verdict: Inconclusive, Err: err}
		}
		if fs.Deadlocks() {
			dead++
		}
	}
	out.Instances += samples
	out.States += fs.Cycles
	out.Figures["random_triples"] = float64(samples)
	out.Figures["random_triples_deadlocking"] = float64(dead)
	notes = append(notes, fmt.Sprintf("Random triples on N = 8 (seed %d, lockstep, upper-first): %d of %d deadlock.", mnSeed, dead, samples))
	out.Note = strings.Join(notes, " ")
	return out
}

// certified runs a claim that counts its explorer searches in a tally and gives its
// outcome the claim-level certificate of that tally.
func certified(run func(context.Context, Env, *checker.Tally) Outcome) func(context.Context, Env) Outcome {
	return func(ctx context.Context, env Env) Outcome {
		var tally checker.Tally
		out := run(ctx, env, &tally)
		out.Certificate = certificate(out.Verdict, tally)
		return out
	}
}
