package family

import (
	"context"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/checker"
)

// toy checks member i: violated when i is a multiple of 7 (past 0), with i states.
func toy(_ context.Context, _, i int) (int, Outcome) {
	v := checker.Holds
	if i > 0 && i%7 == 0 {
		v = checker.Violated
	}
	return i * 10, Outcome{Verdict: v, States: int64(i)}
}

// TestRunOrderShardResumeStop: members are visited in index order whatever the pool,
// a shard takes its residues, Done members are skipped, the run stops at its first
// violation when asked (partial), and Limit cuts it (partial).
func TestRunOrderShardResumeStop(t *testing.T) {
	run := func(n int, opt Options) ([]int, Stats) {
		var seen []int
		st, err := Run(context.Background(), n, opt, toy, func(i, r int, o Outcome) error {
			if r != 10*i || o.States != int64(i) {
				t.Fatalf("member %d: result %d, %+v", i, r, o)
			}
			seen = append(seen, i)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return seen, st
	}
	for _, pool := range []int{1, 2, 5} {
		seen, st := run(20, Options{Pool: pool})
		if !slices.Equal(seen, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19}) || st.Partial || st.Checked != 20 {
			t.Fatalf("pool %d: %v %+v", pool, seen, st)
		}
		seen, st = run(20, Options{Pool: pool, Shard: Shard{Index: 1, Count: 3}, StopAtFirst: true})
		if !slices.Equal(seen, []int{1, 4, 7}) || !st.Partial || st.Total != 7 {
			t.Fatalf("pool %d, shard 1/3, stop: %v %+v", pool, seen, st)
		}
		seen, st = run(20, Options{Pool: pool, Done: func(i int) bool { return i < 15 }, Limit: 17})
		if !slices.Equal(seen, []int{15, 16}) || !st.Partial {
			t.Fatalf("pool %d, resume at 15, limit 17: %v %+v", pool, seen, st)
		}
	}
}

// TestRunStopsOnVisitError: an error from visit ends the run with it, and Stop ends it
// partial without one.
func TestRunStopsOnVisitError(t *testing.T) {
	bad := errors.New("bad member")
	_, err := Run(context.Background(), 10, Options{Pool: 2}, toy, func(i, _ int, _ Outcome) error {
		if i == 3 {
			return bad
		}
		return nil
	})
	if !errors.Is(err, bad) {
		t.Fatalf("err %v", err)
	}
	st, err := Run(context.Background(), 10, Options{Pool: 2}, toy, func(i, _ int, _ Outcome) error {
		if i == 3 {
			return Stop
		}
		return nil
	})
	if err != nil || !st.Partial || st.Checked != 4 {
		t.Fatalf("stop: %+v %v", st, err)
	}
}

// TestRunInterrupted: a cancelled run does not visit a member whose search the
// cancellation cut short (inconclusive), and is partial.
func TestRunInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var seen []int
	st, err := Run(ctx, 10, Options{}, func(ctx context.Context, _, i int) (int, Outcome) {
		if i == 4 {
			cancel()
			return 0, Outcome{Verdict: checker.Inconclusive}
		}
		return i, Outcome{Verdict: checker.Holds}
	}, func(i, _ int, _ Outcome) error {
		seen = append(seen, i)
		return nil
	})
	if err != nil || !st.Partial || !slices.Equal(seen, []int{0, 1, 2, 3}) {
		t.Fatalf("%v %+v %v", seen, st, err)
	}
}

// TestCheckpointCadence: with an interval shorter than a member a checkpoint follows
// every member, and its error ends the run.
func TestCheckpointCadence(t *testing.T) {
	calls := 0
	boom := errors.New("disk full")
	slow := func(ctx context.Context, w, i int) (int, Outcome) {
		time.Sleep(2 * time.Millisecond)
		return toy(ctx, w, i)
	}
	_, err := Run(context.Background(), 10, Options{CheckpointEvery: time.Microsecond, Checkpoint: func() error {
		calls++
		if calls == 3 {
			return boom
		}
		return nil
	}}, slow, func(int, int, Outcome) error { return nil })
	if !errors.Is(err, boom) || calls != 3 {
		t.Fatalf("%d calls, %v", calls, err)
	}
}

// TestParseShard reads i/n and refuses the rest.
func TestParseShard(t *testing.T) {
	if s, err := ParseShard("2/5"); err != nil || s != (Shard{Index: 2, Count: 5}) || s.String() != "2/5" || !s.Has(7) || s.Has(8) {
		t.Fatalf("%v %v", s, err)
	}
	for _, bad := range []string{"", "5/5", "-1/2", "1/0", "a/b", "1"} {
		if _, err := ParseShard(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}
