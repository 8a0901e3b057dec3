package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/wormcheck/wormcheck/checker/progress"
	"github.com/wormcheck/wormcheck/proofs"
)

const proveHelp = `wormcheck prove [--quick | --full] [--only IDS] [--json] [--workers N] [--witness-dir D]

Runs the claims catalogue: every claim of the source papers that wormcheck
machine-checks, each with its source, semantics and expected verdict, and prints a table
of claim, source, semantics, expected, verdict, instances, states and time. Each claim
is checked on its instance families at one of three sizes:

  --quick    the small families CI runs: about 15 s of CPU in all
  (default)  bigger families: about 45 s of CPU, under three minutes of wall time on
             2 cores even when they are shared
  --full     the complete families: about an hour on 2 cores (TM2 and TM3 take most)

The exit code is 0 when every verdict is as expected, 1 otherwise, and 3 when the run
was interrupted (SIGINT or SIGTERM): the running claim is reported inconclusive with
what it had counted, the claims after it "not run".

Flags:
  --quick           the small families
  --full            the complete families
  --only IDS        comma-separated claim ids, e.g. --only WH1,WH2
  --json            one object: version, size, as_expected, interrupted, claims[{id,
                    source, claim, semantics, expected, verdict, instances, states,
                    seconds, witness}]; the witness is a wormcheck witness object
                    (kind trace, pair, instance, ...) or null
  --workers N       members checked at once (default: the number of CPUs); verdicts
                    and state counts do not depend on it
  --witness-dir D   write D/ID.json (replayable trace or witness), D/ID.svg, D/ID.pcap for
                    every claim that has a witness
  --progress        progress lines on stderr even when it is not a terminal (on a
                    terminal one line is updated in place): claim, family, members
                    done/total, states, states/s, elapsed, ETA of the family, memory
  --list            list the claims and what each family holds at each size

Examples:
  wormcheck prove --quick
  wormcheck prove --only WH2 --witness-dir out && wormcheck replay out/WH2.json
`

func init() {
	registerCommand(&command{Name: "prove", Summary: "run the claims catalogue (--quick for CI, --full for the complete families)", Help: proveHelp, Run: runProve})
}

func runProve(ctx context.Context, e *env, args []string) (int, error) {
	fs := newFlagSet("prove")
	quick := fs.Bool("quick", false, "small families")
	full := fs.Bool("full", false, "complete families")
	only := fs.String("only", "", "claim ids")
	asJSON := fs.Bool("json", false, "JSON output")
	workers := fs.Int("workers", runtime.NumCPU(), "members checked at once")
	witnessDir := fs.String("witness-dir", "", "directory for witnesses")
	progress := fs.Bool("progress", false, "progress on stderr")
	list := fs.Bool("list", false, "list claims")
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, errHelp) {
			fmt.Fprint(e.Stdout, proveHelp)
			return exitHolds, nil
		}
		return 0, err
	}
	if *workers < 1 || *workers > 256 {
		return 0, usagef("--workers %d is out of range; use 1..256", *workers)
	}
	if *quick && *full {
		return 0, usagef("--quick and --full exclude each other; give one")
	}
	size := proofs.Default
	switch {
	case *quick:
		size = proofs.Quick
	case *full:
		size = proofs.Full
	}
	claims, err := proofs.Select(*only)
	if err != nil {
		return 0, usagef("%v", err)
	}
	if *list {
		listClaims(e.Stdout, claims)
		return exitHolds, nil
	}
	if *witnessDir != "" {
		if err := os.MkdirAll(*witnessDir, 0o755); err != nil {
			return 0, usagef("--witness-dir: %v", err)
		}
	}
	opt := proofs.Options{Size: size, Workers: *workers, Meter: new(proofs.Meter)}
	var rep *proveProgress
	if *progress || e.StderrIsTerminal {
		rep = startProveProgress(e.Stderr, opt.Meter, e.StderrIsTerminal)
	}
	out := proofs.NewReport(toolVersion(), size)
	p := newProveTable(e.Stdout, !*asJSON)
	err = out.Run(ctx, claims, opt, func(r proofs.Result, cj proofs.ClaimReport) error {
		rep.claimDone(r)
		if *witnessDir != "" {
			if err := writeWitnessFiles(*witnessDir, cj.ID, r.Outcome.Files); err != nil {
				return err
			}
		}
		p.row(cj)
		return nil
	})
	if err != nil {
		rep.stop()
		return 0, err
	}
	rep.stop()
	if *asJSON {
		if err := writeJSON(e.Stdout, out); err != nil {
			return 0, err
		}
	} else {
		p.finish(out)
	}
	switch {
	case out.Interrupted:
		return exitInconclusive, nil
	case !out.AsExpected:
		return exitViolated, nil
	}
	return exitHolds, nil
}

// proveTable prints the table row by row as claims finish, then the notes.
type proveTable struct {
	w     io.Writer
	on    bool
	notes []string
}

const proveRow = "%-5s  %-34s  %-15s  %-8s  %-12s  %-10s  %9s  %11s  %8s\n"

func newProveTable(w io.Writer, on bool) *proveTable {
	if on {
		fmt.Fprintf(w, proveRow, "CLAIM", "SOURCE", "SEMANTICS", "EXPECTED", "VERDICT", "", "INSTANCES", "STATES", "TIME")
	}
	return &proveTable{w: w, on: on}
}

func (p *proveTable) row(cj proofs.ClaimReport) {
	if !p.on {
		return
	}
	inst, states, secs := fmt.Sprint(cj.Instances), fmt.Sprint(cj.States), fmt.Sprintf("%.2fs", cj.Seconds)
	if cj.Verdict == proofs.NotRun {
		inst, states, secs = "-", "-", "-"
	}
	fmt.Fprintf(p.w, proveRow, cj.ID, truncate(cj.Source, 34), cj.Semantics, cj.Expected, cj.Verdict, cj.Mark(), inst, states, secs)
	p.notes = append(p.notes, cj.Notes()...)
}

func (p *proveTable) finish(out *proofs.Report) {
	printNotes(p.w, p.notes)
	switch {
	case out.Interrupted:
		fmt.Fprintf(p.w, "\ninterrupted: %d of %d claims run, the last one inconclusive\n", out.Ran(), len(out.Claims))
	case out.AsExpected:
		fmt.Fprintf(p.w, "\nall %d claims as expected\n", len(out.Claims))
	default:
		fmt.Fprintf(p.w, "\nsome claims are NOT as expected\n")
	}
}

// listClaims prints every claim with its families and what each holds at each size.
func listClaims(w io.Writer, claims []proofs.Claim) {
	tw := tabwriter.NewWriter(w, 0, 2, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSOURCE\tSEMANTICS\tEXPECTED\tCLAIM")
	for _, c := range claims {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.ID, c.Source, c.Semantics, c.Expected, c.Statement)
	}
	tw.Flush()
	fmt.Fprintln(w, "\nFamilies (quick | default | full; - = not run at that size):")
	for _, c := range claims {
		for _, f := range c.Families {
			sz := make([]string, len(f.Sizes))
			for i, s := range f.Sizes {
				sz[i] = cmpOr(s, "-")
			}
			ev := ""
			if f.Evidence {
				ev = " (evidence)"
			}
			fmt.Fprintf(w, "  %s %s%s: %s\n", c.ID, f.Name, ev, strings.Join(sz, " | "))
		}
	}
}

func cmpOr(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func printNotes(w io.Writer, notes []string) {
	if len(notes) == 0 {
		return
	}
	fmt.Fprintln(w, "\nNotes:")
	for _, n := range notes {
		fmt.Fprintf(w, "  %s\n", n)
	}
}

func writeWitnessFiles(dir, id string, files map[string][]byte) error {
	exts := make([]string, 0, len(files))
	for ext := range files {
		exts = append(exts, ext)
	}
	slices.Sort(exts)
	for _, ext := range exts {
		p := filepath.Join(dir, id+"."+ext)
		if err := os.WriteFile(p, files[ext], 0o644); err != nil {
			return fmt.Errorf("writing witness %s: %v", p, err)
		}
	}
	return nil
}

// truncate shortens s to at most n runes, marking the cut with an ellipsis.
func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// proveProgress reports the running claim on stderr in the shared progress format
// (checker/progress.Format): on a terminal one line rewritten in place every second and
// cleared when the claim's row is printed, otherwise (--progress) a plain line every few
// seconds and one when each claim ends. Writes are best effort: a failing stderr must
// not fail the run.
type proveProgress struct {
	w     io.Writer
	meter *proofs.Meter
	tty   bool
	mu    sync.Mutex
	done  chan struct{}
	wg    sync.WaitGroup
	dirty bool // a terminal line is showing
}

// Progress intervals: once a second on a terminal, every 5 seconds as plain lines.
const (
	proveTTYEvery   = time.Second
	provePlainEvery = 5 * time.Second
)

func startProveProgress(w io.Writer, m *proofs.Meter, tty bool) *proveProgress {
	p := &proveProgress{w: w, meter: m, tty: tty, done: make(chan struct{})}
	every := provePlainEvery
	if tty {
		every = proveTTYEvery
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
func progressLine(s proofs.MeterSnapshot, rate float64) string {
	snap := progress.Snapshot{Done: s.Done, Total: s.Total, Work: s.States,
		Note: "claim " + progress.Duration(s.Elapsed)}
	if s.Done > 0 || s.Total > 0 {
		snap.Unit = "members"
	}
	heap, rss := progress.Memory()
	label := fmt.Sprintf("prove %s [%d/%d %s]", s.Claim, s.FamilyIndex, s.Families, s.Family)
	return progress.Format(label, snap, rate, time.Duration(s.FamilyElapsedSec*float64(time.Second)), heap, rss)
}

func (p *proveProgress) print(line string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.tty {
		_, _ = fmt.Fprintf(p.w, "\r%s\x1b[K", line)
		p.dirty = true
		return
	}
	_, _ = fmt.Fprintln(p.w, line)
}

// claimDone clears the terminal line and, for plain output, says how the claim ended.
func (p *proveProgress) claimDone(r proofs.Result) {
	if p == nil || r.Outcome.Verdict == proofs.NotRun {
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

// stop ends the reporter and clears its line.
func (p *proveProgress) stop() {
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
