package checker

import (
	"context"
	"sync"
	"time"
)

// Strategy is one way of deciding a question, run by Race beside others: a static
// decision, the exhaustive search, a swarm of walkers. Run decides under its context
// (cancelled when another strategy decides or the race's context ends) and says whether
// its result decides the question: an exhaustive search decides with holds or violated,
// a swarm only with violated, a sufficient static condition only with holds.
type Strategy[R any] struct {
	Name string
	// Lead is how long this strategy runs before Race starts the next one: the next
	// starts when Lead has passed or this one has ended undecided, whichever comes
	// first. The last strategy's Lead is not used.
	Lead time.Duration
	// Helper marks a strategy that only helps the others (swarm walkers beside an
	// exhaustive search with no time limit): Race skips it when no other strategy is
	// running and cancels it when the others have all ended undecided.
	Helper bool
	Run    func(ctx context.Context) (result R, decided bool, err error)
}

// RaceResult is what a Race ran: Winner is the index of the strategy whose result
// decided (-1 when none did), Results every strategy's result (the zero R for one never
// started), Started and Seconds when each started after the race began and how long it
// ran.
type RaceResult[R any] struct {
	Winner  int
	Results []R
	Ran     []bool
	Started []time.Duration
	Seconds []float64
}

// Race runs strategies as a portfolio: the first starts at once, each next one when its
// predecessor's Lead has passed or the predecessor has ended undecided; the first result
// that decides cancels the others, and Race returns when every started strategy has
// returned. A Helper runs only beside the other strategies: it is skipped when none of
// them is running, and cancelled when they have all ended undecided. Which strategy
// decides first depends on timing, so a caller whose verdicts must be reproducible
// races only strategies that are sound on their own (two that decide cannot disagree)
// and reports which one answered. An error from any strategy cancels the others and is
// returned. Strategies run on goroutines of their own; the pure cores (model, algos,
// props) reach concurrency only through here.
func Race[R any](ctx context.Context, strategies []Strategy[R]) (*RaceResult[R], error) {
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	n := len(strategies)
	res := &RaceResult[R]{Winner: -1, Results: make([]R, n), Ran: make([]bool, n), Started: make([]time.Duration, n), Seconds: make([]float64, n)}
	if n == 0 {
		return res, nil
	}
	type outcome struct {
		i       int
		r       R
		decided bool
		err     error
	}
	done := make(chan outcome, n)
	stops := make([]context.CancelFunc, n)
	begin := time.Now()
	var wg sync.WaitGroup
	running, principals, next := 0, 0, 0
	var firstErr error
	// advance starts the next strategy that may start now: a helper only beside a
	// running principal (one it cannot help is skipped).
	advance := func() {
		for ; next < n && ctx.Err() == nil; next++ {
			i := next
			if strategies[i].Helper && principals == 0 {
				continue
			}
			sctx, stop := context.WithCancel(ctx)
			stops[i] = stop
			res.Ran[i], res.Started[i] = true, time.Since(begin)
			running++
			if !strategies[i].Helper {
				principals++
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				t0 := time.Now()
				r, dec, err := strategies[i].Run(sctx)
				res.Seconds[i] = time.Since(t0).Seconds()
				done <- outcome{i, r, dec, err}
			}()
			next++
			return
		}
	}
	advance()
	for running > 0 {
		var lead <-chan time.Time
		var timer *time.Timer
		if next < n && ctx.Err() == nil {
			timer = time.NewTimer(res.Started[next-1] + strategies[next-1].Lead - time.Since(begin))
			lead = timer.C
		}
		select {
		case o := <-done:
			running--
			if !strategies[o.i].Helper {
				principals--
			}
			stops[o.i]()
			res.Results[o.i] = o.r
			switch {
			case o.err != nil:
				if firstErr == nil {
					firstErr = o.err
				}
				cancel()
			case o.decided && res.Winner < 0 && firstErr == nil:
				res.Winner = o.i
				cancel()
			case o.i == next-1 || running == 0:
				advance() // its predecessor ended undecided
			}
			if principals == 0 && !principalAhead(strategies[next:]) {
				for i, stop := range stops {
					if stop != nil && strategies[i].Helper {
						stop() // nothing left to help
					}
				}
			}
		case <-lead:
			advance()
		}
		if timer != nil {
			timer.Stop()
		}
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	return res, nil
}

// principalAhead says whether strategies holds one that is not a Helper.
func principalAhead[R any](strategies []Strategy[R]) bool {
	for _, s := range strategies {
		if !s.Helper {
			return true
		}
	}
	return false
}
