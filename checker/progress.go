package checker

import (
	"fmt"
	"io"
	"sync"
	"time"
)

// progressSnapshot is what one progress line reports.
type progressSnapshot struct {
	states, frontier, depth int64
}

// progress writes a line "states N  states/s N  frontier N  depth N" to w at most once
// per interval from its own goroutine, and a final line when stopped. states/s is the
// rate over the last interval (over the whole run for the final line).
type progress struct {
	w     io.Writer
	start time.Time
	done  chan struct{}
	wg    sync.WaitGroup
}

func startProgress(w io.Writer, every time.Duration, start time.Time, snap func() progressSnapshot) *progress {
	p := &progress{w: w, start: start, done: make(chan struct{})}
	p.wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		prevStates, prevTime := int64(0), start
		for {
			select {
			case <-p.done:
				return
			case now := <-t.C:
				s := snap()
				p.line(s, s.states-prevStates, now.Sub(prevTime))
				prevStates, prevTime = s.states, now
			}
		}
	})
	return p
}

// stop ends the ticker goroutine and writes the final line.
func (p *progress) stop(final progressSnapshot) {
	close(p.done)
	p.wg.Wait()
	p.line(final, final.states, time.Since(p.start))
}

func (p *progress) line(s progressSnapshot, delta int64, d time.Duration) {
	rate := int64(0)
	if d > 0 {
		rate = int64(float64(delta) / d.Seconds())
	}
	// Progress is best effort: a failing writer must not fail the search.
	_, _ = fmt.Fprintf(p.w, "states %d  states/s %d  frontier %d  depth %d\n", s.states, rate, s.frontier, s.depth)
}
