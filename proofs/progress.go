package proofs

import (
	"fmt"
	"io"
	"strings"
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

// progressWidth is the most columns a progress line takes: it fits an 80-column
// terminal, where a longer line would wrap and no longer be rewritten in place.
const progressWidth = 79

// progressLine is one progress report, at most progressWidth columns: the claim and its
// running family (its name shortened to what room is left), that family's members done
// of the total, the claim's states and rate, the family's ETA and resident memory (which
// give way to the name when the line is full), and the claim's elapsed time, e.g.
// "prove TM2 [5/10 mesh:3x3 pairs:2]: 389/669 58%  1.30M states  115k/s  ETA 7s  22s".
func progressLine(s MeterSnapshot, rate float64) string {
	var done string
	if s.Total > 0 {
		done = fmt.Sprintf("%d/%d %.0f%%", s.Done, s.Total, 100*float64(s.Done)/float64(s.Total))
	} else if s.Done > 0 {
		done = fmt.Sprintf("%d done", s.Done)
	}
	var eta, rss string
	if s.Total > 0 && s.Done > 0 && s.Done < s.Total && s.FamilyElapsedSec > 0 {
		eta = "ETA " + progress.Duration(time.Duration(s.FamilyElapsedSec*float64(s.Total-s.Done)/float64(s.Done)*float64(time.Second)))
	}
	if _, r := progress.Memory(); r > 0 {
		rss = "rss " + progress.Bytes(r)
	}
	head := fmt.Sprintf("prove %s [%d/%d ", s.Claim, s.FamilyIndex, s.Families)
	family := []rune(s.Family)
	// The figures in the order they give way to the family's name: memory first, then
	// the ETA; the name keeps at least minFamily runes.
	const minFamily = 24
	var line string
	for _, optional := range [][]string{{eta, rss}, {eta}, nil} {
		parts := []string{done, progress.Count(float64(s.States)) + " states", progress.Count(rate) + "/s"}
		parts = append(parts, optional...)
		parts = append(parts, progress.Duration(s.Elapsed))
		rest := joinNonEmpty(parts, "  ")
		room := progressWidth - len([]rune(head)) - len("]: ") - len([]rune(rest))
		line = head + truncate(s.Family, max(room, 1)) + "]: " + rest
		if room >= min(len(family), minFamily) {
			break
		}
	}
	return truncate(line, progressWidth)
}

// joinNonEmpty joins the non-empty parts with sep.
func joinNonEmpty(parts []string, sep string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, sep)
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
