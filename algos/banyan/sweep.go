package banyan

import (
	"context"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/model"
)

// PairSweep is what SweepPairs found: how many pairs of multicasts and (pair, start
// pair) instances it ran, the cycles the fast simulator simulated, and the first
// deadlocking instance, if any.
type PairSweep struct {
	N                        int
	Arbitration              Arbitration
	Pairs, Instances, Cycles int64
	Found                    bool
	A, C                     Multicast
	S1, S2                   int
}

// pairRow is one row's share of a sweep.
type pairRow struct {
	pairs, instances, cycles int64
	found                    bool
	a, c                     Multicast
	s1, s2                   int
	err                      error
}

// SweepPairs runs the fast lockstep simulator (FastLockstep, arbitration arb) on every
// pair of multicasts that gen yields for the rows 0..rows-1 of a family on the banyan of
// n inputs, with every pair of phase-1 starts, on workers workers of the family runner
// (checker/family; a row is a member, its states the cycles simulated). The rows are visited in order and the sweep stops
// at the first row with a deadlock, so the counts and the reported deadlock (the first
// in that row) do not depend on workers. When ctx ends it returns the rows visited so
// far and ctx's error. Cost: one simulation per instance, a few cycles each.
func SweepPairs(ctx context.Context, arb Arbitration, workers, n, rows int, gen func(i int, yield func(a, c Multicast)), progress func(rows, cycles int64)) (PairSweep, error) {
	total := PairSweep{N: n, Arbitration: arb}
	workers = max(1, workers)
	sims := make([]*FastLockstep, workers)
	bn, err := model.NewBanyan(n)
	if err != nil {
		return total, err
	}
	for w := range sims {
		if sims[w], err = NewFastLockstep(bn, nil, nil, arb); err != nil {
			return total, err
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	opt := family.Options{Pool: workers, StopAtFirst: true}
	if progress != nil {
		opt.Count = func(_, done, cycles int64) {
			if done > 0 {
				progress(done, cycles)
			}
		}
	}
	_, err = family.Run(ctx, rows, opt, func(ctx context.Context, w, i int) (pairRow, family.Outcome) {
		fs := sims[w]
		before := fs.Cycles
		var r pairRow
		pair := make([]Multicast, 2)
		st := make([]int, 2)
		gen(i, func(a, c Multicast) {
			if r.found || r.err != nil {
				return
			}
			r.pairs++
			pair[0], pair[1] = a, c
			for s1 := 0; s1+a.Fanout() <= n && !r.found; s1++ {
				for s2 := 0; s2+c.Fanout() <= n; s2++ {
					st[0], st[1] = s1, s2
					if err := fs.Reset(pair, st); err != nil {
						r.err = err
						return
					}
					r.instances++
					if fs.Deadlocks() {
						r.found, r.a, r.c, r.s1, r.s2 = true, a, c, s1, s2
						break
					}
				}
			}
		})
		r.cycles = fs.Cycles - before
		o := family.Outcome{Verdict: checker.Holds, States: r.cycles}
		if r.found {
			o.Verdict = checker.Violated
		}
		return r, o
	}, func(_ int, r pairRow, _ family.Outcome) error {
		if r.err != nil {
			return r.err
		}
		total.Pairs += r.pairs
		total.Instances += r.instances
		total.Cycles += r.cycles
		if r.found {
			total.Found, total.A, total.C, total.S1, total.S2 = true, r.a, r.c, r.s1, r.s2
		}
		return nil
	})
	if err != nil {
		return total, err
	}
	return total, ctx.Err()
}
