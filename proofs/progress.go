package proofs

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/wormcheck/wormcheck/checker/progress"
)

// Progress reports the running claim of a catalogue run in the shared progress format
// (checker/progress.Format), reading a Meter: on a terminal one line rewritten in place
// every second and cleared when the claim's row is printed, otherwise a plain line every
// few seconds and one when each claim ends. Writes are best effort: a failing writer
// must not fail the run. A nil *Progress does nothing.
type Progress struct {
	w     io.Writer
	tty   bool
	mu    sync.Mutex
	done  chan struct{}
	wg    sync.WaitGroup
	dirty bool // a terminal line is showing
}

// Progress intervals: once a second on a terminal, every 5 seconds as plain lines.
const (
	progressTTYEvery   = time.Second
	progressPlainEvery = 5 * time.Second
)

// StartProgress starts reporting m's snapshots to w, updating one line in place when tty
// is set; Stop ends it.
func StartProgress(w io.Writer, m *Meter, tty bool) *Progress {
	p := &Progress{w: w, tty: tty, done: make(chan struct{})}
	every := progressPlainEvery
	if tty {
		every = progressTTYEvery
	}
	p.wg.Go(func() {
		t := time.NewTicker(every)
		defer t.Stop()
		var prevStates int64
		prev := time.Now()
		for {
			select {
			case <-p.done:
				return
			case now := <-t.C:
				s := m.Snapshot()
				if s.Claim == "" {
					continue
				}
				if s.States < prevStates {
					prevStates = 0 // a new claim started
				}
				rate := float64(s.States-prevStates) / now.Sub(prev).Seconds()
				prevStates, prev = s.States, now
				p.print(progressLine(s, rate))
			}
		}
	})
	return p
}

// progressLine is one progress report in the shared format (checker/progress): the
// claim and its running family, that family's members done of the total with its
// elapsed time and ETA, the claim's states and rate, memory, and the claim's elapsed
// time, e.g. "prove TM2 [5/10 mesh:3x3 pairs:2 B=1 shard 0/20]:  389/669 members 58.1%
// states 1.30M  115k states/s  elapsed 10s  ETA 7s  heap 34MiB  rss 80MiB  claim 22s".
func progressLine(s MeterSnapshot, rate float64) string {
	snap := progress.Snapshot{Done: s.Done, Total: s.Total, Work: s.States,
		Note: "claim " + progress.Duration(s.Elapsed)}
	if s.Done > 0 || s.Total > 0 {
		snap.Unit = "members"
	}
	heap, rss := progress.Memory()
	label := fmt.Sprintf("prove %s [%d/%d %s]", s.Claim, s.FamilyIndex, s.Families, s.Family)
	return progress.Format(label, snap, rate, time.Duration(s.FamilyElapsedSec*float64(time.Second)), heap, rss)
}

func (p *Progress) print(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		_, _ = fmt.Fprintf(p.w, "\r%s\x1b[K", line)
		p.dirty = true
		return
	}
	_, _ = fmt.Fprintln(p.w, line)
}

// ClaimDone clears the terminal line and, for plain output, says how the claim ended;
// a claim not run says nothing.
func (p *Progress) ClaimDone(r Result) {
	if p == nil || r.Outcome.Verdict == NotRun {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		if p.dirty {
			_, _ = fmt.Fprint(p.w, "\r\x1b[K")
			p.dirty = false
		}
		return
	}
	_, _ = fmt.Fprintf(p.w, "prove %s: %s, %d instances, %d states, %.1fs\n", r.Claim.ID, r.Outcome.Verdict, r.Outcome.Instances, r.Outcome.States, r.Seconds)
}

// Stop ends the reporter and clears its line.
func (p *Progress) Stop() {
	if p == nil {
		return
	}
	close(p.done)
	p.wg.Wait()
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty && p.dirty {
		_, _ = fmt.Fprint(p.w, "\r\x1b[K")
	}
}
