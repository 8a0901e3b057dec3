package checker_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/wormcheck/wormcheck/checker"
)

// waiter is a strategy that returns result r, decided or not, after d, or "cancelled"
// as soon as its context ends.
func waiter(name string, lead, d time.Duration, r string, decided bool) checker.Strategy[string] {
	return checker.Strategy[string]{Name: name, Lead: lead, Run: func(ctx context.Context) (string, bool, error) {
		select {
		case <-time.After(d):
			return r, decided, nil
		case <-ctx.Done():
			return "cancelled", false, nil
		}
	}}
}

// TestRaceFirstDecisionWins: the strategy that decides first wins and cancels the one
// still running; a strategy that ends undecided starts the next at once (not after its
// lead); one that never started reports the zero result.
func TestRaceFirstDecisionWins(t *testing.T) {
	hour := time.Hour
	res, err := checker.Race(t.Context(), []checker.Strategy[string]{
		waiter("static", hour, 0, "violated-somewhere", false),  // undecided at once: the next starts
		waiter("bfs", 10*time.Millisecond, hour, "holds", true), // slow: the swarm starts after its lead
		waiter("swarm", 0, 20*time.Millisecond, "violated", true),
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Winner != 2 || res.Results[2] != "violated" || res.Results[1] != "cancelled" || res.Results[0] != "violated-somewhere" {
		t.Fatalf("winner %d, results %q", res.Winner, res.Results)
	}
	if !res.Ran[1] || res.Started[1] > 30*time.Minute || res.Started[2] < 10*time.Millisecond {
		t.Errorf("started %v: the second did not start when the first ended undecided, or the third before the second's lead", res.Started)
	}

	res, err = checker.Race(t.Context(), []checker.Strategy[string]{
		waiter("static", hour, 0, "holds", true),
		waiter("bfs", 0, hour, "holds", true),
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Winner != 0 || res.Ran[1] || res.Results[1] != "" {
		t.Errorf("a decision at once must leave the later strategies unstarted: winner %d, ran %v, results %q", res.Winner, res.Ran, res.Results)
	}
}

// TestRaceUndecidedAndErrors: when no strategy decides every result is kept and the
// winner is -1; a strategy's error cancels the others and is returned; a cancelled
// context starts nothing more.
func TestRaceUndecidedAndErrors(t *testing.T) {
	res, err := checker.Race(t.Context(), []checker.Strategy[string]{
		waiter("a", time.Millisecond, 5*time.Millisecond, "a?", false),
		waiter("b", 0, 5*time.Millisecond, "b?", false),
	})
	if err != nil || res.Winner != -1 || res.Results[0] != "a?" || res.Results[1] != "b?" {
		t.Fatalf("got %+v, %v", res, err)
	}
	boom := errors.New("boom")
	_, err = checker.Race(t.Context(), []checker.Strategy[string]{
		waiter("slow", 0, time.Hour, "x", true),
		{Name: "broken", Run: func(context.Context) (string, bool, error) { return "", false, boom }},
	})
	if !errors.Is(err, boom) {
		t.Errorf("error %v, want boom", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	res, err = checker.Race(ctx, []checker.Strategy[string]{
		waiter("first", 0, time.Hour, "x", true),
		waiter("second", 0, time.Hour, "y", true),
	})
	if err != nil || res.Winner != -1 || res.Ran[1] {
		t.Errorf("a cancelled race: %+v, %v", res, err)
	}
}

// TestRaceHelper: a helper starts beside a running strategy after its lead and is
// cancelled when that strategy ends undecided; a helper whose strategies have all ended
// before its turn is never started.
func TestRaceHelper(t *testing.T) {
	helper := waiter("swarm", 0, time.Hour, "violated", true)
	helper.Helper = true
	res, err := checker.Race(t.Context(), []checker.Strategy[string]{
		waiter("bfs", time.Millisecond, 30*time.Millisecond, "inconclusive", false),
		helper,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Winner != -1 || !res.Ran[1] || res.Results[1] != "cancelled" {
		t.Errorf("the helper must start beside bfs and stop with it: %+v", res)
	}
	res, err = checker.Race(t.Context(), []checker.Strategy[string]{
		waiter("bfs", time.Hour, 0, "inconclusive", false),
		helper,
	})
	if err != nil || res.Ran[1] {
		t.Errorf("a helper with nothing to help must not start: %+v, %v", res, err)
	}
}
