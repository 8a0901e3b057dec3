// Package family runs the members of an instance family: the one runner behind the
// family sweeps of the algorithms (unicast placements, tree-multicast pairs, banyan
// pairs) and the claims catalogue. It checks the members of one shard on the member pool
// (checker.Sweep), in member order whatever the pool size, skips the members an earlier
// run already checked (resume), stops at a limit or at the first violation, shows a
// progress line and calls for checkpoints at a bounded rate. What a family sums, and the
// file it keeps, are the family's own: its visit sees every member's result in order.
package family

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/wormcheck/wormcheck/checker"
	"github.com/wormcheck/wormcheck/checker/progress"
)

// Shard selects the members whose index is Index modulo Count; Count 0 or 1 is every
// member.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// MaxShards bounds the number of shards a run is split into: well above any job array
// (Slurm's largest is four million tasks; a shard of a family is seldom under a thousand
// members), and low enough that a merge may list the missing ones.
const MaxShards = 1 << 20

// ParseShard reads "i/n" with 0 <= i < n <= MaxShards.
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard %q: want i/n with 0 <= i < n, e.g. 0/4", s)
	}
	if n > MaxShards {
		return Shard{}, fmt.Errorf("shard %q: %d shards; at most %d", s, n, MaxShards)
	}
	return Shard{Index: i, Count: n}, nil
}

// String renders the shard as "i/n".
func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Has reports whether member index idx belongs to the shard.
func (s Shard) Has(idx int) bool { return s.Count <= 1 || idx%s.Count == s.Index }

// Outcome is what checking one member gave: its verdict and counts.
type Outcome struct {
	Verdict     checker.Verdict
	States      int64
	Transitions int64
}

// Options configure Run.
type Options struct {
	// Shard selects the members to check (the zero Shard: all).
	Shard Shard
	// Done, when not nil, says which members an earlier run already checked; they are
	// skipped (and counted as done on the progress line).
	Done func(index int) bool
	// Pool is the number of members checked at once (checker.Sweep); 0 means 1.
	Pool int
	// Limit, when > 0, checks at most this many members counting those Done; the run is
	// then partial.
	Limit int
	// StopAtFirst ends the run after the first violated member; it is then partial.
	StopAtFirst bool
	// Progress, when not nil, receives the progress line (members done of the shard's,
	// states, rate, ETA, memory), labelled Label.
	Progress io.Writer
	Label    string
	// PriorStates is the states an earlier run counted, for the progress line.
	PriorStates int64
	// Count, when not nil, is told the number of members to check first (total, 0, 0),
	// then each finished member (0, 1, states), from Run's goroutine.
	Count func(total, done, states int64)
	// Checkpoint, when not nil, is called after a member when CheckpointEvery (0: a
	// second), or twenty times the last call's duration if longer, has passed since the
	// last call; an error from it ends the run with that error.
	Checkpoint      func() error
	CheckpointEvery time.Duration
}

// Stop, returned by a visit, ends the run after that member, partial, without error.
var Stop = errors.New("stop")

// Stats says how a run ended: the members it checked (not counting those Done), of how
// many it was to check, and whether it is partial (interrupted, limited or stopped at a
// violation: Done and a resumed run complete it).
type Stats struct {
	Checked, Total int
	Partial        bool
}

// Run checks, of the members 0..n-1, those in opt.Shard and not opt.Done, in index
// order: check(ctx, w, i) computes member i on pool worker w and returns its result and
// outcome; visit(i, r, o) sees them in index order on Run's goroutine and returns an
// error to end the run (Stop to end it partial without error). A member whose search ctx cut short (verdict inconclusive once
// ctx is done) is not visited: it is checked again on resume. When ctx ends, Run returns
// what it visited, Partial, and no error.
func Run[R any](ctx context.Context, n int, opt Options, check func(ctx context.Context, w, i int) (R, Outcome), visit func(i int, r R, o Outcome) error) (Stats, error) {
	if ctx == nil {
		ctx = context.Background()
	}
	var mine []int
	prior := 0
	for i := 0; i < n; i++ {
		if !opt.Shard.Has(i) {
			continue
		}
		if opt.Done != nil && opt.Done(i) {
			prior++
			continue
		}
		mine = append(mine, i)
	}
	st := Stats{Total: len(mine)}
	if opt.Limit > 0 && prior+len(mine) > opt.Limit {
		mine, st.Partial = mine[:max(0, opt.Limit-prior)], true
	}
	if opt.Count != nil {
		opt.Count(int64(len(mine)), 0, 0)
	}
	var doneN, statesN atomic.Int64
	doneN.Store(int64(prior))
	statesN.Store(opt.PriorStates)
	line := progress.Start(progress.Options{W: opt.Progress, Label: opt.Label}, func() progress.Snapshot {
		return progress.Snapshot{Done: doneN.Load(), Total: int64(prior + st.Total), Unit: "members", Work: statesN.Load()}
	})
	defer line.Stop()
	every := opt.CheckpointEvery
	if every <= 0 {
		every = time.Second
	}
	last := time.Now()
	type result struct {
		r R
		o Outcome
	}
	var verr error
	serr := checker.Sweep(ctx, len(mine), opt.Pool, func(ctx context.Context, w, k int) result {
		r, o := check(ctx, w, mine[k])
		return result{r, o}
	}, func(k int, res result) bool {
		if res.o.Verdict == checker.Inconclusive && ctx.Err() != nil {
			return false // interrupted, not bounded
		}
		verr = visit(mine[k], res.r, res.o)
		if verr != nil && verr != Stop {
			return false
		}
		st.Checked++
		doneN.Add(1)
		statesN.Add(res.o.States)
		if opt.Count != nil {
			opt.Count(0, 1, res.o.States)
		}
		if verr == Stop || res.o.Verdict == checker.Violated && opt.StopAtFirst {
			verr = nil
			st.Partial = true
			return false
		}
		if opt.Checkpoint != nil && time.Since(last) >= every {
			t0 := time.Now()
			if verr = opt.Checkpoint(); verr != nil {
				return false
			}
			last = time.Now()
			// A large result takes a while to write: keep checkpoints under about 5%
			// of the run.
			every = max(every, 20*last.Sub(t0))
		}
		return true
	})
	if verr != nil {
		return st, verr
	}
	if serr != nil || st.Checked < len(mine) {
		st.Partial = true
	}
	return st, nil
}
