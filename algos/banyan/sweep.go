package banyan

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/family"
	"github.com/wormcheck/wormcheck/checker/tracefile"
	"github.com/wormcheck/wormcheck/model/topology"
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
// (checker/family; a row is a member, its states the cycles simulated). The rows are
// visited in order and the sweep stops at the first row with a deadlock, so the counts
// and the reported deadlock (the first in that row) do not depend on workers. When ctx
// ends it returns the rows visited so far and ctx's error. Cost: one simulation per
// instance, a few cycles each. PairFamily.Run is the same sweep, sharded, kept and
// resumable.
func SweepPairs(ctx context.Context, arb Arbitration, workers, n, rows int, gen func(i int, yield func(a, c Multicast)), progress func(rows, cycles int64)) (PairSweep, error) {
	sw, _, err := PairFamily{Arbitration: arb, Workers: workers, N: n, Rows: rows, Gen: gen, Progress: progress}.Run(ctx)
	return sw, err
}

// PairAlgorithm is the algorithm name banyan pair-family results carry.
const PairAlgorithm = "banyan-pairs"

// PairParams are the parameters every shard of one banyan pair-family run must share.
type PairParams struct {
	Arbitration string `json:"arbitration"`
	Timing      string `json:"timing"`
}

// PairRecord is the kept result of a banyan pair-family run (family.Result): the rows
// checked, each with its verdict and the cycles simulated as its states, the shard, and
// the first deadlocking row as the witness.
type PairRecord = family.Result[PairParams]

// ParsePairRecord decodes a banyan pair-family result file and checks its format.
func ParsePairRecord(data []byte) (*PairRecord, error) {
	return family.ParseResult[PairParams](data, PairAlgorithm)
}

// MergePairFiles reads the banyan pair-family results of disjoint shards of one run,
// with read, in order, and merges them (family.Merge); an error names the file at fault.
func MergePairFiles(files []string, read func(string) ([]byte, error)) (*PairRecord, error) {
	return family.MergeFiles[PairParams](files, read, PairAlgorithm)
}

// PairFamily is the sweep of SweepPairs as a family of rows (members): row i is every
// pair Gen(i) yields, each with every pair of phase-1 starts, on the banyan of N inputs,
// simulated by FastLockstep with Arbitration. Run checks one shard of it, keeps a
// result (PairRecord) that a later run resumes and `family.Merge` joins with the other
// shards', and stops at the first deadlocking row.
type PairFamily struct {
	// Name names the family in the kept result (e.g. "mn6-n8"); Gen must enumerate the
	// same rows for every run that shares a Name, since a resumed run skips rows by index.
	Name        string
	Arbitration Arbitration
	Workers     int
	N, Rows     int
	Gen         func(i int, yield func(a, c Multicast))
	// Progress, when not nil, is told the rows and cycles of each finished row.
	Progress func(rows, cycles int64)
	// Shard selects the rows to check (the zero Shard: all): row i when i mod
	// Shard.Count is Shard.Index.
	Shard family.Shard
	// Limit, when > 0, checks at most this many rows of the shard (counting those Resume
	// lists); the result is then partial.
	Limit int
	// Resume is the kept result of an earlier run of the same family and shard: its rows
	// are skipped, so that the finished record equals that of an uninterrupted run, row
	// by row.
	Resume *PairRecord
	// Checkpoint, when not nil, receives the kept result so far (partial) as rows finish,
	// at most once per CheckpointEvery (0: a second), and the final one; an error from it
	// ends the run.
	Checkpoint      func(*PairRecord) error
	CheckpointEvery time.Duration
}

// Run sweeps the rows of f's shard not in f.Resume, in order, on f.Workers simulators,
// and stops after the first row with a deadlock (unless f.Resume already has one: then
// it checks nothing). The PairSweep sums the rows this run checked; the PairRecord
// covers those of f.Resume too. The witness of a deadlock is the instance (Msgs "A;C
// starts S1,S2") with a trace file that names it and has no actions: the fast simulator
// records no path, and the explorer confirms it (proofs' MN6 does). When ctx ends it
// returns the rows visited so far, a partial record that resumes, and ctx's error.
func (f PairFamily) Run(ctx context.Context) (PairSweep, *PairRecord, error) {
	n, arb := f.N, f.Arbitration
	total := PairSweep{N: n, Arbitration: arb}
	rec := family.NewResult(PairAlgorithm, f.Name, fmt.Sprintf("banyan:%d", n), PairParams{Arbitration: arb.String(), Timing: Lockstep.String()}, f.Rows, f.Shard)
	workers := max(1, f.Workers)
	sims := make([]*FastLockstep, workers)
	bn, err := topology.NewBanyan(n)
	if err != nil {
		return total, rec, err
	}
	for w := range sims {
		if sims[w], err = NewFastLockstep(bn, nil, nil, arb); err != nil {
			return total, rec, err
		}
	}
	if ctx == nil {
		ctx = context.Background()
	}
	opt := family.KeepOptions[PairParams]{
		Options: family.Options{Pool: workers, Limit: f.Limit, StopAtFirst: true, CheckpointEvery: f.CheckpointEvery},
		Resume:  f.Resume, Checkpoint: f.Checkpoint,
	}
	if f.Progress != nil {
		opt.Count = func(_, done, cycles int64) {
			if done > 0 {
				f.Progress(done, cycles)
			}
		}
	}
	_, err = family.Keep(ctx, rec, opt, func(ctx context.Context, w, i int) (pairRow, family.Member, error) {
		fs := sims[w]
		before := fs.Cycles
		var r pairRow
		pair := make([]Multicast, 2)
		st := make([]int, 2)
		f.Gen(i, func(a, c Multicast) {
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
		m := family.Member{Outcome: family.Outcome{Verdict: checker.Holds, States: r.cycles}}
		if r.err != nil {
			return r, m, r.err
		}
		if r.found {
			m.Verdict = checker.Violated
			m.Msgs = fmt.Sprintf("%v;%v starts %d,%d", r.a, r.c, r.s1, r.s2)
			m.Trace = pairWitness(n, arb, r)
		}
		return r, m, nil
	}, func(_ int, r pairRow) {
		total.Pairs += r.pairs
		total.Instances += r.instances
		total.Cycles += r.cycles
		if r.found && !total.Found {
			total.Found, total.A, total.C, total.S1, total.S2 = true, r.a, r.c, r.s1, r.s2
		}
	})
	if err != nil {
		return total, rec, err
	}
	return total, rec, ctx.Err()
}

// pairWitness is the trace file of a deadlocking instance the fast simulator found: its
// parameters name the pair and starts; it has no actions (see PairFamily.Run).
func pairWitness(n int, arb Arbitration, r pairRow) *tracefile.File {
	params, _ := json.Marshal(struct {
		Msgs   []Multicast `json:"msgs"`
		Starts []int       `json:"starts"`
	}{[]Multicast{r.a, r.c}, []int{r.s1, r.s2}})
	return &tracefile.File{Format: tracefile.Format, Algorithm: PairAlgorithm, Topology: fmt.Sprintf("banyan:%d", n),
		Property: "deadlock-free", Semantics: "fast-lockstep/" + arb.String(), Params: params, Actions: []uint64{}, Labels: []string{},
		Violation: fmt.Sprintf("deadlock: %v and %v from starts %d,%d (fast simulator)", r.a, r.c, r.s1, r.s2)}
}
