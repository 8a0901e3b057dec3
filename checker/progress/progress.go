// Package progress writes the progress line of a long run: what is done of how much,
// the work count and its rate, elapsed time, an estimate of the time left and the
// process's memory, at most once an interval.
//
// On a terminal the line updates in place (a carriage return and an erase to the end of
// the line before each update, a newline after the last); written anywhere else, for
// instance to a redirected stderr under --progress or a Slurm log, each update is one
// plain line. Checks, families, simulations and prove's claims all report with it, so a
// user reads one format everywhere:
//
//	pairs:3 on mesh:3x3: 1200/5000 members 24.0%  states 3.10M  41.2k states/s  elapsed 1m15s  ETA 3m58s  heap 120MiB rss 310MiB
package progress

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"
)

// DefaultEvery is the interval between updates when Options.Every is 0.
const DefaultEvery = time.Second

// Snapshot is what one update reports. The caller's snapshot function fills it from
// counters that the working code updates (atomics, or fields under a lock).
type Snapshot struct {
	// Done of Total Units are finished ("members", "cycles", "claims"); Total 0 means
	// the total is unknown and no ETA is shown; Unit "" shows no done/total at all.
	Done, Total int64
	Unit        string
	// Work counts the work done so far (states explored, flit-hops simulated); the rate
	// shown is Work per second over the last interval. WorkUnit names it ("" = "states").
	Work     int64
	WorkUnit string
	// Note is free text put after the figures (a frontier and depth, the current claim).
	Note string
}

// Options configure a Line.
type Options struct {
	// W receives the updates.
	W io.Writer
	// Label starts every line (the run's name); "" for none.
	Label string
	// Every is the interval between updates; 0 means DefaultEvery.
	Every time.Duration
	// Terminal selects the updating line; Auto (the default) uses it when W is a
	// terminal device.
	Terminal Mode
}

// Mode says whether a Line updates in place.
type Mode int

const (
	// Auto updates in place when the writer is an *os.File on a terminal.
	Auto Mode = iota
	// Plain writes one line per update.
	Plain
	// InPlace rewrites one line with carriage returns.
	InPlace
)

// Line is a running progress report. Its goroutine samples the snapshot function once
// an interval until Stop, which writes the final figures.
type Line struct {
	o      Options
	snap   func() Snapshot
	start  time.Time
	inPl   bool
	done   chan struct{}
	wg     sync.WaitGroup
	mu     sync.Mutex // serialises writes and the rate state
	prevW  int64
	prevT  time.Time
	width  int // length of the last in-place line, to erase leftovers
	closed bool
}

// Start begins reporting: every interval it calls snap and writes a line. A nil writer
// gives a Line whose methods do nothing, so callers need not test for it.
func Start(o Options, snap func() Snapshot) *Line {
	l := &Line{o: o, snap: snap, start: time.Now(), done: make(chan struct{})}
	if o.W == nil {
		l.closed = true
		return l
	}
	if l.o.Every <= 0 {
		l.o.Every = DefaultEvery
	}
	switch o.Terminal {
	case InPlace:
		l.inPl = true
	case Auto:
		l.inPl = IsTerminal(o.W)
	}
	l.prevT = l.start
	l.wg.Go(func() {
		t := time.NewTicker(l.o.Every)
		defer t.Stop()
		for {
			select {
			case <-l.done:
				return
			case now := <-t.C:
				l.write(l.snap(), now, false)
			}
		}
	})
	return l
}

// Stop ends the reporting and writes one last line with the figures of snap (on a
// terminal, ending the updating line with a newline). It is safe to call more than
// once; later calls do nothing.
func (l *Line) Stop() {
	if l == nil {
		return
	}
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	l.closed = true
	l.mu.Unlock()
	close(l.done)
	l.wg.Wait()
	l.write(l.snap(), time.Now(), true)
}

// Elapsed is the time since Start.
func (l *Line) Elapsed() time.Duration { return time.Since(l.start) }

func (l *Line) write(s Snapshot, now time.Time, final bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed && !final {
		return
	}
	d := now.Sub(l.prevT)
	delta := s.Work - l.prevW
	if final {
		// The last line shows the mean rate of the whole run.
		d, delta = now.Sub(l.start), s.Work
	}
	rate := 0.0
	if d > 0 {
		rate = float64(delta) / d.Seconds()
	}
	l.prevW, l.prevT = s.Work, now
	heap, rss := Memory()
	text := Format(l.o.Label, s, rate, now.Sub(l.start), heap, rss)
	// Progress is best effort: a failing writer must not fail the run.
	if l.inPl {
		pad := ""
		if n := len(text); n < l.width {
			pad = strings.Repeat(" ", l.width-n)
		}
		l.width = len(text)
		end := ""
		if final {
			end = "\n"
		}
		_, _ = io.WriteString(l.o.W, "\r"+text+pad+end)
		return
	}
	_, _ = io.WriteString(l.o.W, text+"\n")
}

// Format renders one progress line: the label, done/total with a percentage, the work
// count and rate, the elapsed time, the ETA (when the total is known and something is
// done), the Go heap and the resident set size (0 = unknown, not shown). It is pure, for
// tests and for callers that print their own lines.
func Format(label string, s Snapshot, rate float64, elapsed time.Duration, heap, rss uint64) string {
	var b strings.Builder
	sep := func() {
		if b.Len() > 0 {
			b.WriteString("  ")
		}
	}
	if label != "" {
		b.WriteString(label + ":")
	}
	if s.Unit != "" {
		sep()
		if s.Total > 0 {
			fmt.Fprintf(&b, "%d/%d %s %.1f%%", s.Done, s.Total, s.Unit, 100*float64(s.Done)/float64(s.Total))
		} else {
			fmt.Fprintf(&b, "%d %s", s.Done, s.Unit)
		}
	}
	unit := s.WorkUnit
	if unit == "" {
		unit = "states"
	}
	sep()
	fmt.Fprintf(&b, "%s %s  %s %s/s", unit, Count(float64(s.Work)), Count(rate), unit)
	sep()
	b.WriteString("elapsed " + Duration(elapsed))
	if s.Total > 0 && s.Done > 0 && s.Done < s.Total {
		left := time.Duration(float64(elapsed) * float64(s.Total-s.Done) / float64(s.Done))
		b.WriteString("  ETA " + Duration(left))
	}
	if heap > 0 {
		sep()
		b.WriteString("heap " + Bytes(heap))
	}
	if rss > 0 {
		sep()
		b.WriteString("rss " + Bytes(rss))
	}
	if s.Note != "" {
		sep()
		b.WriteString(s.Note)
	}
	return b.String()
}

// Count renders n with a k, M or G suffix and three significant digits ("41.2k").
func Count(n float64) string {
	switch a := n; {
	case a >= 1e9:
		return strconv.FormatFloat(n/1e9, 'f', digits(n/1e9), 64) + "G"
	case a >= 1e6:
		return strconv.FormatFloat(n/1e6, 'f', digits(n/1e6), 64) + "M"
	case a >= 1e4:
		return strconv.FormatFloat(n/1e3, 'f', digits(n/1e3), 64) + "k"
	}
	return strconv.FormatFloat(n, 'f', 0, 64)
}

func digits(x float64) int {
	switch {
	case x >= 100:
		return 0
	case x >= 10:
		return 1
	}
	return 2
}

// Duration renders d as "42s", "3m07s" or "2h05m".
func Duration(d time.Duration) string {
	s := int64(d.Round(time.Second) / time.Second)
	switch {
	case s < 60:
		return fmt.Sprintf("%ds", s)
	case s < 3600:
		return fmt.Sprintf("%dm%02ds", s/60, s%60)
	}
	return fmt.Sprintf("%dh%02dm", s/3600, s/60%60)
}

// Bytes renders n in MiB (GiB from 10 GiB up).
func Bytes(n uint64) string {
	if n >= 10<<30 {
		return fmt.Sprintf("%.1fGiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%dMiB", (n+(1<<19))>>20)
}

// Memory returns the Go heap in use (live and not yet collected objects) and the
// process's resident set size (from /proc/self/statm; 0 where that cannot be read).
// It stops the world briefly (runtime.ReadMemStats): call it at most about once a
// second.
func Memory() (heap, rss uint64) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc, RSS()
}

// RSS returns the resident set size of this process in bytes, or 0 where it cannot be
// read (systems without /proc).
func RSS() uint64 {
	data, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(data))
	if len(f) < 2 {
		return 0
	}
	pages, err := strconv.ParseUint(f[1], 10, 64)
	if err != nil {
		return 0
	}
	return pages * uint64(os.Getpagesize())
}

// IsTerminal reports whether w is an *os.File open on a character device (a terminal).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}
